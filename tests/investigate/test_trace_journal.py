"""``canary trace --user``: the router's journal names the routes that served a user, with the gateway down;
and a source trace cannot read is "unknown" (exit 3), never "no"."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import httpx
import pytest

from exporter.investigate.trace import resolve_model, served_routes, suggest_models
from exporter.receiver.server import ReceiverServer
from exporter.router import Journal, Observer, canary_http_client
from exporter.runrecord import write_run_record
from tests.investigate.conftest import KEY_ENV, KIMI, Run, as_json, write_config
from tests.receiver.helpers import WEBHOOK_TOKEN, alert, bearer, make_config, payload
from tests.simulated import default_fleet

HOSTS = "deepinfra/fp8,deepinfra/turbo,garbler/bf16,novita/fp8"


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def served_through_the_router(base_url: str, journal: Path, plan: list[tuple[str, str]]) -> None:
    """Each (user, host) pair: one streamed chat through the router's transport, pinned to the host."""
    observer = Observer(Journal(journal))
    with canary_http_client(observer) as http:
        for user, host in plan:
            body = {
                "model": KIMI,
                "stream": True,
                "max_tokens": 32,
                "messages": [{"role": "user", "content": "Greet the traveller."}],
                "provider": {"only": [host], "allow_fallbacks": False},
            }
            headers = {"Authorization": "Bearer k", "X-Canary-User": user}
            with http.stream("POST", f"{base_url}/chat/completions", json=body, headers=headers) as r:
                assert r.status_code == 200
                r.read()
    observer.flush()
    observer.stop()


@pytest.fixture
def traced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, run: Run) -> tuple[Path, Path]:
    """Evidence and a journal written while the simulator ran; the simulator is gone afterwards."""
    monkeypatch.setenv(KEY_ENV, "test-key")
    journal = tmp_path / "router" / "journal.sqlite3"
    with default_fleet() as sim:
        config = write_config(tmp_path / "canary.yaml", sim.base_url)
        code, _, err = run(
            "investigate", "--config", str(config), "--model", KIMI, "--providers", HOSTS,
            "--contracts", "language", "--samples", "2", "--json",
        )  # fmt: skip
        assert code == 0, err
        plan = [("user-42", "garbler/bf16")] * 3 + [("user-7", "deepinfra/turbo"), ("user-9", "novita/fp8")]
        served_through_the_router(sim.base_url, journal, plan)
    return config, journal


def test_trace_names_the_route_that_served_the_user_from_the_journal_with_the_gateway_down(
    traced: tuple[Path, Path], tmp_path: Path, run: Run
) -> None:
    config, journal = traced
    with ReceiverServer(make_config(tmp_path / "receiver")) as receiver:
        suspend = alert("garbler/bf16", model=KIMI, starts_at=time.time() - 60, discovered=HOSTS)
        posted = httpx.post(
            f"{receiver.base_url}/v1/alerts", json=payload(suspend), headers=bearer(WEBHOOK_TOKEN)
        )
        assert posted.status_code == 200
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 1))  # after the suspension
        argv = ["trace", "--config", str(config), "--journal", str(journal), "--receiver", receiver.base_url]
        code, out, err = run(*argv, "--user", "user-42", "--model", KIMI, "--at", at, "--json")
        assert code == 0, out + err
        document = as_json(out)
        assert document["unknown"] == {} and document["user"]["requests"] == 3
        (route,) = document["routes"]
        assert (route["provider"], route["matched_by"], route["requests"]) == (
            "garbler/bf16", "journal_display_name", 3,
        )  # fmt: skip
        assert route["excluded_then"][0]["kind"] == "suspend" and route["in_ignore_list_now"] is True
        assert route["verdicts"]["by_contract"]["language"].get("fail", 0) >= 1  # the nearest evidence

        code, out, _ = run(*argv, "--user", "user-7", "--model", KIMI, "--at", at)
        assert code == 0
        assert "route deepinfra/fp8 (DeepInfra; matched by journal_ambiguous" in out
        assert "route deepinfra/turbo (DeepInfra; matched by journal_ambiguous" in out
        assert "ambiguous: DeepInfra is deepinfra/fp8 or deepinfra/turbo" in out
        assert "garbler" not in out  # another user's route is not this user's

    gone = f"http://127.0.0.1:{closed_port()}"
    argv = ["trace", "--config", str(config), "--journal", str(journal), "--receiver", gone]
    code, out, err = run(*argv, "--user", "user-42", "--model", KIMI, "--at", at)
    assert code == 3, err
    assert out.startswith("INCOMPLETE") and "receiver: could not read" in out.splitlines()[1]
    assert "excluded then: unknown" in out and "in the ignore list now: unknown" in out
    assert "excluded then: no" not in out and "decisions about it: 0" not in out
    code, out, _ = run(*argv, "--user", "user-42", "--model", KIMI, "--at", at, "--json")
    (route,) = as_json(out)["routes"]
    assert code == 3 and route["excluded_then"] is None and "excluded_then" in route["unknown"]


def test_a_receiver_on_port_0_is_unknown_unless_the_run_record_says_where(
    traced: tuple[Path, Path], tmp_path: Path, run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, journal = traced
    monkeypatch.delenv(KEY_ENV)  # read-only: no gateway key needed ...
    with config.open("a") as out:  # ... and no receiver token (the files named do not exist)
        out.write(
            "receiver:\n  listen: 127.0.0.1:0\n  store_dir: receiver\n"
            "  webhook_token: {file: nowhere/webhook.token}\n  admin_token: {file: nowhere/admin.token}\n"
        )
    at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    argv = ["trace", "--config", str(config), "--journal", str(journal), "--user", "user-42", "--model", KIMI]
    code, out, err = run(*argv, "--at", at)
    assert code == 3, err
    assert "receiver.listen is 127.0.0.1:0" in out.splitlines()[1] and "excluded then: unknown" in out
    with ReceiverServer(make_config(tmp_path / "receiver")) as receiver:
        write_run_record(config.parent, {"receiver": receiver.base_url})
        code, out, err = run(*argv, "--at", at)
    assert code == 0, out + err
    assert "excluded then: no" in out and "route garbler/bf16" in out


def test_an_unknown_or_short_model_exits_2_with_the_full_slug(
    traced: tuple[Path, Path], run: Run, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, _ = traced
    monkeypatch.delenv(KEY_ENV)
    code, out, err = run(
        "trace", "--config", str(config), "--model", "kimi-k2", "--at", "2026-11-30T21:10:00Z"
    )
    assert code == 2 and out == ""
    assert "--model: unknown model 'kimi-k2'" in err and f"did you mean {KIMI}?" in err


def test_model_names_resolve_dated_permaslugs_and_suggest_full_slugs() -> None:
    known = [KIMI, "acme/roleplay-large"]
    assert resolve_model("acme/roleplay-large-20260915", known) == "acme/roleplay-large"
    assert resolve_model("ACME/Roleplay-Large", known) == "acme/roleplay-large"
    assert resolve_model("acme/roleplay-large-v2", known) is None
    assert suggest_models("roleplay", known) == ["acme/roleplay-large"]
    assert suggest_models("moonshotai/kimi-k2-09O5", known) == [KIMI]


def test_served_routes_never_guess_between_tags_of_one_display_name() -> None:
    names = {"deepinfra/fp8": "DeepInfra", "deepinfra/turbo": "DeepInfra", "novita/fp8": "NovitaAI"}
    routes = served_routes([(None, "DeepInfra"), (None, "NovitaAI"), ("deepinfra/turbo", "DeepInfra")], names)
    assert [(r.provider, r.matched_by, r.requests) for r in routes] == [
        ("deepinfra/fp8", "journal_ambiguous", 1),
        ("deepinfra/turbo", "journal", 1),
        ("deepinfra/turbo", "journal_ambiguous", 1),
        ("novita/fp8", "journal_display_name", 1),
    ]
    (unmapped,) = served_routes([(None, "Mystery")], names)
    assert unmapped.matched_by == "journal_unmapped"
