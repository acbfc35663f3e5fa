"""``canary admin`` against a real receiver on loopback: tables, --json, tokens from a file or the env."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
import pytest
from pydantic import JsonValue

from exporter.admin.client import AdminClient
from exporter.commands.canary import main
from exporter.receiver.server import ReceiverServer
from tests.receiver.helpers import ADMIN_TOKEN, WEBHOOK_TOKEN, alert, bearer, make_config, payload

MODEL = "moonshotai/kimi-k2-0905-with-a-long-name"
HOSTS = "deepinfra/fp8,deepinfra/turbo,parasail/fp8,novita/fp8"


@pytest.fixture
def receiver(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    monkeypatch.delenv("CANARY_ADMIN_TOKEN", raising=False)
    monkeypatch.delenv("CANARY_RECEIVER_URL", raising=False)
    with ReceiverServer(make_config(tmp_path / "store")) as server:
        failing = alert("deepinfra/fp8", model=MODEL, discovered=HOSTS)
        response = httpx.post(
            f"{server.base_url}/v1/alerts", json=payload(failing), headers=bearer(WEBHOOK_TOKEN)
        )
        assert response.status_code == 200
        yield server.base_url


def admin(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["admin", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_suspensions_as_a_table_that_fits_80_columns_and_as_json(
    receiver: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = admin(capsys, "suspensions", "--receiver", receiver)
    assert code == 0
    assert "deepinfra/fp8" in out and "enforce" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = admin(capsys, "suspensions", "--receiver", receiver, "--json")
    (suspension,) = json.loads(out)["suspensions"]
    assert (suspension["model"], suspension["provider"], suspension["rung"]) == (MODEL, "deepinfra/fp8", 1)


def test_a_lift_needs_the_admin_token_and_is_then_in_the_decisions(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lift = ("lift", MODEL, "deepinfra/fp8", "--reason", "false positive", "--receiver", receiver)
    code, _, err = admin(capsys, *lift)
    assert code == 1 and "CANARY_ADMIN_TOKEN" in err and "--token-file" in err
    (tmp_path / "wrong").write_text("not-the-token\n")
    code, _, err = admin(capsys, *lift, "--token-file", str(tmp_path / "wrong"))
    assert code == 1 and "401" in err and "admin_token" in err
    (tmp_path / "admin.token").write_text(ADMIN_TOKEN + "\n")
    code, out, _ = admin(capsys, *lift, "--token-file", str(tmp_path / "admin.token"), "--json")
    assert code == 0 and [d["kind"] for d in json.loads(out)["decisions"]] == ["lift"]
    assert ADMIN_TOKEN not in out
    monkeypatch.setenv("CANARY_RECEIVER_URL", receiver)
    code, out, _ = admin(capsys, "decisions", "--provider", "deepinfra/fp8", "--since", "0", "--json")
    assert [d["kind"] for d in json.loads(out)["decisions"]] == ["suspend", "lift"]
    code, out, _ = admin(capsys, "decisions", "--kind", "lift", "--since", "1h")
    assert code == 0 and "lift" in out and "suspend" not in out
    code, out, _ = admin(capsys, "decisions", "--model", "nobody/none", "--json")
    assert json.loads(out)["decisions"] == []


def test_incidents_are_added_listed_and_removed_with_the_env_token(
    receiver: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANARY_ADMIN_TOKEN", ADMIN_TOKEN)
    code, out, _ = admin(
        capsys, "incident", "add", MODEL, "novita/fp8", "--reason", "provider outage", "--until", "6h",
        "--receiver", receiver, "--json",
    )  # fmt: skip
    assert code == 0
    incident_id = json.loads(out)["id"]
    code, out, _ = admin(capsys, "incident", "list", "--receiver", receiver)
    assert code == 0 and incident_id in out and "novita/fp8" in out
    assert max(len(line) for line in out.splitlines()) <= 80
    code, out, _ = admin(
        capsys, "incident", "remove", incident_id, "--reason", "fixed", "--receiver", receiver
    )
    assert code == 0 and "incident_remove" in out
    code, out, _ = admin(capsys, "incident", "list", "--receiver", receiver, "--json")
    assert json.loads(out)["incidents"] == []
    code, _, err = admin(capsys, "incident", "remove", "inc-nope", "--reason", "x", "--receiver", receiver)
    assert code == 1 and "404" in err


def test_bad_input_and_an_unreachable_receiver_say_what_to_fix(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, _, err = admin(capsys, "decisions", "--since", "yesterday", "--receiver", receiver)
    assert code == 2 and "--since 'yesterday'" in err
    code, _, err = admin(capsys, "suspensions", "--receiver", "http://127.0.0.1:9")
    assert code == 1 and "cannot reach the receiver at http://127.0.0.1:9" in err
    config = tmp_path / "canary.yaml"
    config.write_text(f"receiver:\n  listen: {receiver.removeprefix('http://')}\n")
    code, out, _ = admin(capsys, "suspensions", "--config", str(config), "--json")
    assert code == 0 and json.loads(out)["suspensions"]


@pytest.mark.parametrize(
    ("listen", "said"),
    [
        ("0.0.0.0:9", "http://127.0.0.1:9"),
        ("[::]:9", "http://[::1]:9"),  # asyncio binds :: IPv6-only
        ("[::1]:9", "http://[::1]:9"),
        ("nowhere", "receiver.listen: expected HOST:PORT"),
    ],
)
def test_the_receiver_url_comes_from_receiver_listen_read_by_the_one_host_port_parser(
    listen: str,
    said: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("CANARY_RECEIVER_URL", raising=False)
    config = tmp_path / "canary.yaml"
    config.write_text(f"receiver:\n  listen: '{listen}'\n")
    code, _, err = admin(capsys, "suspensions", "--config", str(config))
    assert code == 1 and said in err  # nothing listens on port 9: the error names the URL tried


def test_the_client_reads_a_models_ignore_list_without_a_token(receiver: str) -> None:
    with AdminClient(receiver, None) as client:
        listed = client.ignore(MODEL)
        assert [e.provider for e in listed.entries] == listed.ignore == ["deepinfra/fp8"]
        assert client.ignore("acme/unknown-model").entries == []


# -- every documented form parses: the global options before or after the action ----------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("--receiver", "{url}", "--json", "suspensions"),
        ("suspensions", "--receiver", "{url}", "--json"),
        ("--json", "suspensions", "--receiver", "{url}"),
        ("--receiver", "{url}", "incident", "--json", "list"),
        ("incident", "list", "--json", "--receiver", "{url}"),
    ],
)
def test_the_global_options_go_before_or_after_the_action(
    argv: tuple[str, ...], receiver: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = admin(capsys, *(a.format(url=receiver) for a in argv))
    assert code == 0, err
    assert isinstance(json.loads(out), dict)  # --json was seen wherever it stood


def test_an_option_after_the_action_does_not_undo_one_before_it(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "admin.token").write_text(ADMIN_TOKEN + "\n")
    code, out, err = admin(
        capsys, "--token-file", str(tmp_path / "admin.token"), "--receiver", receiver,
        "lift", MODEL, "deepinfra/fp8", "--reason", "false positive", "--json",
    )  # fmt: skip
    assert code == 0, err
    assert [d["kind"] for d in json.loads(out)["decisions"]] == ["lift"]


# -- the receiver the run actually started: the run record -------------------------------------------------


def _demo_workdir(tmp_path: Path, receiver_url: str, pid: int) -> Path:
    """A work dir as ``canary demo`` leaves it: canary.yaml saying ``:0``, admin.token, canary-run.json."""
    from exporter.runrecord import write_run_record

    workdir = tmp_path / "run"
    workdir.mkdir()
    (workdir / "canary.yaml").write_text("receiver:\n  listen: 127.0.0.1:0\n")
    (workdir / "admin.token").write_text(ADMIN_TOKEN + "\n")
    record = write_run_record(workdir, {"receiver": receiver_url}, {"config": workdir / "canary.yaml"})
    data = json.loads(record.read_text())
    data["pid"] = pid
    record.write_text(json.dumps(data))
    return workdir


@pytest.mark.parametrize("lead", ["--config", "--token-file"])
def test_config_or_token_file_leads_to_the_receiver_the_run_recorded(
    lead: str, receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import os

    workdir = _demo_workdir(tmp_path, receiver, os.getpid())
    target = workdir / ("canary.yaml" if lead == "--config" else "admin.token")
    code, out, err = admin(capsys, lead, str(target), "suspensions", "--json")
    assert code == 0, err
    assert json.loads(out)["suspensions"][0]["provider"] == "deepinfra/fp8"


def test_a_record_of_a_run_that_ended_is_not_followed_and_listen_0_says_what_to_pass(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    workdir = _demo_workdir(tmp_path, receiver, 2**22 + 12345)  # above pid_max's default: no such process
    code, _, err = admin(capsys, "--config", str(workdir / "canary.yaml"), "suspensions")
    assert code == 1
    assert "receiver.listen is 127.0.0.1:0 (any free port)" in err and "--receiver URL" in err


def test_a_user_config_run_elsewhere_is_found_through_the_per_user_index(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from exporter.runrecord import write_run_record

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    config = tmp_path / "mine" / "canary.yaml"  # the real-key run: its receiver ignores this listen
    config.parent.mkdir()
    config.write_text("receiver:\n  listen: 127.0.0.1:9\n")
    workdir = tmp_path / "workdir"
    workdir.mkdir()
    write_run_record(workdir, {"receiver": receiver}, {"config": config})
    code, out, err = admin(capsys, "--config", str(config), "suspensions", "--json")
    assert code == 0, err
    assert json.loads(out)["suspensions"]


# -- listings: one line a host at 80 columns, with its contract, then its reason on one line ---------------


def test_suspensions_show_the_contract_and_a_one_line_reason_at_80_columns() -> None:
    from exporter.admin.tables import render, suspensions_table
    from exporter.receiver.bodies import Suspensions

    long_reason = "would suspend (observe mode) at rung 1 for 1d until 2026-12-07T04:18:33.469Z " * 4
    document = {
        "mode": "observe", "generated_at": "2026-12-06T04:18:33.469Z", "holds": [],
        "suspensions": [
            {
                "model": MODEL, "provider": f"host{i}/fp8", "mode": "observe", "rung": 1,
                "since": "2026-12-06T04:18:33.469Z", "until": "2026-12-07T04:18:33.469Z", "episode": "e",
                "failing_contracts": ["language", "refusal"],
                "failing_reasons": ["language=truncation", "refusal=truncation"], "evidence_url": None,
                "reason": long_reason + "\n\x1b[31mred\x1b[0m", "offense_level": 1, "offenses": [],
            }
            for i in range(3)
        ],
    }  # fmt: skip
    text = render(suspensions_table(Suspensions.model_validate_json(json.dumps(document))), width=80)
    lines = text.splitlines()
    assert len(lines) == 2 + 2 * 3  # title, header, then two lines a host
    assert max(len(line) for line in lines) <= 80
    assert lines[0].startswith(f"{MODEL}: suspensions (3")  # one model: in the title, not a column
    assert "contract" in lines[1] and "model" not in lines[1]
    assert "language,refusal" in lines[2] and "host0/fp8" in lines[2]
    assert lines[3].startswith("  language=truncation; refusal=truncation") and lines[3].endswith("…")
    assert "\x1b" not in text


def test_why_against_an_exporter_it_cannot_read_says_unknown_and_exits_1(
    receiver: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = admin(capsys, "why", MODEL, "deepinfra/fp8", "--receiver", receiver)
    # the alert carried no evidence link and no --exporter / run record names the exporter
    assert code == 1
    assert "SUSPENDED (excluded from routing)" in out and "failing replies: unknown" in out
    assert "pass --exporter URL" in out
    code, out, _ = admin(
        capsys, "why", MODEL, "deepinfra/fp8", "--receiver", receiver, "--exporter", "http://127.0.0.1:9"
    )
    assert code == 1 and "cannot reach the exporter at http://127.0.0.1:9" in out
    code, out, _ = admin(capsys, "--json", "why", MODEL, "novita/fp8", "--receiver", receiver)
    document = json.loads(out)
    assert document["state"].startswith("routable") and document["failing_replies"] is None


def test_why_fits_one_80x24_screen_with_the_replies_and_the_whole_link() -> None:
    from exporter.admin.why import WhyView, render_why
    from exporter.receiver.bodies import Incidents, Suspensions

    link = "http://127.0.0.1:40123/v1/evidence?model=m%2Fx&provider=slow%2Ffp8&outcome=fail&since=1796530700"
    suspension = {
        "model": "m/x", "provider": "slow/fp8", "mode": "enforce", "rung": 2, "since": "2026-12-06T04:18:00Z",
        "until": "2026-12-07T04:18:00Z", "reason": "suspended", "episode": "e", "failing_contracts": ["ttft"],
        "failing_reasons": ["ttft=slow_first_token"], "evidence_url": link, "offense_level": 2,
        "offenses": [],
    }  # fmt: skip
    decisions: list[dict[str, JsonValue]] = [
        {"seq": n, "at": 1796530680.0, "time": "2026-12-06T04:18:00Z", "kind": "suspend", "model": "m/x",
         "provider": "slow/fp8", "mode": "enforce", "rung": 2, "until": 1796617080.0,
         "reason": "suspended at rung 2 " * 9, "explanation": {"failing_contracts": ["ttft"]}}
        for n in range(1, 9)
    ]  # fmt: skip
    listing = {"mode": "enforce", "generated_at": "2026-12-06T04:18:00Z", "suspensions": [suspension]}
    listing["holds"] = []
    suspensions = Suspensions.model_validate_json(json.dumps(listing))
    view = WhyView.build("m/x", "slow/fp8", suspensions, Incidents(incidents=[]), decisions)
    assert view.recorded_link() == link
    replies = [
        {"at": 1796530700 + n, "contract": "ttft", "reason": "slow_first_token", "detail": "no token in 1.5s",
         "excerpt": "Bonjour\n" * 200}
        for n in range(5)
    ]  # fmt: skip
    text = render_why(view.with_evidence(link, replies))
    lines = text.splitlines()
    assert link in lines  # never cut: it must stay clickable
    rows = sum(1 + len(line) // 81 for line in lines)  # terminal rows, the long link wrapping
    assert rows <= 24
    assert all(len(line) <= 80 for line in lines if line != link)
    assert "SUSPENDED" in lines[1] and "ttft=slow_first_token" in lines[2]
    assert text.count("“Bonjour Bonjour") == 3 and "decisions (5 of 8" in text


def test_with_no_lead_at_all_the_newest_local_run_still_running_is_used(
    receiver: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import os

    from exporter.runrecord import read_latest_run_record

    code, _, err = admin(capsys, "suspensions")
    assert code == 1 and "127.0.0.1:9465" in err and "(the URL from the default receiver.listen)" in err
    _demo_workdir(tmp_path, receiver, os.getpid())
    assert read_latest_run_record() is not None
    code, out, err = admin(capsys, "suspensions", "--json")
    assert code == 0, err
    assert json.loads(out)["suspensions"]


@contextmanager
def json_server(answer: Callable[[str], JsonValue]) -> Iterator[str]:
    """A loopback HTTP server answering every GET with ``answer(path)`` as JSON (a receiver of another
    version); yields its base URL and records nothing."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            served = json.dumps(answer(self.path)).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(served)))
            self.end_headers()
            self.wfile.write(served)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def test_a_newer_receiver_s_added_fields_are_ignored_by_the_client(receiver: str) -> None:
    """A tolerant reader: an admin CLI older than its receiver reads answers that gained fields (at the top
    and inside entries); the fields it knows are still checked."""
    body = httpx.get(f"{receiver}/v1/ignore", params={"model": MODEL}).json()
    body["added_later"] = {"any": "thing"}
    for entry in body["entries"]:
        entry["added_later"] = 1
    with json_server(lambda path: body) as url, AdminClient(url, None) as client:
        assert client.ignore(MODEL).ignore == ["deepinfra/fp8"]


def test_the_client_follows_the_suspension_listing_page_by_page(receiver: str) -> None:
    """``/v1/suspensions`` is paged (``next_after``): the client joins the pages into one listing."""
    first = httpx.get(f"{receiver}/v1/suspensions").json()
    assert len(first["suspensions"]) == 1 and first["next_after"] is None
    second = json.loads(json.dumps(first))
    second["suspensions"][0]["provider"] = "parasail/fp8"
    pages = {"": {**first, "next_after": "cursor-1"}, "cursor-1": second}
    asked: list[str] = []

    def page(path: str) -> JsonValue:
        asked.append(parse_qs(urlsplit(path).query).get("after", [""])[0])
        return pages[asked[-1]]

    with json_server(page) as url, AdminClient(url, None) as client:
        listing = client.suspensions()
    assert asked == ["", "cursor-1"]
    assert [s.provider for s in listing.suspensions] == ["deepinfra/fp8", "parasail/fp8"]
    assert listing.next_after is None
