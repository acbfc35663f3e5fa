"""A loopback SSE gateway for the client tests: real sockets, keep-alive, optional TLS, its own thread."""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
import threading
import time

HEAD = b"HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n"


def sse_event(content: str, finish: str | None = None) -> bytes:
    choice = {"index": 0, "delta": {"role": "assistant", "content": content}, "finish_reason": finish}
    return (
        b"data: " + json.dumps({"id": "gen-loop", "provider": "Loop", "choices": [choice]}).encode() + b"\n\n"
    )


def http_chunk(payload: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(payload), payload)


class LoopbackGateway:
    """A keep-alive HTTP/1.1 SSE server on its own thread and event loop, so the client's loop can be
    blocked while the server keeps time. Answers every request OpenRouter's way (a processing comment and an
    empty role chunk at once), then writes the token "Ahoy" ``delay`` seconds after reading the request.

    It counts the connections it accepted and closed, keeps every request body, and notes when it wrote each
    token (``time.perf_counter()``, CLOCK_MONOTONIC). ``close_after_each`` closes a connection after one
    response (without saying so in a header, as a server that times idle connections out does).
    """

    def __init__(
        self, delay: float, tls: ssl.SSLContext | None = None, close_after_each: bool = False
    ) -> None:
        self.delay = delay
        self.tls = tls
        self.close_after_each = close_after_each
        self.connections = 0
        self.closed = 0
        self.requests: list[dict[str, object]] = []
        self.token_written_at: list[float] = []
        self.port = 0
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(
            asyncio.start_server(self._handle, "127.0.0.1", 0, ssl=self.tls)
        )
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()
        server.close()
        self._loop.run_until_complete(server.wait_closed())
        self._loop.close()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                lines = head.lower().split(b"\r\n")
                length = next(
                    int(line.split(b":", 1)[1]) for line in lines if line.startswith(b"content-length")
                )
                self.requests.append(json.loads(await reader.readexactly(length)))
                writer.write(HEAD + http_chunk(b": OPENROUTER PROCESSING\n\n" + sse_event("")))
                await writer.drain()
                await asyncio.sleep(self.delay)
                self.token_written_at.append(time.perf_counter())
                writer.write(http_chunk(sse_event("Ahoy")))
                writer.write(http_chunk(sse_event("", "stop") + b"data: [DONE]\n\n") + b"0\r\n\r\n")
                await writer.drain()
                if self.close_after_each:
                    break
        except (asyncio.IncompleteReadError, ConnectionError, ssl.SSLError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(ConnectionError, ssl.SSLError):
                await writer.wait_closed()
            self.closed += 1

    def __enter__(self) -> LoopbackGateway:
        self._thread.start()
        self._ready.wait(5)
        return self

    def __exit__(self, *exc: object) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)
