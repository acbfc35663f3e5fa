"""The evidence store's own health as Prometheus families (write errors by kind, records written)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import CounterMetricFamily, Metric
from prometheus_client.registry import Collector

from exporter.evidence.store import ERROR_KINDS, EvidenceStore


class EvidenceCollector(Collector):
    """Reads the store's counters at scrape time (they are plain integers; no store I/O)."""

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store

    def describe(self) -> Iterator[Metric]:
        return iter(())

    def collect(self) -> Iterator[Metric]:
        errors = CounterMetricFamily(
            "canary_evidence_write_errors",
            "Evidence-store failures by kind; probing goes on, the affected records are dropped.",
            labels=["kind"],
        )
        counts = self._store.write_errors()
        for kind in ERROR_KINDS:
            errors.add_metric([kind], counts.get(kind, 0))
        yield errors
        written = CounterMetricFamily(
            "canary_evidence_records", "Probe attempts written to the evidence store."
        )
        written.add_metric([], self._store.records_written)
        yield written
