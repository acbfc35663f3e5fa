"""Fixtures: the real simulator (default fleet) on loopback and a canary config that points at it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from exporter.commands.canary import main
from exporter.devtools.simulator.server import SimulatorServer
from tests.simulated import default_fleet

KIMI = "moonshotai/kimi-k2-0905"
KEY_ENV = "CANARY_TEST_INVESTIGATE_KEY"


@pytest.fixture
def sim() -> Iterator[SimulatorServer]:
    """The default fleet, its slow host at a healthy pace: investigate compares what hosts say."""
    with default_fleet() as server:
        yield server


def write_config(path: Path, base_url: str, *, evidence: bool = True, concurrency: int = 8) -> Path:
    text = f"""gateway:
  base_url: {base_url}
  api_key: {{env: {KEY_ENV}}}
  timeout: 20s
models:
  - slug: {KIMI}
    known_filtering: [strictguard/text]
rounds:
  interval: 0.05s
  concurrency: {concurrency}
"""
    if evidence:
        text += "exporter:\n  evidence: {path: evidence.sqlite3}\n"
    path.write_text(text)
    return path


@pytest.fixture
def config(tmp_path: Path, sim: SimulatorServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(KEY_ENV, "test-key")
    return write_config(tmp_path / "canary.yaml", sim.base_url)


def chat_requests(server: SimulatorServer) -> int:
    """How many chat completions the simulator has received (discovery is not counted)."""
    return len(httpx.get(f"{server.root_url}/_sim/requests").json())


Run = Callable[..., tuple[int, str, str]]


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str]) -> Run:
    """Run ``canary ARGS...`` in-process: (exit code, stdout, stderr)."""

    def invoke(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(["--log-level", "WARNING", *argv])
        except SystemExit as exc:  # argparse's own errors
            code = int(exc.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return invoke


def as_json(out: str) -> Any:
    return json.loads(out)
