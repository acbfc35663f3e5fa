"""The next-token test end to end: the gateway client asks the real simulator (loopback HTTP) for logprobs,
and the hosts whose reply style differs are the outliers."""

from __future__ import annotations

import asyncio

import httpx

from exporter.contracts.base import ProbeTarget
from exporter.equality.compare import LIKE_PEERS, NOT_TESTED, OUTLIER
from exporter.equality.logprob_sampling import DEFAULT_PREFIXES, DEFAULT_REPEATS, sample_next_tokens
from exporter.equality.logprobs import NO_LOGPROBS, compare_next_tokens
from exporter.equality.sampling import across_hosts
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest
from tests.simulated import MODEL, default_fleet

DISTORTED = {"weakling/int4", "quanta/fp4", "templar/bf16"}


async def _fleet(base_url: str) -> dict[str, tuple[int, str]]:
    async with GatewayClient(base_url, "sk-test") as gateway:
        endpoints = await gateway.discover(MODEL)
        assert not isinstance(endpoints, Exception) and isinstance(endpoints, list)
        targets = [(ProbeTarget(MODEL, e), gateway) for e in endpoints]
        hosts = await across_hosts(targets, 8, sample_next_tokens)
    results = compare_next_tokens(
        {h.provider: h.responses for h in hosts}, listed=[h.provider for h in hosts if h.listed]
    )
    return {r.provider: (r.responses, r.verdict) for r in results}


def test_the_hosts_with_another_reply_style_are_the_outliers_over_real_http() -> None:
    with default_fleet() as sim:
        verdicts = asyncio.run(_fleet(sim.base_url))
    asked = DEFAULT_REPEATS * len(DEFAULT_PREFIXES)
    assert {h for h, (_, v) in verdicts.items() if v == OUTLIER} == DISTORTED
    assert verdicts["reasoner/bf16"] == (0, NO_LOGPROBS)  # its listing names no logprobs: nothing sent
    assert verdicts["stormy/fp8"] == (0, NOT_TESTED)  # every request failed
    healthy = [v for h, v in verdicts.items() if h not in DISTORTED | {"reasoner/bf16", "stormy/fp8"}]
    assert len(healthy) == 19 and all(v == (asked, LIKE_PEERS) for v in healthy), verdicts


async def _streamed(base_url: str) -> list[tuple[str, int]]:
    async with GatewayClient(base_url, "sk-test") as gateway:
        out = []
        for pin in ("deepinfra/fp8", "templar/bf16"):
            request = ChatRequest(MODEL, ({"role": "user", "content": "Name a fruit."},), 1, pin=pin,
                                  stream=True, temperature=1.0, top_logprobs=4)  # fmt: skip
            result = await gateway.chat(request)
            assert result.error is None and result.content and len(result.logprobs) == 1
            out.append((result.logprobs[0].top[0][0], len(result.logprobs[0].top)))
    return out


def test_a_streamed_reply_carries_the_first_positions_alternatives() -> None:
    with default_fleet() as sim:
        first = asyncio.run(_streamed(sim.base_url))
    assert first[1] == ("assistant", 4) and first[0][0] != "assistant" and first[0][1] == 4


def test_the_simulator_refuses_top_logprobs_out_of_range_or_without_logprobs() -> None:
    with default_fleet() as sim:
        base = {"model": MODEL, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 1}
        for extra in ({"top_logprobs": 3}, {"logprobs": True, "top_logprobs": 21}, {"logprobs": "yes"}):
            answer = httpx.post(f"{sim.base_url}/chat/completions", json=base | extra,
                                headers={"Authorization": "Bearer k"})  # fmt: skip
            assert answer.status_code == 400, (extra, answer.text)
        pinned = base | {"logprobs": True, "top_logprobs": 3,
                         "provider": {"only": ["reasoner/bf16"], "require_parameters": True}}  # fmt: skip
        refused = httpx.post(
            f"{sim.base_url}/chat/completions", json=pinned, headers={"Authorization": "Bearer k"}
        )
        assert refused.status_code == 404 and "require_parameters" in refused.text
