"""The router's own metrics, for the product's Prometheus registry (needs ``prometheus-client``: the
``router-judges`` extra installs it; the base router client does not import this module).

One custom collector reads the router's counters at scrape time (no work on the request path)::

    from prometheus_client import REGISTRY
    REGISTRY.register(RouterCollector(observer, lists=ignore_lists, live=judges))

Labels are bounded: models are the ones the product routes, providers are capped per model by the live
judges (``exporter.router.live``), and nothing else (no user, no generation id) becomes a label.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily
from prometheus_client.registry import Collector

from exporter.metrickit import counter, gauge
from exporter.router.client import IgnoreListClient
from exporter.router.observe import Observer

if TYPE_CHECKING:
    from exporter.router.live import LiveJudges

STATUSES = ("ok", "stale", "cold")


class RouterCollector(Collector):
    """Journal, observer, ignore-list and live-verdict metrics of one router process."""

    def __init__(
        self, observer: Observer, *, lists: IgnoreListClient | None = None, live: LiveJudges | None = None
    ) -> None:
        self.observer = observer
        self.lists = lists if lists is not None else observer.lists
        self.live = live if live is not None else getattr(observer, "live", None)

    def collect(self) -> Iterator[CounterMetricFamily | GaugeMetricFamily]:
        seen = self.observer.stats()
        yield counter(
            "canary_router_replies",
            "Replies the router's transport saw end, by what became of them: observed (journaled and offered "
            "to the live judges), dropped (the observer's queue was full), cut (longer than the per-reply "
            "limit: journaled, not judged), unparsed (a chat request body that could not be read).",
            {
                ("observed",): seen.observed,
                ("dropped",): seen.dropped,
                ("cut",): seen.cut,
                ("unparsed",): seen.unparsed,
            },
            labels=("result",),
        )
        journal = self.observer.journal
        if journal is not None:
            stats = journal.stats()
            yield counter(
                "canary_router_journal_records",
                "Served-route journal records by result: written, dropped (queue full or journal stopped), "
                "failed (the store refused them). A drop never fails or slows a request.",
                {("written",): stats.written, ("dropped",): stats.dropped, ("failed",): stats.failed},
                labels=("result",),
            )
            yield gauge("canary_router_journal_queue", "Journal records waiting to be written.", stats.queued)
            yield gauge(
                "canary_router_journal_healthy",
                "1 when the journal's store is open and its last write succeeded, else 0.",
                float(stats.healthy),
            )
        if self.lists is not None:
            lists = self.lists
            yield gauge(
                "canary_router_ignore_list_status",
                "1 for each model's ignore-list state: ok (fresh), stale (the last good list, older than "
                "stale_after: the receiver is unreachable) or cold (never fetched since start: the built-in "
                "exclusions only). Anything but ok is degraded.",
                {(m, s): float(lists.status(m) == s) for m in lists.models for s in STATUSES},
                labels=("model", "status"),
            )
            yield gauge(
                "canary_router_ignore_list_tags",
                "How many hosts the router's ignore list for the model excludes right now.",
                {(m,): float(len(lists.ignored(m))) for m in lists.models},
                labels=("model",),
            )
        live = self.live
        if live is not None and hasattr(live, "counts"):
            yield counter(
                "canary_router_live_outcomes",
                "Live verdicts: the probes' judges on the product's real replies, in the router's process, "
                "by model, provider (the serving endpoint's tag, or its display name), contract (ttft, "
                "reply, language, structured), outcome and reason. Content is never exported.",
                live.counts(),
                labels=("model", "provider", "contract", "outcome", "reason"),
            )
            yield counter(
                "canary_router_live_replies",
                "Replies offered to the live judges, by result: judged, or dropped (the judges' queue was "
                "full).",
                {("judged",): live.judged(), ("dropped",): live.dropped()},
                labels=("result",),
            )
            yield gauge("canary_router_live_queue", "Replies waiting for the live judges.", live.queued())
