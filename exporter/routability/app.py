"""The routability service: passes on a schedule or on a protected trigger, a read API, and /metrics.

HTTP surface::

    POST /v1/routability/run          Authorization: Bearer <trigger token>; aggregate counts only
                                       (GET works the same, for cron services that only send GET)
                                       (202 started in the background; ?wait=true: 200 after the pass)
    GET  /v1/routability               every row with status and age (ETag / If-None-Match -> 304)
    GET  /v1/routability/{slug}        one row (404 for a slug never seen)
    GET  /metrics                      Prometheus text, private registry, built from a snapshot per scrape
    GET  /openapi.json                 the OpenAPI document, generated from the body models (``bodies``)
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest
from prometheus_client.core import Metric
from prometheus_client.registry import Collector
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from exporter.metrickit import counter, gauge, gauges
from exporter.routability.bodies import WAIT_VALUES, PassDone, PassStarted, Problem, Rows, row_body
from exporter.routability.job import ProbeCallback, last_pass, last_pass_finished
from exporter.routability.model import PassSummary, RoutabilityRow, Source, Status, Verdict, count_by_status
from exporter.routability.openapi import openapi_document
from exporter.routability.schedule import Schedule, next_due
from exporter.routability.store import RoutabilityStore, row_text
from exporter.textkit import clip
from exporter.web.auth import bearer_ok, token_bytes
from exporter.web.etag import etag_matches, etag_of
from exporter.web.models import send

log = logging.getLogger("exporter.routability")

PassRunner = Callable[[ProbeCallback], Awaitable[PassSummary]]


@dataclass(frozen=True, slots=True)
class ServiceSnapshot:
    """What one scrape or one read sees: immutable, taken at one instant."""

    now: float
    rows: tuple[RoutabilityRow, ...]
    probes_total: dict[str, int]
    skipped_total: int
    running: bool
    last_pass_finished: float | None
    spent: tuple[int, int, float] = (0, 0, 0.0)  # prompt tokens, completion tokens, cost USD since start


class RoutabilityService:
    """Runs passes one at a time (``run_pass`` is the seam: a callable that runs one pass), keeps counters.

    Example::

        service = RoutabilityService(store, lambda cb: run_pass(store, transport, gw, settings, on_probe=cb),
                                     trigger_token="s3cret", schedule=settings.schedule, recent_window=3600.0)
        summary = await service.run_once()
    """

    def __init__(
        self,
        store: RoutabilityStore,
        run_pass: PassRunner,
        *,
        trigger_token: str | None,
        schedule: Schedule,
        recent_window: float,
        wall_clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.store = store
        self.schedule = schedule
        self.recent_window = recent_window
        self._run_pass = run_pass
        self._token = token_bytes(trigger_token) if trigger_token else None
        self._clock = wall_clock
        self._sleep = sleep
        self._lock = asyncio.Lock()
        self._task: asyncio.Task[PassSummary] | None = None
        self._probes: dict[str, int] = {s.value: 0 for s in Status if s is not Status.UNKNOWN}
        self._skipped = 0
        self._spent = (0, 0, 0.0)

    # -- passes ----------------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._lock.locked() or (self._task is not None and not self._task.done())

    async def join(self) -> None:
        """Wait for a pass started in the background (if any) to end."""
        if self._task is not None:
            await asyncio.gather(self._task, return_exceptions=True)

    async def run_once(self) -> PassSummary:
        """Run one pass now (waiting for a running one to finish first)."""
        async with self._lock:
            summary = await self._run_pass(self._count_probe)
            self._skipped += summary.skipped
            prompt, completion, cost = self._spent
            self._spent = (
                prompt + summary.prompt_tokens,
                completion + summary.completion_tokens,
                cost + summary.cost_usd,
            )
            log.info("routability pass finished summary=%s", json.dumps(summary.to_json()))
            return summary

    def start_pass(self) -> bool:
        """Start a pass in the background; False if one is already running."""
        if self.running:
            return False
        self._task = asyncio.create_task(self.run_once())
        self._task.add_done_callback(_log_failure)
        return True

    async def run_schedule(self) -> None:
        """Forever: run a pass whenever the schedule says one is due (at once if none ever ran)."""
        while True:
            due = self.next_due()
            now = self._clock()
            if now < due:
                await self._sleep(min(due - now, 60.0))  # re-check: a triggered pass moves the schedule
                continue
            try:
                await self.run_once()
            except Exception:  # a broken pass must not stop the schedule; it is logged with its traceback
                log.exception("routability pass failed")
                await self._sleep(self.schedule.retry_seconds)

    def next_due(self) -> float:
        """When the next scheduled pass starts (a triggered pass moves it)."""
        return next_due(self.schedule, last_pass_finished(self.store), self._clock())

    def _count_probe(self, slug: str, source: Source, verdict: Verdict) -> None:
        self._probes[verdict.status.value] += 1

    # -- reads -----------------------------------------------------------------------------------------
    def snapshot(self) -> ServiceSnapshot:
        rows = tuple(sorted(self.store.rows().values(), key=lambda r: r.slug))
        return ServiceSnapshot(
            self._clock(),
            rows,
            dict(self._probes),
            self._skipped,
            self.running,
            last_pass_finished(self.store),
            self._spent,
        )

    def authorized(self, header: str | None) -> bool:
        """Constant-time check of ``Authorization: Bearer <token>``."""
        return self._token is not None and bearer_ok(header, self._token)

    @property
    def trigger_enabled(self) -> bool:
        return self._token is not None


def build_app(service: RoutabilityService) -> Starlette:
    """The Starlette application over a service (serve it with uvicorn; test it with httpx.ASGITransport)."""
    registry = CollectorRegistry(auto_describe=True)
    registry.register(RoutabilityCollector(service.snapshot))
    spec = json.dumps(openapi_document()).encode()

    async def trigger(request: Request) -> Response:
        if not service.trigger_enabled:
            return send(Problem(error="trigger disabled: set routability.trigger_token"), 403)
        if not service.authorized(request.headers.get("authorization")):
            challenge = {"WWW-Authenticate": 'Bearer realm="routability"'}
            return send(Problem(error="missing or wrong bearer token"), 401, headers=challenge)
        wait = request.query_params.get("wait", "").lower()
        if wait not in WAIT_VALUES:
            return send(Problem(error=f"wait: expected true or false (1/0, yes/no), got {wait!r}"), 400)
        if WAIT_VALUES[wait]:
            summary = await service.run_once()
            counts = count_by_status(service.store.rows().values())
            return send(PassDone.model_validate({"pass": summary, "models": counts}))
        started = service.start_pass()
        counts = count_by_status(service.store.rows().values())
        last = last_pass(service.store)
        return send(PassStarted(started=started, running=True, models=counts, last_pass=last), 202)

    async def list_rows(request: Request) -> Response:
        snap = service.snapshot()
        etag = etag_of(row_text(r).encode() for r in snap.rows)
        if etag_matches(request.headers.get("if-none-match"), etag):
            return Response(status_code=304, headers={"ETag": etag})
        body = Rows(
            generated_at=snap.now,
            recent_unavailable_seconds=service.recent_window,
            running=snap.running,
            models=count_by_status(snap.rows),
            rows=[row_body(r, snap.now, service.recent_window) for r in snap.rows],
        )
        return send(body, headers={"ETag": etag, "Cache-Control": "no-cache"})

    async def one_row(request: Request) -> Response:
        slug = request.path_params["slug"]
        row = service.store.get(slug)
        if row is None:
            return send(Problem(error=f"no routability row for model {clip(slug, 200)!r}"), 404)
        return send(row_body(row, service.snapshot().now, service.recent_window))

    async def metrics(request: Request) -> Response:
        return Response(generate_latest(registry), media_type=CONTENT_TYPE_LATEST)

    async def openapi(request: Request) -> Response:
        return Response(spec, media_type="application/json")

    return Starlette(
        routes=[
            # GET too: cron services (cron-job.org, GitHub scheduled workflows) often send GET only
            Route("/v1/routability/run", trigger, methods=["GET", "POST"]),
            Route("/v1/routability", list_rows, methods=["GET"]),
            Route("/v1/routability/{slug:path}", one_row, methods=["GET"]),
            Route("/metrics", metrics, methods=["GET"]),
            Route("/openapi.json", openapi, methods=["GET"]),
        ]
    )


class RoutabilityCollector(Collector):
    """Fresh metric families per scrape from one snapshot (no shared mutable gauges)."""

    def __init__(self, snapshot: Callable[[], ServiceSnapshot]) -> None:
        self._snapshot = snapshot

    def collect(self) -> Iterable[Metric]:
        snap = self._snapshot()
        rows, model = snap.rows, ["model"]
        yield gauge(
            "canary_routability_status",
            "1 on the model's current routability status (cached pass result)",
            [((r.slug, s.value), float(r.status is s)) for r in rows for s in Status],
            ["model", "status"],
        )
        yield gauge(
            "canary_routability_last_check_age_seconds",
            "Seconds since the model was last probed",
            [(r.slug, max(0.0, snap.now - r.last_check)) for r in rows if r.last_check is not None],
            model,
        )
        yield gauge(
            "canary_routability_consecutive_failures",
            "Consecutive probes of the model that were not healthy",
            [(r.slug, r.consecutive_failures) for r in rows],
            model,
        )
        yield gauge(
            "canary_routability_models",
            "Models per routability status",
            list(count_by_status(rows).items()),
            ["status"],
        )
        yield counter(
            "canary_routability_skipped",
            "Targets skipped (not on the gateway, no direct route) since start",
            snap.skipped_total,
        )
        yield counter(
            "canary_routability_probes",
            "Routability probes by resulting status since start",
            list(snap.probes_total.items()),
            ["result"],
        )
        yield from gauges(
            [(r.slug, r.listed) for r in rows if r.listed is not None],
            model,
            [
                (
                    "canary_routability_listed_endpoints",
                    "Endpoints the gateway lists for the model (information only, not a probe result)",
                    lambda e: e.endpoints,
                ),
                (
                    "canary_routability_listed_healthy_endpoints",
                    "Listed endpoints with listed status 0 (information only, not a probe result)",
                    lambda e: e.healthy_endpoints,
                ),
                (
                    "canary_routability_listed_uptime_ratio",
                    "Best listed 30-minute endpoint uptime of the model, 0..1 (information only)",
                    lambda e: None if e.best_uptime_30m is None else e.best_uptime_30m / 100.0,
                ),
            ],
        )
        yield gauge(
            "canary_routability_last_pass_timestamp_seconds",
            "End of the last completed routability pass",
            () if snap.last_pass_finished is None else snap.last_pass_finished,
        )
        yield gauge("canary_routability_pass_running", "1 while a routability pass is running", snap.running)
        yield counter(
            "canary_routability_tokens",
            "Tokens spent by routability probes since start (from the replies' usage)",
            [("prompt", snap.spent[0]), ("completion", snap.spent[1])],
            ["kind"],
        )
        yield counter(
            "canary_routability_cost_usd",
            "Cost of routability probes since start, USD (usage.cost)",
            snap.spent[2],
        )


def _log_failure(task: asyncio.Task[PassSummary]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("routability pass failed", exc_info=task.exception())
