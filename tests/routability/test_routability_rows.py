"""Row transitions and the routing rule."""

from __future__ import annotations

import pytest

from exporter.outcomes import Reason
from exporter.routability.model import (
    ListedSignal,
    RoutabilityRow,
    Source,
    Status,
    Verdict,
    count_by_status,
    note_listed,
    observe,
)
from exporter.routability.routing import should_skip

HOUR = 3600.0
HEALTHY = Verdict(Status.HEALTHY, Reason.NONE, "completed", 200)
LIMITED = Verdict(Status.DEGRADED, Reason.RATE_LIMITED, "429", 429)
GONE = Verdict(Status.UNAVAILABLE, Reason.MODEL_NOT_FOUND, "not a valid model ID", 400)


def test_failures_count_up_and_a_success_resets_them() -> None:
    row = RoutabilityRow("a/b")
    row = observe(row, LIMITED, Source.GATEWAY, 10.0)
    row = observe(row, GONE, Source.GATEWAY, 20.0)
    assert (row.status, row.consecutive_failures, row.last_check, row.reason) == (
        Status.UNAVAILABLE, 2, 20.0, Reason.MODEL_NOT_FOUND,
    )  # fmt: skip
    assert row.last_healthy is None
    row = observe(row, HEALTHY, Source.DIRECT, 30.0)
    assert (row.status, row.consecutive_failures, row.last_healthy, row.source) == (
        Status.HEALTHY, 0, 30.0, Source.DIRECT,
    )  # fmt: skip
    row = observe(row, LIMITED, Source.GATEWAY, 40.0)
    assert row.last_healthy == 30.0 and row.note == "429" and row.http_status == 429


def test_the_listed_signal_never_changes_the_probed_status() -> None:
    row = observe(RoutabilityRow("a/b"), GONE, Source.GATEWAY, 10.0)
    listed = note_listed(row, ListedSignal(11.0, 3, 3, 100.0))
    assert (listed.status, listed.last_check, listed.note, listed.consecutive_failures) == (
        row.status, row.last_check, row.note, row.consecutive_failures,
    )  # fmt: skip
    assert listed.listed == ListedSignal(11.0, 3, 3, 100.0)


@pytest.mark.parametrize(
    ("status", "age", "skip"),
    [
        (Status.UNAVAILABLE, 0.0, True),
        (Status.UNAVAILABLE, 6 * HOUR, True),
        (Status.UNAVAILABLE, 6 * HOUR + 1, False),  # too old: try it again
        (Status.DEGRADED, 0.0, False),
        (Status.HEALTHY, 0.0, False),
        (Status.UNKNOWN, 0.0, False),
        (Status.UNAVAILABLE, -3600.0, False),  # a check from the future is not trusted
    ],
)
def test_should_skip_only_recent_explicit_unavailability(status: Status, age: float, skip: bool) -> None:
    now = 100 * HOUR
    row = RoutabilityRow("a/b", status, last_check=now - age)
    assert should_skip(row, now, 6 * HOUR) is skip


def test_should_skip_never_for_unknown_models_or_rows_never_checked() -> None:
    assert should_skip(None, 0.0, HOUR) is False
    assert should_skip(RoutabilityRow("a/b", Status.UNAVAILABLE), 0.0, HOUR) is False


def test_count_by_status_lists_every_status() -> None:
    rows = [RoutabilityRow("a", Status.HEALTHY), RoutabilityRow("b", Status.HEALTHY), RoutabilityRow("c")]
    assert count_by_status(rows) == {"unknown": 1, "healthy": 2, "degraded": 0, "unavailable": 0}
