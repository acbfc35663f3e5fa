"""The receiver's durable store: one SQLite file that proves its own integrity at start-up, under a lock.

Layout of ``store_dir`` (format documented in docs/receiver.md, "Store format"):

- ``receiver.sqlite3`` (WAL, ``synchronous=FULL``; see ``exporter.sqlitekit``):
  - ``decisions``: the audit log and the **source of truth**, one row per decision: ``seq`` (1, 2, 3, ...
    with no gap), ``at``, ``entry`` (the decision as canonical JSON) and ``chain``, the SHA-256 of the
    previous row's ``chain`` followed by this ``entry`` (the first row chains from ``GENESIS``).
  - ``parts`` (one row per model), ``suspensions``, ``holds``, ``offenses`` and ``incidents`` (one row
    per record, read without decoding a model): the state at the head of the log
    (``exporter.receiver.tables``), the rows of the models each decision changes rewritten.
  - ``head``: the ``seq`` and ``chain`` of the last decision, the state's ``pruned_at``, the ``digest``
    of the parts and ``pruned_at`` and the ``records`` digest of the record tables (``tables.Digest``);
    all updated in the same transaction as the decisions and the tables.
  - ``meta``: the store format and when and how the store was created, migrated, restored or adopted.
- ``receiver.witness``: the last acknowledged decision's ``seq`` and ``chain``, rewritten after every
  commit outside its transaction (``exporter.receiver.witness``): what proves the store's size when its
  write-ahead log was lost or damaged. A store behind its witness is refused (``--adopt-store`` accepts
  it on purpose, audited in ``meta``).
- ``receiver.lock``: held with ``flock`` for the life of the process. A second receiver on the same
  directory refuses to start with a message naming the holder's pid.

Opening checks, in order: ``PRAGMA integrity_check`` (of the small tables when the log is long); the
format; the head against the last decision (no decision removed at the end, the last one not altered);
every row's ``seq`` (no gap) and ``chain`` (no edited row) when the log has at most ``SYNC_VERIFY_ROWS``
decisions (a longer one is proven in the background: ``verify_history``); the parts against the head's
digest (one streaming scan); the record tables against theirs too when the log has at most
``SYNC_VERIFY_ROWS`` decisions (a record row is made by a decision, so a short log has few), else in the
background (``records_sound``). Parts that differ from their digest are rebuilt, with the record tables,
exactly from the whole log, loudly (``warnings``); record tables that differ from theirs are rebuilt
from the proven parts (``rebuild_records``, under the writer's lock); everything else is a
``StoreError`` naming the file and the decision.
The state is then read one model at a time, when a model is first asked for (``State.source``).
A missing store file is never a fresh start unless asked for (``init=True``, the CLI's ``--init``), and
``init`` creates only in an empty directory (nothing but the lock of an earlier attempt): a store, its
remains or its witness are refused whatever ``init`` says.
A format-2 store (the state as one JSON checkpoint) or format-3 store (the state tables without the
per-record ones) is migrated at start-up: the whole log is proven and folded, written to the tables,
and the tables are read back and compared with the fold before the migration commits (audited in
``meta``). A format-1 store (a JSONL journal with JSON snapshots) is refused with what to do
(docs/receiver.md, "Format 1").

A decision is durable when ``commit`` returns: SQLite has fsynced the transaction (``synchronous=FULL``).
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exporter.lifecycle import Closing
from exporter.receiver import tables
from exporter.receiver.codec import decision_from_json, decision_to_json
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Decision, Fold, State
from exporter.receiver.witness import (
    WITNESS_NAME,
    Witness,
    WitnessError,
    fsync_path,
    read_witness,
    write_witness,
)
from exporter.sqlitekit import connect, create_schema, integrity_problem, stored_schema, transaction
from exporter.timestamps import format_rfc3339

__all__ = ["Loaded", "Store", "StoreError", "StoreLocked", "StoreWriteError", "is_empty_store_dir"]

FILE_NAME = "receiver.sqlite3"
LOCK_NAME = "receiver.lock"
FORMAT = 4
#: The format whose state was one JSON checkpoint; migrated to this one at start-up.
FORMAT_CHECKPOINT = 2
#: The format whose state tables held one row per model only; migrated to this one at start-up.
FORMAT_PARTS = 3
#: The files of a format-1 store (a JSONL decision journal and its JSON snapshots), refused at start-up.
FORMAT_1_FILES = ("decisions.jsonl", "state.json", "state.prev.json")
#: The last revision of this project whose receiver migrates a format-1 store to this format.
MIGRATING_REVISION = "f0b75bf"
GENESIS = hashlib.sha256(b"canary receiver decision log").digest()
#: The side files of ``receiver.sqlite3`` (its write-ahead log, shared memory, rollback journal).
SIDE_FILES = ("-wal", "-shm", "-journal")
_MAX_SEQ = 2**63 - 1  # SQLite's largest integer: no bound on a read's last seq
#: What ``--init`` accepts in a directory it calls empty: the lock of an earlier attempt and the temporary
#: file of a creation that was interrupted before it was moved in place.
_CREATABLE_OVER = frozenset({LOCK_NAME, FILE_NAME + ".new"})
#: The recovery path every refusal about a lost suffix names (docs/receiver.md, "Recovering a store").
RECOVERY = (
    "put back the complete store (receiver.sqlite3 with its receiver.sqlite3-wal) if you have it; otherwise "
    "restore the last backup with `canary receiver restore --from FILE`, or accept this store as it is "
    "with `canary receiver --adopt-store` (the decisions after it are lost; both are audited)"
)
#: Logs up to this many rows are proven whole at start-up; longer ones in the background (see _load).
SYNC_VERIFY_ROWS = 20_000

_HEAD_COLUMNS = ("pruned_at REAL NOT NULL DEFAULT 0", "digest BLOB NOT NULL DEFAULT x''")
_RECORDS_COLUMN = "records BLOB NOT NULL DEFAULT x''"  # the record tables' digest (format 4)
_SCHEMA = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE decisions ("
    "seq INTEGER PRIMARY KEY, at REAL NOT NULL, entry TEXT NOT NULL, chain BLOB NOT NULL)",
    "CREATE INDEX decisions_at ON decisions (at)",
    "CREATE TABLE head (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, chain BLOB NOT NULL, "
    + ", ".join((*_HEAD_COLUMNS, _RECORDS_COLUMN))
    + ")",
    *tables.SCHEMA,
)
AUDIT = "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)"  # a row of ``meta``
_TABLES = frozenset({"meta", "decisions", "head"}) | tables.TABLES
_SMALL_TABLES = ("meta", "head", *sorted(tables.TABLES))  # checked at every start-up
_INSERT_DECISIONS = "INSERT INTO decisions (seq, at, entry, chain) VALUES (?, ?, ?, ?)"
_SET_HEAD = "UPDATE head SET seq = ?, chain = ?, pruned_at = ?, digest = ?, records = ? WHERE id = 1"


class StoreError(Exception):
    """The store cannot be opened; the message says which file and entry, and what is wrong."""


class StoreLocked(StoreError):
    """Another process holds the store's lock."""


class StoreWriteError(Exception):
    """A write failed; nothing was acknowledged (retryable). ``durable`` is True when the decisions are in
    the store but the witness could not be updated: the caller adopts the state but does not acknowledge."""

    def __init__(self, message: str, *, durable: bool = False, state: State | None = None) -> None:
        super().__init__(message)
        self.durable = durable
        self.state = state  # with ``durable``: the state the store holds now


def is_empty_store_dir(directory: Path) -> bool:
    """Whether ``--init`` may create a store in ``directory``: it is missing or holds nothing of a store."""
    try:
        return all(p.name in _CREATABLE_OVER for p in directory.iterdir())
    except FileNotFoundError:
        return True


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
        clock: Callable[[], float] | None = None,
        fault: Callable[[], None] | None = None,
        init: bool = False,
        adopt: bool = False,
    ) -> None:
        self.directory = directory
        self.path = directory / FILE_NAME
        self._ladder = ladder
        self._clock = clock or time.time
        self._fault = fault
        self._lock_fd: int | None = None
        self._lock_existed = False
        self._db: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._read_lock = threading.Lock()
        self._head_seq = 0
        self._head_chain = GENESIS
        self._pruned_at = 0.0
        self._digest = tables.Digest(0, 0)  # of the state tables (``tables``), as the head records it
        self._records_unproven = False  # the record tables are proven by records_sound (a long log)
        self._tables: tables.Tables | None = None
        self._unproven = 0  # the log rows up to this one are proven by verify_history (a long log)
        try:
            self._lock(create_directory=init)
            witness = self._read_witness(adopt)
            if not self.path.exists():
                self._create(init, witness)
            elif init:
                raise StoreError(
                    f"--init creates a store only in an empty directory, and {directory} already holds "
                    f"one ({FILE_NAME}): start without --init to open it"
                )
            loaded = self._load()
            self.loaded = Loaded(loaded.state, loaded.warnings + self._check_witness(witness, adopt))
        except (sqlite3.Error, UnicodeDecodeError, OverflowError) as exc:  # damaged text or numbers
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
        self._lock_fd = lock_store_dir(self.directory)

    def _read_witness(self, adopt: bool) -> Witness | WitnessError | None:
        try:
            return read_witness(self.directory)
        except WitnessError as exc:
            if adopt:
                return exc
            raise StoreError(
                f"{exc}: the size of the store cannot be proven; if receiver.sqlite3 is the store this "
                "receiver last wrote, accept it with `canary receiver --adopt-store` (audited), or restore "
                "a backup with `canary receiver restore --from FILE`"
            ) from None

    def _check_witness(self, witness: Witness | WitnessError | None, adopt: bool) -> tuple[str, ...]:
        """Prove the store is not smaller than its witness says (module docstring of ``witness``); bring
        the witness up to the head. With ``adopt``, a missing, damaged or contradicting witness is replaced
        by the store's head, loudly (a warning, and a ``meta`` row)."""
        seq, chain = self._head_seq, self._head_chain
        problem = ""
        if isinstance(witness, WitnessError):
            problem = f"{witness}"
        elif witness is None:
            if seq > 0:
                problem = (
                    f"{self.path} holds decisions 1..{seq} but its witness {WITNESS_NAME} is missing, so "
                    "the store cannot be proven whole (a store written before the witness existed, or a "
                    "directory copied without it)"
                )
        elif witness.seq > seq:
            problem = (
                f"{self.path} ends at decision {seq} but its witness {WITNESS_NAME} says decision "
                f"{witness.seq} was acknowledged: decisions {seq + 1}..{witness.seq} are missing (a lost, "
                "truncated or damaged receiver.sqlite3-wal, or a file restored from an older copy)"
            )
        elif stored_chain(self._db_or_fail(), self.path, witness.seq) != witness.chain:
            problem = (
                f"{self.path}: decision {witness.seq} differs from the one its witness {WITNESS_NAME} "
                "records (another store's file, or a different history)"
            )
        if problem and not adopt:
            raise StoreError(f"{problem}; refusing to start: {RECOVERY}")
        warnings: tuple[str, ...] = ()
        if problem:
            note = f"adopted the store at decision {seq} by --adopt-store over: {problem}"
            db = self._db_or_fail()
            self._write(lambda: self._audit(db, "adopted", note))
            warnings = (f"{self.path}: {note}",)
        if problem or witness is None or isinstance(witness, WitnessError) or witness.seq != seq:
            write_witness(self.directory, Witness(seq, chain, "adopted" if problem else "start-up"))
        return warnings

    def _db_or_fail(self) -> sqlite3.Connection:
        assert self._db is not None, "store is closed"
        return self._db

    def _audit(self, db: sqlite3.Connection, what: str, text: str) -> None:
        """Record a deliberate operator action or a recovery in ``meta`` (``WHAT:TIME`` -> text), inside
        the transaction that makes it."""
        db.execute(AUDIT, (f"{what}:{format_rfc3339(self._clock())}", text))

    def _create(self, init: bool, witness: Witness | WitnessError | None) -> None:
        """Make a new, empty ``receiver.sqlite3`` with ``init``, where no store was before."""
        if isinstance(witness, Witness) and witness.seq > 0:
            raise StoreError(
                f"{self.path} is missing, but its witness {WITNESS_NAME} says the store held decision "
                f"{witness.seq}: refusing to start with an empty state; restore the store with "
                "`canary receiver restore --from FILE` (never start a new store over an old one's witness)"
            )
        leftovers = [
            self.path.name + s for s in SIDE_FILES if (self.directory / (self.path.name + s)).exists()
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
        if init and not is_empty_store_dir(self.directory):
            found = sorted(p.name for p in self.directory.iterdir() if p.name not in _CREATABLE_OVER)
            raise StoreError(
                f"--init creates a store only in an empty directory, and {self.directory} is not empty "
                f"(found {', '.join(found[:6])}): refusing to create a new store over the remains of "
                "another one; move them away first"
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
        with closing(sqlite3.connect(str(tmp), isolation_level=None)) as db:
            create_schema(db, _SCHEMA, FORMAT)
            meta = {"format": str(FORMAT), "created_at": str(self._clock()), "origin": "new store (--init)"}
            with transaction(db):
                digest = tables.replace_parts(db, (), 0.0)
                db.execute(
                    "INSERT INTO head (id, seq, chain, pruned_at, digest, records) VALUES (1, 0, ?, 0, ?, ?)",
                    (GENESIS, *map(tables.digest_bytes, digest)),
                )
                db.executemany(AUDIT, sorted(meta.items()))
        fsync_path(tmp)
        os.replace(tmp, self.path)
        fsync_path(self.directory)
        write_witness(self.directory, Witness(0, GENESIS, "new store (--init)"))

    def _load(self) -> Loaded:
        warnings: list[str] = []
        db = self._db = connect(self.path)
        # A long log's file is checked page by page in the background (verify_history): reading every
        # page of a 200 MB file at start-up costs seconds once the page cache is cold.
        last = db.execute("SELECT coalesce(max(seq), 0) FROM decisions").fetchone()[0]
        small = last <= SYNC_VERIFY_ROWS
        version, names = stored_schema(db)
        migrated = {FORMAT_CHECKPOINT: {"checkpoint"}, FORMAT_PARTS: {"parts", *tables.FORMAT_3_TABLES}}
        if version in migrated and names >= {"meta", "decisions", "head", *migrated[version]}:
            warnings.append(self._migrate(db, last, version))
            small = True  # the migration proved every row
        elif (problem := integrity_problem(db, tables=None if small else _SMALL_TABLES)) is not None:
            raise StoreError(f"{self.path}: SQLite integrity check failed ({problem}); restore the file")
        version, names = stored_schema(db)
        if version != FORMAT or not names >= _TABLES:
            raise StoreError(
                f"{self.path}: store format {version} with tables {sorted(names)} is not a receiver store "
                f"of format {FORMAT} (written by another version of the receiver, or another program)"
            )
        # Small logs are proven whole before serving; above SYNC_VERIFY_ROWS only the last row is (start-up
        # stays flat), and ``verify_history`` proves the rest in the background.
        start = 0 if small else max(last - 1, 0)
        _, chain = last_proven(db, self.path, start, stored_chain(db, self.path, start))
        prove_head(db, self.path, last, chain)
        pruned_at, parts, records = db.execute("SELECT pruned_at, digest, records FROM head").fetchone()
        self._head_seq, self._head_chain, self._pruned_at = last, chain, float(pruned_at)
        self._unproven = 0 if small else start
        self._digest = tables.Digest(*(int.from_bytes(bytes(d), "big") for d in (parts, records)))
        if tables.parts_digest(db, self._pruned_at) != self._digest.parts or len(parts) != 32:
            warnings.append(
                f"{self.path}: the state tables do not match the digest in the head (a row was changed, "
                "removed or added); rebuilt them from the whole log (the state is exact: the log is intact)"
            )
            self._rebuild(db, "rebuilt")  # the record tables with the parts
        elif small and (len(records) != 32 or tables.records_digest(db) != self._digest.records):
            warnings.append(self.rebuild_records())
        else:
            self._records_unproven = not small  # proven in the background: ``records_sound``
        self._tables = tables.Tables(connect(self.path, read_only=True))
        return Loaded(self._state(), tuple(warnings))

    @property
    def tables(self) -> tables.Tables:
        """The state tables as read by the receiver (the head's committed state)."""
        if self._tables is None:
            raise RuntimeError("the store is closed: its tables can no longer be read")
        return self._tables

    def _state(self) -> State:
        """The state at the head, read from the tables one model at a time."""
        return State(self._head_seq, self._pruned_at, source=self._tables)

    def _fold_log(self, db: sqlite3.Connection) -> State:
        """The fold of the whole log, every row proven (the log is streamed; the state is in memory)."""
        rows = ((n, entry) for n, entry, _ in chained_rows(db, self.path, 0, GENESIS))
        return self._replay(State(), rows)

    def _rebuild(self, db: sqlite3.Connection, what: str, more: Callable[[], object] = lambda: None) -> None:
        """Write the state tables (and the head's digest) anew from the fold of the whole log, in one
        transaction with ``more``; read them back and compare them with the fold before it commits."""
        folded, digest = self._fold_log(db), tables.Digest(0, 0)

        def write() -> None:
            nonlocal digest
            more()
            digest = tables.replace_parts(db, folded.all_parts(), folded.pruned_at)
            db.execute(
                _SET_HEAD,
                (self._head_seq, self._head_chain, folded.pruned_at, *map(tables.digest_bytes, digest)),
            )
            written = State(folded.seq, folded.pruned_at, source=tables.Tables(db))
            stored = (tables.parts_digest(db, folded.pruned_at), tables.records_digest(db))
            if written != folded or stored != digest:
                raise StoreError(
                    f"{self.path}: the state tables {what} from the log do not read back as its fold"
                )
            self._audit(db, what, f"state tables {what} at decision {folded.seq}")

        self._write(write)
        self._pruned_at, self._digest = folded.pruned_at, digest  # as written to the head

    def records_sound(self) -> bool:
        """Whether the record tables match the head's ``records`` digest (True when start-up proved them
        already): the head and one streaming scan read in one transaction on a connection of its own, so
        commits go on meanwhile. False calls for ``rebuild_records``."""
        if not self._records_unproven:
            return True
        with closing(connect(self.path, read_only=True)) as db:
            db.execute("BEGIN")
            (stored,) = db.execute("SELECT records FROM head WHERE id = 1").fetchone()
            sound = len(stored) == 32 and tables.records_digest(db) == int.from_bytes(stored, "big")
            db.execute("COMMIT")
        self._records_unproven = not sound
        return sound

    def rebuild_records(self) -> str:
        """Write the record tables (and the head's ``records`` digest) anew from the parts, which start-up
        proved, audited in ``meta`` as ``rebuilt:TIME``; the warning to log. The caller holds the writer's
        lock (no commit meanwhile); ``StoreWriteError`` when it cannot be written."""
        db = self._db_or_fail()
        records = 0

        def write() -> None:
            nonlocal records
            records = tables.replace_records(db)
            db.execute("UPDATE head SET records = ? WHERE id = 1", (tables.digest_bytes(records),))
            self._audit(db, "rebuilt", f"record tables rebuilt from the parts at decision {self._head_seq}")

        self._write(write)
        self._digest, self._records_unproven = self._digest._replace(records=records), False
        return (
            f"{self.path}: the record tables do not match their digest in the head (a row was changed, "
            "removed or added); rebuilt them from the parts (the state is exact: the parts were proven)"
        )

    def _migrate(self, db: sqlite3.Connection, last: int, version: int) -> str:
        """Migrate a format-2 store (its state a JSON checkpoint) or a format-3 store (its state tables one
        row per model) to the state tables, exactly: the whole file checked, the whole log proven and
        folded, the tables read back equal to the fold."""
        if (problem := integrity_problem(db)) is not None:
            raise StoreError(f"{self.path}: SQLite integrity check failed ({problem}); restore the file")
        _, chain = last_proven(db, self.path, 0, GENESIS)
        prove_head(db, self.path, last, chain)
        self._head_seq, self._head_chain = last, chain

        def schema() -> None:
            if version == FORMAT_CHECKPOINT:
                db.execute("DROP TABLE checkpoint")
                for column in _HEAD_COLUMNS:
                    db.execute(f"ALTER TABLE head ADD COLUMN {column}")
            else:
                for table in ("parts", *tables.FORMAT_3_TABLES):
                    db.execute(f"DROP TABLE {table}")
            db.execute(f"ALTER TABLE head ADD COLUMN {_RECORDS_COLUMN}")
            for statement in tables.SCHEMA:
                db.execute(statement)
            db.execute(AUDIT, ("format", str(FORMAT)))
            db.execute(f"PRAGMA user_version = {FORMAT}")

        self._rebuild(db, "migrated", schema)
        was = "a JSON checkpoint" if version == FORMAT_CHECKPOINT else "state tables of one row per model"
        return (
            f"{self.path}: migrated the store from format {version} ({was}) to format {FORMAT} (state "
            f"tables) at decision {last}; the tables read back equal to the fold of the log"
        )

    def verify_history(self) -> str | None:
        """Prove the rows start-up did not (a long log): SQLite's integrity check of the whole file and
        every chain hash from decision 1 to the one start-up proved. None when sound (or nothing was left
        to prove), else the problem, naming the file and the decision. Reads on its own connection."""
        if not self._unproven:
            return None
        try:
            with closing(connect(self.path, read_only=True)) as db:
                if (problem := integrity_problem(db)) is not None:
                    return f"{self.path}: SQLite integrity check failed ({problem}); restore the file"
                for _ in chained_rows(db, self.path, 0, GENESIS, upto=self._unproven):
                    pass
        except StoreError as exc:
            return str(exc)
        except (sqlite3.Error, UnicodeDecodeError) as exc:
            return f"{self.path}: not a usable receiver store ({exc}); restore the file"
        self._unproven = 0
        return None

    def _replay(self, state: State, rows: Iterable[tuple[int, str]]) -> State:
        """Fold the log rows into ``state``, one decision at a time (rows may be streamed: memory holds
        the state, not the log); ``StoreError`` naming the first row that is invalid or cannot apply."""
        fold = Fold(state, self._ladder)
        for seq, entry in rows:
            try:
                decision = decision_from_json(json.loads(entry))
            except (ValueError, RecursionError) as exc:
                raise StoreError(f"{self.path}: decisions: decision {seq} is invalid ({exc})") from None
            if decision.seq != seq:
                raise StoreError(
                    f"{self.path}: decisions: the row of decision {seq} holds decision {decision.seq}"
                )
            if not decision.journaled:
                continue
            try:
                fold.apply(decision)
            except Exception as exc:
                raise StoreError(
                    f"{self.path}: decisions: decision {seq} cannot be applied ({type(exc).__name__}: {exc})"
                ) from None
        return fold.result()

    # -- writing ---------------------------------------------------------------------------------------
    def commit(self, decisions: Sequence[Decision], state: State) -> State:
        """Make ``decisions`` durable in one fsynced transaction, with the state tables brought to
        ``state`` (the state after them); return ``state`` as read from the store from now on.

        Only the parts ``state`` holds apart from this store's tables are written (those its decisions
        changed): the cost of the models decided about. A state not read from this store (built in memory)
        replaces the tables whole. Raises ``StoreWriteError`` if the decisions are not durable (the
        transaction is rolled back).
        """
        if not decisions:
            return state
        db = self._db_or_fail()
        assert state.seq == decisions[-1].seq, "the state after the decisions"
        rows, chain = [], self._head_chain
        for d in decisions:  # each row's entry (canonical JSON: what the chain hashes) chained on
            entry = json.dumps(decision_to_json(d), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            chain = chain_next(chain, entry)
            rows.append((d.seq, d.at, entry, chain))
        mine = state.source is self._tables
        digest = self._digest

        def write() -> None:
            nonlocal digest
            db.executemany(_INSERT_DECISIONS, rows)
            if mine:
                digest = tables.write_parts(db, state.parts.items(), digest)
                pruned = tables.pruned_at_hash(state.pruned_at) - tables.pruned_at_hash(self._pruned_at)
                digest = digest._replace(parts=(digest.parts + pruned) % (1 << 256))
            else:
                digest = tables.replace_parts(db, state.all_parts(), state.pruned_at)
            head = (decisions[-1].seq, chain, state.pruned_at, *map(tables.digest_bytes, digest))
            db.execute(_SET_HEAD, head)

        self._write(write)
        self._head_seq, self._head_chain = decisions[-1].seq, chain
        self._pruned_at, self._digest = state.pruned_at, digest
        # The parts just written are the store's now: kept as read, so the next judgement finds them.
        committed = State(
            state.seq, state.pruned_at, source=self._tables, memo=dict(state.parts) if mine else {}
        )
        try:  # outside the transaction: what proves the store's size after a lost write-ahead log
            write_witness(self.directory, Witness(self._head_seq, chain, "commit"))
        except OSError as exc:
            raise StoreWriteError(
                f"decisions up to {self._head_seq} are in {self.path} but its witness cannot be written: "
                f"{exc.strerror or exc}",
                durable=True,
                state=committed,
            ) from None
        return committed

    def _write(self, body: Callable[[], object]) -> None:
        db = self._db_or_fail()
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
        up_to_seq: int | None = None,
    ) -> list[dict[str, Any]]:
        """Decision-log entries, oldest first: after a seq, from a time on, else the latest ``limit``; none
        after ``up_to_seq``; at most ``max_bytes`` of stored entry text (the first entry always: the
        caller's page is never empty while entries remain). Rows are streamed, so memory holds one page,
        never the result set."""
        args: tuple[float, ...]
        newest_first = False
        last = up_to_seq if up_to_seq is not None else _MAX_SEQ
        if after_seq is not None:
            sql = "SELECT entry FROM decisions WHERE seq > ? AND seq <= ? ORDER BY seq LIMIT ?"
            args = (after_seq, last, limit)
        elif since_time is not None:
            sql = "SELECT entry FROM decisions WHERE at >= ? AND seq <= ? ORDER BY seq LIMIT ?"
            args = (since_time, last, limit)
        else:  # the latest: read newest first so a byte budget keeps the newest, then put them in order
            sql, args = "SELECT entry FROM decisions WHERE seq <= ? ORDER BY seq DESC LIMIT ?", (last, limit)
            newest_first = True
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
    def close(self) -> None:
        """Close the connections and release the lock (every commit is durable already)."""
        if self._tables is not None:
            self._tables.close()
            self._tables = None
        with self._read_lock:
            for db in (self._reader, self._db):
                if db is not None:
                    db.close()
            self._reader = self._db = None
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None


def chained_rows(
    db: sqlite3.Connection, path: Path, after: int, chain: bytes, upto: int | None = None
) -> Iterator[tuple[int, str, bytes]]:
    """``(seq, entry, chain)`` of the decisions after ``after`` (up to ``upto``), streamed, each proven by
    its chain hash from ``chain`` (the chain at ``after``) and by following the previous one with no gap;
    ``StoreError`` (naming ``path`` and the decision) at the first that is not."""
    expect = after + 1
    for seq, entry, stored in db.execute(
        "SELECT seq, entry, chain FROM decisions WHERE seq > ? AND seq <= ? ORDER BY seq",
        (after, upto if upto is not None else 2**62),
    ):
        if seq != expect:
            raise StoreError(
                f"{path}: decisions: decision {expect} is missing (the next one is {seq}): "
                "the log has a gap; restore the file"
            )
        chain = chain_next(chain, entry)
        if stored != chain:
            raise StoreError(
                f"{path}: decisions: decision {seq} was altered (its chain hash does not match "
                "its content and the decisions before it); restore the file"
            )
        yield seq, entry, chain
        expect += 1


def last_proven(db: sqlite3.Connection, path: Path, after: int, chain: bytes) -> tuple[int, bytes]:
    """Prove the rows after ``after`` (``chained_rows``); the last one's ``seq`` and chain."""
    seq, last = after, chain
    for seq, _, last in chained_rows(db, path, after, chain):  # noqa: B007 - the last is kept
        pass
    return seq, last


def stored_chain(db: sqlite3.Connection, path: Path, seq: int) -> bytes:
    """The chain hash stored with decision ``seq`` (``GENESIS`` for 0); ``StoreError`` when it is missing."""
    if seq == 0:
        return GENESIS
    row = db.execute("SELECT chain FROM decisions WHERE seq = ?", (seq,)).fetchone()
    if row is None:
        raise StoreError(f"{path}: decisions: decision {seq} is missing")
    return bytes(row[0])


def prove_head(db: sqlite3.Connection, path: Path, seq: int, chain: bytes) -> None:
    """``StoreError`` unless the head names the last decision of the log, ``seq`` with ``chain``."""
    head = db.execute("SELECT seq, chain FROM head WHERE id = 1").fetchone()
    if head is None:
        raise StoreError(f"{path}: the head row is missing: the store was edited; restore it")
    if (head[0], bytes(head[1])) != (seq, chain):
        raise StoreError(
            f"{path}: the log ends at decision {seq} but the store's head is decision {head[0]}"
            f"{' with another hash' if head[0] == seq else ''}: decisions were removed from the end or "
            "the last one was altered; restore the file"
        )


def lock_store_dir(directory: Path) -> int:
    """Take the store directory's ``flock`` (its file holds this pid) and return its descriptor;
    ``StoreLocked`` when another process holds it."""
    try:
        fd = os.open(directory / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise StoreError(f"cannot open store directory {directory}: {exc.strerror}") from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 64, 0).decode("ascii", "replace").strip() or "unknown"
        os.close(fd)
        raise StoreLocked(
            f"store directory {directory} is locked by another receiver (pid {holder}); "
            "refusing to start: two receivers must never write one store (stop the other one, or give "
            "this one its own store_dir)"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


def init_store(directory: Path, *, adopt: bool = False) -> str:
    """The first-run step (``canary receiver init``): create a new store where ``directory`` is empty or
    missing; where a store is, prove it opens and change nothing. ``StoreError`` for anything else (the
    remains of a store, a witness without its database, a damaged store). ``adopt`` accepts an existing
    store its witness does not prove (``--adopt-store``). Returns what it did."""
    if (directory / FILE_NAME).exists():
        store = Store(directory, adopt=adopt)
        store.close()
        seq = store.loaded.state.seq
        return f"a receiver store is already in {directory} (decisions up to {seq}): nothing to do"
    Store(directory, init=True).close()
    return f"created a new, empty receiver store in {directory}"
