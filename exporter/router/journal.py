"""The served-route journal: one bounded, local record per request the router makes (design.md §9).

A record says when a request was sent, for which model, with which ignore list, who served it (the
response's ``provider`` display name, the selected endpoint tag when the gateway's metadata names it, and
the generation ``id``), its TTFT, finish reason and HTTP status, and a keyed hash of the user or
conversation key the product may pass. It never holds content: no prompt, no reply, no error text.

The store is SQLite (stdlib) in WAL mode with ``synchronous=NORMAL``: a power cut may lose the last
records, never corrupt the file. Writes happen off the hot path: ``put`` only appends to a bounded
in-memory queue (``queue_size``); a background thread writes batches, removes records older than
``retention_seconds`` and, when the file grows past ``max_bytes``, the oldest records until it is under
it. A full queue or a failing store drops the record and counts it (``stats``); nothing here ever raises
into a request or waits on the disk.

At start-up the file proves its integrity (``PRAGMA quick_check``); a damaged or foreign file is moved
aside (``NAME.damaged-UNIXTIME``) and a new one started, and the move is logged.

User keys: ``hash_key`` is HMAC-SHA256 with the journal's secret (``KEY_FILE`` beside the store, created
at first start with mode 0600, or ``secret=`` given by the product), so the file alone does not give the
users' identifiers back; ``canary trace --user U`` hashes ``U`` with the same secret to find them.

Example::

    journal = Journal(Path("/var/lib/router/journal.sqlite3"))
    journal.start()
    journal.put(Served(at=time.time(), model="m/x", ignore=("bad/fp8",), provider="DeepInfra", ...))
    ...
    journal.stop()
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import math
import os
import queue
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import astuple, dataclass, fields
from pathlib import Path
from typing import Any

from exporter.lifecycle import StartStop
from exporter.sqlitekit import (
    connect,
    create_schema,
    integrity_problem,
    return_freed_pages,
    stored_schema,
    transaction,
)
from exporter.textkit import escape_controls

log = logging.getLogger("canary.router.journal")

SCHEMA_VERSION = 1
KEY_FILE_SUFFIX = ".key"
DEFAULT_RETENTION_SECONDS = 14 * 86400.0
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_QUEUE_SIZE = 10_000
MAX_TEXT = 200  # characters kept of any identifier (model, tag, display name, id, finish reason)
MAX_IGNORE = 64  # tags kept of an ignore list
_BATCH = 500
_PRUNE_EVERY_SECONDS = 30.0
_PRUNE_EVERY_RECORDS = 2_000  # ... or this many records, whichever comes first
_HASH_HEX = 32  # 128 bits of HMAC-SHA256


@dataclass(frozen=True, slots=True)
class Served:
    """One request the router made and who served it (no content, by construction: no field holds text
    from a prompt or a reply)."""

    at: float  # unix seconds when the request was sent
    model: str
    ignore: tuple[str, ...] = ()
    provider: str | None = None  # the response's ``provider`` (a display name several tags may share)
    endpoint: str | None = None  # the selected endpoint's tag, when the gateway's metadata names it
    generation_id: str | None = None
    ttft_seconds: float | None = None  # request sent to the first visible token (streams only)
    duration_seconds: float | None = None  # request sent to the end of the response
    finish_reason: str | None = None
    status: int | None = None  # HTTP status; None when no response came (a transport error)
    user_key: str | None = None  # ``hash_key`` of the product's user key
    conversation_key: str | None = None  # ``hash_key`` of the product's conversation key
    stream: bool = False


_COLUMNS = tuple(f.name for f in fields(Served))
# Statements built from the column names above (constants, never input).
_INSERT = f"INSERT INTO served ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"  # noqa: S608
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM served"  # noqa: S608
_SCHEMA = (
    "CREATE TABLE served (id INTEGER PRIMARY KEY, at REAL NOT NULL, model TEXT NOT NULL,"
    " ignore TEXT NOT NULL, provider TEXT, endpoint TEXT, generation_id TEXT, ttft_seconds REAL,"
    " duration_seconds REAL, finish_reason TEXT, status INTEGER, user_key TEXT, conversation_key TEXT,"
    " stream INTEGER NOT NULL)",
    "CREATE INDEX served_at ON served (at)",
    "CREATE INDEX served_user ON served (user_key, at)",
    "CREATE INDEX served_generation ON served (generation_id)",
)


def hash_key(secret: bytes, value: str) -> str:
    """The journal's keyed hash of a user or conversation key (HMAC-SHA256, 128 bits in hex).

    >>> hash_key(b"s", "user-42") == hash_key(b"s", "user-42") != hash_key(b"t", "user-42")
    True
    """
    return hmac.new(secret, value.encode("utf-8", "surrogatepass"), hashlib.sha256).hexdigest()[:_HASH_HEX]


def key_file(path: Path) -> Path:
    """Where the journal at ``path`` keeps its hashing secret."""
    return path.with_name(path.name + KEY_FILE_SUFFIX)


def load_secret(path: Path, *, create: bool) -> bytes | None:
    """The hashing secret of the journal at ``path`` (created, mode 0600, when ``create`` and missing)."""
    keyfile = key_file(path)
    try:
        return bytes.fromhex(keyfile.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        if not create:
            return None
    except ValueError as exc:
        raise ValueError(f"{keyfile}: not a journal key (hex expected)") from exc
    secret = secrets.token_bytes(32)
    keyfile.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(keyfile, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as out:
        out.write(secret.hex() + "\n")
    return secret


def _clip(value: str | None) -> str | None:
    """An identifier bounded and with control characters escaped (they are never stored raw)."""
    return None if value is None else escape_controls(value[:MAX_TEXT])[:MAX_TEXT]


def _row(record: Served) -> tuple[object, ...]:
    values = list(astuple(record))
    for i, name in enumerate(_COLUMNS):
        if name == "ignore":
            values[i] = "\n".join(t for t in (_clip(t) for t in record.ignore[:MAX_IGNORE]) if t)
        elif name == "stream":
            values[i] = int(record.stream)
        elif isinstance(values[i], str):
            values[i] = _clip(values[i])
    return tuple(values)


def _record(row: Sequence[Any]) -> Served:
    values = dict(zip(_COLUMNS, row, strict=True))
    values["ignore"] = tuple(t for t in str(values["ignore"]).split("\n") if t)
    values["stream"] = bool(values["stream"])
    return Served(**values)


@dataclass(frozen=True, slots=True)
class JournalStats:
    """What the journal did since start: records written, dropped (queue full or journal closed), failed
    (the store refused them), and the queue's current depth."""

    written: int
    dropped: int
    failed: int
    queued: int
    healthy: bool  # the store is open and its last write succeeded


class Journal(StartStop):
    """The write side: ``put`` never blocks; a daemon thread writes (see the module docstring)."""

    def __init__(
        self,
        path: Path,
        *,
        retention_seconds: float = DEFAULT_RETENTION_SECONDS,
        max_bytes: int = DEFAULT_MAX_BYTES,
        queue_size: int = DEFAULT_QUEUE_SIZE,
        secret: bytes | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if retention_seconds <= 0 or max_bytes < 64 * 1024 or queue_size < 1:
            raise ValueError("journal: retention must be > 0, max_bytes >= 64 KiB, queue_size >= 1")
        self.path = path
        self.retention_seconds = retention_seconds
        self.max_bytes = max_bytes
        self._clock = clock
        self._queue: queue.Queue[Served | None] = queue.Queue(maxsize=queue_size)
        self._thread: threading.Thread | None = None
        self._db: sqlite3.Connection | None = None
        self._lock = threading.Lock()  # the counters
        self._written = self._dropped = self._failed = 0
        self._healthy = False
        self._last_prune = 0.0
        self._since_prune = 0
        self.secret = secret if secret is not None else self._secret()

    def _secret(self) -> bytes:
        try:
            found = load_secret(self.path, create=True)
        except OSError as exc:  # an unwritable directory: hashes still work, for this process only
            log.error("journal key file %s cannot be written (%s); user keys hashed with a key for this "
                      "process only", key_file(self.path), exc)  # fmt: skip
            found = None
        return found if found is not None else secrets.token_bytes(32)

    # -- the hot path -----------------------------------------------------------------------------------
    def put(self, record: Served) -> bool:
        """Queue ``record`` for writing; False (and counted as dropped) when the queue is full or closed."""
        if self._thread is None:
            self._count(dropped=1)
            return False
        try:
            self._queue.put_nowait(record)
        except queue.Full:
            self._count(dropped=1)
            return False
        return True

    def key(self, value: str | None) -> str | None:
        """``hash_key`` with this journal's secret (None for None or an empty key)."""
        return hash_key(self.secret, value) if value else None

    def stats(self) -> JournalStats:
        with self._lock:
            return JournalStats(
                self._written, self._dropped, self._failed, self._queue.qsize(), self._healthy
            )

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self) -> None:
        if self._thread is not None:
            return
        self._thread = threading.Thread(target=self._run, name="canary-journal", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Write what is queued (for up to ``timeout`` seconds), then close the store."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        try:
            self._queue.put(None, timeout=timeout)
        except queue.Full:
            log.warning("journal: queue still full at stop; %d records not written", self._queue.qsize())
        thread.join(timeout)

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every record queued so far is written (tests, orderly stops)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)

    # -- the writer thread --------------------------------------------------------------------------------
    def _count(self, *, written: int = 0, dropped: int = 0, failed: int = 0) -> None:
        with self._lock:
            self._written += written
            self._dropped += dropped
            self._failed += failed

    def _run(self) -> None:
        self._db = self._open()
        try:
            while True:
                batch = [self._queue.get()]
                while len(batch) < _BATCH:
                    try:
                        batch.append(self._queue.get_nowait())
                    except queue.Empty:
                        break
                records = [r for r in batch if r is not None]
                if records:
                    self._write(records)
                for _ in batch:
                    self._queue.task_done()
                if None in batch:
                    return
        finally:
            if self._db is not None:
                self._db.close()

    def _open(self) -> sqlite3.Connection | None:
        try:
            return open_store(self.path, self._clock)
        except (sqlite3.Error, OSError) as exc:
            log.error("journal %s cannot be opened (%s): records are dropped and counted", self.path, exc)
            return None

    def _write(self, records: list[Served]) -> None:
        if self._db is None:
            self._db = self._open()
        if self._db is None:
            self._count(failed=len(records))
            self._set_healthy(False)
            return
        try:
            with transaction(self._db) as db:
                db.executemany(_INSERT, [_row(r) for r in records])
            self._count(written=len(records))
            self._set_healthy(True)
            now = self._clock()
            self._since_prune += len(records)
            if now - self._last_prune >= _PRUNE_EVERY_SECONDS or self._since_prune >= _PRUNE_EVERY_RECORDS:
                self._last_prune, self._since_prune = now, 0
                prune(self._db, now - self.retention_seconds, self.max_bytes)
        except sqlite3.Error as exc:
            self._count(failed=len(records))
            self._set_healthy(False)
            log.warning("journal write failed (%s): %d records dropped", exc, len(records))

    def _set_healthy(self, healthy: bool) -> None:
        with self._lock:
            self._healthy = healthy


def open_store(path: Path, clock: Callable[[], float] = time.time) -> sqlite3.Connection:
    """The journal's file, created if new; a damaged or foreign file is moved aside and a new one made."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        problem: str | None
        try:
            db = connect(path, synchronous="NORMAL", incremental_vacuum=True)
            version, tables = stored_schema(db)
            problem = integrity_problem(db, quick=True)
            if problem is None and tables and (version, "served" in tables) != (SCHEMA_VERSION, True):
                problem = f"not a journal of schema {SCHEMA_VERSION} (version {version})"
        except sqlite3.DatabaseError as exc:
            problem, db = str(exc), None
        if problem is None and db is not None:
            if not tables:
                create_schema(db, _SCHEMA, SCHEMA_VERSION)
            return db
        if db is not None:
            db.close()
        aside = path.with_name(f"{path.name}.damaged-{int(clock())}")
        for suffix in ("-wal", "-shm"):
            path.with_name(path.name + suffix).unlink(missing_ok=True)
        path.rename(aside)
        log.error("journal %s is damaged (%s): moved to %s, starting a new one", path, problem, aside)
    db = connect(path, synchronous="NORMAL", incremental_vacuum=True)
    create_schema(db, _SCHEMA, SCHEMA_VERSION)
    return db


def prune(db: sqlite3.Connection, older_than: float, max_bytes: int) -> int:
    """Remove records before ``older_than``, then the oldest until the file is under ``max_bytes``
    (the file's excess share of the records, at least a tenth, at a time; freed pages returned to the
    file system); the number removed."""
    removed = db.execute("DELETE FROM served WHERE at < ?", (older_than,)).rowcount
    while True:
        return_freed_pages(db)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pages, size = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "page_size"))
        count = db.execute("SELECT count(*) FROM served").fetchone()[0]
        if pages * size <= max_bytes or count == 0:
            return removed
        excess = 1 - max_bytes / (pages * size)
        removed += db.execute(
            "DELETE FROM served WHERE id IN (SELECT id FROM served ORDER BY at LIMIT ?)",
            (max(1, count // 10, math.ceil(count * excess)),),
        ).rowcount


def read_served(
    path: Path,
    *,
    since: float,
    until: float,
    model: str | None = None,
    user_key: str | None = None,
    generation_id: str | None = None,
    limit: int = 10_000,
) -> list[Served]:
    """The records of the journal at ``path`` sent in ``[since, until]`` (read-only; oldest first)."""
    clauses: list[str] = ["at >= ?", "at <= ?"]  # fixed clauses; values are parameters
    params: list[object] = [since, until]
    for column, value in (("model", model), ("user_key", user_key), ("generation_id", generation_id)):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    db = connect(path, read_only=True)
    try:
        rows = db.execute(
            f"{_SELECT} WHERE {' AND '.join(clauses)} ORDER BY at LIMIT ?",
            (*params, limit),
        ).fetchall()
    finally:
        db.close()
    return [_record(row) for row in rows]


def find_generation(path: Path, generation_id: str) -> Served | None:
    """The record of the request the gateway called ``generation_id``, if the journal has it."""
    found = read_served(path, since=0.0, until=float("inf"), generation_id=generation_id, limit=1)
    return found[0] if found else None


def journal_models(path: Path, limit: int = 1000) -> list[str]:
    """The models the journal at ``path`` has records of."""
    db = connect(path, read_only=True)
    try:
        return [r[0] for r in db.execute("SELECT DISTINCT model FROM served LIMIT ?", (limit,))]
    finally:
        db.close()
