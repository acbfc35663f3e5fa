"""Fail-static background polling, written once for threads and asyncio (the router and routability clients).

A client describes one poll as an *exchange*: a generator that yields the HTTP requests it wants sent and
receives each response (or the ``httpx.HTTPError`` that replaced it), absorbing what it learns. It never does
I/O itself, so one piece of logic serves both drivers, ``exchange_sync`` (``httpx.Client``) and
``exchange_async`` (``httpx.AsyncClient``), and tests can feed it chosen responses.

``Poller`` runs a client's poll forever every ``interval`` seconds, in a daemon thread or as an asyncio
task. An unexpected error in one poll is logged and polling goes on: a dead poller would silently freeze the
last good data while readers keep answering from it.

Example::

    def cycle() -> Exchange[bool]:
        outcome = yield httpx.Request("GET", "http://127.0.0.1:9465/v1/ignore?model=m")
        ...  # absorb the response, or keep the last good data on an error
        return isinstance(outcome, httpx.Response)

    def poll() -> None:
        with httpx.Client() as client:
            exchange_sync(client, cycle())

    poller = Poller(poll, None, interval=30.0, name="canary-ignore-list")
    poller.start()          # a daemon thread; poller.stop() ends it (with an apoll: asyncio's run())
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Generator
from typing import TypeVar

import httpx

log = logging.getLogger("exporter.polling")

Outcome = httpx.Response | httpx.HTTPError
R = TypeVar("R")
Exchange = Generator[httpx.Request, Outcome, R]  # returns what the poll learnt


def exchange_sync(client: httpx.Client, exchange: Exchange[R]) -> R:
    """Send every request ``exchange`` yields with ``client`` and hand it the outcome; its return value."""
    try:
        request = next(exchange)
        while True:
            outcome: Outcome
            try:
                outcome = client.send(request)
            except httpx.HTTPError as exc:
                outcome = exc
            request = exchange.send(outcome)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


async def exchange_async(client: httpx.AsyncClient, exchange: Exchange[R]) -> R:
    """``exchange_sync`` for asyncio."""
    try:
        request = next(exchange)
        while True:
            outcome: Outcome
            try:
                outcome = await client.send(request)
            except httpx.HTTPError as exc:
                outcome = exc
            request = exchange.send(outcome)
    except StopIteration as done:
        return done.value  # type: ignore[no-any-return]


class Poller:
    """Calls ``poll`` (in a daemon thread) or ``apoll`` (in an asyncio task) every ``interval`` seconds,
    forever, surviving any error. Either may be None when the client offers only the other mode."""

    def __init__(
        self,
        poll: Callable[[], object] | None,
        apoll: Callable[[], Awaitable[object]] | None,
        *,
        interval: float,
        name: str,
    ) -> None:
        self._poll = poll
        self._apoll = apoll
        self.interval = interval
        self.name = name
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    async def run(self) -> None:
        """Poll forever (asyncio); cancel the task to stop."""
        if self._apoll is None:
            raise TypeError(f"{self.name} polls only in a thread: use start()")
        while True:
            try:
                await self._apoll()
            except Exception:  # never let the poller die: the data would silently freeze
                log.exception("%s: poll failed; keeping the last good data", self.name)
            await asyncio.sleep(self.interval)

    def start(self) -> None:
        """Poll in a daemon thread until ``stop``."""
        if self._poll is None:
            raise TypeError(f"{self.name} polls only with asyncio: use run()")
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, args=(self._poll,), name=self.name, daemon=True)
        self._thread.start()

    def _loop(self, poll: Callable[[], object]) -> None:
        while not self._stop.is_set():
            try:
                poll()
            except Exception:  # never let the poller die: the data would silently freeze
                log.exception("%s: poll failed; keeping the last good data", self.name)
            self._stop.wait(self.interval)

    def stop(self, timeout: float | None = None) -> None:
        """Stop the thread and wait for it (at most ``timeout`` seconds)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=timeout)
            self._thread = None
