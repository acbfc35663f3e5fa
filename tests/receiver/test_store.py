"""The durable store: lock, --init, integrity proofs (gaps, edits, removed tails), checkpoints, format 1."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from exporter.receiver import store as store_module
from exporter.receiver.codec import state_from_json, state_to_json
from exporter.receiver.decide import Policy, decide_notification
from exporter.receiver.ladder import Ladder, Offense
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.state import Hold, Mode, State
from exporter.receiver.store import FILE_NAME, LOCK_NAME, Store, StoreError, StoreLocked, StoreWriteError
from exporter.receiver.witness import WITNESS_NAME

from .helpers import DAY, FIXTURES, T0, alert, payload

POLICY = Policy(Mode.ENFORCE, Ladder((DAY, 3 * DAY), 14 * DAY), min_routable_hosts=2)


def suspend_in(store: Store, state: State, provider: str, now: float = T0) -> State:
    n = parse_notification(payload(alert(provider, discovered="a/1,b/1,c/1,d/1,e/1,f/1")))
    assert isinstance(n, Notification)
    state, decisions = decide_notification(state, n, now, POLICY)
    store.commit(decisions, state)
    return state


def fill(directory: Path, providers: list[str], snapshot_every: int = 256, close: bool = True) -> State:
    store = Store(directory, ladder=POLICY.ladder, snapshot_every=snapshot_every, init=True)
    loaded = store.loaded
    state = loaded.state
    for p in providers:
        state = suspend_in(store, state, p)
    store.close(state if close else None)
    return state


def reopen(directory: Path) -> tuple[State, tuple[str, ...]]:
    store = Store(directory, ladder=POLICY.ladder)
    loaded = store.loaded
    store.close()
    return loaded.state, loaded.warnings


def edit(directory: Path, *sql: str) -> None:
    db = sqlite3.connect(directory / FILE_NAME)
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()


def test_state_survives_a_reopen_with_or_without_a_final_checkpoint(tmp_path: Path) -> None:
    state = fill(tmp_path / "a", ["a/1", "b/1"])
    assert reopen(tmp_path / "a") == (state, ())
    crashed = fill(tmp_path / "b", ["a/1", "b/1", "c/1"], snapshot_every=2, close=False)  # no final one
    assert reopen(tmp_path / "b") == (crashed, ())


def test_a_second_writer_refuses_to_start_with_the_holders_pid(tmp_path: Path) -> None:
    store = Store(tmp_path, init=True)
    try:
        with pytest.raises(
            StoreLocked, match=rf"locked by another receiver \(pid {os.getpid()}\); refusing to start"
        ):
            Store(tmp_path)
    finally:
        store.close()


def test_a_new_store_needs_init(tmp_path: Path) -> None:
    with pytest.raises(
        StoreError, match=r"store directory .*missing.* does not exist: start once with --init"
    ):
        Store(tmp_path / "missing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(StoreError, match=rf"no receiver store in .*empty \({FILE_NAME} is missing\).*--init"):
        Store(tmp_path / "empty")
    store = Store(tmp_path / "empty", init=True)
    loaded = store.loaded
    store.close()
    assert loaded.state == State() and (tmp_path / "empty" / FILE_NAME).exists()


def test_a_store_emptied_after_use_is_an_error_not_a_fresh_start(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1"])
    (tmp_path / FILE_NAME).unlink()
    with pytest.raises(StoreError, match=rf"{FILE_NAME} is missing, but its witness .* held decision 1"):
        Store(tmp_path)
    with pytest.raises(StoreError, match=r"its witness .* held decision 1"):
        Store(tmp_path, init=True)
    (tmp_path / WITNESS_NAME).unlink()  # the witness gone too: the lock file still tells
    with pytest.raises(StoreError, match=rf"{FILE_NAME} is missing, but .* held a receiver store before"):
        Store(tmp_path)
    # its write-ahead log left behind: even --init refuses to start over it
    (tmp_path / (FILE_NAME + "-wal")).write_bytes(b"x")
    with pytest.raises(StoreError, match=rf"found {FILE_NAME}-wal"):
        Store(tmp_path, init=True)


def test_a_gap_in_the_log_is_a_precise_error(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1", "c/1"])
    edit(tmp_path, "DELETE FROM decisions WHERE seq = 2")
    with pytest.raises(StoreError, match=r"decision 2 is missing \(the next one is 3\): the log has a gap"):
        reopen(tmp_path)


def test_an_edited_entry_is_detected_by_its_chain_hash(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1"])
    edit(
        tmp_path,
        "UPDATE decisions SET entry = replace(entry, '\"until\":1800086400.0', '\"until\":1900000000.0')",
    )
    with pytest.raises(StoreError, match=rf"{FILE_NAME}: decisions: decision 1 was altered"):
        reopen(tmp_path)


def test_decisions_removed_from_the_end_are_detected_by_the_head(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1", "c/1"], snapshot_every=1)
    edit(tmp_path, "DELETE FROM decisions WHERE seq = 3")
    with pytest.raises(StoreError, match=r"the log ends at decision 2 but the store's head is decision 3"):
        reopen(tmp_path)


def test_a_damaged_checkpoint_is_recovered_exactly_from_the_log_loudly(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1", "c/1"])
    edit(tmp_path, "UPDATE checkpoint SET state = replace(state, 'c/1', 'c/2')")
    recovered, warnings = reopen(tmp_path)
    assert recovered == state
    assert any("checkpoint at decision 3 does not match" in w for w in warnings), warnings
    assert reopen(tmp_path) == (state, ())  # the rebuilt checkpoint was written back


def test_a_damaged_file_is_refused_by_the_integrity_check(tmp_path: Path) -> None:
    fill(tmp_path, [f"{c}/1" for c in "abcdef"])
    path = tmp_path / FILE_NAME
    data = bytearray(path.read_bytes())
    page = 4096
    for i in range(page + 16, len(data), 97):  # damage every page after the header
        data[i] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(StoreError, match=rf"{FILE_NAME}"):
        reopen(tmp_path)


def test_a_failed_write_is_not_acknowledged_and_changes_nothing(tmp_path: Path) -> None:
    fail = {"on": False}

    def fault() -> None:
        if fail["on"]:
            raise OSError(28, "No space left on device")

    store = Store(tmp_path, ladder=POLICY.ladder, fault=fault, init=True)

    loaded = store.loaded
    state = suspend_in(store, loaded.state, "a/1")
    fail["on"] = True
    with pytest.raises(StoreWriteError, match="No space left on device"):
        suspend_in(store, state, "b/1")
    fail["on"] = False
    store.close(state)
    assert reopen(tmp_path) == (state, ())


def test_the_log_is_read_back_paged_from_the_store(tmp_path: Path) -> None:
    store = Store(tmp_path, ladder=POLICY.ladder, init=True)
    loaded = store.loaded
    state = loaded.state
    for p in ("a/1", "b/1", "c/1"):
        state = suspend_in(store, state, p)
    assert [e["seq"] for e in store.read_decisions(limit=2)] == [2, 3]
    assert [e["seq"] for e in store.read_decisions(after_seq=1, limit=1)] == [2]
    assert [e["provider"] for e in store.read_decisions(since_time=T0, limit=10)] == ["a/1", "b/1", "c/1"]
    store.close(state)


@pytest.mark.parametrize("init", [False, True])
def test_a_format_1_journal_is_refused_with_what_to_do_and_left_as_it_was(tmp_path: Path, init: bool) -> None:
    directory = tmp_path / "store"
    shutil.copytree(FIXTURES / "journal-v1", directory)  # written by the format-1 receiver
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    with pytest.raises(StoreError) as caught:
        Store(directory, ladder=POLICY.ladder, init=init)
    assert str(caught.value) == (
        f"{directory} holds a format-1 receiver store (decisions.jsonl, state.json, state.prev.json), "
        f"which this receiver no longer reads (it reads format 2, {FILE_NAME}): run the receiver of "
        f"provider-canary revision {store_module.MIGRATING_REVISION} once on this directory to migrate it, "
        "or move those files away to start a new store with --init (refusing to start with an empty state)"
    )
    after = {p.name: p.read_bytes() for p in directory.iterdir() if p.name != LOCK_NAME}
    assert after == before  # nothing written, nothing renamed, no empty store


def test_one_file_of_a_format_1_store_is_enough_to_refuse_it(tmp_path: Path) -> None:
    (tmp_path / "state.prev.json").write_text("{}")
    with pytest.raises(StoreError, match=r"format-1 receiver store \(state.prev.json\), which"):
        Store(tmp_path, init=True)
    assert not (tmp_path / FILE_NAME).exists()


def test_a_long_log_starts_fast_and_is_proven_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(store_module, "SYNC_VERIFY_ROWS", 2)  # "long" = more than 2 rows
    state = fill(tmp_path, ["a/1", "b/1", "c/1", "d/1"], snapshot_every=3)
    store = Store(tmp_path, ladder=POLICY.ladder)
    loaded = store.loaded
    assert loaded.state == state and store.verify_history() is None
    store.close()
    edit(tmp_path, "UPDATE decisions SET entry = replace(entry, 'a/1', 'x/1') WHERE seq = 1")
    store = Store(tmp_path, ladder=POLICY.ladder)  # the state start-up proves is intact
    loaded = store.loaded
    try:
        assert loaded.state == state
        assert "decision 1 was altered" in (store.verify_history() or "")
    finally:
        store.close()


def test_a_damaged_field_in_a_routes_history_is_named_by_its_index() -> None:
    first, second = Offense(T0, T0 + DAY, 1, "e1"), Offense(T0 + 2 * DAY, T0 + 5 * DAY, 2, "e2")
    state = State(history={("m/x", "p/1"): (first, second)})
    snapshot = state_to_json(state, T0)
    assert state_from_json(snapshot) == state
    snapshot["history"][0]["offenses"][1]["rung"] = "two"
    with pytest.raises(ValueError, match=r"^history\[0\]\.offenses\[1\]\.rung: expected an integer$"):
        state_from_json(snapshot)


def test_a_trusted_checkpoint_reads_back_exactly_as_the_checked_reader_does(tmp_path: Path) -> None:
    """The fast path start-up takes once the checkpoint's digest matched builds the same state."""
    state = fill(tmp_path, ["a/1", "b/1", "c/1"])
    n = parse_notification(payload(alert("a/1", action="recover", starts_at=T0 + 60)))
    assert isinstance(n, Notification)
    state, _ = decide_notification(state, n, T0 + 120, POLICY)
    document = state_to_json(state, T0 + 120)
    checked, trusted = state_from_json(document), state_from_json(document, trusted=True)
    assert checked == state and trusted == state
    assert trusted.suspensions == checked.suspensions and trusted.episodes == checked.episodes
    assert trusted.joined_hosts == checked.joined_hosts


def test_a_trusted_checkpoint_keeps_a_field_that_is_none_and_has_no_default() -> None:
    """A lift held until the route recovers (``until`` None) is read back, not dropped into a TypeError."""
    state = State(holds={("m/x", "p/1"): Hold(since=T0, until=None, reason="false positive")})
    document = state_to_json(state, T0)
    assert state_from_json(document, trusted=True) == state_from_json(document) == state
