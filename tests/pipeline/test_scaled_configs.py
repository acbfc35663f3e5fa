"""Launch configs of the scaled-out topology: several targets per job, external labels per Prometheus
replica, vmagent's scrape-only config and the rule globs vmalert loads, all from the shipped files."""

from __future__ import annotations

import glob
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from exporter.devtools.pipeline import PipelineError, VmalertProcess
from exporter.devtools.pipeline.configs import (
    EXPORTER_JOB,
    RECEIVER_JOB,
    SHIPPED_PROMETHEUS_CONFIG,
    Timings,
    load_yaml,
    prometheus_config,
    scrape_config,
    shipped_rule_globs,
)

SHARDS = ["127.0.0.1:18001", "127.0.0.1:18011"]


def shipped() -> dict[str, object]:
    return load_yaml(SHIPPED_PROMETHEUS_CONFIG)


def test_a_job_can_scrape_every_exporter_shard() -> None:
    config = prometheus_config(
        shipped(),
        config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
        targets={EXPORTER_JOB: SHARDS, RECEIVER_JOB: "127.0.0.1:18002"},
        alertmanagers=[],
        timings=Timings(),
    )
    assert [job["static_configs"] for job in config["scrape_configs"]] == [
        [{"targets": SHARDS}],
        [{"targets": ["127.0.0.1:18002"]}],
    ]
    assert "external_labels" not in config["global"]


def test_a_prometheus_replica_gets_its_external_labels(tmp_path: Path) -> None:
    config = prometheus_config(
        shipped(),
        config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
        targets={EXPORTER_JOB: SHARDS},
        alertmanagers=["127.0.0.1:18003"],
        timings=Timings(),
        external_labels={"replica": "b"},
    )
    assert config["global"]["external_labels"] == {"replica": "b"}
    path = tmp_path / "prometheus.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    promtool = shutil.which("promtool")
    assert promtool is not None, "apt-get install prometheus"
    result = subprocess.run(
        [promtool, "check", "config", str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_vmagent_gets_only_the_scraping_part_and_accepts_it(tmp_path: Path) -> None:
    config = scrape_config(
        shipped(),
        config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
        targets={EXPORTER_JOB: SHARDS, RECEIVER_JOB: "127.0.0.1:18002"},
        timings=Timings(scrape_interval=0.5),
    )
    assert set(config) == {"global", "scrape_configs"}
    assert config["global"] == {"scrape_interval": "500ms", "scrape_timeout": "500ms"}
    path = tmp_path / "scrape.yml"
    path.write_text(yaml.safe_dump(config), encoding="utf-8")
    vmagent = shutil.which("vmagent")
    assert vmagent is not None, "apt-get install victoria-metrics"
    result = subprocess.run(
        [vmagent, f"-promscrape.config={path}", "-promscrape.config.dryRun"],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def test_vmalert_loads_the_same_rule_files_as_prometheus() -> None:
    (pattern,) = shipped_rule_globs()
    assert Path(pattern).is_absolute()
    assert [Path(p).name for p in glob.glob(pattern)] == ["canary.rules.yml"]
    assert (
        pattern
        in prometheus_config(
            shipped(),
            config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
            targets={},
            alertmanagers=[],
            timings=Timings(),
        )["rule_files"]
    )


def test_vmalert_without_an_alertmanager_is_refused(tmp_path: Path) -> None:
    with pytest.raises(PipelineError, match="at least one Alertmanager"):
        VmalertProcess(tmp_path, datasource_url="http://127.0.0.1:1", alertmanagers=[])
