"""Every dashboard query returns data from the real pipeline, not just parses.

promtool proves the expressions are PromQL and the contract test proves the names exist; this proves the label
names, the selectors and the arithmetic fit what the components really export. The simulator's default fleet
is probed by the real exporter (the compose demo configuration, rounds compressed), Prometheus runs the
compose overlay with the repository's rules, Alertmanager the compose overlay, the receiver enforces, and
routability runs one pass; then each dashboard query is evaluated with the variables set to a suspended
provider.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from exporter.pipeline.configs import Timings
from exporter.pipeline.processes import AlertmanagerProcess, PrometheusProcess, free_port
from exporter.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.simulator.server import SimulatorServer

from .checks import DASHBOARDS, ROOT, expressions

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

COMPOSE = ROOT / "config" / "compose"
MODEL = "moonshotai/kimi-k2-0905"
# Panels whose queries may rightly be empty in this scenario, with the reason; every other one must have data.
MAY_BE_EMPTY = {
    "Admin incident": "no administrator added an incident",
    "Language outcomes by locale": "no language probe of that host in the window (or no language contract)",
    "Language outcomes per locale": "no language probe of that host yet (or no language contract)",
    "Most consecutive failures": "every catalogue model may be healthy",
}


@dataclass
class Stack:
    prometheus: PrometheusProcess
    provider: str


def _write_secret(path: Path, value: str) -> Path:
    path.write_text(value + "\n")
    path.chmod(0o600)
    return path


def _spawn(args: list[str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as handle:  # the child keeps its own descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "exporter.cli", *args], stdout=handle, stderr=subprocess.STDOUT, cwd=ROOT
        )


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    work = tmp_path_factory.mktemp("dashboards-live")
    secrets = work / "secrets"
    secrets.mkdir()
    for name in ("openrouter_api_key", "canary_webhook_token", "canary_admin_token", "routability_token"):
        _write_secret(secrets / name, f"live-{name}")
    exporter_port, receiver_port, routability_port = free_port(), free_port(), free_port()
    processes: list[subprocess.Popen[bytes]] = []
    simulator = SimulatorServer(load_fleet(DEFAULT_FLEET)).start()
    try:
        canary = (COMPOSE / "canary.demo.yaml").read_text()
        canary = canary.replace("http://simulator:8088/api/v1", simulator.base_url)
        canary = canary.replace("/run/secrets/", f"{secrets}/").replace("/var/lib/canary/", f"{work}/state/")
        canary = canary.replace("interval: 60s", "interval: 2s").replace("schedule: 1h", "schedule: 1h\n"
                                f"  trigger_token: {{file: {secrets}/routability_token}}")  # fmt: skip
        canary = canary.replace("0.0.0.0:9464", f"127.0.0.1:{exporter_port}")
        canary = canary.replace("0.0.0.0:9466", f"127.0.0.1:{routability_port}")
        (work / "canary.yaml").write_text(canary)
        receiver = (COMPOSE / "receiver.yaml").read_text().replace("/run/secrets/", f"{secrets}/")
        receiver = receiver.replace("/var/lib/canary/", f"{work}/state/")
        receiver = receiver.replace(
            "/etc/canary/builtin-exclusions.yaml", str(ROOT / "config/builtin-exclusions.yaml")
        )
        (work / "receiver.yaml").write_text(receiver)

        processes.append(_spawn(["exporter", "--config", str(work / "canary.yaml")], work / "exporter.log"))
        listen = f"127.0.0.1:{receiver_port}"
        receiver_args = [
            "receiver",
            "--config",
            str(work / "receiver.yaml"),
            "--mode",
            "enforce",
            "--listen",
            listen,
            "--init",  # a new store (the receiver never creates one unasked)
        ]
        processes.append(_spawn(receiver_args, work / "receiver.log"))
        processes.append(
            _spawn(["routability", "--config", str(work / "canary.yaml")], work / "routability.log")
        )

        # The compose overlays, laid out as in the containers (rules next to the config directory).
        (work / "prom" / "config").mkdir(parents=True)
        (work / "prom" / "config" / "prometheus.yml").write_text((COMPOSE / "prometheus.yml").read_text())
        (work / "prom" / "rules").symlink_to(ROOT / "rules")
        timings = Timings(scrape_interval=0.5, evaluation_interval=0.5, group_interval=0.5, repeat_interval=2)
        with (
            AlertmanagerProcess(
                work / "am",
                webhook_url=f"http://127.0.0.1:{receiver_port}/v1/alerts",
                token_file=secrets / "canary_webhook_token",
                timings=timings,
                shipped_config=COMPOSE / "alertmanager.yml",
            ) as alertmanager,
            PrometheusProcess(
                work / "prom" / "data-dir",
                targets={
                    "canary-exporter": f"127.0.0.1:{exporter_port}",
                    "canary-receiver": f"127.0.0.1:{receiver_port}",
                    "canary-routability": f"127.0.0.1:{routability_port}",
                },
                alertmanagers=[alertmanager.address],
                timings=timings,
                shipped_config=work / "prom" / "config" / "prometheus.yml",
            ) as prometheus,
        ):
            prometheus.wait_until(
                lambda: _post_run(routability_port, secrets / "routability_token"),
                what="routability pass triggered", timeout=30,
            )  # fmt: skip
            prometheus.wait_until(
                lambda: bool(prometheus.query('canary_receiver_suspension_active{mode="enforce"}'))
                and bool(prometheus.query("canary_routability_last_check_age_seconds")),
                what="an enforced suspension and a routability pass", timeout=120,
            )  # fmt: skip
            time.sleep(3)  # a few more scrapes, so rate() windows hold several samples
            suspended = prometheus.query('canary_receiver_suspension_active{mode="enforce"}')
            yield Stack(prometheus, sorted(s.labels["provider"] for s in suspended)[0])
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        simulator.stop()


def _post_run(port: int, token_file: Path) -> bool:
    try:
        response = httpx.post(
            f"http://127.0.0.1:{port}/v1/routability/run",
            headers={"Authorization": f"Bearer {token_file.read_text().strip()}"},
            timeout=5,
        )
    except httpx.HTTPError:
        return False
    return response.status_code in (200, 202, 409)


def _live(expr: str, provider: str) -> str:
    return (
        expr.replace("$model", MODEL)
        .replace("$provider", provider)
        .replace("$__rate_interval", "20s")
        .replace("$__range", "5m")
    )


@pytest.mark.parametrize("path", sorted(DASHBOARDS.glob("*.json")), ids=lambda p: p.name)
def test_every_dashboard_query_returns_data_from_the_real_pipeline(path: Path, stack: Stack) -> None:
    document = json.loads(path.read_text())
    empty = []
    for where, expr in expressions(document).items():
        if not where.startswith("panel"):
            continue
        title = where.split("'")[1]
        if not stack.prometheus.query(_live(expr, stack.provider)) and MAY_BE_EMPTY.get(title) is None:
            empty.append(f"{where}: {_live(expr, stack.provider)}")
    assert not empty, "queries with no data:\n" + "\n".join(empty)


def test_the_outcome_timeline_codes_are_the_documented_ones(stack: Stack) -> None:
    document = json.loads((DASHBOARDS / "canary-provider.json").read_text())
    panel = next(p for p in document["panels"] if p["title"] == "Outcome per contract")
    samples = stack.prometheus.query(_live(panel["targets"][0]["expr"], stack.provider))
    codes = panel["fieldConfig"]["defaults"]["mappings"][0]["options"]
    assert samples and {str(int(s.value)) for s in samples} <= set(codes)
    assert {s.labels["contract"] for s in samples} >= {"ttft", "refusal", "structured"}
    assert "2" in {str(int(s.value)) for s in samples}, "the suspended provider shows no failing contract"
