"""``canary trace``: the route that served a request, its verdicts, and what excluded it then."""

from __future__ import annotations

import os
import time
from pathlib import Path

import httpx
import pytest

from exporter.commands.trace import receiver_url
from exporter.devtools.simulator.server import SimulatorServer
from exporter.gateway.types import Endpoint
from exporter.investigate.trace import Route, excluded_at, route_report, routes_for
from exporter.receiver.server import ReceiverServer
from exporter.runrecord import write_run_record
from tests.investigate.conftest import KIMI, Run, as_json, chat_requests
from tests.receiver.helpers import ADMIN_TOKEN, WEBHOOK_TOKEN, alert, bearer, make_config, payload

HOSTS = "deepinfra/fp8,deepinfra/turbo,parasail/fp8,novita/fp8,garbler/bf16"
T = 1_800_000_000.0


def _decision(seq: int, at: float, kind: str, provider: str = "p/1", **extra: object) -> dict[str, object]:
    return {
        "seq": seq,
        "at": at,
        "time": f"t{seq}",
        "kind": kind,
        "model": "m/x",
        "provider": provider,
        **extra,
    }


def test_a_suspension_excludes_until_its_end_or_a_lift() -> None:
    log = [_decision(1, T, "suspend", until=T + 86400, rung=1, mode="enforce", reason="failing: language")]
    assert [e["layer"] for e in excluded_at(log, "m/x", "p/1", T + 10)] == ["suspension"]
    assert excluded_at(log, "m/x", "p/1", T - 10) == []
    assert excluded_at(log, "m/x", "p/1", T + 86400) == []
    lifted = [*log, _decision(2, T + 100, "lift", reason="false positive")]
    assert (
        excluded_at(lifted, "m/x", "p/1", T + 50) != [] and excluded_at(lifted, "m/x", "p/1", T + 200) == []
    )
    assert excluded_at(log, "m/x", "other/1", T + 10) == []


def test_an_escalation_replaces_the_suspension_it_follows() -> None:
    log = [
        _decision(1, T, "suspend", until=T + 100, rung=1),
        _decision(2, T + 100, "escalate", until=T + 3 * 86400, rung=2),
    ]
    (active,) = excluded_at(log, "m/x", "p/1", T + 1000)
    assert active["kind"] == "escalate" and active["rung"] == 2


def test_an_incident_lasts_until_removed() -> None:
    log = [
        _decision(1, T, "incident_add", incident_id="inc-1", reason="vendor outage"),
        _decision(2, T + 500, "incident_remove", incident_id="inc-1"),
    ]
    assert [e["layer"] for e in excluded_at(log, "m/x", "p/1", T + 10)] == ["incident"]
    assert excluded_at(log, "m/x", "p/1", T + 600) == []


def test_a_route_report_keeps_only_what_is_about_that_route() -> None:
    route = Route("p/1", "P", "--provider")
    suspended = {"model": "m/x", "provider": "p/1", "rung": 1}
    receiver = {
        "decisions": [_decision(1, T, "suspend", until=T + 100), _decision(2, T, "suspend", provider="q/1")],
        "suspensions": [{"model": "m/x", "provider": "q/1"}, suspended, {"model": "m/y", "provider": "p/1"}],
        "ignore": ["p/1"],
    }
    report = route_report(route, [], receiver, "m/x", T + 10)
    assert [d["seq"] for d in report["decisions"]] == [1]
    assert [e["seq"] for e in report["excluded_then"]] == [1]
    assert report["suspended_now"] == suspended and report["in_ignore_list_now"] is True
    assert report["verdicts"]["records"] == 0
    unread = route_report(route, [], None, "m/x", T + 10, {"receiver": "connection refused"})
    assert (unread["decisions"], unread["excluded_then"], unread["in_ignore_list_now"]) == (None, None, None)
    assert unread["unknown"]["excluded_then"] == "connection refused"  # unknown, with why: never []


def test_a_shared_display_name_is_ambiguous_unless_our_probe_or_the_user_says() -> None:
    endpoints = [
        Endpoint("deepinfra/fp8", "DeepInfra"),
        Endpoint("deepinfra/turbo", "DeepInfra"),
        Endpoint("novita/fp8", "NovitaAI"),
    ]
    both = routes_for(endpoints, provider_name="deepinfra", provider=None, own_probe=None)
    assert [(r.provider, r.matched_by) for r in both] == [
        ("deepinfra/fp8", "display_name"),
        ("deepinfra/turbo", "display_name"),
    ]
    assert [
        r.matched_by
        for r in routes_for(endpoints, provider_name="DeepInfra", provider=None, own_probe="deepinfra/turbo")
    ] == ["evidence"]
    assert [
        r.provider for r in routes_for(endpoints, provider_name=None, provider="novita/fp8", own_probe=None)
    ] == ["novita/fp8"]


@pytest.mark.parametrize(
    ("argv", "flag", "says"),
    [
        (["--model", KIMI, "--at", "about 21:10"], "--at", "RFC 3339"),
        (["--model", KIMI], "--at", "--model needs --at"),
        (["--generation", "gen 1; DROP"], "--generation", "expected a generation id"),
        (["--generation", "gen-1-unknown"], "--generation", "no generation 'gen-1-unknown' (404)"),
        (
            ["--model", KIMI, "--at", "2026-11-30T21:10:00Z", "--provider", "ghost/fp8"],
            "--provider",
            "not a host",
        ),
    ],
)
def test_bad_input_is_exit_2_naming_the_flag(
    run: Run, config: Path, sim: SimulatorServer, argv: list[str], flag: str, says: str
) -> None:
    code, out, err = run("trace", "--config", str(config), *argv)
    assert code == 2 and flag in err and says in err, err
    assert out == "" and "Traceback" not in err and chat_requests(sim) == 0


def test_trace_finds_the_route_its_verdicts_and_its_exclusions(
    run: Run, config: Path, sim: SimulatorServer, tmp_path: Path
) -> None:
    code, out, _ = run(
        "investigate", "--config", str(config), "--model", KIMI, "--providers", HOSTS,
        "--contracts", "language", "--samples", "3", "--json",
    )  # fmt: skip
    assert code == 0
    with ReceiverServer(make_config(tmp_path / "receiver")) as receiver:
        now = time.time()
        suspend = alert("garbler/bf16", model=KIMI, starts_at=now - 60, discovered=HOSTS)
        assert (
            httpx.post(
                f"{receiver.base_url}/v1/alerts", json=payload(suspend), headers=bearer(WEBHOOK_TOKEN)
            ).status_code
            == 200
        )
        incident = {"model": KIMI, "provider": "novita/fp8", "reason": "vendor maintenance"}
        assert (
            httpx.post(
                f"{receiver.base_url}/v1/admin/incidents", json=incident, headers=bearer(ADMIN_TOKEN)
            ).status_code
            < 300
        )
        at = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() + 1))
        argv = ["trace", "--config", str(config), "--receiver", receiver.base_url, "--json"]
        code, out, err = run(*argv, "--model", KIMI, "--at", at, "--provider", "garbler/bf16")
        assert code == 0, err
        (route,) = as_json(out)["routes"]
        assert route["provider"] == "garbler/bf16" and route["matched_by"] == "--provider"
        assert route["verdicts"]["by_contract"]["language"].get("fail", 0) >= 2
        assert (
            route["excluded_then"][0]["layer"] == "suspension"
            and route["excluded_then"][0]["kind"] == "suspend"
        )
        assert route["in_ignore_list_now"] is True and route["suspended_now"]["provider"] == "garbler/bf16"
        assert [d["kind"] for d in route["decisions"]] == ["suspend"]

        code, out, _ = run(*argv, "--model", KIMI, "--at", at, "--provider", "novita/fp8")
        (route,) = as_json(out)["routes"]
        assert [e["layer"] for e in route["excluded_then"]] == ["incident"] and route[
            "in_ignore_list_now"
        ] is True

        failing = next(
            f
            for f in as_json(run(*argv, "--model", KIMI, "--at", at, "--provider", "garbler/bf16")[1])[
                "routes"
            ][0]["verdicts"]["failures"]
        )
        code, out, _ = run(*argv, "--generation", failing["generation_id"])
        document = as_json(out)
        assert code == 0 and document["generation"]["provider_name"] == "Garbler"
        assert [(r["provider"], r["matched_by"]) for r in document["routes"]] == [
            ("garbler/bf16", "evidence")
        ]


def test_a_display_name_shared_by_two_routes_lists_both(run: Run, config: Path, sim: SimulatorServer) -> None:
    reply = httpx.post(
        f"{sim.base_url}/chat/completions",
        headers={"Authorization": "Bearer k"},
        json={"model": KIMI, "messages": [{"role": "user", "content": "Hi"}], "max_tokens": 16,
              "provider": {"only": ["deepinfra/turbo"], "allow_fallbacks": False}},
    ).json()  # fmt: skip
    time.sleep(0.6)  # the record appears a moment after completion, as on OpenRouter
    code, out, err = run("trace", "--config", str(config), "--generation", reply["id"])
    assert code == 3, err  # no receiver: its part is unknown, said first, and the exit status says so
    assert out.startswith("INCOMPLETE") and "receiver: no receiver is configured" in out
    assert "route deepinfra/fp8 (DeepInfra; matched by display_name)" in out
    assert "route deepinfra/turbo (DeepInfra; matched by display_name)" in out
    assert "DeepInfra serves 2 routes" in out and "excluded then: unknown" in out


def test_help_has_an_example(run: Run) -> None:
    code, out, _ = run("trace", "--help")
    assert code == 0 and "example" in out and "--generation ID" in out


def test_the_receiver_of_a_stopped_run_is_not_asked(tmp_path: Path) -> None:
    config = tmp_path / "canary.yaml"
    config.write_text("receiver:\n  listen: 127.0.0.1:0\n", encoding="utf-8")
    write_run_record(tmp_path, {"receiver": "http://127.0.0.1:40123/"}, {"config": config}, environ={})
    assert receiver_url(config, None) == ("http://127.0.0.1:40123", None)  # this process wrote it: live

    record = tmp_path / "canary-run.json"
    record.write_text(record.read_text().replace(f'"pid": {os.getpid()}', '"pid": 999999999'))
    url, why = receiver_url(config, None)
    assert url is None and why is not None and "has stopped" in why and "--receiver URL" in why
    config.write_text("receiver:\n  listen: 127.0.0.1:9465\n", encoding="utf-8")
    assert receiver_url(config, None) == ("http://127.0.0.1:9465", None)
