"""The HTTP API through its public interface: auth, limits, 4xx errors, ETags, admin actions, metrics."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from exporter.receiver import service as service_module
from exporter.receiver.app import build_app
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.service import ReceiverService, route_cursor
from exporter.receiver.state import Mode
from exporter.receiver.store import is_empty_store_dir
from exporter.timestamps import format_rfc3339

from .helpers import ADMIN_TOKEN, DAY, FIXTURES, T0, WEBHOOK_TOKEN, Clock, alert, bearer, make_config, payload

WEBHOOK = {**bearer(WEBHOOK_TOKEN), "Content-Type": "application/json"}
ADMIN = {**bearer(ADMIN_TOKEN), "Content-Type": "application/json"}


class Harness:
    def __init__(self, tmp_path: Path, **overrides: Any) -> None:
        self.clock = Clock()
        self.fail_writes = False
        overrides.setdefault(
            "builtin", (BuiltinExclusion(model="m/x", provider="b/1", reason="control host"),)
        )
        self.config = make_config(tmp_path / "store", max_body_bytes=4096, **overrides)
        fresh = is_empty_store_dir(self.config.store_dir)  # a second harness on the same directory reopens it
        self.service = ReceiverService(self.config, clock=self.clock, fault=self._fault, init=fresh)
        self.client = TestClient(build_app(self.service))

    def _fault(self) -> None:
        if self.fail_writes:
            raise OSError(5, "Input/output error")

    def __enter__(self) -> Harness:
        return self

    def __exit__(self, *exc: object) -> None:
        self.client.close()
        self.service.close()

    def post_alerts(self, body: Any, headers: dict[str, str] | None = None) -> Any:
        return self.client.post("/v1/alerts", json=body, headers=WEBHOOK if headers is None else headers)


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    with Harness(tmp_path) as harness:
        yield harness


def test_webhook_requires_its_own_bearer_token(h: Harness) -> None:
    body = payload(alert("a/1"))
    for headers in ({}, bearer("nope"), ADMIN, {"Authorization": "Basic eDp5"}):
        r = h.post_alerts(body, headers)
        assert r.status_code == 401 and r.json()["error"] == "unauthorized"
    assert h.service.state.seq == 0


def test_oversized_bodies_are_refused_while_reading(h: Harness) -> None:
    big = json.dumps(payload(*[alert(f"h{i}/1") for i in range(40)])).encode()
    assert len(big) > 4096
    r = h.client.post("/v1/alerts", content=big, headers=WEBHOOK)
    assert r.status_code == 413 and "4096" in r.json()["message"]
    sent: list[int] = []

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit is enforced on the stream
        for i in range(0, len(big), 1000):
            sent.append(i)
            yield big[i : i + 1000]

    r = h.client.post("/v1/alerts", content=chunks(), headers=WEBHOOK)
    assert r.status_code == 413


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            b'{"version":"4","alerts":[{"status":"firing","labels":{"action":"sus',
            "<body>: invalid JSON at line 1",
        ),
        (b"", "<body>: empty"),
        (b"\xff\xfe{}", "<body>: byte 0: not UTF-8"),
        (b"[" * 2000 + b"]" * 2000, "<body>: nested too deeply"),
        (json.dumps(payload(alert("a/1"), version="5")).encode(), "version: expected '4'"),
        (
            json.dumps(
                payload(
                    alert("a/1"),
                    {
                        "status": "firing",
                        "labels": {"action": "recover", "provider": "p"},
                        "startsAt": format_rfc3339(T0),
                    },
                )
            ).encode(),
            "alerts[1].labels.model: missing",
        ),
        # Instants that parse but cannot be formatted (UTC year 10000, or before 1970) were a 500.
        (
            json.dumps(payload({**alert("a/1"), "startsAt": "9999-12-31T23:59:59-01:00"})).encode(),
            "alerts[0].startsAt: out of range",
        ),
        (
            json.dumps(payload({**alert("a/1"), "startsAt": "0001-01-01T00:00:00+01:00"})).encode(),
            "alerts[0].startsAt: out of range",
        ),
        # A lone surrogate escape decodes but cannot be stored as UTF-8: was a 500 at commit.
        (
            json.dumps(payload(alert("a/1"))).replace('"severity"', '"note": "\\ud800", "severity"').encode(),
            "alerts[0].labels.note: a lone surrogate",
        ),
        (
            json.dumps(payload(alert("a/1"))).replace('"severity"', '"\\udc00": "x", "severity"').encode(),
            "alerts[0].labels (a key): a lone surrogate",
        ),
    ],
)
def test_bad_payloads_get_a_clear_400_and_change_nothing(h: Harness, content: bytes, problem: str) -> None:
    r = h.client.post("/v1/alerts", content=content, headers=WEBHOOK)
    assert r.status_code == 400, r.text
    assert any(p.startswith(problem) for p in r.json()["problems"]), r.json()
    assert h.service.state.seq == 0


def test_real_alertmanager_and_grafana_payloads(h: Harness) -> None:
    r = h.client.post("/v1/alerts", content=(FIXTURES / "alertmanager_v4.json").read_bytes(), headers=WEBHOOK)
    assert r.status_code == 200
    assert [(d["kind"], d["provider"]) for d in r.json()["decisions"]] == [
        ("suspend", "garbler/bf16"),
        ("ignored", "mixer/fp8"),  # resolved: recorded, never lifts
    ]
    r = h.client.post("/v1/alerts", content=(FIXTURES / "grafana_v1.json").read_bytes(), headers=WEBHOOK)
    assert r.status_code == 200
    kinds = [d["kind"] for d in r.json()["decisions"]]
    assert kinds == ["suspend", "ignored", "ignored"]  # DatasourceNoData and DatasourceError never act


def test_ignore_list_is_served_with_etag_and_304(h: Harness) -> None:
    r = h.client.get("/v1/ignore", params={"model": "m/x"})
    assert r.status_code == 200
    assert r.json() == {
        "model": "m/x",
        "ignore": ["b/1"],
        "entries": [{"provider": "b/1", "layer": "builtin", "reason": "control host", "until": None}],
        "generated_at": format_rfc3339(T0),
    }
    etag = r.headers["etag"]
    assert (
        h.client.get("/v1/ignore", params={"model": "m/x"}, headers={"If-None-Match": etag}).status_code
        == 304
    )
    h.post_alerts(payload(alert("a/1")))
    r2 = h.client.get("/v1/ignore", params={"model": "m/x"}, headers={"If-None-Match": etag})
    assert r2.status_code == 200 and r2.json()["ignore"] == ["a/1", "b/1"] and r2.headers["etag"] != etag
    assert r2.json()["entries"][0]["until"] == format_rfc3339(T0 + DAY)
    unknown = h.client.get("/v1/ignore", params={"model": "nobody/knows"})
    assert unknown.status_code == 200 and unknown.json()["ignore"] == []
    assert h.client.get("/v1/ignore").status_code == 400


def test_observe_mode_lists_would_be_suspensions_but_never_ignores_them(tmp_path: Path) -> None:
    h = Harness(tmp_path, mode=Mode.OBSERVE, builtin=())
    with h.client:
        assert h.post_alerts(payload(alert("a/1"))).json()["decisions"][0]["kind"] == "observe"
        assert h.client.get("/v1/ignore", params={"model": "m/x"}).json()["ignore"] == []
        listed = h.client.get("/v1/suspensions").json()["suspensions"]
        assert [(s["provider"], s["mode"], s["rung"]) for s in listed] == [("a/1", "observe", 1)]
    h.service.close()


def test_admin_lift_and_incidents_need_the_admin_token(h: Harness) -> None:
    h.post_alerts(payload(alert("a/1")))
    lift = {"model": "m/x", "provider": "a/1", "reason": "false positive"}
    assert h.client.post("/v1/admin/lift", json=lift, headers=WEBHOOK).status_code == 401
    r = h.client.post("/v1/admin/lift", json=lift, headers=ADMIN)
    assert r.status_code == 200 and r.json()["decisions"][0]["kind"] == "lift"
    assert h.client.post("/v1/admin/lift", json=lift, headers=ADMIN).status_code == 404
    assert h.post_alerts(payload(alert("a/1"))).json()["decisions"][0]["kind"] == "duplicate"

    bad = h.client.post("/v1/admin/incidents", json={"model": "m/x", "until": "soon"}, headers=ADMIN)
    assert bad.status_code == 400
    assert set(bad.json()["problems"]) == {  # every problem at once, the bad until included
        "provider: missing (a non-empty string)",
        "reason: missing (a non-empty string)",
        "until: expected an RFC 3339 timestamp such as 2026-11-29T15:41:37Z, got 'soon'",
    }
    past = {"model": "m/x", "provider": "c/1", "reason": "outage", "until": format_rfc3339(T0 - 1)}
    assert h.client.post("/v1/admin/incidents", json=past, headers=ADMIN).status_code == 400
    incident = {"model": "m/x", "provider": "c/1", "reason": "outage", "until": format_rfc3339(T0 + 3600)}
    r = h.client.post("/v1/admin/incidents", json=incident, headers=ADMIN)
    assert r.status_code == 201
    incident_id = r.json()["id"]
    assert [i["id"] for i in h.client.get("/v1/incidents").json()["incidents"]] == [incident_id]
    assert "c/1" in h.client.get("/v1/ignore", params={"model": "m/x"}).json()["ignore"]
    assert h.client.delete(f"/v1/admin/incidents/{incident_id}", headers=WEBHOOK).status_code == 401
    assert (
        h.client.delete(f"/v1/admin/incidents/{incident_id}?reason=fixed", headers=ADMIN).status_code == 200
    )
    assert h.client.delete(f"/v1/admin/incidents/{incident_id}", headers=ADMIN).status_code == 404
    assert h.client.get("/v1/incidents").json()["incidents"] == []


def test_expired_incidents_leave_the_list_on_the_sweep(h: Harness) -> None:
    incident = {"model": "m/x", "provider": "c/1", "reason": "outage", "until": format_rfc3339(T0 + 60)}
    h.client.post("/v1/admin/incidents", json=incident, headers=ADMIN)
    h.clock.advance(61)
    assert [d.kind for d in h.service.sweep()] == ["expire"]
    assert h.client.get("/v1/ignore", params={"model": "m/x"}).json()["ignore"] == ["b/1"]


def test_a_failed_durable_write_is_a_503_and_nothing_changes(h: Harness) -> None:
    h.fail_writes = True
    r = h.post_alerts(payload(alert("a/1")))
    assert r.status_code == 503 and r.json()["error"] == "store_unavailable"
    assert h.client.get("/v1/ignore", params={"model": "m/x"}).json()["ignore"] == ["b/1"]
    h.fail_writes = False
    assert h.post_alerts(payload(alert("a/1"))).status_code == 200  # Alertmanager's retry succeeds


def test_decision_log_pages_by_seq_and_rejects_bad_queries(h: Harness) -> None:
    h.post_alerts(payload(alert("a/1"), alert("z/1", action=None)))
    repeat = h.post_alerts(payload(alert("a/1"))).json()["decisions"]
    assert [(d["kind"], d["seq"]) for d in repeat] == [("duplicate", None)]  # counted, not journaled
    h.post_alerts(payload(alert("a/1", starts_at=T0 - 60)))  # a new episode: journaled once
    everything = h.client.get("/v1/decisions").json()["decisions"]
    assert [d["kind"] for d in everything] == ["suspend", "ignored", "duplicate"]
    page = h.client.get("/v1/decisions", params={"since": "1", "limit": "1"}).json()
    assert [d["seq"] for d in page["decisions"]] == [2] and page["next_since"] == 2
    by_time = h.client.get("/v1/decisions", params={"since": format_rfc3339(T0)}).json()["decisions"]
    assert len(by_time) == 3
    assert h.client.get("/v1/decisions", params={"limit": "0"}).status_code == 400
    assert h.client.get("/v1/decisions", params={"since": "last tuesday"}).status_code == 400


def test_health_metrics_and_openapi(h: Harness) -> None:
    h.post_alerts(payload(alert("a/1"), alert("b/1"), alert("c/1"), alert("d/1")))
    h.client.post("/v1/alerts", json=[], headers=WEBHOOK)
    assert h.client.get("/healthz").json()["status"] == "ok"
    text = h.client.get("/metrics").text
    for line in (
        'canary_receiver_suspension_active{mode="enforce",model="m/x",provider="a/1"} 1.0',
        'canary_receiver_suspension_rung{mode="enforce",model="m/x",provider="a/1"} 1.0',
        'canary_receiver_offense_level{model="m/x",provider="a/1"} 1.0',
        'canary_receiver_ignored_providers{layer="builtin",model="m/x"} 1.0',
        'canary_receiver_decisions_total{kind="floor_block"} 2.0',
        'canary_receiver_floor_blocks_total{model="m/x"} 2.0',
        'canary_receiver_webhook_requests_total{result="ok"} 1.0',
        'canary_receiver_webhook_requests_total{result="bad_request"} 1.0',
        'canary_receiver_mode{mode="enforce"} 1.0',
        "canary_receiver_store_write_seconds_count 1.0",
    ):
        assert line in text, line
    assert h.client.get("/openapi.json").json()["openapi"].startswith("3.")


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (
            {"model": "m/x", "provider": "c/1", "reason": "r", "until": "9999-12-31T23:59:59-01:00"},
            "until: out of range",
        ),
        (
            {"model": "m/x", "provider": "c/1", "reason": "r", "until": "0001-01-01T00:00:00+01:00"},
            "until: out of range",
        ),
        ({"model": "m/x", "provider": "c/1", "reason": "x\udc00"}, "reason: a lone surrogate"),
        ({"model": "m/\ud800", "provider": "c/1", "reason": "r"}, "model: a lone surrogate"),
    ],
)
def test_bad_admin_incidents_get_a_clear_400_and_change_nothing(
    h: Harness, body: dict[str, str], problem: str
) -> None:
    content = json.dumps(body).encode()  # json.dumps escapes lone surrogates as \udXXX
    r = h.client.post("/v1/admin/incidents", content=content, headers=ADMIN)
    assert r.status_code == 400, r.text
    assert any(p.startswith(problem) for p in r.json()["problems"]), r.json()
    assert h.service.state.seq == 0
    # and the store still opens and decides with the next seq
    assert h.post_alerts(payload(alert("a/1"))).json()["decisions"][0]["seq"] == 1


def test_a_non_ascii_bearer_token_is_compared_as_bytes(tmp_path: Path) -> None:
    from exporter.configkit import Secret

    harness = Harness(tmp_path, webhook_token=Secret("env:W", "jeton-secret-é"))
    with harness.client as client:
        good = {"Authorization": "Bearer jeton-secret-é".encode()}
        bad = {"Authorization": "Bearer jeton-secret-è".encode()}
        assert client.post("/v1/alerts", json=payload(alert("a/1")), headers=good).status_code == 200
        assert client.post("/v1/alerts", json=payload(alert("c/1")), headers=bad).status_code == 401
    harness.service.close()


def test_the_sweeper_survives_any_exception(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import time

    class Flaky(ReceiverService):
        calls = 0

        def sweep(self) -> Any:
            Flaky.calls += 1
            if Flaky.calls <= 2:
                raise ValueError("boom")
            return super().sweep()

    config = make_config(tmp_path / "store")
    service = Flaky(config, clock=Clock(), init=True)
    with TestClient(build_app(service, sweep_interval=0.01)):
        deadline = time.monotonic() + 5
        while Flaky.calls < 4 and time.monotonic() < deadline:
            time.sleep(0.01)
    service.close()
    assert Flaky.calls >= 4  # kept sweeping after two failures
    assert any("expiry sweep failed" in r.message and r.exc_info for r in caplog.records)


def test_suspensions_are_listed_in_pages_through_a_cursor(h: Harness) -> None:
    """Routes by model then provider, a hold among them; each page at most ``limit`` routes, its
    ``next_after`` the cursor of the next, null on the last; the pages add up to the whole listing."""
    for model in ("m/x", "n/x", "o/x"):
        h.post_alerts(payload(alert("a/1", model=model), alert("b/1", model=model)))
    lift = {"model": "n/x", "provider": "a/1", "reason": "false positive"}
    assert h.client.post("/v1/admin/lift", json=lift, headers=ADMIN).status_code == 200
    whole = h.client.get("/v1/suspensions").json()
    assert whole["next_after"] is None
    routes = [(s["model"], s["provider"]) for s in whole["suspensions"]]
    assert routes == [("m/x", "a/1"), ("m/x", "b/1"), ("n/x", "b/1"), ("o/x", "a/1"), ("o/x", "b/1")]
    assert [(x["model"], x["provider"]) for x in whole["holds"]] == [("n/x", "a/1")]
    paged: dict[str, list[Any]] = {"suspensions": [], "holds": []}
    params: dict[str, str | int] = {"limit": 2}
    sizes = []
    while True:
        page = h.client.get("/v1/suspensions", params=params).json()
        sizes.append(len(page["suspensions"]) + len(page["holds"]))
        for key in paged:
            paged[key] += page[key]
        if page["next_after"] is None:
            break
        params = {"limit": 2, "after": page["next_after"]}
    assert sizes == [2, 2, 2] and paged == {k: whole[k] for k in paged}
    # Any base64url text names a position: the routes after it (here: every route of n/x and after).
    position = {"after": route_cursor(("n/x", ""))}
    assert h.client.get("/v1/suspensions", params=position).json()["suspensions"] == whole["suspensions"][2:]
    for bad in (
        {"limit": 0},
        {"limit": 1001},
        {"limit": "²"},
        {"after": "a"},
        {"after": "ab$c"},
        {"after": "a" * 16388},
    ):
        r = h.client.get("/v1/suspensions", params=bad)
        assert r.status_code == 400 and r.json()["problems"], bad


def test_a_suspensions_page_stops_at_its_byte_budget(h: Harness, monkeypatch: pytest.MonkeyPatch) -> None:
    """A page holds whole routes up to the budget (at least one), and the cursor resumes after the last."""
    h.post_alerts(payload(*(alert(p, model="m/x", discovered="a/1,b/1,c/1,d/1,e/1,f/1,g/1") for p in "abc")))
    whole = h.client.get("/v1/suspensions").json()["suspensions"]
    one = len(json.dumps(whole[0], separators=(",", ":")))
    monkeypatch.setattr(service_module, "SUSPENSIONS_PAGE_MAX_BYTES", one + one // 2)
    pages, after = [], None
    while True:
        page = h.client.get("/v1/suspensions", params={"after": after} if after else {}).json()
        pages.append(page["suspensions"])
        if (after := page["next_after"]) is None:
            break
    assert [len(p) for p in pages] == [1, 1, 1] and [s for p in pages for s in p] == whole


def test_the_listings_are_sent_byte_for_byte_as_documented(h: Harness) -> None:
    """``/v1/suspensions``, ``/v1/incidents`` and ``/v1/ignore`` of one suspension (with its explanation),
    one lift's hold, one incident and one built-in exclusion, exactly as clients read them."""
    failing = alert("a/1", discovered="a/1,c/1,d/1,e/1")
    failing["annotations"].update(
        {
            "failing_contracts": "refusal",
            "failing_reasons": "refusal=refused",
            "evidence_url": "http://127.0.0.1:9464/v1/evidence?model=m/x",
        }
    )
    assert h.post_alerts(payload(failing, alert("c/1", discovered="a/1,c/1,d/1,e/1"))).status_code == 200
    lift = {"model": "m/x", "provider": "c/1", "reason": "false positive"}
    assert h.client.post("/v1/admin/lift", json=lift, headers=ADMIN).status_code == 200
    incident = {"model": "m/x", "provider": "d/1", "reason": "outage", "until": "2027-01-20T00:00:00Z"}
    assert h.client.post("/v1/admin/incidents", json=incident, headers=ADMIN).status_code == 201
    h.clock.advance(60)
    assert h.client.get("/v1/suspensions").content == (
        b'{"mode":"enforce","generated_at":"2027-01-15T08:01:00.000Z","suspensions":[{"model":"m/x'
        b'","provider":"a/1","mode":"enforce","rung":1,"since":"2027-01-15T08:00:00.000Z","until":'
        b'"2027-01-16T08:00:00.000Z","reason":"suspended at rung 1 for 1d until 2027-01-16T08:00:0'
        b'0.000Z (CanaryProviderFailing; 3 routable hosts remain (floor 2))","episode":"[\\"suspend'
        b'\\",\\"m/x\\",\\"a/1\\",\\"CanaryProviderFailing\\",\\"2027-01-15T07:00:00.000Z\\"]","failing_con'
        b'tracts":["refusal"],"failing_reasons":["refusal=refused"],"evidence_url":"http://127.0.0'
        b'.1:9464/v1/evidence?model=m/x","offense_level":1,"offenses":[{"at":"2027-01-15T08:00:00.'
        b'000Z","until":"2027-01-16T08:00:00.000Z","rung":1,"ended_at":null}]}],"holds":[{"model":'
        b'"m/x","provider":"c/1","since":"2027-01-15T08:00:00.000Z","until":null,"reason":"lifted '
        b'by an administrator: false positive"}],"next_after":null}'
    )
    assert h.client.get("/v1/incidents").content == (
        b'{"incidents":[{"id":"inc-4","model":"m/x","provider":"d/1","reason":"outage","since":"20'
        b'27-01-15T08:00:00.000Z","until":"2027-01-20T00:00:00.000Z"}]}'
    )
    assert h.client.get("/v1/ignore", params={"model": "m/x"}).content == (
        b'{"model":"m/x","ignore":["a/1","b/1","d/1"],"entries":[{"provider":"a/1","layer":"suspen'
        b'sion","reason":"suspended at rung 1 for 1d until 2027-01-16T08:00:00.000Z (CanaryProvide'
        b'rFailing; 3 routable hosts remain (floor 2))","until":"2027-01-16T08:00:00.000Z"},{"prov'
        b'ider":"b/1","layer":"builtin","reason":"control host","until":null},{"provider":"d/1","l'
        b'ayer":"incident","reason":"outage","until":"2027-01-20T00:00:00.000Z"}],"generated_at":"'
        b'2027-01-15T08:00:00.000Z"}'
    )
