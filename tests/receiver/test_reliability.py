"""Issue 13: lifts hold, reorderings converge, episode keys never collide, the floor is one rule, tags are
canonical, repeats are counted not journaled, decisions explain themselves, and hostile input is a 4xx."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from exporter.configkit import Secret
from exporter.receiver.app import build_app
from exporter.receiver.decide import Policy, decide_incident_add, decide_lift, decide_notification
from exporter.receiver.ladder import Ladder
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService
from exporter.receiver.state import Kind, Mode, State

from .helpers import ADMIN_TOKEN, DAY, T0, WEBHOOK_TOKEN, Clock, alert, bearer, make_config, payload, records

POLICY = Policy(
    Mode.ENFORCE, Ladder((DAY, 3 * DAY), 14 * DAY), min_routable_hosts=2, builtin=(), discovered_horizon=DAY
)
JSON = {"Content-Type": "application/json"}
WEBHOOK = {**bearer(WEBHOOK_TOKEN), **JSON}
ADMIN = {**bearer(ADMIN_TOKEN), **JSON}


def note(*alerts: dict[str, Any]) -> Notification:
    n = parse_notification(payload(*alerts))
    assert isinstance(n, Notification), n
    return n


def feed(state: State, notes: list[Notification], now: float = T0) -> State:
    for n in notes:
        state, _ = decide_notification(state, n, now, POLICY)
    return state


# -- lifts hold; reorderings converge ---------------------------------------------------------------
def test_a_lift_holds_against_a_second_replica_an_outage_and_an_older_episode() -> None:
    state = feed(State(), [note(alert("a/1"))])
    lifted = decide_lift(state, "m/x", "a/1", "false positive", T0 + 10, POLICY)
    assert not isinstance(lifted, tuple) or lifted[1][0].kind is Kind.LIFT
    assert isinstance(lifted, tuple)
    state = lifted[0]
    for starts in (T0 - 3590, T0 + 600, T0 - 7200):  # replica skew, after an outage, never seen before
        state, d = decide_notification(state, note(alert("a/1", starts_at=starts)), T0 + 700, POLICY)
        assert [x.kind for x in d] == [Kind.DUPLICATE] and not records(state).suspensions


def test_a_lift_until_ends_its_hold_at_that_time() -> None:
    state = feed(State(), [note(alert("a/1"))])
    lifted = decide_lift(state, "m/x", "a/1", "maintenance", T0 + 10, POLICY, until=T0 + 3600)
    assert isinstance(lifted, tuple)
    state, d = decide_notification(lifted[0], note(alert("a/1", starts_at=T0 + 100)), T0 + 3601, POLICY)
    assert [x.kind for x in d] == [Kind.EXPIRE, Kind.ESCALATE]


FAIL_1, CLEAN, FAIL_2 = T0 - 3600, T0 - 1800, T0 - 600  # failing, clean round, failing again


@pytest.mark.parametrize(
    "order",
    list(itertools.permutations(["fail1", "recover", "fail2"]))
    + list(itertools.permutations(["fail1", "recover"])),
)
def test_recoveries_and_firings_in_any_order_reach_the_same_routes(order: tuple[str, ...]) -> None:
    alerts = {
        "fail1": alert("a/1", starts_at=FAIL_1),
        "recover": alert("a/1", action="recover", starts_at=CLEAN),
        "fail2": alert("a/1", starts_at=FAIL_2),
    }
    state = feed(State(), [note(alerts[name]) for name in order])
    # suspended exactly when a failure started after the last clean round
    assert (("m/x", "a/1") in records(state).suspensions) == ("fail2" in order)


def test_episode_keys_never_collide_across_label_boundaries() -> None:
    first = alert("a|b", model="x")
    second = alert("b", model="x|a")
    assert note(first).alerts[0].episode != note(second).alerts[0].episode


# -- the floor is one rule; tags are canonical ------------------------------------------------------
def test_an_incident_that_breaks_the_floor_is_refused_unless_forced() -> None:
    state = feed(State(), [note(alert("a/1", discovered="a/1,b/1,c/1"))])
    refused = decide_incident_add(state, "m/x", "b/1", "outage", None, T0, POLICY)
    assert not isinstance(refused, tuple) and refused.status == 409 and "force" in refused.message
    forced = decide_incident_add(state, "m/x", "b/1", "outage", None, T0, POLICY, force=True)
    assert isinstance(forced, tuple)
    assert forced[1][-1].inputs["forced"] is True and forced[1][-1].inputs["routable_after"] == ["c/1"]


def test_tags_are_compared_as_the_gateway_matches_them() -> None:
    state = feed(State(), [note(alert("BETA/fp8 ", discovered="alpha/fp8, Beta/FP8,gamma/fp8,delta"))])
    assert ("m/x", "beta/fp8") in records(state).suspensions
    hosts = "alpha/fp8, Beta/FP8,gamma/fp8,delta"
    state, d = decide_notification(state, note(alert(" beta/FP8", discovered=hosts)), T0 + 1, POLICY)
    assert [x.kind for x in d] == [Kind.DUPLICATE]  # one host, whatever its case and spaces
    # an incident on the base slug "delta" would cover delta and delta/*: counted once by the floor
    added = decide_incident_add(state, "m/x", "Alpha", "outage", None, T0 + 2, POLICY)
    assert isinstance(added, tuple) and added[1][-1].provider == "alpha"


# -- harness over the HTTP API ----------------------------------------------------------------------
@pytest.fixture
def client(tmp_path: Path) -> Iterator[tuple[TestClient, ReceiverService]]:
    config = make_config(tmp_path / "store", read_token=Secret("env:TEST_READ", "read-token"))
    with ReceiverService(config, clock=Clock(), init=True) as service:
        yield TestClient(build_app(service), raise_server_exceptions=False), service


def test_repeats_are_counted_not_journaled(client: tuple[TestClient, ReceiverService]) -> None:
    http, service = client
    for _ in range(5):
        assert http.post("/v1/alerts", json=payload(alert("a/1")), headers=WEBHOOK).status_code == 200
    assert service.state.seq == 1  # one suspend; four duplicates counted only
    metrics = http.get("/metrics").text
    assert 'canary_receiver_decisions_total{kind="duplicate"} 4.0' in metrics


def test_decisions_and_suspensions_explain_the_suspension(client: tuple[TestClient, ReceiverService]) -> None:
    http, _ = client
    explained = alert("a/1")
    explained["annotations"] |= {
        "failing_contracts": "language,refusal",
        "failing_reasons": "foreign_language; refused",
        "evidence_url": "http://127.0.0.1:9464/v1/evidence?model=m/x&provider=a/1",
    }
    assert http.post("/v1/alerts", json=payload(explained), headers=WEBHOOK).status_code == 200
    (s,) = http.get("/v1/suspensions").json()["suspensions"]
    assert s["failing_contracts"] == ["language", "refusal"]
    assert s["failing_reasons"] == ["foreign_language", "refused"]
    assert s["evidence_url"].startswith("http://127.0.0.1:9464/v1/evidence")
    (d,) = http.get("/v1/decisions", headers=bearer("read-token")).json()["decisions"]
    assert d["explanation"]["failing_contracts"] == ["language", "refusal"]
    bad = alert("b/1")
    bad["annotations"]["evidence_url"] = "javascript:alert(1)"
    r = http.post("/v1/alerts", json=payload(bad), headers=WEBHOOK)
    assert r.status_code == 400 and "evidence_url: expected an http(s) URL" in r.text


def test_the_decision_log_can_require_a_read_token(client: tuple[TestClient, ReceiverService]) -> None:
    http, _ = client
    assert http.get("/v1/decisions").status_code == 401
    assert http.get("/v1/decisions", headers=bearer("wrong")).status_code == 401
    assert http.get("/v1/decisions", headers=bearer("read-token")).status_code == 200
    assert (
        http.get("/v1/decisions", params={"limit": "1001"}, headers=bearer("read-token")).status_code == 400
    )


@pytest.mark.parametrize(
    ("body", "headers", "status", "says"),
    [
        (b'{"version": "4", "alerts": [], "x": ' + b"9" * 5000 + b"}", WEBHOOK, 400, "number too large"),
        (b'{"version": "4", "alerts": [NaN]}', WEBHOOK, 400, "not a finite number"),
        (json.dumps(payload(alert("a/1"))).encode(), bearer(WEBHOOK_TOKEN), 415, "application/json"),
        (
            json.dumps(payload(alert("a/1"))).encode(),
            {**bearer(WEBHOOK_TOKEN), "Content-Type": "text/plain"},
            415,
            "text/plain",
        ),
        (
            json.dumps(payload(alert("a/1"))).replace("2027", "\u0662\u0660\u0662\u0667").encode(),
            WEBHOOK,
            400,
            "startsAt: expected an RFC 3339 timestamp",
        ),
        (json.dumps(payload(*[alert(f"h{i}/1") for i in range(1001)])).encode(), WEBHOOK, 413, "1001 alerts"),
    ],
)
def test_hostile_webhook_bodies_get_a_clear_4xx(
    client: tuple[TestClient, ReceiverService], body: bytes, headers: dict[str, str], status: int, says: str
) -> None:
    http, service = client
    service.config = service.config  # the fixture's limit is 1 MiB
    r = http.post("/v1/alerts", content=body, headers=headers)
    assert r.status_code == status and says in r.text, (r.status_code, r.text[:300])


def test_oversized_labels_and_annotations_are_refused(client: tuple[TestClient, ReceiverService]) -> None:
    http, _ = client
    long_label = alert("a/1")
    long_label["labels"]["team"] = "x" * 2000
    many_hosts = alert("a/1", discovered=",".join(f"h{i}/1" for i in range(600)))
    for body, says in ((long_label, "labels.team: 2000 characters"), (many_hosts, "600 tags")):
        r = http.post("/v1/alerts", json=payload(body), headers=WEBHOOK)
        assert r.status_code == 400 and says in r.text, r.text
    r = http.post(
        "/v1/admin/incidents", json={"model": "m/x", "provider": "a/1", "reason": "r" * 5000}, headers=ADMIN
    )
    assert r.status_code == 400 and "longer than 4096" in r.text
