"""SQLite as the project's one embedded store technology: how a durable store file is opened and checked.

Every store (the receiver's decisions, the routability rows) opens its file through ``connect``: WAL, so
readers never wait for the writer, and ``synchronous=FULL``, so a committed transaction is on disk (fsynced)
before ``COMMIT`` returns. ``integrity_problem`` runs SQLite's own page-level check.

Example::

    db = connect(Path("/var/lib/canary/store.sqlite3"))
    if (problem := integrity_problem(db)) is not None:
        raise SystemExit(f"store is damaged: {problem}")
"""

from __future__ import annotations

import sqlite3
from pathlib import Path


def connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """An autocommit connection (transactions are explicit ``BEGIN``/``COMMIT``) in WAL + FULL sync."""
    if read_only:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None,
                             check_same_thread=False)  # fmt: skip
    else:
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=FULL")
    return db


def integrity_problem(db: sqlite3.Connection, *, quick: bool = False) -> str | None:
    """None when SQLite finds the file sound, else its first findings (``PRAGMA integrity_check``)."""
    rows = db.execute("PRAGMA quick_check" if quick else "PRAGMA integrity_check(5)").fetchall()
    findings = [str(r[0]) for r in rows]
    return None if findings == ["ok"] else "; ".join(findings)
