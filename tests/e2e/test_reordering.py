"""End to end against two REAL Alertmanagers: reordered and second-replica deliveries reach the same receiver
state in every order, and lifts hold (issue 13 items 4 and 6).

The test plays two Prometheus replicas that evaluate at different instants: each posts its alerts to its own
Alertmanager 0.25 (``POST /api/v2/alerts``, the API Prometheus uses) with its own ``startsAt``; both
Alertmanagers run the shipped routing tree and deliver to one real ``canary receiver`` process. Every event
is posted only after the previous one's delivery was judged, so the receiver sees exactly the order chosen.
Each order runs on its own model, so the orders do not share state, and the final states are compared.
"""

from __future__ import annotations

import datetime as dt
import itertools
import os
import secrets
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from exporter.devtools.pipeline import AlertmanagerProcess, Timings
from exporter.devtools.pipeline.processes import free_port

from .stack import ChildProcess, StackError

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

HOSTS = "bad/fp8,good-a/fp8,good-b/fp8,good-c/fp8"
BAD = "bad/fp8"
#: Repeats an hour away: every delivery the test waits for is one it caused.
TIMINGS = Timings(group_wait=0.0, group_interval=1.0, repeat_interval=3600.0)


@dataclass(frozen=True)
class Event:
    """One alert a replica sends: ``offset`` seconds after the scenario's base time is its ``startsAt``."""

    name: str
    alertmanager: int  # which replica's Alertmanager
    action: str  # suspend | recover
    offset: float
    #: Resolve the alert this Alertmanager holds for the route first, at this offset (the replica lost it:
    #: an outage), so the new ``startsAt`` is a new alert rather than merged into the old one.
    resolve_first_at: float | None = None


class Pair:
    """One receiver process and independent Alertmanagers, each fed by one "Prometheus replica"."""

    def __init__(self, work: Path) -> None:
        self.work = work
        self.port = free_port()
        token, admin = work / "webhook.token", work / "admin.token"
        for path in (token, admin):
            path.write_text(secrets.token_urlsafe(24) + "\n", encoding="utf-8")
            path.chmod(0o600)
        self.admin_token = admin.read_text(encoding="utf-8").strip()
        config = {
            "receiver": {
                "listen": f"127.0.0.1:{self.port}",
                "mode": "enforce",
                "store_dir": str(work / "store"),
                "webhook_token": {"file": str(token)},
                "admin_token": {"file": str(admin)},
            }
        }
        (work / "canary.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
        argv = [
            sys.executable,
            "-m",
            "exporter.commands.canary",
            "receiver",
            "--config",
            str(work / "canary.yaml"),
            "--init",  # once, on a new directory: this test starts its receiver once
        ]
        self.receiver = ChildProcess("receiver", argv, work / "receiver.log", {**os.environ})
        self.alertmanagers = [
            AlertmanagerProcess(
                work / f"am{i}", webhook_url=f"{self.url}/v1/alerts", token_file=token, timings=TIMINGS
            )
            for i in range(3)
        ]
        self.http = httpx.Client(timeout=5.0)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        self.receiver.start()
        self.wait(lambda: self.http.get(f"{self.url}/healthz").status_code == 200, "receiver ready", 20)
        for am in self.alertmanagers:
            am.start()

    def close(self) -> None:
        for am in self.alertmanagers:
            am.close()
        self.receiver.stop()
        self.http.close()

    def wait(self, probe: Any, what: str, timeout: float = 15.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            try:
                if value := probe():
                    return value
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                raise StackError(
                    f"timed out after {timeout} s waiting for {what}:\n{self.receiver.log_tail()}"
                )
            time.sleep(0.1)

    def judged(self) -> float:
        """Webhook deliveries the receiver answered 2xx (its own counter)."""
        text = self.http.get(f"{self.url}/metrics").text
        prefix = 'canary_receiver_webhook_requests_total{result="ok"}'
        return sum(float(line.split()[-1]) for line in text.splitlines() if line.startswith(prefix))

    def send(self, model: str, event: Event, base: dt.datetime) -> None:
        """Post one alert to the event's Alertmanager and wait until the receiver has judged its delivery."""
        am = self.alertmanagers[event.alertmanager]
        if event.resolve_first_at is not None:
            held = am.alerts(filters={"model": model, "action": event.action})
            assert len(held) == 1, held
            ends = base + dt.timedelta(seconds=event.resolve_first_at)
            self._post(am, model, event, held[0].starts_at, ends=ends)
        self._post(am, model, event, (base + dt.timedelta(seconds=event.offset)).isoformat())

    def _post(
        self, am: AlertmanagerProcess, model: str, event: Event, starts: str, ends: dt.datetime | None = None
    ) -> None:
        before = self.judged()
        alertname = "CanaryProviderRecovered" if event.action == "recover" else "CanaryProviderFailing"
        alert = {
            "labels": {
                "alertname": alertname,
                "action": event.action,
                "model": model,
                "provider": BAD,
                "severity": "info" if event.action == "recover" else "warning",
            },
            "annotations": {"summary": event.name, "discovered_providers": HOSTS},
            "startsAt": starts,
            # Firing alerts are kept an hour (no resolve_timeout resolution during the test); a past endsAt
            # resolves the alert, as Prometheus does.
            "endsAt": (ends or dt.datetime.now(dt.UTC) + dt.timedelta(hours=1)).isoformat(),
            "generatorURL": f"http://replica-{event.alertmanager}.invalid/graph",
        }
        self.http.post(f"{am.url}/api/v2/alerts", json=[alert]).raise_for_status()
        self.wait(lambda: self.judged() > before, f"the delivery of {event.name} for {model}")

    def lift(self, model: str) -> None:
        response = self.http.post(
            f"{self.url}/v1/admin/lift",
            json={"model": model, "provider": BAD, "reason": "e2e: false positive"},
            headers={"Authorization": f"Bearer {self.admin_token}"},
        )
        assert response.status_code == 200, response.text

    def state(self, model: str) -> dict[str, Any]:
        """What routers and operators see of ``model``: suspended hosts (with rung), holds, ignore list."""
        document = self.http.get(f"{self.url}/v1/suspensions").json()
        ignore = self.http.get(f"{self.url}/v1/ignore", params={"model": model}).json()
        return {
            "suspended": sorted(
                (s["provider"], s["rung"]) for s in document["suspensions"] if s["model"] == model
            ),
            "held": sorted(h["provider"] for h in document["holds"] if h["model"] == model),
            "ignore": ignore["ignore"],
        }


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pair]:
    pair = Pair(tmp_path_factory.mktemp("reorder"))
    try:
        pair.start()
        yield pair
    finally:
        pair.close()


def run_orders(pair: Pair, label: str, events: tuple[Event, ...]) -> dict[tuple[str, ...], dict[str, Any]]:
    base = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(minutes=10)
    finals = {}
    for n, order in enumerate(itertools.permutations(events)):
        model = f"reorder/{label}-{n}"
        for event in order:
            pair.send(model, event, base)
        finals[tuple(e.name for e in order)] = pair.state(model)
    return finals


#: Every scenario opens with the first replica's failure.
FIRST_FAILURE = Event("replica-1 failing", 0, "suspend", 0.0)
CLEAN = {"suspended": [], "held": [], "ignore": []}


def refailed(in_true_order: bool) -> dict[str, Any]:
    # Routing converges in every order. The rung counts two offenses only when the deliveries came in their
    # true order: a failing episode delivered after its recovery is stale (never an offense), and a recovery
    # delivered after a later failure is stale (it ends nothing).
    return {"suspended": [(BAD, 2 if in_true_order else 1)], "held": [], "ignore": [BAD]}


@pytest.mark.parametrize(
    ("label", "later", "final"),
    [
        pytest.param(
            "recovered",
            [("replica-2 failing (later startsAt)", 1, "suspend", 7.0), ("recovery", 0, "recover", 60.0)],
            lambda in_true_order: CLEAN,
            id="a recovery after both replicas' failures wins",
        ),
        pytest.param(
            "refailed",
            [
                ("recovery", 1, "recover", 30.0),
                ("replica-2 failing (after the recovery)", 1, "suspend", 60.0),
            ],
            refailed,
            id="a failure that started after the recovery wins",
        ),
    ],
)
def test_the_latest_episode_wins_in_every_order(
    pair: Pair, label: str, later: list[tuple[str, int, str, float]], final: Callable[[bool], dict[str, Any]]
) -> None:
    events = (FIRST_FAILURE, *(Event(*event) for event in later))
    finals = run_orders(pair, label, events)
    assert len(finals) == 6
    for order, state in finals.items():
        assert state == final(order == tuple(e.name for e in events)), (order, state)


def test_a_lift_holds_against_both_replicas_and_an_older_episode_in_every_order_until_a_clean_round(
    pair: Pair,
) -> None:
    base = dt.datetime.now(dt.UTC).replace(microsecond=0) - dt.timedelta(minutes=10)
    later = (
        Event("replica-2 failing (other startsAt)", 1, "suspend", 7.0),
        Event("older episode never seen", 2, "suspend", -300.0),
        Event(
            "replica-1 failing after an outage (new startsAt)", 0, "suspend", 120.0, resolve_first_at=100.0
        ),
    )
    for n, order in enumerate(itertools.permutations(later)):
        model = f"reorder/lift-{n}"
        pair.send(model, FIRST_FAILURE, base)
        assert pair.state(model)["suspended"] == [(BAD, 1)]
        pair.lift(model)
        for event in order:
            pair.send(model, event, base)
            assert pair.state(model) == {"suspended": [], "held": [BAD], "ignore": []}, (order, event)
        pair.send(model, Event("clean round", 0, "recover", 180.0), base)  # CanaryProviderRecovered
        assert pair.state(model) == CLEAN
        pair.send(model, Event("failing again", 2, "suspend", 240.0, resolve_first_at=200.0), base)
        assert pair.state(model)["suspended"] == [(BAD, 2)], "the lifted offense still counts"
