"""Corruption harness: every damage class of issue 13 and random byte flips over the SQLite store. The
receiver either starts with exactly the acknowledged state or refuses with a StoreError: never a silent
start with less or different state. ``CORRUPTION_FLIPS`` sets the number of random flips (bench: 1000)."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from exporter.receiver.decide import Policy, decide_incident_add, decide_lift, decide_notification
from exporter.receiver.ladder import Ladder
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.state import Mode, State
from exporter.receiver.store import FILE_NAME, Store, StoreError

from .helpers import DAY, T0, alert, figures_of, materialized, payload

POLICY = Policy(
    Mode.ENFORCE, Ladder((DAY, 3 * DAY), 14 * DAY), min_routable_hosts=2, builtin=(), discovered_horizon=DAY
)
FLIPS = int(os.environ.get("CORRUPTION_FLIPS", "150"))


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, State]:
    directory = tmp_path_factory.mktemp("pristine")
    store = Store(directory, ladder=POLICY.ladder, init=True)
    loaded = store.loaded
    state = loaded.state
    hosts = ",".join(f"h{i}/1" for i in range(12))
    for i in range(10):
        n = parse_notification(payload(alert(f"h{i}/1", model=f"m{i % 3}/x", discovered=hosts)))
        assert isinstance(n, Notification)
        state, decisions = decide_notification(state, n, T0 + i, POLICY)
        store.commit(decisions, state)
    lifted = decide_lift(state, "m0/x", "h0/1", "false positive", T0 + 20, POLICY)
    assert isinstance(lifted, tuple)
    state = lifted[0]
    store.commit(lifted[1], state)
    added = decide_incident_add(state, "m1/x", "h11/1", "outage", T0 + DAY, T0 + 21, POLICY)
    assert isinstance(added, tuple)
    state = added[0]
    store.commit(added[1], state)
    state = materialized(state)
    store.close()
    return directory, state


def outcome(directory: Path, expected: State) -> str:
    try:
        store = Store(directory, ladder=POLICY.ladder)
        loaded = store.loaded
    except StoreError:
        return "refused"
    try:
        assert loaded.state == expected, "silent start with a different state"
        for now in (T0 + 30, T0 + 2 * DAY, T0 + 20 * DAY):  # the record tables rebuilt with the parts
            figures = store.tables.figures(now, POLICY.ladder.fade_after)
            assert figures == figures_of(expected, now, POLICY.ladder)
    finally:
        store.close()
    return "exact"


def copy(pristine: tuple[Path, State], tmp_path: Path) -> Path:
    target = tmp_path / "store"
    shutil.copytree(pristine[0], target)
    return target


def sql(directory: Path, statement: str) -> None:
    db = sqlite3.connect(directory / FILE_NAME)
    db.execute(statement)
    db.commit()
    db.close()


@pytest.mark.parametrize(
    ("damage", "expected"),
    [
        ("DELETE FROM decisions WHERE seq = 5", "refused"),  # a gap in the middle
        ("DELETE FROM decisions WHERE seq = (SELECT max(seq) FROM decisions)", "refused"),  # the tail
        ("UPDATE decisions SET entry = replace(entry, '\"rung\":1', '\"rung\":2') WHERE seq = 3", "refused"),
        ("UPDATE decisions SET at = at + 1, entry = replace(entry, 'h1/1', 'h9/1') WHERE seq = 2", "refused"),
        ("UPDATE decisions SET seq = seq + 100 WHERE seq = 4", "refused"),
        ("UPDATE head SET seq = seq + 1", "refused"),
        ("DELETE FROM head", "refused"),
        # the state tables: each damage differs from the head's digest; rebuilt exactly from the log
        ("UPDATE parts SET body = replace(body, 'h2/1', 'h7/1')", "exact"),
        ("DELETE FROM parts WHERE model = 'm1/x'", "exact"),
        ("INSERT INTO parts VALUES ('m9/x', '{}', NULL, NULL, NULL)", "exact"),
        ("UPDATE parts SET due = NULL WHERE model = 'm2/x'", "exact"),
        ("UPDATE parts SET body = '[' WHERE model = 'm0/x'", "exact"),
        ("DELETE FROM incidents", "exact"),
        ("UPDATE incidents SET until = NULL", "exact"),
        ("UPDATE suspensions SET until = until + 1 WHERE provider = 'h2/1'", "exact"),
        ("UPDATE suspensions SET mode = 'observe'", "exact"),
        ("DELETE FROM suspensions WHERE model = 'm0/x'", "exact"),
        ("INSERT INTO holds VALUES ('m9/x', 'h9/1', 0, NULL, 'made up')", "exact"),
        ("UPDATE offenses SET gap = 1e12", "exact"),
        ("DELETE FROM offenses WHERE n = 0 AND model = 'm1/x'", "exact"),
        ("DROP TABLE suspensions", "refused"),
        ("UPDATE head SET digest = zeroblob(32)", "exact"),
        ("UPDATE head SET records = zeroblob(32)", "exact"),
        ("UPDATE head SET pruned_at = pruned_at + 1", "exact"),
        ("DROP TABLE parts", "refused"),
        ("DROP TABLE meta", "refused"),
        ("PRAGMA user_version = 7", "refused"),
        # an entry that is not UTF-8 any more
        ("UPDATE decisions SET entry = CAST(X'CC' AS TEXT) || entry WHERE seq = 2", "refused"),
    ],
)
def test_every_damage_class_is_refused_or_recovered_exactly(
    pristine: tuple[Path, State], tmp_path: Path, damage: str, expected: str
) -> None:
    directory = copy(pristine, tmp_path)
    sql(directory, damage)
    assert outcome(directory, pristine[1]) == expected


def test_deleted_or_emptied_stores_never_start_empty(pristine: tuple[Path, State], tmp_path: Path) -> None:
    directory = copy(pristine, tmp_path)
    (directory / FILE_NAME).unlink()
    assert outcome(directory, pristine[1]) == "refused"
    (directory / FILE_NAME).write_bytes(b"")  # truncated to nothing
    assert outcome(directory, pristine[1]) == "refused"
    shutil.rmtree(directory)
    directory.mkdir()  # everything deleted, the directory kept
    assert outcome(directory, pristine[1]) == "refused"


def test_random_byte_flips_never_start_silently_with_other_state(
    pristine: tuple[Path, State], tmp_path: Path
) -> None:
    rng = random.Random(13)
    size = (pristine[0] / FILE_NAME).stat().st_size
    seen = {"refused": 0, "exact": 0}
    for trial in range(FLIPS):
        directory = tmp_path / f"t{trial}"
        shutil.copytree(pristine[0], directory)
        path = directory / FILE_NAME
        data = bytearray(path.read_bytes())
        offset = rng.randrange(size)
        data[offset] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(data))
        seen[outcome(directory, pristine[1])] += 1
        shutil.rmtree(directory)
    print("byte flips:", seen)
    assert sum(seen.values()) == FLIPS
