"""End to end: every notification a person gets says which host, which contract, why, and links absolutely.

Real components: the receiver's decisions (its service, driven through its HTTP API in process) exported by
its real metrics code; a real Prometheus evaluating the rules rendered by ``canary rules render`` with an
absolute runbook base and receiver URL; the real Alertmanager 0.25 with the shipped config and templates,
whose people receivers post their rendered Slack-format messages to a loopback sink. The exporter's side is
a fixed exposition (failing streaks, reasons, its external URL). Alert ``for:`` durations are set to 0s in
the rendered copy so the test does not wait minutes, as the launcher compresses Alertmanager's timings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from starlette.testclient import TestClient

from exporter.devtools.pipeline.configs import SHIPPED_PROMETHEUS_CONFIG, Timings
from exporter.devtools.pipeline.processes import AlertmanagerProcess, PrometheusProcess
from exporter.generators.rulerender import RulesConfig, rendered_files
from exporter.receiver.app import build_app
from exporter.receiver.metrics import render
from exporter.receiver.service import ReceiverService
from tests.pipeline.loopback import MetricsServer, WebhookSink
from tests.receiver.helpers import ADMIN_TOKEN, DAY, WEBHOOK_TOKEN, Clock, alert, bearer, make_config, payload

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

RUNBOOK = "https://runbooks.example.org/canary/runbook.md"
RECEIVER_URL = "https://quarantine.example.org"
EXPORTER_URL = "https://canary.example.org"
MODEL = "m/x"
ROUTE_KINDS = ("CanaryCapacityFloorBlocked", "CanaryProviderSuspended", "CanaryQuarantineChanged")
WEBHOOK = {**bearer(WEBHOOK_TOKEN), "Content-Type": "application/json"}
ADMIN = {**bearer(ADMIN_TOKEN), "Content-Type": "application/json"}
EXPORTER_FAILING = f"""\
canary_exporter_external_url_info{{url="{EXPORTER_URL}"}} 1
canary_round_interval_seconds 1800
canary_probe_failing_streak{{model="m/x",provider="a/1",contract="refusal"}} 2
canary_probe_failing_streak{{model="m/x",provider="b/1",contract="refusal"}} 2
canary_probe_failing_streak{{model="m/x",provider="c/1",contract="refusal"}} 0
canary_probe_outcomes_total{{model="m/x",provider="a/1",contract="refusal",outcome="fail",reason="refused"}} 3
canary_probe_failing_streak{{model="m/y",provider="p1",contract="refusal"}} 1
canary_probe_failing_streak{{model="m/y",provider="p2",contract="refusal"}} 1
canary_probe_failing_streak{{model="m/y",provider="p3",contract="refusal"}} 1
canary_probe_failing_streak{{model="m/y",provider="p4",contract="refusal"}} 0
"""


def down() -> str:
    raise ConnectionAbortedError("this receiver replica is down")  # the scrape gets no answer: up == 0


def messages(chat: WebhookSink) -> list[tuple[str, str]]:
    """(title, text) of every attachment people would read, in arrival order."""
    return [
        (a.get("title", ""), a.get("text", ""))
        for d in chat.deliveries()
        if d.path == "/chat"
        for a in d.body.get("attachments") or []
    ]


def decide(client: TestClient, service: ReceiverService, clock: Clock) -> float:
    """Every quarantine transition people are told about, on hosts a/1, b/1, c/1 of m/x (floor 2); returns
    the start of b/1's failure, whose suspension the floor blocks."""

    def failing(provider: str, starts_at: float) -> dict[str, Any]:
        a = alert(provider, model=MODEL, discovered="a/1,b/1,c/1", starts_at=starts_at)
        a["annotations"].update(failing_contracts="refusal", failing_reasons="refusal=refused")
        return a

    def post(*alerts: dict[str, Any]) -> None:
        assert client.post("/v1/alerts", json=payload(*alerts), headers=WEBHOOK).status_code == 200

    def admin(method: str, path: str, body: dict[str, Any]) -> Any:
        r = client.request(method, path, json=body, headers=ADMIN)
        assert r.status_code in (200, 201), r.text
        return r.json()

    post(failing("a/1", clock.now - 60))  # suspend
    clock.advance(DAY + 1)
    # its suspension ends while its alert still fires: expired and renewed at the next rung
    assert [str(d.kind) for d in service.sweep()] == ["expire", "escalate"]
    post(alert("a/1", model=MODEL, action="recover", starts_at=clock.now - 30, discovered=None))  # recover
    post(failing("c/1", clock.now - 20))  # suspend c/1
    admin("POST", "/v1/admin/lift", {"model": MODEL, "provider": "c/1", "reason": "vendor fixed it"})
    added = admin("POST", "/v1/admin/incidents", {"model": MODEL, "provider": "c/1", "reason": "maintenance"})
    admin("DELETE", f"/v1/admin/incidents/{added['id']}", {"reason": "maintenance over"})
    post(failing("a/1", clock.now - 10))  # a/1 fails again: suspended (a new episode)
    post(failing("b/1", clock.now - 5))  # b/1 would leave c/1 alone: the floor blocks it
    return clock.now - 5


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    tmp = tmp_path_factory.mktemp("pages")
    clock = Clock()
    service = ReceiverService(
        make_config(tmp / "store", builtin=(), min_routable_hosts=2), clock=clock, init=True
    )
    client = TestClient(build_app(service, sweep_interval=3600.0))
    receiver, flaky, exporter, chat = MetricsServer(), MetricsServer(), MetricsServer(), WebhookSink()
    flaky.serve(down)  # a second receiver replica, down until the end
    exporter.serve(lambda: EXPORTER_FAILING)

    rules_dir = tmp / "rules"
    for path, text in rendered_files(
        RulesConfig(runbook_base=RUNBOOK, receiver_url=RECEIVER_URL), rules_dir
    ).items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(re.sub(r"(?m)^(\s+)for: \S+$", r"\1for: 0s", text))
    (tmp / "config").mkdir()
    shipped = yaml.safe_load(SHIPPED_PROMETHEUS_CONFIG.read_text())
    (tmp / "config" / "prometheus.yml").write_text(
        yaml.safe_dump({**shipped, "rule_files": [str(rules_dir / "canary.rules.yml")]})
    )
    token = tmp / "token"
    token.write_text(WEBHOOK_TOKEN)
    timings = Timings(scrape_interval=0.5, evaluation_interval=0.5, group_interval=1.0, repeat_interval=600.0)
    with client:
        am = AlertmanagerProcess(
            tmp / "am", webhook_url=chat.url("/machine"), token_file=token, timings=timings,
            chat_url=chat.url("/chat"),
        )  # fmt: skip
        with am:
            prometheus = PrometheusProcess(
                tmp / "prom",
                targets={
                    "canary-exporter": exporter.address,
                    "canary-receiver": [receiver.address, flaky.address],
                    "alertmanager": am.address,
                },
                alertmanagers=[am.address],
                timings=timings,
                shipped_config=tmp / "config" / "prometheus.yml",
            )
            with prometheus:
                # The exporter has been running before the receiver decides anything (as in production):
                # the alerts' annotations read its series when they first fire.
                prometheus.wait_until(
                    lambda: bool(prometheus.query("canary_exporter_external_url_info and on (job) up == 1")),
                    what="the exporter scraped",
                )
                blocked_since = decide(client, service, clock)
                # Published once every decision is taken, so each alert fires with its final annotations.
                receiver.serve(lambda: render(service.metrics_snapshot).decode())
                yield {
                    "client": client,
                    "chat": chat,
                    "am": am,
                    "blocked_since": blocked_since,
                    "flaky": flaky,
                    "exporter": exporter,
                }
    for endpoint in (receiver, flaky, exporter, chat):
        endpoint.close()
    service.close()


def wait_for(pipeline: dict[str, Any], found: Callable[[list[tuple[str, str]]], bool], what: str) -> None:
    chat: WebhookSink = pipeline["chat"]
    pipeline["am"].wait_until(
        lambda: found(messages(chat)),
        what=f"{what}; people got so far:\n" + "\n---\n".join("\n".join(m) for m in messages(chat)),
        timeout=60,
    )


TRANSITIONS = ("escalate", "expire", "recover", "lift", "incident_add", "incident_remove")


def field(text: str, name: str) -> str:
    found = re.search(rf"^{name}: (.+)$", text, flags=re.MULTILINE)
    assert found, f"no {name!r} line in:\n{text}"
    return found.group(1)


def assert_names_host_contract_reason_and_links(client: TestClient, text: str, provider: str) -> None:
    assert field(text, "model") == MODEL and field(text, "provider") == provider, text
    assert re.fullmatch(r"[a-z_]+", field(text, "contract")), text
    assert re.fullmatch(r"[a-z_]+(: [a-z_]+)?", field(text, "reason")), text
    assert field(text, "runbook").startswith(f"{RUNBOOK}#canary"), text
    evidence = field(text, "evidence")
    assert evidence.startswith(
        f"{EXPORTER_URL}/v1/evidence?model=m%2Fx&provider={provider.replace('/', '%2F')}"
    )


def decision_behind(client: TestClient, text: str) -> dict[str, Any]:
    """The receiver's decision the notification links (its URL is absolute; the path is the receiver's)."""
    link = field(text, "decision")
    assert link.startswith(f"{RECEIVER_URL}/v1/decisions?since="), text
    (decision,) = client.get(link.removeprefix(RECEIVER_URL)).json()["decisions"]
    return decision


def test_every_quarantine_transition_is_its_own_notification_naming_host_contract_reason(
    pipeline: dict[str, Any],
) -> None:
    def each_kind(got: list[tuple[str, str]]) -> bool:
        titles = " ".join(title for title, _ in got)
        return all(f"CanaryQuarantineChanged {kind} " in titles for kind in TRANSITIONS)

    wait_for(pipeline, each_kind, "a CanaryQuarantineChanged notification per transition kind")
    client = pipeline["client"]
    for kind in TRANSITIONS:
        (title, text), *more = [
            (t, x) for t, x in messages(pipeline["chat"]) if f"CanaryQuarantineChanged {kind} " in t
        ]
        assert not more, f"{kind} notified more than once"
        provider = title.rsplit(" / ", 1)[1]
        print(f"{title}\n{text}")  # shown with -s: what the person reads
        assert title == f"[FIRING:1] CanaryQuarantineChanged {kind} {MODEL} / {provider}"
        assert_names_host_contract_reason_and_links(client, text, provider)
        assert field(text, "cause") and "GET /v1/decisions" not in text
        decision = decision_behind(client, text)
        assert (decision["kind"], decision["provider"]) == (kind, provider)
    lift = next(x for t, x in messages(pipeline["chat"]) if "CanaryQuarantineChanged lift " in t)
    assert "contract: refusal\nreason: refused\ncause: administrator\n" in lift


def test_the_floor_block_page_names_host_contract_reason_evidence_decision_and_action(
    pipeline: dict[str, Any],
) -> None:
    def page(got: list[tuple[str, str]]) -> bool:
        return any(t.startswith("[FIRING:1] CanaryCapacityFloorBlocked") for t, _ in got)

    wait_for(pipeline, page, "the CanaryCapacityFloorBlocked page")
    ((title, text),) = [(t, x) for t, x in messages(pipeline["chat"]) if "CanaryCapacityFloorBlocked" in t]
    print(f"{title}\n{text}")
    assert title == f"[FIRING:1] CanaryCapacityFloorBlocked {MODEL} / b/1"
    assert_names_host_contract_reason_and_links(pipeline["client"], text, "b/1")
    assert "contract: refusal\nreason: refused\ncause: below_floor\n" in text
    assert field(text, "action").startswith(
        "Read the evidence. To exclude it anyway: canary admin incident add m/x b/1"
    )
    decision = decision_behind(pipeline["client"], text)
    assert (decision["kind"], decision["provider"]) == ("floor_block", "b/1")
    bodies = [d.body for d in pipeline["chat"].deliveries()]
    channels = {body["channel"] for body in bodies if "CanaryCapacityFloorBlocked" in json.dumps(body)}
    assert channels == {"#llm-canary-oncall"}, "the floor block pages, through the templates"


def test_a_held_suspension_names_host_contract_reason_rung_until_and_links(pipeline: dict[str, Any]) -> None:
    def held(got: list[tuple[str, str]]) -> bool:
        return any("CanaryProviderSuspended" in t for t, _ in got)

    wait_for(pipeline, held, "the CanaryProviderSuspended notice")
    ((title, text),) = [(t, x) for t, x in messages(pipeline["chat"]) if "CanaryProviderSuspended" in t]
    assert title == f"[FIRING:1] CanaryProviderSuspended {MODEL} / a/1"
    assert_names_host_contract_reason_and_links(pipeline["client"], text, "a/1")
    assert "reason: refusal: refused\n" in text and field(text, "rung") == "3"


def test_pages_and_their_resolutions_go_through_the_templates_and_never_repeat_the_firing_text(
    pipeline: dict[str, Any],
) -> None:
    def fleet(got: list[tuple[str, str]]) -> bool:
        titles = " ".join(t for t, _ in got)
        names = ("CanaryGlobalOutage", "CanaryReceiverDown", "CanaryCapacityFloorBlocked")
        return all(f"[FIRING:1] {name}" in titles for name in names)

    wait_for(pipeline, fleet, "the global outage, receiver-down and floor-block pages")
    # Everything ends: the hosts answer again, the receiver replica is back, b/1's suspend alert resolves.
    pipeline["flaky"].serve(str)
    pipeline["exporter"].serve(lambda: EXPORTER_FAILING.replace("} 1\n", "} 0\n"))
    ended = alert("b/1", model=MODEL, status="resolved", starts_at=pipeline["blocked_since"])
    assert pipeline["client"].post("/v1/alerts", json=payload(ended), headers=WEBHOOK).status_code == 200
    names = ("CanaryGlobalOutage", "CanaryReceiverDown", "CanaryCapacityFloorBlocked")

    def resolutions(got: list[tuple[str, str]]) -> bool:
        titles = " ".join(t for t, _ in got)
        return all(f"[RESOLVED] {name}" in titles for name in names)

    wait_for(pipeline, resolutions, "the pages resolved")
    for name in names:
        firing = [x for t, x in messages(pipeline["chat"]) if t.startswith(f"[FIRING:1] {name}")]
        resolved = [x for t, x in messages(pipeline["chat"]) if t.startswith(f"[RESOLVED] {name}")]
        print(f"{name}:\n" + "\n".join(firing + resolved))
        for text in firing + resolved:
            assert field(text, "runbook") == f"{RUNBOOK}#{name.lower()}", text
        for text in resolved:  # every resolution of the group (e.g. `absent` and a down instance apart)
            assert text.startswith("Resolved:\n"), text
            assert firing[0].split("\n")[1] not in text, "a resolution repeats the firing description"
    (resolved,) = [
        x for t, x in messages(pipeline["chat"]) if t.startswith("[RESOLVED] CanaryCapacityFloorBlocked")
    ]
    assert resolved.startswith("Resolved:\nThe receiver no longer refuses to suspend b/1 for m/x")
    assert_names_host_contract_reason_and_links(pipeline["client"], resolved, "b/1")
    assert "action:" not in resolved
    assert (
        field(
            next(x for t, x in messages(pipeline["chat"]) if t.startswith("[FIRING:1] CanaryGlobalOutage")),
            "cause",
        )
        == "failing"
    )
    titles = [t for t, _ in messages(pipeline["chat"])]
    assert not [t for t in titles if t.startswith("[RESOLVED]") and ("Quarantine" in t or "Suspended" in t)]
