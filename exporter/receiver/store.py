"""The receiver's durable store: one SQLite file that proves its own integrity at start-up, under a lock.

Layout of ``store_dir`` (format documented in docs/receiver.md, "Store format"):

- ``receiver.sqlite3`` (WAL, ``synchronous=FULL``; see ``exporter.sqlitekit``):
  - ``decisions``: the audit log and the **source of truth**, one row per decision: ``seq`` (1, 2, 3, ...
    with no gap), ``at``, ``entry`` (the decision as canonical JSON) and ``chain``, the SHA-256 of the
    previous row's ``chain`` followed by this ``entry`` (the first row chains from ``GENESIS``).
  - ``head``: the ``seq`` and ``chain`` of the last decision, updated in the same transaction.
  - ``checkpoint``: the state folded up to ``seq``, with the ``chain`` of that decision (so it belongs to
    this log) and the SHA-256 of its own text; rewritten every ``snapshot_every`` decisions, in the same
    transaction as the decisions it includes.
  - ``meta``: the store format and when and how the store was created.
- ``receiver.lock``: held with ``flock`` for the life of the process. A second receiver on the same
  directory refuses to start with a message naming the holder's pid.

Opening checks, in order: ``PRAGMA integrity_check``; the format; every row's ``seq`` (no gap) and
``chain`` (no edited row); the head (no decision removed at the end); the checkpoint (its digest and its
anchor in the chain). A damaged checkpoint is recovered from exactly: the state is folded again from the
whole log, loudly (``warnings``). Everything else is a ``StoreError`` naming the file and the decision.
A missing store file is never a fresh start unless asked for (``init=True``, the CLI's ``--init``): a
directory that held a store before (its lock file, a write-ahead log or migrated journal files remain)
is an error whatever ``init`` says, except that ``init`` may start over where nothing but the lock is left.
A format-1 store (a JSONL journal with JSON snapshots) is refused with what to do: this receiver no longer
migrates it (docs/receiver.md, "Format 1").

A decision is durable when ``commit`` returns: SQLite has fsynced the transaction (``synchronous=FULL``).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exporter.lifecycle import Closing
from exporter.receiver.codec import decision_from_json, decision_to_json, state_from_json, state_to_json
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Decision, State, apply_decisions
from exporter.sqlitekit import connect, create_schema, integrity_problem, stored_schema, transaction

__all__ = ["Loaded", "Store", "StoreError", "StoreLocked", "StoreWriteError"]

FILE_NAME = "receiver.sqlite3"
LOCK_NAME = "receiver.lock"
FORMAT = 2
#: The files of a format-1 store (a JSONL decision journal and its JSON snapshots), refused at start-up.
FORMAT_1_FILES = ("decisions.jsonl", "state.json", "state.prev.json")
#: The last revision of this project whose receiver migrates a format-1 store to this format.
MIGRATING_REVISION = "f0b75bf"
GENESIS = hashlib.sha256(b"canary receiver decision log").digest()
_LEFTOVERS = ("-wal", "-shm", "-journal")
#: Logs up to this many rows are proven whole at start-up; longer ones after the checkpoint (see _load).
SYNC_VERIFY_ROWS = 20_000

_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE decisions ("
    "seq INTEGER PRIMARY KEY, at REAL NOT NULL, entry TEXT NOT NULL, chain BLOB NOT NULL)",
    "CREATE INDEX decisions_at ON decisions (at)",
    "CREATE TABLE head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, chain BLOB NOT NULL)",
    """CREATE TABLE checkpoint (
        id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, chain BLOB NOT NULL,
        state TEXT NOT NULL, digest BLOB NOT NULL
    )""",
)
_TABLES = frozenset({"meta", "decisions", "head", "checkpoint"})
_INSERT_DECISIONS = "INSERT INTO decisions (seq, at, entry, chain) VALUES (?, ?, ?, ?)"
_SET_CHECKPOINT = "INSERT OR REPLACE INTO checkpoint (id, seq, chain, state, digest) VALUES (1, ?, ?, ?, ?)"


class StoreError(Exception):
    """The store cannot be opened; the message says which file and entry, and what is wrong."""


class StoreLocked(StoreError):
    """Another process holds the store's lock."""


class StoreWriteError(Exception):
    """A write failed; nothing was acknowledged and the in-memory state did not change (retryable)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    state: State
    warnings: tuple[str, ...]  # recoveries, to be logged at ERROR/WARNING by the caller


def chain_next(previous: bytes, entry: str) -> bytes:
    """The chain hash of a row: SHA-256 of the previous row's chain followed by this row's entry."""
    return hashlib.sha256(previous + entry.encode("utf-8")).digest()


class Store(Closing):
    """One writer's handle on a store directory; call ``close`` (or use ``with``).

    Creating it locks the directory, checks and loads the store (creating it only with ``init``), or
    raises ``StoreError``; ``loaded`` is what it found. ``fault`` is a test seam called inside each write
    transaction (it may raise ``OSError``).

    Example::

        store = Store(Path("/var/lib/canary/receiver"), init=True)
        for line in store.loaded.warnings:
            log.error(line)
    """

    def __init__(
        self,
        directory: Path,
        *,
        ladder: Ladder | None = None,
        snapshot_every: int = 256,
        clock: Callable[[], float] | None = None,
        fault: Callable[[], None] | None = None,
        init: bool = False,
    ) -> None:
        self.directory = directory
        self.path = directory / FILE_NAME
        self._ladder = ladder
        self._snapshot_every = snapshot_every
        self._clock = clock or time.time
        self._fault = fault
        self._lock_fd: int | None = None
        self._lock_existed = False
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        self._head_seq = 0
        self._head_chain = GENESIS
        self._since_checkpoint = 0
        self._verified_from: tuple[int, State] | None = None  # (seq, state) verify_history must prove
        try:
            self._lock(create_directory=init)
            if not self.path.exists():
                self._create(init)
            self.loaded = self._load()
        except (sqlite3.Error, UnicodeDecodeError) as exc:  # a damaged page can hold undecodable text
            self.close()
            raise StoreError(f"{self.path}: not a usable receiver store ({exc})") from None
        except OSError as exc:
            self.close()
            raise StoreError(f"cannot use store directory {directory}: {exc.strerror or exc}") from None
        except BaseException:
            self.close()
            raise

    # -- opening ---------------------------------------------------------------------------------------
    def _lock(self, *, create_directory: bool) -> None:
        if create_directory:
            self.directory.mkdir(parents=True, exist_ok=True)
        elif not self.directory.is_dir():
            raise StoreError(
                f"store directory {self.directory} does not exist: start once with --init to create a new "
                "store there (or fix receiver.store_dir)"
            )
        self._lock_existed = (self.directory / LOCK_NAME).exists()
        try:
            fd = os.open(self.directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise StoreError(f"cannot open store directory {self.directory}: {exc.strerror}") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
            os.close(fd)
            raise StoreLocked(
                f"store directory {self.directory} is locked by another receiver (pid {holder}); "
                "refusing to start: two receivers must never write one store (stop the other one, or give "
                "this one its own store_dir)"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._lock_fd = fd

    def _create(self, init: bool) -> None:
        """Make a new, empty ``receiver.sqlite3`` with ``init``, where no store was before."""
        leftovers = [
            self.path.name + s for s in _LEFTOVERS if (self.directory / (self.path.name + s)).exists()
        ]
        migrated = sorted(p.name for p in self.directory.glob("*.migrated"))
        if leftovers or migrated:
            raise StoreError(
                f"{self.path} is missing, but {self.directory} held a receiver store before (found "
                f"{', '.join(leftovers + migrated)}): refusing to start with an empty state; restore the "
                "file from a backup (never start a new store over the remains of an old one)"
            )
        if format_1 := [name for name in FORMAT_1_FILES if (self.directory / name).exists()]:
            raise StoreError(
                f"{self.directory} holds a format-1 receiver store ({', '.join(format_1)}), which this "
                f"receiver no longer reads (it reads format {FORMAT}, {self.path.name}): run the receiver "
                f"of provider-canary revision {MIGRATING_REVISION} once on this directory to migrate it, or "
                "move those files away to start a new store with --init (refusing to start with an empty "
                "state)"
            )
        if not init:
            if self._lock_existed:
                raise StoreError(
                    f"{self.path} is missing, but {self.directory} held a receiver store before (found "
                    f"{LOCK_NAME}): refusing to start with an empty state; restore the file from a backup, "
                    "or start with --init to begin a new, empty store on purpose"
                )
            raise StoreError(
                f"no receiver store in {self.directory} ({self.path.name} is missing): start once with "
                "--init to create a new store"
            )
        tmp = self.directory / (self.path.name + ".new")  # complete before it is moved in place
        tmp.unlink(missing_ok=True)
        db = sqlite3.connect(str(tmp), isolation_level=None)
        try:
            create_schema(db, _SCHEMA, FORMAT)
            meta = {"format": str(FORMAT), "created_at": str(self._clock()), "origin": "new store (--init)"}
            with transaction(db):
                db.execute("INSERT INTO head (id, seq, chain) VALUES (1, 0, ?)", (GENESIS,))
                db.execute(_SET_CHECKPOINT, self._checkpoint_row(State(), GENESIS))
                db.executemany("INSERT INTO meta (key, value) VALUES (?, ?)", sorted(meta.items()))
        finally:
            db.close()
        _fsync(tmp)
        os.replace(tmp, self.path)
        _fsync(self.directory)

    def _load(self) -> Loaded:
        warnings: list[str] = []
        db = self._db = connect(self.path)
        # A long log's file is checked page by page in the background (verify_history): reading every
        # page of a 200 MB file at start-up costs seconds once the page cache is cold.
        last = db.execute("SELECT coalesce(max(seq), 0) FROM decisions").fetchone()[0]
        small = last <= SYNC_VERIFY_ROWS
        checked = None if small else ("meta", "head", "checkpoint")
        if (problem := integrity_problem(db, tables=checked)) is not None:
            raise StoreError(f"{self.path}: SQLite integrity check failed ({problem}); restore the file")
        version, tables = stored_schema(db)
        if version != FORMAT or not tables >= _TABLES:
            raise StoreError(
                f"{self.path}: store format {version} with tables {sorted(tables)} is not a receiver store "
                f"of format {FORMAT} (written by another version of the receiver, or another program)"
            )
        head = db.execute("SELECT seq, chain FROM head WHERE id = 1").fetchone()
        checkpoint = db.execute("SELECT seq, chain, state, digest FROM checkpoint WHERE id = 1").fetchone()
        if head is None or checkpoint is None:
            missing = "head" if head is None else "checkpoint"
            raise StoreError(f"{self.path}: the {missing} row is missing: the store was edited; restore it")
        cp_seq, cp_chain, cp_text, cp_digest = checkpoint
        # Small logs are proven whole before serving; above SYNC_VERIFY_ROWS only the rows after the
        # checkpoint are (start-up stays flat), and ``verify_history`` proves the rest in the background.
        start = 0 if small else min(cp_seq, last)
        walked, chain = self._walk(db, start, self._stored_chain(db, start))
        if (head[0], head[1]) != (last, chain):
            raise StoreError(
                f"{self.path}: the log ends at decision {last} but the store's head is decision {head[0]} "
                "with another hash: decisions were removed from the end or the last one was altered; "
                "restore the file"
            )
        cp_anchor = self._stored_chain(db, cp_seq) if cp_seq <= last else None
        tail = [(seq, entry) for seq, entry in walked if seq > cp_seq]
        self._head_seq, self._head_chain = last, chain
        state: State | None = None
        if cp_anchor == cp_chain and hashlib.sha256(cp_text.encode()).digest() == cp_digest:
            try:
                state = state_from_json(json.loads(cp_text))
            except (ValueError, RecursionError) as exc:
                warnings.append(f"{self.path}: the checkpoint is unreadable ({exc}); folding the whole log")
        else:
            warnings.append(
                f"{self.path}: the checkpoint at decision {cp_seq} does not match the log or its own digest; "
                "folding the whole log again (the state is exact: the log is intact)"
            )
        if state is None or state.seq != cp_seq:
            if state is not None:
                warnings.append(f"{self.path}: the checkpoint says decision {state.seq}, its row {cp_seq}")
            state = State()
            tail, _ = self._walk(db, 0, GENESIS)
        if not small:
            self._verified_from = (state.seq, state)
        state = self._replay(state, tail)
        self._since_checkpoint = len(tail)
        if warnings:
            self.checkpoint(state)
        return Loaded(state, tuple(warnings))

    def _stored_chain(self, db: sqlite3.Connection, seq: int) -> bytes:
        if seq == 0:
            return GENESIS
        row = db.execute("SELECT chain FROM decisions WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise StoreError(f"{self.path}: decisions: decision {seq} is missing")
        return bytes(row[0])

    def _walk(
        self, db: sqlite3.Connection, after: int, chain: bytes, upto: int | None = None
    ) -> tuple[list[tuple[int, str]], bytes]:
        """Rows after ``after`` (up to ``upto``), each proven by its chain hash from ``chain`` (the chain at
        ``after``) and by following the previous one with no gap; and the chain at the last one."""
        rows = []
        expect = after + 1
        for seq, entry, stored in db.execute(
            "SELECT seq, entry, chain FROM decisions WHERE seq > ? AND seq <= ? ORDER BY seq",
            (after, upto if upto is not None else 2**62),
        ):
            if seq != expect:
                raise StoreError(
                    f"{self.path}: decisions: decision {expect} is missing (the next one is {seq}): "
                    "the log has a gap; restore the file"
                )
            chain = chain_next(chain, entry)
            if stored != chain:
                raise StoreError(
                    f"{self.path}: decisions: decision {seq} was altered (its chain hash does not match "
                    "its content and the decisions before it); restore the file"
                )
            rows.append((seq, entry))
            expect += 1
        return rows, chain

    def verify_history(self) -> str | None:
        """Prove the rows start-up did not (large logs): every chain hash from decision 1 to the checkpoint
        start-up used, and that folding them gives exactly that checkpoint. None when sound (or nothing was
        left to prove), else the problem, naming the file and the decision. Reads on its own connection."""
        if self._verified_from is None:
            return None
        seq, expected = self._verified_from
        db = connect(self.path, read_only=True)
        try:
            if (problem := integrity_problem(db)) is not None:
                return f"{self.path}: SQLite integrity check failed ({problem}); restore the file"
            folded = self._replay(State(), self._walk(db, 0, GENESIS, upto=seq)[0])
        except StoreError as exc:
            return str(exc)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            return f"{self.path}: not a usable receiver store ({exc}); restore the file"
        finally:
            db.close()
        if folded != expected:
            return (
                f"{self.path}: the checkpoint at decision {seq} differs from the fold of decisions 1..{seq}: "
                "the checkpoint or the code that folds the log changed; restore the file"
            )
        self._verified_from = None
        return None

    def _replay(self, state: State, rows: list[tuple[int, str]]) -> State:
        decisions = []
        for seq, entry in rows:
            try:
                decision = decision_from_json(json.loads(entry))
            except (ValueError, RecursionError) as exc:
                raise StoreError(f"{self.path}: decisions: decision {seq} is invalid ({exc})") from None
            if decision.seq != seq:
                raise StoreError(
                    f"{self.path}: decisions: the row of decision {seq} holds decision {decision.seq}"
                )
            decisions.append(decision)
        try:
            return apply_decisions(state, decisions, self._ladder)
        except Exception:  # noqa: S110 - find the entry at fault, one at a time (only on a damaged store)
            pass
        for d in decisions:
            try:
                state = apply_decisions(state, [d], self._ladder)
            except Exception as exc:
                raise StoreError(
                    f"{self.path}: decisions: decision {d.seq} cannot be applied "
                    f"({type(exc).__name__}: {exc})"
                ) from None
        return state

    def _checkpoint_row(self, state: State, chain: bytes) -> tuple[int, bytes, str, bytes]:
        text = json.dumps(state_to_json(state, self._clock()), ensure_ascii=False, separators=(",", ":"))
        return state.seq, chain, text, hashlib.sha256(text.encode()).digest()

    # -- writing ---------------------------------------------------------------------------------------
    def commit(self, decisions: Sequence[Decision], state: State) -> None:
        """Make ``decisions`` durable in one fsynced transaction; ``state`` is the state after them.

        Raises ``StoreWriteError`` if they are not durable (the transaction is rolled back). The checkpoint
        is rewritten in the same transaction every ``snapshot_every`` decisions.
        """
        if not decisions:
            return
        db = self._db
        assert db is not None, "store is closed"
        rows, chain = [], self._head_chain
        for d in decisions:  # each row's entry (canonical JSON: what the chain hashes) chained on
            entry = json.dumps(decision_to_json(d), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            chain = chain_next(chain, entry)
            rows.append((d.seq, d.at, entry, chain))
        checkpoint = self._since_checkpoint + len(decisions) >= self._snapshot_every

        def write() -> None:
            db.executemany(_INSERT_DECISIONS, rows)
            db.execute("UPDATE head SET seq = ?, chain = ? WHERE id = 1", (decisions[-1].seq, chain))
            if checkpoint:
                db.execute(_SET_CHECKPOINT, self._checkpoint_row(state, chain))

        self._write(write)
        self._head_seq, self._head_chain = decisions[-1].seq, chain
        self._since_checkpoint = 0 if checkpoint else self._since_checkpoint + len(decisions)

    def checkpoint(self, state: State) -> None:
        """Rewrite the checkpoint with ``state`` (which must be the fold of the whole log)."""
        assert self._db is not None and state.seq == self._head_seq, "checkpoint of another state"
        db = self._db
        self._write(lambda: db.execute(_SET_CHECKPOINT, self._checkpoint_row(state, self._head_chain)))
        self._since_checkpoint = 0

    def _write(self, body: Callable[[], object]) -> None:
        db = self._db
        assert db is not None, "store is closed"
        try:
            with transaction(db):
                body()
                if self._fault is not None:
                    self._fault()
        except (sqlite3.Error, OSError) as exc:
            what = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise StoreWriteError(f"cannot write {self.path}: {what}") from None

    # -- reading the log (a separate read-only connection: never waits for the writer) -----------------
    def read_decisions(
        self,
        *,
        after_seq: int | None = None,
        since_time: float | None = None,
        limit: int = 100,
        max_bytes: int | None = None,
    ) -> list[dict[str, Any]]:
        """Decision-log entries, oldest first: after a seq, from a time on, else the latest ``limit``; at
        most ``max_bytes`` of stored entry text (the first entry always: the caller's page is never empty
        while entries remain). Rows are streamed, so memory holds one page, never the result set."""
        args: tuple[float, ...]
        newest_first = False
        if after_seq is not None:
            sql, args = "SELECT entry FROM decisions WHERE seq > ? ORDER BY seq LIMIT ?", (after_seq, limit)
        elif since_time is not None:
            sql, args = "SELECT entry FROM decisions WHERE at >= ? ORDER BY seq LIMIT ?", (since_time, limit)
        else:  # the latest: read newest first so a byte budget keeps the newest, then put them in order
            sql, args, newest_first = "SELECT entry FROM decisions ORDER BY seq DESC LIMIT ?", (limit,), True
        entries: list[str] = []
        size = 0
        with self._read_lock:
            if self._reader is None:
                self._reader = connect(self.path, read_only=True)
            rows = self._reader.execute(sql, args)
            for (entry,) in rows:
                size += len(entry.encode())
                if max_bytes is not None and entries and size > max_bytes:
                    break
                entries.append(entry)
            rows.close()
        if newest_first:
            entries.reverse()
        return [json.loads(entry) for entry in entries]

    # -- closing ---------------------------------------------------------------------------------------
    def close(self, state: State | None = None) -> None:
        """Write a final checkpoint (when ``state`` is given) and release the lock."""
        if state is not None and self._db is not None and state.seq == self._head_seq:
            with contextlib.suppress(StoreWriteError):
                self.checkpoint(state)
        with self._read_lock:
            for db in (self._reader, self._db):
                if db is not None:
                    db.close()
            self._reader = self._db = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
