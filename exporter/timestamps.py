"""RFC 3339 timestamps as Unix seconds: the project's one parser, formatter and model field type.

Alertmanager and Grafana write Go timestamps (``2026-11-29T15:41:37.58Z``, up to nine fractional digits,
``Z`` or a numeric offset); Python's ``datetime.fromisoformat`` reads them. On top of it: ASCII digits
only (``fromisoformat`` is not the place to learn that Arabic-Indic digits are digits), an offset is
required, and only instants from 1970 to 9999 (UTC) are accepted, so every parsed value formats again.
``Timestamp`` is the same rule as a pydantic field type (``format: date-time`` in the OpenAPI document);
``TimeText`` is an instant a response sends.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Annotated, Literal

from pydantic import BeforeValidator, PlainSerializer, PlainValidator, WithJsonSchema
from pydantic_core import PydanticCustomError

from exporter.web.models import kind

#: The accepted range of instants (UTC): ``MIN_SECONDS <= t < MAX_SECONDS``, years 1970 to 9999.
MIN_SECONDS = 0.0
MAX_SECONDS = 253_402_300_800.0  # 10000-01-01T00:00:00Z
_EXPECTED = "expected an RFC 3339 timestamp such as 2026-11-29T15:41:37Z"


def parse_rfc3339(text: str, *, assume_utc: bool = False) -> float:
    """Unix seconds from an RFC 3339 timestamp; raises ValueError with what was expected.

    ``assume_utc`` reads a time without an offset (or a bare date) as UTC, for sources that write them so
    (the gateway's listings); otherwise the offset is required.

    >>> parse_rfc3339("1970-01-01T00:01:00.5Z"), parse_rfc3339("1970-01-01t01:01:00.123456789+01:00")
    (60.5, 60.123456)
    >>> parse_rfc3339("9999-12-31T23:59:59-01:00")
    Traceback (most recent call last):
    ValueError: out of range: the instant in UTC must be in the years 1970 to 9999
    """
    text = text.strip(" ") if isinstance(text, str) else ""
    if not text.isascii():  # ASCII digits only: int() and fromisoformat would take other Unicode digits
        raise ValueError(_EXPECTED)
    try:
        stamp = datetime.fromisoformat(text.upper())
    except ValueError:
        raise ValueError(_EXPECTED) from None
    if stamp.tzinfo is None and assume_utc:
        stamp = stamp.replace(tzinfo=UTC)
    elif stamp.tzinfo is None:
        raise ValueError(f"{_EXPECTED} (the offset, Z or +01:00, is required)")
    try:
        seconds = stamp.timestamp()
    except (OverflowError, ValueError):
        seconds = -1.0
    if not in_range(seconds):
        raise ValueError("out of range: the instant in UTC must be in the years 1970 to 9999")
    return seconds


def in_range(seconds: float) -> bool:
    """Whether ``seconds`` is an instant the receiver accepts and can format (UTC years 1970 to 9999).

    >>> in_range(0.0), in_range(253_402_300_800.0)
    (True, False)
    """
    return MIN_SECONDS <= seconds < MAX_SECONDS


_UNIX = re.compile(r"[0-9]{1,12}(?:\.[0-9]{1,9})?")
INSTANT_WHAT = "an RFC 3339 time such as 2026-11-30T21:10:00Z, or unix seconds"


def parse_instant(text: str) -> float:
    """Unix seconds from an RFC 3339 time or a number of unix seconds (what people type for a time: query
    parameters, command-line flags); ValueError says what was expected.

    >>> parse_instant("2026-11-30T21:10:00Z"), parse_instant("60.5")
    (1796073000.0, 60.5)
    """
    text = text.strip()
    if _UNIX.fullmatch(text):
        seconds = float(text)
        if in_range(seconds):
            return seconds
    try:
        return parse_rfc3339(text)
    except ValueError:
        raise ValueError(f"expected {INSTANT_WHAT}, got {text!r}") from None


def format_rfc3339(seconds: float, precision: Literal["seconds", "milliseconds"] = "milliseconds") -> str:
    """UTC RFC 3339 with millisecond (or whole-second) precision, truncated.

    >>> format_rfc3339(60.5), format_rfc3339(60.5, "seconds")
    ('1970-01-01T00:01:00.500Z', '1970-01-01T00:01:00Z')
    """
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec=precision).replace("+00:00", "Z")


def format_optional(
    seconds: float | None, precision: Literal["seconds", "milliseconds"] = "milliseconds"
) -> str | None:
    """``format_rfc3339`` that passes ``None`` through (for "no expiry")."""
    return None if seconds is None else format_rfc3339(seconds, precision)


def _validate(value: object) -> float:
    if not isinstance(value, str):
        raise PydanticCustomError(
            "rfc3339_type", "expected an RFC 3339 string, got {got}", {"got": kind(value)}
        )
    try:
        return parse_rfc3339(value)
    except ValueError as exc:
        raise PydanticCustomError(
            "rfc3339", "{why}, got {got}", {"why": str(exc), "got": repr(value)}
        ) from None


#: The JSON schema of an accepted timestamp: a date-time whose year is 1971 to 9998, so that whatever the
#: offset the instant is in range (a subset of what is accepted: 1970 and 9999 are, within range, too).
SCHEMA = {
    "type": "string",
    "format": "date-time",
    "pattern": r"^(197[1-9]|19[89][0-9]|[2-8][0-9]{3}|9[0-8][0-9]{2}|99[0-8][0-9]|999[0-8])-",
    "description": "RFC 3339 with an offset (Z or +01:00), UTC years 1970 to 9999",
}
#: A model field holding an RFC 3339 instant as Unix seconds (input: the string; schema: ``SCHEMA``).
Timestamp = Annotated[float, PlainValidator(_validate), WithJsonSchema(SCHEMA)]
#: An instant in a response: Unix seconds in the code, RFC 3339 text (``format_rfc3339``) on the wire, read
#: back from it by a client.
TimeText = Annotated[
    float,
    BeforeValidator(lambda v: parse_rfc3339(v) if isinstance(v, str) else v),
    PlainSerializer(format_rfc3339, return_type=str),
    WithJsonSchema({"type": "string", "format": "date-time"}),
]
