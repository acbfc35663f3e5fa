"""GatewayClient over a real loopback socket: keep-alive reuse after [DONE], TTFT against a known delay."""

from __future__ import annotations

import asyncio

import pytest

from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, ChatResult

from .loopback import LoopbackGateway

DELAY = 0.2


def test_sequential_probes_to_one_host_reuse_one_connection_and_measure_the_delay() -> None:
    request = ChatRequest(
        model="m/x",
        messages=({"role": "user", "content": "hi"},),
        max_tokens=8,
        pin="loop/fp8",
        stream=True,
    )

    async def go(port: int) -> list[ChatResult]:
        async with GatewayClient(f"http://127.0.0.1:{port}/api/v1", "key", timeout=10.0) as client:
            return [await client.chat(request) for _ in range(3)]

    with LoopbackGateway(DELAY) as gateway:
        results = asyncio.run(go(gateway.port))
    assert [r.error for r in results] == [None, None, None]
    assert [r.content for r in results] == ["Ahoy"] * 3
    assert all(r["provider"] == {"only": ["loop/fp8"], "allow_fallbacks": False, "require_parameters": True}
               for r in gateway.requests)  # fmt: skip
    assert gateway.connections == 1  # the body's end was read after [DONE], so the connection was kept
    for result in results:
        assert result.ttft_seconds is not None
        assert DELAY <= result.ttft_seconds < DELAY + 0.1


@pytest.mark.serial  # wall-clock error bounds: run alone, not beside the parallel suite
def test_ttft_of_eight_concurrent_streams_is_the_delay_within_milliseconds() -> None:
    """The default concurrency (``rounds.concurrency`` 8): every TTFT is at least the injected delay (the
    server waits it after reading the request) and over it by what the loopback and the two event loops add.
    The server shares this process (and its GIL), and the eight tokens come at once, so the last one read
    waits for the other seven: the bounds are for a loaded shared machine; ``bench/gateway_ttft.py``
    measures the error itself with the server in its own process."""
    requests = [
        ChatRequest("m/x", ({"role": "user", "content": "hi"},), 8, pin=f"loop/{i}", stream=True)
        for i in range(8)
    ]

    async def go(port: int) -> list[ChatResult]:
        async with GatewayClient(f"http://127.0.0.1:{port}/api/v1", "key", timeout=10.0) as client:
            await asyncio.gather(*(client.chat(r) for r in requests))  # warm: connections, imports
            return list(await asyncio.gather(*(client.chat(r) for r in requests)))

    with LoopbackGateway(DELAY) as gateway:
        results = asyncio.run(go(gateway.port))
    assert [r.error for r in results] == [None] * 8
    errors = sorted(r.ttft_seconds - DELAY for r in results if r.ttft_seconds is not None)
    assert len(errors) == 8 and errors[0] >= 0.0
    assert errors[4] < 0.05 and errors[-1] < 0.15, errors
