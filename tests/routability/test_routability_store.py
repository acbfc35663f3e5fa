"""Durable rows: survive reopening; a corrupt or foreign file is a loud error, never an empty store."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from exporter.outcomes import Reason
from exporter.routability.model import ListedSignal, RoutabilityRow, Source, Status
from exporter.routability.store import RoutabilityStore, StoreError

ROW = RoutabilityRow(
    "acme/chat-1",
    Status.DEGRADED,
    last_check=1_700_000_000.5,
    source=Source.GATEWAY,
    note="429 from BaseTen: temporarily rate-limited upstream",
    consecutive_failures=3,
    reason=Reason.RATE_LIMITED,
    http_status=429,
    last_healthy=1_699_000_000.0,
    listed=ListedSignal(1_700_000_000.0, 4, 3, 99.5),
)


def test_rows_and_meta_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "state" / "routability.sqlite3"
    with RoutabilityStore(path) as store:
        store.put(ROW)
        store.put(RoutabilityRow("acme/new"))
        store.put(RoutabilityRow("acme/new", Status.HEALTHY, last_check=5.0, source=Source.DIRECT))
        store.set_meta("last_pass", '{"probed": 2}')
    with RoutabilityStore(path) as reopened:
        assert reopened.rows() == {
            "acme/chat-1": ROW,
            "acme/new": RoutabilityRow("acme/new", Status.HEALTHY, last_check=5.0, source=Source.DIRECT),
        }
        assert reopened.meta("last_pass") == '{"probed": 2}'


def test_a_snapshot_does_not_change_under_later_writes(tmp_path: Path) -> None:
    with RoutabilityStore(tmp_path / "r.sqlite3") as store:
        store.put(RoutabilityRow("a/b"))
        snapshot = store.rows()
        store.put(RoutabilityRow("c/d"))
        assert list(snapshot) == ["a/b"]


def test_a_corrupt_file_is_a_loud_error(tmp_path: Path) -> None:
    path = tmp_path / "r.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="not a usable routability store"):
        RoutabilityStore(path)


def _execute(path: Path, statement: str) -> Path:
    """``statement`` run on the database file at ``path`` behind the store's back."""
    db = sqlite3.connect(path)
    db.execute(statement)
    db.commit()
    db.close()
    return path


def test_a_foreign_database_is_refused_not_emptied(tmp_path: Path) -> None:
    path = _execute(tmp_path / "other.sqlite3", "CREATE TABLE suspensions (id INTEGER)")
    with pytest.raises(StoreError, match="is not a routability store of version 1"):
        RoutabilityStore(path)
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [("suspensions",)]


@pytest.mark.parametrize(
    ("statement", "says"),
    [
        ("PRAGMA user_version = 99", "schema version 99"),
        (
            'INSERT INTO rows (slug, data) VALUES (\'a/b\', \'{"slug": "a/b", "status": "gone"}\')',
            "row 'a/b' is unreadable",
        ),
    ],
    ids=["newer schema version", "unreadable row"],
)
def test_a_store_it_cannot_read_is_refused_saying_why(tmp_path: Path, statement: str, says: str) -> None:
    path = tmp_path / "r.sqlite3"
    RoutabilityStore(path).close()
    _execute(path, statement)
    with pytest.raises(StoreError, match=says):
        RoutabilityStore(path)
