"""The shipped Prometheus/Alertmanager configs, and the launch configs generated from them."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from exporter.devtools.pipeline.configs import (
    ALERTMANAGER_JOB,
    EXPORTER_JOB,
    RECEIVER_JOB,
    RECEIVER_NAME,
    SHIPPED_ALERTMANAGER_CONFIG,
    SHIPPED_PROMETHEUS_CONFIG,
    PipelineConfigError,
    Timings,
    alertmanager_config,
    duration,
    load_yaml,
    prometheus_config,
)


def run_tool(*argv: str) -> subprocess.CompletedProcess[str]:
    if shutil.which(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: apt-get install prometheus prometheus-alertmanager")
    return subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)


def route_for(config_file: Path, *labels: str) -> str:
    result = run_tool("amtool", "config", "routes", "test", f"--config.file={config_file}", *labels)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def shipped_am() -> dict[str, Any]:
    return load_yaml(SHIPPED_ALERTMANAGER_CONFIG)


def generated_am(tmp_path: Path, **kwargs: Any) -> dict[str, Any]:
    return alertmanager_config(
        shipped_am(),
        webhook_url="http://127.0.0.1:18080/v1/alerts",
        token_file=tmp_path / "token",
        timings=Timings(),
        **kwargs,
    )


def generated_prometheus(**kwargs: Any) -> dict[str, Any]:
    arguments: dict[str, Any] = {
        "config_dir": SHIPPED_PROMETHEUS_CONFIG.parent,
        "targets": {EXPORTER_JOB: "127.0.0.1:18001", RECEIVER_JOB: "127.0.0.1:18002"},
        "alertmanagers": ["127.0.0.1:18003"],
        "timings": Timings(),
        **kwargs,
    }
    return prometheus_config(load_yaml(SHIPPED_PROMETHEUS_CONFIG), **arguments)


def write(tmp_path: Path, name: str, document: dict[str, Any]) -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(document))
    return path


# ---------------------------------------------------------------- the shipped files


def test_the_shipped_prometheus_config_and_its_rules_pass_promtool() -> None:
    result = run_tool("promtool", "check", "config", str(SHIPPED_PROMETHEUS_CONFIG))
    assert result.returncode == 0, result.stdout + result.stderr
    assert "canary.rules.yml" in result.stdout + result.stderr


def test_the_shipped_prometheus_config_scrapes_the_exporter_and_receiver_on_their_default_ports() -> None:
    jobs = {
        job["job_name"]: job["static_configs"][0]["targets"] for job in shipped_prometheus()["scrape_configs"]
    }
    assert jobs == {
        EXPORTER_JOB: ["127.0.0.1:9464"],
        RECEIVER_JOB: ["127.0.0.1:9465"],
        ALERTMANAGER_JOB: ["127.0.0.1:9093"],
    }


def shipped_prometheus() -> dict[str, Any]:
    return load_yaml(SHIPPED_PROMETHEUS_CONFIG)


def test_the_shipped_rule_glob_does_not_load_promtool_test_files() -> None:
    (pattern,) = shipped_prometheus()["rule_files"]
    matched = sorted(p.name for p in SHIPPED_PROMETHEUS_CONFIG.parent.glob(pattern))
    assert matched == ["canary.rules.yml"]


def test_the_shipped_alertmanager_config_passes_amtool() -> None:
    result = run_tool("amtool", "check-config", str(SHIPPED_ALERTMANAGER_CONFIG))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(
    ("labels", "receiver"),
    [
        (["alertname=CanaryProviderFailing", "action=suspend", "severity=warning"], RECEIVER_NAME),
        (["alertname=CanaryProviderRecovered", "action=recover", "severity=info"], RECEIVER_NAME),
        (["alertname=CanaryGlobalOutage", "severity=critical"], "oncall"),
        (["alertname=CanaryCapacityFloorBlocked", "model=m", "severity=critical"], "oncall"),
        (["alertname=CanaryProbeWeak", "severity=warning"], "team"),
        # Informational alerts go to a non-paging channel; the watchdog to the dead man's switch.
        (["alertname=CanaryProviderSuspended", "severity=info"], "events"),
        (["alertname=CanaryQuarantineChanged", "kind=lift", "severity=info"], "events"),
        (["alertname=CanaryEqualityOutlier", "severity=info"], "notices"),
        (["alertname=CanaryWatchdog", "severity=info"], "deadmansswitch"),
        (["alertname=CanaryNotificationsFailing", "severity=critical"], "oncall"),
        (["alertname=DatasourceNoData"], "team"),
    ],
)
def test_the_shipped_routing_sends_only_action_alerts_to_the_receiver(
    labels: list[str], receiver: str
) -> None:
    assert route_for(SHIPPED_ALERTMANAGER_CONFIG, *labels) == receiver


def test_every_people_receiver_renders_the_canary_templates_and_reads_its_url_from_a_file() -> None:
    receivers = {r["name"]: r for r in shipped_am()["receivers"]}
    for name in ("oncall", "team", "notices", "events"):
        (chat,) = receivers[name]["slack_configs"]
        assert chat["api_url_file"].startswith("/run/secrets/") and "api_url" not in chat
        assert chat["title"] == '{{ template "canary.title" . }}'
        assert chat["text"] == '{{ template "canary.text" . }}'
    assert shipped_am()["templates"] == ["templates/*.tmpl"]


def test_a_generated_alertmanager_config_keeps_the_chat_receivers_when_a_chat_url_is_given(
    tmp_path: Path,
) -> None:
    config = generated_am(tmp_path, chat_url="http://127.0.0.1:18003/chat")
    receivers = {r["name"]: r for r in config["receivers"]}
    (chat,) = receivers["team"]["slack_configs"]
    assert chat["api_url"] == "http://127.0.0.1:18003/chat" and "api_url_file" not in chat
    assert chat["text"] == '{{ template "canary.text" . }}'
    assert receivers["oncall"]["slack_configs"][0]["api_url"] == "http://127.0.0.1:18003/chat"
    assert receivers["deadmansswitch"] == {"name": "deadmansswitch"}
    (templates,) = config["templates"]
    assert Path(templates).is_absolute() and templates.endswith("config/templates/*.tmpl")


def test_the_receiver_route_groups_per_host_and_repeats_well_within_a_one_day_suspension() -> None:
    route = shipped_am()["route"]
    assert route["group_by"] == ["alertname", "model", "provider"]
    (action_route,) = [r for r in route["routes"] if r["receiver"] == RECEIVER_NAME]
    assert action_route["matchers"] == ['action=~"suspend|recover"']
    assert action_route["repeat_interval"] in {"15m", "30m", "1h"}
    (hook,) = next(r for r in shipped_am()["receivers"] if r["name"] == RECEIVER_NAME)["webhook_configs"]
    assert hook["url"] == "http://127.0.0.1:9465/v1/alerts"
    assert hook["send_resolved"] is True
    assert hook["http_config"]["authorization"]["type"] == "Bearer"
    assert "credentials" not in hook["http_config"]["authorization"]  # token only from a file
    assert hook["http_config"]["authorization"]["credentials_file"]


def test_the_global_outage_inhibits_every_suspend_alert() -> None:
    assert shipped_am()["inhibit_rules"] == [
        {
            "source_matchers": ['alertname="CanaryGlobalOutage"'],
            "target_matchers": ['action="suspend"'],
            "equal": [],
        }
    ]


# ---------------------------------------------------------------- generated launch configs


def test_a_generated_prometheus_config_passes_promtool(tmp_path: Path) -> None:
    path = write(tmp_path, "prometheus.yml", generated_prometheus())
    result = run_tool("promtool", "check", "config", str(path))
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_generated_prometheus_config_overrides_only_intervals_targets_and_paths() -> None:
    config = generated_prometheus(timings=Timings(scrape_interval=0.5, evaluation_interval=2))
    assert config["global"] == {
        "scrape_interval": "500ms",
        "scrape_timeout": "500ms",
        "evaluation_interval": "2s",
    }
    assert config["rule_files"] == [
        str(SHIPPED_PROMETHEUS_CONFIG.parent.parent.resolve() / "rules" / "*.yml")
    ]
    assert [job["job_name"] for job in config["scrape_configs"]] == [EXPORTER_JOB, RECEIVER_JOB]
    assert config["scrape_configs"][0]["static_configs"] == [{"targets": ["127.0.0.1:18001"]}]
    assert config["alerting"]["alertmanagers"] == [
        {"api_version": "v2", "static_configs": [{"targets": ["127.0.0.1:18003"]}]}
    ]


def test_a_job_left_out_of_the_targets_is_not_scraped() -> None:
    config = generated_prometheus(targets={EXPORTER_JOB: "127.0.0.1:18001"}, alertmanagers=[])
    assert [job["job_name"] for job in config["scrape_configs"]] == [EXPORTER_JOB]
    assert "alerting" not in config


def test_an_unknown_job_name_is_rejected_with_the_shipped_names() -> None:
    with pytest.raises(PipelineConfigError, match=r"no scrape job named canary-exportr .*canary-exporter"):
        generated_prometheus(targets={"canary-exportr": "127.0.0.1:1"})


def test_a_rule_glob_matching_nothing_is_rejected(tmp_path: Path) -> None:
    shipped = {**shipped_prometheus(), "rule_files": ["missing/*.yml"]}
    with pytest.raises(PipelineConfigError, match=r"'missing/\*\.yml' .* matches no file"):
        prometheus_config(shipped, config_dir=tmp_path, targets={}, alertmanagers=[], timings=Timings())


@pytest.mark.parametrize(
    ("part", "says"),
    [
        ({"scrape_configs": {"job_name": "x"}}, "scrape_configs: expected a list, got dict"),
        ({"scrape_configs": ["canary-exporter"]}, r"scrape_configs\[0\]: expected a mapping, got str"),
        ({"rule_files": "rules/*.yml"}, "rule_files: expected a list of strings"),
        ({"global": ["15s"]}, "global: expected a mapping, got list"),
    ],
)
def test_a_malformed_shipped_prometheus_config_names_the_key(part: dict[str, object], says: str) -> None:
    with pytest.raises(PipelineConfigError, match=says):
        prometheus_config(
            {**shipped_prometheus(), **part},
            config_dir=SHIPPED_PROMETHEUS_CONFIG.parent,
            targets={},
            alertmanagers=[],
            timings=Timings(),
        )


def test_a_generated_alertmanager_config_passes_amtool_and_keeps_the_shipped_routing(tmp_path: Path) -> None:
    path = write(tmp_path, "alertmanager.yml", generated_am(tmp_path))
    result = run_tool("amtool", "check-config", str(path))
    assert result.returncode == 0, result.stdout + result.stderr
    assert route_for(path, "alertname=CanaryProviderFailing", "action=suspend") == RECEIVER_NAME
    assert route_for(path, "alertname=CanaryGlobalOutage", "severity=critical") == "oncall"


def test_a_generated_alertmanager_config_points_the_receiver_at_the_loopback_url_and_token_file(
    tmp_path: Path,
) -> None:
    config = generated_am(tmp_path)
    (hook,) = next(r for r in config["receivers"] if r["name"] == RECEIVER_NAME)["webhook_configs"]
    assert hook["url"] == "http://127.0.0.1:18080/v1/alerts"
    assert hook["send_resolved"] is True
    assert hook["http_config"]["authorization"] == {
        "type": "Bearer",
        "credentials_file": str((tmp_path / "token").resolve()),
    }
    assert config["inhibit_rules"] == shipped_am()["inhibit_rules"]


def test_a_generated_alertmanager_config_compresses_every_route_that_sets_a_timing(tmp_path: Path) -> None:
    config = generated_am(tmp_path)
    route = config["route"]
    assert (route["group_wait"], route["group_interval"], route["repeat_interval"]) == ("0s", "1s", "5s")
    (action_route,) = [r for r in route["routes"] if r["receiver"] == RECEIVER_NAME]
    assert (action_route["group_wait"], action_route["repeat_interval"]) == ("0s", "5s")
    assert route["group_by"] == shipped_am()["route"]["group_by"]


def test_people_receivers_go_nowhere_unless_a_url_is_given(tmp_path: Path) -> None:
    silent = {r["name"]: r for r in generated_am(tmp_path)["receivers"]}
    assert silent["oncall"] == {"name": "oncall"} and silent["events"] == {"name": "events"}
    routed = {
        r["name"]: r for r in generated_am(tmp_path, people_webhook_url="http://127.0.0.1:1/p")["receivers"]
    }
    assert routed["team"]["webhook_configs"] == [{"url": "http://127.0.0.1:1/p", "send_resolved": True}]


def test_a_shipped_alertmanager_config_without_the_receiver_is_rejected(tmp_path: Path) -> None:
    shipped = {**shipped_am(), "receivers": [{"name": "team"}]}
    with pytest.raises(PipelineConfigError, match="no receiver named 'canary-receiver'"):
        alertmanager_config(shipped, webhook_url="http://x", token_file=tmp_path / "t", timings=Timings())


@pytest.mark.parametrize(
    ("seconds", "text"), [(0, "0s"), (1, "1s"), (0.2, "200ms"), (1.5, "1500ms"), (900, "900s")]
)
def test_durations_are_written_with_millisecond_resolution(seconds: float, text: str) -> None:
    assert duration(seconds) == text


def test_timings_reject_zero_and_negative_intervals() -> None:
    with pytest.raises(PipelineConfigError, match=r"Timings\.scrape_interval: must be positive"):
        Timings(scrape_interval=0)
    assert Timings(group_wait=0).group_wait == 0
