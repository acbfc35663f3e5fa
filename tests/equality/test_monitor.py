"""The scheduled equality probe: it samples after each round, accumulates, and exports verdicts."""

from __future__ import annotations

import asyncio
import random

from prometheus_client import CollectorRegistry, generate_latest

from exporter.contracts.base import ProbeTarget
from exporter.equality.config import EqualityConfig
from exporter.equality.monitor import EqualityMonitor
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.outcomes import Outcome, Reason, Usage

HEALTHY = ["The harbour wakes slowly.", "Gulls circle the masts.", "Fog lifts from the quay."]


class Gateway:
    """Answers per pinned host: healthy hosts from one distribution, ``odd/1`` always the same plain line,
    ``down/1`` with a 503."""

    def __init__(self) -> None:
        self.rng = random.Random(3)
        self.requests: list[ChatRequest] = []

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        usage = Usage(10, 5, 0.0001)
        if request.pin == "down/1":
            error = GatewayError(Outcome.TRANSPORT, Reason.SERVER_ERROR, 503, "unavailable")
            return ChatResult(error=error, status=503)
        text = "Sure." if request.pin == "odd/1" else self.rng.choice(HEALTHY)
        return ChatResult(status=200, content=text, finish_reason="stop", usage=usage)

    async def discover(self, model: str) -> list[Endpoint]:
        return []


def _targets(gateway: Gateway, tags: list[str]) -> list[tuple[ProbeTarget, Gateway]]:
    return [(ProbeTarget("m/x", Endpoint(tag, tag)), gateway) for tag in tags]


def test_verdicts_accumulate_over_rounds_and_only_the_odd_host_is_an_outlier() -> None:
    gateway, now = Gateway(), [1000.0]
    monitor = EqualityMonitor(EqualityConfig(enabled=True, samples_per_round=6), clock=lambda: now[0])
    tags = [f"h{i}/1" for i in range(6)] + ["odd/1", "down/1"]
    first = asyncio.run(monitor.after_round(_targets(gateway, tags), 1))
    assert not any(r.outlier for r in first.by_model["m/x"])  # one round is too little evidence
    for number in range(2, 5):
        now[0] += 30
        verdicts = asyncio.run(monitor.after_round(_targets(gateway, tags), number))
    results = {r.provider: r for r in verdicts.by_model["m/x"]}
    assert {p for p, r in results.items() if r.outlier} == {"odd/1"}
    assert results["h0/1"].samples == 24 and results["down/1"].samples == 0
    # every request is one user message, sampled, pinned, prompts round-robin per host
    asked = [r for r in gateway.requests if r.pin == "h0/1"]
    assert len(asked) == 24 and all(r.temperature == 1.0 and len(r.messages) == 1 for r in asked)
    assert len({r.messages[0]["content"] for r in asked}) == 6

    registry = CollectorRegistry()
    registry.register(monitor)
    text = generate_latest(registry).decode()
    assert 'canary_equality_outlier{model="m/x",provider="odd/1"} 1.0' in text
    assert 'canary_equality_outlier{model="m/x",provider="h0/1"} 0.0' in text
    assert 'canary_equality_samples{model="m/x",provider="down/1"} 0.0' in text
    assert 'canary_equality_p_value{model="m/x",provider="down/1"}' not in text
    assert 'canary_equality_effect_bits{model="m/x",provider="odd/1"}' in text
    assert 'canary_equality_z{model="m/x",provider="h0/1"}' in text
    streak = verdicts.outlier_streaks[("m/x", "odd/1")]
    assert (
        streak >= 1 and f'canary_equality_outlier_streak{{model="m/x",provider="odd/1"}} {streak}.0' in text
    )
    assert verdicts.outlier_streaks[("m/x", "h0/1")] == 0


def test_routes_that_leave_discovery_are_forgotten() -> None:
    gateway = Gateway()
    monitor = EqualityMonitor(EqualityConfig(enabled=True, samples_per_round=2))
    asyncio.run(monitor.after_round(_targets(gateway, ["a/1", "b/1", "c/1"]), 1))
    verdicts = asyncio.run(monitor.after_round(_targets(gateway, ["a/1", "b/1"]), 2))
    assert [r.provider for r in verdicts.by_model["m/x"]] == ["a/1", "b/1"]
