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
