"""Prometheus metrics of the receiver (names in docs/metrics.md): a custom collector over an immutable
snapshot, on a private registry, so a scrape never races a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from exporter.receiver.state import Kind, Mode, Suspension

WEBHOOK_RESULTS = ("ok", "unauthorized", "bad_request", "too_large", "error")
WRITE_BUCKETS = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, float("inf"))


@dataclass(frozen=True, slots=True)
class Counters:
    """Process-lifetime counters (they restart at zero with the process, as Prometheus expects)."""

    decisions: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({str(k): 0 for k in Kind}))
    floor_blocks: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))
    webhook: Mapping[str, int] = field(
        default_factory=lambda: MappingProxyType(dict.fromkeys(WEBHOOK_RESULTS, 0))
    )
    write_buckets: tuple[int, ...] = (0,) * len(WRITE_BUCKETS)
    write_sum: float = 0.0

    def count_decisions(self, kinds: list[tuple[str, str | None]]) -> Counters:
        decisions, blocks = dict(self.decisions), dict(self.floor_blocks)
        for kind, model in kinds:
            decisions[kind] = decisions.get(kind, 0) + 1
            if kind == Kind.FLOOR_BLOCK and model is not None:
                blocks[model] = blocks.get(model, 0) + 1
        return replace(self, decisions=MappingProxyType(decisions), floor_blocks=MappingProxyType(blocks))

    def count_webhook(self, result: str) -> Counters:
        return replace(
            self, webhook=MappingProxyType({**self.webhook, result: self.webhook.get(result, 0) + 1})
        )

    def observe_write(self, seconds: float) -> Counters:
        buckets = tuple(
            n + (seconds <= bound) for n, bound in zip(self.write_buckets, WRITE_BUCKETS, strict=True)
        )
        return replace(self, write_buckets=buckets, write_sum=self.write_sum + seconds)


@dataclass(frozen=True, slots=True)
class MetricsSnapshot:
    mode: Mode
    suspensions: tuple[Suspension, ...]
    offense_levels: tuple[tuple[str, str, int], ...]
    incidents: tuple[tuple[str, str], ...]
    ignored: tuple[tuple[str, str, int], ...]  # (model, layer, count)
    counters: Counters
    holds: tuple[tuple[str, str], ...] = ()  # routes a lift holds


class ReceiverCollector(Collector):
    """Builds fresh metric families from the snapshot ``source()`` returns, on every scrape."""

    def __init__(self, source: Callable[[], MetricsSnapshot]) -> None:
        self._source = source

    def describe(self) -> Iterator[Metric]:
        return iter(())

    def collect(self) -> Iterator[Metric]:
        snap = self._source()
        active = GaugeMetricFamily(
            "canary_receiver_suspension_active",
            "A current suspension (mode=observe: would-be, excludes nothing).",
            labels=["model", "provider", "mode"],
        )
        until = GaugeMetricFamily(
            "canary_receiver_suspension_until_timestamp_seconds",
            "When the current suspension ends (Unix seconds).",
            labels=["model", "provider", "mode"],
        )
        rung = GaugeMetricFamily(
            "canary_receiver_suspension_rung",
            "The ladder rung of the current suspension (1: first offense, 2: second, ...).",
            labels=["model", "provider", "mode"],
        )
        for s in snap.suspensions:
            active.add_metric([s.model, s.provider, str(s.mode)], 1)
            until.add_metric([s.model, s.provider, str(s.mode)], s.until)
            rung.add_metric([s.model, s.provider, str(s.mode)], s.rung)
        yield active
        yield until
        yield rung
        level = GaugeMetricFamily(
            "canary_receiver_offense_level",
            "Offenses that still count (not faded); the next offense gets the next rung.",
            labels=["model", "provider"],
        )
        for model, provider, n in snap.offense_levels:
            level.add_metric([model, provider], n)
        yield level
        yield _routes(
            "canary_receiver_incident_active", "Admin incident exclusions in force.", snap.incidents
        )
        yield _routes(
            "canary_receiver_lift_hold_active",
            "A lift that holds the route (no suspension) until a recovery alert or its until.",
            snap.holds,
        )
        ignored = GaugeMetricFamily(
            "canary_receiver_ignored_providers",
            "Entries in the served ignore list per layer.",
            labels=["model", "layer"],
        )
        for model, layer, n in snap.ignored:
            ignored.add_metric([model, layer], n)
        yield ignored
        c = snap.counters
        decisions = CounterMetricFamily(
            "canary_receiver_decisions", "Decisions recorded, by kind (since start).", labels=["kind"]
        )
        for kind, n in sorted(c.decisions.items()):
            decisions.add_metric([kind], n)
        yield decisions
        blocks = CounterMetricFamily(
            "canary_receiver_floor_blocks", "Suspensions refused by the capacity floor.", labels=["model"]
        )
        for model, n in sorted(c.floor_blocks.items()):
            blocks.add_metric([model], n)
        yield blocks
        webhook = CounterMetricFamily(
            "canary_receiver_webhook_requests", "Webhook deliveries by result.", labels=["result"]
        )
        for result, n in sorted(c.webhook.items()):
            webhook.add_metric([result], n)
        yield webhook
        hist = HistogramMetricFamily(
            "canary_receiver_store_write_seconds", "Durable write latency (append and fsync included)."
        )
        buckets = [(_bound(b), float(n)) for b, n in zip(WRITE_BUCKETS, c.write_buckets, strict=True)]
        hist.add_metric([], buckets, c.write_sum)
        yield hist
        mode = GaugeMetricFamily(
            "canary_receiver_mode", "The configured mode (1 on the active one).", labels=["mode"]
        )
        for m in Mode:
            mode.add_metric([str(m)], 1 if m is snap.mode else 0)
        yield mode


def _routes(name: str, documentation: str, routes: tuple[tuple[str, str], ...]) -> GaugeMetricFamily:
    """A 0/1 gauge per (model, provider)."""
    family = GaugeMetricFamily(name, documentation, labels=["model", "provider"])
    for model, provider in routes:
        family.add_metric([model, provider], 1)
    return family


def _bound(b: float) -> str:
    return "+Inf" if b == float("inf") else repr(b)


def render(source: Callable[[], MetricsSnapshot]) -> bytes:
    """The text exposition of one scrape (a private registry per call keeps no global state)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ReceiverCollector(source))
    return generate_latest(registry)
