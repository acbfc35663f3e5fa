"""The file-backed durable store: an append-only decision log plus state snapshots, under an fcntl lock.

Layout of ``store_dir`` (format documented in docs/receiver.md):

- ``decisions.jsonl``: every decision, one JSON object per line, appended and fsynced *before* the
  receiver answers 2xx. It is the source of truth; the state is a fold of it.
- ``state.json``: a snapshot (checkpoint) of the folded state with the ``seq`` of the last decision it
  includes; written as temp file + fsync + atomic rename + directory fsync. ``state.prev.json`` is the
  previous snapshot (the last good copy).
- ``receiver.lock``: held with ``flock`` for the life of the process. A second receiver on the same
  directory refuses to start with a message naming the holder's pid.

Loading: the newest readable snapshot (``state.json``, else ``state.prev.json``, else none) plus the log
entries after its ``seq``. A torn last log line (a crash mid-append, never acknowledged) is cut off. Any
other damage (including an entry that parses but cannot be decoded or applied) is a ``StoreError`` naming
the file, line and problem; a fallback to the previous snapshot is reported in ``warnings`` for the caller
to log loudly. When snapshots exist but none is readable, the log must rebuild the state from decision 1,
else ``StoreError``. Never a silently empty state.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from exporter.receiver.codec import (
    UnsupportedVersion,
    decision_from_json,
    decision_to_json,
    state_from_json,
    state_to_json,
)
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Decision, State, apply_decisions

LOG_NAME = "decisions.jsonl"
SNAPSHOT_NAME = "state.json"
PREVIOUS_NAME = "state.prev.json"
LOCK_NAME = "receiver.lock"


class StoreError(Exception):
    """The store cannot be opened; the message says which file and what is wrong."""


class StoreLocked(StoreError):
    """Another process holds the store's lock."""


class StoreWriteError(Exception):
    """A write failed; nothing was acknowledged and the in-memory state did not change (retryable)."""


@dataclass(frozen=True, slots=True)
class Loaded:
    state: State
    decisions: tuple[Decision, ...]  # the whole log, oldest first
    warnings: tuple[str, ...]


class Store:
    """One writer's handle on a store directory. Use ``Store.open``; call ``close`` (or use ``with``)."""

    def __init__(
        self,
        directory: Path,
        *,
        ladder: Ladder | None = None,
        snapshot_every: int = 256,
        fsync: Callable[[int], None] = os.fsync,
        clock: Callable[[], float] | None = None,
    ) -> None:
        self.directory = directory
        self._ladder = ladder
        self._snapshot_every = snapshot_every
        self._fsync = fsync
        self._clock = clock
        self._lock_fd: int | None = None
        self._log_fd: int | None = None
        self._log_size = 0
        self._since_snapshot = 0
        self._broken: str | None = None
        # Whether state.json is a good copy: an unreadable one must never replace the last good copy.
        self._snapshot_good = True

    # -- opening ---------------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        directory: Path,
        *,
        ladder: Ladder | None = None,
        snapshot_every: int = 256,
        fsync: Callable[[int], None] = os.fsync,
        clock: Callable[[], float] | None = None,
    ) -> tuple[Store, Loaded]:
        """Lock the directory (creating it if needed), load the state, and return a writable store.

        Example::

            store, loaded = Store.open(Path("/var/lib/canary/receiver"))
            for line in loaded.warnings:
                log.error(line)
        """
        store = cls(directory, ladder=ladder, snapshot_every=snapshot_every, fsync=fsync, clock=clock)
        try:
            store._lock()
            loaded = store._load()
            store._open_log()
            if loaded.warnings or store._since_snapshot:
                store.checkpoint(loaded.state)
        except OSError as exc:
            store.close()
            raise StoreError(f"cannot write to store directory {directory}: {exc.strerror}") from None
        except BaseException:
            store.close()
            raise
        return store, loaded

    def _lock(self) -> None:
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
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

    def _load(self) -> Loaded:
        warnings: list[str] = []
        log_path = self.directory / LOG_NAME
        lines: list[int] = []  # line number of each decision in the log
        decisions = self._read_log(log_path, warnings, lines)
        state: State | None = None
        unreadable: list[str] = []
        for name in (SNAPSHOT_NAME, PREVIOUS_NAME):
            path = self.directory / name
            if not path.exists():
                if name == SNAPSHOT_NAME and decisions and (self.directory / PREVIOUS_NAME).exists():
                    warnings.append(f"{path} is missing; recovering from {PREVIOUS_NAME}")
                continue
            try:
                state = state_from_json(json.loads(path.read_bytes()))
            except UnsupportedVersion as exc:
                raise StoreError(f"{path}: {exc} (written by another version of the receiver)") from None
            except (OSError, ValueError, RecursionError) as exc:
                what = exc.strerror if isinstance(exc, OSError) else str(exc)
                unreadable.append(f"{path} is unreadable ({what})")
                if name == SNAPSHOT_NAME:
                    self._snapshot_good = False
                continue
            warnings.extend(f"{u}; recovered from the previous copy {path}" for u in unreadable)
            break
        if state is None:
            if unreadable and (not decisions or decisions[0].seq != 1):
                first = f"starts at decision {decisions[0].seq}" if decisions else "is empty or missing"
                raise StoreError(
                    "; ".join(unreadable) + f"; and {log_path} {first}, so the state cannot be rebuilt: "
                    "refusing to start with a state that forgets suspensions (restore a snapshot or the "
                    "whole log, or move the store directory aside to start empty on purpose)"
                )
            warnings.extend(f"{u}; rebuilding the state from {log_path}" for u in unreadable)
            if decisions and not warnings:
                warnings.append(f"no snapshot in {self.directory}; rebuilding the state from {LOG_NAME}")
            state = State()
        last = decisions[-1].seq if decisions else 0
        if state.seq > last:
            warnings.append(
                f"{log_path} ends at decision {last} but the snapshot includes {state.seq}: "
                "the log lost entries; serving the snapshot"
            )
        start = next((i for i, d in enumerate(decisions) if d.seq > state.seq), len(decisions))
        state = self._replay(state, decisions, lines, start, log_path)
        self._since_snapshot = len(decisions) - start
        return Loaded(state, tuple(decisions), tuple(warnings))

    def _replay(
        self, state: State, decisions: list[Decision], lines: list[int], start: int, log_path: Path
    ) -> State:
        """Apply ``decisions[start:]``; one that cannot be applied is a ``StoreError`` naming its line."""
        try:
            return apply_decisions(state, decisions[start:], self._ladder)
        except Exception:  # noqa: S110 - find the entry at fault, one at a time (only on a damaged store)
            pass
        for i in range(start, len(decisions)):
            try:
                state = apply_decisions(state, [decisions[i]], self._ladder)
            except Exception as exc:
                raise StoreError(
                    f"{log_path}:{lines[i]}: decision {decisions[i].seq} cannot be applied "
                    f"({type(exc).__name__}: {exc}); restore the file or move it aside"
                ) from None
        return state

    def _read_log(self, path: Path, warnings: list[str], numbers: list[int]) -> list[Decision]:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror}") from None
        decisions: list[Decision] = []
        lines = data.split(b"\n")
        offset = 0  # byte offset of the current line
        for number, line in enumerate(lines, start=1):
            if line:
                try:
                    raw = json.loads(line)
                except (ValueError, RecursionError) as exc:
                    if any(lines[number:]):
                        raise StoreError(
                            f"{path}:{number}: corrupt decision log entry ({exc}); the log is append-only, "
                            "so this is damage rather than a crash: restore the file or move it aside"
                        ) from None
                    warnings.append(
                        f"{path}:{number}: torn last entry cut off ({exc}); it was never acknowledged"
                    )
                    self._truncate(path, offset)
                    return decisions
                try:  # a whole JSON line with bad content is damage, never a torn write
                    decision = decision_from_json(raw)
                except ValueError as exc:
                    raise StoreError(
                        f"{path}:{number}: invalid decision log entry ({exc}); "
                        "restore the file or move it aside"
                    ) from None
                if decisions and decision.seq <= decisions[-1].seq:
                    raise StoreError(
                        f"{path}:{number}: decision {decision.seq} is not after {decisions[-1].seq}"
                    )
                decisions.append(decision)
                numbers.append(number)
            offset += len(line) + 1
        if data and not data.endswith(b"\n"):
            # The last entry is whole but its newline never reached the disk: finish the line.
            with path.open("ab") as f:
                f.write(b"\n")
        return decisions

    @staticmethod
    def _truncate(path: Path, size: int) -> None:
        try:
            os.truncate(path, size)
        except OSError as exc:
            raise StoreError(f"cannot cut the torn entry off {path}: {exc.strerror}") from None

    def _open_log(self) -> None:
        path = self.directory / LOG_NAME
        created = not path.exists()
        self._log_fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        self._log_size = os.fstat(self._log_fd).st_size
        if created:
            self._fsync_dir()

    # -- writing ---------------------------------------------------------------------------------------
    def commit(self, decisions: Sequence[Decision], state: State) -> None:
        """Make ``decisions`` durable (append + fsync); ``state`` is the state after them.

        Raises ``StoreWriteError`` if they are not durable; the log is then cut back to where it was.
        A snapshot is written every ``snapshot_every`` decisions; its failure is not an error because the
        log already holds the decisions.
        """
        if not decisions:
            return
        if self._broken is not None:
            raise StoreWriteError(self._broken)
        assert self._log_fd is not None, "store is closed"
        data = b"".join(
            json.dumps(decision_to_json(d), ensure_ascii=False).encode() + b"\n" for d in decisions
        )
        try:
            view = memoryview(data)
            while view:
                written = os.write(self._log_fd, view)
                view = view[written:]
            self._fsync(self._log_fd)
        except OSError as exc:
            try:
                os.ftruncate(self._log_fd, self._log_size)
            except OSError as exc2:
                self._broken = (
                    f"{self.directory / LOG_NAME} could not be cut back after a failed write "
                    f"({exc2.strerror}); restart the receiver"
                )
            raise StoreWriteError(f"cannot write {self.directory / LOG_NAME}: {exc.strerror}") from None
        self._log_size += len(data)
        self._since_snapshot += len(decisions)
        if self._since_snapshot >= self._snapshot_every:
            with contextlib.suppress(OSError):
                self.checkpoint(state)

    def checkpoint(self, state: State) -> None:
        """Write a snapshot: temp file, fsync, keep the old one as the last good copy, rename, fsync dir."""
        now = self._clock() if self._clock is not None else 0.0
        body = json.dumps(state_to_json(state, now), ensure_ascii=False, indent=1).encode() + b"\n"
        tmp = self.directory / (SNAPSHOT_NAME + ".tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, body)
            self._fsync(fd)
        finally:
            os.close(fd)
        current = self.directory / SNAPSHOT_NAME
        if current.exists() and self._snapshot_good:
            prev_tmp = self.directory / (PREVIOUS_NAME + ".tmp")
            prev_tmp.unlink(missing_ok=True)
            os.link(current, prev_tmp)
            os.replace(prev_tmp, self.directory / PREVIOUS_NAME)
        os.replace(tmp, current)
        self._fsync_dir()
        self._snapshot_good = True
        self._since_snapshot = 0

    def _fsync_dir(self) -> None:
        fd = os.open(self.directory, os.O_RDONLY)
        try:
            self._fsync(fd)
        finally:
            os.close(fd)

    # -- closing ---------------------------------------------------------------------------------------
    def close(self, state: State | None = None) -> None:
        """Write a final snapshot (when ``state`` is given and the store is healthy) and release the lock."""
        if state is not None and self._log_fd is not None and self._broken is None:
            with contextlib.suppress(OSError):
                self.checkpoint(state)
        for fd in (self._log_fd, self._lock_fd):
            if fd is not None:
                os.close(fd)
        self._log_fd = self._lock_fd = None
