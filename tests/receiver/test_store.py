"""The durable store: lock, --init, integrity proofs (gaps, edits, removed tails), the state tables and their
digest, the migration of format 2, format 1."""

from __future__ import annotations

import json
import os
import random
import shutil
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from exporter.receiver import store as store_module
from exporter.receiver.decide import Policy, decide_notification
from exporter.receiver.ladder import Ladder, Offense
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.state import Hold, Mode, State
from exporter.receiver.store import FILE_NAME, LOCK_NAME, Store, StoreError, StoreLocked, StoreWriteError
from exporter.receiver.tables import SCHEMA, Digest, Tables, part_from_json, part_to_json, write_parts
from exporter.receiver.witness import WITNESS_NAME

from .helpers import DAY, FIXTURES, T0, alert, figures_of, materialized, payload, records, state_of

POLICY = Policy(
    Mode.ENFORCE, Ladder((DAY, 3 * DAY), 14 * DAY), min_routable_hosts=2, builtin=(), discovered_horizon=DAY
)


def suspend_in(store: Store, state: State, provider: str, now: float = T0) -> State:
    n = parse_notification(payload(alert(provider, discovered="a/1,b/1,c/1,d/1,e/1,f/1")))
    assert isinstance(n, Notification)
    state, decisions = decide_notification(state, n, now, POLICY)
    return store.commit(decisions, state)


def fill(directory: Path, providers: list[str]) -> State:
    """A new store holding a suspension of each provider; the state it holds (read before it closes)."""
    store = Store(directory, ladder=POLICY.ladder, init=True)
    state = store.loaded.state
    for p in providers:
        state = suspend_in(store, state, p)
    state = materialized(state)
    store.close()
    return state


def reopen(directory: Path) -> tuple[State, tuple[str, ...]]:
    store = Store(directory, ladder=POLICY.ladder)
    try:
        return materialized(store.loaded.state), store.loaded.warnings
    finally:
        store.close()


def edit(directory: Path, *sql: str) -> None:
    db = sqlite3.connect(directory / FILE_NAME)
    for statement in sql:
        db.execute(statement)
    db.commit()
    db.close()


def test_state_survives_a_reopen(tmp_path: Path) -> None:
    state = fill(tmp_path, ["a/1", "b/1"])
    assert len(records(state).suspensions) == 2 and reopen(tmp_path) == (state, ())


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
    assert store.loaded.state == State() and (tmp_path / "empty" / FILE_NAME).exists()
    store.close()


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
    fill(tmp_path, ["a/1", "b/1", "c/1"])
    edit(tmp_path, "DELETE FROM decisions WHERE seq = 3")
    with pytest.raises(StoreError, match=r"the log ends at decision 2 but the store's head is decision 3"):
        reopen(tmp_path)


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE parts SET body = replace(body, 'c/1', 'c/2')",  # a flipped row
        "DELETE FROM parts WHERE rowid = (SELECT min(rowid) FROM parts)",  # a deleted row
        "INSERT INTO parts (model, body) VALUES ('z/x', '{\"d\":[\"a/1\"]}')",  # an added row
        "UPDATE parts SET due = due + 60",  # a derived column the clock reads
        "UPDATE head SET digest = zeroblob(32)",
    ],
)
def test_damaged_state_tables_are_told_by_the_digest_and_rebuilt_exactly_from_the_log(
    tmp_path: Path, damage: str
) -> None:
    state = fill(tmp_path, ["a/1", "b/1", "c/1"])
    edit(tmp_path, damage)
    recovered, warnings = reopen(tmp_path)
    assert recovered == state
    assert warnings == (
        f"{tmp_path / FILE_NAME}: the state tables do not match the digest in the head (a row was changed, "
        "removed or added); rebuilt them from the whole log (the state is exact: the log is intact)",
    )
    assert reopen(tmp_path) == (state, ())  # the rebuilt tables were written back, with their digest


@pytest.mark.parametrize(
    "damage",
    [
        "UPDATE suspensions SET until = until + 1 WHERE provider = 'b/1'",  # a flipped row
        "DELETE FROM offenses WHERE provider = 'a/1'",  # deleted rows
        "INSERT INTO holds VALUES ('m/x', 'z/1', 0, NULL, 'made up')",  # an added row
        "UPDATE head SET records = zeroblob(32)",
    ],
)
def test_damaged_record_tables_of_a_small_store_are_rebuilt_from_the_parts_at_start_up(
    tmp_path: Path, damage: str
) -> None:
    state = fill(tmp_path, ["a/1", "b/1", "c/1"])
    rows = {t: edited_rows(tmp_path, t) for t in ("suspensions", "offenses", "holds")}
    edit(tmp_path, damage)
    assert reopen(tmp_path) == (
        state,
        (
            f"{tmp_path / FILE_NAME}: the record tables do not match their digest in the head (a row was "
            "changed, removed or added); rebuilt them from the parts (the state is exact: the parts were "
            "proven)",
        ),
    )
    assert {t: edited_rows(tmp_path, t) for t in rows} == rows  # exactly the rows the decisions wrote
    assert reopen(tmp_path) == (state, ())  # written back, with their digest
    audit = edited_rows(tmp_path, "meta WHERE key LIKE 'rebuilt:%'")
    assert [v for _, v in audit] == ["record tables rebuilt from the parts at decision 3"]


def edited_rows(directory: Path, table: str) -> list[tuple[object, ...]]:
    db = sqlite3.connect(directory / FILE_NAME)
    try:
        return sorted(db.execute(f"SELECT * FROM {table}").fetchall())
    finally:
        db.close()


def test_damaged_state_tables_over_a_damaged_log_are_refused(tmp_path: Path) -> None:
    fill(tmp_path, ["a/1", "b/1", "c/1"])
    edit(
        tmp_path,
        "DELETE FROM parts",
        "UPDATE decisions SET entry = replace(entry, 'a/1', 'x/1') WHERE seq = 1",
    )
    with pytest.raises(StoreError, match=r"decisions: decision 1 was altered"):
        reopen(tmp_path)


def test_the_tables_hold_one_row_per_model_and_a_decision_rewrites_only_its_models(tmp_path: Path) -> None:
    store = Store(tmp_path, ladder=POLICY.ladder, init=True)
    try:
        state = suspend_in(store, store.loaded.state, "a/1")
        n = parse_notification(payload(alert("b/1", model="other/x", discovered="a/1,b/1,c/1")))
        assert isinstance(n, Notification)
        rows = dict(sqlite3.connect(tmp_path / FILE_NAME).execute("SELECT model, body FROM parts").fetchall())
        state, decisions = decide_notification(state, n, T0 + 60, POLICY)
        assert set(state.parts) == {"other/x"}  # what the decision changed, nothing else read or held
        store.commit(decisions, state)
        after = dict(
            sqlite3.connect(tmp_path / FILE_NAME).execute("SELECT model, body FROM parts").fetchall()
        )
        assert set(after) == {"m/x", "other/x"} and after["m/x"] == rows["m/x"]
    finally:
        store.close()


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
    state = materialized(state)
    store.close()
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
    store.close()


@pytest.mark.parametrize("init", [False, True])
def test_a_format_1_journal_is_refused_with_what_to_do_and_left_as_it_was(tmp_path: Path, init: bool) -> None:
    directory = tmp_path / "store"
    shutil.copytree(FIXTURES / "journal-v1", directory)  # written by the format-1 receiver
    before = {p.name: p.read_bytes() for p in directory.iterdir()}
    with pytest.raises(StoreError) as caught:
        Store(directory, ladder=POLICY.ladder, init=init)
    assert str(caught.value) == (
        f"{directory} holds a format-1 receiver store (decisions.jsonl, state.json, state.prev.json), "
        f"which this receiver no longer reads (it reads format {store_module.FORMAT}, {FILE_NAME}): run the "
        "receiver of "
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
    state = fill(tmp_path, ["a/1", "b/1", "c/1", "d/1"])
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


def test_a_part_reads_back_exactly_from_its_row() -> None:
    """Every kind of record, a hold until a recovery (``until`` None) and an empty list of hosts."""
    first, second = Offense(T0, T0 + DAY, 1, "e1"), Offense(T0 + 2 * DAY, T0 + 5 * DAY, 2, "e2", T0 + 3 * DAY)
    state = state_of(
        history={("m/x", "p/1"): (first, second)},
        holds={("m/x", "p/1"): Hold("m/x", "p/1", since=T0, until=None, reason="false positive")},
    )
    n = parse_notification(payload(alert("a/1", model="m/x", discovered="a/1,b/1,c/1")))
    assert isinstance(n, Notification)
    state, _ = decide_notification(state, n, T0, POLICY)
    part = replace(state.part("m/x"), discovered=frozenset())
    assert part.suspensions and part.episodes and part.history and part.holds and part.failing
    assert part_from_json("m/x", part_to_json(part)) == part


def _records(state: State) -> dict[str, object]:
    """The state as the sets of records a format-2 checkpoint lists."""
    every = records(state)
    return {
        "seq": state.seq,
        "pruned_at": state.pruned_at,
        "suspensions": {
            (s.model, s.provider, s.mode, s.rung, s.since, s.until, s.episode, s.reason, s.starts_at)
            for s in every.suspensions.values()
        },
        "holds": {(m, p, h.since, h.until, h.reason) for (m, p), h in every.holds.items()},
        "recovered": {(m, p, at) for (m, p), at in every.recovered.items()},
        "failing": {(m, p, at) for (m, p), at in every.failing.items()},
        "resolved_episodes": {(k, at) for _, part in state.all_parts() for k, at in part.resolved.items()},
        "history": {
            (m, p, tuple((o.at, o.until, o.rung, o.episode, o.ended_at) for o in h))
            for (m, p), h in every.history.items()
        },
        "incidents": {
            (k, i.model, i.provider, i.reason, i.since, i.until) for k, i in every.incidents.items()
        },
        "discovered": {m: sorted(hosts) for m, hosts in every.discovered.items()},
        "episodes": {
            (k, e.model, e.provider, e.first_seen, e.last_seen, e.closed_by, e.closed_at)
            for k, e in every.episodes.items()
        },
    }


def _checkpoint_records(doc: dict[str, Any]) -> dict[str, object]:
    """The same sets from a format-2 checkpoint document, read as JSON (not by the receiver's code)."""
    return {
        "seq": doc["seq"],
        "pruned_at": doc["pruned_at"],
        "suspensions": {
            (
                s["model"],
                s["provider"],
                s["mode"],
                s["rung"],
                s["since"],
                s["until"],
                s["episode"],
                s["reason"],
                s["starts_at"],
            )
            for s in doc["suspensions"]
        },
        "holds": {(h["model"], h["provider"], h["since"], h["until"], h["reason"]) for h in doc["holds"]},
        "recovered": {(r["model"], r["provider"], r["at"]) for r in doc["recovered"]},
        "failing": {(r["model"], r["provider"], r["at"]) for r in doc["failing"]},
        "resolved_episodes": {(r["key"], r["at"]) for r in doc["resolved_episodes"]},
        "history": {
            (h["model"], h["provider"], tuple(tuple(o.values()) for o in h["offenses"]))
            for h in doc["history"]
        },
        "incidents": {
            (i["id"], i["model"], i["provider"], i["reason"], i["since"], i["until"])
            for i in doc["incidents"]
        },
        "discovered": doc["discovered"],
        "episodes": {
            (
                e["key"],
                e["model"],
                e["provider"],
                e["first_seen"],
                e["last_seen"],
                e["closed_by"],
                e["closed_at"],
            )
            for e in doc["episodes"]
        },
    }


@pytest.mark.parametrize(
    ("fixture", "was"),
    [("store-v2", "2 (a JSON checkpoint)"), ("store-v3", "3 (state tables of one row per model)")],
)
def test_an_older_store_is_migrated_exactly_at_start_up_and_audited(
    tmp_path: Path, fixture: str, was: str
) -> None:
    """Format 2 (written by the format-2 receiver) and format 3 (the same store as the format-3 receiver
    migrated it) both come up as the checkpoint said, their record tables equal to the fold."""
    directory = tmp_path / "store"
    shutil.copytree(FIXTURES / fixture, directory)
    db = sqlite3.connect(FIXTURES / "store-v2" / FILE_NAME)
    checkpoint = json.loads(db.execute("SELECT state FROM checkpoint").fetchone()[0])
    db.close()
    store = Store(directory, ladder=POLICY.ladder)
    try:
        state, warnings = materialized(store.loaded.state), store.loaded.warnings
        for now in (T0, T0 + 2 * DAY, T0 + 30 * DAY):
            figures = store.tables.figures(now, POLICY.ladder.fade_after)
            assert figures == figures_of(state, now, POLICY.ladder)
    finally:
        store.close()
    assert warnings == (
        f"{directory / FILE_NAME}: migrated the store from format {was} to format 4 (state "
        "tables) at decision 12; the tables read back equal to the fold of the log",
    )
    assert _records(state) == _checkpoint_records(checkpoint)
    every = records(state)
    assert every.suspensions and every.holds and every.incidents and state.part("o/z").resolved
    db = sqlite3.connect(directory / FILE_NAME)
    assert db.execute("PRAGMA user_version").fetchone() == (4,)
    tables = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    audit = [key for (key,) in db.execute("SELECT key FROM meta WHERE key LIKE 'migrated:%'")]
    db.close()
    assert not tables & {"checkpoint", "incident_models"}
    assert len(audit) == (1 if fixture == "store-v2" else 2)  # store-v3 holds its migration from format 2
    assert {"suspensions", "holds", "offenses", "incidents"} <= tables
    assert reopen(directory) == (state, ())  # migrated once: the next start-up just opens it


def _history(rng: random.Random) -> tuple[Offense, ...]:
    """Offenses oldest first with gaps around the fade (14 days), some ended early by a lift."""
    at, out = T0, []
    for n in range(rng.randint(1, 5)):
        at += rng.choice([0.5, 13.9, 14.0, 14.1, 30.0]) * DAY if n else 0.0
        until = at + rng.choice([1, 3]) * DAY
        ended = at + DAY / 2 if rng.random() < 0.3 else None
        out.append(Offense(at, until, n + 1, f"e{n}", ended))
        at = min(until, ended or until)
    return tuple(out)


def test_the_offense_level_read_from_the_columns_is_the_ladders() -> None:
    """``Tables.figures`` reads every route's level with one query; it equals ``Ladder.level`` (the chain
    after the last gap of the fade or more, none once faded) over random histories and times."""
    rng = random.Random(7)
    history = {(f"m{i % 7}/x", f"p{i}/1"): _history(rng) for i in range(300)}
    state = state_of(history=history)
    db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    for statement in SCHEMA:
        db.execute(statement)
    write_parts(db, state.all_parts(), Digest(0, 0))
    tables, levels = Tables(db), set()
    for days in (0, 1, 13.5, 14.2, 20, 40, 80, 140):
        now = T0 + days * DAY
        figures = tables.figures(now, POLICY.ladder.fade_after)
        assert figures == figures_of(state, now, POLICY.ladder)
        levels |= {n for _, _, n in figures.offense_levels}
    tables.close()
    assert levels >= {1, 2, 3}  # chains of several lengths were compared, not only empty ones


def test_a_damaged_format_2_store_is_refused_and_left_as_it_was(tmp_path: Path) -> None:
    directory = tmp_path / "store"
    shutil.copytree(FIXTURES / "store-v2", directory)
    edit(directory, "UPDATE decisions SET entry = replace(entry, 'b/1', 'x/1') WHERE seq = 2")
    before = (directory / FILE_NAME).read_bytes()
    with pytest.raises(StoreError, match=r"decisions: decision 2 was altered"):
        reopen(directory)
    assert (directory / FILE_NAME).read_bytes() == before
