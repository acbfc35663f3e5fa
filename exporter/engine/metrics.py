"""The exporter's Prometheus collector: fresh metric families from the current immutable snapshot.

Names and labels are the contract in ``docs/metrics.md``. Round results are cached between rounds (probes
cost money); ``canary_round_last_completed_timestamp_seconds`` tells their age.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client.core import (
    CounterMetricFamily,
    GaugeMetricFamily,
    HistogramMetricFamily,
    Metric,
)
from prometheus_client.registry import Collector

from exporter import __version__
from exporter.engine.snapshot import Snapshot
from exporter.outcomes import Outcome

CACHED = " Cached result of the last completed probe round."


class SnapshotCollector(Collector):
    """Renders whatever snapshot ``current()`` returns; never probes at scrape time."""

    def __init__(self, current: Callable[[], Snapshot], monotonic: Callable[[], float] = time.perf_counter):
        self._current = current
        self._mono = monotonic

    def describe(self) -> Iterator[Metric]:
        return iter(())

    def collect(self) -> Iterator[Metric]:
        started = self._mono()
        snap = self._current()
        yield from _probe_families(snap)
        yield from _endpoint_families(snap)
        yield from _round_families(snap)
        scrape = GaugeMetricFamily(
            "canary_exporter_collect_seconds", "Time spent rendering the snapshot for this scrape."
        )
        scrape.add_metric([], self._mono() - started)
        yield scrape


def _fill(family: GaugeMetricFamily | CounterMetricFamily, series: Mapping[Any, float]) -> None:
    for labels, value in sorted(series.items()):
        family.add_metric(list(labels), value)


def _probe_families(snap: Snapshot) -> Iterator[Metric]:
    outcomes = CounterMetricFamily(
        "canary_probe_outcomes",
        "Probes by judged outcome; reason is a closed set." + CACHED,
        labels=["model", "provider", "contract", "outcome", "reason"],
    )
    _fill(outcomes, snap.outcome_counts)
    yield outcomes

    locales = CounterMetricFamily(
        "canary_probe_language_outcomes",
        "Language-contract probes by locale and judged outcome." + CACHED,
        labels=["model", "provider", "locale", "outcome", "reason"],
    )
    _fill(locales, snap.locale_counts)
    yield locales

    last = GaugeMetricFamily(
        "canary_probe_last_outcome",
        "The outcome of the last round for this contract (one series, value 1; the outcome label changes)."
        + CACHED,
        labels=["model", "provider", "contract", "outcome"],
    )
    # One series per contract rather than a 0/1 series per outcome: 8x fewer series at 1000 hosts, and
    # `canary_probe_last_outcome{outcome="fail"}` selects the same routes either way.
    for (model, provider), by_contract in sorted(snap.last_results().items()):
        for contract, result in sorted(by_contract.items()):
            last.add_metric([model, provider, contract, result.outcome.value], 1)
    yield last

    reasons = GaugeMetricFamily(
        "canary_probe_last_failure_reason",
        "1 while the last round's outcome for this contract is fail; reason is a closed set (present only "
        "then). The suspend alert's failing_reasons annotation reads it." + CACHED,
        labels=["model", "provider", "contract", "reason"],
    )
    for (model, provider), by_contract in sorted(snap.last_results().items()):
        for contract, result in sorted(by_contract.items()):
            if result.outcome is Outcome.FAIL:
                reasons.add_metric([model, provider, contract, result.reason.value], 1)
    yield reasons

    failing = GaugeMetricFamily(
        "canary_probe_failing_streak",
        "Consecutive failing rounds; transport and other non-evidence outcomes freeze it." + CACHED,
        labels=["model", "provider", "contract"],
    )
    _fill(failing, snap.streaks.failing)
    yield failing

    clean = GaugeMetricFamily(
        "canary_probe_clean_streak",
        "Consecutive clean rounds (every contract that ran passed, none weak)." + CACHED,
        labels=["model", "provider"],
    )
    _fill(clean, snap.streaks.clean)
    yield clean

    weak = GaugeMetricFamily(
        "canary_probe_weak",
        "1 when the contract's positive control was not rejected this round (its passes are not evidence)."
        + CACHED,
        labels=["model", "contract"],
    )
    weak_now = snap.last_round.weak if snap.last_round is not None else {}
    contracts = sorted({c for by in snap.last_results().values() for c in by})
    for model in sorted(snap.endpoints):
        for contract in contracts:
            weak.add_metric([model, contract], float((model, contract) in weak_now))
    yield weak

    ttft = HistogramMetricFamily(
        "canary_probe_ttft_seconds",
        "Time from sending the request to the first visible token (TTFT probe)." + CACHED,
        labels=["model", "provider"],
    )
    for (model, provider), hist in sorted(snap.ttft.items()):
        ttft.add_metric([model, provider], hist.cumulative(), hist.total)
    yield ttft
    timeouts = CounterMetricFamily(
        "canary_probe_ttft_timeouts",
        "TTFT probes with no visible token within the threshold (not in the histogram: they have no TTFT).",
        labels=["model", "provider"],
    )
    _fill(timeouts, snap.ttft_timeouts)
    yield timeouts

    tokens = CounterMetricFamily(
        "canary_probe_tokens",
        "Tokens spent on probes, from the gateway's usage fields.",
        labels=["model", "provider", "kind"],
    )
    _fill(tokens, snap.tokens)
    yield tokens

    cost = CounterMetricFamily(
        "canary_probe_cost_usd",
        "USD spent on probes (the gateway's usage.cost).",
        labels=["model", "provider"],
    )
    _fill(cost, snap.cost_usd)
    yield cost


def _endpoint_families(snap: Snapshot) -> Iterator[Metric]:
    info = GaugeMetricFamily(
        "canary_endpoint_info",
        "Discovered endpoint metadata (information, never a verdict).",
        labels=["model", "provider", "provider_name", "quantization"],
    )
    status = GaugeMetricFamily(
        "canary_endpoint_listed_status",
        "The gateway's listed endpoint status (0 healthy, negative degraded; information only).",
        labels=["model", "provider"],
    )
    uptime = GaugeMetricFamily(
        "canary_endpoint_uptime_ratio",
        "The gateway's listed 30-minute uptime as a ratio 0..1 (information only).",
        labels=["model", "provider"],
    )
    count = GaugeMetricFamily(
        "canary_model_providers", "Endpoints discovered for the model in the last round.", labels=["model"]
    )
    for model, endpoints in sorted(snap.endpoints.items()):
        count.add_metric([model], len(endpoints))
        for e in endpoints:
            info.add_metric([model, e.tag, e.provider_name, e.quantization or "unknown"], 1)
            if e.status is not None:
                status.add_metric([model, e.tag], e.status)
            if e.uptime_last_30m is not None:
                uptime.add_metric([model, e.tag], e.uptime_last_30m / 100.0)
    yield from (info, status, uptime, count)
    failures = CounterMetricFamily(
        "canary_discovery_failures", "Discovery failures (the previous list is reused).", labels=["model"]
    )
    for model, value in sorted(snap.discovery_failures.items()):
        failures.add_metric([model], value)
    yield failures
    # 1 while the last round's discovery of the model failed: "discovery is failing now" for the
    # global-outage rule, which a counter cannot tell without knowing the round interval.
    failing = GaugeMetricFamily(
        "canary_discovery_failing",
        "1 when the last round's endpoint discovery failed for the model (the previous list is reused).",
        labels=["model"],
    )
    failed_now = snap.last_round.discovery_failed if snap.last_round is not None else frozenset()
    for model in sorted(set(snap.endpoints) | set(snap.discovery_failures)):
        failing.add_metric([model], 1 if model in failed_now else 0)
    yield failing


def _round_families(snap: Snapshot) -> Iterator[Metric]:
    rounds = CounterMetricFamily("canary_rounds", "Completed probe rounds.")
    rounds.add_metric([], snap.rounds_total)
    yield rounds
    interval = GaugeMetricFamily("canary_round_interval_seconds", "Configured period between probe rounds.")
    interval.add_metric([], snap.interval_seconds)
    yield interval
    if snap.completed_at is not None and snap.last_round is not None:
        completed = GaugeMetricFamily(
            "canary_round_last_completed_timestamp_seconds", "Unix time the last probe round completed."
        )
        completed.add_metric([], snap.completed_at)
        yield completed
        duration = GaugeMetricFamily(
            "canary_round_duration_seconds", "Wall time of the last completed round."
        )
        duration.add_metric([], snap.last_round.duration_seconds)
        yield duration
    started = GaugeMetricFamily(
        "canary_exporter_start_time_seconds",
        "Unix time the exporter started (a first round that never completes is stale from here).",
    )
    started.add_metric([], snap.started_at)
    yield started
    build = GaugeMetricFamily("canary_exporter_build_info", "Build information.", labels=["version"])
    build.add_metric([__version__], 1)
    yield build
