"""The routability schedule: daily at a UTC time of day (default 05:00), or an interval after a pass."""

from __future__ import annotations

import calendar
import time

import pytest

from exporter.routability.schedule import DEFAULT_SCHEDULE, Schedule, next_due, parse_schedule


def utc(text: str) -> float:
    return float(calendar.timegm(time.strptime(text, "%Y-%m-%d %H:%M")))


def test_the_default_runs_daily_at_five_utc() -> None:
    assert parse_schedule("05:00") == DEFAULT_SCHEDULE and DEFAULT_SCHEDULE.describe() == "daily at 05:00 UTC"
    finished = utc("2026-12-01 05:12")
    assert next_due(DEFAULT_SCHEDULE, finished, finished + 60) == utc("2026-12-02 05:00")
    evening = utc("2026-12-01 22:00")  # a triggered pass late in the day: the next is still tomorrow 05:00
    assert next_due(DEFAULT_SCHEDULE, evening, evening) == utc("2026-12-02 05:00")
    early = utc("2026-12-01 04:59")
    assert next_due(DEFAULT_SCHEDULE, early, early) == utc("2026-12-01 05:00")


def test_a_missed_or_first_pass_runs_at_once() -> None:
    now = utc("2026-12-05 12:00")
    assert next_due(DEFAULT_SCHEDULE, None, now) == now
    assert next_due(DEFAULT_SCHEDULE, utc("2026-12-01 05:10"), now) < now


def test_an_interval_counts_from_the_last_pass() -> None:
    every = parse_schedule("6h")
    assert every == Schedule(at_minute=None, interval=21600.0)
    assert next_due(every, 1000.0, 1000.0) == 22600.0


@pytest.mark.parametrize("bad", ["25:00", "5:7", "10s", "soon", True])
def test_bad_schedules_say_what_is_expected(bad: object) -> None:
    with pytest.raises(ValueError, match=r"time of day such as 05:00|at least 60s"):
        parse_schedule(bad)
