"""Backing up and restoring the receiver's store with SQLite's online backup API, consistent with its witness.

``backup`` copies a consistent snapshot of ``receiver.sqlite3`` (its write-ahead log included, so nothing
committed is left out) while a receiver may be running, into one self-contained file (rollback journal
mode, no side file), and proves the copy before moving it in place: SQLite's integrity check, every
decision's chain hash, the head, and that it holds the decision the witness recorded when the backup
began (every acknowledged decision up to then).

``restore`` puts a proven backup back into a store directory no receiver holds (its lock is taken), removes
the old write-ahead log and shared-memory files, and deliberately re-issues the witness at the backup's last
decision. It is audited: a ``meta`` row ``restored:TIME`` in the restored store names the file, its last
decision and what the witness said before (the decisions after the backup are lost), and the summary says
so. The restored store is then opened as a receiver would (the whole log and the state tables proven).

Example::

    summary = backup(Path("/var/lib/canary/receiver"), Path("/backups/receiver-2026-12-06.sqlite3"))
    print(summary)
"""

from __future__ import annotations

import os
import sqlite3
import time
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from exporter.receiver import tables
from exporter.receiver.ladder import Ladder
from exporter.receiver.store import (
    AUDIT,
    FILE_NAME,
    FORMAT,
    FORMAT_CHECKPOINT,
    FORMAT_PARTS,
    GENESIS,
    SIDE_FILES,
    Store,
    StoreError,
    StoreLocked,
    last_proven,
    lock_store_dir,
    prove_head,
    stored_chain,
)
from exporter.receiver.witness import Witness, WitnessError, fsync_path, read_witness, write_witness
from exporter.sqlitekit import connect, integrity_problem, stored_schema
from exporter.timestamps import format_rfc3339

__all__ = ["Proven", "backup", "prove_file", "restore"]


@dataclass(frozen=True, slots=True)
class Proven:
    """A store file proven whole: its last decision and that decision's chain hash."""

    seq: int
    chain: bytes


def prove_file(path: Path) -> Proven:
    """Prove a store file on its own: integrity, format, every chain hash from decision 1, the head, and
    the state tables against the head's digest (a format-2 or format-3 file is migrated when a
    receiver opens it: its state is rebuilt from the log, so only its log is proven). ``StoreError``
    naming the file and the decision when it is not a whole store."""
    if not path.is_file():
        raise StoreError(f"{path}: no such file")
    try:
        with closing(connect(path, read_only=True)) as db:
            if (problem := integrity_problem(db)) is not None:
                raise StoreError(f"{path}: SQLite integrity check failed ({problem})")
            version, names = stored_schema(db)
            if version not in (FORMAT, FORMAT_PARTS, FORMAT_CHECKPOINT) or not {"decisions", "head"} <= names:
                raise StoreError(f"{path}: not a receiver store of format {FORMAT} (format {version})")
            seq, chain = last_proven(db, path, 0, GENESIS)
            prove_head(db, path, seq, chain)
            if version == FORMAT:
                pruned_at, *digests = db.execute(
                    "SELECT pruned_at, digest, records FROM head WHERE id = 1"
                ).fetchone()
                stored = (tables.parts_digest(db, pruned_at), tables.records_digest(db))
                if tuple(map(tables.digest_bytes, stored)) != tuple(map(bytes, digests)):
                    raise StoreError(f"{path}: the state tables do not match the digest in the head")
            return Proven(seq, chain)
    except (sqlite3.Error, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: not a usable receiver store ({exc})") from None


def _copy(source: Path, target: Path, *, read_only: bool) -> None:
    """SQLite's online backup of ``source`` into a new ``target`` in rollback-journal mode, fsynced."""
    target.unlink(missing_ok=True)
    with (
        closing(connect(source, read_only=read_only)) as src,
        closing(sqlite3.connect(str(target), isolation_level=None)) as dst,
    ):
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no side file
    fsync_path(target)


def backup(directory: Path, to: Path) -> str:
    """Copy the store in ``directory`` to the file ``to`` (replaced atomically) and prove the copy; returns
    a one-line summary. ``StoreError`` when the store or the copy is not whole (``to`` is then untouched)."""
    source = directory / FILE_NAME
    if not source.is_file():
        raise StoreError(f"no receiver store in {directory} ({FILE_NAME} is missing)")
    try:
        witness = read_witness(directory)  # before the copy: every decision it records is in the snapshot
    except WitnessError as exc:
        raise StoreError(f"{exc}: refusing to back up a store whose size cannot be proven") from None
    tmp = to.with_name(to.name + ".tmp")
    try:
        _copy(source, tmp, read_only=True)
        proven = prove_file(tmp)
        if witness is not None:
            _check_against(tmp, proven, witness, directory)
        os.replace(tmp, to)
        fsync_path(to.parent)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot back up {source} to {to}: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot back up {source} to {to}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)
    return f"backed up {directory} (decisions up to {proven.seq}) to {to}; proven: integrity, chain, head"


def _check_against(path: Path, proven: Proven, witness: Witness, directory: Path) -> None:
    if witness.seq > proven.seq:
        raise StoreError(
            f"{directory}: the store ends at decision {proven.seq} but its witness says decision "
            f"{witness.seq} was acknowledged: refusing to back up an incomplete store"
        )
    with closing(connect(path, read_only=True)) as db:
        stored = stored_chain(db, path, witness.seq)  # in the file: witness.seq <= proven.seq
    if stored != witness.chain:
        raise StoreError(
            f"{directory}: decision {witness.seq} differs from the one its witness records: refusing to "
            "back up another history"
        )


def restore(directory: Path, source: Path, *, ladder: Ladder | None = None, now: float | None = None) -> str:
    """Replace the store in ``directory`` (created if missing) by the backup ``source``, re-issue the
    witness at its last decision and prove the result by opening it; returns a summary saying what the
    witness said before. ``StoreLocked`` while a receiver runs on ``directory``."""
    proven = prove_file(source)
    directory.mkdir(parents=True, exist_ok=True)
    try:
        lock = lock_store_dir(directory)
    except StoreLocked:
        raise StoreLocked(
            f"a receiver is running on {directory}: stop it before restoring (a restore replaces its store)"
        ) from None
    try:
        try:
            before = read_witness(directory)
        except WitnessError as exc:
            said = f"the witness was damaged ({exc})"
        else:
            said = "there was no witness" if before is None else f"the witness said decision {before.seq}"
            if before is not None and before.seq > proven.seq:
                said += f": decisions {proven.seq + 1}..{before.seq} are lost"
        at = format_rfc3339(time.time() if now is None else now)
        target = directory / FILE_NAME
        tmp = directory / (FILE_NAME + ".restore")
        _copy(source, tmp, read_only=True)
        note = f"restored from {source} (decisions up to {proven.seq}); {said}"
        with closing(sqlite3.connect(str(tmp), isolation_level=None)) as db:
            db.execute(AUDIT, (f"restored:{at}", note))
        fsync_path(tmp)
        for suffix in SIDE_FILES:  # the old log must never be applied to the restored file
            (directory / (FILE_NAME + suffix)).unlink(missing_ok=True)
        os.replace(tmp, target)
        fsync_path(directory)
        write_witness(directory, Witness(proven.seq, proven.chain, f"restore from {source} at {at}"))
    except sqlite3.Error as exc:
        raise StoreError(f"cannot restore {source} into {directory}: {exc}") from None
    except OSError as exc:
        raise StoreError(f"cannot restore {source} into {directory}: {exc.strerror or exc}") from None
    finally:
        os.close(lock)
    with Store(directory, ladder=ladder) as store:  # opened as a receiver would; the whole log proven below
        if (problem := store.verify_history()) is not None:
            raise StoreError(problem)
    return f"{directory}: {note}; audited in its meta table as restored:{at}"
