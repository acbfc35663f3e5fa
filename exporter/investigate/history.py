"""Reading the evidence history for ``--from-history`` and ``trace``, and the times users type for them.

Only first attempts count for the comparison: a round sends confirmations (attempts 2..) only after a
fail, so counting them would weigh a host's failures more than its passes. Investigate samples are all
first attempts. Reads are paged and bounded (``MAX_RECORDS``): a report never loads an unbounded history.

Times (``--from-history SINCE``, ``trace --at TIME``): an RFC 3339 instant (``2026-11-30T21:10:00Z``), unix
seconds (``1796245800``), or, for SINCE, a duration back from now (``6h``, ``2d``).
"""

from __future__ import annotations

from collections.abc import Iterator

from exporter.configkit import parse_duration
from exporter.evidence.store import QUERY_MAX_LIMIT, EvidenceRecord, EvidenceStore
from exporter.timestamps import INSTANT_WHAT, in_range, parse_instant

MAX_RECORDS = 200_000  # about 100 hosts x 4 contracts x 500 samples: the most a report reads


def parse_since(text: str, now: float) -> float:
    """Like ``parse_instant``, and also a duration back from ``now`` (``6h``: the last six hours).

    >>> parse_since("1h", now=7200.0)
    3600.0
    """
    try:
        return parse_instant(text)
    except ValueError:
        pass
    try:
        seconds = parse_duration(text.strip())
    except ValueError:
        raise ValueError(f"expected a duration such as 6h or 2d, or {INSTANT_WHAT}, got {text!r}") from None
    if seconds <= 0 or not in_range(now - seconds):
        raise ValueError(f"expected a positive duration that starts after 1970, got {text!r}")
    return now - seconds


def records(
    store: EvidenceStore,
    *,
    model: str,
    since: float,
    until: float | None = None,
    limit: int = MAX_RECORDS,
) -> Iterator[EvidenceRecord]:
    """The history's records of ``model`` in ``[since, until)``, newest first, at most ``limit`` of them."""
    cursor: str | None = None
    seen = 0
    while seen < limit:
        page = store.query(
            model=model, since=since, until=until,
            limit=min(QUERY_MAX_LIMIT, limit - seen), cursor=cursor,
        )  # fmt: skip
        yield from page.records
        seen += len(page.records)
        if page.next_cursor is None:
            return
        cursor = page.next_cursor
