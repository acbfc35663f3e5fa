"""``canary admin`` against a real receiver on loopback: tables, --json, tokens from a file or the env."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

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
        assert [e["provider"] for e in listed["entries"]] == ["deepinfra/fp8"]
        assert client.ignore("acme/unknown-model")["entries"] == []
