"""RFC 3339 timestamps as Unix seconds: the one parser and formatter the receiver uses.

Alertmanager and Grafana write Go timestamps (``2026-11-29T15:41:37.58Z``, up to nine fractional digits,
``Z`` or a numeric offset); the receiver keeps Unix seconds internally and writes UTC with ``Z``. Only
instants from 1970 to 9999 (UTC) are accepted, so every parsed value can be formatted again.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone

#: The accepted range of instants (UTC): ``MIN_SECONDS <= t < MAX_SECONDS``, years 1970 to 9999.
MIN_SECONDS = 0.0
MAX_SECONDS = 253_402_300_800.0  # 10000-01-01T00:00:00Z

_RFC3339 = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt ]([0-9]{2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]{1,9}))?"
    r"(Z|z|[+-][0-9]{2}:[0-9]{2})",
    re.ASCII,  # ASCII digits only: \d would also take Arabic-Indic and other Unicode digits
)


def parse_rfc3339(text: str) -> float:
    """Unix seconds from an RFC 3339 timestamp; raises ValueError with what was expected.

    >>> parse_rfc3339("1970-01-01T00:01:00.5Z")
    60.5
    >>> parse_rfc3339("9999-12-31T23:59:59-01:00")
    Traceback (most recent call last):
    ValueError: out of range: the instant in UTC must be in the years 1970 to 9999
    """
    m = _RFC3339.fullmatch(text.strip(" ")) if isinstance(text, str) else None
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
    seconds = stamp.timestamp()
    if not in_range(seconds):
        raise ValueError("out of range: the instant in UTC must be in the years 1970 to 9999")
    return seconds


def in_range(seconds: float) -> bool:
    """Whether ``seconds`` is an instant the receiver accepts and can format (UTC years 1970 to 9999).

    >>> in_range(0.0), in_range(253_402_300_800.0)
    (True, False)
    """
    return MIN_SECONDS <= seconds < MAX_SECONDS


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
