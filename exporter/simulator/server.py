"""Runs the simulator on loopback: in a background thread (tests, the demo, benchmarks) or in a loop.

Example::

    with SimulatorServer.from_file(DEFAULT_FLEET) as sim:
        client = openai.OpenAI(base_url=sim.base_url, api_key="x")
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
from pathlib import Path
from types import TracebackType

import uvicorn

from exporter.simulator.app import Simulator
from exporter.simulator.fleet import Fleet, load_fleet

_START_TIMEOUT_SECONDS = 10.0


def bind_socket(host: str, port: int) -> socket.socket:
    """A listening TCP socket. ``IPPROTO_TCP`` must be explicit: asyncio sets TCP_NODELAY on accepted
    connections only when the protocol says TCP; without it Nagle + delayed ACK add ~40 ms to replies."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.setblocking(False)
    return sock


def uvicorn_config(simulator: Simulator, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(
        simulator.app,
        loop="asyncio",  # not uvloop: its timers have millisecond resolution, too coarse for TTFT
        http="h11",
        lifespan="off",
        log_level=log_level,
        access_log=False,
        timeout_graceful_shutdown=1,
        backlog=2048,
    )


class SimulatorServer:
    """The simulator served by uvicorn in a daemon thread; ``base_url`` ends in ``/api/v1``.

    The socket is bound in the constructor, so ``base_url`` is known (port 0 picks a free port) before
    ``start``. ``simulator`` gives tests direct access to the run-time state.
    """

    def __init__(
        self,
        fleet: Fleet | Simulator,
        host: str = "127.0.0.1",
        port: int = 0,
        log_level: str = "warning",
    ) -> None:
        self.simulator = fleet if isinstance(fleet, Simulator) else Simulator(fleet)
        self._socket = bind_socket(host, port)
        self.host = host
        self.port = int(self._socket.getsockname()[1])
        self._server = uvicorn.Server(uvicorn_config(self.simulator, log_level))
        self._thread: threading.Thread | None = None

    @classmethod
    def from_file(cls, path: str | Path, host: str = "127.0.0.1", port: int = 0) -> SimulatorServer:
        """Load and validate a fleet file (``ConfigError`` lists every problem) and serve it."""
        return cls(load_fleet(path), host=host, port=port)

    @property
    def root_url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The gateway base URL, e.g. ``http://127.0.0.1:41234/api/v1`` (what an OpenAI client takes)."""
        return f"{self.root_url}/api/v1"

    def start(self) -> SimulatorServer:
        self._thread = threading.Thread(
            target=self._server.run, kwargs={"sockets": [self._socket]}, name="simulator", daemon=True
        )
        self._thread.start()
        deadline = time.monotonic() + _START_TIMEOUT_SECONDS
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError(f"the simulator did not start on {self.root_url}")
            time.sleep(0.005)
        return self

    def stop(self) -> None:
        self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=5)
        self._socket.close()

    def __enter__(self) -> SimulatorServer:
        return self.start()

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()


class AsyncSimulatorServer:
    """The same server as a task of the running event loop: ``async with AsyncSimulatorServer(f) as sim``."""

    def __init__(self, fleet: Fleet | Simulator, host: str = "127.0.0.1", port: int = 0) -> None:
        self.simulator = fleet if isinstance(fleet, Simulator) else Simulator(fleet)
        self._socket = bind_socket(host, port)
        self.host = host
        self.port = int(self._socket.getsockname()[1])
        self._server = uvicorn.Server(uvicorn_config(self.simulator, "warning"))
        self._task: asyncio.Task[None] | None = None

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/api/v1"

    async def __aenter__(self) -> AsyncSimulatorServer:
        self._task = asyncio.ensure_future(self._server.serve(sockets=[self._socket]))
        while not self._server.started:
            if self._task.done():
                self._task.result()
            await asyncio.sleep(0.005)
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.should_exit = True
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        self._socket.close()
