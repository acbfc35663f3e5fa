"""Hostile input on the receiver: control characters in identifiers and reasons, bounds on admin reasons,
model names normalised like tags, the decision log paged in bytes, and log lines that cannot be forged."""

from __future__ import annotations

import io
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest

from exporter.devtools.pipeline.processes import free_port
from exporter.logkit import LOG_FORMAT, EscapingFormatter
from exporter.receiver import service as service_module
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.service import DECISIONS_PAGE_MAX_BYTES, ReceiverService

from .helpers import ADMIN_TOKEN, apply_decisions, bearer, make_config, records
from .test_app import ADMIN, Harness, alert, payload

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    with Harness(tmp_path) as harness:
        yield harness


CONTROLS = [
    "\n",
    "\r",
    "\t",
    "\x00",
    "\x1b[31m",
    "\x7f",
    "\x85",
    "\x9b",
    "\u2028",
    "\u2029",
    "\u202e",
    "\u2066",
]


@pytest.mark.parametrize("char", CONTROLS)
def test_a_control_character_in_a_webhook_model_or_provider_is_refused_with_its_location(
    h: Harness, char: str
) -> None:
    for where, body in (
        ("labels.provider", payload(alert(f"a/1{char}ERROR forged"))),
        ("labels.model", payload(alert("a/1", model=f"m/x{char}"))),
        ("annotations.discovered_providers", payload(alert("a/1", discovered=f"a/1,b{char}/1"))),
    ):
        r = h.post_alerts(body)
        assert r.status_code == 400, (where, char)
        assert any(where in p and "control character" in p for p in r.json()["problems"]), r.json()
    assert h.service.state.seq == 0


@pytest.mark.parametrize("char", CONTROLS)
def test_a_control_character_in_an_admin_model_provider_or_reason_is_refused(h: Harness, char: str) -> None:
    good = {"model": "m/x", "provider": "a/1", "reason": "maintenance"}
    for field in good:
        r = h.client.post("/v1/admin/incidents", json={**good, field: f"x{char}y"}, headers=ADMIN)
        assert r.status_code == 400 and "control character" in str(r.json()["problems"]), (field, char)
    reason = quote(f"ok{char}forged")  # percent-encoded: the client sends what a hostile one would
    r = h.client.delete(f"/v1/admin/incidents/inc-1?reason={reason}", headers=bearer(ADMIN_TOKEN))
    assert r.status_code == 400 and "control character" in r.json()["problems"][0]
    r = h.client.get("/v1/ignore", params={"model": f"m/x{char}"})
    assert r.status_code == 400 and r.json()["problems"][0].startswith("model: a control character")
    assert h.service.state.seq == 0


def test_an_admin_reason_on_delete_is_bounded_like_every_admin_field(h: Harness) -> None:
    added = h.client.post(
        "/v1/admin/incidents", json={"model": "m/x", "provider": "a/1", "reason": "outage"}, headers=ADMIN
    )
    incident = added.json()["id"]
    r = h.client.delete(f"/v1/admin/incidents/{incident}?reason={'x' * 60_000}", headers=bearer(ADMIN_TOKEN))
    assert r.status_code == 400 and "60000 characters, longer than 4096" in r.json()["problems"][0]
    r = h.client.delete(f"/v1/admin/incidents/{'i' * 5000}", headers=bearer(ADMIN_TOKEN))
    assert r.status_code == 404 and len(r.content) < 200  # an over-long id is not echoed back
    r = h.client.delete(f"/v1/admin/incidents/{incident}?reason={'x' * 4096}", headers=bearer(ADMIN_TOKEN))
    assert r.status_code == 200


def test_a_config_exclusion_with_a_control_character_is_a_located_error() -> None:
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as refused:
        BuiltinExclusion.model_validate({"model": "m/x", "provider": "a/1\nb", "reason": "r"})
    assert "control characters" in str(refused.value) and "provider" in str(refused.value)
    spelled = BuiltinExclusion.model_validate({"model": "RC/Case2", "provider": " A/1 ", "reason": "r"})
    assert (spelled.model, spelled.provider) == ("rc/case2", "a/1")


def test_model_names_are_one_model_whatever_their_case(h: Harness) -> None:
    h.post_alerts(payload(alert("a/1", model="RC/Case2", discovered="a/1,b/1,c/1,d/1")))
    h.post_alerts(payload(alert("c/1", model="rc/case2", discovered="a/1,b/1,c/1,d/1")))
    assert {m for m, _ in records(h.service.state).suspensions} == {"rc/case2"}
    for asked in ("rc/case2", "RC/Case2", " Rc/CASE2 "):
        body = h.client.get("/v1/ignore", params={"model": asked}).json()
        assert body["model"] == "rc/case2" and body["ignore"] == ["a/1", "c/1"], asked
    lifted = h.client.post(
        "/v1/admin/lift", json={"model": "RC/CASE2", "provider": "A/1", "reason": "fixed"}, headers=ADMIN
    )
    assert lifted.status_code == 200 and lifted.json()["decisions"][0]["model"] == "rc/case2"


def test_a_decision_log_page_stops_at_its_byte_budget_and_says_so(
    h: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    budget = 16 * 1024  # the page budget scaled down with the 4 KiB bodies of the harness
    monkeypatch.setattr(service_module, "DECISIONS_PAGE_MAX_BYTES", budget)
    for i in range(40):  # 40 recorded alerts of ~3 KB of labels each: 120 KB of log
        noisy = alert("a/1", action=None, alertname=f"Noise{i}")
        noisy["labels"] |= {"k1": "v" * 1000, "k2": "w" * 1000, "k3": "x" * 1000}
        assert h.post_alerts(payload(noisy)).status_code == 200
    seen: list[int] = []
    since = "0"
    while True:
        r = h.client.get("/v1/decisions", params={"since": since, "limit": "1000"})
        assert r.status_code == 200 and len(r.content) <= budget + 1024
        page = r.json()
        if not page["decisions"]:
            break
        assert 0 < len(page["decisions"]) < 10
        assert page["truncated"] == (page["decisions"][-1]["seq"] < h.service.state.seq)
        seen += [d["seq"] for d in page["decisions"]]
        since = str(page["next_since"])
    assert seen == list(range(1, h.service.state.seq + 1)) and len(seen) == 40
    latest = h.client.get("/v1/decisions", params={"limit": "1000"}).json()
    assert latest["truncated"] and latest["decisions"][-1]["seq"] == h.service.state.seq
    assert 0 < len(latest["decisions"]) < 10
    assert DECISIONS_PAGE_MAX_BYTES == 1 << 20  # the documented bound (docs/receiver.md, "Bounds")


def test_no_log_record_holds_a_raw_control_character() -> None:
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(EscapingFormatter(LOG_FORMAT))
    logger = logging.getLogger("canary.test.escape")
    logger.addHandler(handler)
    try:
        logger.warning("lift %s: %s", "m/x\n2026-01-01 ERROR canary forged", "ok\u202etxt.exe\x1b[2J")
        try:
            raise ValueError("boom")
        except ValueError:
            logger.exception("failed for %s", "a\rb")
    finally:
        logger.removeHandler(handler)
    lines = stream.getvalue().splitlines()
    assert "m/x\\n2026-01-01 ERROR canary forged" in lines[0] and "ok\\u202etxt.exe\\x1b[2J" in lines[0]
    assert "failed for a\\rb" in lines[1] and lines[2].startswith("Traceback")  # tracebacks keep their lines
    assert not any(c in stream.getvalue() for c in CONTROLS if c not in ("\n",))


def test_a_failed_write_makes_healthz_unwritable_until_a_write_succeeds(h: Harness) -> None:
    assert h.client.get("/healthz").json()["status"] == "ok"
    h.fail_writes = True
    assert h.post_alerts(payload(alert("a/1"))).status_code == 503
    health = h.client.get("/healthz")
    assert health.status_code == 503 and health.json()["status"] == "unwritable"
    assert "the last write failed" in health.json()["message"]
    h.fail_writes = False
    assert h.post_alerts(payload(alert("a/1"))).status_code == 200  # Alertmanager's retry
    assert h.client.get("/healthz").json()["status"] == "ok"


NOBODY = 65534


def _as_nobody(*args: str, **env: str) -> subprocess.Popen[bytes]:
    """``canary ARGS`` as an unprivileged user (root may write anything, so it cannot show a refusal)."""
    return subprocess.Popen(
        ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", sys.executable,
         "-m", "exporter.commands.canary", *args],
        cwd=REPO, env={**os.environ, **env}, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
    )  # fmt: skip


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A directory an unprivileged user can reach (pytest's own tmp_path is private to root)."""
    path = Path(tempfile.mkdtemp(prefix="canary-unwritable-"))
    path.chmod(0o755)
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("setpriv") is None, reason="needs root and setpriv")
def test_a_store_the_process_cannot_write_is_refused_at_start_and_reported_by_healthz(
    shared_dir: Path,
) -> None:
    store = shared_dir / "store"
    ReceiverService(make_config(store), init=True).close()  # created by root: nobody may not write it
    port = free_port()
    config = shared_dir / "canary.yaml"
    config.write_text(
        f"receiver: {{listen: '127.0.0.1:{port}', store_dir: {store}, "
        "webhook_token: {env: T_HOOK}, admin_token: {env: T_ADMIN}}\n"
    )
    refused = _as_nobody("receiver", "--config", str(config), T_HOOK="w" * 20, T_ADMIN="a" * 20)
    out, _ = refused.communicate(timeout=60)
    assert refused.returncode == 2 and b"Permission denied" in out, out  # the directory: refused before
    for path in (store, *store.iterdir()):
        if path.name != "receiver.sqlite3":  # the database stays root's: SQLite would open it read-only
            os.chown(path, NOBODY, NOBODY)
    refused = _as_nobody("receiver", "--config", str(config), T_HOOK="w" * 20, T_ADMIN="a" * 20)
    out, _ = refused.communicate(timeout=60)
    assert refused.returncode == 2, out
    assert b"receiver.sqlite3 is not writable by this process (uid 65534): every decision would fail" in out
    os.chown(store / "receiver.sqlite3", NOBODY, NOBODY)
    running = _as_nobody("receiver", "--config", str(config), T_HOOK="w" * 20, T_ADMIN="a" * 20)
    try:
        url = f"http://127.0.0.1:{port}/healthz"
        deadline = time.monotonic() + 60
        while True:
            try:
                assert httpx.get(url, timeout=1).json()["status"] == "ok"
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline and running.poll() is None
                time.sleep(0.2)
        (store / "receiver.sqlite3").chmod(0o444)
        health = httpx.get(url, timeout=5)
        assert health.status_code == 503 and health.json()["status"] == "unwritable"
        assert "receiver.sqlite3 is not writable" in health.json()["message"]
        (store / "receiver.sqlite3").chmod(0o644)
        store.chmod(0o555)
        health = httpx.get(url, timeout=5)
        assert health.status_code == 503 and "store directory" in health.json()["message"]
        store.chmod(0o755)
        assert httpx.get(url, timeout=5).json()["status"] == "ok"
    finally:
        running.send_signal(signal.SIGTERM)
        out, _ = running.communicate(timeout=30)
    assert running.returncode == 0 and b"Traceback" not in out, out


def test_an_over_long_ignore_model_is_a_400_naming_the_bound(h: Harness) -> None:
    r = h.client.get("/v1/ignore", params={"model": "m/" + "x" * 5000})
    assert r.status_code == 400 and r.json()["problems"] == ["model: at most 1024 characters, got 5002"]


def test_a_mixed_case_model_in_an_earlier_store_is_served_under_its_canonical_name(tmp_path: Path) -> None:
    """An earlier version stored models as alerts spelled them: such a store keeps its exclusions served."""
    from exporter.receiver.decide import decide_notification
    from exporter.receiver.payloads import Notification, parse_notification
    from exporter.receiver.store import Store

    with Harness(tmp_path) as first:
        legacy = parse_notification(payload(alert("a/1", model="m/x")))
        assert isinstance(legacy, Notification)
        _, decisions = decide_notification(first.service.state, legacy, first.clock(), first.service.policy)
        spelled = [replace(d, model="RC/Case2") for d in decisions]  # as an earlier version journaled them
        store: Store = first.service._store
        store.commit(tuple(spelled), apply_decisions(first.service.state, spelled))
    with Harness(tmp_path) as again:
        for asked in ("rc/case2", "RC/Case2"):
            body = again.client.get("/v1/ignore", params={"model": asked}).json()
            assert body["model"] == "rc/case2" and "a/1" in body["ignore"], body


def test_uvicorn_logs_through_the_escaping_root_handler_not_its_own() -> None:
    from exporter.serving import uvicorn_server

    uvicorn_server(lambda scope, receive, send: None)  # configures uvicorn's loggers, as every command does
    for name in ("uvicorn", "uvicorn.error"):
        logger = logging.getLogger(name)
        assert not logger.handlers and logger.propagate, name  # so the root's EscapingFormatter writes them
