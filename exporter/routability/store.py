"""Durable per-model routability rows in an SQLite file (stdlib ``sqlite3``, WAL, synchronous=FULL).

Why SQLite rather than a JSON file rewritten with temp+fsync+rename: a pass updates one row at a time for
minutes (500 models at a 2 s pace is ~17 min), and every observation must be durable as soon as it is made.
A JSON file would be rewritten whole after each probe (quadratic bytes per pass) or batched (losing work on a
crash); SQLite commits one row atomically and durably. The schema is versioned with ``PRAGMA user_version``;
a file that is not a routability store, is corrupt, or has a newer version is a loud ``StoreError`` at open,
never a silently empty store.

Rows are also kept in memory (frozen values), so reads never touch the disk; this store assumes a single
writer process per file.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from pydantic import TypeAdapter

from exporter.lifecycle import Closing
from exporter.routability.model import RoutabilityRow
from exporter.sqlitekit import connect, create_schema, integrity_problem, stored_schema

SCHEMA_VERSION = 1
_SCHEMA = (
    "CREATE TABLE rows (slug TEXT PRIMARY KEY, data TEXT NOT NULL)",
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
)
#: A row's stored form: the row's own fields as JSON, read back strictly, unknown fields refused (a field a
#: store of an earlier version lacks takes the row's default).
ROW: TypeAdapter[RoutabilityRow] = TypeAdapter(RoutabilityRow)


class StoreError(Exception):
    """The store file cannot be used (corrupt, foreign, or from a newer version); the message says which."""


class RoutabilityStore(Closing):
    """Open (creating if needed) the store at ``path``.

    Example::

        store = RoutabilityStore(Path("/var/lib/canary/routability.sqlite3"))
        store.put(RoutabilityRow("acme/chat-1"))
        store.rows()["acme/chat-1"].status   # Status.UNKNOWN
        store.close()
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = connect(path)
            self._migrate()
            self._rows: dict[str, RoutabilityRow] = {}
            for slug, data in self._db.execute("SELECT slug, data FROM rows ORDER BY slug"):
                try:
                    row = ROW.validate_json(data, strict=True, extra="forbid")
                except (ValueError, KeyError, TypeError) as exc:
                    raise StoreError(f"{path}: row {slug!r} is unreadable: {exc}") from exc
                self._rows[row.slug] = row
            self._meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"{path}: not a usable routability store: {exc}") from exc

    def close(self) -> None:
        self._db.close()

    # -- reads (memory) --------------------------------------------------------------------------------
    def rows(self) -> dict[str, RoutabilityRow]:
        """A snapshot: slug -> row (a new dict of frozen rows; later writes do not change it)."""
        return dict(self._rows)

    def get(self, slug: str) -> RoutabilityRow | None:
        return self._rows.get(slug)

    def meta(self, key: str) -> str | None:
        return self._meta.get(key)

    # -- writes (durable before they return) -----------------------------------------------------------
    def put(self, row: RoutabilityRow) -> None:
        """Insert or replace one row, durably."""
        self._db.execute(
            "INSERT INTO rows (slug, data) VALUES (?, ?) "
            "ON CONFLICT(slug) DO UPDATE SET data = excluded.data",
            (row.slug, row_text(row)),
        )
        self._rows[row.slug] = row

    def set_meta(self, key: str, value: str) -> None:
        self._db.execute(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, value),
        )
        self._meta[key] = value

    # -- internals -------------------------------------------------------------------------------------
    def _migrate(self) -> None:
        version, tables = stored_schema(self._db)
        if version == 0 and not tables:
            create_schema(self._db, _SCHEMA, SCHEMA_VERSION)
            return
        if version != SCHEMA_VERSION or not {"rows", "meta"} <= tables:
            raise StoreError(
                f"{self.path}: schema version {version} with tables {sorted(tables)} is not a routability "
                f"store of version {SCHEMA_VERSION} (move the file away or point routability.store elsewhere)"
            )
        if (check := integrity_problem(self._db, quick=True)) is not None:
            raise StoreError(f"{self.path}: integrity check failed: {check}")


def row_text(row: RoutabilityRow) -> str:
    """One row as stored: its fields as JSON (``ROW``), keys sorted (what the listing's ETag hashes)."""
    return json.dumps(ROW.dump_python(row, mode="json"), sort_keys=True)
