"""The exporter's Prometheus collector: fresh metric families from the current immutable snapshot.

Names and labels are the contract in ``docs/metrics.md``. Round results are cached between rounds (probes
cost money); ``canary_round_last_completed_timestamp_seconds`` tells their age.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator

from prometheus_client.core import HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from exporter import __version__
from exporter.engine.snapshot import Snapshot
from exporter.metrickit import counter, gauge
from exporter.outcomes import Outcome

CACHED = " Cached result of the last completed probe round."


class SnapshotCollector(Collector):
    """Renders whatever snapshot ``current()`` returns; never probes at scrape time."""

    def __init__(self, current: Callable[[], Snapshot]):
        self._current = current

    def collect(self) -> Iterator[Metric]:
        started = time.perf_counter()
        snap = self._current()
        yield from _probe_families(snap)
        yield from _endpoint_families(snap)
        yield from _round_families(snap)
        yield gauge(
            "canary_exporter_collect_seconds",
            "Time spent rendering the snapshot for this scrape.",
            time.perf_counter() - started,
        )


def _probe_families(snap: Snapshot) -> Iterator[Metric]:
    route = ["model", "provider"]
    yield counter(
        "canary_probe_outcomes",
        "Probes by judged outcome; reason is a closed set." + CACHED,
        snap.outcome_counts,
        [*route, "contract", "outcome", "reason"],
    )
    yield counter(
        "canary_probe_language_outcomes",
        "Language-contract attempts that did not pass, by locale, outcome and reason (passes per locale: "
        "the evidence store)." + CACHED,
        snap.locale_counts,
        [*route, "locale", "outcome", "reason"],
    )
    results = [
        (model, provider, contract, result)
        for (model, provider), by_contract in sorted(snap.last_results().items())
        for contract, result in sorted(by_contract.items())
    ]
    # One series per contract rather than a 0/1 series per outcome: 8x fewer series at 1000 hosts, and
    # `canary_probe_last_outcome{outcome="fail"}` selects the same routes either way.
    yield gauge(
        "canary_probe_last_outcome",
        "The outcome of the last round for this contract (one series, value 1; the outcome label changes)."
        + CACHED,
        [((m, p, c, r.outcome.value), 1) for m, p, c, r in results],
        [*route, "contract", "outcome"],
    )
    yield gauge(
        "canary_probe_last_failure_reason",
        "1 while the last round's outcome for this contract is fail; reason is a closed set (present only "
        "then). The suspend alert's failing_reasons annotation reads it." + CACHED,
        [((m, p, c, r.reason.value), 1) for m, p, c, r in results if r.outcome is Outcome.FAIL],
        [*route, "contract", "reason"],
    )
    yield gauge(
        "canary_probe_failing_streak",
        "Consecutive failing rounds; transport and other non-evidence outcomes freeze it." + CACHED,
        snap.streaks.failing,
        [*route, "contract"],
    )
    yield gauge(
        "canary_probe_failing_since_timestamp_seconds",
        "Unix start time (whole seconds, rounded down) of the round the current failing streak began in; "
        "present while the streak is above 0. The suspend alert's evidence link starts there." + CACHED,
        [(key, math.floor(at)) for key, at in snap.streaks.failing_since.items()],
        [*route, "contract"],
    )
    yield gauge(
        "canary_probe_clean_streak",
        "Consecutive clean rounds (every contract that ran passed, none weak)." + CACHED,
        snap.streaks.clean,
        route,
    )
    weak_now = snap.last_round.weak if snap.last_round is not None else {}
    contracts = sorted({c for by in snap.last_results().values() for c in by})
    yield gauge(
        "canary_probe_weak",
        "1 when the contract's positive control was not rejected this round (its passes are not evidence)."
        + CACHED,
        [((m, c), float((m, c) in weak_now)) for m in sorted(snap.endpoints) for c in contracts],
        ["model", "contract"],
    )
    ttft = HistogramMetricFamily(
        "canary_probe_ttft_seconds",
        "Time from sending the request to the first visible token (TTFT probe), every host of the model."
        + CACHED,
        labels=["model"],
    )
    for model, hist in sorted(snap.ttft.items()):
        ttft.add_metric([model], hist.cumulative(), hist.total)
    yield ttft
    # One series per host, not a histogram per host: quantile_over_time() of it gives a host's percentiles
    # over the rounds in a window (one TTFT probe per host per round), at 1 series instead of 17.
    yield gauge(
        "canary_probe_ttft_last_seconds",
        "The host's time to first visible token in the last round (absent when that round observed none)."
        + CACHED,
        snap.ttft_last,
        route,
    )
    yield counter(
        "canary_probe_ttft_timeouts",
        "TTFT probes with no visible token within the threshold (not in the histogram: they have no TTFT).",
        snap.ttft_timeouts,
        route,
    )
    yield counter(
        "canary_probe_tokens",
        "Tokens spent on probes of the model, from the gateway's usage fields (per host: evidence store).",
        snap.tokens,
        ["model", "kind"],
    )
    yield counter(
        "canary_probe_cost_usd", "USD spent on probes (the gateway's usage.cost).", snap.cost_usd, route
    )


def _endpoint_families(snap: Snapshot) -> Iterator[Metric]:
    endpoints = [(model, e) for model, listed in sorted(snap.endpoints.items()) for e in listed]
    yield gauge(
        "canary_endpoint_info",
        "Discovered endpoint metadata (information, never a verdict).",
        [((m, e.tag, e.provider_name, e.quantization or "unknown"), 1) for m, e in endpoints],
        ["model", "provider", "provider_name", "quantization"],
    )
    yield gauge(
        "canary_endpoint_listed_status",
        "The gateway's listed endpoint status (0 healthy, negative degraded; information only).",
        [((m, e.tag), e.status) for m, e in endpoints if e.status is not None],
        ["model", "provider"],
    )
    yield gauge(
        "canary_endpoint_uptime_ratio",
        "The gateway's listed 30-minute uptime as a ratio 0..1 (information only).",
        [((m, e.tag), e.uptime_last_30m / 100.0) for m, e in endpoints if e.uptime_last_30m is not None],
        ["model", "provider"],
    )
    yield gauge(
        "canary_model_providers",
        "Endpoints discovered for the model in the last round.",
        {model: len(listed) for model, listed in snap.endpoints.items()},
        ["model"],
    )
    yield counter(
        "canary_discovery_failures",
        "Discovery failures (the previous list is reused).",
        snap.discovery_failures,
        ["model"],
    )
    # 1 while the last round's discovery of the model failed: "discovery is failing now" for the
    # global-outage rule, which a counter cannot tell without knowing the round interval.
    failed_now = snap.last_round.discovery_errors if snap.last_round is not None else {}
    yield gauge(
        "canary_discovery_failing",
        "1 when the last round's endpoint discovery failed for the model (the previous list is reused).",
        {model: int(model in failed_now) for model in set(snap.endpoints) | set(snap.discovery_failures)},
        ["model"],
    )


def _round_families(snap: Snapshot) -> Iterator[Metric]:
    yield counter("canary_rounds", "Completed probe rounds.", snap.rounds_total)
    yield gauge(
        "canary_round_interval_seconds", "Configured period between probe rounds.", snap.interval_seconds
    )
    if snap.completed_at is not None and snap.last_round is not None:
        yield gauge(
            "canary_round_last_completed_timestamp_seconds",
            "Unix time the last probe round completed.",
            snap.completed_at,
        )
        yield gauge(
            "canary_round_duration_seconds",
            "Wall time of the last completed round.",
            snap.last_round.duration_seconds,
        )
    yield gauge(
        "canary_exporter_start_time_seconds",
        "Unix time the exporter started (a first round that never completes is stale from here).",
        snap.started_at,
    )
    yield gauge("canary_exporter_build_info", "Build information.", {__version__: 1}, ["version"])
