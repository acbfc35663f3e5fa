"""The real-gateway path (``scripts/run`` with OPENROUTER_API_KEY = ``canary demo --config FILE``) end to end.

The shipped example config is run as a user would, with only the gateway key set, against the simulator in
place of OpenRouter (its ``base_url`` pointed at it) demanding that exact key. The whole local pipeline must
come up: exporter, receiver in the file's observe mode with locally generated tokens, Prometheus and
Alertmanager; the would-be suspensions and the receiver's ignore list must show.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from exporter.configkit import Secret
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from tests.simulated import quicken

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "config" / "openrouter.example.yaml"
KEY = "sk-or-v1-e2e-real-path"
MODEL = "moonshotai/kimi-k2-0905"
FAULTY = {"jsonbreaker/fp8", "garbler/bf16", "mixer/fp8"}  # fail every round in the default fleet


@pytest.fixture(scope="module")
def gateway() -> Iterator[SimulatorServer]:
    fleet = load_fleet(DEFAULT_FLEET).model_copy(update={"api_key": Secret("env:TEST", KEY)})
    with SimulatorServer(fleet) as sim:
        yield sim


@pytest.fixture(scope="module", autouse=True)
def _slow_host_at_a_healthy_pace(gateway: SimulatorServer) -> None:
    quicken(gateway)  # tests/simulated.py: this path's faulty hosts fail on content, not on time


def local_copy(tmp: Path, base_url: str) -> Path:
    """The example with only what a test must change: the gateway URL, free ports, compressed rounds."""
    config = yaml.safe_load(EXAMPLE.read_text())
    config["gateway"]["base_url"] = base_url
    config["gateway"]["timeout"] = "10s"
    config["rounds"]["interval"] = "2s"
    config["contracts"]["ttft"]["threshold"] = "1.5s"
    config["exporter"]["listen"] = "127.0.0.1:0"
    config["receiver"]["listen"] = "127.0.0.1:0"
    config["receiver"]["store_dir"] = str(tmp / "store")
    config["receiver"]["builtin_exclusions"] = str(EXAMPLE.parent / "builtin-exclusions.yaml")
    path = tmp / "openrouter.yaml"
    path.write_text(yaml.safe_dump(config))
    return path


def run(config: Path, workdir: Path, key: str | None, rounds: int = 3) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CANARY_", "OPENROUTER_"))}
    if key is not None:
        env["OPENROUTER_API_KEY"] = key
    argv = [
        sys.executable,
        "-m",
        "exporter.commands.canary",
        "demo",
        "--config",
        str(config),
        "--rounds",
        str(rounds),
    ]
    argv += ["--json", "--workdir", str(workdir)]
    return subprocess.run(argv, env=env, cwd=REPO, capture_output=True, text=True, timeout=240, check=False)


def test_only_the_key_runs_the_whole_pipeline_in_observe_mode(
    gateway: SimulatorServer, tmp_path: Path
) -> None:
    done = run(local_copy(tmp_path, gateway.base_url), tmp_path / "work", KEY)
    assert done.returncode == 0, done.stderr[-3000:]
    final = json.loads(done.stdout)
    assert final["pipeline"] == "prometheus+alertmanager"
    healthy = final["models"][MODEL]["providers"]["deepinfra/fp8"]["contracts"]
    assert {c["outcome"] for c in healthy.values()} == {"pass"}, healthy  # the key was accepted
    thinker = final["models"][MODEL]["providers"]["reasoner/bf16"]["contracts"]
    assert {c["outcome"] for c in thinker.values()} == {"pass"}, thinker  # low effort, room for the answer
    would_be = {(s["provider"], s["mode"]) for s in final["suspensions"]}
    assert {(tag, "observe") for tag in FAULTY} <= would_be
    ignore = final["ignore"][MODEL]
    assert FAULTY.isdisjoint(ignore["ignore"]), ignore  # observe mode excludes nothing
    admin = (tmp_path / "work" / "admin.token").read_text().strip()
    assert admin and admin != (tmp_path / "work" / "webhook.token").read_text().strip()
    assert admin not in done.stdout + done.stderr


def test_a_wrong_key_is_a_config_outcome_and_suspends_nobody(
    gateway: SimulatorServer, tmp_path: Path
) -> None:
    done = run(local_copy(tmp_path, gateway.base_url), tmp_path / "work", "sk-or-v1-wrong", rounds=2)
    assert done.returncode == 0, done.stderr[-3000:]
    final = json.loads(done.stdout)
    assert final["models"][MODEL]["discovery_failed"] or all(
        c["outcome"] == "config"
        for p in final["models"][MODEL]["providers"].values()
        for c in p["contracts"].values()
    ), final["models"]
    assert final["suspensions"] == []


def test_without_the_key_it_says_which_secret_is_missing(gateway: SimulatorServer, tmp_path: Path) -> None:
    done = run(local_copy(tmp_path, gateway.base_url), tmp_path / "work", None)
    assert done.returncode == 1
    assert "gateway.api_key: environment variable OPENROUTER_API_KEY is not set or empty" in done.stderr
