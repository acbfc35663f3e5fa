"""The router client: polls ``GET /v1/ignore`` per model in the background (ETags) and merges the list
into a request's ``provider.ignore`` without ever waiting on the network (design.md §9).

Fail-static: when the receiver is unreachable or answers nonsense, the last good list stays in use and
``age_seconds`` / ``is_stale`` say how old it is. A list is never emptied by a failure.

Cold start: until the receiver has answered once for a model, the model's list is its built-in exclusions
(``builtin=``, the reviewed file the receiver also serves: ``exporter.router.builtin`` reads it), and
``status(model)`` is ``cold``; ``degraded`` is True while any model's list is cold or stale. The
``canary_router_ignore_list_status`` metric (``exporter.router.metrics``) exports both.

Example (thread)::

    with IgnoreListClient("http://127.0.0.1:9465", ["moonshotai/kimi-k2-0905"], poll_interval=30) as lists:
        body = lists.merge_ignore({"model": "moonshotai/kimi-k2-0905", "messages": [...]},
                                  "moonshotai/kimi-k2-0905")

Example (asyncio)::

    lists = IgnoreListClient(url, models)
    task = asyncio.create_task(lists.run())     # cancel the task to stop
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType

import httpx

from exporter.lifecycle import StartStop
from exporter.polling import Exchange, Poller, exchange_async, exchange_sync

log = logging.getLogger("canary.router")


@dataclass(frozen=True, slots=True)
class IgnoreSnapshot:
    """The last good ignore list of one model (the client keeps one per model)."""

    ignore: tuple[str, ...]
    etag: str | None
    fetched_at: float  # clock() when the receiver last confirmed it (200 or 304)


def merge_ignore_tags(request_body: Mapping[str, object], tags: Iterable[str]) -> dict[str, object]:
    """A copy of ``request_body`` whose ``provider.ignore`` is the union of what it had and ``tags``.

    What the request already ignores is kept, in its order; new tags follow, sorted. The input is not
    modified.

    >>> merge_ignore_tags({"model": "m", "provider": {"ignore": ["b/x"]}}, ["a/y", "b/x"])
    {'model': 'm', 'provider': {'ignore': ['b/x', 'a/y']}}
    """
    body = dict(request_body)
    provider = dict(given) if isinstance(given := body.get("provider"), Mapping) else {}
    existing = list(ignore) if isinstance(ignore := provider.get("ignore"), list) else []
    have = set(existing)
    extra = sorted(t for t in set(tags) if t not in have)
    if not extra:
        return body
    provider["ignore"] = existing + extra
    body["provider"] = provider
    return body


class IgnoreListClient(StartStop):
    """Keeps one ignore list per model fresh in the background; reads are in-memory and never block.

    ``transport`` (e.g. ``httpx.MockTransport``) replaces the network in tests. ``clock`` is monotonic
    seconds. ``is_unavailable(model)`` is an optional seam for the routability job (design.md §10): a model
    it reports as recently and explicitly unavailable is reported by ``should_skip_model``.
    """

    def __init__(
        self,
        base_url: str,
        models: Iterable[str],
        *,
        poll_interval: float = 30.0,
        stale_after: float | None = None,
        timeout: float = 5.0,
        transport: httpx.BaseTransport | httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] = time.monotonic,
        is_unavailable: Callable[[str], bool] | None = None,
        builtin: Mapping[str, Iterable[str]] | None = None,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.models = tuple(dict.fromkeys(models))
        self.poll_interval = poll_interval
        self.stale_after = stale_after if stale_after is not None else 3 * poll_interval
        self._timeout = timeout
        self._transport = transport
        self._clock = clock
        self._is_unavailable = is_unavailable
        self.builtin: Mapping[str, tuple[str, ...]] = MappingProxyType(
            {m: tuple(dict.fromkeys(tags)) for m, tags in (builtin or {}).items()}
        )
        self._snapshots: Mapping[str, IgnoreSnapshot] = MappingProxyType({})
        self._errors: Mapping[str, str] = MappingProxyType({})
        self._lock = threading.Lock()
        self._poller = Poller(
            self.poll_once, self.apoll_once, interval=poll_interval, name="canary-ignore-list"
        )

    # -- reads (in-memory only) -----------------------------------------------------------------------
    def ignored(self, model: str) -> tuple[str, ...]:
        """The last good list for ``model``; its built-in exclusions until the receiver first answers."""
        snap = self._snapshots.get(model)
        return snap.ignore if snap is not None else self.builtin.get(model, ())

    def status(self, model: str) -> str:
        """``ok`` (fresh), ``stale`` (the last good list, older than ``stale_after``) or ``cold`` (never
        fetched: the built-in exclusions only)."""
        if model not in self._snapshots:
            return "cold"
        return "stale" if self.is_stale(model) else "ok"

    @property
    def degraded(self) -> bool:
        """Whether any model's list is cold or stale: the router may route to a host the canary excluded."""
        return any(self.status(m) != "ok" for m in self.models)

    def age_seconds(self, model: str) -> float | None:
        """Seconds since the receiver last confirmed the list; None if never fetched."""
        snap = self._snapshots.get(model)
        return None if snap is None else max(0.0, self._clock() - snap.fetched_at)

    def is_stale(self, model: str) -> bool:
        """True when the list is older than ``stale_after`` or was never fetched."""
        age = self.age_seconds(model)
        return age is None or age > self.stale_after

    def last_error(self, model: str) -> str | None:
        return self._errors.get(model)

    def merge_ignore(self, request_body: Mapping[str, object], model: str | None = None) -> dict[str, object]:
        """``request_body`` with this model's ignore list merged into ``provider.ignore`` (union).

        >>> IgnoreListClient("http://r", ["m"]).merge_ignore({"model": "m"})
        {'model': 'm'}
        """
        name = model if model is not None else str(request_body.get("model", ""))
        return merge_ignore_tags(request_body, self.ignored(name))

    def should_skip_model(self, model: str) -> bool:
        """Whether the routability seam reports ``model`` as explicitly unavailable (not merely degraded)."""
        return self._is_unavailable is not None and self._is_unavailable(model)

    # -- polling --------------------------------------------------------------------------------------
    def _absorb(self, model: str, response: httpx.Response | None, error: str | None) -> bool:
        now = self._clock()
        new: IgnoreSnapshot | None = None
        if response is not None:
            old = self._snapshots.get(model)
            if response.status_code == 304 and old is not None:
                new = replace(old, fetched_at=now)
            elif response.status_code == 200:
                new, error = _parse(model, response, now)
            else:
                error = f"HTTP {response.status_code}"
        with self._lock:
            if new is not None:
                self._snapshots = MappingProxyType({**self._snapshots, model: new})
                self._errors = MappingProxyType({k: v for k, v in self._errors.items() if k != model})
            else:
                self._errors = MappingProxyType({**self._errors, model: error or "unknown error"})
        if new is None and model in self._snapshots:
            log.warning("ignore list for %s not refreshed (%s); keeping the last good list", model, error)
        elif new is None:
            log.warning(
                "ignore list for %s never fetched (%s); degraded: routing with its %d built-in exclusions "
                "only until the receiver answers",
                model,
                error,
                len(self.builtin.get(model, ())),
            )
        return new is not None

    def _exchange(self) -> Exchange[dict[str, bool]]:
        """One poll of every model's list, as a sans-I/O exchange (see ``exporter.polling``): which models
        were refreshed."""
        refreshed: dict[str, bool] = {}
        for model in self.models:
            snap = self._snapshots.get(model)
            headers = {"If-None-Match": snap.etag} if snap is not None and snap.etag else {}
            outcome = yield httpx.Request(
                "GET", self.base_url + "/v1/ignore", params={"model": model}, headers=headers
            )
            if isinstance(outcome, httpx.HTTPError):
                refreshed[model] = self._absorb(model, None, f"{type(outcome).__name__}: {outcome}")
            else:
                refreshed[model] = self._absorb(model, outcome, None)
        return refreshed

    def poll_once(self) -> dict[str, bool]:
        """Fetch every model's list once (blocking); returns which models were refreshed."""
        transport = self._transport if isinstance(self._transport, httpx.BaseTransport) else None
        with httpx.Client(timeout=self._timeout, transport=transport) as client:
            return exchange_sync(client, self._exchange())

    async def apoll_once(self) -> dict[str, bool]:
        """``poll_once`` for asyncio."""
        transport = self._transport if isinstance(self._transport, httpx.AsyncBaseTransport) else None
        async with httpx.AsyncClient(timeout=self._timeout, transport=transport) as client:
            return await exchange_async(client, self._exchange())

    async def run(self) -> None:
        """Poll forever (asyncio); cancel the task to stop. An unexpected error is logged, never fatal."""
        await self._poller.run()

    def start(self) -> None:
        """Poll in a daemon thread until ``stop``."""
        self._poller.start()

    def stop(self) -> None:
        self._poller.stop(timeout=self._timeout + 5)


def _parse(model: str, response: httpx.Response, now: float) -> tuple[IgnoreSnapshot | None, str | None]:
    try:
        data = response.json()
    except ValueError:
        return None, "response is not JSON"
    if not isinstance(data, dict) or data.get("model") != model:
        return None, "response is not the ignore list of this model"
    tags = data.get("ignore")
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        return None, "response has no list of tags in 'ignore'"
    return IgnoreSnapshot(tuple(tags), response.headers.get("etag"), now), None
