"""Runs the simulator on loopback: in a background thread (tests, the demo, benchmarks) or in a loop.

Example::

    with SimulatorServer.from_file(DEFAULT_FLEET) as sim:
        client = openai.OpenAI(base_url=sim.base_url, api_key="x")
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from types import TracebackType
from typing import Any

import uvicorn

from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import Fleet, load_fleet
from exporter.serving import ThreadedServer, bind_tcp_socket

_START_TIMEOUT_SECONDS = 10.0


def uvicorn_options(log_level: str = "warning") -> dict[str, Any]:
    """How the simulator runs on uvicorn, wherever it is served (thread, task, CLI)."""
    return {
        "loop": "asyncio",  # not uvloop: its timers have millisecond resolution, too coarse for TTFT
        "http": "h11",
        "lifespan": "off",
        "log_level": log_level,
        "access_log": False,
        "timeout_graceful_shutdown": 1,
        "backlog": 2048,
    }


def uvicorn_config(simulator: Simulator, log_level: str) -> uvicorn.Config:
    return uvicorn.Config(simulator.app, **uvicorn_options(log_level))


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
        self._http = ThreadedServer(self.simulator.app, host, port, **uvicorn_options(log_level))
        self.host = host
        self.port = self._http.port

    @classmethod
    def from_file(cls, path: str | Path, host: str = "127.0.0.1", port: int = 0) -> SimulatorServer:
        """Load and validate a fleet file (``ConfigError`` lists every problem) and serve it."""
        return cls(load_fleet(path), host=host, port=port)

    @property
    def root_url(self) -> str:
        return self._http.base_url

    @property
    def base_url(self) -> str:
        """The gateway base URL, e.g. ``http://127.0.0.1:41234/api/v1`` (what an OpenAI client takes)."""
        return f"{self.root_url}/api/v1"

    def start(self) -> SimulatorServer:
        try:
            self._http.start(_START_TIMEOUT_SECONDS)
        except (RuntimeError, TimeoutError) as exc:
            raise RuntimeError(f"the simulator did not start on {self.root_url}") from exc
        return self

    def stop(self) -> None:
        self._http.stop(timeout=5)

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
        self._socket = bind_tcp_socket(host, port)
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
