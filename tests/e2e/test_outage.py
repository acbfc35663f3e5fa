"""End to end: outages never suspend anyone.

Two different mechanisms protect against the canary's own trouble, and each test shows which one held:

* a **gateway outage** (the simulator answers every request 502/503) gives ``transport`` outcomes, which
  *freeze* every streak (design.md §6): no host can reach two failing rounds, so no suspension alert fires at
  all, and the fleet-wide failing share does not move either; ``CanaryGlobalOutage`` still tells people,
  from what an outage really produces (``cause="unreachable"``: most pairs only got transport outcomes,
  and ``cause="discovery"``: discovery failing);
* **every host failing at once** on real replies (what a broken prompt or key looks like) does advance the
  streaks, but ``CanaryGlobalOutage`` fires one round before the suspension alerts and Alertmanager's shipped
  inhibition mutes every ``action="suspend"`` alert, so nothing reaches the receiver.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import pytest

from .stack import FLEETS, SUSPENDING, Stack, StackSettings

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODEL = "e2e/outage"
HOSTS = [f"host-{letter}/fp8" for letter in "abcdefgh"]
HEALTHY = {"ttft": {"median": "40ms", "p95": "80ms"}, "inter_token": "1ms"}
BROKEN_SCHEMA = {"schema": {"rate": 1.0, "kind": "mismatch"}}
NO_EVIDENCE = {"transport", "unavailable"}


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack]) -> Stack:
    # 3 s rounds: the outage switch must land between two rounds, and a round here takes ~0.3 s.
    stack = make_stack(FLEETS / "outage.yaml", mode="enforce", settings=StackSettings(round_interval=3.0))
    stack.wait_for(lambda: stack.round_number() >= 1, what="the first round (discovery)")
    return stack


def test_a_gateway_outage_freezes_every_streak_and_suspends_nobody(stack: Stack) -> None:
    stack.set_outage(False)
    stack.wait_for(
        lambda: stack.value(":canary_probe_failing_pairs:count") == 0,
        what="a fleet with no failing host to start from",
        context=lambda: stack.describe(MODEL),
    )
    started = time.time()
    about_to_fail = ["host-a/fp8", "host-b/fp8"]
    for host in about_to_fail:
        stack.patch_provider(MODEL, host, BROKEN_SCHEMA)

    def one_failing_round() -> bool:
        streaks = stack.streaks(MODEL)
        return all(streaks[h]["failing"]["structured"] == 1 for h in about_to_fail)

    stack.wait_for(one_failing_round, what="one failing round of the two hosts", interval=0.05)
    stack.set_outage(True)
    before = stack.streaks(MODEL)
    assert all(before[h]["failing"]["structured"] == 1 for h in about_to_fail), (
        "the outage switch came too late: a second failing round ran first",
        before,
    )

    stack.wait_rounds(3)
    during = stack.exporter_state()["models"][MODEL]
    assert during["discovery_failed"] is True  # the last endpoint list is reused
    streaks = stack.streaks(MODEL)
    assert sorted(streaks) == HOSTS, "the exporter keeps exporting every host during the outage"
    for host, streak in streaks.items():
        assert set(streak["outcomes"].values()) <= NO_EVIDENCE, (host, streak)
        expected = 1 if host in about_to_fail else 0
        assert streak["failing"]["structured"] == expected, ("the streak must stay frozen", host, streak)

    stack.settle()
    window = math.ceil(time.time() - started)
    assert stack.decisions(MODEL) == []
    assert stack.ever_fired("CanaryProviderFailing", window, model=MODEL) == []
    # Not the inhibition that held: the failing share never reached the outage threshold, the frozen
    # streaks did. The outage is still announced, from the unreachable share and the failing discovery.
    causes = {labels.get("cause") for labels in stack.ever_fired("CanaryGlobalOutage", window)}
    assert causes == {"unreachable", "discovery"}
    peak = stack.value(f"max_over_time(:canary_probe_failing_pairs:ratio[{window}s])")
    assert peak == 0.25
    assert stack.ignore_list(MODEL) == set()

    # The pipeline was live all along: as soon as real evidence returns, exactly these two are suspended.
    stack.set_outage(False)
    stack.wait_suspended(MODEL, set(about_to_fail), what="the two failing hosts suspended after the outage")
    assert sorted(stack.decided(MODEL, SUSPENDING)) == [("suspend", h) for h in about_to_fail]


def test_every_host_failing_at_once_is_a_global_outage_that_inhibits_every_suspension(stack: Stack) -> None:
    stack.set_outage(False)
    already = stack.suspended(MODEL)
    newly = [h for h in HOSTS if h not in already]
    try:
        for host in HOSTS:
            stack.patch_provider(MODEL, host, BROKEN_SCHEMA)
        stack.wait_for(lambda: stack.firing("CanaryGlobalOutage"), what="CanaryGlobalOutage firing")
        stack.wait_for(
            lambda: {a["provider"] for a in stack.firing("CanaryProviderFailing", model=MODEL)} >= set(newly),
            what="suspension alerts firing in Prometheus for every newly failing host",
            context=lambda: stack.describe(MODEL),
        )
        (am,) = stack.alertmanagers
        stack.wait_for(
            lambda: (
                {
                    a.labels["provider"]
                    for a in am.alerts(filters={"alertname": "CanaryProviderFailing", "model": MODEL})
                    if a.state == "suppressed" and a.inhibited_by
                }
                >= set(newly)
            ),
            what="Alertmanager holding them inhibited",
        )
        stack.wait_rounds(2)  # longer than a repeat interval
        stack.settle()

        # Six of these eight could be suspended before the floor (2 routable) would object: only the
        # inhibition stops them, and it stops them before delivery.
        assert [d for d in stack.decisions(MODEL) if d.get("provider") in newly] == []
        assert all(stack.delivered(MODEL, host) == [] for host in newly)
        assert stack.suspended(MODEL) == already
        assert stack.ignore_list(MODEL) == already
        assert stack.firing("CanaryGlobalOutage")
    finally:
        for host in newly:
            stack.patch_provider(MODEL, host, HEALTHY, replace=True)
