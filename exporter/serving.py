"""Listening sockets and uvicorn in a background thread, shared by every HTTP service of the project.

``bind_tcp_socket`` is what every CLI listens on; ``ThreadedServer`` runs an app in-process (the demo,
tests, benchmarks). The socket is bound in the constructor, so the port is known before ``start``.

Example::

    with ThreadedServer(app, port=0) as server:      # port 0 = any free port on 127.0.0.1
        httpx.get(server.base_url + "/healthz")
        server.submit(some_coroutine())               # run a coroutine on the server's event loop
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import errno
import gc
import socket
import threading
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Literal, TypedDict, TypeVar

import uvicorn
from starlette.types import ASGIApp

from exporter.lifecycle import StartStop
from exporter.web.hostport import http_url

if TYPE_CHECKING:
    from typing_extensions import Unpack

T = TypeVar("T")
# Allocations minus deallocations between young collections (CPython's default is 700).
GC_GEN0_THRESHOLD = 50_000


class UvicornOptions(TypedDict, total=False):
    """The ``uvicorn.Config`` options the project's servers set beyond ``uvicorn_server``'s own."""

    loop: str
    http: str
    lifespan: Literal["auto", "on", "off"]
    timeout_graceful_shutdown: int
    backlog: int


def tune_gc_for_latency() -> None:
    """Make the cyclic garbage collector cheap for a long-running, latency-sensitive service.

    Everything allocated at start-up (modules, config, models) moves to the permanent generation, and
    young collections run less often: a full collection over every httpx and Starlette object otherwise
    pauses the event loop for several milliseconds, which shows up directly in measured TTFT. Reference
    counting still frees almost everything at once; cycles are still collected, just in larger batches.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_GEN0_THRESHOLD, 20, 50)


def bind_tcp_socket(host: str, port: int, backlog: int = 2048) -> socket.socket:
    """A listening TCP socket for uvicorn's ``sockets=``.

    ``IPPROTO_TCP`` must be explicit: asyncio sets TCP_NODELAY on accepted connections only when the
    socket's protocol says TCP; without it, Nagle plus delayed ACKs add ~40 ms to every reply with a body.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
        sock.listen(backlog)
        sock.setblocking(False)
    except OSError:
        sock.close()
        raise
    return sock


class ListenError(Exception):
    """A configured listen address could not be bound; the message names the configuration key."""


def bind_configured(key: str, host: str, port: int) -> socket.socket:
    """``bind_tcp_socket`` for the address a configuration key gives (``exporter.listen``): a failure is a
    ``ListenError`` naming the key, the address and what to do.

    Example: ``bind_configured("receiver.listen", "127.0.0.1", 9465)`` while another process holds 9465 →
    ``ListenError("receiver.listen 127.0.0.1:9465: cannot listen: Address already in use; ...")``.
    """
    try:
        return bind_tcp_socket(host, port)
    except OSError as exc:
        address = f"[{host.strip('[]')}]:{port}" if ":" in host else f"{host}:{port}"
        what = exc.strerror or str(exc)
        todo = (
            f"another process holds the port (a second run?): stop it or change {key}"
            if exc.errno == errno.EADDRINUSE
            else f"change {key}"
        )
        raise ListenError(f"{key} {address}: cannot listen: {what}; {todo}") from None


def uvicorn_server(app: ASGIApp, **options: Unpack[UvicornOptions]) -> uvicorn.Server:
    """A uvicorn server for ``app`` that logs only warnings and no access lines (the project logs its own).
    Its records go to the root logger (``log_config=None``: no handlers of uvicorn's own), so they take the
    process's one format, control characters escaped (``logkit``)."""
    config = uvicorn.Config(app, log_level="warning", access_log=False, log_config=None, **options)
    return uvicorn.Server(config)


class ThreadedServer(StartStop):
    """A uvicorn server on its own thread and event loop; ``base_url`` has no trailing slash."""

    def __init__(
        self,
        app: ASGIApp,
        host: str = "127.0.0.1",
        port: int = 0,
        *,
        key: str | None = None,
        **uvicorn_options: Unpack[UvicornOptions],
    ) -> None:
        """``key``: the configuration key the address comes from (a bind failure is a ``ListenError``
        naming it)."""
        self._socket = bind_tcp_socket(host, port) if key is None else bind_configured(key, host, port)
        self._server = uvicorn_server(app, **uvicorn_options)
        self._thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.host = host
        self.port = int(self._socket.getsockname()[1])
        self._error: BaseException | None = None

    @property
    def base_url(self) -> str:
        return http_url(self.host, self.port, local=True)

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._server.serve(sockets=[self._socket]))
        except BaseException as exc:  # reported by start()
            self._error = exc
        finally:
            self.loop.close()

    def start(self, timeout: float = 10.0) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="uvicorn", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self._error is not None or not self._thread.is_alive():
                raise RuntimeError(f"server failed to start: {self._error!r}")
            if time.monotonic() > deadline:
                raise TimeoutError("server did not start in time")
            time.sleep(0.005)

    def submit(self, coroutine: Coroutine[object, object, T]) -> concurrent.futures.Future[T]:
        """Schedule a coroutine on the server's loop (e.g. a background job sharing its clients)."""
        assert self.loop is not None, "start() first"
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None
        self._socket.close()
