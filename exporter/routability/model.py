"""Values of the routability job: statuses, one observation, one persisted row, a pass's aggregate counts.

A row changes only through ``observe`` (a real completion was attempted) or ``note_listed`` (the gateway's
own endpoint listing, a separate and cheaper signal that never changes ``status``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum

from exporter.outcomes import Reason


class Status(StrEnum):
    """Routability of one model slug (design.md §10)."""

    UNKNOWN = "unknown"  # never observed
    HEALTHY = "healthy"  # a minimal real completion succeeded
    DEGRADED = "degraded"  # the probe failed without establishing that the model is gone
    UNAVAILABLE = "unavailable"  # the execution endpoint explicitly said the model is absent


class Source(StrEnum):
    """Where the probe went."""

    GATEWAY = "gateway"
    DIRECT = "direct"


@dataclass(frozen=True, slots=True)
class Verdict:
    """The classified result of one probe attempt; ``note`` is human text (logs, read API), never a label."""

    status: Status
    reason: Reason = Reason.NONE
    note: str = ""
    http_status: int | None = None


@dataclass(frozen=True, slots=True)
class ListedSignal:
    """The gateway's own endpoint listing for a model: information only, never a substitute for a probe.

    ``endpoints`` is how many endpoints are listed, ``healthy_endpoints`` how many have listed status 0,
    ``best_uptime_30m`` the highest listed 30-minute uptime in percent (None when nothing is listed).
    """

    checked_at: float
    endpoints: int
    healthy_endpoints: int
    best_uptime_30m: float | None = None


@dataclass(frozen=True, slots=True)
class RoutabilityRow:
    """The persisted state of one model slug.

    Example::

        >>> row = RoutabilityRow("acme/chat-1")
        >>> row.status, row.consecutive_failures
        (<Status.UNKNOWN: 'unknown'>, 0)
    """

    slug: str
    status: Status = Status.UNKNOWN
    last_check: float | None = None  # unix seconds of the last probe attempt
    source: Source | None = None
    note: str = ""
    consecutive_failures: int = 0  # consecutive probes that were not healthy
    reason: Reason = Reason.NONE
    http_status: int | None = None
    last_healthy: float | None = None
    listed: ListedSignal | None = None

    def age_seconds(self, now: float) -> float | None:
        """Seconds since the last probe, or None if never probed."""
        return None if self.last_check is None else max(0.0, now - self.last_check)


def observe(row: RoutabilityRow, verdict: Verdict, source: Source, now: float) -> RoutabilityRow:
    """The row after one probe attempt.

    Example::

        >>> verdict = Verdict(Status.DEGRADED, Reason.RATE_LIMITED)
        >>> row = observe(RoutabilityRow("a/b"), verdict, Source.GATEWAY, 10.0)
        >>> row.status, row.consecutive_failures, row.last_check
        (<Status.DEGRADED: 'degraded'>, 1, 10.0)
    """
    healthy = verdict.status is Status.HEALTHY
    return replace(
        row,
        status=verdict.status,
        last_check=now,
        source=source,
        note=verdict.note,
        consecutive_failures=0 if healthy else row.consecutive_failures + 1,
        reason=verdict.reason,
        http_status=verdict.http_status,
        last_healthy=now if healthy else row.last_healthy,
    )


def note_listed(row: RoutabilityRow, listed: ListedSignal) -> RoutabilityRow:
    """The row with a fresh listed-endpoint signal; status, note and failure count are untouched."""
    return replace(row, listed=listed)


@dataclass(frozen=True, slots=True)
class PassSummary:
    """Aggregate counts of one pass (what the trigger endpoint returns: counts only, no per-model detail)."""

    started_at: float
    finished_at: float
    probed: int  # completions attempted
    skipped: int  # targets with no gateway listing and no direct route
    results: dict[str, int] = field(default_factory=dict)  # this pass's probes by resulting status
    catalogue_listed: bool = True  # False when the catalogue listing failed and the last one was reused
    prompt_tokens: int = 0  # spent by this pass's completions, from the replies' usage
    completion_tokens: int = 0
    cost_usd: float = 0.0  # usage.cost (OpenRouter credits, USD) summed over the pass

    def __post_init__(self) -> None:  # every probed status counted, zero included
        results = {s.value: self.results.get(s.value, 0) for s in Status if s is not Status.UNKNOWN}
        object.__setattr__(self, "results", results)

    def to_json(self) -> dict[str, object]:
        """The stored form (and what the trigger answers)."""
        return asdict(self)


def count_by_status(rows: Iterable[RoutabilityRow]) -> dict[str, int]:
    """Rows per status, every status present (zero included)."""
    counts = {s.value: 0 for s in Status}
    for row in rows:
        counts[row.status.value] += 1
    return counts
