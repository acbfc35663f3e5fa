"""Benchmark: TTFT measurement error of GatewayClient with N concurrent streams against a loopback server.

A minimal HTTP/1.1 SSE server on 127.0.0.1 (its own process) answers every chat request the way OpenRouter
does (headers, an ``: OPENROUTER PROCESSING`` comment, a role chunk with ``content: ""``), waits the injected
delay, then sends the first visible token and finishes the stream. The token carries the server's own
stamps (CLOCK_MONOTONIC, shared across processes): the request's arrival, from the kernel's receive stamp
of its last bytes (``SO_TIMESTAMPNS``, Linux; elsewhere the read's own time), and the token's write. So the
delay the server *really* applied is known even when its event loop is late to read the request or to write
the token, and the error of one measurement, ``ttft_seconds`` minus that served delay, is what the client
adds on the send side and the read side (plus the loopback itself).

Baseline, same process, same server, same concurrency and delays: a bare asyncio keep-alive socket client
(stamp, write the request, stamp the read that holds the token).

Scenarios: first tokens staggered over ``--spread`` or all due at once; then both again with a second token
``--gap`` after the first (a realistic stream: if the client reads late, both tokens come in one read).

Run: ``.venv/bin/python bench/gateway_ttft.py [--streams 8] [--rounds 5] [--delay 0.25] [--gap 0.02]``
(8 streams: the default ``rounds.concurrency``)
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import re
import socket
import statistics
import struct
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


_SO_TIMESTAMPNS = 35  # Linux, generic socket ABI (x86-64, arm64)
_TIMESPEC = struct.Struct("@ll")


class _StampedReader:
    """Reads a socket with ``recvmsg`` and keeps when the latest read's bytes reached the kernel
    (``time.perf_counter()``): the kernel's receive stamp where it gives one, else the read's own time."""

    def __init__(self, sock: socket.socket) -> None:
        self._sock = sock
        self.arrived = 0.0
        with contextlib.suppress(OSError):  # no stamps: the read's own time
            sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)

    async def receive(self) -> bytes:
        loop = asyncio.get_running_loop()
        while True:
            try:
                data, ancillary, _, _ = self._sock.recvmsg(65536, socket.CMSG_SPACE(_TIMESPEC.size))
                break
            except BlockingIOError:
                ready = loop.create_future()
                loop.add_reader(self._sock, ready.set_result, None)
                try:
                    await ready
                finally:
                    loop.remove_reader(self._sock)
        if not data:
            raise EOFError
        lag = 0.0
        for level, kind, stamp in ancillary:
            if (level, kind) == (socket.SOL_SOCKET, _SO_TIMESTAMPNS):
                seconds, nanoseconds = _TIMESPEC.unpack_from(stamp)
                lag = max(0.0, time.time() - seconds - nanoseconds / 1e9)
        self.arrived = time.perf_counter() - lag
        return data


async def _serve(connection: socket.socket) -> None:
    """One keep-alive connection. A request's arrival is the kernel's receive stamp of its last bytes, so
    the delay runs from when the request reached this host even when this event loop is busy; the token's
    write is stamped just before the write."""
    loop = asyncio.get_running_loop()
    reader = _StampedReader(connection)
    buffer = b""
    try:
        while True:
            while b"\r\n\r\n" not in buffer:
                buffer += await reader.receive()
            head, _, buffer = buffer.partition(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n"):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":", 1)[1])
            while len(buffer) < length:
                buffer += await reader.receive()
            # perf_counter is CLOCK_MONOTONIC, shared by every process on the machine.
            received = reader.arrived  # of the receive that completed the request
            body, buffer = json.loads(buffer[:length]), buffer[length:]
            delay, gap = (float(v.split("=")[1]) for v in body["messages"][-1]["content"].split())
            await loop.sock_sendall(
                connection,
                b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"
                + _chunk(b": OPENROUTER PROCESSING\n\n")
                + _chunk(_event("")),
            )
            await asyncio.sleep(max(0.0, received + delay - time.perf_counter()))
            await loop.sock_sendall(
                connection, _chunk(_event(f"{TOKEN}|{received!r}|{time.perf_counter()!r}"))
            )
            if gap > 0:  # the next token comes ``gap`` later, as a model's tokens do
                await asyncio.sleep(gap)
                await loop.sock_sendall(connection, _chunk(_event(" on")))
            await loop.sock_sendall(
                connection, _chunk(_event("", "stop") + b"data: [DONE]\n\n") + b"0\r\n\r\n"
            )
    except (EOFError, OSError):
        pass
    finally:
        connection.close()


def _served_delay(content: str) -> float:
    """The delay the server really applied: token written minus request received (its own stamps)."""
    _, received, written = content.split("|")[:3]
    return float(written.split()[0]) - float(received)  # the next token (" on") may follow the stamp


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


def _request(delay: float, host: int, gap: float) -> ChatRequest:
    # The injected delay (and the gap before the next token) travel in the prompt, so the server and the
    # measurement agree on them. Each concurrent stream is pinned to its own host, as in a round (probes to
    # one host are sequential).
    return ChatRequest(
        model="bench/model",
        messages=({"role": "user", "content": f"delay={delay!r} gap={gap!r}"},),
        max_tokens=16,
        pin=f"host-{host}",
        stream=True,
        first_token_deadline=delay + 5.0,
    )


async def _ours(client: GatewayClient, delay: float, host: int, gap: float) -> float:
    result = await client.chat(_request(delay, host, gap))
    if result.error is not None or result.ttft_seconds is None:
        raise RuntimeError(f"bench stream failed: {result.error}")
    return result.ttft_seconds - _served_delay(result.content)


async def _round(
    client: GatewayClient, bare: list[_BareConnection], delays: list[float], gap: float = 0.0
) -> list[list[float]]:
    """One round with the client, then one with the bare connections: the errors of each, in that order."""
    requests = [_request(d, i, gap) for i, d in enumerate(delays)]
    body = [json.dumps(client.build_chat_body(r)).encode() for r in requests]
    ours = list(await asyncio.gather(*(_ours(client, d, i, gap) for i, d in enumerate(delays))))
    theirs = list(await asyncio.gather(*(c.measure(b) for c, b in zip(bare, body, strict=True))))
    return [ours, theirs]


def _p(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _server_process(ports: multiprocessing.Queue[int]) -> None:
    """The SSE server runs in its own process so its timers do not share the client's event loop."""

    async def serve() -> None:
        loop = asyncio.get_running_loop()
        listener = socket.create_server(("127.0.0.1", 0), backlog=1024)
        listener.setblocking(False)
        ports.put(listener.getsockname()[1])
        connections = set()
        while True:
            connection, _ = await loop.sock_accept(listener)
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            task = asyncio.ensure_future(_serve(connection))
            connections.add(task)
            task.add_done_callback(connections.discard)

    asyncio.run(serve())


async def main(streams: int, rounds: int, delay: float, spread: float, gap: float) -> None:
    ports: multiprocessing.Queue[int] = multiprocessing.Queue()
    server = multiprocessing.Process(target=_server_process, args=(ports,), daemon=True)
    server.start()
    port = ports.get(timeout=10)
    base_url = f"http://127.0.0.1:{port}/api/v1"
    names = ["GatewayClient", "bare socket"]
    client = GatewayClient(base_url, "bench-key", timeout=30.0)
    bare = [await _BareConnection.open(port) for _ in range(streams)]
    staggered = [delay + spread * i / streams for i in range(streams)]
    scenarios = {
        f"staggered (delays {delay:g}..{delay + spread:g}s)": (staggered, 0.0),
        f"synchronized (all {delay:g}s)": ([delay] * streams, 0.0),
        f"staggered, next token {gap * 1000:g} ms after the first": (staggered, gap),
        f"synchronized, next token {gap * 1000:g} ms after the first": ([delay] * streams, gap),
    }
    ms = 1000.0
    try:
        await _round(client, bare, [delay] * streams)  # warm-up: connections, imports
        print(f"TTFT measurement error (measured - served), {streams} concurrent streams x {rounds} rounds")
        for title, (delays, next_gap) in scenarios.items():
            errors: list[list[float]] = [[] for _ in names]
            for _ in range(rounds):
                new = await _round(client, bare, delays, next_gap)
                for mine, new_errors in zip(errors, new, strict=True):
                    mine += new_errors
            print(f"\n{title}")
            print(f"  {'client':<28}{'median ms':>10}{'p99 ms':>10}{'max ms':>10}{'p99 / bare':>12}")
            bare_p99 = _p(errors[-1], 0.99)
            for name, values in zip(names, errors, strict=True):
                median, p99, worst = (statistics.median(values) * ms, _p(values, 0.99) * ms, max(values) * ms)
                ratio = _p(values, 0.99) / max(bare_p99, 1e-9)
                print(f"  {name:<28}{median:>10.3f}{p99:>10.3f}{worst:>10.3f}{ratio:>11.2f}x")
    finally:
        await client.aclose()
        for conn in bare:
            conn.close()
        server.terminate()
        server.join()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=8)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--delay", type=float, default=0.25)
    parser.add_argument(
        "--spread", type=float, default=0.5, help="staggered scenario: delays span this many s"
    )
    parser.add_argument(
        "--gap", type=float, default=0.02, help="last two scenarios: s between the first and the next token"
    )
    args = parser.parse_args()
    asyncio.run(main(args.streams, args.rounds, args.delay, args.spread, args.gap))
