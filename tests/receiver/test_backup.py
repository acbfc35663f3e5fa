"""Backup, restore and the first-run step: online backups of a running store are proven and restore exactly;
a restore re-issues the witness on purpose and is audited; ``init`` creates only in an empty directory;
a witness that cannot be written leaves the decision in the store unacknowledged."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from exporter.commands import canary as cli
from exporter.receiver import store as store_module
from exporter.receiver.backup import backup, prove_file, restore
from exporter.receiver.service import ReceiverService
from exporter.receiver.store import FILE_NAME, Store, StoreError, StoreLocked, StoreWriteError, init_store
from exporter.receiver.witness import WITNESS_NAME, read_witness

from .helpers import Clock, alert, make_config, materialized, payload
from .test_store import POLICY, fill, reopen, suspend_in


def test_a_backup_of_a_running_store_restores_exactly_with_an_audited_witness(tmp_path: Path) -> None:
    live = tmp_path / "live"
    store = Store(live, ladder=POLICY.ladder, init=True)
    state = store.loaded.state
    for provider in ("a/1", "b/1"):
        state = suspend_in(store, state, provider)
    summary = backup(live, tmp_path / "b.sqlite3")  # the writer holds the lock and its WAL
    assert f"(decisions up to {state.seq})" in summary and "proven" in summary
    backed_up = materialized(state)  # what the backup holds
    state_after = suspend_in(store, state, "c/1")  # acknowledged after the backup: lost by a restore
    with pytest.raises(StoreLocked, match=r"a receiver is running on .*: stop it before restoring"):
        restore(live, tmp_path / "b.sqlite3", ladder=POLICY.ladder)
    state = backed_up
    store.close()
    said = restore(live, tmp_path / "b.sqlite3", ladder=POLICY.ladder, now=0.0)
    assert (
        f"the witness said decision {state_after.seq}: decisions {state.seq + 1}..{state_after.seq} are lost"
        in said
    )
    assert reopen(live) == (state, ())
    witness = read_witness(live)
    assert witness is not None and witness.seq == state.seq and witness.origin.startswith("restore from ")
    db = sqlite3.connect(live / FILE_NAME)
    audit = dict(db.execute("SELECT key, value FROM meta WHERE key LIKE 'restored:%'").fetchall())
    db.close()
    assert (
        list(audit) == ["restored:1970-01-01T00:00:00.000Z"]
        and "are lost" in audit["restored:1970-01-01T00:00:00.000Z"]
    )
    # into a directory that is gone entirely (disaster recovery)
    restore(tmp_path / "new", tmp_path / "b.sqlite3", ladder=POLICY.ladder)
    assert reopen(tmp_path / "new") == (state, ())


def test_a_damaged_backup_or_an_incomplete_store_is_refused(tmp_path: Path) -> None:
    state = fill(tmp_path / "s", ["a/1", "b/1"])
    backup(tmp_path / "s", tmp_path / "b.sqlite3")
    db = sqlite3.connect(tmp_path / "b.sqlite3")
    db.execute("DELETE FROM decisions WHERE seq = (SELECT max(seq) FROM decisions)")
    db.commit()
    db.close()
    removed = rf"log ends at decision {state.seq - 1} but the store.s head is decision {state.seq}:"
    with pytest.raises(StoreError, match=removed):
        prove_file(tmp_path / "b.sqlite3")
    with pytest.raises(StoreError, match="log ends at decision"):
        restore(tmp_path / "s", tmp_path / "b.sqlite3")
    assert reopen(tmp_path / "s")[0] == state  # untouched
    backup(tmp_path / "s", tmp_path / "t.sqlite3")
    db = sqlite3.connect(tmp_path / "t.sqlite3")
    db.execute("UPDATE parts SET body = replace(body, 'a/1', 'z/1')")  # a state row flipped in the copy
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="state tables do not match the digest in the head"):
        restore(tmp_path / "s", tmp_path / "t.sqlite3")
    (tmp_path / "junk").write_bytes(b"not sqlite" * 100)
    with pytest.raises(StoreError, match="junk"):
        restore(tmp_path / "s", tmp_path / "junk")
    # a store that lost its last decisions (older file put back) is not backed up as if whole
    db = sqlite3.connect(tmp_path / "s" / FILE_NAME)
    db.execute("DELETE FROM decisions WHERE seq = (SELECT max(seq) FROM decisions)")
    db.execute(
        "UPDATE head SET seq = seq - 1, chain = (SELECT chain FROM decisions ORDER BY seq DESC LIMIT 1)"
    )
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="refusing to back up an incomplete store"):
        backup(tmp_path / "s", tmp_path / "c.sqlite3")
    assert not (tmp_path / "c.sqlite3").exists()


def test_init_creates_only_in_an_empty_directory_and_proves_an_existing_store(tmp_path: Path) -> None:
    assert "created a new, empty receiver store" in init_store(tmp_path / "s")
    assert "already in" in init_store(tmp_path / "s")
    state = fill(tmp_path / "t", ["a/1"])
    assert f"decisions up to {state.seq}" in init_store(tmp_path / "t")
    (tmp_path / "t" / WITNESS_NAME).unlink()  # a store from before the witness: adopted once, on purpose
    with pytest.raises(StoreError, match=r"witness receiver\.witness is missing"):
        init_store(tmp_path / "t")
    assert f"decisions up to {state.seq}" in init_store(tmp_path / "t", adopt=True)
    assert f"decisions up to {state.seq}" in init_store(tmp_path / "t")
    (tmp_path / "t" / FILE_NAME).unlink()
    with pytest.raises(StoreError, match=rf"witness {WITNESS_NAME} says the store held decision {state.seq}"):
        init_store(tmp_path / "t")
    (tmp_path / "u").mkdir()
    (tmp_path / "u" / "something").write_text("x")
    with pytest.raises(StoreError, match=r"not empty \(found something\)"):
        Store(tmp_path / "u", init=True)


def test_the_store_commands_through_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "canary.yaml"
    config.write_text(
        "receiver:\n  store_dir: ./store\n  webhook_token: {env: T_W}\n  admin_token: {env: T_A}\n"
    )
    env = pytest.MonkeyPatch()
    env.setenv("T_W", "w" * 24)
    env.setenv("T_A", "a" * 24)
    try:
        assert cli.main(["receiver", "init", "--config", str(config)]) == 0
        assert cli.main(["receiver", "backup", "--config", str(config), "--to", str(tmp_path / "b")]) == 0
        assert cli.main(["receiver", "restore", "--config", str(config), "--from", str(tmp_path / "b")]) == 0
        assert cli.main(["receiver", "restore", "--config", str(config), "--from", str(tmp_path / "x")]) == 2
        assert cli.main(["receiver", "--config", str(config), "--init"]) == 2
    finally:
        env.undo()
    err = capsys.readouterr().err
    assert "canary receiver restore: " in err and "no such file" in err
    assert "--init creates a store only in an empty directory" in err


def test_a_witness_that_cannot_be_written_leaves_the_decision_unacknowledged_but_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exporter.receiver.payloads import Notification, parse_notification

    config = make_config(tmp_path / "s")
    with ReceiverService(config, clock=Clock(), init=True) as service:
        failing = True

        def write(directory: Path, witness: object) -> None:
            if failing:
                raise OSError(28, "No space left on device")

        original = store_module.write_witness
        monkeypatch.setattr(store_module, "write_witness", write)
        n = parse_notification(payload(alert("a/1")))
        assert isinstance(n, Notification)
        with pytest.raises(
            StoreWriteError, match="witness cannot be written: No space left on device"
        ) as err:
            service.notify(n)
        assert err.value.durable and service.state.seq == 1  # memory follows the log
        failing = False
        monkeypatch.setattr(store_module, "write_witness", original)
        n2 = parse_notification(payload(alert("b/1")))
        assert isinstance(n2, Notification)
        assert [d.seq for d in service.notify(n2)] == [2]
    assert reopen(tmp_path / "s")[0].seq == 2
