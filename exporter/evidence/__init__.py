"""The evidence history: every probe attempt with its judge's proof, kept in a bounded embedded store."""

from __future__ import annotations

from exporter.evidence.store import (
    EVIDENCE_JSON_MAX_BYTES,
    EXCERPT_MAX_BYTES,
    EvidencePage,
    EvidenceRecord,
    EvidenceStore,
    bounded_excerpt,
)

__all__ = [
    "EVIDENCE_JSON_MAX_BYTES",
    "EXCERPT_MAX_BYTES",
    "EvidencePage",
    "EvidenceRecord",
    "EvidenceStore",
    "bounded_excerpt",
]
