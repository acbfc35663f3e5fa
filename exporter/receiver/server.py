"""Run the receiver in-process: uvicorn in a background thread on 127.0.0.1 (demo, e2e tests, benches).

Example::

    with ReceiverServer(config) as server:          # port 0 = any free port
        httpx.get(server.base_url + "/v1/ignore", params={"model": "m"})
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace
from types import TracebackType

import uvicorn

from exporter.receiver.app import build_app
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.service import ReceiverService


class ReceiverServer:
    """A running receiver; ``base_url`` has no trailing slash. The store is locked while it runs."""

    def __init__(
        self,
        config: ReceiverConfig,
        *,
        clock: Callable[[], float] = time.time,
        host: str = "127.0.0.1",
        port: int = 0,
        sweep_interval: float = 1.0,
    ) -> None:
        self.config = replace(config, host=host, port=port)
        self._clock = clock
        self._sweep_interval = sweep_interval
        self._thread: threading.Thread | None = None
        self._server: uvicorn.Server | None = None
        self.service: ReceiverService | None = None
        self.base_url = ""

    def __enter__(self) -> ReceiverServer:
        self.start()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.stop()

    def start(self, timeout: float = 10.0) -> None:
        self.service = ReceiverService.open(self.config, clock=self._clock)
        app = build_app(
            self.config, clock=self._clock, service=self.service, sweep_interval=self._sweep_interval
        )
        uv_config = uvicorn.Config(
            app,
            host=self.config.host,
            port=self.config.port,
            log_level="warning",
            access_log=False,
            lifespan="on",
        )
        self._server = uvicorn.Server(uv_config)
        self._thread = threading.Thread(target=self._server.run, name="canary-receiver", daemon=True)
        self._thread.start()
        deadline = time.monotonic() + timeout
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the receiver did not start")
            time.sleep(0.01)
        port = self._server.servers[0].sockets[0].getsockname()[1]
        self.base_url = f"http://{self.config.host}:{port}"

    def stop(self) -> None:
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=10)
        self._server = self._thread = None
        if self.service is not None:
            self.service.close()
            self.service = None
