"""The Grafana alert-rule provisioning file generated from the Prometheus rule files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from exporter.devtools.pipeline.configs import SHIPPED_PROMETHEUS_CONFIG, load_yaml
from exporter.generators import grafana_alerts
from exporter.generators.grafana_alerts import DEFAULT_OUTPUT, REGENERATE, render, rule_uid
from exporter.generators.rulefile import (
    SHIPPED_RULES,
    AlertingRule,
    RuleFileError,
    inline_recorded,
    load_rule_groups,
    recording_exprs,
)

RULES = SHIPPED_RULES
RULE_TESTS = sorted((RULES.parent / "tests").glob("*_test.yml"))


def generated() -> dict[str, object]:
    document = yaml.safe_load(render([RULES]))
    assert isinstance(document, dict)
    return document


def grafana_rules() -> dict[str, dict[str, object]]:
    return {rule["title"]: rule for group in generated()["groups"] for rule in group["rules"]}  # type: ignore[attr-defined]


def test_the_committed_provisioning_file_is_up_to_date() -> None:
    assert DEFAULT_OUTPUT.read_text() == render([RULES]), (
        f"config/grafana/alerting/canary-alerts.yaml is stale: run {REGENERATE}"
    )


def test_the_file_says_it_is_generated_and_how() -> None:
    header = render([RULES]).splitlines()[:2]
    assert header[0].startswith("# GENERATED FILE: do not edit. Source of truth: rules/canary.rules.yml")
    assert header[1] == f"# Regenerate with: {REGENERATE} (a test fails if this file is stale)"


def test_every_prometheus_alert_becomes_one_grafana_rule_with_a_stable_uid() -> None:
    alerts = [rule.alert for group in load_rule_groups(RULES) for rule in group.alerts]
    rules = grafana_rules()
    assert sorted(rules) == sorted(alerts)
    for name, rule in rules.items():
        assert rule["uid"] == rule_uid(name)
    assert rule_uid("CanaryProviderFailing") == "canary-provider-failing"


def test_a_grafana_rule_carries_labels_for_and_no_data_handling_from_its_alert() -> None:
    failing = grafana_rules()["CanaryProviderFailing"]
    assert failing["labels"] == {"action": "suspend", "severity": "warning"}
    assert failing["for"] == "0m"
    assert (failing["noDataState"], failing["execErrState"], failing["condition"]) == ("OK", "OK", "B")
    query, condition = failing["data"]  # type: ignore[misc]
    assert query["datasourceUid"] == "prometheus"
    assert query["model"]["expr"] == "(max by (model, provider) (canary_probe_failing_streak)) >= 2"
    assert condition["model"]["type"] == "math"
    assert grafana_rules()["CanaryExporterStale"]["for"] == "10m"


def test_annotations_that_need_the_query_function_are_dropped_and_value_is_adapted() -> None:
    annotations = grafana_rules()["CanaryProviderFailing"]["annotations"]
    assert isinstance(annotations, dict)
    assert set(annotations) == {"summary", "description", "runbook_url"}
    assert "$values.A.Value" in annotations["description"]
    text = render([RULES])
    assert "#   - CanaryProviderFailing.discovered_providers" in text
    assert "query }}" not in text and "$value " not in text and "$value}" not in text


def test_the_evaluation_interval_matches_the_shipped_prometheus_config() -> None:
    assert (
        load_yaml(SHIPPED_PROMETHEUS_CONFIG)["global"]["evaluation_interval"]
        == grafana_alerts.EVALUATION_INTERVAL
    )
    assert {group["interval"] for group in generated()["groups"]} == {grafana_alerts.EVALUATION_INTERVAL}  # type: ignore[attr-defined]


def test_a_label_with_a_dollar_sign_is_refused() -> None:
    with pytest.raises(RuleFileError, match=r"label severity='\$x'"):
        grafana_alerts.grafana_rule(AlertingRule(alert="CanaryX", expr="up", labels={"severity": "$x"}), {})


# ---------------------------------------------------------------- inlining recording rules


def test_recorded_names_are_inlined_recursively_but_not_inside_strings() -> None:
    recordings = {"a:b:sum": "sum(b)", ":b:ratio": "a:b:sum / count(b)"}
    assert inline_recorded(
        ':b:ratio > 0.5 and on () label_replace(x, "l", "a:b:sum", "", "")', recordings
    ) == ('((sum(b)) / count(b)) > 0.5 and on () label_replace(x, "l", "a:b:sum", "", "")')
    assert inline_recorded("xa:b:sum + a:b:sum_other", recordings) == "xa:b:sum + a:b:sum_other"


@pytest.mark.parametrize("use", ['a:b:sum{model="m"}', "a:b:sum[5m]", "a:b:sum offset 5m", "a:b:sum @ 100"])
def test_a_recorded_name_with_a_selector_range_or_offset_cannot_be_inlined(use: str) -> None:
    with pytest.raises(RuleFileError, match="a:b:sum: used with a selector"):
        inline_recorded(use, {"a:b:sum": "sum(b)"})


def test_recording_rules_in_a_cycle_are_refused() -> None:
    with pytest.raises(RuleFileError, match="cycle"):
        inline_recorded("a:x:y", {"a:x:y": "b:x:y + 1", "b:x:y": "a:x:y"})


def test_a_malformed_rule_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.yml"
    path.write_text("groups:\n  - name: g\n    rules:\n      - expr: up\n")
    with pytest.raises(
        RuleFileError, match=r"bad\.yml: groups\[0\]\.rules\[0\]: neither 'record' nor 'alert'"
    ):
        load_rule_groups(path)


@pytest.mark.slow
def test_the_inlined_alerts_pass_every_promtool_test_of_the_original_rules(tmp_path: Path) -> None:
    """The Grafana queries are the Prometheus alerts with recordings inlined: prove they behave the same."""
    promtool = shutil.which("promtool")
    assert promtool, "promtool is not installed: apt-get install prometheus"
    source = yaml.safe_load(RULES.read_text())
    recordings = recording_exprs(load_rule_groups(RULES))
    for group in source["groups"]:
        for rule in group["rules"]:
            if "alert" in rule:
                rule["expr"] = inline_recorded(rule["expr"].strip(), recordings)
    (tmp_path / "canary.rules.yml").write_text(yaml.safe_dump(source, sort_keys=False))
    (tmp_path / "tests").mkdir()
    for test_file in RULE_TESTS:
        (tmp_path / "tests" / test_file.name).write_text(test_file.read_text())
    result = subprocess.run(
        [promtool, "test", "rules", *sorted(str(p) for p in (tmp_path / "tests").glob("*.yml"))],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(RULE_TESTS) >= 3
