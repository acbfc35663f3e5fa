"""Run the receiver in-process: uvicorn in a background thread on 127.0.0.1 (demo, e2e tests, benches).

Example::

    with ReceiverServer(config, init=True) as server:   # port 0 = any free port
        httpx.get(server.base_url + "/v1/ignore", params={"model": "m"})
"""

from __future__ import annotations

import time
from collections.abc import Callable

from exporter.lifecycle import StartStop
from exporter.receiver.app import build_app
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.service import ReceiverService
from exporter.serving import ThreadedServer


class ReceiverServer(StartStop):
    """A running receiver; ``base_url`` has no trailing slash. The store is locked while it runs."""

    def __init__(
        self,
        config: ReceiverConfig,
        *,
        clock: Callable[[], float] = time.time,
        host: str = "127.0.0.1",
        port: int = 0,
        sweep_interval: float = 1.0,
        init: bool = False,
    ) -> None:
        self.config = config.model_copy(update={"listen": (host, port)})
        self._clock = clock
        self._sweep_interval = sweep_interval
        self._init = init  # create the store if there is none (ReceiverService.open)
        self._http: ThreadedServer | None = None
        self.service: ReceiverService | None = None
        self.base_url = ""

    def start(self, timeout: float = 10.0) -> None:
        self.service = ReceiverService.open(self.config, clock=self._clock, init=self._init)
        app = build_app(self.service, sweep_interval=self._sweep_interval)
        try:
            self._http = ThreadedServer(app, self.config.host, self.config.port, lifespan="on")
            self._http.start(timeout)
        except (OSError, RuntimeError, TimeoutError):
            self.stop()
            raise
        self.base_url = self._http.base_url

    def stop(self) -> None:
        if self._http is not None:
            self._http.stop()
            self._http = None
        if self.service is not None:
            self.service.close()
            self.service = None
