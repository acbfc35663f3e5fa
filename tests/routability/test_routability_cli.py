"""`canary routability --config FILE [--once] [--json]` against a loopback stub gateway."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from exporter.commands.routability import register
from exporter.configkit import ConfigError
from exporter.serving import ThreadedServer

CHAT = {
    "id": "gen-1",
    "provider": "Stub",
    "choices": [{"finish_reason": "stop", "message": {"content": "OK"}}],
}


def stub_gateway() -> Starlette:
    async def models(request: Request) -> JSONResponse:
        data = [{"id": s, "architecture": {"output_modalities": ["text"]}} for s in ("s/ok", "s/gone")]
        return JSONResponse({"data": data})

    async def endpoints(request: Request) -> JSONResponse:
        return JSONResponse({"data": {"endpoints": [{"tag": "stub", "status": 0, "uptime_last_30m": 100}]}})

    async def chat(request: Request) -> JSONResponse:
        if request.headers.get("authorization") != "Bearer sk-stub":
            return JSONResponse({"error": {"code": 401, "message": "User not found."}}, status_code=401)
        body = await request.json()
        if body["model"] == "s/ok":
            return JSONResponse(CHAT)
        message = f"{body['model']} is not a valid model ID"
        return JSONResponse({"error": {"code": 400, "message": message}}, status_code=400)

    return Starlette(
        routes=[
            Route("/api/v1/models", models),
            Route("/api/v1/models/{slug:path}/endpoints", endpoints),
            Route("/api/v1/chat/completions", chat, methods=["POST"]),
        ]
    )


@pytest.fixture(scope="module")
def gateway() -> Iterator[str]:
    with ThreadedServer(stub_gateway()) as server:
        yield server.base_url + "/api/v1"


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="canary")
    register(parser.add_subparsers(dest="command", required=True))
    return parser.parse_args(argv)


def write_config(tmp_path: Path, gateway: str) -> Path:
    path = tmp_path / "canary.yaml"
    path.write_text(
        f"""\
gateway:
  base_url: {gateway}
  api_key: {{env: STUB_KEY}}
models: []
routability:
  store: state/routability.sqlite3
  pace: 1ms
"""
    )
    return path


Routability = Callable[..., tuple[int, str, str]]


@pytest.fixture
def routability(
    tmp_path: Path, gateway: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Routability:
    """Run ``canary routability --config CONFIG FLAGS...`` on the stub gateway: (exit code, out, err)."""

    def run(*flags: str, key: str = "sk-stub") -> tuple[int, str, str]:
        monkeypatch.setenv("STUB_KEY", key)
        args = parse(["routability", "--config", str(write_config(tmp_path, gateway)), *flags])
        code = args.func(args)
        out, err = capsys.readouterr()
        return code, out, err

    return run


def test_help_documents_the_interface_with_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        parse(["routability", "--help"])
    out = capsys.readouterr().out
    for text in ("--config FILE", "--once", "--json", "canary routability --config canary.yaml --once --json",
                 "POST /v1/routability/run"):  # fmt: skip
        assert text in out


def test_once_json_prints_rows_and_aggregate_and_rows_survive_a_restart(
    tmp_path: Path, gateway: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STUB_KEY", "sk-stub")
    config = write_config(tmp_path, gateway)
    args = parse(["routability", "--config", str(config), "--once", "--json"])
    assert args.func(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["pass"]["results"] == {"healthy": 1, "degraded": 0, "unavailable": 1}
    rows = {r["slug"]: r for r in first["rows"]}
    assert rows["s/ok"]["status"] == "healthy" and rows["s/gone"]["status"] == "unavailable"
    assert rows["s/gone"]["source"] == "gateway" and rows["s/gone"]["consecutive_failures"] == 1
    assert (tmp_path / "state" / "routability.sqlite3").exists()

    assert args.func(args) == 0  # a new process would do the same: the store is reopened from disk
    second = {r["slug"]: r for r in json.loads(capsys.readouterr().out)["rows"]}
    assert second["s/gone"]["consecutive_failures"] == 2


def test_once_table_output(routability: Routability) -> None:
    code, out, _ = routability("--once", key="wrong-key")
    assert code == 0
    assert "s/ok" in out and "degraded" in out and "401: User not found." in out
    assert "wrong-key" not in out
    assert "pass: probed 2 (healthy 0, degraded 2, unavailable 0), skipped 0" in out


def test_json_without_once_is_a_usage_error(routability: Routability) -> None:
    code, _, err = routability("--json")
    assert code == 2
    assert "--json needs --once" in err


def test_configuration_problems_are_raised_with_their_location(tmp_path: Path) -> None:
    path = tmp_path / "canary.yaml"
    path.write_text("models: []\nroutability:\n  max_tokens: 1\n  pase: 2s\n")
    args = parse(["routability", "--config", str(path), "--once"])
    with pytest.raises(ConfigError) as info:
        args.func(args)
    text = "\n".join(info.value.problems)
    assert "routability.max_tokens: 1 fails on reasoning models" in text
    assert "routability.pase: unknown key" in text


def test_service_mode_runs_a_first_pass_and_serves_the_api(tmp_path: Path, gateway: str) -> None:
    import asyncio
    import socket

    import httpx

    from exporter.commands.routability import serve
    from exporter.configkit import Secret
    from exporter.gateway.config import GatewayConfig
    from exporter.routability.config import RoutabilityConfig

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    config = RoutabilityConfig(
        listen=("127.0.0.1", port),
        store=tmp_path / "r.sqlite3",
        pace=0.001,
        trigger_token=Secret("env:T", "tok"),
    )

    async def scenario() -> tuple[dict[str, object], int, int, str]:
        stop = asyncio.Event()
        task = asyncio.create_task(
            serve(config, GatewayConfig(base_url=gateway, api_key=Secret("env:K", "sk-stub")), stop)
        )
        try:
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=5) as client:
                for _ in range(200):
                    try:
                        listing = await client.get("/v1/routability")
                        if len(listing.json()["rows"]) == 2:
                            break
                    except httpx.TransportError:
                        pass
                    await asyncio.sleep(0.02)
                denied = await client.post("/v1/routability/run")
                run = await client.post("/v1/routability/run?wait=1", headers={"Authorization": "Bearer tok"})
                metrics = await client.get("/metrics")
                return listing.json(), denied.status_code, run.status_code, metrics.text
        finally:
            stop.set()
            await asyncio.wait_for(task, 10)

    listing, denied, run, metrics = asyncio.run(scenario())
    assert listing["models"] == {"unknown": 0, "healthy": 1, "degraded": 0, "unavailable": 1}
    assert (denied, run) == (401, 200)
    assert 'canary_routability_probes_total{result="healthy"} 2.0' in metrics


def test_status_shows_counts_the_last_pass_with_its_spend_and_the_next_pass(
    tmp_path: Path, gateway: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("STUB_KEY", "sk-stub")
    config = str(write_config(tmp_path, gateway))
    status = parse(["routability", "status", "--config", config])
    assert status.func(status) == 0
    assert "last pass: none yet" in capsys.readouterr().out
    once = parse(["routability", "--config", config, "--once"])
    assert once.func(once) == 0
    capsys.readouterr()
    assert status.func(status) == 0
    out = capsys.readouterr().out
    assert "models: unknown 0, healthy 1, degraded 0, unavailable 1" in out
    assert "last pass: finished " in out and "probed 2" in out and "completion tokens, $" in out
    as_json = parse(["routability", "status", "--config", config, "--json"])
    assert as_json.func(as_json) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["schedule"] == "daily at 05:00 UTC" and report["next_pass_at"].endswith("T05:00:00.000Z")
