"""Run an ASGI app on uvicorn in a background thread (the demo, end-to-end tests and benchmarks).

Example::

    with ThreadedServer(app, port=0) as server:      # port 0 = any free port on 127.0.0.1
        httpx.get(server.base_url + "/healthz")
        server.submit(some_coroutine())               # run a coroutine on the server's event loop
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
from collections.abc import Coroutine
from types import TracebackType
from typing import Any, TypeVar

import uvicorn
from starlette.types import ASGIApp

T = TypeVar("T")


class ThreadedServer:
    """A uvicorn server on its own thread and event loop; ``base_url`` has no trailing slash."""

    def __init__(self, app: ASGIApp, host: str = "127.0.0.1", port: int = 0) -> None:
        self._config = uvicorn.Config(
            app, host=host, port=port, log_level="warning", access_log=False, lifespan="auto"
        )
        self._server = uvicorn.Server(self._config)
        self._thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.host = host
        self.port = port
        self._error: BaseException | None = None

    @property
    def base_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    def _run(self) -> None:
        self.loop = asyncio.new_event_loop()
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._server.serve())
        except BaseException as exc:  # reported by start()
            self._error = exc
        finally:
            self.loop.close()

    def start(self, timeout: float = 10.0) -> None:
        self._thread = threading.Thread(target=self._run, name="uvicorn", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if self._error is not None or not self._thread.is_alive():
                raise RuntimeError(f"server failed to start: {self._error!r}")
            if time.monotonic() > deadline:
                raise TimeoutError("server did not start in time")
            time.sleep(0.01)
        sockets = [s for server in self._server.servers for s in server.sockets]
        self.port = sockets[0].getsockname()[1]

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> concurrent.futures.Future[T]:
        """Schedule a coroutine on the server's loop (e.g. a background job sharing its clients)."""
        assert self.loop is not None, "start() first"
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop)

    def stop(self, timeout: float = 10.0) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    def __enter__(self) -> ThreadedServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()
