"""The scheduled equality probe: a few completions per host per round, a sliding window, a verdict per round.

Opt-in (``equality.enabled``) and informational: it exports ``canary_equality_p_value``, ``_p_adjusted``,
``_outlier`` and ``_samples`` per (model, provider) for an *info* alert, and never suspends a host — a
distribution difference is a reason for a person to look, not proof of a defect (docs/equality.md).

After each round the monitor samples every host the round probed (``samples_per_round`` completions,
sequentially per host, prompts continuing round-robin per host, concurrency bounded as the rounds are), adds
them to the window, forgets routes that left discovery, and re-tests each model on what the window holds. A
failed sample is no sample. The collector renders the last verdicts; a route not yet testable has
``_samples`` but no p-value series.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from exporter.contracts.base import ProbeTarget
from exporter.engine.rounds import DEFAULT_CONCURRENCY, Gateway
from exporter.equality.compare import EqualityResult, compare_hosts
from exporter.equality.mmd import Sample
from exporter.equality.sampling import EqualitySettings, sample_host
from exporter.equality.window import DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_PER_HOST, EqualityWindow
from exporter.metrickit import gauge, gauges

log = logging.getLogger("exporter.equality")

DEFAULT_SAMPLES_PER_ROUND = 2
DEFAULT_ALPHA = 0.01


@dataclass(frozen=True, slots=True)
class EqualityProbeSettings:
    """The ``equality`` configuration section (defaults defined here, once)."""

    enabled: bool = False
    samples_per_round: int = DEFAULT_SAMPLES_PER_ROUND
    window_seconds: float = DEFAULT_MAX_AGE_SECONDS
    max_per_host: int = DEFAULT_MAX_PER_HOST
    alpha: float = DEFAULT_ALPHA
    sampling: EqualitySettings = field(default_factory=EqualitySettings)


@dataclass(frozen=True, slots=True)
class Verdicts:
    """The last verdicts: per model, every host's result, and when they were computed."""

    by_model: Mapping[str, tuple[EqualityResult, ...]] = field(default_factory=dict)
    updated_at: float | None = None
    # (model, provider) -> consecutive tests that flagged the host (the alert asks for two, as contracts do).
    outlier_streaks: Mapping[tuple[str, str], int] = field(default_factory=dict)


class EqualityMonitor(Collector):
    """Samples after each round and keeps the latest verdicts (swapped whole), which it renders as a
    Prometheus collector: ``collect`` reads them and never samples at scrape time."""

    def __init__(
        self,
        settings: EqualityProbeSettings,
        *,
        concurrency: int = DEFAULT_CONCURRENCY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self._concurrency = concurrency
        self._clock = clock
        self._window = EqualityWindow(settings.window_seconds, settings.max_per_host)
        self._next_prompt: dict[tuple[str, str], int] = {}
        self.verdicts = Verdicts()

    async def after_round(
        self, targets: Sequence[tuple[ProbeTarget, Gateway]], round_number: int
    ) -> Verdicts:
        """Sample ``targets`` (the hosts this round probed), then re-test every model they belong to."""
        limit = asyncio.Semaphore(self._concurrency)
        per_round = self.settings.samples_per_round

        async def one(target: ProbeTarget, gateway: Gateway) -> None:
            key = (target.model, target.provider)
            first = self._next_prompt.get(key, 0)
            async with limit:
                got = await sample_host(target, gateway, self.settings.sampling, per_round, first=first)
            self._next_prompt[key] = first + per_round
            self._window.add(target.model, target.provider, got.samples, self._clock())

        await asyncio.gather(*(one(t, g) for t, g in targets))
        models: dict[str, list[str]] = {}
        for target, _ in targets:
            models.setdefault(target.model, []).append(target.provider)
        now = self._clock()
        by_model: dict[str, tuple[EqualityResult, ...]] = {}
        streaks: dict[tuple[str, str], int] = {}
        for model, live in models.items():
            self._window.forget(model, live)
            for key in [k for k in self._next_prompt if k[0] == model and k[1] not in live]:
                del self._next_prompt[key]
            samples: dict[str, list[Sample]] = {provider: [] for provider in live}
            samples.update(self._window.samples(model, now))
            # The permutations run in a thread: a dozen hosts take a fraction of a second, off the loop.
            results = await asyncio.to_thread(
                compare_hosts,
                samples,
                alpha=self.settings.alpha,
                length=self.settings.sampling.length,
                permutations=self.settings.sampling.permutations,
                seed=round_number,
            )
            by_model[model] = tuple(results)
            for result in results:
                key = (model, result.provider)
                streaks[key] = self.verdicts.outlier_streaks.get(key, 0) + 1 if result.outlier else 0
                if result.outlier:
                    log.info(
                        "equality outlier model=%s provider=%s p_adjusted=%.2g samples=%d",
                        model,
                        result.provider,
                        result.p_adjusted or 0.0,
                        result.samples,
                    )
        self.verdicts = Verdicts(by_model, now, streaks)
        return self.verdicts

    def collect(self) -> Iterator[Metric]:
        return iter(equality_families(self.verdicts))


def equality_families(verdicts: Verdicts) -> list[Metric]:
    """The ``canary_equality_*`` families of ``verdicts`` (documented in docs/metrics.md); a host not yet
    testable has ``_samples`` and ``_outlier_streak`` but no p-value series."""
    cached = " Cached result of the last equality test, computed after a round."
    hosts = [
        ((model, r.provider), (r, verdicts.outlier_streaks.get((model, r.provider), 0)))
        for model, results in sorted(verdicts.by_model.items())
        for r in results
    ]
    table: list[tuple[str, str, Callable[[tuple[EqualityResult, int]], float | None]]] = [
        (
            "canary_equality_p_value",
            "Permutation p-value of the host's completions against its peers' (MMD).",
            lambda host: host[0].p_value,
        ),
        (
            "canary_equality_p_adjusted",
            "The p-value after Holm's correction across the model's hosts.",
            lambda host: host[0].p_adjusted,
        ),
        (
            "canary_equality_outlier",
            "1 when the host's output distribution differs from its peers' (informational, never suspends).",
            lambda host: None if host[0].p_value is None else float(host[0].outlier),
        ),
        (
            "canary_equality_outlier_streak",
            "Consecutive equality tests (one per round) that flagged the host as an outlier.",
            lambda host: host[1],
        ),
        (
            "canary_equality_samples",
            "The host's completions in the sliding window.",
            lambda host: host[0].samples,
        ),
    ]
    updated = gauge(
        "canary_equality_last_test_timestamp_seconds",
        "When the equality verdicts were last computed (unix).",
        () if verdicts.updated_at is None else verdicts.updated_at,
    )
    return [*gauges(hosts, ["model", "provider"], [(n, doc + cached, v) for n, doc, v in table]), updated]
