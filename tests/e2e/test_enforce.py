"""End to end in enforce mode: simulator → exporter → Prometheus → two clustered Alertmanagers → receiver →
router client, all real processes on loopback, with the shipped rules and routing.

One stack serves the module; each test owns one model of ``fleets/enforce.yaml`` and changes only that
model, so the tests do not depend on each other's order. The Alertmanagers gossip, but their peer timeout
is shorter than their gossip interval, so both usually deliver the same notification: every scenario here
also exercises the receiver's idempotency, and ``test_two_clustered_alertmanagers_...`` asserts it.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable

import pytest

from exporter.devtools.pipeline import AlertmanagerProcess

from .stack import FLEETS, SUSPENDING, Stack, StackSettings

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HEALTHY = {"ttft": {"median": "40ms", "p95": "80ms"}, "inter_token": "1ms"}
BROKEN_SCHEMA = {"schema": {"rate": 1.0, "kind": "mismatch"}}


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack]) -> Stack:
    # The stack's usual timings, but a cluster peer timeout shorter than the gossip interval: the second
    # member does not see the first one's notification log in time, so both deliver (as in a partition) and
    # the receiver must deduplicate.
    settings = StackSettings(timings=dataclasses.replace(StackSettings().timings, cluster_peer_timeout=0.05))
    return make_stack(FLEETS / "enforce.yaml", mode="enforce", alertmanagers=2, settings=settings)


def suspending(stack: Stack, model: str) -> list[tuple[str, str]]:
    return sorted(stack.decided(model, SUSPENDING))


def test_two_faulty_hosts_among_eight_are_suspended_and_leave_the_routers_ignore_list(stack: Stack) -> None:
    model = "e2e/suspend"
    faulty = {"schema-breaker/fp8", "prude/fp8"}
    stack.wait_suspended(model, faulty, what="both faulty hosts suspended")
    stack.wait_rounds(2)
    stack.settle()

    assert suspending(stack, model) == [("suspend", "prude/fp8"), ("suspend", "schema-breaker/fp8")]
    assert stack.suspended(model) == faulty
    streaks = stack.streaks(model)
    assert len(streaks) == 8
    for tag, streak in streaks.items():
        if tag not in faulty:
            assert set(streak["failing"].values()) == {0}, (tag, streak)
    assert streaks["schema-breaker/fp8"]["failing"]["structured"] >= 2
    assert streaks["prude/fp8"]["failing"]["refusal"] >= 2
    assert all(s["mode"] == "enforce" and s["rung"] == 1 for s in stack.suspensions(model))

    router = stack.router([model])
    assert router.poll_once() == {model: True}
    assert set(router.ignored(model)) == faulty
    body = router.merge_ignore({"model": model, "provider": {"ignore": ["already/out"]}})
    assert body["provider"]["ignore"] == ["already/out", "prude/fp8", "schema-breaker/fp8"]


def test_the_suspend_alert_names_the_contract_and_reason_and_links_to_working_evidence(stack: Stack) -> None:
    model, host = "e2e/suspend", "schema-breaker/fp8"

    prometheus = stack.prometheus
    assert prometheus is not None

    def alert() -> dict[str, str] | None:
        wanted = {"alertname": "CanaryProviderFailing", "model": model, "provider": host}
        firing = [
            a for a in prometheus.alerts() if a.state == "firing" and wanted.items() <= a.labels.items()
        ]
        return firing[0].annotations if firing else None

    annotations = stack.wait_for(
        alert, what="the suspend alert firing", context=lambda: stack.describe(model)
    )
    assert annotations["failing_contracts"] == "structured"
    assert annotations["failing_reasons"] == "structured=schema_mismatch"
    assert annotations["evidence_url"].startswith(f"{stack.exporter_url}/v1/evidence?")
    evidence = stack.http.get(annotations["evidence_url"])
    assert evidence.status_code == 200, evidence.text
    records = evidence.json()["records"]
    assert records and {(r["model"], r["provider"], r["outcome"]) for r in records} == {(model, host, "fail")}
    assert {r["contract"] for r in records} == {"structured"}
    assert all(r["reason"] == "schema_mismatch" and r["excerpt"] for r in records)


def test_a_host_in_a_429_5xx_storm_is_never_suspended(stack: Stack) -> None:
    model = "e2e/storm"
    stack.wait_for(lambda: stack.round_number() >= 4, what="four rounds", timeout=40)
    stack.settle()

    stormy = stack.streaks(model)["stormy/fp8"]
    assert set(stormy["outcomes"].values()) == {"transport"}, stormy
    assert set(stormy["failing"].values()) == {0}, "transport outcomes must freeze the streak at 0"
    assert stormy["clean"] == 0, "a round of transport errors is not clean either"
    assert stack.ever_fired("CanaryProviderFailing", 120, model=model) == []
    assert stack.decisions(model) == []
    assert stack.ignore_list(model) == set()


def test_the_capacity_floor_blocks_the_second_of_three_hosts_and_alerts(stack: Stack) -> None:
    model = "e2e/floor"
    hosts = {"good-a/fp8", "bad-a/fp8", "bad-b/fp8"}
    stack.wait_for(
        lambda: len(stack.suspended(model)) == 1 and stack.decided(model, {"floor_block"}),
        what="one suspension and one floor block",
        context=lambda: stack.describe(model),
    )
    stack.wait_for(
        lambda: stack.firing("CanaryCapacityFloorBlocked", model=model),
        what="CanaryCapacityFloorBlocked firing in Prometheus",
    )
    stack.settle()

    (suspended,) = stack.suspended(model)
    assert suspended in {"bad-a/fp8", "bad-b/fp8"}
    (blocked,) = {"bad-a/fp8", "bad-b/fp8"} - {suspended}
    assert suspending(stack, model) == [("suspend", suspended)]
    assert {p for _, p in stack.decided(model, {"floor_block"})} == {blocked}
    block = next(d for d in stack.decisions(model) if d["kind"] == "floor_block")
    # The floor's inputs are counts (the hosts themselves are the model's discovered set in the log, journaled
    # once when it changes, so a large batch does not store it once per alert).
    assert block["inputs"]["known_hosts_count"] == len(hosts) and block["inputs"]["excluded_count"] == 1
    told = [
        d["discovered"] for d in stack.decisions(model) if d.get("discovered") and d["seq"] < block["seq"]
    ]
    assert set(told[-1]) == hosts
    assert block["inputs"]["routable_after"] == ["good-a/fp8"]
    assert block["inputs"]["min_routable_hosts"] == 2
    assert stack.ignore_list(model) == {suspended}

    # Most hosts of ONE model fail, but the fleet-wide share stays under the outage threshold: no inhibition.
    assert stack.firing("CanaryGlobalOutage") == []
    for am in stack.alertmanagers:
        held = am.alerts(filters={"alertname": "CanaryCapacityFloorBlocked", "model": model})
        assert [a.state for a in held] == ["active"], "the floor alert reaches people, not muted"


def test_a_suspended_host_that_turns_healthy_is_restored_after_two_clean_rounds(stack: Stack) -> None:
    model, host = "e2e/recover", "flaky/fp8"
    stack.wait_suspended(model, {host}, what="flaky host suspended")
    assert stack.ignore_list(model) == {host}

    healed_at = time.time()
    stack.patch_provider(model, host, HEALTHY, replace=True)
    stack.wait_for(
        lambda: stack.decided(model, {"recover"}),
        what="recover decision",
        context=lambda: stack.describe(model),
    )
    assert stack.suspended(model) == set()
    assert stack.ignore_list(model) == set()

    recover = next(d for d in stack.decisions(model) if d["kind"] == "recover")
    clean = f'model_provider:canary_probe_clean_streak:max{{model="{model}",provider="{host}"}}'
    # When it was healed the host had no clean round; when the receiver restored it, Prometheus had seen two
    # consecutive clean rounds: so both came after the heal.
    assert stack.value(clean, at=healed_at) == 0
    restored_after = stack.value(clean, at=recover["at"])
    assert restored_after is not None and restored_after >= 2

    stack.wait_rounds(2)
    stack.settle()
    assert [
        (d["kind"], d["provider"])
        for d in stack.decisions(model)
        if d["kind"] != "duplicate" and d["kind"] != "ignored"
    ] == [("suspend", host), ("recover", host)]
    assert stack.ignore_list(model) == set()
    offense = stack.query(f'canary_receiver_offense_level{{model="{model}",provider="{host}"}}')
    assert offense and offense[0][1] == 1, "the offense stays in the history after an early recovery"


def test_an_alertmanager_silence_on_a_host_prevents_its_suspension(stack: Stack) -> None:
    model, host = "e2e/silence", "maintained/fp8"
    first, second = stack.alertmanagers
    silence = first.add_silence(
        {"alertname": "CanaryProviderFailing", "model": model, "provider": host},
        duration=300,
        comment="e2e: maintenance window",
    )
    stack.wait_for(
        lambda: any(s["id"] == silence and s["status"]["state"] == "active" for s in second.silences()),
        what="the silence gossiped to the second Alertmanager",
    )
    stack.patch_provider(model, host, BROKEN_SCHEMA)

    stack.wait_for(
        lambda: stack.firing("CanaryProviderFailing", model=model, provider=host),
        what="the host's suspension alert firing in Prometheus",
        timeout=40,
    )
    for am in (first, second):

        def held_silenced(am: AlertmanagerProcess = am) -> bool:
            held = [(a.state, a.silenced_by) for a in am.alerts(filters={"provider": host})]
            return held == [("suppressed", (silence,))]

        stack.wait_for(held_silenced, what=f"the alert held silenced by {am.address}")
    # Long enough for a repeat and several rounds: a silenced alert is never delivered.
    stack.wait_rounds(3)
    stack.settle()
    assert stack.delivered(model, host) == []
    assert stack.decisions(model) == []
    assert stack.ignore_list(model) == set()

    # The silence is what held: once it ends, the still-firing alert is delivered and acted on.
    first.delete_silence(silence)
    stack.wait_suspended(model, {host}, what="suspension after the silence ended")
    assert suspending(stack, model) == [("suspend", host)]


def test_two_clustered_alertmanagers_that_both_deliver_produce_exactly_one_decision(stack: Stack) -> None:
    model, host = "e2e/ha", "broken/fp8"
    stack.wait_suspended(model, {host}, what="broken host suspended")
    stack.wait_for(
        lambda: {d.alertmanager for d in stack.delivered(model, host)} == {0, 1},
        what="a delivery of the alert from each Alertmanager",
        timeout=30,
    )
    stack.settle()

    deliveries = stack.delivered(model, host)
    failed = [d.answered() for d in deliveries if d.status != 200]
    assert not failed, (failed, stack.receiver.log_tail())
    assert suspending(stack, model) == [("suspend", host)]
    # Repeats of a known episode are counted, not journaled (issue 13): the receiver's counter saw them.
    duplicates = stack.counted("duplicate")
    assert duplicates >= len(deliveries) - 1 >= 1
    assert stack.ignore_list(model) == {host}
