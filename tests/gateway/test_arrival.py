"""Kernel arrival stamps: TTFT is not inflated by a busy event loop; the stamping backend is a full HTTP
backend (plain and TLS, keep-alive, stale connections, errors); happy-eyeballs connection racing."""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import ssl
import struct
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import httpcore
import httpx
import pytest
import trustme

from exporter.gateway import arrival
from exporter.gateway import client as client_module
from exporter.gateway.arrival import ArrivalStampingBackend, first_connection, since_arrival
from exporter.gateway.client import GatewayClient
from exporter.gateway.transport import StampingTransport
from exporter.gateway.types import ChatRequest, ChatResult
from exporter.outcomes import Outcome, Reason
from tests.virtual_time import loop_clock, run_virtual

from .loopback import LoopbackGateway

DELAY = 0.15
stamps_only = pytest.mark.skipif(
    not arrival.kernel_timestamps_supported(), reason="kernel receive timestamps are Linux-only"
)


REQUEST = ChatRequest("m/x", ({"role": "user", "content": "hi"},), 8, pin="loop/fp8", stream=True)
BUSY = 0.2  # how long the client's event loop stays busy after the server has written the token


def _chat(
    base_url: str, *, count: int = 1, transport: httpx.AsyncBaseTransport | None = None
) -> list[ChatResult]:
    async def go() -> list[ChatResult]:
        async with GatewayClient(base_url, "key", timeout=10.0, transport=transport) as gateway:
            return [await gateway.chat(REQUEST) for _ in range(count)]

    return asyncio.run(go())


def _chat_while_busy(
    gateway: LoopbackGateway, transport: httpx.AsyncBaseTransport | None
) -> tuple[ChatResult, float]:
    """One chat whose event loop is frozen (busy with "something else") from when the server has the request
    until ``BUSY`` seconds after it wrote the token, so the token waits in the kernel; returns the result and
    when the loop was free again (``time.perf_counter()``). No window of wall-clock time: the order of
    events is forced, whatever the machine's load."""
    unblocked: list[float] = []

    def busy(loop: asyncio.AbstractEventLoop) -> None:
        if not gateway.requests:  # not sent yet: look again soon
            loop.call_later(0.005, busy, loop)
            return
        while not gateway.token_written_at:
            time.sleep(0.001)
        time.sleep(BUSY)
        unblocked.append(time.perf_counter())

    async def go() -> ChatResult:
        base_url = f"http://127.0.0.1:{gateway.port}/api/v1"
        async with GatewayClient(base_url, "key", timeout=10.0, transport=transport) as client:
            loop = asyncio.get_running_loop()
            loop.call_soon(busy, loop)
            return await client.chat(REQUEST)

    result = asyncio.run(go())
    return result, unblocked[0]


@stamps_only
def test_a_token_arriving_while_the_event_loop_is_busy_is_stamped_when_it_arrived() -> None:
    with LoopbackGateway(DELAY) as gateway:
        result, unblocked = _chat_while_busy(gateway, None)
    assert result.error is None and result.content == "Ahoy"
    assert result.ttft_seconds is not None and result.sent_at is not None
    arrived = result.sent_at + result.ttft_seconds
    assert gateway.token_written_at[0] <= arrived < unblocked - BUSY / 2  # read-time stamp: >= unblocked


def test_without_kernel_stamps_the_token_is_stamped_when_the_loop_reads_it() -> None:
    with LoopbackGateway(DELAY) as gateway:
        result, unblocked = _chat_while_busy(gateway, StampingTransport(kernel_stamps=False))
    assert result.error is None and result.ttft_seconds is not None and result.sent_at is not None
    assert result.sent_at + result.ttft_seconds >= unblocked


def test_the_default_client_stamps_with_the_kernel_where_it_can() -> None:
    async def go() -> tuple[bool, bool]:
        async with GatewayClient("http://127.0.0.1:9/api/v1", "key") as default:
            off = StampingTransport(kernel_stamps=False)
            async with GatewayClient("http://127.0.0.1:9/api/v1", "key", transport=off) as unstamped:
                return default.kernel_stamps, unstamped.kernel_stamps

    assert asyncio.run(go()) == (arrival.kernel_timestamps_supported(), False)


@stamps_only
def test_the_lag_of_a_read_is_how_long_its_bytes_waited() -> None:
    async def go() -> list[tuple[float, float]]:
        """(the lag of a read, the most it can be: from just before the bytes were sent to just after)"""
        listener = socket.create_server(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        stream = await ArrivalStampingBackend().connect_tcp("127.0.0.1", port, timeout=5)
        peer, _ = listener.accept()
        lags = []
        with peer, listener:
            # The kernel switches receive stamping on shortly after the first socket asks for it.
            await asyncio.sleep(0.05)
            for payload, busy in ((b"early", 0.05), (b"prompt", 0.0)):
                before = time.perf_counter()
                peer.sendall(payload)
                time.sleep(busy)  # noqa: ASYNC251 - the loop is busy; the bytes wait in the kernel
                assert await stream.read(100) == payload
                lag = stream.since_arrival()  # type: ignore[attr-defined]
                lags.append((lag, time.perf_counter() - before))
            await stream.aclose()
        return lags

    (waited, most), (prompt, prompt_most) = asyncio.run(go())
    assert 0.05 - 0.002 <= waited <= most  # the kernel stamped the bytes before the loop's 50 ms stall
    assert 0.0 <= prompt <= prompt_most


def test_the_lag_comes_from_the_kernel_stamp_and_absurd_stamps_count_as_none() -> None:
    def cmsg(seconds: int, nanos: int) -> list[tuple[int, int, bytes]]:
        return [(socket.SOL_SOCKET, arrival._SO_TIMESTAMPNS, struct.pack("@ll", seconds, nanos))]

    now = 1_700_000_000_500_000_000
    assert arrival._lag(cmsg(1_700_000_000, 250_000_000), now) == pytest.approx(0.25)
    assert arrival._lag(cmsg(1_700_000_001, 0), now) == 0.0  # from the future: a clock step
    assert arrival._lag(cmsg(1_699_999_000, 0), now) == 0.0  # over a minute: a clock step
    assert arrival._lag([], now) == 0.0
    assert arrival._lag([(socket.SOL_SOCKET, 99, b"x" * 16)], now) == 0.0


def test_tls_keep_alive_and_the_stamping_transport() -> None:
    authority = trustme.CA()
    server_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    authority.issue_cert("127.0.0.1").configure_cert(server_context)
    client_context = ssl.create_default_context()
    authority.configure_trust(client_context)
    transport = StampingTransport(ssl_context=client_context)
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


def test_a_silent_server_is_a_read_timeout() -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]

        async def go() -> None:
            stream = await ArrivalStampingBackend().connect_tcp("127.0.0.1", port, timeout=5)
            try:
                with pytest.raises(httpcore.ReadTimeout):
                    await stream.read(10, timeout=0.05)
            finally:
                await stream.aclose()

        asyncio.run(go())


def test_since_arrival_is_zero_for_responses_without_a_stamped_connection() -> None:
    assert since_arrival(httpx.Response(200)) == 0.0


# -- happy eyeballs ----------------------------------------------------------------------------------------


class _TracedSocket(socket.socket):
    """A socket that notes its name in ``closed`` when closed."""

    def __init__(self, name: str, closed: list[str]) -> None:
        super().__init__()
        self.name, self.closed = name, closed

    def close(self) -> None:
        if self.fileno() >= 0:
            self.closed.append(self.name)
        super().close()


def _fake_connect(
    plan: dict[str, tuple[float, bool]], started: list[tuple[str, float]], closed: list[str]
) -> Callable[[str], Awaitable[socket.socket]]:
    """A connect function: candidate -> (seconds to answer, succeeds); records start times and closes."""

    async def connect(name: str) -> socket.socket:
        started.append((name, loop_clock()))
        seconds, ok = plan[name]
        await asyncio.sleep(seconds)
        if not ok:
            raise OSError(f"{name} refused")
        return _TracedSocket(name, closed)

    return connect


def _race(
    plan: dict[str, tuple[float, bool]], delay: float = 0.1
) -> tuple[Any, list[tuple[str, float]], list[str]]:
    started: list[tuple[str, float]] = []
    closed: list[str] = []

    async def go() -> Any:
        try:
            sock = await first_connection(list(plan), _fake_connect(plan, started, closed), delay)
        except OSError as exc:
            return exc
        assert isinstance(sock, _TracedSocket)
        sock.close()
        return sock.name

    return run_virtual(go()), started, closed


def test_a_black_holed_first_address_costs_one_delay_not_the_connect_timeout() -> None:
    winner, started, _ = _race({"v6": (30.0, True), "v4": (0.01, True)})
    assert winner == "v4"
    assert [n for n, _ in started] == ["v6", "v4"]
    assert started[1][1] - started[0][1] == pytest.approx(0.1)  # virtual time: exactly one delay


def test_a_failed_attempt_starts_the_next_one_at_once() -> None:
    winner, started, _ = _race({"a": (0.0, False), "b": (0.0, True)}, delay=5.0)
    assert winner == "b"
    assert started[1][1] == started[0][1]  # virtual time: no delay at all


def test_a_second_success_is_closed_and_all_failures_are_named() -> None:
    _, _, closed = _race({"a": (0.05, True), "b": (0.05, True)}, delay=0.0)
    assert closed.count("a") + closed.count("b") == 2  # the loser by the race, the winner by the test
    error, _, _ = _race({"a": (0.0, False), "b": (0.0, False)})
    assert isinstance(error, OSError) and "a refused" in str(error) and "b refused" in str(error)


def test_addresses_alternate_families_starting_with_the_first() -> None:
    v6 = [(socket.AF_INET6, 1, 6, "", (f"::{i}", 443)) for i in range(3)]
    v4 = [(socket.AF_INET, 1, 6, "", (f"10.0.0.{i}", 443)) for i in range(2)]
    order = [info[4][0] for info in arrival._interleave(v6 + v4)]
    assert order == ["::0", "10.0.0.0", "::1", "10.0.0.1", "::2"]


def test_ttft_is_timed_by_the_arrival_of_the_read_unless_that_precedes_the_request() -> None:
    here, there = socket.socketpair()
    with here, there:
        raw = arrival.StampedSocket(here)
        response = httpx.Response(200, extensions={"network_stream": arrival._NetworkStream(raw, raw)})
        assert since_arrival(response) == 0.0  # nothing read yet
        raw.arrived = time.perf_counter() - 0.25
        assert since_arrival(response) == pytest.approx(0.25, abs=0.01)
        assert client_module._ttft_at_arrival(10.0, 9.0, response) == pytest.approx(0.75, abs=0.01)
        raw.arrived = time.perf_counter() - 5.0  # "arrived" before the request was sent: a clock step
        assert client_module._ttft_at_arrival(10.0, 9.0, response) == pytest.approx(1.0)


def test_the_arrival_is_kept_for_code_that_gets_to_the_bytes_later() -> None:
    async def go() -> tuple[float, float]:
        with socket.create_server(("127.0.0.1", 0)) as listener:
            stream = await ArrivalStampingBackend().connect_tcp(
                "127.0.0.1", listener.getsockname()[1], timeout=5
            )
            peer, _ = listener.accept()
            with peer:
                before = time.perf_counter()
                peer.sendall(b"token")
                assert await stream.read(100) == b"token"
                await asyncio.sleep(0.05)  # e.g. waiting for the end of the stream before flushing
                age = stream.since_arrival()  # type: ignore[attr-defined]
                most = time.perf_counter() - before
            await stream.aclose()
        return age, most

    age, most = asyncio.run(go())
    assert 0.05 <= age <= most


def test_closing_a_connection_wakes_a_read_waiting_on_it() -> None:
    async def go() -> float:
        with socket.create_server(("127.0.0.1", 0)) as listener:
            port = listener.getsockname()[1]
            stream = await ArrivalStampingBackend().connect_tcp("127.0.0.1", port, timeout=5)
            reading = asyncio.ensure_future(stream.read(10, timeout=60))
            await asyncio.sleep(0.05)  # the read is waiting for the socket to become readable
            started = time.monotonic()
            await stream.aclose()
            with pytest.raises(httpcore.ReadError):
                await reading
            return time.monotonic() - started

    assert asyncio.run(go()) < 30.0  # woken by the close, not by the 60 s read timeout


def test_a_wrapped_network_error_is_described_by_its_cause() -> None:
    try:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except OSError as exc:
            raise anyio.BrokenResourceError from exc
    except anyio.BrokenResourceError as wrapped:
        assert arrival._describe(wrapped) == "ConnectionResetError: [Errno 104] Connection reset by peer"
    assert arrival._describe(TimeoutError()) == "TimeoutError"


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
    async def go() -> ChatResult:
        async with GatewayClient("http://" + "a" * 64 + ".invalid/api/v1", "key", timeout=3) as gateway:
            return await gateway.chat(REQUEST)

    result = asyncio.run(go())
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.NETWORK)


@pytest.mark.parametrize(
    ("variables", "stamped"),
    [
        ({}, True),
        ({"NO_PROXY": "localhost,.internal"}, True),  # narrows a proxy; alone it changes nothing
        ({"https_proxy": "http://proxy.internal:3128"}, False),
        ({"ALL_PROXY": "http://proxy.internal:3128"}, False),
        ({"FTP_PROXY": "http://proxy.internal:3128"}, True),  # not a variable httpx reads
    ],
)
def test_only_a_configured_http_proxy_turns_the_stamping_transport_off(
    variables: dict[str, str],
    stamped: bool,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    for name in ("http_proxy", "https_proxy", "all_proxy", "no_proxy", "ftp_proxy"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.upper(), raising=False)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)

    async def go() -> bool:
        async with GatewayClient("http://127.0.0.1:9/api/v1", "key") as gateway:
            return gateway.kernel_stamps

    with caplog.at_level(logging.INFO, logger="exporter.gateway"):
        assert asyncio.run(go()) is (stamped and arrival.kernel_timestamps_supported())
    assert ("HTTP proxy from the environment" in caplog.text) is not stamped
