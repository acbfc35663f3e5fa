"""Common mistakes as a user meets them (the real ``canary`` command in a subprocess): each ends with one
located, actionable line (the configuration key, the likely right value), never a traceback, and a non-zero
exit where nothing useful happened."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from exporter.devtools.simulator.fleet import DEFAULT_FLEET
from exporter.devtools.simulator.server import SimulatorServer

pytestmark = pytest.mark.slow  # real subprocesses and probe rounds: ~80 s

CANARY = [sys.executable, "-m", "exporter.launcher"]
KEY_ENV = "CANARY_DEMO_GATEWAY_KEY"


def canary(*argv: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, KEY_ENV: "test-key-not-secret"}
    return subprocess.run(
        [*CANARY, *argv], capture_output=True, text=True, timeout=timeout, env=env, check=False
    )


@pytest.fixture(scope="module")
def simulator() -> Iterator[str]:
    with SimulatorServer.from_file(DEFAULT_FLEET) as server:
        yield server.base_url


def _config(tmp_path: Path, base_url: str, slug: str) -> Path:
    path = tmp_path / "canary.yaml"
    path.write_text(
        f"gateway:\n  base_url: {base_url}\n  api_key: {{env: {KEY_ENV}}}\nmodels:\n  - slug: {slug}\n"
    )
    return path


def test_a_base_url_of_v1_instead_of_api_v1_names_the_key_and_the_likely_value(
    simulator: str, tmp_path: Path
) -> None:
    root = simulator.removesuffix("/api/v1")
    done = canary("probe", "--config", str(_config(tmp_path, f"{root}/v1", "moonshotai/kimi-k2-0905")),
                  "--once", "--json")  # fmt: skip
    assert done.returncode == 1
    said = [line for line in done.stderr.splitlines() if line.startswith("canary probe:")]
    assert said == [
        f"canary probe: moonshotai/kimi-k2-0905: no provider was probed: gateway.base_url {root}/v1 is "
        f"not the API (HTTP 404 page); did you mean {root}/api/v1?"
    ]


def test_an_unknown_model_slug_names_models_i_slug(simulator: str, tmp_path: Path) -> None:
    done = canary("probe", "--config", str(_config(tmp_path, simulator, "acme/no-such-model")), "--once")
    assert done.returncode == 1
    assert (
        "canary probe: acme/no-such-model: no provider was probed: model acme/no-such-model not found on "
        "the gateway (HTTP 404); check models[0].slug"
    ) in done.stderr


def test_a_round_that_probed_hosts_exits_0(simulator: str, tmp_path: Path) -> None:
    done = canary("probe", "--config", str(_config(tmp_path, simulator, "moonshotai/kimi-k2-0905")),
                  "--once", "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert '"providers": {}' not in done.stdout


@pytest.fixture
def held_port() -> Iterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def test_a_port_in_use_names_its_config_key(held_port: int, tmp_path: Path) -> None:
    config = tmp_path / "receiver.yaml"
    config.write_text(
        f"receiver:\n  listen: 127.0.0.1:{held_port}\n  store_dir: {tmp_path / 'store'}\n"
        "  webhook_token: {env: T_WEBHOOK}\n  admin_token: {env: T_ADMIN}\n"
    )
    os.environ.update(T_WEBHOOK="w" * 32, T_ADMIN="a" * 32)
    try:
        done = canary("receiver", "--config", str(config), "--init")
    finally:
        del os.environ["T_WEBHOOK"], os.environ["T_ADMIN"]
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert (
        f"canary receiver: receiver.listen 127.0.0.1:{held_port}: cannot listen: Address already in use; "
        "another process holds the port (a second run?): stop it or change receiver.listen"
    ) in done.stderr


def test_a_second_run_of_the_same_config_says_only_why_and_where_the_first_one_is(tmp_path: Path) -> None:
    first_dir = tmp_path / "first"
    env = {**os.environ, KEY_ENV: "test-key-not-secret"}
    first = subprocess.Popen(
        [*CANARY, "demo", "--workdir", str(first_dir), "--no-pipeline", "--interval", "30"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (first_dir / "canary-run.json").exists():
            assert first.poll() is None and time.monotonic() < deadline, "the first run did not start"
            time.sleep(0.2)
        done = canary("demo", "--config", str(first_dir / "canary.yaml"), "--no-pipeline", "--rounds", "1",
                      "--workdir", str(tmp_path / "second"))  # fmt: skip
    finally:
        first.send_signal(signal.SIGTERM)
        first.wait(30)
    assert done.returncode == 1
    errors = [line for line in done.stderr.splitlines() if " INFO " not in line]
    assert "Traceback" not in done.stderr and len(errors) == 1, done.stderr
    (line,) = errors
    store = first_dir / "receiver"
    assert line.startswith(f"canary demo: receiver.store_dir: store directory {store} is locked")
    assert "serves its receiver at http://127.0.0.1:" in line and "canary admin --config" in line
    assert first.returncode == 0
    assert not (first_dir / "canary-run.json").exists()  # a clean stop removes its record
