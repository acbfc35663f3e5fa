"""The service shell: what a commit leaves in memory, and what each configured mode serves."""

from __future__ import annotations

import json
import sqlite3
import threading
from pathlib import Path

import pytest

from exporter.receiver import service as service_module
from exporter.receiver.decide import Refused
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService
from exporter.receiver.state import Kind, Mode

from .helpers import DAY, Clock, alert, make_config, payload, records


def note(provider: str) -> Notification:
    n = parse_notification(payload(alert(provider)))
    assert isinstance(n, Notification)
    return n


def ignored(service: ReceiverService) -> list[str]:
    return list(json.loads(service.ignore("m/x").body)["ignore"])


def test_a_failure_after_the_durable_write_keeps_memory_and_log_together(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    clock, config = Clock(), make_config(tmp_path / "s")
    service = ReceiverService(config, clock=clock, init=True)

    def broken(*args: object, **kwargs: object) -> list[object]:
        raise ValueError("cannot merge")

    monkeypatch.setattr(service_module, "ignore_entries", broken)
    first = service.notify(note("a/1"))  # acknowledged: durable, even though its view failed to build
    assert [d.seq for d in first] == [1] and service.state.seq == 1
    assert any("cannot build the ignore list" in r.message and r.exc_info for r in caplog.records)
    monkeypatch.undo()
    assert ignored(service) == ["a/1"]  # no stale list: rebuilt from the current state
    assert [d.seq for d in service.notify(note("c/1"))] == [2]  # the next decision does not reuse seq 1
    service.close()
    reopened = ReceiverService(config, clock=clock)
    assert reopened.state.seq == 2 and ignored(reopened) == ["a/1", "c/1"]
    reopened.close()


def test_a_decision_is_readable_only_once_the_served_lists_reflect_it(tmp_path: Path) -> None:
    # A commit is durable a moment before its ignore lists are published; a reader who sees the decision
    # in /v1/decisions must find it in force in /v1/ignore (a router or a test polling both).
    service = ReceiverService(make_config(tmp_path / "s"), clock=Clock(), init=True)
    publish, committed, release = service._publish, threading.Event(), threading.Event()

    def held(*args: object, **kwargs: object) -> None:
        committed.set()
        assert release.wait(10)
        publish(*args, **kwargs)  # type: ignore[arg-type]

    service._publish = held  # type: ignore[method-assign]
    writer = threading.Thread(target=service.notify, args=(note("a/1"),))
    writer.start()
    assert committed.wait(10)
    assert service._store.read_decisions(limit=10)  # durable in the store already
    page = service.decisions(since_seq=None, since_time=None, limit=10)
    assert page.decisions == [] and page.next_since == 0 and ignored(service) == []
    assert service.decisions(since_seq=0, since_time=None, limit=10).decisions == []
    assert service.decisions(since_seq=None, since_time=0.0, limit=10).decisions == []
    release.set()
    writer.join(10)
    assert ignored(service) == ["a/1"]
    assert [d["seq"] for d in service.decisions(since_seq=0, since_time=None, limit=10).decisions] == [1]
    service.close()


def test_observe_mode_serves_no_suspension_even_one_enforced_before_a_restart(tmp_path: Path) -> None:
    clock = Clock()
    with ReceiverService(make_config(tmp_path / "s", mode=Mode.ENFORCE), clock=clock, init=True) as service:
        service.notify(note("a/1"))
        assert ignored(service) == ["a/1"]
    with ReceiverService(make_config(tmp_path / "s", mode=Mode.OBSERVE), clock=clock) as service:
        assert ignored(service) == []  # design.md §8: observe excludes nothing
        assert [s.provider for s in service.suspensions().suspensions] == ["a/1"]  # still listed
        # ... and the floor still counts it: with 4 hosts and a floor of 2, c/1 suspends, d/1 does not
        kinds = [d.kind for d in service.notify(note("c/1")) + service.notify(note("d/1"))]
        assert kinds == [Kind.OBSERVE, Kind.FLOOR_BLOCK]


def test_after_observe_to_enforce_a_still_failing_host_is_excluded_at_once_without_a_new_offense(
    tmp_path: Path,
) -> None:
    clock = Clock()
    with ReceiverService(make_config(tmp_path / "s", mode=Mode.OBSERVE), clock=clock, init=True) as service:
        (observed,) = service.notify(note("a/1"))
    clock.advance(3600)
    with ReceiverService(make_config(tmp_path / "s", mode=Mode.ENFORCE), clock=clock) as service:
        (promoted,) = service.notify(note("a/1"))
        assert promoted.kind is Kind.PROMOTE and (promoted.rung, promoted.until) == (1, observed.until)
        assert ignored(service) == ["a/1"]
        route = ("m/x", "a/1")
        assert len(records(service.state).history[route]) == 1  # the observe decision's offense, no other
        assert records(service.state).suspensions[route].mode is Mode.ENFORCE
        assert [d.kind for d in service.notify(note("a/1"))] == [Kind.DUPLICATE]  # promoted once
        clock.advance(DAY)
        service.sweep()
        (again,) = service.notify(note("a/1"))  # still failing: next rung, as after any suspension
        assert (again.kind, again.rung) == (Kind.ESCALATE, 2)
    with ReceiverService(make_config(tmp_path / "s", mode=Mode.ENFORCE), clock=clock) as service:
        assert records(service.state).suspensions[route].rung == 2  # the promote decision replays


def test_damage_found_after_start_up_refuses_writes_and_reports_on_healthz(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from starlette.testclient import TestClient

    from exporter.receiver import store as store_module
    from exporter.receiver.app import build_app
    from exporter.receiver.store import FILE_NAME, StoreWriteError

    monkeypatch.setattr(store_module, "SYNC_VERIFY_ROWS", 1)
    clock, config = Clock(), make_config(tmp_path / "s")
    with ReceiverService(config, clock=clock, init=True) as service:
        for p in ("a/1", "c/1"):
            service.notify(note(p))
    db = sqlite3.connect(tmp_path / "s" / FILE_NAME)
    db.execute("UPDATE decisions SET entry = replace(entry, 'a/1', 'z/1') WHERE seq = 1")
    db.commit()
    db.close()
    with ReceiverService(config, clock=clock) as service:
        assert "decision 1 was altered" in (service.verify_history() or "")
        assert ignored(service) == ["a/1", "c/1"]  # keeps serving what start-up proved
        with pytest.raises(StoreWriteError, match="the store is damaged"):
            service.notify(note("d/1"))
        health = TestClient(build_app(service)).get("/healthz")
        assert health.status_code == 503 and health.json()["status"] == "damaged"


def test_damaged_record_tables_of_a_long_log_are_rebuilt_from_the_parts_in_the_background(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import threading

    from exporter.receiver import store as store_module
    from exporter.receiver.store import FILE_NAME
    from exporter.receiver.tables import records_digest

    monkeypatch.setattr(store_module, "SYNC_VERIFY_ROWS", 1)  # a "long" log: records proven after start-up
    clock, config = Clock(), make_config(tmp_path / "s", mode=Mode.ENFORCE)
    with ReceiverService(config, clock=clock, init=True) as service:
        for p in ("a/1", "c/1"):
            service.notify(note(p))
        listed = service.suspensions()
    assert [s.provider for s in listed.suspensions] == ["a/1", "c/1"]
    db = sqlite3.connect(tmp_path / "s" / FILE_NAME)
    db.execute("DELETE FROM suspensions WHERE provider = 'a/1'")
    db.commit()
    db.close()
    go, done, results = threading.Event(), threading.Event(), []
    verify_records = ReceiverService.verify_records

    def held(self: ReceiverService) -> str | None:  # the background thread's check, held until told
        go.wait(10)
        results.append(verify_records(self))
        done.set()
        return results[-1]

    monkeypatch.setattr(ReceiverService, "verify_records", held)
    with ReceiverService(config, clock=clock) as service:
        assert [s.provider for s in service.suspensions().suspensions] == ["c/1"]  # served meanwhile
        assert ignored(service) == ["a/1", "c/1"]  # the parts were proven at start-up
        go.set()
        assert done.wait(10)
        message = (
            f"{tmp_path / 's' / FILE_NAME}: the record tables do not match their digest in the head (a row "
            "was changed, removed or added); rebuilt them from the parts (the state is exact: the parts "
            "were proven)"
        )
        assert results == [message]
        assert [
            (r.levelname, r.getMessage()) for r in caplog.records if "store recovery" in r.getMessage()
        ] == [("ERROR", f"store recovery: {message}")]
        assert service.suspensions() == listed  # rebuilt exactly
        service.notify(note("d/1"))  # writes go on, on the rebuilt digest
        assert verify_records(service) is None  # proven once: not scanned again
    db = sqlite3.connect(tmp_path / "s" / FILE_NAME)  # the digest was written back with the rows
    try:
        (stored,) = db.execute("SELECT records FROM head").fetchone()
        assert records_digest(db) == int.from_bytes(stored, "big")
        audit = db.execute("SELECT value FROM meta WHERE key LIKE 'rebuilt:%'").fetchall()
        assert audit == [("record tables rebuilt from the parts at decision 2",)]
    finally:
        db.close()


def test_whether_a_suspension_is_renewed_survives_a_restart_between_firing_and_expiry(tmp_path: Path) -> None:
    clock, config = Clock(), make_config(tmp_path / "s")
    with ReceiverService(config, clock=clock, init=True) as service:
        service.notify(note("a/1"))
        service.notify(note("b/1"))
        resolved = parse_notification(payload(alert("b/1", status="resolved")))
        assert isinstance(resolved, Notification)
        service.notify(resolved)  # b/1's alert resolved; a/1's still fires
    clock.advance(DAY)
    with ReceiverService(config, clock=clock) as service:  # restarted: the store tells both apart
        decisions = service.sweep()
        assert [(str(d.kind), d.provider) for d in decisions] == [
            ("expire", "a/1"),
            ("expire", "b/1"),
            ("escalate", "a/1"),
        ]
        assert ignored(service) == ["a/1"] and records(service.state).suspensions[("m/x", "a/1")].rung == 2


def test_a_suspension_found_ended_long_after_a_receiver_outage_expires_instead_of_renewing(
    tmp_path: Path,
) -> None:
    clock, config = Clock(), make_config(tmp_path / "s")
    with ReceiverService(config, clock=clock, init=True) as service:
        service.notify(note("a/1"))
    clock.advance(DAY + 3600)  # down across the end: the alert's state it knew is an hour old
    with ReceiverService(config, clock=clock) as service:
        assert [str(d.kind) for d in service.sweep()] == ["expire"] and ignored(service) == []
        assert [str(d.kind) for d in service.notify(note("a/1"))] == ["escalate"]  # the next repeat


def test_a_store_read_that_fails_is_a_retryable_write_error_and_reported_unhealthy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A judgement reads the parts of the models it concerns from the store: a failed read is a 503 (the
    delivery is retried), never a half-judged input."""
    from exporter.receiver.store import StoreWriteError
    from exporter.receiver.tables import Tables

    with ReceiverService(make_config(tmp_path / "s"), clock=Clock(), init=True) as service:
        service.notify(note("a/1"))

        def unreadable(self: Tables, model: str) -> None:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(Tables, "part", unreadable)
        with pytest.raises(StoreWriteError, match=r"cannot read .*: disk I/O error"):
            service.notify(parse_or_fail("b/1", model="other/x"))
        problem = service.health_problem()
        assert problem is not None and problem[0] == "unwritable" and "disk I/O error" in problem[1]
        monkeypatch.undo()
        assert [d.kind for d in service.notify(parse_or_fail("b/1", model="other/x"))] == [Kind.SUSPEND]
        assert service.health_problem() is None


def parse_or_fail(provider: str, *, model: str) -> Notification:
    n = parse_notification(payload(alert(provider, model=model)))
    assert isinstance(n, Notification)
    return n


@pytest.mark.parametrize("mode", [Mode.ENFORCE, Mode.OBSERVE])
def test_the_metrics_layer_counts_are_those_of_the_served_lists(tmp_path: Path, mode: Mode) -> None:
    """``metrics_snapshot`` counts the layers from the store's columns; each model's counts equal the
    entries of its served ignore list, with an expired incident, a hold and an expired suspension."""
    clock = Clock()
    builtin = (BuiltinExclusion(model="b/x", provider="z/1", reason="control host"),)
    service = ReceiverService(make_config(tmp_path / "s", mode=mode, builtin=builtin), clock=clock, init=True)
    try:
        for model in ("m/x", "n/x", "b/x"):
            for provider in ("a/1", "b/1"):
                n = parse_notification(payload(alert(provider, model=model)))
                assert isinstance(n, Notification)
                service.notify(n)
        assert not isinstance(service.add_incident("m/x", "c/1", "outage", None, force=True), Refused)
        short = service.add_incident("n/x", "c/1", "short", clock.now + 60, force=True)
        assert not isinstance(short, Refused)
        assert not isinstance(service.lift("n/x", "a/1", "false positive"), Refused)
        for advance in (0.0, 120.0, 2 * DAY):
            clock.advance(advance)
            service.sweep()  # what the app runs every second: expiries are decisions
            snapshot = service.metrics_snapshot()
            counted = {(m, layer): n for m, layer, n in snapshot.ignored}
            assert {m for m, _ in counted} == {"m/x", "n/x", "b/x"}
            for (model, layer), n in counted.items():
                entries = json.loads(service.ignore(model).body)["entries"]
                assert n == sum(e["layer"] == layer for e in entries), (model, layer, advance)
            assert snapshot.holds == (("n/x", "a/1"),)
    finally:
        service.close()
