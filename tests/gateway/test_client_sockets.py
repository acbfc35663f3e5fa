"""GatewayClient over real sockets: when TTFT is stamped, TLS keep-alive, stale connections, network errors
as outcomes, no leaked sockets, and an HTTP proxy from the environment."""

from __future__ import annotations

import asyncio
import os
import socket
import ssl
import time

import httpx
import pytest
import trustme

from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, ChatResult
from exporter.outcomes import Outcome, Reason

from .loopback import LoopbackGateway

DELAY = 0.15
REQUEST = ChatRequest("m/x", ({"role": "user", "content": "hi"},), 8, pin="loop/fp8", stream=True)
BUSY = 0.2  # how long the client's event loop stays busy after the server has written the token


def _chat(
    base_url: str, *, count: int = 1, transport: httpx.AsyncBaseTransport | None = None
) -> list[ChatResult]:
    async def go() -> list[ChatResult]:
        async with GatewayClient(base_url, "key", timeout=10.0, transport=transport) as gateway:
            return [await gateway.chat(REQUEST) for _ in range(count)]

    return asyncio.run(go())


def test_the_first_token_is_stamped_when_the_client_reads_it() -> None:
    """The client's event loop is frozen from when the server has the request until ``BUSY`` seconds after it
    wrote the token: the token waits in the kernel, and TTFT ends when the loop reads it. No window of
    wall-clock time: the order of events is forced, whatever the machine's load."""
    unblocked: list[float] = []

    def busy(loop: asyncio.AbstractEventLoop, gateway: LoopbackGateway) -> None:
        if not gateway.requests:  # not sent yet: look again soon
            loop.call_later(0.005, busy, loop, gateway)
            return
        while not gateway.token_written_at:
            time.sleep(0.001)
        time.sleep(BUSY)
        unblocked.append(time.perf_counter())

    async def go(gateway: LoopbackGateway) -> ChatResult:
        base_url = f"http://127.0.0.1:{gateway.port}/api/v1"
        async with GatewayClient(base_url, "key", timeout=10.0) as client:
            loop = asyncio.get_running_loop()
            loop.call_soon(busy, loop, gateway)
            return await client.chat(REQUEST)

    with LoopbackGateway(DELAY) as gateway:
        result = asyncio.run(go(gateway))
    assert result.error is None and result.content == "Ahoy"
    assert result.ttft_seconds is not None and result.sent_at is not None
    assert result.sent_at + result.ttft_seconds >= unblocked[0]


def test_tls_keep_alive() -> None:
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server_context)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    transport = httpx.AsyncHTTPTransport(verify=client_context)
    with LoopbackGateway(DELAY, tls=server_context) as gateway:
        results = _chat(f"https://127.0.0.1:{gateway.port}/api/v1", count=3, transport=transport)
    assert [(r.error, r.content) for r in results] == [(None, "Ahoy")] * 3
    assert gateway.connections == 1  # one TLS handshake, then keep-alive
    for result, written in zip(results, gateway.token_written_at, strict=True):
        assert result.ttft_seconds is not None and result.sent_at is not None
        assert result.ttft_seconds >= DELAY and result.sent_at + result.ttft_seconds >= written


def test_a_tls_handshake_with_an_untrusted_certificate_is_a_transport_error() -> None:
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    trustme.CA().issue_cert("127.0.0.1").configure_cert(server_context)
    with LoopbackGateway(DELAY, tls=server_context) as gateway:
        (result,) = _chat(f"https://127.0.0.1:{gateway.port}/api/v1")
    assert result.error is not None and result.error.outcome is Outcome.TRANSPORT


def test_a_connection_the_server_closed_while_idle_is_replaced_not_reused() -> None:
    async def go(gateway: LoopbackGateway) -> list[ChatResult]:
        results = []
        async with GatewayClient(f"http://127.0.0.1:{gateway.port}/api/v1", "key", timeout=10.0) as client:
            for i in range(3):
                results.append(await client.chat(REQUEST))
                for _ in range(500):  # idle until the server has closed its side, as between two probes
                    if gateway.closed > i:
                        break
                    await asyncio.sleep(0.01)
        return results

    with LoopbackGateway(DELAY, close_after_each=True) as gateway:
        results = asyncio.run(go(gateway))
    assert [(r.error, r.content) for r in results] == [(None, "Ahoy")] * 3
    assert gateway.connections == 3


def test_a_refused_connection_is_a_transport_error() -> None:
    with socket.create_server(("127.0.0.1", 0)) as placeholder:
        port = placeholder.getsockname()[1]
    (result,) = _chat(f"http://127.0.0.1:{port}/api/v1")
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.NETWORK)


def test_a_handshake_cut_short_by_the_request_deadline_leaves_no_socket_open() -> None:
    def open_fds() -> int:
        return len(os.listdir("/proc/self/fd"))

    async def go(port: int) -> tuple[list[ChatResult], int]:
        url = f"https://127.0.0.1:{port}/api/v1"
        async with GatewayClient(url, "key", timeout=0.2, connect_timeout=5) as gateway:
            before = open_fds()
            results = [await gateway.chat(REQUEST) for _ in range(3)]
            return results, open_fds() - before

    # The server accepts TCP and never answers the ClientHello: the request's own deadline cancels the
    # handshake (not the connect timeout), and the socket must be closed then, not by the garbage collector.
    with socket.create_server(("127.0.0.1", 0)) as silent:
        results, leaked = asyncio.run(go(silent.getsockname()[1]))
    assert [(r.error.outcome, r.error.reason) for r in results if r.error] == [
        (Outcome.TRANSPORT, Reason.TIMEOUT)
    ] * 3
    assert leaked == 0


def test_a_host_name_that_cannot_be_encoded_is_a_transport_error_not_a_crash() -> None:
    (result,) = _chat("http://" + "a" * 64 + ".invalid/api/v1")
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.NETWORK)


def test_an_http_proxy_from_the_environment_carries_the_probes(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    with LoopbackGateway(DELAY) as proxy:  # answers the proxied request itself: enough to see it went there
        monkeypatch.setenv("HTTP_PROXY", f"http://127.0.0.1:{proxy.port}")
        (result,) = _chat("http://gateway.invalid/api/v1")  # unresolvable: only the proxy can answer
    assert (result.error, result.content) == (None, "Ahoy")
    assert proxy.connections == 1
