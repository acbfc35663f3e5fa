"""GatewayClient over a real loopback socket: keep-alive reuse after [DONE], TTFT against a known delay."""

from __future__ import annotations

import asyncio
import json

from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, ChatResult

DELAY = 0.2
HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


def _chunk(payload: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(payload), payload)


def _event(content: str, finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": finish}
    return (
        b"data: " + json.dumps({"id": "gen-loop", "provider": "Loop", "choices": [choice]}).encode() + b"\n\n"
    )


class LoopbackGateway:
    """A tiny keep-alive HTTP/1.1 SSE server that counts the connections it accepted."""

    def __init__(self) -> None:
        self.connections = 0
        self.requests: list[dict[str, object]] = []

    async def handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = next(
                    int(line.split(b":", 1)[1])
                    for line in head.split(b"\r\n")
                    if line.lower().startswith(b"content-length")
                )
                self.requests.append(json.loads(await reader.readexactly(length)))
                writer.write(HEAD + _chunk(b": OPENROUTER PROCESSING\n\n" + _event("")))
                await writer.drain()
                await asyncio.sleep(DELAY)
                writer.write(_chunk(_event("Ahoy")))
                writer.write(_chunk(_event("", "stop") + b"data: [DONE]\n\n") + b"0\r\n\r\n")
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()


def test_sequential_probes_to_one_host_reuse_one_connection_and_measure_the_delay() -> None:
    async def go() -> tuple[list[ChatResult], LoopbackGateway]:
        gateway = LoopbackGateway()
        server = await asyncio.start_server(gateway.handle, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        request = ChatRequest(
            model="m/x",
            messages=({"role": "user", "content": "hi"},),
            max_tokens=8,
            pin="loop/fp8",
            stream=True,
        )
        try:
            async with GatewayClient(f"http://127.0.0.1:{port}/api/v1", "key", timeout=10.0) as client:
                results = [await client.chat(request) for _ in range(3)]
        finally:
            server.close()
            await server.wait_closed()
        return results, gateway

    results, gateway = asyncio.run(go())
    assert [r.error for r in results] == [None, None, None]
    assert [r.content for r in results] == ["Ahoy"] * 3
    assert all(r["provider"] == {"only": ["loop/fp8"], "allow_fallbacks": False, "require_parameters": True}
               for r in gateway.requests)  # fmt: skip
    assert gateway.connections == 1  # the body's end was read after [DONE], so the connection was kept
    for result in results:
        assert result.ttft_seconds is not None
        assert DELAY <= result.ttft_seconds < DELAY + 0.1
