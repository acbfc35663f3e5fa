"""The project's one RFC 3339 module: both precisions write what the call sites wrote before it existed."""

from __future__ import annotations

import doctest
import time
from datetime import UTC, datetime

import pytest

from exporter import timestamps
from exporter.timestamps import format_optional, format_rfc3339, parse_rfc3339

TIMES = [0.0, 60.5, 1_796_119_200.0, 1_796_119_200.123456, 1_796_119_259.9994, 253_402_300_799.0]


@pytest.mark.parametrize("seconds", TIMES)
def test_whole_seconds_are_truncated_like_the_engine_and_the_simulator_wrote_them(seconds: float) -> None:
    engine = datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    simulator = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(seconds)) + "Z"
    assert format_rfc3339(seconds, "seconds") == engine == simulator


def test_milliseconds_are_the_receivers_wire_format_and_read_back() -> None:
    assert format_rfc3339(1_796_119_259.9994) == "2026-12-01T10:00:59.999Z"
    assert format_rfc3339(0.0) == "1970-01-01T00:00:00.000Z"
    assert parse_rfc3339(format_rfc3339(1_796_119_200.123)) == pytest.approx(1_796_119_200.123)
    assert format_optional(None) is None and format_optional(0.0, "seconds") == "1970-01-01T00:00:00Z"


def test_an_offset_is_required_unless_the_source_writes_utc_without_one() -> None:
    with pytest.raises(ValueError, match="the offset, Z or \\+01:00, is required"):
        parse_rfc3339("2026-12-01T10:00:00")
    assert parse_rfc3339("2026-12-01T10:00:00", assume_utc=True) == 1_796_119_200.0
    assert parse_rfc3339("2026-12-01", assume_utc=True) == 1_796_083_200.0
    assert parse_rfc3339("2026-12-01T11:00:00+01:00", assume_utc=True) == 1_796_119_200.0
    with pytest.raises(ValueError, match="out of range"):
        parse_rfc3339("1969-12-31T23:59:59", assume_utc=True)


def test_docstring_examples() -> None:
    assert doctest.testmod(timestamps).failed == 0
