"""Run the receiver in-process: uvicorn in a background thread on 127.0.0.1 (demo, e2e tests, benches).

Example::

    with ReceiverServer(config) as server:   # any free port; a new store where there is none
        httpx.get(server.base_url + "/v1/ignore", params={"model": "m"})
"""

from __future__ import annotations

from exporter.lifecycle import StartStop
from exporter.receiver.app import build_app
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.service import ReceiverService
from exporter.receiver.store import is_empty_store_dir
from exporter.serving import ThreadedServer


class ReceiverServer(StartStop):
    """A running receiver on any free port of 127.0.0.1 (not ``config.listen``), creating its store in an
    empty directory (``--init``), opening it otherwise; ``base_url`` has no trailing slash. The store is
    locked while it runs."""

    def __init__(self, config: ReceiverConfig) -> None:
        self.config = config.model_copy(update={"listen": ("127.0.0.1", 0)})
        self._http: ThreadedServer | None = None
        self.service: ReceiverService | None = None
        self.base_url = ""

    def start(self, timeout: float = 10.0) -> None:
        self.service = ReceiverService(self.config, init=is_empty_store_dir(self.config.store_dir))
        try:
            self._http = ThreadedServer(
                build_app(self.service), self.config.host, self.config.port, lifespan="on"
            )
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
