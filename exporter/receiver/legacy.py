"""The store format 1 (a JSONL decision journal plus JSON snapshots), read once to migrate it to SQLite.

Layout of a format-1 ``store_dir`` (written by receivers before the SQLite store):

- ``decisions.jsonl``: every decision, one JSON object per line; the source of truth.
- ``state.json`` / ``state.prev.json``: snapshots of the folded state with the ``seq`` they include.

``read_journal`` loads it exactly as the format-1 receiver did (newest readable snapshot plus the log entries
after it; a torn last line, never acknowledged, is skipped; any other damage is a ``StoreError`` naming the
file and line), without changing any file. ``store.Store.open`` then writes the result into the SQLite store
and renames these files to ``*.migrated``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from exporter.receiver.codec import UnsupportedVersion, decision_from_json, state_from_json
from exporter.receiver.errors import StoreError
from exporter.receiver.ladder import Ladder
from exporter.receiver.state import Decision, State, apply_decisions

LOG_NAME = "decisions.jsonl"
SNAPSHOT_NAME = "state.json"
PREVIOUS_NAME = "state.prev.json"
FILES = (LOG_NAME, SNAPSHOT_NAME, PREVIOUS_NAME)


@dataclass(frozen=True, slots=True)
class Journal:
    state: State
    decisions: tuple[Decision, ...]  # the whole log, oldest first
    warnings: tuple[str, ...]


def has_journal(directory: Path) -> bool:
    """Whether ``directory`` holds any file of a format-1 store."""
    return any((directory / name).exists() for name in FILES)


def read_journal(directory: Path, ladder: Ladder | None = None) -> Journal:
    """The state and decisions of a format-1 store (``StoreError`` if it cannot be trusted)."""
    return _Reader(directory, ladder).load()


class _Reader:
    def __init__(self, directory: Path, ladder: Ladder | None) -> None:
        self.directory = directory
        self._ladder = ladder

    def load(self) -> Journal:
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
        return Journal(state, tuple(decisions), tuple(warnings))

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
                        f"{path}:{number}: torn last entry skipped ({exc}); it was never acknowledged"
                    )
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
        return decisions
