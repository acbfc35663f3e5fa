"""End to end: restarting the exporter, Prometheus, Alertmanager or the receiver mid-scenario loses no
decision and creates no false one.

Each test breaks its own ``victim-*`` host around a real restart of one component and waits for the
victim's suspension; ``early/fp8`` was suspended before any restart and must stay suspended, exactly once.
A router client polls the ignore list all along (as a product's router would) and a sampler records every
list it served: an entry that ever disappears is a lost decision.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator

import pytest

from exporter.router.client import IgnoreListClient

from .stack import FLEETS, SUSPENDING, Stack

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODEL = "e2e/restart"
CALM_MODEL = "e2e/restart-calm"
EARLY = "early/fp8"
BROKEN_SCHEMA = {"schema": {"rate": 1.0, "kind": "mismatch"}}


class RouterWatch:
    """A started router client plus a sampler of the list it serves, read the way a router reads it."""

    def __init__(self, client: IgnoreListClient, model: str) -> None:
        self.client = client
        self.model = model
        self.seen: list[tuple[float, frozenset[str]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def start(self) -> None:
        self.client.start()
        self._thread.start()

    def _sample(self) -> None:
        while not self._stop.wait(0.05):
            current = frozenset(self.client.ignored(self.model))
            if not self.seen or self.seen[-1][1] != current:
                self.seen.append((time.time(), current))

    def current(self) -> frozenset[str]:
        return frozenset(self.client.ignored(self.model))

    def lost(self) -> list[tuple[float, frozenset[str]]]:
        """(time, entries) whenever the served list dropped entries it had served before."""
        out = []
        for (_, before), (at, after) in zip(self.seen, self.seen[1:], strict=False):
            if before - after:
                out.append((at, before - after))
        return out

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.client.stop()


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack]) -> Stack:
    stack = make_stack(FLEETS / "restart.yaml", mode="enforce")
    stack.wait_suspended(MODEL, {EARLY}, what="the early host suspended before any restart")
    return stack


@pytest.fixture(scope="module")
def watch(stack: Stack) -> Iterator[RouterWatch]:
    watch = RouterWatch(
        IgnoreListClient(stack.receiver_url, [MODEL], poll_interval=0.2, stale_after=1.0), MODEL
    )
    watch.start()
    stack.wait_for(lambda: watch.current() == {EARLY}, what="the router's first list")
    yield watch
    watch.stop()


@pytest.fixture(scope="module")
def broken(stack: Stack) -> set[str]:
    """Hosts the tests broke so far (``early`` is broken by the fleet file)."""
    return {EARLY}


def break_host(stack: Stack, broken: set[str], host: str) -> None:
    broken.add(host)
    stack.patch_provider(MODEL, host, BROKEN_SCHEMA)


def failing_rounds(stack: Stack, host: str) -> int:
    try:
        return int(stack.streaks(MODEL)[host]["failing"]["structured"])
    except KeyError:
        return 0  # a restarted exporter has no round yet


def early_history(stack: Stack) -> dict[str, object]:
    """What a failed wait about the early host shows: its decisions and every delivery of its alerts."""
    return {
        "decisions": [
            (d["kind"], d["at"], d.get("episode")) for d in stack.decisions(MODEL) if d["provider"] == EARLY
        ],
        "deliveries": [
            (delivery.at, delivery.status, alert["status"], alert["startsAt"], alert["endsAt"])
            for proxy in stack.proxies
            for delivery in proxy.deliveries()
            for alert in delivery.alerts()
            if alert.get("labels", {}).get("provider") == EARLY
        ],
    }


def assert_no_lost_and_no_false_decision(stack: Stack, watch: RouterWatch, broken: set[str]) -> None:
    decisions = stack.decisions(MODEL)
    suspending = Counter(d["provider"] for d in decisions if d["kind"] in SUSPENDING)
    assert set(suspending) <= broken, "a host that never failed was suspended"
    assert all(count == 1 for count in suspending.values()), f"suspended twice: {suspending}"
    undoing = [d for d in decisions if d["kind"] in {"recover", "lift", "expire", "floor_block"}]
    assert undoing == [], "nothing may end or block a suspension here"
    assert stack.decisions(CALM_MODEL) == []
    assert stack.suspended(MODEL) == set(suspending)
    assert watch.lost() == [], "the router's list lost an entry"


def test_restarting_the_receiver_while_a_suspension_is_due_loses_nothing(
    stack: Stack, watch: RouterWatch, broken: set[str]
) -> None:
    victim = "victim-receiver/fp8"
    before = watch.current()
    stack.receiver.stop()
    break_host(stack, broken, victim)
    stack.wait_for(
        lambda: any(d.status == 503 for d in stack.delivered(MODEL, victim)),
        what="Alertmanager failing to deliver the victim's alert to the stopped receiver",
        timeout=30,
    )
    # Routers fail static: the last good list is still served, and said to be stale.
    stack.wait_for(lambda: watch.client.is_stale(MODEL), what="the router noticing its list is stale")
    assert watch.current() == before

    stack.start_receiver()
    stack.wait_for(
        lambda: victim in stack.suspended(MODEL),
        what="the due suspension, delivered again after the restart",
        context=lambda: stack.describe(MODEL),
    )
    assert stack.suspended(MODEL) >= {EARLY, victim}, "decisions taken before the restart are durable"
    stack.wait_for(lambda: watch.current() >= {EARLY, victim}, what="the router's list updated")
    assert_no_lost_and_no_false_decision(stack, watch, broken)


def test_restarting_the_exporter_starts_streaks_from_zero_and_creates_no_second_suspension(
    stack: Stack, watch: RouterWatch, broken: set[str]
) -> None:
    victim = "victim-exporter/fp8"
    break_host(stack, broken, victim)
    stack.wait_for(lambda: failing_rounds(stack, victim) == 1, what="one failing round of the victim")
    restarted_at = time.time()
    stack.restart_exporter()

    stack.wait_for(
        lambda: victim in stack.suspended(MODEL),
        what="the victim suspended after two rounds of the new exporter",
        context=lambda: stack.describe(MODEL),
    )
    first = next(d for d in stack.decisions(MODEL) if d["kind"] == "suspend" and d["provider"] == victim)
    streak = f'canary_probe_failing_streak{{model="{MODEL}",provider="{victim}",contract="structured"}}'
    # The last streak scraped by then (a scrape timed out under load leaves a stale marker at its instant).
    new_rounds = stack.value(f"last_over_time({streak}[5s])", at=first["at"])
    assert new_rounds is not None and new_rounds >= 2

    # The early host's alert went away with the exporter and came back as a new episode: recorded, and a
    # duplicate of the suspension it already has, never a second one.
    original = next(
        d["episode"] for d in stack.decisions(MODEL) if d["kind"] == "suspend" and d["provider"] == EARLY
    )
    stack.wait_for(
        lambda: [
            d
            for d in stack.decisions(MODEL)
            if d["provider"] == EARLY
            and d["kind"] == "duplicate"
            and d["at"] > restarted_at
            and d.get("episode") != original
        ],
        what="the early host's new alert episode judged a duplicate",
        context=lambda: {"restarted_at": restarted_at, "early": early_history(stack)},
    )
    # The resolution may reach the receiver after the new episode (a delivery retried under load).
    stack.wait_for(
        lambda: [
            d
            for d in stack.decisions(MODEL)
            if d["provider"] == EARLY and d["kind"] == "ignored" and d["at"] > restarted_at
        ],
        what="the resolved notification sent while the exporter was down recorded (and ignored)",
        context=lambda: {"restarted_at": restarted_at, "early": early_history(stack)},
    )
    assert_no_lost_and_no_false_decision(stack, watch, broken)


def test_restarting_prometheus_while_a_suspension_is_due_loses_nothing(
    stack: Stack, watch: RouterWatch, broken: set[str]
) -> None:
    victim = "victim-prometheus/fp8"
    assert stack.prometheus is not None
    stack.prometheus.stop()
    break_host(stack, broken, victim)
    stack.wait_for(lambda: failing_rounds(stack, victim) >= 2, what="two failing rounds with Prometheus down")
    stack.prometheus.start()  # returns once it has found its Alertmanager again

    stack.wait_for(
        lambda: victim in stack.suspended(MODEL),
        what="the victim suspended once Prometheus is back",
        context=lambda: stack.describe(MODEL),
    )
    assert_no_lost_and_no_false_decision(stack, watch, broken)


def test_restarting_alertmanager_while_a_suspension_is_due_loses_nothing(
    stack: Stack, watch: RouterWatch, broken: set[str]
) -> None:
    victim = "victim-alertmanager/fp8"
    (am,) = stack.alertmanagers
    am.stop()
    break_host(stack, broken, victim)
    stack.wait_for(
        lambda: stack.firing("CanaryProviderFailing", model=MODEL, provider=victim),
        what="the victim's alert firing while Alertmanager is down",
    )
    am.start()  # same port and data directory (notification log and silences survive)

    stack.wait_for(
        lambda: victim in stack.suspended(MODEL),
        what="the victim suspended once Alertmanager is back",
        context=lambda: stack.describe(MODEL),
    )
    stack.settle()
    assert_no_lost_and_no_false_decision(stack, watch, broken)
    assert stack.ignore_list(MODEL) == broken
