"""When the next scheduled routability pass is due: daily at a UTC time of day (cron-style, default 05:00),
or a fixed interval after the last pass. Pure: the clock is passed in.

Example::

    >>> s = parse_schedule("05:00")
    >>> next_due(s, last_finished=1_800_000_000.0, now=1_800_000_100.0) % 86400 / 3600
    5.0
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from exporter.configkit import parse_duration

DAY = 86400.0
_TIME_OF_DAY = re.compile(r"(?P<h>[01]?\d|2[0-3]):(?P<m>[0-5]\d)")
MIN_INTERVAL_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Schedule:
    """Daily at ``at_minute`` minutes past midnight UTC, or every ``interval`` seconds (one of them)."""

    at_minute: int | None = 5 * 60
    interval: float | None = None

    def describe(self) -> str:
        if self.interval is not None:
            return f"every {self.interval:g}s after the last pass"
        minute = self.at_minute or 0
        return f"daily at {minute // 60:02d}:{minute % 60:02d} UTC"

    @property
    def retry_seconds(self) -> float:
        """How long to wait after a pass that crashed before trying again."""
        return min(self.interval if self.interval is not None else DAY, 300.0)


DEFAULT_SCHEDULE = Schedule()


def parse_schedule(value: object) -> Schedule:
    """``"HH:MM"`` (UTC time of day) or a duration (``6h``, at least 60 s); raises ValueError saying what is
    expected."""
    if isinstance(value, str) and (m := _TIME_OF_DAY.fullmatch(value.strip())):
        return Schedule(at_minute=int(m["h"]) * 60 + int(m["m"]))
    try:
        seconds = parse_duration(value)
    except ValueError:
        raise ValueError("expected a UTC time of day such as 05:00, or a duration such as 1d") from None
    if seconds < MIN_INTERVAL_SECONDS:
        raise ValueError(f"an interval must be at least {MIN_INTERVAL_SECONDS:g}s")
    return Schedule(at_minute=None, interval=seconds)


def next_due(schedule: Schedule, last_finished: float | None, now: float) -> float:
    """When the next pass should start: now if none ever finished; else ``interval`` after the last one, or
    the first time of day after it (a pass missed while the service was down runs at once)."""
    if last_finished is None:
        return now
    if schedule.interval is not None:
        return last_finished + schedule.interval
    at = (schedule.at_minute or 0) * 60.0
    due = math.floor(last_finished / DAY) * DAY + at
    return due if due > last_finished else due + DAY
