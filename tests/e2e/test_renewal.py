"""End to end: a suspension that ends while its host still fails is renewed at the next rung at once, not
after Alertmanager's next repeat; one whose alert resolved meanwhile simply expires (issue 12 item 4).

Real simulator, exporter, Prometheus, Alertmanager and receiver processes on loopback with the shipped rules
and routes. The receiver's ladder is the documented ``receiver.ladder`` key set to seconds, and Alertmanager's
``repeat_interval`` is an hour: any renewal seen within the test cannot have come from a repeat.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

import pytest

from .stack import FLEETS, Stack, StackSettings

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODEL, HOST = "e2e/renew", "broken/fp8"
RUNGS = (12.0, 24.0, 48.0)
REPEAT = 3600.0
HEALTHY = {"ttft": {"median": "40ms", "p95": "80ms"}, "inter_token": "1ms"}


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack]) -> Stack:
    # The shared stack's compressed intervals, with repeats an hour apart.
    settings = StackSettings(timings=dataclasses.replace(StackSettings().timings, repeat_interval=REPEAT))
    return make_stack(
        FLEETS / "renew.yaml",
        mode="enforce",
        settings=settings,
        receiver_options={"ladder": [f"{r:g}s" for r in RUNGS]},
    )


def route_decisions(stack: Stack) -> list[dict[str, Any]]:
    return [d for d in stack.decisions(MODEL) if d.get("provider") == HOST]


def served(stack: Stack) -> set[str]:
    body = stack.http.get(f"{stack.receiver_url}/v1/ignore", params={"model": MODEL}).json()
    return set(body["ignore"])


def test_a_still_failing_host_is_renewed_at_once_and_expires_only_after_its_alert_resolved(
    stack: Stack,
) -> None:
    first = stack.wait_for(
        lambda: [d for d in route_decisions(stack) if d["kind"] == "suspend"],
        what="the failing host suspended at rung 1",
        timeout=40,
        context=lambda: stack.describe(MODEL),
    )[0]
    assert first["rung"] == 1
    first_until = float(first["until"])  # the log keeps Unix seconds

    # Across the end of rung 1 the router's list never loses the host: expiry and renewal are one commit.
    gaps: list[float] = []

    def renewed() -> list[dict[str, Any]]:
        if HOST not in served(stack):
            gaps.append(time.time())
        return [d for d in route_decisions(stack) if d["kind"] == "escalate"]

    renewal = stack.wait_for(
        renewed, what="the renewal at rung 2", timeout=RUNGS[0] + 15, interval=0.05,
        context=lambda: stack.describe(MODEL),
    )[0]  # fmt: skip
    assert gaps == [], f"the host was routable at {gaps} between its rung-1 end and its renewal"
    kinds = [d["kind"] for d in route_decisions(stack)]
    assert kinds[:3] == ["suspend", "expire", "escalate"], kinds
    assert renewal["rung"] == 2 and renewal["source"] == "clock"
    assert renewal["reason"].startswith("renewed at rung 2 for 24s until ")
    assert "the route still failed when its rung-1 suspension ended" in renewal["reason"]
    renewed_at = float(renewal["at"])
    assert first_until <= renewed_at < first_until + 2.0  # the receiver's one-second sweep, not a repeat
    assert float(renewal["until"]) - renewed_at == pytest.approx(RUNGS[1], abs=0.01)
    deliveries = stack.delivered(MODEL, HOST)
    assert deliveries, "Alertmanager delivered the suspend alert"
    # Nothing was delivered between the first delivery and the renewal: no repeat (an hour away) caused it.
    assert not [d.at for d in deliveries if deliveries[0].at < d.at < renewed_at]
    assert stack.ignore_list(MODEL) == {HOST}

    # Keep the early recovery away (an operator's silence, as the runbook shows), then heal the host:
    # its suspend alert resolves, Alertmanager sends the resolution, and rung 2 simply expires at its end.
    stack.alertmanagers[0].add_silence(
        {"alertname": "CanaryProviderRecovered", "model": MODEL, "provider": HOST}, duration=600
    )
    stack.patch_provider(MODEL, HOST, HEALTHY, replace=True)
    resolved = stack.wait_for(
        lambda: [
            d for d in stack.decisions(MODEL) if d["kind"] == "ignored" and "resolves" in d.get("inputs", {})
        ],
        what="the resolution of the suspend alert journaled",
        timeout=RUNGS[1],
        context=lambda: stack.describe(MODEL),
    )
    assert resolved[0]["provider"] == HOST
    expired = stack.wait_for(
        lambda: [d for d in route_decisions(stack) if d["kind"] == "expire"][1:],
        what="the rung-2 suspension expiring",
        timeout=RUNGS[1] + 10,
        context=lambda: stack.describe(MODEL),
    )[0]
    assert "still firing" not in expired["reason"]
    stack.wait_rounds(2)
    stack.settle()
    assert [d["kind"] for d in route_decisions(stack) if d["kind"] in ("suspend", "escalate")] == [
        "suspend",
        "escalate",
    ]
    assert stack.suspended(MODEL) == set() and stack.ignore_list(MODEL) == set()
