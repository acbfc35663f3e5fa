"""The evidence store's own health as Prometheus families (write errors by kind, records written)."""

from __future__ import annotations

from collections.abc import Iterator

from prometheus_client.core import Metric
from prometheus_client.registry import Collector

from exporter.evidence.store import ERROR_KINDS, EvidenceStore
from exporter.metrickit import counter


class EvidenceCollector(Collector):
    """Reads the store's counters at scrape time (they are plain integers; no store I/O)."""

    def __init__(self, store: EvidenceStore) -> None:
        self._store = store

    def collect(self) -> Iterator[Metric]:
        counts = self._store.write_errors()
        yield counter(
            "canary_evidence_write_errors",
            "Evidence-store failures by kind; probing goes on, the affected records are dropped.",
            [(kind, counts.get(kind, 0)) for kind in ERROR_KINDS],
            ["kind"],
        )
        yield counter(
            "canary_evidence_records",
            "Probe attempts written to the evidence store.",
            self._store.records_written,
        )
