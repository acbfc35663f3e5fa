"""Probes ask only for what the pinned endpoint supports, so the gateway never filters the pin away."""

from __future__ import annotations

import asyncio

from exporter.contracts.base import REASONING_HEADROOM_TOKENS, ProbeContext, ProbeTarget
from exporter.contracts.structured import StructuredContract
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint


class Capture:
    def __init__(self) -> None:
        self.requests: list[ChatRequest] = []

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        return ChatResult(
            content='{"name": "Pim", "mood": "calm", "hit_points": 4, "items": []}',
            finish_reason="stop",
            served_by="Small",
        )


def context(endpoint: Endpoint, required: frozenset[str] = frozenset()) -> tuple[ProbeContext, Capture]:
    gateway = Capture()
    target = ProbeTarget("acme/m", endpoint, required_capabilities=required)
    return ProbeContext(target, gateway, 1), gateway


def test_max_tokens_is_capped_at_the_endpoints_limit_and_unlisted_temperature_is_not_sent() -> None:
    endpoint = Endpoint(
        "small/fp8",
        "Small",
        max_completion_tokens=64,
        supported_parameters=frozenset({"max_tokens", "structured_outputs"}),
    )
    ctx, _ = context(endpoint)
    request = ctx.request(({"role": "user", "content": "hi"},), 400)
    assert request.max_tokens == 64 and request.temperature is None and request.pin == "small/fp8"


def test_an_endpoint_that_lists_temperature_gets_the_deterministic_default() -> None:
    endpoint = Endpoint("t/fp8", "T", supported_parameters=frozenset({"temperature", "max_tokens"}))
    ctx, _ = context(endpoint)
    assert ctx.request(({"role": "user", "content": "hi"},), 40).temperature == 0.0


def test_a_required_but_unadvertised_capability_is_sent_without_require_parameters() -> None:
    endpoint = Endpoint("small/fp8", "Small", supported_parameters=frozenset({"max_tokens"}))
    contract = StructuredContract()
    assert contract.skip_reason(ProbeTarget("acme/m", endpoint)) is not None  # not required: skipped
    ctx, gateway = context(endpoint, frozenset({"structured_outputs"}))
    assert contract.skip_reason(ctx.target) is None
    result = asyncio.run(contract.probe(ctx))
    assert gateway.requests[0].require_parameters is False and result.outcome.value == "pass"
    advertised = Endpoint("big/fp8", "Small", supported_parameters=frozenset({"structured_outputs"}))
    ctx, gateway = context(advertised)
    asyncio.run(contract.probe(ctx))
    assert gateway.requests[0].require_parameters is True


def test_a_reasoning_endpoint_gets_low_effort_and_room_for_the_answer() -> None:
    listed = frozenset({"max_tokens", "reasoning", "include_reasoning"})
    ctx, _ = context(Endpoint("r/bf16", "R", supported_parameters=listed))
    request = ctx.request(({"role": "user", "content": "hi"},), 48)
    assert request.reasoning == {"effort": "low", "exclude": False} and request.reasoning_effort is None
    assert request.max_tokens == 48 + REASONING_HEADROOM_TOKENS
    capped = Endpoint("r/bf16", "R", max_completion_tokens=300, supported_parameters=listed)
    assert context(capped)[0].request(({"role": "user", "content": "hi"},), 48).max_tokens == 300


def test_only_the_reasoning_control_an_endpoint_lists_is_sent() -> None:
    effort_only = Endpoint("o/x", "O", supported_parameters=frozenset({"max_tokens", "reasoning_effort"}))
    request = context(effort_only)[0].request(({"role": "user", "content": "hi"},), 48)
    assert (request.reasoning, request.reasoning_effort) == (None, "low")
    legacy = Endpoint("l/x", "L", supported_parameters=frozenset({"max_tokens", "include_reasoning"}))
    request = context(legacy)[0].request(({"role": "user", "content": "hi"},), 48)
    assert (request.reasoning, request.reasoning_effort, request.max_tokens) == (None, None, 48 + 512)
    plain = Endpoint("p/x", "P", supported_parameters=frozenset({"max_tokens"}))
    request = context(plain)[0].request(({"role": "user", "content": "hi"},), 48)
    assert (request.reasoning, request.reasoning_effort, request.max_tokens) == (None, None, 48)
