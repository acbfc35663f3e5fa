"""Runs the simulator on loopback: in a background thread (tests, the demo, benchmarks) or in a loop.

Example::

    with SimulatorServer.from_file(DEFAULT_FLEET) as sim:
        client = openai.OpenAI(base_url=sim.base_url, api_key="x")
"""

from __future__ import annotations

from pathlib import Path

from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import Fleet, load_fleet
from exporter.lifecycle import StartStop
from exporter.serving import ThreadedServer, UvicornOptions

_START_TIMEOUT_SECONDS = 10.0


def uvicorn_options() -> UvicornOptions:
    """How the simulator runs on uvicorn, wherever it is served (thread or CLI)."""
    return {
        "loop": "asyncio",  # not uvloop: its timers have millisecond resolution, too coarse for TTFT
        "http": "h11",
        "lifespan": "off",
        "timeout_graceful_shutdown": 1,
        "backlog": 2048,
    }


class SimulatorServer(StartStop):
    """The simulator served by uvicorn in a daemon thread; ``base_url`` ends in ``/api/v1``.

    The socket is bound in the constructor, so ``base_url`` is known (port 0 picks a free port) before
    ``start``. ``simulator`` gives tests direct access to the run-time state.
    """

    def __init__(self, fleet: Fleet | Simulator, host: str = "127.0.0.1", port: int = 0) -> None:
        self.simulator = fleet if isinstance(fleet, Simulator) else Simulator(fleet)
        self._http = ThreadedServer(self.simulator.app, host, port, **uvicorn_options())
        self.port = self._http.port

    @classmethod
    def from_file(cls, path: str | Path) -> SimulatorServer:
        """Load and validate a fleet file (``ConfigError`` lists every problem) and serve it on loopback."""
        return cls(load_fleet(path))

    @property
    def root_url(self) -> str:
        return self._http.base_url

    @property
    def base_url(self) -> str:
        """The gateway base URL, e.g. ``http://127.0.0.1:41234/api/v1`` (what an OpenAI client takes)."""
        return f"{self.root_url}/api/v1"

    def start(self) -> None:
        try:
            self._http.start(_START_TIMEOUT_SECONDS)
        except (RuntimeError, TimeoutError) as exc:
            raise RuntimeError(f"the simulator did not start on {self.root_url}") from exc

    def stop(self) -> None:
        self._http.stop(timeout=5)
