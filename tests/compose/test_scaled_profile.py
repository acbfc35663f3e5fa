"""The `scaled` compose profile (design.md §12), checked without a Docker engine: the topology the end-to-end
test runs (two exporter shards -> vmagent -> VictoriaMetrics <- vmalert -> two clustered Alertmanagers -> the
receiver), keys known to the compose spec, one source of truth with the single-Prometheus files, and the
real vmagent/vmalert accepting their inputs."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from exporter.commands.canary import main

from .test_compose import OVERLAYS, ROOT, as_on_host, bind_mounts, load_yaml

SCALED = OVERLAYS / "scaled"
PROFILE = {
    "exporter-shard-0",
    "exporter-shard-1",
    "vmagent",
    "victoria-metrics",
    "vmalert",
    "alertmanager-a",
    "alertmanager-b",
}
REPLACED = {"exporter", "prometheus", "alertmanager"}
# The service keys of the compose specification that this file may use (a typo must not pass silently).
SERVICE_KEYS = {
    "build", "command", "depends_on", "entrypoint", "environment", "healthcheck", "image", "networks",
    "ports", "profiles", "read_only", "restart", "scale", "secrets", "security_opt", "stop_grace_period",
    "stop_signal", "tmpfs", "volumes",
}  # fmt: skip
_VAR = re.compile(r"\$\{(\w+)(?::?-([^}]*))?\}")


def interpolate(value: object, env: dict[str, str]) -> str:
    """Compose's ``${NAME:-default}`` substitution with ``env`` set."""
    return _VAR.sub(lambda m: env.get(m.group(1), m.group(2) or ""), str(value))


@pytest.fixture(scope="module")
def services() -> dict[str, Any]:
    document = load_yaml(ROOT / "docker-compose.yml")
    assert isinstance(document, dict)
    result: dict[str, Any] = document["services"]
    return result


def started(services: dict[str, Any], profile: str | None, env: dict[str, str]) -> set[str]:
    """The services `docker compose [--profile P] up` starts with ``env``: no profile or that profile, and a
    scale that is not 0."""
    return {
        name
        for name, service in services.items()
        if (not service.get("profiles") or profile in service["profiles"])
        and interpolate(service.get("scale", 1), env) != "0"
    }


def flag(service: dict[str, Any], name: str) -> list[str]:
    return [arg.split("=", 1)[1] for arg in service["command"] if arg.startswith(f"-{name}=")]


def test_the_scaled_profile_replaces_the_single_exporter_prometheus_and_alertmanager(
    services: dict[str, Any],
) -> None:
    single = started(services, None, {})
    assert single >= REPLACED and not PROFILE & single
    scaled = started(services, "scaled", {"CANARY_SINGLE": "0"})
    assert scaled == (single - REPLACED) | PROFILE
    assert {"receiver", "grafana"} <= scaled, "one receiver (a single writer) and the dashboards stay"
    for name in PROFILE:
        assert services[name]["profiles"] == ["scaled"], name


def test_every_service_uses_only_compose_spec_keys_and_pinned_images(services: dict[str, Any]) -> None:
    for name, service in services.items():
        assert set(service) - {"<<"} <= SERVICE_KEYS, (name, sorted(set(service) - SERVICE_KEYS))
    for name in ("vmagent", "victoria-metrics", "vmalert"):
        assert services[name]["image"] == f"victoriametrics/{name}:v1.79.5", (
            "the version Debian ships and CI tests"
        )


def test_the_shards_are_the_exporter_service_with_a_shard_config(services: dict[str, Any]) -> None:
    exporter = services["exporter"]
    for index in (0, 1):
        shard = services[f"exporter-shard-{index}"]
        assert shard["command"] == exporter["command"]
        assert shard["secrets"] == exporter["secrets"]
        assert bind_mounts(shard) == [
            (f"./config/compose/scaled/canary-shard-{index}.yaml", "/etc/canary/canary.yaml")
        ]


def test_the_shard_configs_split_the_models_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mapped = []
    for index in (0, 1):
        (tmp_path / str(index)).mkdir()
        mapped.append(str(as_on_host(SCALED / f"canary-shard-{index}.yaml", tmp_path / str(index))))
    assert main(["check-config", *mapped]) == 0, capsys.readouterr().err
    assert "2 replica configs: ok" in capsys.readouterr().out
    single = yaml.safe_load((OVERLAYS / "canary.yaml").read_text())
    for index in (0, 1):
        shard = yaml.safe_load((SCALED / f"canary-shard-{index}.yaml").read_text())
        # Only the models and the shard differ from the single exporter's config.
        assert {k: v for k, v in shard.items() if k != "models"} == {
            **{k: v for k, v in single.items() if k not in ("models", "routability")},
            "rounds": {**single["rounds"], "shard": {"index": index, "count": 2}},
        }


def test_vmagent_scrapes_the_prometheus_overlays_jobs_with_one_target_per_shard() -> None:
    overlay = load_yaml(OVERLAYS / "prometheus.yml")
    scrape = load_yaml(SCALED / "vmagent.yml")
    assert scrape["global"] == {k: overlay["global"][k] for k in ("scrape_interval", "scrape_timeout")}
    expected = [job for job in overlay["scrape_configs"] if job["job_name"] != "canary-routability"]
    pairs = {
        "canary-exporter": ["exporter-shard-0:9464", "exporter-shard-1:9464"],
        "alertmanager": [
            "alertmanager-a:9093",
            "alertmanager-b:9093",
        ],  # the clustered pair replaces the single
    }
    expected = [
        {**job, "static_configs": [{"targets": pairs[job["job_name"]]}]} if job["job_name"] in pairs else job
        for job in expected
    ]
    assert scrape["scrape_configs"] == expected


def test_the_pipeline_addresses_agree(services: dict[str, Any]) -> None:
    listen = flag(services["victoria-metrics"], "httpListenAddr")[0]
    vm = f"http://victoria-metrics{listen}"
    assert flag(services["vmagent"], "remoteWrite.url") == [f"{vm}/api/v1/write"]
    vmalert = services["vmalert"]
    assert (
        flag(vmalert, "datasource.url") == flag(vmalert, "remoteWrite.url") == flag(vmalert, "remoteRead.url")
    )
    assert flag(vmalert, "datasource.url") == [vm]
    assert flag(vmalert, "notifier.url") == ["http://alertmanager-a:9093", "http://alertmanager-b:9093"]
    assert flag(vmalert, "rule") == ["/etc/vmalert/rules/*.yml"]
    assert vmalert["volumes"] == ["rendered-rules:/etc/vmalert/rules:ro"], "the rules service's rendering"
    assert vmalert["depends_on"] == {"rules": {"condition": "service_completed_successfully"}}
    assert flag(vmalert, "evaluationInterval") == [
        load_yaml(OVERLAYS / "prometheus.yml")["global"]["evaluation_interval"]
    ]
    # Grafana's provisioned data source (http://prometheus:9090) reaches VictoriaMetrics in this profile.
    assert (
        services["victoria-metrics"]["networks"]["default"]["aliases"] == ["prometheus"] and listen == ":9090"
    )


def test_the_alertmanager_pair_is_clustered_with_the_single_alertmanagers_config(
    services: dict[str, Any],
) -> None:
    single = services["alertmanager"]
    for name, peer in (("alertmanager-a", "alertmanager-b"), ("alertmanager-b", "alertmanager-a")):
        service = services[name]
        assert service["image"] == single["image"] and service["secrets"] == single["secrets"]
        assert bind_mounts(service) == bind_mounts(single)
        assert "--cluster.listen-address=0.0.0.0:9094" in service["command"]
        assert f"--cluster.peer={peer}:9094" in service["command"]


def binary(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: apt-get install victoria-metrics (scripts/setup does)")
    return path


def test_vmalert_accepts_the_shipped_rule_files_unchanged() -> None:
    result = subprocess.run(
        [binary("vmalert"), f"-rule={ROOT / 'rules'}/*.yml", "-dryRun", "-loggerLevel=ERROR"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_vmagent_accepts_its_scrape_config() -> None:
    result = subprocess.run(
        [binary("vmagent"), f"-promscrape.config={SCALED / 'vmagent.yml'}", "-promscrape.config.dryRun"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "-promscrape.config is ok" in result.stderr


def test_vmalert_rejects_a_broken_rule_file(tmp_path: Path) -> None:
    """The dry run is a real check: it fails on an expression vmalert cannot parse."""
    bad = tmp_path / "bad.yml"
    bad.write_text("groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: 'sum by ('\n")
    result = subprocess.run(
        [binary("vmalert"), f"-rule={bad}", "-dryRun", "-loggerLevel=ERROR"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode != 0
