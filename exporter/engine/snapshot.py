"""The exporter's state after each round, as one immutable value (what ``/metrics`` renders).

``accumulate(previous, report)`` is pure: it folds one ``RoundReport`` into the counters, the streaks and
the last-round view. The round loop swaps the snapshot reference atomically; scrapes read whichever snapshot
is current, so they never see half a round. Hosts that left discovery lose all their series.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import TypeVar

from exporter.contracts.base import ProbeResult
from exporter.engine.rounds import RoundReport
from exporter.engine.streaks import HostKey, Streaks, advance
from exporter.evidence.store import EvidenceRecord
from exporter.gateway.types import Endpoint
from exporter.outcomes import Outcome, Reason

TTFT_BUCKETS: tuple[float, ...] = (0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0, 7.5, 10.0, 15.0, 20.0, 30.0)
K = TypeVar("K")
V = TypeVar("V")
N = TypeVar("N", int, float)


def _empty() -> Mapping[K, V]:
    return MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Histogram:
    """Cumulative-ready histogram state: per-bucket (non-cumulative) counts, sum and count."""

    buckets: tuple[int, ...] = (0,) * (len(TTFT_BUCKETS) + 1)
    total: float = 0.0
    count: int = 0

    def observe(self, value: float) -> Histogram:
        index = bisect.bisect_left(TTFT_BUCKETS, value)
        counts = list(self.buckets)
        counts[index] += 1
        return Histogram(tuple(counts), self.total + value, self.count + 1)

    def cumulative(self) -> list[tuple[str, int]]:
        bounds = (*map(repr, TTFT_BUCKETS), "+Inf")  # the shortest exact form: "0.1", "10.0"
        return list(zip(bounds, itertools.accumulate(self.buckets), strict=True))


@dataclass(frozen=True, slots=True)
class Snapshot:
    interval_seconds: float
    started_at: float = 0.0  # wall clock when the exporter started
    rounds_total: int = 0
    last_round: RoundReport | None = None
    completed_at: float | None = None  # wall clock of the last completed round
    endpoints: Mapping[str, tuple[Endpoint, ...]] = field(default_factory=_empty)
    streaks: Streaks = field(default_factory=Streaks)
    outcome_counts: Mapping[tuple[str, str, str, str, str], int] = field(default_factory=_empty)
    # language-contract attempts that did not pass, per locale (passes per locale: the evidence store)
    locale_counts: Mapping[tuple[str, str, str, str, str], int] = field(default_factory=_empty)
    # the TTFT distribution per model (every host of it), and each host's TTFT of the last round
    ttft: Mapping[str, Histogram] = field(default_factory=_empty)
    ttft_last: Mapping[HostKey, float] = field(default_factory=_empty)
    # TTFT probes that saw no visible token within the threshold (no TTFT to observe), per host; every host
    # with a judged TTFT probe has an entry, so the slowest host still has a series.
    ttft_timeouts: Mapping[HostKey, int] = field(default_factory=_empty)
    tokens: Mapping[tuple[str, str], int] = field(default_factory=_empty)  # (model, kind)
    cost_usd: Mapping[HostKey, float] = field(default_factory=_empty)
    discovery_failures: Mapping[str, int] = field(default_factory=_empty)
    # the latest failing attempt per (model, provider, contract) since the exporter started (for /v1/state)
    last_failures: Mapping[tuple[str, str, str], EvidenceRecord] = field(default_factory=_empty)

    def last_results(self) -> Mapping[HostKey, Mapping[str, ProbeResult]]:
        return self.last_round.results if self.last_round is not None else _empty()


def _bump(counter: dict[K, N], key: K, amount: N) -> None:
    counter[key] = counter.get(key, 0) + amount


def accumulate(previous: Snapshot, report: RoundReport) -> Snapshot:
    """The snapshot after ``report`` (pure)."""
    live: set[HostKey] = {(m, e.tag) for m, eps in report.endpoints.items() for e in eps}

    def alive(key: tuple[str, ...]) -> bool:
        return (key[0], key[1]) in live

    models = set(report.endpoints)
    outcomes = {k: v for k, v in previous.outcome_counts.items() if alive(k)}
    locales = {k: v for k, v in previous.locale_counts.items() if alive(k)}
    ttft = {k: v for k, v in previous.ttft.items() if k in models}
    ttft_last: dict[HostKey, float] = {}
    ttft_timeouts = {k: v for k, v in previous.ttft_timeouts.items() if alive(k)}
    tokens = {k: v for k, v in previous.tokens.items() if k[0] in models}
    cost = {k: v for k, v in previous.cost_usd.items() if alive(k)}
    discovery_failures = dict(previous.discovery_failures)
    for model in report.discovery_errors:
        _bump(discovery_failures, model, 1)

    every = [
        (key, name, r) for probed in (report.results, report.controls) for key, by in probed.items()
        for name, r in by.items()
    ]  # fmt: skip
    for (model, provider), contract, result in every:
        _bump(outcomes, (model, provider, contract, result.outcome.value, result.reason.value), 1)
        if result.locale is not None and result.outcome is not Outcome.PASS:  # bounded: no pass rotation
            _bump(locales, (model, provider, result.locale, result.outcome.value, result.reason.value), 1)
        if result.ttft_seconds is not None:  # only contracts that export a TTFT observation set it
            ttft[model] = ttft.get(model, Histogram()).observe(result.ttft_seconds)
            ttft_last[(model, provider)] = result.ttft_seconds
        # A judged first token (an observation) or none within the threshold: the timeout counter's series
        # exists for every host a TTFT-measuring contract judged, whichever contract that is.
        timed_out = result.ttft_seconds is None and result.reason is Reason.SLOW_FIRST_TOKEN
        if timed_out or result.ttft_seconds is not None:
            _bump(ttft_timeouts, (model, provider), 1 if timed_out else 0)
        if result.usage.prompt_tokens:
            _bump(tokens, (model, "prompt"), result.usage.prompt_tokens)
        if result.usage.completion_tokens:
            _bump(tokens, (model, "completion"), result.usage.completion_tokens)
        if result.usage.cost_usd:
            _bump(cost, (model, provider), result.usage.cost_usd)

    failures = {k: v for k, v in previous.last_failures.items() if alive(k)}
    for record in report.evidence:
        if record.result.outcome is Outcome.FAIL:
            failures[(record.model, record.provider, record.contract)] = record

    weak = frozenset(report.weak)
    frozen = MappingProxyType
    return replace(
        previous,
        rounds_total=previous.rounds_total + 1,
        last_round=report,
        completed_at=report.started_at + report.duration_seconds,
        endpoints=frozen(dict(report.endpoints)),
        streaks=advance(previous.streaks, report.results, weak, report.started_at),
        outcome_counts=frozen(outcomes),
        locale_counts=frozen(locales),
        ttft=frozen(ttft),
        ttft_last=frozen(ttft_last),
        ttft_timeouts=frozen(ttft_timeouts),
        tokens=frozen(tokens),
        cost_usd=frozen(cost),
        discovery_failures=frozen(discovery_failures),
        last_failures=frozen(failures),
    )
