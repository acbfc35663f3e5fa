"""Damage campaign over a store a real receiver left behind when it was SIGKILLed mid-writes: its
write-ahead log holds committed decisions the database file does not. Every case (the WAL deleted, cut at
every frame boundary and inside frames, single bytes flipped; the SHM deleted; the database restored from
an older copy, copied without its WAL, or deleted; the witness deleted or damaged) either opens with
exactly the acknowledged state or is refused with a message naming what is missing: never a silent start
with less or different state. ``WAL_FLIPS`` sets the number of flips."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path

import httpx
import pytest

from exporter.receiver.state import State
from exporter.receiver.store import FILE_NAME, Store, StoreError
from exporter.receiver.witness import WITNESS_NAME

from .crashkit import Zygote, kill
from .helpers import WEBHOOK_TOKEN, alert, bearer, materialized, payload

FLIPS = int(os.environ.get("WAL_FLIPS", "60"))
WAL = FILE_NAME + "-wal"
SHM = FILE_NAME + "-shm"
PAGE = 4096
FRAME = 24 + PAGE


class Killed:
    """The directory of a receiver killed after ``acked`` acknowledged deliveries, its state, and a copy of
    its database file (alone) taken half-way, as an operator copying a running receiver's file would."""

    def __init__(self, directory: Path, state: State, acked: int, early_copy: Path) -> None:
        self.directory, self.state, self.acked, self.early_copy = directory, state, acked, early_copy


@pytest.fixture(scope="module")
def killed(tmp_path_factory: pytest.TempPathFactory) -> Killed:
    root = tmp_path_factory.mktemp("killed")
    config = root / "canary.yaml"
    config.write_text(
        "receiver:\n  listen: 127.0.0.1:0\n  mode: enforce\n  store_dir: ./store\n"
        "  webhook_token: {env: CRASH_WEBHOOK}\n  admin_token: {env: CRASH_ADMIN}\n"
    )
    Store(root / "store", init=True).close()
    zygote = Zygote()
    try:
        pid, url = zygote.spawn(config)
        acked = 0
        with httpx.Client(base_url=url, headers=bearer(WEBHOOK_TOKEN), timeout=5) as client:
            for i in range(60):
                body = payload(alert("p/1", model=f"m{i}/x", discovered="p/1,p/2,p/3"))
                assert client.post("/v1/alerts", json=body).status_code == 200
                acked += 1
                if i == 30:
                    shutil.copyfile(root / "store" / FILE_NAME, root / "early.sqlite3")
        kill(pid)
    finally:
        zygote.close()
    directory = root / "store"
    assert (directory / WAL).stat().st_size > 32, "the kill left no write-ahead log to damage"
    state = opened(copy_of(directory, root / "probe"))
    assert isinstance(state, State) and state.seq == acked  # the undamaged copy has every acknowledged one
    return Killed(directory, state, acked, root / "early.sqlite3")


def copy_of(directory: Path, target: Path) -> Path:
    shutil.copytree(directory, target)
    return target


def opened(directory: Path) -> State | str:
    """The state a receiver would start with, or its refusal's message."""
    try:
        store = Store(directory)
    except StoreError as exc:
        return str(exc)
    try:
        return materialized(store.loaded.state)
    finally:
        store.close()


def judge(result: State | str, killed: Killed, *needles: str) -> str:
    if isinstance(result, str):
        for needle in needles:
            assert needle in result, f"refusal without {needle!r}: {result}"
        return "refused"
    assert result == killed.state, f"silent start with other state (seq {result.seq} of {killed.state.seq})"
    return "exact"


BEHIND = ("but its witness receiver.witness says decision", "canary receiver restore --from FILE")


def wal_size(killed: Killed) -> int:
    return (killed.directory / WAL).stat().st_size


def test_the_wal_deleted_is_refused_naming_both_decisions(killed: Killed, tmp_path: Path) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    (store / WAL).unlink()
    (store / SHM).unlink(missing_ok=True)
    result = opened(store)
    assert judge(result, killed, *BEHIND) == "refused"
    assert f"decision {killed.acked} was acknowledged" in str(result)


@pytest.mark.parametrize("frames", range(0, 40))
def test_the_wal_cut_at_any_frame_is_refused_or_exact(killed: Killed, tmp_path: Path, frames: int) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    size = wal_size(killed)
    cut = min(32 + frames * FRAME, size)
    for at in {cut, max(0, cut - 7)}:  # at the boundary and inside the frame before it
        with (store / WAL).open("r+b") as f:
            f.truncate(at)
        (store / SHM).unlink(missing_ok=True)
        judge(opened(copy_of(store, tmp_path / f"c{at}")), killed, *BEHIND)


@pytest.mark.parametrize("seed", range(FLIPS))
def test_a_byte_flipped_in_the_wal_is_refused_or_exact(killed: Killed, tmp_path: Path, seed: int) -> None:
    rng = random.Random(seed)
    store = copy_of(killed.directory, tmp_path / "s")
    size = wal_size(killed)
    # half of the flips in the last 8 frames (the most recent commits), half anywhere
    at = rng.randrange(max(0, size - 8 * FRAME), size) if seed % 2 else rng.randrange(size)
    with (store / WAL).open("r+b") as f:
        f.seek(at)
        byte = f.read(1)[0]
        f.seek(at)
        f.write(bytes([byte ^ (1 << rng.randrange(8))]))
    judge(opened(store), killed, "refusing to start")


def test_the_shm_deleted_opens_exactly(killed: Killed, tmp_path: Path) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    (store / SHM).unlink(missing_ok=True)
    assert judge(opened(store), killed) == "exact"


def test_a_database_file_copied_without_its_wal_is_refused(killed: Killed, tmp_path: Path) -> None:
    """The backup an operator makes by copying the running receiver's receiver.sqlite3 alone."""
    store = copy_of(killed.directory, tmp_path / "s")
    for name in (WAL, SHM):
        (store / name).unlink(missing_ok=True)
    shutil.copyfile(killed.directory / FILE_NAME, store / FILE_NAME)
    assert judge(opened(store), killed, *BEHIND) == "refused"


def test_a_database_restored_from_an_older_copy_is_refused(killed: Killed, tmp_path: Path) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    for name in (WAL, SHM):
        (store / name).unlink(missing_ok=True)
    shutil.copyfile(killed.early_copy, store / FILE_NAME)
    assert judge(opened(store), killed, *BEHIND) == "refused"
    # an older copy put back under the current WAL: refused too (whatever SQLite makes of the pair)
    store = copy_of(killed.directory, tmp_path / "t")
    shutil.copyfile(killed.early_copy, store / FILE_NAME)
    (store / SHM).unlink(missing_ok=True)
    assert judge(opened(store), killed, "refusing to start") in ("refused", "exact")


def test_the_database_deleted_is_refused_even_with_init(killed: Killed, tmp_path: Path) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    for name in (FILE_NAME, WAL, SHM):
        (store / name).unlink(missing_ok=True)
    message = f"its witness receiver.witness says the store held decision {killed.acked}"
    for init in (False, True):
        with pytest.raises(StoreError, match=message):
            Store(store, init=init)


def test_a_missing_or_damaged_witness_is_refused_unless_adopted(killed: Killed, tmp_path: Path) -> None:
    store = copy_of(killed.directory, tmp_path / "s")
    (store / WITNESS_NAME).unlink()
    assert judge(opened(store), killed, "witness receiver.witness is missing", "--adopt-store") == "refused"
    store = copy_of(killed.directory, tmp_path / "t")
    text = (store / WITNESS_NAME).read_text()
    (store / WITNESS_NAME).write_text(text.replace('"seq": ', '"seq": 1'))
    assert judge(opened(store), killed, "is damaged (its digest does not match") == "refused"
    adopted = Store(store, adopt=True)
    try:
        assert adopted.loaded.state == killed.state
    finally:
        adopted.close()
    assert any("adopted the store at decision" in w for w in adopted.loaded.warnings)
    assert opened(store) == killed.state  # the witness is whole again
