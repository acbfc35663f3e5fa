"""The rule file: promtool checks and unit tests, conventions, test coverage and the metrics contract."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from exporter.generators.rulefile import AlertingRule, load_rule_groups

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules" / "canary.rules.yml"
RULE_TESTS = sorted((ROOT / "rules" / "tests").glob("*_test.yml"))
METRICS_DOC = ROOT / "docs" / "metrics.md"
RUNBOOK_PATTERN = "docs/runbook.md#{}"

# Alerts that fire by design at every evaluation (a dead man's switch heartbeat).
ALWAYS_FIRING = {"CanaryWatchdog"}
GROUPS = load_rule_groups(RULES)
ALERTS = {rule.alert: rule for group in GROUPS for rule in group.alerts}
RECORDINGS = {rule.record: rule for group in GROUPS for rule in group.recordings}


def promtool(*args: str) -> subprocess.CompletedProcess[str]:
    binary = shutil.which("promtool")
    if binary is None:
        pytest.fail("promtool is not installed: apt-get install prometheus")
    return subprocess.run([binary, *args], capture_output=True, text=True, timeout=120, check=False, cwd=ROOT)


@functools.cache  # parsed once for the module's ~70 tests (the tests only read them)
def unit_tests() -> tuple[dict[str, Any], ...]:
    return tuple(test for path in RULE_TESTS for test in yaml.safe_load(path.read_text())["tests"])


def alert_cases(alertname: str) -> list[tuple[str, dict[str, Any]]]:
    """(test name, alert_rule_test case) pairs for one alert."""
    return [
        (test["name"], case)
        for test in unit_tests()
        for case in test.get("alert_rule_test") or []
        if case["alertname"] == alertname
    ]


# ---------------------------------------------------------------- promtool


def test_promtool_check_rules_is_clean() -> None:
    result = promtool("check", "rules", str(RULES))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(ALERTS) + len(RECORDINGS)} rules found" in result.stdout


@pytest.mark.slow
def test_every_promtool_unit_test_passes() -> None:
    result = promtool("test", "rules", *map(str, RULE_TESTS))
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("SUCCESS") == len(RULE_TESTS)


# ---------------------------------------------------------------- conventions


@pytest.mark.parametrize("name", sorted(RECORDINGS))
def test_recording_rules_are_named_level_metric_operations_and_carry_a_comment(name: str) -> None:
    assert re.fullmatch(r"[a-z_]*:[a-z][a-z0-9_]*:[a-z][a-z0-9_]*", name), name
    lines = RULES.read_text().splitlines()
    (index,) = [i for i, line in enumerate(lines) if line.strip() == f"- record: {name}"]
    assert lines[index - 1].strip().startswith("# "), f"{name}: needs a one-line comment above it"


@pytest.mark.parametrize("alert", sorted(ALERTS.values(), key=lambda a: a.alert), ids=lambda a: a.alert)
def test_alerts_follow_the_naming_severity_annotation_and_runbook_conventions(alert: AlertingRule) -> None:
    assert re.fullmatch(r"Canary[A-Z][A-Za-z]+", alert.alert)
    assert alert.labels["severity"] in {"critical", "warning", "info"}
    assert alert.annotations["summary"] and "{{" not in alert.annotations["summary"], "summary must be static"
    assert "{{" in alert.annotations["description"], "description must be templated"
    assert alert.annotations["runbook_url"] == RUNBOOK_PATTERN.format(alert.alert.lower())


def test_only_the_watchdog_fires_unconditionally() -> None:
    assert {alert.alert for alert in ALERTS.values() if alert.expr.strip() == "vector(1)"} == ALWAYS_FIRING


def test_only_the_suspend_and_recover_alerts_carry_an_action_the_receiver_takes() -> None:
    actions = {alert.alert: alert.labels["action"] for alert in ALERTS.values() if "action" in alert.labels}
    taken = {name: action for name, action in actions.items() if action in ("suspend", "recover")}
    assert taken == {"CanaryProviderFailing": "suspend", "CanaryProviderRecovered": "recover"}
    # The live rule only informs unless a deployment renders it as a trigger (--live-action suspend).
    assert actions["CanaryLiveRouteStandsOut"] == "inform"


def test_the_suspension_alert_publishes_the_discovered_providers_for_the_capacity_floor() -> None:
    template = ALERTS["CanaryProviderFailing"].annotations["discovered_providers"]
    assert "canary_endpoint_info{model=%q}" in template and "sortByLabel" in template


def test_unit_test_names_are_sentences() -> None:
    for test in unit_tests():
        name = test["name"]
        assert name[0].isupper() and not name.endswith(".") and len(name.split()) >= 5, name


# ---------------------------------------------------------------- coverage of the unit tests


@pytest.mark.parametrize("alertname", sorted(ALERTS))
def test_every_alert_has_a_before_a_firing_and_a_never_fires_case(alertname: str) -> None:
    cases = alert_cases(alertname)
    firing = [case for _, case in cases if case["exp_alerts"]]
    assert firing, f"{alertname}: no case where it fires"
    rule = ALERTS[alertname]
    assert any(
        set(alert["exp_annotations"]) == set(rule.annotations)
        and set(rule.labels) <= set(alert["exp_labels"])
        for case in firing
        for alert in case["exp_alerts"]
    ), f"{alertname}: no firing case checks every label and annotation"
    if alertname in ALWAYS_FIRING:
        return  # it has no "before" and no "never": its absence is what a dead man's switch detects
    never = [name for name, case in cases if not case["exp_alerts"] and "never" in name]
    assert never, f"{alertname}: no explicit never-fires test (a test named '... never ...' expecting [])"
    before = [name for name, case in cases if not case["exp_alerts"] and "never" not in name]
    assert before, f"{alertname}: no case before it fires"


def test_the_suspension_alert_has_exactly_the_labels_the_receiver_expects() -> None:
    for _, case in alert_cases("CanaryProviderFailing"):
        for alert in case["exp_alerts"]:
            assert set(alert["exp_labels"]) == {"action", "model", "provider", "severity"}


@pytest.mark.parametrize("record", sorted(RECORDINGS))
def test_every_recording_rule_has_a_unit_test(record: str) -> None:
    exprs = [case["expr"] for test in unit_tests() for case in test.get("promql_expr_test") or []]
    assert any(re.search(rf"(?<![\w:]){re.escape(record)}(?![\w:])", expr) for expr in exprs), record


# ---------------------------------------------------------------- the metrics contract


def test_every_metric_a_rule_reads_is_exported_recorded_or_built_in() -> None:
    documented = set(re.findall(r"^\| `([a-z_]+)`", METRICS_DOC.read_text(), flags=re.MULTILINE))
    builtin = {"up"}
    exprs = [rule.expr for group in GROUPS for rule in group.rules]
    templates = [value for alert in ALERTS.values() for value in alert.annotations.values()]
    used = set()
    for text in exprs + templates:
        used |= set(re.findall(r"(?<![\w:])canary_[a-z_]+", text))
        used |= set(re.findall(r"(?<![\w:])up(?=\{)", text))
        used |= set(re.findall(r"(?<![\w\"])([a-z_]*:[a-z_]+:[a-z0-9_]+)", text))
    unknown = sorted(name for name in used if name not in documented | builtin | set(RECORDINGS))
    assert not unknown, f"rules read metrics that docs/metrics.md does not list: {unknown}"
    assert {"canary_probe_failing_streak", "canary_round_interval_seconds", "up"} <= used
    assert ":canary_probe_failing_pairs:ratio" in used
