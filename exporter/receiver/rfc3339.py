"""RFC 3339 timestamps as Unix seconds: the one parser and formatter the receiver uses.

Alertmanager and Grafana write Go timestamps (``2026-11-29T15:41:37.58Z``, up to nine fractional digits,
``Z`` or a numeric offset); the receiver keeps Unix seconds internally and writes UTC with ``Z``.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

_RFC3339 = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|z|[+-]\d{2}:\d{2})"
)


def parse_rfc3339(text: str) -> float:
    """Unix seconds from an RFC 3339 timestamp; raises ValueError with what was expected.

    >>> parse_rfc3339("1970-01-01T00:01:00.5Z")
    60.5
    """
    m = _RFC3339.fullmatch(text.strip()) if isinstance(text, str) else None
    if m is None:
        raise ValueError("expected an RFC 3339 timestamp such as 2026-11-29T15:41:37Z")
    year, month, day, hour, minute, second = (int(g) for g in m.groups()[:6])
    fraction = (m.group(7) or "0")[:6].ljust(6, "0")
    zone = m.group(8)
    if zone in ("Z", "z"):
        tz = UTC
    else:
        sign = 1 if zone[0] == "+" else -1
        tz = timezone(sign * timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6])))
    try:
        stamp = datetime(year, month, day, hour, minute, second, int(fraction), tzinfo=tz)
    except ValueError as exc:
        raise ValueError(f"not a valid date or time ({exc})") from None
    return stamp.timestamp()


def format_rfc3339(seconds: float) -> str:
    """UTC RFC 3339 with millisecond precision.

    >>> format_rfc3339(60.5)
    '1970-01-01T00:01:00.500Z'
    """
    stamp = datetime.fromtimestamp(seconds, tz=UTC)
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def format_optional(seconds: float | None) -> str | None:
    """``format_rfc3339`` that passes ``None`` through (for "no expiry")."""
    return None if seconds is None else format_rfc3339(seconds)
