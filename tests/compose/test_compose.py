"""docker-compose.yml, the Dockerfile and the compose overlays, checked without a Docker engine.

Structure (services, profiles, commands, ports, pinned images, secrets), every mounted host path, the
overlays' equality with the shipped Prometheus/Alertmanager configs, promtool/amtool on the overlays, and the
canary configs the containers read, loaded with the project's own config readers.
"""

from __future__ import annotations

import copy
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from exporter.commands.receiver import load as load_receiver_config
from exporter.config import load_config
from exporter.generators.grafana_alerts import DATASOURCE_UID

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
OVERLAYS = ROOT / "config" / "compose"
PROVISIONING = ROOT / "config" / "grafana" / "provisioning"
CORE = {"exporter", "receiver", "prometheus", "alertmanager", "grafana"}
BUILT = {"exporter", "receiver", "simulator", "routability", "rules", "docs"}
_INTERPOLATION = re.compile(r"\$\{(\w+)(?::?[-?]([^}]*))?\}")
_PINNED = re.compile(r"^[\w./-]+:v?\d+(\.\d+)+([\w.-]*)$")


def interpolate(value: str) -> str:
    """What compose substitutes with no variable set: the ``${NAME:-default}`` default."""
    return _INTERPOLATION.sub(lambda m: m.group(2) or "", value)


def load_yaml(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    document = load_yaml(COMPOSE_FILE)
    assert isinstance(document, dict)
    return document


def bind_mounts(service: dict[str, Any]) -> list[tuple[str, str]]:
    """(host path, container path) of every bind mount (named volumes excluded), with defaults applied."""
    mounts = []
    for volume in service.get("volumes", []):
        source, target = interpolate(volume).split(":")[:2]
        if source.startswith((".", "/")):
            mounts.append((source, target))
    return mounts


def missing_mounts(compose: dict[str, Any]) -> list[str]:
    return [
        f"{name}: {source}"
        for name, service in compose["services"].items()
        for source, _ in bind_mounts(service)
        if not (ROOT / source).exists()
    ]


def unpinned_images(compose: dict[str, Any]) -> list[str]:
    return [
        f"{name}: {service.get('image')!r}"
        for name, service in compose["services"].items()
        if not _PINNED.match(str(service.get("image", ""))) or "latest" in str(service.get("image"))
    ]


def container_port(service: dict[str, Any]) -> set[int]:
    return {int(interpolate(port).rsplit(":", 1)[1]) for port in service.get("ports", [])}


def mount_target(service: dict[str, Any], source: str) -> str:
    return next(target for host, target in bind_mounts(service) if host == source)


def volume_target(service: dict[str, Any], volume: str) -> str:
    """Where a named volume is mounted in the service."""
    return next(v.split(":")[1] for v in service.get("volumes", []) if v.split(":")[0] == volume)


# ---------------------------------------------------------------- structure


def test_every_component_is_a_service_and_the_simulator_is_only_in_the_demo(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert CORE | {"simulator", "routability"} <= set(services)
    assert services["simulator"]["profiles"] == ["demo"]
    assert services["routability"]["profiles"] == ["routability"]
    for name in CORE:
        assert "profiles" not in services[name], f"{name} must start without a profile"


def test_the_commands_are_the_canary_subcommands(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert services["exporter"]["command"] == ["exporter", "--config", "/etc/canary/canary.yaml"]
    receiver = services["receiver"]["command"]
    assert receiver[:3] == ["receiver", "--config", "/etc/canary/receiver.yaml"]
    assert interpolate(receiver[receiver.index("--mode") + 1]) == "observe", "observe must be the default"
    simulator = services["simulator"]["command"]
    assert simulator[0] == "simulator" and "--fleet" in simulator
    assert (
        mount_target(services["simulator"], "./exporter/devtools/simulator/fleets/default.yaml")
        == (simulator[simulator.index("--fleet") + 1])
    )


def test_the_canary_services_are_built_from_the_dockerfile(compose: dict[str, Any]) -> None:
    for name in BUILT:
        service = compose["services"][name]
        assert service["build"] in (".", {"context": "."}), name
    assert DOCKERFILE.exists()


def test_every_mounted_host_path_exists(compose: dict[str, Any]) -> None:
    assert missing_mounts(compose) == []
    # The values docs/deployment.md tells people to use for CANARY_CONFIG must exist too.
    for name in ("canary.yaml", "canary.demo.yaml"):
        assert (OVERLAYS / name).exists()


def test_every_image_is_pinned_by_a_version(compose: dict[str, Any]) -> None:
    assert unpinned_images(compose) == []
    images = {name: compose["services"][name]["image"] for name in ("prometheus", "alertmanager", "grafana")}
    assert images["prometheus"].startswith("prom/prometheus:v2.")
    assert images["alertmanager"] == "prom/alertmanager:v0.25.0"
    assert images["grafana"].startswith("grafana/grafana:")


def test_ports_are_published_on_loopback_by_default(compose: dict[str, Any]) -> None:
    expected = {
        "exporter": {9464}, "receiver": {9465}, "routability": {9466}, "simulator": {8088},
        "prometheus": {9090}, "alertmanager": {9093}, "grafana": {3000},
    }  # fmt: skip
    for name, ports in expected.items():
        service = compose["services"][name]
        assert container_port(service) == ports, name
        for port in service["ports"]:
            assert interpolate(port).startswith("127.0.0.1:"), f"{name}: {port}"


def test_secrets_come_from_the_environment_as_files_never_inline(compose: dict[str, Any]) -> None:
    declared = compose["secrets"]
    for name, secret in declared.items():
        assert set(secret) == {"environment"}, f"secret {name}: expected an environment source"
    for name, service in compose["services"].items():
        for secret in service.get("secrets", []):
            assert secret in declared, f"{name}: undeclared secret {secret}"
        for key, value in (service.get("environment") or {}).items():
            if re.search(r"PASSWORD|TOKEN|SECRET|KEY", key):
                assert key.endswith("__FILE") and str(value).startswith("/run/secrets/"), f"{name}: {key}"
    text = COMPOSE_FILE.read_text()
    assert not re.search(r"sk-or-v1-\w{8,}", text)


def test_each_container_gets_only_the_secrets_it_reads(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services["exporter"]["secrets"]) == {"openrouter_api_key"}
    assert set(services["receiver"]["secrets"]) == {"canary_webhook_token", "canary_admin_token"}
    assert set(services["alertmanager"]["secrets"]) == {"canary_webhook_token", "canary_chat_webhook_url"}
    assert "secrets" not in services["prometheus"]


def test_the_dockerfile_builds_one_non_root_image_for_the_canary_command() -> None:
    text = DOCKERFILE.read_text()
    assert re.search(r"^ENTRYPOINT \[\"canary\"\]$", text, flags=re.MULTILINE)
    base = re.findall(r"^FROM (\S+)", text, flags=re.MULTILINE)
    assert base and all(re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?", image) for image in base), base
    user = re.findall(r"^USER (\S+)", text, flags=re.MULTILINE)
    assert user and user[-1].split(":")[0] not in ("root", "0")
    assert "pip install" in text


def test_everything_the_dockerfile_copies_is_in_the_repository() -> None:
    # pyproject.toml names README.md as the package readme: the image cannot be built without it.
    text = DOCKERFILE.read_text()
    for line in re.findall(r"^COPY (?!--from)(.+)$", text, flags=re.MULTILINE):
        for source in line.split()[:-1]:
            assert (ROOT / source).exists(), f"Dockerfile copies {source}, which is not in the repository"


# ---------------------------------------------------------------- the checks can fail


def test_a_missing_mount_and_an_unpinned_image_are_reported(compose: dict[str, Any]) -> None:
    broken = copy.deepcopy(compose)
    broken["services"]["prometheus"]["volumes"][1] = "./rulez:/etc/prometheus/rules:ro"
    broken["services"]["grafana"]["image"] = "grafana/grafana:latest"
    broken["services"]["alertmanager"]["image"] = "prom/alertmanager"
    assert missing_mounts(broken) == ["prometheus: ./rulez"]
    assert unpinned_images(broken) == [
        "alertmanager: 'prom/alertmanager'",
        "grafana: 'grafana/grafana:latest'",
    ]


# ---------------------------------------------------------------- one source of truth


def test_the_prometheus_overlay_is_the_shipped_config_with_service_addresses(compose: dict[str, Any]) -> None:
    shipped = load_yaml(ROOT / "config" / "prometheus.yml")
    overlay = load_yaml(OVERLAYS / "prometheus.yml")
    addresses = {
        "canary-exporter": "exporter:9464",
        "canary-receiver": "receiver:9465",
        "alertmanager": "alertmanager:9093",
    }
    expected = copy.deepcopy(shipped)
    for job in expected["scrape_configs"]:
        job["static_configs"] = [{"targets": [addresses[job["job_name"]]]}]
    expected["scrape_configs"].append(
        {"job_name": "canary-routability", "static_configs": [{"targets": ["routability:9466"]}]}
    )
    expected["alerting"]["alertmanagers"][0]["static_configs"] = [{"targets": ["alertmanager:9093"]}]
    assert overlay == expected
    # The rules the rules service rendered, mounted where the shipped relative glob finds them.
    prometheus = compose["services"]["prometheus"]
    config_dir = Path(mount_target(prometheus, "./config/compose/prometheus.yml")).parent
    rules_dir = Path(volume_target(prometheus, "rendered-rules"))
    assert overlay["rule_files"] == ["../rules/*.yml"] and rules_dir == config_dir.parent / "rules"
    assert prometheus["depends_on"] == {"rules": {"condition": "service_completed_successfully"}}
    assert f"--config.file={config_dir / 'prometheus.yml'}" in prometheus["command"]


def test_the_alertmanager_overlay_is_the_shipped_config_with_the_receiver_service(
    compose: dict[str, Any],
) -> None:
    shipped = load_yaml(ROOT / "config" / "alertmanager.yml")
    overlay = load_yaml(OVERLAYS / "alertmanager.yml")
    expected = copy.deepcopy(shipped)
    receiver = next(r for r in expected["receivers"] if r["name"] == "canary-receiver")
    receiver["webhook_configs"][0]["url"] = "http://receiver:9465/v1/alerts"
    assert overlay == expected
    token_file = receiver["webhook_configs"][0]["http_config"]["authorization"]["credentials_file"]
    assert token_file == "/run/secrets/canary_webhook_token"
    assert "canary_webhook_token" in compose["services"]["alertmanager"]["secrets"]


def test_the_scrape_targets_match_where_the_components_listen(compose: dict[str, Any]) -> None:
    overlay = load_yaml(OVERLAYS / "prometheus.yml")
    targets = {job["job_name"]: job["static_configs"][0]["targets"][0] for job in overlay["scrape_configs"]}
    exporter = yaml.safe_load((OVERLAYS / "canary.yaml").read_text())
    receiver = yaml.safe_load((OVERLAYS / "receiver.yaml").read_text())
    assert targets["canary-exporter"] == "exporter:" + exporter["exporter"]["listen"].rsplit(":", 1)[1]
    assert targets["canary-receiver"] == "receiver:" + receiver["receiver"]["listen"].rsplit(":", 1)[1]
    assert (
        targets["canary-routability"] == "routability:" + exporter["routability"]["listen"].rsplit(":", 1)[1]
    )
    demo = yaml.safe_load((OVERLAYS / "canary.demo.yaml").read_text())
    simulator = compose["services"]["simulator"]["command"]
    port = simulator[simulator.index("--listen") + 1].rsplit(":", 1)[1]
    assert demo["gateway"]["base_url"] == f"http://simulator:{port}/api/v1"


def binary(name: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.fail(f"{name} is not installed: apt-get install prometheus prometheus-alertmanager")
    return path


def test_promtool_accepts_the_prometheus_overlay_with_the_rules_in_the_container_layout(
    tmp_path: Path,
) -> None:
    (tmp_path / "config").mkdir()
    shutil.copy(OVERLAYS / "prometheus.yml", tmp_path / "config" / "prometheus.yml")
    (tmp_path / "rules").symlink_to(ROOT / "rules")
    result = subprocess.run(
        [binary("promtool"), "check", "config", str(tmp_path / "config" / "prometheus.yml")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr
    assert "canary.rules.yml" in result.stdout + result.stderr, "the rules were not found and checked"


def test_amtool_accepts_the_alertmanager_overlay() -> None:
    result = subprocess.run(
        [binary("amtool"), "check-config", str(OVERLAYS / "alertmanager.yml")],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


# ---------------------------------------------------------------- the canary configs the containers read


def as_on_host(path: Path, tmp_path: Path) -> Path:
    """The config with container paths mapped to temporary secret files and the repository's mounts."""
    secrets = tmp_path / "secrets"
    secrets.mkdir(exist_ok=True)
    for n, name in enumerate(("openrouter_api_key", "canary_webhook_token", "canary_admin_token")):
        (secrets / name).write_text(f"test-secret-{n}\n")
    text = path.read_text().replace("/run/secrets/", f"{secrets}/")
    text = text.replace(
        "/etc/canary/builtin-exclusions.yaml", str(ROOT / "config" / "builtin-exclusions.yaml")
    )
    text = text.replace("/var/lib/canary/", f"{tmp_path}/state/")
    mapped = tmp_path / path.name
    mapped.write_text(text)
    return mapped


@pytest.mark.parametrize("name", ["canary.yaml", "canary.demo.yaml"])
def test_the_exporter_configs_load(name: str, tmp_path: Path) -> None:
    config = load_config(as_on_host(OVERLAYS / name, tmp_path))
    assert config.exporter.listen.startswith("0.0.0.0:")
    assert config.receiver is None, "the exporter must not need the receiver's tokens"
    assert config.routability is not None and config.routability.host == "0.0.0.0"


def test_the_receiver_config_loads_in_observe_mode(tmp_path: Path) -> None:
    config = load_receiver_config(as_on_host(OVERLAYS / "receiver.yaml", tmp_path))
    assert str(config.mode) == "observe" and config.host == "0.0.0.0" and config.port == 9465
    assert config.builtin, "the repository's built-in exclusions were not loaded"


def test_the_container_paths_of_the_configs_are_mounted(compose: dict[str, Any]) -> None:
    services = compose["services"]
    receiver_targets = {target for _, target in bind_mounts(services["receiver"])}
    receiver = yaml.safe_load((OVERLAYS / "receiver.yaml").read_text())["receiver"]
    assert receiver["builtin_exclusions"] in receiver_targets
    assert "receiver-store:" + receiver["store_dir"] in services["receiver"]["volumes"]
    routability = yaml.safe_load((OVERLAYS / "canary.yaml").read_text())["routability"]
    assert "routability-store:" + str(Path(routability["store"]).parent) in services["routability"]["volumes"]


# ---------------------------------------------------------------- Grafana provisioning


def test_grafana_provisions_the_prometheus_datasource_and_the_dashboards(compose: dict[str, Any]) -> None:
    grafana = compose["services"]["grafana"]
    datasource = load_yaml(PROVISIONING / "datasources" / "prometheus.yaml")["datasources"][0]
    assert datasource["type"] == "prometheus" and datasource["url"] == "http://prometheus:9090"
    assert datasource["uid"] == DATASOURCE_UID, "the generated Grafana alert rules name this uid"
    shipped = load_yaml(ROOT / "config" / "prometheus.yml")
    assert datasource["jsonData"]["timeInterval"] == shipped["global"]["scrape_interval"]

    provider = load_yaml(PROVISIONING / "dashboards" / "provider-canary.yaml")["providers"][0]
    dashboards_in_container = mount_target(grafana, "./dashboards")
    assert provider["options"]["path"] == dashboards_in_container
    home = grafana["environment"]["GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH"]
    assert home.startswith(dashboards_in_container + "/")
    assert (ROOT / "dashboards" / Path(home).name).exists()
    targets = {target for _, target in bind_mounts(grafana)}
    assert {"/etc/grafana/provisioning/datasources", "/etc/grafana/provisioning/dashboards"} <= targets


def test_the_rules_service_renders_absolute_runbook_and_decision_links_into_the_shared_volume(
    compose: dict[str, Any], tmp_path: Path
) -> None:
    from exporter.commands.canary import main
    from exporter.generators.rulefile import load_rule_groups

    rules = compose["services"]["rules"]
    command = [interpolate(part) for part in rules["command"]]
    output = next(part.split("=", 1)[1] for part in command if part.startswith("--output-dir="))
    assert volume_target(rules, "rendered-rules") == output and rules["restart"] == "no"
    args = [part for part in command if not part.startswith("--output-dir=")]
    assert main([*args, f"--output-dir={tmp_path}"]) == 0
    docs = compose["services"]["docs"]
    assert mount_target(docs, "./docs") in docs["entrypoint"] and "8089" in docs["entrypoint"]
    for group in load_rule_groups(tmp_path / "canary.rules.yml"):
        for alert in group.alerts:
            assert (
                alert.annotations["runbook_url"] == f"http://localhost:8089/runbook.md#{alert.alert.lower()}"
            )
    assert '$base := "http://localhost:9465"' in (tmp_path / "canary.rules.yml").read_text()
