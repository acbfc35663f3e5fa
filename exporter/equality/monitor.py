"""The scheduled equality probe: a few completions per host per round, evidence accumulated sequentially.

Opt-in (``equality.enabled``) and informational: it exports, per (model, provider), what it measured
(``canary_equality_effect_bits``, ``_z``, ``_samples``) and decided (``_p_value``, ``_p_adjusted``,
``_outlier``) for an *info* alert, and never suspends a host — a distribution difference is a reason
for a person to look, not proof of a defect (docs/equality.md).

After each round the monitor samples every host the round probed (``samples_per_round`` completions,
sequentially per host, prompts continuing round-robin per host, concurrency bounded as the rounds are) and
adds them to the window. Then, per model: the trusted hosts are those not flagged in the current epoch;
a character n-gram scorer is fitted on their window (history and this round), and each host's new replies
are ranked against its trusted peers' new replies (``exporter.equality.sequential``: an always-valid
sequential test, Holm across hosts at every round). A flag holds until the epoch (``equality.window``)
ends; a new epoch starts from zero evidence. A failed sample is no sample. With fewer than
``MIN_PEERS`` trusted peers a host gets no evidence that round ("not enough peers").
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
from exporter.equality.compare import EqualityResult
from exporter.equality.config import EqualityConfig
from exporter.equality.sample import Sample
from exporter.equality.sampling import across_hosts, sample_host
from exporter.equality.sequential import Epoch
from exporter.equality.window import EqualityWindow
from exporter.metrickit import gauge, gauges

log = logging.getLogger("exporter.equality")


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
        settings: EqualityConfig,
        *,
        concurrency: int = DEFAULT_CONCURRENCY,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.settings = settings
        self._concurrency = concurrency
        self._clock = clock
        self._window = EqualityWindow(settings.window_seconds, settings.max_per_host)
        self._next_prompt: dict[tuple[str, str], int] = {}
        self._fresh: dict[tuple[str, str], list[Sample]] = {}  # this round's completions, per route
        self._epochs: dict[str, Epoch] = {}
        self.verdicts = Verdicts()

    async def after_round(
        self, targets: Sequence[tuple[ProbeTarget, Gateway]], round_number: int
    ) -> Verdicts:
        """Sample ``targets`` (the hosts this round probed), then re-test every model they belong to."""
        per_round = self.settings.samples_per_round

        async def one(target: ProbeTarget, gateway: Gateway) -> None:
            key = (target.model, target.provider)
            first = self._next_prompt.get(key, 0)
            got = await sample_host(target, gateway, self.settings, per_round, first=first)
            self._next_prompt[key] = first + per_round
            self._window.add(target.model, target.provider, got.samples, self._clock())
            self._fresh[key] = got.samples

        await across_hosts(targets, self._concurrency, one)
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
            epoch = self._epochs.get(model)
            if epoch is None or now - epoch.started >= self.settings.window_seconds:
                epoch = self._epochs[model] = Epoch(now)
            epoch.forget(live)
            history: dict[str, list[Sample]] = {provider: [] for provider in live}
            history.update(self._window.samples(model, now))
            new = {provider: self._fresh.pop((model, provider), []) for provider in live}
            # The scorer and the ranks run in a thread: a few dozen hosts take a fraction of a second.
            results = await asyncio.to_thread(epoch.look, history, new, self.settings.alpha)
            by_model[model] = tuple(results)
            for result in results:
                key = (model, result.provider)
                streaks[key] = self.verdicts.outlier_streaks.get(key, 0) + 1 if result.outlier else 0
                if result.outlier and streaks[key] == 1:
                    log.info(
                        "equality outlier model=%s provider=%s p_adjusted=%.2g effect=%.3f samples=%d",
                        model,
                        result.provider,
                        result.p_adjusted or 0.0,
                        result.effect or 0.0,
                        result.samples,
                    )
        self._fresh.clear()
        self.verdicts = Verdicts(by_model, now, streaks)
        return self.verdicts

    def collect(self) -> Iterator[Metric]:
        return iter(equality_families(self.verdicts))


def equality_families(verdicts: Verdicts) -> list[Metric]:
    """The ``canary_equality_*`` families of ``verdicts`` (documented in docs/metrics.md): one series per
    (model, provider) and family, for discovered routes only; a host without evidence yet has ``_samples``
    and ``_outlier_streak`` but no p-value, effect or z series."""
    cached = " Cached result of the last equality test, computed after a round."
    hosts = [
        ((model, r.provider), (r, verdicts.outlier_streaks.get((model, r.provider), 0)))
        for model, results in sorted(verdicts.by_model.items())
        for r in results
    ]
    table: list[tuple[str, str, Callable[[tuple[EqualityResult, int]], float | None]]] = [
        (
            "canary_equality_p_value",
            "Always-valid sequential p-value of the host's replies against its trusted peers' this epoch.",
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
            lambda host: None if host[0].p_value is None and not host[0].outlier else float(host[0].outlier),
        ),
        (
            "canary_equality_outlier_streak",
            "Consecutive equality tests (one per round) that flagged the host as an outlier.",
            lambda host: host[1],
        ),
        (
            "canary_equality_samples",
            "The host's completions that entered the test this epoch.",
            lambda host: host[0].samples,
        ),
        (
            "canary_equality_effect_bits",
            "Mean surprise of the host's replies minus its peers', bits/char (+: less like the pool)",
            lambda host: host[0].effect,
        ),
        (
            "canary_equality_z",
            "Standardised rank-sum statistic of the host against its peers, accumulated this epoch.",
            lambda host: host[0].z,
        ),
    ]
    updated = gauge(
        "canary_equality_last_test_timestamp_seconds",
        "When the equality verdicts were last computed (unix).",
        () if verdicts.updated_at is None else verdicts.updated_at,
    )
    return [*gauges(hosts, ["model", "provider"], [(n, doc + cached, v) for n, doc, v in table]), updated]
