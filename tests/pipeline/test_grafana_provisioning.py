"""The Grafana provisioning files are what Grafana's file provisioners accept.

The constraints are Grafana's own, read from its source (grafana/grafana), not invented here:

- ``pkg/services/provisioning/alerting/rules_types.go``: ``AlertRuleGroupV1`` (orgId, name, folder,
  interval, rules; "rule group has no name set", "rule group has no folder set", interval parsed with
  ``model.ParseDuration``) and ``AlertRuleV1`` (uid, title, condition, data, dashboardUid, panelId,
  noDataState, execErrState, for, keepFiringFor, annotations, labels, isPaused, notification_settings,
  record; "rule has no title set", "no UID set", "no data set", "no condition set", ``for`` and
  ``keepFiringFor`` parsed with ``model.ParseDuration``); ``QueryV1`` (refId, queryType, relativeTimeRange,
  datasourceUid, model).
- ``pkg/services/ngalert/models/alert_rule.go``: ``NoDataStateFromString`` accepts Alerting, NoData, OK,
  KeepLast; ``ErrStateFromString`` accepts Alerting, Error, OK, KeepLast.
- ``pkg/services/provisioning/alerting/rules_provisioner.go``: ``getOrCreateFolderByTitle`` — an alert
  group's folder is found by title, or created with a random uid (``util.GenerateShortUID``).
- ``pkg/services/provisioning/dashboards/types.go``: the v1 dashboard provider (``configs``: name, type,
  orgId, folder, folderUid, editable, options, disableDeletion, updateIntervalSeconds, allowUiUpdates) and
  ``file_reader.go`` ``getOrCreateFolder``: with ``folderUid`` set the folder is looked up by uid only.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from exporter.generators import grafana_alerts
from exporter.generators.rulefile import SHIPPED_RULES, load_rule_groups

ROOT = Path(__file__).resolve().parents[2]
ALERT_FILE = ROOT / "config" / "grafana" / "alerting" / "canary-alerts.yaml"
DASHBOARD_PROVIDER = ROOT / "config" / "grafana" / "provisioning" / "dashboards" / "provider-canary.yaml"
DATASOURCES = ROOT / "config" / "grafana" / "provisioning" / "datasources" / "prometheus.yaml"

GROUP_FIELDS = {"orgId", "name", "folder", "interval", "rules"}
RULE_FIELDS = {
    "uid", "title", "condition", "data", "dasboardUid", "dashboardUid", "panelId", "noDataState",
    "execErrState", "for", "keepFiringFor", "missing_series_evals_to_resolve", "annotations", "labels",
    "isPaused", "notification_settings", "record",
}  # fmt: skip
QUERY_FIELDS = {"refId", "queryType", "relativeTimeRange", "datasourceUid", "model"}
NO_DATA_STATES = {"Alerting", "NoData", "OK", "KeepLast"}
EXEC_ERR_STATES = {"Alerting", "Error", "OK", "KeepLast"}
PROVIDER_FIELDS = {
    "name", "type", "orgId", "folder", "folderUid", "editable", "options", "disableDeletion",
    "updateIntervalSeconds", "allowUiUpdates",
}  # fmt: skip
# Prometheus' model.ParseDuration (what Grafana calls): units y w d h m s ms, in that order, no spaces.
DURATION = re.compile(
    r"^(([0-9]+)y)?(([0-9]+)w)?(([0-9]+)d)?(([0-9]+)h)?(([0-9]+)m)?(([0-9]+)s)?(([0-9]+)ms)?$"
)


def parses_as_duration(text: str) -> bool:
    return text == "0" or (bool(text) and DURATION.match(text) is not None)


def load(path: Path) -> dict[str, Any]:
    document = yaml.safe_load(path.read_text())
    assert isinstance(document, dict)
    return document


def alert_rules() -> list[dict[str, Any]]:
    return [rule for group in load(ALERT_FILE)["groups"] for rule in group["rules"]]


def test_the_duration_check_accepts_what_prometheus_parses_and_nothing_else() -> None:
    assert all(map(parses_as_duration, ["0", "0m", "30s", "1h30m", "10m", "1500ms"]))
    assert not any(map(parses_as_duration, ["", "10 m", "1.5h", "m", "30s1h"]))


def test_the_alert_file_is_an_apiversion_1_file_with_valid_groups() -> None:
    document = load(ALERT_FILE)
    assert document["apiVersion"] == 1
    assert set(document) <= {"apiVersion", "groups", "deleteRules"}
    for group in document["groups"]:
        assert set(group) <= GROUP_FIELDS, set(group) - GROUP_FIELDS
        assert group["name"].strip() and group["folder"].strip()
        assert parses_as_duration(group["interval"]) and group["orgId"] >= 1
        assert group["rules"]


@pytest.mark.parametrize("rule", alert_rules(), ids=lambda rule: rule["title"])
def test_every_alert_rule_has_the_fields_and_enum_values_grafana_accepts(rule: dict[str, Any]) -> None:
    assert set(rule) <= RULE_FIELDS, set(rule) - RULE_FIELDS
    assert rule["title"] and re.fullmatch(r"[a-zA-Z0-9_-]{1,40}", rule["uid"])
    assert rule["noDataState"] in NO_DATA_STATES and rule["execErrState"] in EXEC_ERR_STATES
    assert parses_as_duration(rule["for"])
    assert "keepFiringFor" not in rule or parses_as_duration(rule["keepFiringFor"])
    assert rule["data"], "no data set"
    ref_ids = [query["refId"] for query in rule["data"]]
    assert rule["condition"] in ref_ids and len(set(ref_ids)) == len(ref_ids)
    for query in rule["data"]:
        assert set(query) <= QUERY_FIELDS, set(query) - QUERY_FIELDS
        assert set(query.get("relativeTimeRange", {})) <= {"from", "to"}
        assert query["datasourceUid"] and isinstance(query["model"], dict)
    for mapping in (rule["labels"], rule["annotations"]):
        assert all(isinstance(k, str) and isinstance(v, str) for k, v in mapping.items())


def test_the_uids_of_all_rules_are_unique() -> None:
    uids = [rule["uid"] for rule in alert_rules()]
    assert len(uids) == len(set(uids))


def test_watchdog_alerts_fire_on_an_evaluation_error_and_action_alerts_never_do() -> None:
    rules = {rule["title"]: rule for rule in alert_rules()}
    watchdogs = {"CanaryExporterStale", "CanaryReceiverDown"}
    for title in watchdogs:
        assert rules[title]["execErrState"] == "Alerting", title
    for title, rule in rules.items():
        if "action" in rule["labels"]:
            assert rule["execErrState"] == "OK", f"{title}: a broken data source must not suspend anyone"
    sources = {rule.alert: rule for group in load_rule_groups(SHIPPED_RULES) for rule in group.alerts}
    for title, rule in rules.items():
        assert rule["execErrState"] == grafana_alerts.exec_err_state(sources[title])


def test_dashboards_and_alerts_share_one_folder_whatever_the_provisioning_order() -> None:
    provider_file = load(DASHBOARD_PROVIDER)
    assert provider_file["apiVersion"] == 1
    (provider,) = provider_file["providers"]
    assert set(provider) <= PROVIDER_FIELDS, set(provider) - PROVIDER_FIELDS
    folders = {group["folder"] for group in load(ALERT_FILE)["groups"]}
    assert folders == {provider["folder"]} == {grafana_alerts.FOLDER}
    # Alert files cannot carry a folder uid; a uid on the dashboard side alone would split the folder.
    assert "folderUid" not in provider


def test_every_dashboard_has_a_stable_uid_grafana_accepts_and_the_alert_datasource_is_provisioned() -> None:
    uids = []
    for path in sorted((ROOT / "dashboards").glob("*.json")):
        uids.append(json.loads(path.read_text())["uid"])
    assert uids and all(re.fullmatch(r"[a-zA-Z0-9_-]{1,40}", uid) for uid in uids)
    assert len(set(uids)) == len(uids)
    (datasource,) = load(DATASOURCES)["datasources"]
    assert {query["datasourceUid"] for rule in alert_rules() for query in rule["data"]} == {
        datasource["uid"],
        "__expr__",
    }
