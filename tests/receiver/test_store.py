"""The durable store: lock, snapshots, torn log tails, corruption, recovery from the last good copy."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from exporter.receiver.decide import Policy, decide_notification
from exporter.receiver.ladder import Ladder
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.state import Mode, State
from exporter.receiver.store import (
    LOG_NAME,
    PREVIOUS_NAME,
    SNAPSHOT_NAME,
    Store,
    StoreError,
    StoreLocked,
    StoreWriteError,
)

from .helpers import DAY, T0, alert, payload

POLICY = Policy(Mode.ENFORCE, Ladder((DAY, 3 * DAY), 14 * DAY))


def suspend_in(store: Store, state: State, provider: str, now: float = T0) -> State:
    n = parse_notification(payload(alert(provider, discovered="a/1,b/1,c/1,d/1,e/1,f/1")))
    assert isinstance(n, Notification)
    state, decisions = decide_notification(state, n, now, POLICY)
    store.commit(decisions, state)
    return state


def fill(directory: Path, providers: list[str], snapshot_every: int = 256) -> State:
    store, loaded = Store.open(directory, ladder=POLICY.ladder, snapshot_every=snapshot_every)
    state = loaded.state
    for p in providers:
        state = suspend_in(store, state, p)
    store.close(state)
    return state


def test_state_survives_a_reopen(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1"])
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert loaded.state == state and not loaded.warnings
    assert [d.seq for d in loaded.decisions] == [1, 2]


def test_a_second_writer_refuses_to_start_with_the_holders_pid(tmp_path: Path) -> None:
    store, _ = Store.open(tmp_path)
    try:
        with pytest.raises(
            StoreLocked, match=rf"locked by another receiver \(pid {os.getpid()}\); refusing to start"
        ):
            Store.open(tmp_path)
    finally:
        store.close()


def test_log_entries_after_the_snapshot_are_replayed(tmp_path: Path) -> None:
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    state = suspend_in(store, loaded.state, "a/1")
    store.checkpoint(state)
    state = suspend_in(store, state, "b/1")
    os.close(store._log_fd)  # simulate a crash: no final snapshot
    os.close(store._lock_fd)
    store._log_fd = store._lock_fd = None
    _, reloaded = Store.open(tmp_path, ladder=POLICY.ladder)
    _.close()
    assert reloaded.state == state


def test_a_torn_last_line_is_cut_off_and_reported(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1"])
    with (tmp_path / LOG_NAME).open("ab") as f:
        f.write(b'{"seq": 2, "at": 1.0, "kind": "susp')
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert loaded.state == state
    assert any("torn last entry cut off" in w for w in loaded.warnings)
    assert (tmp_path / LOG_NAME).read_bytes().endswith(b"}\n")


def test_a_corrupt_line_in_the_middle_is_a_precise_error(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1"])
    lines = (tmp_path / LOG_NAME).read_bytes().split(b"\n")
    lines[0] = b"garbage"
    (tmp_path / LOG_NAME).write_bytes(b"\n".join(lines))
    with pytest.raises(StoreError, match=rf"{LOG_NAME}:1: corrupt decision log entry"):
        Store.open(tmp_path, ladder=POLICY.ladder)


def test_a_corrupt_snapshot_recovers_from_the_last_good_copy_loudly(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1", "c/1"], snapshot_every=1)
    assert (tmp_path / PREVIOUS_NAME).exists()
    (tmp_path / SNAPSHOT_NAME).write_text('{"schema_version": 1, "seq": ')
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert loaded.state == state  # previous copy + the log entries after it
    assert any(f"{SNAPSHOT_NAME} is unreadable" in w for w in loaded.warnings)


def test_without_any_snapshot_the_state_is_rebuilt_from_the_log_never_empty(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1"], snapshot_every=1)
    (tmp_path / SNAPSHOT_NAME).write_text("not json")
    (tmp_path / PREVIOUS_NAME).write_text("[]")
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert loaded.state == state and len(loaded.state.suspensions) == 2
    assert any("rebuilding the state" in w for w in loaded.warnings)


def test_a_snapshot_from_another_version_is_refused(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1"])
    doc = json.loads((tmp_path / SNAPSHOT_NAME).read_text())
    doc["schema_version"] = 2
    (tmp_path / SNAPSHOT_NAME).write_text(json.dumps(doc))
    with pytest.raises(StoreError, match=r"state.json: schema_version is 2; this receiver reads 1"):
        Store.open(tmp_path)


def test_a_failed_fsync_is_not_acknowledged_and_leaves_the_log_as_it_was(tmp_path: Path) -> None:
    fail = {"on": False}

    def fsync(fd: int) -> None:
        if fail["on"]:
            raise OSError(28, "No space left on device")
        os.fsync(fd)

    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder, fsync=fsync)
    state = suspend_in(store, loaded.state, "a/1")
    size = (tmp_path / LOG_NAME).stat().st_size
    fail["on"] = True
    with pytest.raises(StoreWriteError, match="No space left on device"):
        suspend_in(store, state, "b/1")
    assert (tmp_path / LOG_NAME).stat().st_size == size
    fail["on"] = False
    store.close(state)
    store, reloaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert reloaded.state == state


def test_a_corrupt_snapshot_without_a_previous_copy_or_a_log_from_seq_1_is_refused(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1"])  # one snapshot at close, no previous copy
    assert not (tmp_path / PREVIOUS_NAME).exists()
    (tmp_path / SNAPSHOT_NAME).write_text('{"schema_version": 1, "seq": 2, "suspens')
    (tmp_path / LOG_NAME).unlink()
    with pytest.raises(StoreError, match=rf"{SNAPSHOT_NAME} is unreadable .*cannot be rebuilt"):
        Store.open(tmp_path, ladder=POLICY.ladder)
    # a log that does not start at decision 1 cannot rebuild the state either
    (tmp_path / LOG_NAME).write_text(
        json.dumps({"seq": 7, "at": T0, "kind": "ignored", "reason": "recorded only"}) + "\n"
    )
    with pytest.raises(StoreError, match=rf"{LOG_NAME} starts at decision 7"):
        Store.open(tmp_path, ladder=POLICY.ladder)


def test_recovery_only_claims_the_previous_copy_when_it_was_loaded(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1"])
    (tmp_path / SNAPSHOT_NAME).write_text("not json")  # no previous copy; the log starts at seq 1
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)
    store.close()
    assert loaded.state == state
    assert not any("previous copy" in w for w in loaded.warnings), loaded.warnings
    assert any("rebuilding the state" in w for w in loaded.warnings)


@pytest.mark.parametrize(
    ("entry", "problem"),
    [
        (  # parses as JSON, but the instant cannot be formatted: was a raw ValueError at start-up
            {"seq": 1, "at": T0, "kind": "incident_add", "reason": "r", "model": "m/x", "provider": "c/1",
             "until": 253402304399.0, "incident_id": "inc-1"},
            "invalid decision log entry (until: 253402304399.0 is not an instant",
        ),
        (  # a whole line with bad content is damage, never cut off as a torn write
            {"seq": 1, "at": T0, "kind": "suspend", "reason": "r", "model": "m/x", "provider": "c/1"},
            "invalid decision log entry (a suspend entry needs mode, rung, until)",
        ),
        (  # decodes, but cannot be applied to the state
            {"seq": 1, "at": T0, "kind": "promote", "reason": "r", "model": "m/x", "provider": "c/1",
             "mode": "enforce", "rung": 1, "until": T0 + DAY},
            "decision 1 cannot be applied",
        ),
    ],
)  # fmt: skip
def test_a_bad_last_log_entry_is_a_store_error_at_its_line(
    tmp_path: Path, entry: dict[str, object], problem: str
) -> None:
    (tmp_path / LOG_NAME).write_text(json.dumps(entry) + "\n")
    with pytest.raises(StoreError) as err:
        Store.open(tmp_path, ladder=POLICY.ladder)
    assert f"{LOG_NAME}:1: " in str(err.value) and problem in str(err.value), str(err.value)
    assert (tmp_path / LOG_NAME).read_text() == json.dumps(entry) + "\n"  # nothing cut off


def test_after_recovering_from_the_previous_copy_the_next_checkpoint_keeps_that_good_copy(
    tmp_path: Path,
) -> None:
    state = fill(tmp_path, ["a/1", "b/1"])
    store, _ = Store.open(tmp_path, ladder=POLICY.ladder)
    store.checkpoint(state)  # state.json and state.prev.json are now both good
    store.close()
    good_previous = (tmp_path / PREVIOUS_NAME).read_bytes()
    (tmp_path / SNAPSHOT_NAME).write_text("not json")
    store, loaded = Store.open(tmp_path, ladder=POLICY.ladder)  # recovers, and checkpoints at once
    store.close()
    assert loaded.state == state
    # the unreadable state.json was replaced, but never rotated into the last good copy
    assert (tmp_path / PREVIOUS_NAME).read_bytes() == good_previous
    json.loads((tmp_path / SNAPSHOT_NAME).read_bytes())
