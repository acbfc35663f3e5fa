"""Benchmark: TTFT measurement error of GatewayClient with N concurrent streams against a loopback server.

A minimal HTTP/1.1 SSE server on 127.0.0.1 (its own process) answers every chat request the way OpenRouter
does (headers, an ``: OPENROUTER PROCESSING`` comment, a role chunk with ``content: ""``), waits the injected
delay, then sends the first visible token and finishes the stream. The token carries the server's own
``perf_counter`` stamps (request received, token written; CLOCK_MONOTONIC is shared across processes), so the
delay the server *really* applied is known even when its event loop is late. The error of one measurement is
``ttft_seconds`` minus that served delay: what the client adds on the send side and the read side.

The baseline is a bare asyncio keep-alive socket client (stamp, write the request, stamp the read that holds
the token) run in the same process against the same server, with the same concurrency and delays.

Run: ``.venv/bin/python bench/gateway_ttft.py [--streams 100] [--rounds 5] [--delay 0.25]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import re
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest

TOKEN = "Steel"


def _chunk(payload: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(payload), payload)


def _event(content: str, finish: str | None = None) -> bytes:
    obj = {
        "id": "gen-bench",
        "provider": "Bench",
        "object": "chat.completion.chunk",
        "choices": [
            {"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": finish}
        ],
    }
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            body = json.loads(await reader.readexactly(length))
            received = time.perf_counter()
            delay = float(body["messages"][-1]["content"].removeprefix("delay="))
            writer.write(
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
                + _chunk(b": OPENROUTER PROCESSING\n\n")
                + _chunk(_event(""))
            )
            await writer.drain()
            await asyncio.sleep(delay)
            # perf_counter is CLOCK_MONOTONIC, shared by every process on the machine.
            writer.write(_chunk(_event(f"{TOKEN}|{received!r}|{time.perf_counter()!r}")))
            await writer.drain()
            writer.write(_chunk(_event("", "stop") + b"data: [DONE]\n\n") + b"0\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionError):
        pass
    finally:
        writer.close()


def _served_delay(content: str) -> float:
    """The delay the server really applied: token written minus request received (its own stamps)."""
    _, received, written = content.split("|")[:3]
    return float(written) - float(received)


class _BareConnection:
    """A bare keep-alive socket client: stamp before writing, stamp the read that holds the token."""

    _TOKEN = re.compile(rb'"content": "' + TOKEN.encode() + rb'\|([0-9.e+-]+)\|([0-9.e+-]+)"')

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._reader, self._writer = reader, writer

    @classmethod
    async def open(cls, port: int) -> _BareConnection:
        return cls(*await asyncio.open_connection("127.0.0.1", port))

    async def measure(self, body: bytes) -> float:
        request = (
            b"POST /api/v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-type: application/json\r\n"
            b"content-length: %d\r\n\r\n%s" % (len(body), body)
        )
        seen = b""
        error: float | None = None
        t0 = time.perf_counter()
        self._writer.write(request)
        while not seen.endswith(b"\r\n0\r\n\r\n"):  # read the whole response to keep the connection
            data = await self._reader.read(65536)
            if not data:
                raise RuntimeError("server closed the connection")
            now = time.perf_counter()
            seen += data
            if error is None and (match := self._TOKEN.search(seen)):
                error = (now - t0) - (float(match[2]) - float(match[1]))
        if error is None:
            raise RuntimeError("no token in the response")
        return error

    def close(self) -> None:
        self._writer.close()


def _request(delay: float, host: int) -> ChatRequest:
    # The injected delay travels in the prompt, so the server and the measurement agree on it. Each
    # concurrent stream is pinned to its own host, as in a round (probes to one host are sequential).
    return ChatRequest(
        model="bench/model",
        messages=({"role": "user", "content": f"delay={delay!r}"},),
        max_tokens=16,
        pin=f"host-{host}",
        stream=True,
        first_token_deadline=delay + 5.0,
    )


async def _ours(client: GatewayClient, delay: float, host: int) -> float:
    result = await client.chat(_request(delay, host))
    if result.error is not None or result.ttft_seconds is None:
        raise RuntimeError(f"bench stream failed: {result.error}")
    return result.ttft_seconds - _served_delay(result.content)


async def _round(
    client: GatewayClient, bare: list[_BareConnection], delays: list[float]
) -> tuple[list[float], list[float]]:
    body = [json.dumps(client.build_chat_body(_request(d, i))).encode() for i, d in enumerate(delays)]
    ours = await asyncio.gather(*(_ours(client, d, i) for i, d in enumerate(delays)))
    base = await asyncio.gather(*(conn.measure(b) for conn, b in zip(bare, body, strict=True)))
    return list(ours), list(base)


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _server_process(ports: multiprocessing.Queue[int]) -> None:
    """The SSE server runs in its own process so its timers do not share the client's event loop."""

    async def serve() -> None:
        server = await asyncio.start_server(_serve, "127.0.0.1", 0, backlog=1024)
        ports.put(server.sockets[0].getsockname()[1])
        async with server:
            await server.serve_forever()

    asyncio.run(serve())


async def main(streams: int, rounds: int, delay: float, spread: float) -> None:
    ports: multiprocessing.Queue[int] = multiprocessing.Queue()
    server = multiprocessing.Process(target=_server_process, args=(ports,), daemon=True)
    server.start()
    port = ports.get(timeout=10)
    client = GatewayClient(f"http://127.0.0.1:{port}/api/v1", "bench-key", timeout=30.0)
    bare = [await _BareConnection.open(port) for _ in range(streams)]
    scenarios = {
        f"staggered (delays {delay:g}..{delay + spread:g}s)": [
            delay + spread * i / streams for i in range(streams)
        ],
        f"synchronized (all {delay:g}s)": [delay] * streams,
    }
    ms = 1000.0
    try:
        await _round(client, bare, [delay] * streams)  # warm-up: connections, imports
        print(f"TTFT measurement error (measured - injected), {streams} concurrent streams x {rounds} rounds")
        for title, delays in scenarios.items():
            ours: list[float] = []
            base: list[float] = []
            for _ in range(rounds):
                errors, baseline = await _round(client, bare, delays)
                ours += errors
                base += baseline
            print(f"\n{title}")
            print(f"  {'client':<16}{'median ms':>10}{'p99 ms':>10}{'max ms':>10}")
            for name, values in (("GatewayClient", ours), ("bare socket", base)):
                median, p99, worst = (statistics.median(values) * ms, _p(values, 0.99) * ms, max(values) * ms)
                print(f"  {name:<16}{median:>10.3f}{p99:>10.3f}{worst:>10.3f}")
            added_median = (statistics.median(ours) - statistics.median(base)) * ms
            added_p99 = (_p(ours, 0.99) - _p(base, 0.99)) * ms
            ratio = _p(ours, 0.99) / max(_p(base, 0.99), 1e-9)
            print(
                f"  added by GatewayClient: median {added_median:+.3f} ms, p99 {added_p99:+.3f} ms;", end=""
            )
            print(f" p99 ratio {ratio:.2f}")
    finally:
        await client.aclose()
        for conn in bare:
            conn.close()
        server.terminate()
        server.join()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.25)
    parser.add_argument(
        "--spread", type=float, default=0.5, help="staggered scenario: delays span this many s"
    )
    args = parser.parse_args()
    asyncio.run(main(args.streams, args.rounds, args.delay, args.spread))
