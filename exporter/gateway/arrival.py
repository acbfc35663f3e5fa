"""When response bytes reached this host: kernel receive timestamps for the gateway client's connections.

A probe's time to first token is "first visible token arrived" minus "request sent". The canary runs many
probes on one event loop; when a token arrives while the loop is busy with another probe (parsing, JSON
schema validation, a garbage collection), an ordinary client stamps it when its coroutine next runs, and the
delay is counted as the provider's latency: milliseconds under load, more on a busy host. This module moves
the stamp into the kernel.

``ArrivalStampingBackend`` is an httpcore network backend. Its TCP sockets are read with ``recvmsg`` and
``SO_TIMESTAMPNS`` (Linux): every read carries the time the kernel received its bytes, so a read's *lag*,
how long its bytes waited for this process, is known. The kernel keeps one stamp per read, that of its
newest segment (TCP keeps the latest stamp when it merges queued segments): if the process reads so late
that later bytes have arrived behind the ones of interest, the stamp is theirs, an upper bound that is
still no later than the read. With tokens tens of milliseconds apart and event-loop stalls of a few, that is
rare (``bench/gateway_ttft.py`` measures it). TLS runs above the socket (anyio's ``TLSStream``), so the
plaintext a read returns belongs to the latest socket read. Where the kernel gives no stamp (another OS, a
kernel without it), the lag is 0: the stamp is the read itself, as with any client.

``since_arrival(response)`` is how long ago the bytes of the latest read on the connection serving an
``httpx`` response arrived, for code that has just seen something in the bytes that read delivered (however
long it took to get there)::

    response = await http.send(request, stream=True)
    async for chunk in response.aiter_bytes():
        if first_token_in(chunk):
            ttft = clock() - since_arrival(response) - sent_at

Connecting tries every address the name resolves to, families interleaved, starting the next attempt
when one fails or after 250 ms (RFC 8305 "happy eyeballs"), so a host with broken IPv6 still connects
promptly over IPv4.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import platform
import select
import socket
import ssl
import struct
import sys
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, TypeVar

import anyio
import anyio.abc
import httpcore
import httpx
from anyio.streams.tls import TLSAttribute, TLSStream

__all__ = [
    "ArrivalStampingBackend",
    "StampedSocket",
    "first_connection",
    "kernel_timestamps_supported",
    "since_arrival",
]

# SO_TIMESTAMPNS (= SCM_TIMESTAMPNS) in Linux's generic socket ABI; the few architectures with their own
# numbering (alpha, mips, parisc, sparc) are left out rather than guessed.
_SO_TIMESTAMPNS = 35
_GENERIC_ABI_MACHINES = frozenset(
    {"x86_64", "amd64", "i386", "i686", "aarch64", "arm64", "armv7l", "armv8l", "riscv64", "ppc64le", "s390x"}
)
_TIMESPEC = struct.Struct("@ll")  # struct timespec {time_t tv_sec; long tv_nsec;} (time_t is long there)
_ANCILLARY_SPACE = socket.CMSG_SPACE(_TIMESPEC.size) if hasattr(socket, "CMSG_SPACE") else 0
_READ_BYTES = 65536
# A lag longer than this is not a lag but a wall-clock step between the kernel's stamp and ours.
_MAX_LAG_SECONDS = 60.0
T = TypeVar("T")
# What getaddrinfo returns for one address: family, type, protocol, canonical name, socket address.
SocketAddress = tuple[str, int] | tuple[str, int, int, int] | tuple[int, bytes]
AddressInfo = tuple[socket.AddressFamily, socket.SocketKind, int, str, SocketAddress]
_HAPPY_EYEBALLS_DELAY = 0.25
# httpcore's SOCKET_OPTION: (level, option, value) or (level, option, None, length).
_SocketOption = tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]


def kernel_timestamps_supported() -> bool:
    """Whether sockets here can carry kernel receive timestamps (Linux, generic socket ABI)."""
    return sys.platform == "linux" and _ANCILLARY_SPACE > 0 and platform.machine() in _GENERIC_ABI_MACHINES


_SUPPORTED = kernel_timestamps_supported()


def since_arrival(response: httpx.Response) -> float:
    """Seconds since the bytes of the latest read on ``response``'s connection arrived (by the kernel's stamp,
    else the read's own time); 0.0 for a response from another transport (a proxy, a mock)."""
    stream = response.extensions.get("network_stream")
    return stream.since_arrival() if isinstance(stream, _NetworkStream) else 0.0


class StampedSocket(anyio.abc.ByteStream):
    """A connected non-blocking TCP socket as an anyio byte stream; ``arrived`` is when the bytes of the
    latest ``receive`` arrived (``time.perf_counter()``; the kernel's stamp, else the read's own time),
    ``stamped`` whether the kernel was asked for stamps (never when ``kernel_stamps`` is False or
    ``kernel_timestamps_supported()`` is not). Example (a server stamping a request's arrival)::

        stream = StampedSocket(connection)
        data = await stream.receive()
        arrived = stream.arrived
    """

    def __init__(self, sock: socket.socket, kernel_stamps: bool = True) -> None:
        sock.setblocking(False)
        self.sock = self._sock = sock
        self._closed = False
        self._waiters: dict[bool, asyncio.Future[None]] = {}  # writable? -> the task waiting for it
        self.arrived: float | None = None  # time.perf_counter() when the latest read's bytes arrived
        self.stamped = False
        if kernel_stamps and _SUPPORTED:
            try:
                sock.setsockopt(socket.SOL_SOCKET, _SO_TIMESTAMPNS, 1)
                self.stamped = True
            except OSError:
                pass

    async def receive(self, max_bytes: int = _READ_BYTES) -> bytes:
        while True:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                if self.stamped:
                    data, ancillary, _flags, _address = self._sock.recvmsg(max_bytes, _ANCILLARY_SPACE)
                else:
                    data, ancillary = self._sock.recv(max_bytes), []
            except (BlockingIOError, InterruptedError):
                await self._wait(writable=False)
                continue
            except OSError as exc:
                raise anyio.BrokenResourceError from exc
            break
        if not data:
            raise anyio.EndOfStream
        self.arrived = time.perf_counter() - _lag(ancillary, time.time_ns())
        return data

    async def send(self, item: bytes) -> None:
        view = memoryview(item)
        while view:
            if self._closed:
                raise anyio.ClosedResourceError
            try:
                sent = self._sock.send(view)
            except (BlockingIOError, InterruptedError):
                await self._wait(writable=True)
                continue
            except OSError as exc:
                raise anyio.BrokenResourceError from exc
            view = view[sent:]

    async def send_eof(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_WR)

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        for writable, waiter in list(self._waiters.items()):
            # Unregister before the descriptor is closed (its number may be reused at once), and wake the
            # waiting task: a closed socket never becomes ready.
            self._unregister(writable)
            if not waiter.done():
                waiter.set_exception(anyio.ClosedResourceError())
        self._sock.close()

    async def _wait(self, writable: bool) -> None:
        """Wait until the socket is writable (or readable): one event-loop registration, removed after."""
        if writable in self._waiters:  # httpcore never does this; two waiters would steal each other's wakeup
            raise anyio.BusyResourceError("writing to" if writable else "reading from")
        loop = asyncio.get_running_loop()
        ready: asyncio.Future[None] = loop.create_future()

        def wake() -> None:
            if not ready.done():
                ready.set_result(None)

        (loop.add_writer if writable else loop.add_reader)(self._sock.fileno(), wake)
        self._waiters[writable] = ready
        try:
            await ready
        finally:
            if self._waiters.pop(writable, None) is not None and not self._closed:
                self._unregister(writable)

    def _unregister(self, writable: bool) -> None:
        loop = asyncio.get_running_loop()
        (loop.remove_writer if writable else loop.remove_reader)(self._sock.fileno())

    @property
    def extra_attributes(self) -> Mapping[Any, Callable[[], Any]]:  # anyio's own signature
        return {
            anyio.abc.SocketAttribute.raw_socket: lambda: self._sock,
            anyio.abc.SocketAttribute.family: lambda: self._sock.family,
            # (host, port) for IPv6 too, as anyio's own sockets answer
            anyio.abc.SocketAttribute.local_address: lambda: self._sock.getsockname()[:2],
            anyio.abc.SocketAttribute.remote_address: lambda: self._sock.getpeername()[:2],
        }


def _lag(ancillary: Sequence[tuple[int, int, bytes]], now_ns: int) -> float:
    """The lag a read's ancillary data tells (``now_ns``: wall clock right after the read), or 0.0."""
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == _SO_TIMESTAMPNS and len(data) >= _TIMESPEC.size:
            seconds, nanoseconds = _TIMESPEC.unpack_from(data)
            lag = (now_ns - (seconds * 1_000_000_000 + nanoseconds)) / 1e9
            return lag if 0.0 <= lag <= _MAX_LAG_SECONDS else 0.0
    return 0.0


# What a broken connection looks like from below (the socket, anyio's TLS layer, the ssl module).
_BROKEN = (anyio.BrokenResourceError, anyio.ClosedResourceError, anyio.EndOfStream, ssl.SSLError, OSError)


class _NetworkStream(httpcore.AsyncNetworkStream):
    """httpcore's view of a stamped connection (plain, or TLS over the same socket)."""

    def __init__(self, stream: anyio.abc.ByteStream, raw: StampedSocket) -> None:
        self._stream = stream
        self._raw = raw

    def since_arrival(self) -> float:
        arrived = self._raw.arrived
        return 0.0 if arrived is None else max(0.0, time.perf_counter() - arrived)

    # The timeout parameters below are httpcore's interface.
    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:  # noqa: ASYNC109
        try:
            async with asyncio.timeout(timeout):
                return await self._stream.receive(max_bytes)
        except anyio.EndOfStream:
            return b""
        except TimeoutError as exc:
            raise httpcore.ReadTimeout(str(exc) or "read timed out") from exc
        except _BROKEN as exc:
            raise httpcore.ReadError(_describe(exc)) from exc

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:  # noqa: ASYNC109
        if not buffer:
            return
        try:
            async with asyncio.timeout(timeout):
                await self._stream.send(buffer)
        except TimeoutError as exc:
            raise httpcore.WriteTimeout(str(exc) or "write timed out") from exc
        except _BROKEN as exc:  # EndOfStream too: anyio's TLS reports an unclean TLS EOF that way
            raise httpcore.WriteError(_describe(exc)) from exc

    async def aclose(self) -> None:
        with contextlib.suppress(Exception):  # closing a broken TLS session must not hide the real error
            await self._stream.aclose()
        await self._raw.aclose()

    async def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> httpcore.AsyncNetworkStream:
        try:
            async with asyncio.timeout(timeout):
                tls = await TLSStream.wrap(
                    self._stream,
                    server_side=False,
                    hostname=server_hostname,
                    ssl_context=ssl_context,
                    standard_compatible=False,
                )
        except TimeoutError as exc:
            await self._raw.aclose()
            raise httpcore.ConnectTimeout(str(exc) or "TLS handshake timed out") from exc
        except _BROKEN as exc:
            await self._raw.aclose()
            raise httpcore.ConnectError(_describe(exc)) from exc
        except BaseException:  # cancelled (the request's own deadline): httpcore will not close it for us
            await self._raw.aclose()
            raise
        return _NetworkStream(tls, self._raw)

    def get_extra_info(self, info: str) -> object:
        attribute = _EXTRA_INFO.get(info)
        if attribute is not None:
            return self._stream.extra(attribute, None)  # noqa: S610 - anyio typed attributes, not Django
        sock = self._raw.sock
        if info == "socket":
            return sock
        if info == "is_readable":  # httpcore's test of an idle pooled connection: data or EOF means stale
            return _readable(sock)
        return None


_EXTRA_INFO: dict[str, object] = {
    "ssl_object": TLSAttribute.ssl_object,
    "client_addr": anyio.abc.SocketAttribute.local_address,
    "server_addr": anyio.abc.SocketAttribute.remote_address,
}


def _readable(sock: socket.socket) -> bool:
    if sock.fileno() < 0:
        return True
    poller = select.poll()
    poller.register(sock, select.POLLIN)
    return bool(poller.poll(0))


def _describe(exc: BaseException) -> str:
    """``exc``'s message, or its type; for a wrapper without a message (anyio's BrokenResourceError), the
    error it wraps: ``ConnectionResetError: [Errno 104] Connection reset by peer``."""
    if not str(exc) and exc.__cause__ is not None:
        return f"{type(exc.__cause__).__name__}: {_describe(exc.__cause__)}"
    return str(exc) or type(exc).__name__


async def first_connection(
    candidates: Sequence[T],
    connect: Callable[[T], Awaitable[socket.socket]],
    delay: float = _HAPPY_EYEBALLS_DELAY,
) -> socket.socket:
    """Connect to the first of ``candidates`` that answers (RFC 8305): attempts start in order, each one
    when the previous fails or ``delay`` seconds after it started; the first success wins and every other
    attempt is cancelled (a socket that connected too late is closed). Raises ``OSError`` naming every
    failure when all fail."""
    if not candidates:
        raise OSError("no address to connect to")
    waiting = list(candidates)
    pending: set[asyncio.Task[socket.socket]] = set()
    failures: list[str] = []
    try:
        while waiting or pending:
            if waiting:
                pending.add(asyncio.ensure_future(connect(waiting.pop(0))))
            done, pending = await asyncio.wait(
                pending, timeout=delay if waiting else None, return_when=asyncio.FIRST_COMPLETED
            )
            winner: socket.socket | None = None
            for task in done:
                error = task.exception()
                if error is not None:
                    failures.append(_describe(error))
                elif winner is None:
                    winner = task.result()
                else:
                    task.result().close()
            if winner is not None:
                return winner
        raise OSError("all connection attempts failed: " + "; ".join(failures))
    finally:
        for task in pending:
            task.cancel()
        if pending:
            for result in await asyncio.gather(*pending, return_exceptions=True):
                if isinstance(result, socket.socket):
                    result.close()


async def _resolve(loop: asyncio.AbstractEventLoop, host: str, port: int) -> Sequence[AddressInfo]:
    """getaddrinfo for a TCP connection; an IP literal is parsed here, a name is resolved in a thread."""
    kind, proto = socket.SOCK_STREAM, socket.IPPROTO_TCP
    try:
        return socket.getaddrinfo(host, port, type=kind, proto=proto, flags=socket.AI_NUMERICHOST)
    except socket.gaierror:
        return await loop.getaddrinfo(host, port, type=kind, proto=proto)


def _interleave(infos: Iterable[AddressInfo]) -> list[AddressInfo]:
    """getaddrinfo results with address families alternating, the first family first (RFC 8305 §4)."""
    by_family: dict[int, list[AddressInfo]] = {}
    for info in infos:
        by_family.setdefault(info[0], []).append(info)
    rounds = itertools.zip_longest(*by_family.values())
    return [info for group in rounds for info in group if info is not None]


class ArrivalStampingBackend(httpcore.AsyncNetworkBackend):
    """httpcore network backend whose TCP connections know when their bytes arrived (see the module).

    ``kernel_stamps=False``: the same sockets, each read stamped when it runs (a baseline to measure against).
    """

    def __init__(self, *, kernel_stamps: bool = True) -> None:
        self.kernel_stamps = kernel_stamps and _SUPPORTED
        self._unix = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        local_address: str | None = None,
        socket_options: Iterable[_SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        loop = asyncio.get_running_loop()
        options = list(socket_options or ())

        async def attempt(info: AddressInfo) -> socket.socket:
            family, kind, proto, _name, address = info
            sock = socket.socket(family, kind, proto)
            try:
                sock.setblocking(False)
                sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                for option in options:
                    sock.setsockopt(*option)
                if local_address is not None:
                    sock.bind((local_address, 0))
                await loop.sock_connect(sock, address)
            except BaseException:
                sock.close()
                raise
            return sock

        try:
            async with asyncio.timeout(timeout):
                infos = await _resolve(loop, host, port)
                sock = await first_connection(_interleave(infos), attempt)
        except TimeoutError as exc:
            raise httpcore.ConnectTimeout(f"no connection to {host}:{port} within {timeout}s") from exc
        except (OSError, UnicodeError, ValueError) as exc:  # UnicodeError: a host name IDNA cannot encode
            raise httpcore.ConnectError(f"{host}:{port}: {_describe(exc)}") from exc
        raw = StampedSocket(sock, self.kernel_stamps)
        return _NetworkStream(raw, raw)

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,  # noqa: ASYNC109 - httpcore's interface
        socket_options: Iterable[_SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        return await self._unix.connect_unix_socket(path, timeout, socket_options)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)
