"""Prometheus metrics of the receiver (names in docs/metrics.md): a custom collector over an immutable
snapshot, on a private registry, so a scrape never races a decision.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

from exporter.metrickit import counter, gauge, gauges
from exporter.receiver.recent import Recent
from exporter.receiver.state import Kind, Mode

ROUTE = ["model", "provider"]
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
    suspensions: tuple[tuple[str, str, str, int, float], ...]  # (model, provider, mode, rung, until)
    offense_levels: tuple[tuple[str, str, int], ...]
    incidents: tuple[tuple[str, str], ...]
    ignored: tuple[tuple[str, str, int], ...]  # (model, layer, count)
    counters: Counters
    holds: tuple[tuple[str, str], ...] = ()  # routes a lift holds
    recent: Recent = field(default_factory=Recent)  # floor-blocked routes and recent transitions


class ReceiverCollector(Collector):
    """Builds fresh metric families from the snapshot ``source()`` returns, on every scrape."""

    def __init__(self, source: Callable[[], MetricsSnapshot]) -> None:
        self._source = source

    def collect(self) -> Iterator[Metric]:
        snap = self._source()
        yield from gauges(
            [((m, p, mode), (rung, until)) for m, p, mode, rung, until in snap.suspensions],
            ["model", "provider", "mode"],
            [
                (
                    "canary_receiver_suspension_active",
                    "A current suspension (mode=observe: would-be, excludes nothing).",
                    lambda s: 1,
                ),
                (
                    "canary_receiver_suspension_until_timestamp_seconds",
                    "When the current suspension ends (Unix seconds).",
                    lambda s: s[1],
                ),
                (
                    "canary_receiver_suspension_rung",
                    "The ladder rung of the current suspension (1: first offense, 2: second, ...).",
                    lambda s: s[0],
                ),
            ],
        )
        yield gauge(
            "canary_receiver_offense_level",
            "Offenses that still count (not faded); the next offense gets the next rung.",
            [((m, p), n) for m, p, n in snap.offense_levels],
            ROUTE,
        )
        yield gauge(
            "canary_receiver_incident_active",
            "Admin incident exclusions in force.",
            [(route, 1) for route in snap.incidents],
            ROUTE,
        )
        yield gauge(
            "canary_receiver_lift_hold_active",
            "A lift that holds the route (no suspension) until a recovery alert or its until.",
            [(route, 1) for route in snap.holds],
            ROUTE,
        )
        yield gauge(
            "canary_receiver_ignored_providers",
            "Entries in the served ignore list per layer.",
            [((m, layer), n) for m, layer, n in snap.ignored],
            ["model", "layer"],
        )
        yield gauge(
            "canary_receiver_floor_blocked_decision",
            "A route whose suspension the capacity floor refuses, one series per failing contract and "
            "reason, while it stays blocked; the value is the latest floor_block decision's seq.",
            [
                ((b.model, b.provider, contract, reason, b.cause), b.seq)
                for _, b in sorted(snap.recent.blocked.items())
                for contract, reason in b.pairs
            ],
            [*ROUTE, "contract", "reason", "cause"],
        )
        yield gauge(
            "canary_receiver_transition_decision",
            "A quarantine transition of the last 30 minutes (kind: escalate, promote, lift, recover, "
            "expire, incident_add, incident_remove), one series per contract and reason the route was "
            "failing; the value is the decision's seq.",
            [
                ((t.model, t.provider, str(kind), t.cause, contract, reason), t.seq)
                for (_, kind), t in sorted(snap.recent.transitions.items())
                for contract, reason in t.pairs
            ],
            [*ROUTE, "kind", "cause", "contract", "reason"],
        )
        c = snap.counters
        yield counter(
            "canary_receiver_decisions", "Decisions recorded, by kind (since start).", c.decisions, ["kind"]
        )
        yield counter(
            "canary_receiver_floor_blocks",
            "Suspensions refused by the capacity floor.",
            c.floor_blocks,
            ["model"],
        )
        yield counter(
            "canary_receiver_webhook_requests", "Webhook deliveries by result.", c.webhook, ["result"]
        )
        hist = HistogramMetricFamily(
            "canary_receiver_store_write_seconds", "Durable write latency (append and fsync included)."
        )
        bounds = ["+Inf" if b == float("inf") else repr(b) for b in WRITE_BUCKETS]
        buckets = [(b, float(n)) for b, n in zip(bounds, c.write_buckets, strict=True)]
        hist.add_metric([], buckets, c.write_sum)
        yield hist
        yield gauge(
            "canary_receiver_mode",
            "The configured mode (1 on the active one).",
            [(str(m), 1 if m is snap.mode else 0) for m in Mode],
            ["mode"],
        )


def render(source: Callable[[], MetricsSnapshot]) -> bytes:
    """The text exposition of one scrape (a private registry per call keeps no global state)."""
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ReceiverCollector(source))
    return generate_latest(registry)
