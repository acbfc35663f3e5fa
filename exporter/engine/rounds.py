"""One probe round (design.md §6): discover, run every contract on every provider, report values.

Probes go out sequentially per provider (no bursts that cause false 429s) and in parallel across providers
under one global concurrency bound. Discovery failures reuse the last list and never invent verdicts.
A host that is a live positive control of some contracts (``Contract.live_control``) is probed only by
those. Every attempt becomes an ``EvidenceRecord`` in the report; every judged ``fail`` is logged once.
An optional ``on_progress`` callback hears a ``RoundProgress`` once discovery is done (``done=0``) and each
time a (model, provider) finishes its probes, so a display can show hosts done / total within a round.
The engine knows no contract by name: what differs between contracts is behind ``Contract``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from exporter.contracts.base import ChatGateway, Contract, ProbeContext, ProbeResult, ProbeTarget
from exporter.engine.streaks import HostKey
from exporter.evidence.store import EvidenceRecord, attempt_records
from exporter.gateway.classify import discovery_hint
from exporter.gateway.types import Endpoint, GatewayError
from exporter.outcomes import Outcome, Reason

DEFAULT_CONCURRENCY = 8  # providers probed at once (``rounds.concurrency``)

log = logging.getLogger("exporter.engine")

LOGGED_EXCERPT_CHARS = 120


@dataclass(frozen=True, slots=True)
class RoundProgress:
    """How far round ``number`` is: ``done`` of ``total`` hosts (controls included) finished their probes.

    ``host`` is the (model, provider) that just finished, or ``None`` for the event sent once discovery is
    done and probing starts (``done == 0``). Events of one round arrive in order, ``done`` counting up to
    ``total``.
    """

    number: int
    done: int
    total: int
    host: HostKey | None = None


ProgressCallback = Callable[[RoundProgress], None]


class Gateway(ChatGateway, Protocol):
    async def discover(self, model: str) -> list[Endpoint] | GatewayError: ...


@dataclass(frozen=True, slots=True)
class ModelPlan:
    """How to reach one model's providers: through a gateway (pinned) or one direct host (static list)."""

    model: str
    gateway: Gateway
    pinned: bool = True
    known_filtering: frozenset[str] = frozenset()
    required_capabilities: frozenset[str] = frozenset()
    api_model: str | None = None
    # For located discovery errors: the gateway's base URL and the model's index in the config's models.
    base_url: str = ""
    config_index: int | None = None

    def target(self, endpoint: Endpoint) -> ProbeTarget:
        """The probe target of one of this plan's endpoints."""
        return ProbeTarget(
            self.model,
            endpoint,
            self.pinned,
            endpoint.tag in self.known_filtering,
            self.required_capabilities,
            self.api_model,
        )


async def run_contract(contract: Contract, ctx: ProbeContext, *, once: bool = False) -> ProbeResult:
    """``contract.probe(ctx)`` (``once``: ``contract.sample(ctx)``), or ``skipped`` without a request when the
    contract skips the target. A crash is logged and is ``transport/probe_error``: a bug in one contract must
    not take a round or an investigation down, nor invent a verdict."""
    skip = contract.skip_reason(ctx.target)
    if skip is not None:
        return ProbeResult(Outcome.SKIPPED, skip)
    what = "sample" if once else "probe"
    try:
        return await (contract.sample if once else contract.probe)(ctx)
    except Exception:
        log.exception(
            "%s crashed model=%s provider=%s contract=%s", what, ctx.target.model, ctx.target.provider,
            contract.name,
        )  # fmt: skip
        return ProbeResult(Outcome.TRANSPORT, Reason.PROBE_ERROR, f"{what} crashed; see the log")


@dataclass(frozen=True, slots=True)
class RoundReport:
    """Everything one round observed, as values."""

    number: int
    started_at: float  # wall clock (unix seconds)
    duration_seconds: float
    endpoints: Mapping[str, tuple[Endpoint, ...]]  # model -> endpoints probed this round
    # model -> why its discovery failed, saying what to change where it can ("check models[0].slug")
    discovery_errors: Mapping[str, str]
    results: Mapping[HostKey, Mapping[str, ProbeResult]]
    # live positive-control hosts: (model, provider) -> contract -> result (not evidence about the host)
    controls: Mapping[HostKey, Mapping[str, ProbeResult]] = field(default_factory=dict)
    weak: Mapping[tuple[str, str], tuple[str, ...]] = field(default_factory=dict)  # (model, contract) -> why
    evidence: tuple[EvidenceRecord, ...] = ()  # every attempt of the round, controls included


class Prober:
    """Runs rounds. Keeps only what the design allows between rounds: the last endpoint lists and the
    per-(model, provider, contract) probe memory (e.g. the language contract's locale rotation)."""

    def __init__(
        self,
        plans: Sequence[ModelPlan],
        contracts: Sequence[Contract],
        concurrency: int = DEFAULT_CONCURRENCY,
        *,
        wall_clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.perf_counter,
    ) -> None:
        self.plans = list(plans)
        self.contracts = list(contracts)
        self.concurrency = concurrency
        self._wall = wall_clock
        self._mono = monotonic
        self._last_endpoints: dict[int, tuple[Endpoint, ...]] = {}
        self._memory: dict[tuple[str, str, str], dict[str, object]] = {}
        # The hosts the last round probed, with their gateways: what a round-level follower (the equality
        # probe) samples next, without discovering again.
        self.last_targets: tuple[tuple[ProbeTarget, Gateway], ...] = ()

    async def _discover(self, index: int, plan: ModelPlan) -> tuple[tuple[Endpoint, ...], str | None]:
        """The endpoints to probe, and why discovery failed (None when it did not)."""
        found = await plan.gateway.discover(plan.model)
        if isinstance(found, GatewayError):
            hint = discovery_hint(found, plan.base_url, plan.model, plan.config_index)
            log.warning(
                "discovery failed model=%s outcome=%s reason=%s status=%s detail=%s%s; reusing the last list",
                plan.model,
                found.outcome,
                found.reason,
                found.status,
                found.detail[:200],
                f" hint={hint!r}" if hint else "",
            )
            said = hint or f"discovery failed: {found.outcome}/{found.reason} {found.detail[:200]}"
            return self._last_endpoints.get(index, ()), said
        endpoints = tuple(found)
        self._last_endpoints[index] = endpoints
        return endpoints, None

    def _weak_offline(self) -> dict[str, tuple[str, ...]]:
        weak: dict[str, tuple[str, ...]] = {}
        for contract in self.contracts:
            failed = contract.weak_controls()
            if failed:
                log.error("positive control not rejected contract=%s controls=%s", contract.name, failed)
                weak[contract.name] = tuple(f"offline:{name}" for name in failed)
        return weak

    async def _probe_host(
        self,
        target: ProbeTarget,
        gateway: Gateway,
        number: int,
        contracts: Sequence[Contract],
        evidence: list[EvidenceRecord],
    ) -> dict[str, ProbeResult]:
        results: dict[str, ProbeResult] = {}
        for contract in contracts:
            memory = self._memory.setdefault((target.model, target.provider, contract.name), {})
            result = await run_contract(contract, ProbeContext(target, gateway, number, memory))
            results[contract.name] = result
            if result.outcome is Outcome.FAIL:
                log.warning(
                    "probe failed model=%s provider=%s contract=%s reason=%s attempts=%d excerpt=%r",
                    target.model,
                    target.provider,
                    contract.name,
                    result.reason,
                    len(result.attempts) or 1,
                    result.excerpt[:LOGGED_EXCERPT_CHARS],
                )
            evidence += attempt_records(
                result,
                at=self._wall(),
                round_number=number,
                model=target.model,
                provider=target.provider,
                contract=contract.name,
            )
        return results

    @staticmethod
    def _tell(on_progress: ProgressCallback | None, progress: RoundProgress) -> None:
        if on_progress is None:
            return
        try:
            on_progress(progress)
        except Exception:  # a display must never stop probing nor change a verdict
            log.exception("progress callback failed round=%d; the round goes on", progress.number)

    async def run_round(self, number: int, on_progress: ProgressCallback | None = None) -> RoundReport:
        """Probe every discovered host once; ``on_progress`` hears each host finish (``RoundProgress``)."""
        started_wall, started = self._wall(), self._mono()
        discovered = await asyncio.gather(*(self._discover(i, p) for i, p in enumerate(self.plans)))
        endpoints: dict[str, list[Endpoint]] = {}
        failed: dict[str, str] = {}
        jobs: list[tuple[ProbeTarget, Gateway, Sequence[Contract], bool]] = []
        for plan, (found, discovery_failed) in zip(self.plans, discovered, strict=True):
            if discovery_failed is not None:
                failed[plan.model] = discovery_failed
            endpoints.setdefault(plan.model, []).extend(found)
            for endpoint in found:
                target = plan.target(endpoint)
                controlled = [c for c in self.contracts if c.live_control(target)]
                jobs.append((target, plan.gateway, controlled or self.contracts, bool(controlled)))

        self.last_targets = tuple((target, gateway) for target, gateway, _, _ in jobs)
        limit = asyncio.Semaphore(self.concurrency)
        evidence: list[EvidenceRecord] = []
        finished = 0
        self._tell(on_progress, RoundProgress(number, 0, len(jobs)))

        async def run(job: tuple[ProbeTarget, Gateway, Sequence[Contract], bool]) -> dict[str, ProbeResult]:
            nonlocal finished
            async with limit:
                by_contract = await self._probe_host(job[0], job[1], number, job[2], evidence)
            finished += 1
            host = (job[0].model, job[0].provider)
            self._tell(on_progress, RoundProgress(number, finished, len(jobs), host))
            return by_contract

        outcomes = await asyncio.gather(*(run(job) for job in jobs))
        results: dict[HostKey, Mapping[str, ProbeResult]] = {}
        controls: dict[HostKey, Mapping[str, ProbeResult]] = {}
        offline = self._weak_offline()
        weak = {(model, name): why for model in endpoints for name, why in offline.items()}
        for (target, _, _, is_control), by_contract in zip(jobs, outcomes, strict=True):
            key = (target.model, target.provider)
            if not is_control:
                results[key] = by_contract
                continue
            controls[key] = by_contract
            for contract_name, control in by_contract.items():
                if control.outcome is Outcome.PASS:
                    log.error(
                        "live positive control was not rejected model=%s provider=%s contract=%s",
                        target.model,
                        target.provider,
                        contract_name,
                    )
                    weak_key = (target.model, contract_name)
                    weak[weak_key] = (*weak.get(weak_key, ()), f"live:{target.provider}")
        live = set(results) | set(controls)
        for stale in [k for k in self._memory if k[:2] not in live]:
            del self._memory[stale]
        return RoundReport(
            number=number,
            started_at=started_wall,
            duration_seconds=self._mono() - started,
            endpoints={m: tuple(e) for m, e in endpoints.items()},
            discovery_errors=failed,
            results=results,
            controls=controls,
            weak=weak,
            evidence=tuple(evidence),
        )
