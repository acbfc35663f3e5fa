"""Every dashboard query returns data from the real pipeline, not just parses.

promtool proves the expressions are PromQL and the contract test proves the names exist; this proves the label
names, the selectors and the arithmetic fit what the components really export. The simulator's default fleet
is probed by the real exporter (the compose demo configuration, rounds compressed), Prometheus runs the
compose overlay with the repository's rules, Alertmanager the compose overlay, the receiver enforces, and
routability runs one pass; then each dashboard query is evaluated with the variables set to a suspended
provider.
"""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from exporter.devtools.pipeline.configs import Timings
from exporter.devtools.pipeline.processes import AlertmanagerProcess, PrometheusProcess, Sample, free_port
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.server import SimulatorServer

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
    "Live failure ratio per route": "no router exports live verdicts in this scenario (the demo's does)",
    "Live verdicts beside the canary verdicts": "no router exports live verdicts here (the demo's does)",
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
            [sys.executable, "-m", "exporter.commands.canary", *args],
            stdout=handle,
            stderr=subprocess.STDOUT,
            cwd=ROOT,
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
    simulator = SimulatorServer(load_fleet(DEFAULT_FLEET))
    simulator.start()
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


def _title(where: str) -> str:
    """The panel title in ``panel ID 'TITLE' query R`` (written with repr, so any quote it holds survives)."""
    match = re.fullmatch(r"panel \S+ (.+) query \S+", where)
    assert match, where
    title = ast.literal_eval(match.group(1))
    assert isinstance(title, str)
    return title


def _live(expr: str, provider: str) -> str:
    return (
        expr.replace("$model", MODEL)
        .replace("$provider", provider)
        .replace("$__rate_interval", "20s")
        .replace("$window", "20s")
        .replace("$__range", "5m")
    )


@pytest.mark.parametrize("path", sorted(DASHBOARDS.glob("*.json")), ids=lambda p: p.name)
def test_every_dashboard_query_returns_data_from_the_real_pipeline(path: Path, stack: Stack) -> None:
    document = json.loads(path.read_text())
    empty = []
    for where, expr in expressions(document).items():
        if not where.startswith("panel"):
            continue
        title = _title(where)
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


# ---------------------------------------------------------------- a backfilled day at the production cadence

ROUND_SECONDS = 1800  # the default rounds.interval
SCRAPE_SECONDS = 60
ROUNDS_PER_DAY = 48
# How Grafana would fill the variables on a 24-hour dashboard at the production cadence.
PRODUCTION_VARIABLES = {"$window": "1h", "$__rate_interval": "2m", "$__range": "24h", "$__interval": "1m"}
_COUNTER_SUFFIXES = ("_total", "_bucket", "_count", "_sum")
# Beyond MAY_BE_EMPTY: ALERTS series come from live rule evaluation; promtool backfills recording rules only.
BACKFILL_MAY_BE_EMPTY = {"Canary alerts firing"}
_TIMESTAMP_SUFFIXES = ("_timestamp_seconds", "_start_time_seconds")


def _openmetrics_day(samples: list[Sample], start: float, end: float) -> str:
    """A day of 30-minute rounds scraped every minute, from one scrape of every real series.

    Gauges hold their value for the whole day, counters grow once per round (to the scraped value at the
    end), timestamps are those of the round that produced them: exporter series change only at rounds.
    """
    by_name: dict[str, list[Sample]] = {}
    for sample in samples:
        by_name.setdefault(sample.labels["__name__"], []).append(sample)
    lines = []
    for name, series in sorted(by_name.items()):
        for sample in series:
            labels = ",".join(f'{k}="{v}"' for k, v in sorted(sample.labels.items()) if k != "__name__")
            t = start
            while t <= end:
                round_index = int((t - start) // ROUND_SECONDS)
                if name.endswith(_COUNTER_SUFFIXES):
                    value = sample.value * (round_index + 1) / ROUNDS_PER_DAY
                elif name.endswith(_TIMESTAMP_SUFFIXES):
                    value = start if "start_time" in name else start + round_index * ROUND_SECONDS + 60
                else:
                    value = sample.value
                lines.append(f"{name}{{{labels}}} {value!r} {t:.3f}")
                t += SCRAPE_SECONDS
    return "\n".join(lines) + "\n# EOF\n"


def _promtool(*args: str) -> None:
    result = subprocess.run(["promtool", *args], capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr


@dataclass
class Backfilled:
    """A Prometheus over a backfilled day, queried at the day's last scrape (whatever the wall clock says)."""

    prometheus: PrometheusProcess
    at: float

    def query(self, expr: str) -> list[Any]:
        response = httpx.get(
            f"{self.prometheus.url}/api/v1/query", params={"query": expr, "time": self.at}, timeout=30
        )
        response.raise_for_status()
        result: list[Any] = response.json()["data"]["result"]
        return result


@pytest.fixture(scope="module")
def backfilled(stack: Stack, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Backfilled]:
    """A Prometheus over a backfilled day (raw series and the recording rules), 15 minutes after a round."""
    work = tmp_path_factory.mktemp("backfill")
    # Every component's series at one instant. A scrape can time out at the 0.5 s test cadence on a loaded
    # machine, leaving a component's series stale for a moment: wait until each job is present.
    raw: list[Sample] = []

    def scraped() -> bool:
        raw[:] = [
            s for s in stack.prometheus.query('{__name__=~"canary_.+|up"}') if ":" not in s.labels["__name__"]
        ]
        names = {s.labels["__name__"] for s in raw}
        return {
            "canary_round_duration_seconds",
            "canary_receiver_mode",
            "canary_routability_last_check_age_seconds",
        } <= names

    stack.prometheus.wait_until(scraped, what="every component's series scraped at one instant", timeout=60)
    now = time.time()
    end = now - 60
    start = end - 15 * 60 - (ROUNDS_PER_DAY - 1) * ROUND_SECONDS
    (work / "day.om").write_text(_openmetrics_day(raw, start, end))
    prometheus = PrometheusProcess(work / "prom", targets={})
    (work / "prom").mkdir(parents=True, exist_ok=True)
    _promtool("tsdb", "create-blocks-from", "openmetrics", str(work / "day.om"), str(work / "prom" / "data"))
    with prometheus:
        _promtool(
            "tsdb", "create-blocks-from", "rules", f"--start={int(start)}", f"--end={int(end)}",
            f"--url={prometheus.url}", f"--output-dir={work / 'rules-blocks'}", "--eval-interval=60s",
            str(ROOT / "rules" / "canary.rules.yml"),
        )  # fmt: skip
        for block in (work / "rules-blocks").iterdir():
            block.rename(work / "prom" / "data" / block.name)
        prometheus.restart()
        yield Backfilled(prometheus, end)


@pytest.mark.parametrize("path", sorted(DASHBOARDS.glob("*.json")), ids=lambda p: p.name)
def test_every_panel_returns_data_on_a_backfilled_day_of_30_minute_rounds(
    path: Path, stack: Stack, backfilled: Backfilled
) -> None:
    document = json.loads(path.read_text())
    empty = []
    for where, expr in expressions(document).items():
        if not where.startswith("panel"):
            continue
        query = expr.replace("$model", MODEL).replace("$provider", stack.provider)
        for variable, value in PRODUCTION_VARIABLES.items():
            query = query.replace(variable, value)
        title = _title(where)
        allowed = MAY_BE_EMPTY.get(title) is not None or title in BACKFILL_MAY_BE_EMPTY
        if not backfilled.query(query) and not allowed:
            empty.append(f"{where}: {query}")
    assert not empty, "queries with no data 15 minutes after a 30-minute round:\n" + "\n".join(empty)


def test_the_old_scrape_sized_window_is_empty_between_rounds_which_is_why_window_exists(
    stack: Stack, backfilled: Backfilled
) -> None:
    """The defect this window fixes, measured on the same data: 2 minutes after nothing changed is nothing."""
    assert backfilled.query("sum(increase(canary_rounds_total[2m])) > 0") == []
    assert backfilled.query("sum(increase(canary_rounds_total[1h])) > 0")
