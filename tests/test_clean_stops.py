"""Every long-running command stops cleanly on SIGTERM (docker stop, systemd) and SIGINT: exit 0, listeners
closed, the receiver's snapshot written, so a restart logs no error. Real processes, real signals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import httpx
import pytest

from exporter.devtools.pipeline.processes import free_port
from exporter.devtools.simulator.fleet import DEFAULT_FLEET
from exporter.devtools.simulator.server import SimulatorServer
from tests.e2e.stack import READY_TIMEOUT
from tests.receiver.helpers import alert, payload

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
ENV = {
    **{k: v for k, v in os.environ.items() if not k.startswith(("CANARY_", "OPENROUTER_"))},
    "CANARY_TEST_WEBHOOK": "stop-test-webhook",
    "CANARY_TEST_ADMIN": "stop-test-admin",
    "CANARY_TEST_KEY": "sk-or-v1-stop-test",
}


class Command:
    """``canary ARGS`` as a child process logging to a file; ended after its test at the latest."""

    started: ClassVar[list[subprocess.Popen[bytes]]] = []  # every process a test started, not yet ended

    def __init__(self, tmp: Path, name: str, *args: str) -> None:
        self.log = tmp / f"{name}.log"
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "exporter.commands.canary", *args],
                cwd=REPO, env=ENV, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            )  # fmt: skip
        Command.started.append(self.process)

    def wait_http(self, url: str, timeout: float = READY_TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process.poll() is None, self.log.read_text()
            try:
                if httpx.get(url, timeout=1).status_code < 500:
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError(f"{url} never answered:\n{self.log.read_text()}")

    def stop(self, sig: signal.Signals = signal.SIGTERM) -> str:
        self.process.send_signal(sig)
        try:
            code = self.process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.process.kill()
            raise AssertionError(f"no exit 15 s after {sig.name}:\n{self.log.read_text()}") from None
        text = self.log.read_text()
        assert code == 0, f"exit {code} after {sig.name}:\n{text}"
        assert "Traceback" not in text and " ERROR " not in text, text
        return text


@pytest.fixture(autouse=True)
def _no_process_outlives_its_test() -> Iterator[None]:
    """A test that fails before its stop (a command that never answered) would leave its process running,
    probing and loading the machine for every later test: end it here, by its PID."""
    yield
    while Command.started:
        process = Command.started.pop()
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)


def refused(port: int) -> bool:
    try:
        httpx.get(f"http://127.0.0.1:{port}/", timeout=1)
    except httpx.ConnectError:
        return True
    return False


@pytest.fixture(scope="module")
def gateway() -> Iterator[SimulatorServer]:
    with SimulatorServer.from_file(DEFAULT_FLEET) as sim:
        yield sim


def config(
    tmp: Path, gateway_url: str, receiver_port: int, exporter_port: int, routability_port: int
) -> Path:
    path = tmp / "canary.yaml"
    path.write_text(f"""
gateway: {{base_url: "{gateway_url}", api_key: {{env: CANARY_TEST_KEY}}, timeout: 10s}}
models: [{{slug: moonshotai/kimi-k2-0905}}]
rounds: {{interval: 1s}}
contracts: {{ttft: {{threshold: 2s}}}}
exporter: {{listen: "127.0.0.1:{exporter_port}"}}
receiver:
  listen: "127.0.0.1:{receiver_port}"
  mode: enforce
  store_dir: {tmp / "store"}
  webhook_token: {{env: CANARY_TEST_WEBHOOK}}
  admin_token: {{env: CANARY_TEST_ADMIN}}
routability:
  listen: "127.0.0.1:{routability_port}"
  store: {tmp / "routability.sqlite3"}
  models: [moonshotai/kimi-k2-0905]
  pace: 0s
""")
    return path


@pytest.fixture
def canary_yaml(tmp_path: Path, gateway: SimulatorServer) -> tuple[Path, dict[str, int]]:
    ports = {name: free_port() for name in ("receiver", "exporter", "routability")}
    path = config(tmp_path, gateway.base_url, ports["receiver"], ports["exporter"], ports["routability"])
    return path, ports


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_the_receiver_writes_its_snapshot_on_a_stop_signal_so_a_restart_logs_no_error(
    tmp_path: Path, canary_yaml: tuple[Path, dict[str, int]], sig: signal.Signals
) -> None:
    path, ports = canary_yaml
    url = f"http://127.0.0.1:{ports['receiver']}"
    first = Command(tmp_path, "receiver-1", "receiver", "--config", str(path), "--init")
    first.wait_http(f"{url}/healthz")
    failing = alert("deepinfra/fp8", model="moonshotai/kimi-k2-0905")
    headers = {"Authorization": "Bearer stop-test-webhook"}
    assert httpx.post(f"{url}/v1/alerts", json=payload(failing), headers=headers).status_code == 200
    first.stop(sig)
    assert refused(ports["receiver"])
    assert (tmp_path / "store" / "receiver.sqlite3").exists()
    second = Command(tmp_path, "receiver-2", "receiver", "--config", str(path))
    second.wait_http(f"{url}/healthz")
    assert [s["provider"] for s in httpx.get(f"{url}/v1/suspensions").json()["suspensions"]] == [
        "deepinfra/fp8"
    ]
    second.stop()  # asserts no ERROR in the restart's log, and exit 0 again


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_the_exporter_stops_on_sigterm_mid_rounds(
    tmp_path: Path, canary_yaml: tuple[Path, dict[str, int]], sig: signal.Signals
) -> None:
    path, ports = canary_yaml
    exporter = Command(tmp_path, "exporter", "exporter", "--config", str(path))
    exporter.wait_http(f"http://127.0.0.1:{ports['exporter']}/healthz")
    time.sleep(1.5)  # a round is in flight
    exporter.stop(sig)
    assert refused(ports["exporter"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_routability_stops_on_sigterm(
    tmp_path: Path, canary_yaml: tuple[Path, dict[str, int]], sig: signal.Signals
) -> None:
    path, ports = canary_yaml
    routability = Command(tmp_path, "routability", "routability", "--config", str(path))
    routability.wait_http(f"http://127.0.0.1:{ports['routability']}/healthz")
    routability.stop(sig)
    assert refused(ports["routability"])


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_the_simulator_stops_on_a_stop_signal(tmp_path: Path, sig: signal.Signals) -> None:
    port = free_port()
    simulator = Command(tmp_path, "simulator", "simulator", "--listen", f"127.0.0.1:{port}")
    simulator.wait_http(f"http://127.0.0.1:{port}/api/v1/models")
    text = simulator.stop(sig)
    assert "simulator stopped" in text and refused(port)


@pytest.mark.parametrize("after", [0.0, 1.0], ids=["while-starting", "while-running"])
def test_the_demo_stops_on_sigterm_and_closes_every_component(tmp_path: Path, after: float) -> None:
    demo = Command(
        tmp_path, "demo", "demo", "--no-pipeline", "--interval", "1", "--workdir", str(tmp_path / "w")
    )
    deadline = time.monotonic() + 30
    while "exporter at" not in demo.log.read_text():
        assert time.monotonic() < deadline and demo.process.poll() is None, demo.log.read_text()
        time.sleep(0.1)
    time.sleep(after)  # at once: the rest of the start-up (router, run record) is still going on
    text = demo.stop()
    assert "stopping: closing" in text
