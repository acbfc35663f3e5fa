"""SQLite as the project's one embedded store technology: how a store file is opened, checked and written.

Every store (the receiver's decisions, the routability rows, the evidence history) opens its file through
``connect``: WAL, so readers never wait for the writer, and by default ``synchronous=FULL``, so a committed
transaction is on disk (fsynced) before ``COMMIT`` returns. ``integrity_problem`` runs SQLite's own
page-level check; the schema's version is ``PRAGMA user_version`` (``stored_schema``, ``create_schema``);
every write is one ``transaction``.

Example::

    db = connect(Path("/var/lib/canary/store.sqlite3"))
    if (problem := integrity_problem(db)) is not None:
        raise SystemExit(f"store is damaged: {problem}")
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Literal


def connect(
    path: Path,
    *,
    read_only: bool = False,
    synchronous: Literal["FULL", "NORMAL"] = "FULL",
    incremental_vacuum: bool = False,
) -> sqlite3.Connection:
    """An autocommit connection (transactions are explicit, see ``transaction``) in WAL mode.

    ``synchronous=NORMAL`` may lose the last transactions on a power cut, never corrupt the file.
    ``incremental_vacuum`` makes a new file return freed pages on ``PRAGMA incremental_vacuum`` (it must be
    set before WAL mode writes the file's first page; an existing file keeps what it was created with)."""
    target = f"{path.resolve().as_uri()}?mode=ro" if read_only else str(path)
    db = sqlite3.connect(target, uri=read_only, isolation_level=None, check_same_thread=False, timeout=5.0)
    if not read_only:
        if incremental_vacuum:
            db.execute("PRAGMA auto_vacuum=INCREMENTAL")
        db.execute("PRAGMA journal_mode=WAL")
    db.execute(f"PRAGMA synchronous={synchronous}")
    return db


def return_freed_pages(db: sqlite3.Connection) -> None:
    """Give the file's free pages back to the file system (a file made with ``incremental_vacuum``).

    Run as a script: ``execute`` steps the pragma once, which frees a single page."""
    db.executescript("PRAGMA incremental_vacuum")


@contextlib.contextmanager
def transaction(db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """``BEGIN IMMEDIATE`` (the write lock at once) ... ``COMMIT``; rolled back, and the error re-raised,
    when the body or the commit fails."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield db
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
        raise


def stored_schema(db: sqlite3.Connection) -> tuple[int, frozenset[str]]:
    """The file's schema version (``PRAGMA user_version``, 0 in a new file) and its tables' names."""
    version = db.execute("PRAGMA user_version").fetchone()[0]
    tables = frozenset(r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
    return int(version), tables


def create_schema(db: sqlite3.Connection, statements: Iterable[str], version: int) -> None:
    """Create the tables (``statements``) and set the schema version, all in one transaction."""
    with transaction(db):
        for statement in statements:
            db.execute(statement)
        db.execute(f"PRAGMA user_version = {int(version)}")


def integrity_problem(
    db: sqlite3.Connection, *, quick: bool = False, tables: tuple[str, ...] | None = None
) -> str | None:
    """None when SQLite finds the file (or only ``tables``) sound, else its first findings
    (``PRAGMA integrity_check``; ``quick_check`` skips the index-content cross-checks)."""
    pragma = "quick_check" if quick else "integrity_check"
    whole = [f"PRAGMA {pragma}(5)"]
    statements = whole if tables is None else [f'PRAGMA {pragma}("{t}")' for t in tables]
    findings = [str(r[0]) for sql in statements for r in db.execute(sql).fetchall()]
    return None if all(f == "ok" for f in findings) else "; ".join(f for f in findings if f != "ok")
