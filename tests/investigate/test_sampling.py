"""investigate's samples run through the engine's one contract runner: a crash costs only its own sample."""

from __future__ import annotations

import asyncio
import logging

import pytest

from exporter.contracts.base import Contract, ContractSettings, ProbeContext, ProbeResult
from exporter.contracts.ttft import TTFTContract
from exporter.engine.rounds import ModelPlan
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.investigate.sampling import collect, resolve

MODEL = "acme/model-1"
HOSTS = [Endpoint("alpha/fp8", "Alpha"), Endpoint("beta/fp8", "Beta")]


class Healthy:
    """Every host streams a visible token at once."""

    async def discover(self, model: str) -> list[Endpoint] | GatewayError:
        return list(HOSTS)

    async def chat(self, request: ChatRequest) -> ChatResult:
        served = (request.pin or "").split("/")[0].title()
        return ChatResult(content="Welcome!", ttft_seconds=0.05, finish_reason="stop", served_by=served)


class Crashing(Contract):
    """A contract with a bug on one host."""

    name = "crashing"
    Settings = ContractSettings

    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        if ctx.target.provider == "beta/fp8":
            raise RuntimeError("a bug in the contract")
        return await TTFTContract().sample(ctx)


def test_a_crashing_sample_is_a_non_evidence_sample_and_the_others_go_on(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def sampled() -> list[tuple[str, str, str, str]]:
        plans = [ModelPlan(MODEL, Healthy())]
        contracts = [TTFTContract(), Crashing()]
        work = await resolve(plans, contracts, providers=None, samples=2, locale=None)
        return [(s.provider, s.contract, s.outcome, s.reason) for s in await collect(work, concurrency=2)]

    with caplog.at_level(logging.ERROR):
        samples = asyncio.run(sampled())
    assert sorted(set(samples)) == [
        ("alpha/fp8", "crashing", "pass", "none"),
        ("alpha/fp8", "ttft", "pass", "none"),
        ("beta/fp8", "crashing", "transport", "probe_error"),
        ("beta/fp8", "ttft", "pass", "none"),
    ]
    assert len(samples) == 8, "two samples of each contract on each host"
    assert "sample crashed model=acme/model-1 provider=beta/fp8 contract=crashing" in caplog.text
