"""A small load generator that plays a product's router against a gateway (the demo's simulator): real
requests through the router client (``exporter.router``: the ignore list merged, every request journaled,
every reply judged live), so the live panel, the journal and ``canary trace --user`` show real data.

Each request is a streamed role-play turn in one of a few locales (the language contract's own prompts,
so the reply's language is known and declared with ``X-Canary-Locale``), for one of a small population of
users (``user-000`` ... ``user-099``), unpinned: the gateway picks the host, as it does for a product.

``canary demo --load RPS`` runs it next to the pipeline; ``LoadGenerator`` is the library form::

    with LoadGenerator(base_url, key, model, journal=path, receiver=url, rate=20) as load:
        ...                      # load.observer / load.judges / load.lists are the router's parts
"""

from __future__ import annotations

import itertools
import logging
import random
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx

from exporter.language.locales import LOCALES, LocaleSpec
from exporter.lifecycle import StartStop
from exporter.router import IgnoreListClient, Journal, Observer, canary_http_client
from exporter.router.live import LiveJudges

log = logging.getLogger("canary.load")

DEFAULT_LOCALES = ("en", "pt-BR", "es", "de", "fr", "ja")
USERS = 100
MAX_TOKENS = 160


class LoadGenerator(StartStop):
    """Sends ``rate`` requests per second (open loop, at most ``concurrency`` in flight) until stopped."""

    def __init__(
        self,
        base_url: str,
        api_key: str,
        model: str,
        *,
        journal: Path,
        receiver: str | None = None,
        builtin: dict[str, tuple[str, ...]] | None = None,
        rate: float = 20.0,
        concurrency: int = 32,
        locales: Sequence[str] = DEFAULT_LOCALES,
        seed: int = 7,
        ttft_threshold: float = 10.0,
    ) -> None:
        if not 0 < rate <= 1000:
            raise ValueError(f"rate must be in (0, 1000] requests/s, got {rate}")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.rate = rate
        self.lists = (
            IgnoreListClient(receiver, [model], poll_interval=5.0, builtin=builtin) if receiver else None
        )
        self.judges = LiveJudges(ttft_threshold=ttft_threshold)
        self.observer = Observer(Journal(journal), lists=self.lists, live=self.judges, route_metadata=True)
        self._api_key = api_key
        self._locales = [LOCALES[code] for code in locales]
        self._random = random.Random(seed)  # noqa: S311 - which user and locale next, not a secret
        self._pool = ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="canary-load")
        self._slots = threading.Semaphore(concurrency)
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._http: httpx.Client | None = None
        self._lock = threading.Lock()
        self.sent = 0  # requests answered whole

    def start(self) -> None:
        if self._thread is not None:
            return
        self.judges.start()
        if self.lists is not None:
            self.lists.start()
        self._http = canary_http_client(
            self.observer, limits=httpx.Limits(max_connections=64), timeout=httpx.Timeout(60.0, connect=5.0)
        )
        self._thread = threading.Thread(target=self._run, name="canary-load", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(10)
            self._thread = None
        self._pool.shutdown(wait=True, cancel_futures=True)
        if self._http is not None:
            self._http.close()
        self.observer.stop()
        self.judges.stop()
        if self.lists is not None:
            self.lists.stop()

    def _run(self, clock: Callable[[], float] = time.monotonic) -> None:
        start = clock()
        for n in itertools.count():
            due = start + n / self.rate
            if self._stop.wait(max(0.0, due - clock())):
                return
            if not self._slots.acquire(blocking=False):  # open loop: a full pipe skips, it never queues
                continue
            self._pool.submit(self._one, self._random.randrange(USERS), self._random.choice(self._locales))

    def _one(self, user: int, locale: LocaleSpec) -> None:
        assert self._http is not None
        prompt = locale.prompts[user % len(locale.prompts)]
        body = {
            "model": self.model,
            "stream": True,
            "max_tokens": MAX_TOKENS,
            "messages": list(prompt.messages()),
        }
        headers = {
            "Authorization": f"Bearer {self._api_key}",
            "X-Canary-User": f"user-{user:03d}",
            "X-Canary-Locale": locale.code,
        }
        try:
            with self._http.stream(
                "POST", f"{self.base_url}/chat/completions", json=body, headers=headers
            ) as r:
                for _ in r.iter_bytes():
                    pass
            with self._lock:
                self.sent += 1
        except httpx.HTTPError as exc:
            log.debug("load request failed: %s", type(exc).__name__)
        finally:
            self._slots.release()
