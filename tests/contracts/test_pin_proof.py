"""Pin proof: the router metadata's endpoint tag beats the display name several endpoints share."""

from __future__ import annotations

import asyncio

from exporter.contracts.base import ProbeTarget, pin_violation, unjudgeable
from exporter.devtools.simulator.fleet import DEFAULT_FLEET
from exporter.devtools.simulator.server import SimulatorServer
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint
from exporter.outcomes import Outcome

FP8 = ProbeTarget("moonshotai/kimi-k2-0905", Endpoint("deepinfra/fp8", "DeepInfra"))


def test_the_endpoint_tag_tells_variants_with_one_display_name_apart() -> None:
    turbo = ChatResult(content="hi", served_by="DeepInfra", served_endpoint="deepinfra/turbo")
    assert pin_violation(FP8, turbo) == "deepinfra/turbo"
    verdict = unjudgeable(turbo, FP8)
    assert verdict is not None and verdict.outcome is Outcome.PIN_VIOLATION
    assert (
        pin_violation(FP8, ChatResult(content="hi", served_by="DeepInfra", served_endpoint="deepinfra/fp8"))
        is None
    )


def test_a_fallback_is_a_violation_even_under_the_same_name_and_names_decide_last() -> None:
    fell_back = ChatResult(content="hi", served_by="DeepInfra", attempts=2)
    assert pin_violation(FP8, fell_back) == "DeepInfra after 2 attempts"
    assert pin_violation(FP8, ChatResult(content="hi", served_by="deepinfra", attempts=1)) is None
    assert pin_violation(FP8, ChatResult(content="hi", served_by="Together")) == "Together"


def test_the_client_asks_for_router_metadata_and_the_simulator_names_the_serving_endpoint() -> None:
    async def probe(base_url: str) -> ChatResult:
        client = GatewayClient(base_url, "sk-or-v1-test", timeout=10)
        try:
            request = ChatRequest("moonshotai/kimi-k2-0905", ({"role": "user", "content": "Hi"},), 32,
                                  pin="deepinfra/turbo", stream=True)  # fmt: skip
            assert client.build_chat_headers(request)["X-OpenRouter-Metadata"] == "enabled"
            return await client.chat(request)
        finally:
            await client.aclose()

    with SimulatorServer.from_file(DEFAULT_FLEET) as sim:
        result = asyncio.run(probe(sim.base_url))
    assert (result.served_by, result.served_endpoint, result.attempts) == ("DeepInfra", "deepinfra/turbo", 1)
