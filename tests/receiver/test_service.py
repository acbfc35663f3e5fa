"""The service shell: what a commit leaves in memory, and what each configured mode serves."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from exporter.receiver import service as service_module
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService

from .helpers import Clock, alert, make_config, payload


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
    service = ReceiverService.open(config, clock=clock)

    def broken(seconds: float | None) -> str | None:
        raise ValueError("cannot format")

    monkeypatch.setattr(service_module, "format_optional", broken)
    first = service.notify(note("a/1"))  # acknowledged: durable, even though its view failed to build
    assert [d.seq for d in first] == [1] and service.state.seq == 1
    assert any("cannot build the ignore list" in r.message and r.exc_info for r in caplog.records)
    monkeypatch.undo()
    assert ignored(service) == ["a/1"]  # no stale list: rebuilt from the current state
    assert [d.seq for d in service.notify(note("c/1"))] == [2]  # the next decision does not reuse seq 1
    service.close()
    reopened = ReceiverService.open(config, clock=clock)
    assert reopened.state.seq == 2 and ignored(reopened) == ["a/1", "c/1"]
    reopened.close()
