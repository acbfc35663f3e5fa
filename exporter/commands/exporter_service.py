"""The exporter process: the round loop, the snapshot it swaps, and the HTTP surface (/metrics, /v1/state).

Rounds start every ``interval`` from the previous start; a round that overruns delays the next one (rounds
never overlap). The snapshot is replaced by reference after each round, so a scrape always sees a whole
round.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from contextlib import AsyncExitStack

from prometheus_client import CollectorRegistry, Info
from prometheus_client.exposition import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from exporter.config import CanaryConfig
from exporter.contracts.base import Contract
from exporter.engine.metrics import SnapshotCollector
from exporter.engine.rounds import ModelPlan, Prober, ProgressCallback
from exporter.engine.snapshot import Snapshot, accumulate
from exporter.engine.state_body import state_body
from exporter.equality.monitor import EqualityMonitor
from exporter.evidence.api import page_json, parse_query
from exporter.evidence.metrics import EvidenceCollector
from exporter.evidence.store import EvidenceStore, EvidenceUnavailable, InvalidQuery
from exporter.gateway.client import GatewayClient
from exporter.gateway.config import GatewayConfig
from exporter.gateway.types import Endpoint
from exporter.sharding import export_shard
from exporter.web.models import send

log = logging.getLogger("exporter.engine")


def open_evidence(config: CanaryConfig) -> EvidenceStore | None:
    """The configuration's evidence history, opened (None when it keeps none); the caller closes it."""
    if (settings := config.exporter.evidence) is None:
        return None
    return EvidenceStore(
        settings.path, retention_seconds=settings.retention_seconds, max_bytes=settings.max_bytes
    )


def build_plans(config: CanaryConfig, stack: AsyncExitStack) -> list[ModelPlan]:
    """One plan per (model, route): the shared gateway client and one per direct host, closed by ``stack``."""
    plans: list[ModelPlan] = []
    gateway_client: GatewayClient | None = None
    if config.gateway is not None and any(m.via_gateway for m in config.models):
        gw = config.gateway
        gateway_client = GatewayClient(
            gw.base_url,
            gw.api_key.value if gw.api_key else None,
            kind="openrouter" if gw.kind == "openrouter" else "openai-compatible",
            timeout=gw.timeout_seconds,
            connect_timeout=gw.connect_timeout_seconds,
        )
        stack.push_async_callback(gateway_client.aclose)
    # Direct hosts take the gateway section's timeouts; without one, the section's defaults.
    timeouts = config.gateway or GatewayConfig(kind="openai-compatible")
    owned = [(i, m) for i, m in enumerate(config.models) if config.rounds.shard.owns(m.slug)]  # rounds.shard
    for index, model in owned:
        if model.via_gateway and gateway_client is not None and config.gateway is not None:
            plans.append(
                ModelPlan(
                    model.slug, gateway_client, True, model.known_filtering, model.require,
                    base_url=config.gateway.base_url, config_index=index,
                )
            )  # fmt: skip
        for host in model.direct_hosts:
            endpoint = Endpoint(host.name, host.name, supported_parameters=host.supported_parameters)
            client = GatewayClient(
                host.base_url,
                host.api_key.value if host.api_key else None,
                kind="openai-compatible",
                static_endpoints={model.slug: [endpoint]},
                timeout=timeouts.timeout_seconds,
                connect_timeout=timeouts.connect_timeout_seconds,
            )
            stack.push_async_callback(client.aclose)
            direct = ModelPlan(
                model.slug, client, False, model.known_filtering, model.require, host.model_id,
                base_url=host.base_url, config_index=index,
            )  # fmt: skip
            plans.append(direct)
    return plans


class ExporterService:
    """Owns the round loop and the current snapshot."""

    def __init__(
        self,
        plans: Sequence[ModelPlan],
        contracts: Sequence[Contract],
        interval_seconds: float,
        concurrency: int,
        *,
        monotonic: Callable[[], float] = time.monotonic,
        wall_clock: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        evidence: EvidenceStore | None = None,
        external_url: str | None = None,
        equality: EqualityMonitor | None = None,
    ) -> None:
        self.prober = Prober(plans, contracts, concurrency)
        self.evidence = evidence
        self.equality = equality
        self.interval = interval_seconds
        self._snapshot = Snapshot(interval_seconds=interval_seconds, started_at=wall_clock())
        self._mono = monotonic
        self._sleep = sleep
        self.registry = CollectorRegistry()
        self.registry.register(SnapshotCollector(lambda: self._snapshot))
        if evidence is not None:
            self.registry.register(EvidenceCollector(evidence))
        if equality is not None:
            self.registry.register(equality)
        if external_url is not None:
            Info(
                "canary_exporter_external_url",
                "The exporter's URL (exporter.external_url); the suspend alert's evidence_url uses it.",
                registry=self.registry,
            ).info({"url": external_url})
        self.loop_failed: BaseException | None = None  # set when the round loop died (healthz reports it)

    @classmethod
    def from_config(cls, config: CanaryConfig, stack: AsyncExitStack) -> ExporterService:
        """The service for a loaded config; its gateway clients and evidence store close with ``stack``."""
        evidence = open_evidence(config)
        if evidence is not None:
            stack.callback(evidence.close)
        service = cls(
            build_plans(config, stack),
            config.contracts,
            config.rounds.interval_seconds,
            config.rounds.concurrency,
            evidence=evidence,
            external_url=config.exporter.external_url,
            equality=(
                EqualityMonitor(config.equality, concurrency=config.rounds.concurrency)
                if config.equality.enabled
                else None
            ),
        )
        export_shard(config.rounds.shard, service.registry)
        return service

    def prepare(self) -> None:
        """Load what every contract's judge reads (``Contract.prepare``); a long-running service calls it
        before ``tune_gc_for_latency`` freezes its start-up heap."""
        for contract in self.prober.contracts:
            contract.prepare()

    @property
    def snapshot(self) -> Snapshot:
        return self._snapshot

    async def run_round(self, on_progress: ProgressCallback | None = None) -> Snapshot:
        number = self._snapshot.rounds_total + 1
        report = await self.prober.run_round(number, on_progress)
        self._snapshot = accumulate(self._snapshot, report)
        if self.evidence is not None:  # one transaction per round, on a worker thread (off the event loop)
            await asyncio.to_thread(self.evidence.record, report.evidence)
        if self.equality is not None:  # informational: its verdicts never reach streaks (docs/equality.md)
            try:
                await self.equality.after_round(self.prober.last_targets, number)
            except Exception:  # the equality probe must never take the round loop down
                log.exception("equality probe failed round=%d; its last verdicts stay exported", number)
        log.info(
            "round completed round=%d duration=%.3fs hosts=%d",
            number,
            report.duration_seconds,
            len(report.results) + len(report.controls),
        )
        return self._snapshot

    async def run(
        self,
        rounds: int | None = None,
        on_round: Callable[[Snapshot], None] | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> None:
        """Run rounds on the schedule; ``rounds=None`` runs until cancelled.

        ``on_round`` gets each completed round's snapshot; ``on_progress`` each host's finish within a round
        (``RoundProgress``). Both run on the service's event loop and must return quickly.
        """
        done = 0
        try:
            while rounds is None or done < rounds:
                started = self._mono()
                try:
                    snap = await self.run_round(on_progress)
                except Exception:  # a bug must not stop probing for good: log it, keep the schedule
                    log.exception(
                        "round failed round=%d; the next round runs on schedule",
                        self._snapshot.rounds_total + 1,
                    )
                else:
                    if on_round is not None:
                        on_round(snap)
                done += 1
                if rounds is not None and done >= rounds:
                    break
                await self._sleep(max(0.0, self.interval - (self._mono() - started)))
        except asyncio.CancelledError:
            raise
        except BaseException as exc:
            self.loop_failed = exc
            log.critical("round loop stopped: %r", exc)
            raise

    def app(self) -> Starlette:
        async def metrics(_: Request) -> Response:
            body = await run_in_threadpool(generate_latest, self.registry)  # snapshots are immutable
            return Response(body, media_type=CONTENT_TYPE_LATEST)

        async def healthz(_: Request) -> Response:
            if self.loop_failed is not None:
                return PlainTextResponse(f"round loop stopped: {self.loop_failed!r}\n", status_code=503)
            return PlainTextResponse("ok\n")

        async def state(_: Request) -> Response:
            return send(state_body(self._snapshot))

        async def evidence(request: Request) -> Response:
            if self.evidence is None:
                return _problem(
                    404,
                    "no evidence history: set exporter.evidence.path in the configuration (docs/evidence.md)",
                )
            try:
                query = parse_query(request.query_params.multi_items())
                page = await run_in_threadpool(lambda: self.evidence.query(**query))  # type: ignore[union-attr]
            except InvalidQuery as exc:
                return _problem(400, str(exc), parameter=exc.parameter)
            except EvidenceUnavailable as exc:
                return _problem(503, str(exc))
            return JSONResponse(page_json(page, request.url.path, dict(request.query_params)))

        return Starlette(
            routes=[
                Route("/metrics", metrics),
                Route("/healthz", healthz),
                Route("/v1/state", state),
                Route("/v1/evidence", evidence),
            ]
        )


def _problem(status: int, message: str, **extra: str) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)
