"""A small read client for routers: polls the routability API with ETags and answers ``should_skip(model)``.

It never blocks a request (``should_skip`` reads the last good snapshot in memory) and fails static: when
the service is unreachable or answers garbage, the last good snapshot is kept and ``staleness_seconds``
grows. A model the client has never heard of is never skipped.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import httpx

from exporter.polling import Exchange, Poller, exchange_async
from exporter.routability.model import RoutabilityRow, Status
from exporter.routability.routing import should_skip

log = logging.getLogger("exporter.routability.client")


class RoutabilityClient:
    """Poll ``GET {base_url}/v1/routability``.

    ``recent_window`` (seconds) defaults to the service's own ``recent_unavailable_seconds``.

    Example::

        client = RoutabilityClient("http://127.0.0.1:9466")
        asyncio.create_task(client.run(interval=60))
        if client.should_skip("acme/chat-1"):
            ...  # route to another model
    """

    def __init__(
        self,
        base_url: str,
        *,
        recent_window: float | None = None,
        timeout: float = 5.0,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._url = base_url.rstrip("/") + "/v1/routability"
        self._http = httpx.AsyncClient(timeout=timeout, transport=transport)
        self._clock = clock
        self._fixed_window = recent_window
        self._window = recent_window
        self._rows: dict[str, RoutabilityRow] = {}
        self._etag: str | None = None
        self._last_success: float | None = None

    async def aclose(self) -> None:
        await self._http.aclose()

    def should_skip(self, model: str) -> bool:
        """True only when the model was recently and explicitly unavailable (see ``routing.should_skip``)."""
        if self._window is None:
            return False
        return should_skip(self._rows.get(model), self._clock(), self._window)

    def staleness_seconds(self) -> float | None:
        """Seconds since the last successful poll (None before the first one)."""
        return None if self._last_success is None else self._clock() - self._last_success

    async def refresh(self) -> bool:
        """Poll once; True when the snapshot is current (200 or 304), False when the last one was kept."""
        return await exchange_async(self._http, self._exchange())

    def _exchange(self) -> Exchange[bool]:
        """One poll as a sans-I/O exchange (see ``exporter.polling``): whether the snapshot is current."""
        headers = {"If-None-Match": self._etag} if self._etag else {}
        response = yield httpx.Request("GET", self._url, headers=headers)
        if isinstance(response, httpx.HTTPError):
            log.warning("routability poll failed error=%s", type(response).__name__)
            return False
        if response.status_code == 304:
            self._last_success = self._clock()
            return True
        parsed = _parse(response) if response.status_code == 200 else None
        if parsed is None:
            log.warning("routability poll unusable status=%s", response.status_code)
            return False
        self._rows, window = parsed
        if self._fixed_window is None:
            self._window = window
        self._etag = response.headers.get("etag")
        self._last_success = self._clock()
        return True

    async def run(self, interval: float = 60.0) -> None:
        """Poll forever every ``interval`` seconds (run it as a background task; cancel it to stop).

        An unexpected error in one poll is logged and polling goes on: a dead task would silently freeze
        the snapshot while ``should_skip`` keeps answering from it.
        """
        await Poller(None, self.refresh, interval=interval, name="routability poll").run()


def _parse(response: httpx.Response) -> tuple[dict[str, RoutabilityRow], float | None] | None:
    # Plain type checks, not configkit's: a router installs this client with httpx alone (no yaml).
    try:
        body = response.json()
    except ValueError:
        return None
    if not isinstance(body, dict) or not isinstance(body.get("rows"), list):
        return None
    window = body.get("recent_unavailable_seconds")
    rows: dict[str, RoutabilityRow] = {}
    for item in body["rows"]:
        if not isinstance(item, dict) or not isinstance(item.get("slug"), str):
            continue
        try:
            status = Status(str(item.get("status")))
        except ValueError:
            continue
        last = item.get("last_check")
        last_check = float(last) if isinstance(last, int | float) and not isinstance(last, bool) else None
        rows[item["slug"]] = RoutabilityRow(item["slug"], status, last_check=last_check)
    if isinstance(window, int | float) and not isinstance(window, bool):
        return rows, float(window)
    return rows, None
