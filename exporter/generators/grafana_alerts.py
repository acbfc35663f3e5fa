"""Generate the Grafana alert-rule provisioning file from the Prometheus rule files (one source of truth).

Each Prometheus alert becomes one Grafana-managed rule: query A is the alert's PromQL with every recording
rule inlined (so no Prometheus ruler is needed), and condition B is a math expression that is true for every
series A returns, exactly like a Prometheus alert fires for every series its expression returns. Labels
(including ``action``), ``for`` and annotations are carried over, with two adaptations Grafana needs:
``$value`` becomes ``$values.A.Value``, and annotations that call the ``query`` template function (which
Grafana does not have) are dropped and listed in the file header; the receiver then falls back to its
remembered discovered set (docs/alerting.md).

``canary rules render`` (``exporter.commands.rules``) writes the shipped file (``REGENERATE``) and with
``--check`` fails if it is out of date.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from exporter.generators.rulefile import (
    AlertingRule,
    RuleFileError,
    RuleGroup,
    display_path,
    dump_yaml,
    inline_recorded,
    load_rule_groups,
    recording_exprs,
)
from exporter.paths import REPO_ROOT

DEFAULT_OUTPUT = REPO_ROOT / "config" / "grafana" / "alerting" / "canary-alerts.yaml"
REGENERATE = f"canary rules render --output-dir rules --grafana-output {display_path(DEFAULT_OUTPUT)}"
# Provision the Prometheus data source with this uid (no variables are allowed in alert-rule files).
DATASOURCE_UID = "prometheus"
# The one Grafana folder of dashboards and alerts. Grafana's alert-rule file (v1) can name a folder by title
# only (AlertRuleGroupV1 has `folder`, no uid) and creates it with a random uid when no folder has that
# title; a dashboard provider with `folderUid` looks its folder up by uid only and fails on the duplicate
# title if alerts were provisioned first. So the dashboard provider
# (config/grafana/provisioning/dashboards/provider-canary.yaml) names the folder by this same title and no
# uid: whichever provisioner runs first creates it, the other finds it. A test keeps them equal.
FOLDER = "Provider Canary"
# Same as evaluation_interval in config/prometheus.yml (a test keeps them equal).
EVALUATION_INTERVAL = "30s"
# True for every sample query A returns: a Prometheus alert fires for every series its expression yields.
EVERY_SERIES = "is_number($A) || is_nan($A) || is_inf($A)"

_ACTION = re.compile(r"\{\{(.*?)\}\}", re.DOTALL)
_QUERY_CALL = re.compile(r"\bquery\b")
_VALUE = re.compile(r"\$value\b(?!s)")
_UID_OK = re.compile(r"^[a-zA-Z0-9_-]{1,40}$")
# Alerts that report something missing or the pipeline itself (absent(), always-firing watchdogs): when
# their query cannot run, the thing they watch is not known to be fine, so an error must fire them
# rather than silence them. Every other alert (including action alerts) treats an error as OK: a broken
# data source must never ask the receiver to suspend anybody.
_WATCHDOG = re.compile(r"\babsent\s*\(|\bvector\s*\(\s*1\s*\)")


def rule_uid(alert: str) -> str:
    """A stable Grafana uid derived from the alert name.

    Example::

        >>> rule_uid("CanaryProviderFailing")
        'canary-provider-failing'
    """
    uid = re.sub(r"(?<!^)(?=[A-Z])", "-", alert).lower()
    if not _UID_OK.match(uid):
        raise RuleFileError(f"{alert}: derived Grafana uid {uid!r} is not 1-40 characters of [a-zA-Z0-9_-]")
    return uid


def exec_err_state(rule: AlertingRule) -> str:
    """``Alerting`` for watchdog alerts (an error must not silence them), ``OK`` for the others.

    Example::

        >>> exec_err_state(AlertingRule(alert="CanaryReceiverDown", expr="absent(up)"))
        'Alerting'
    """
    return "Alerting" if _WATCHDOG.search(rule.expr) and "action" not in rule.labels else "OK"


def grafana_annotations(rule: AlertingRule) -> tuple[dict[str, str], list[str]]:
    """The annotations Grafana can render, adapted, and the names of those dropped for using ``query``.

    Example::

        grafana_annotations(rule)   # ({'summary': ..., 'description': ...}, ['discovered_providers'])
    """
    kept: dict[str, str] = {}
    dropped: list[str] = []
    for name, template in rule.annotations.items():
        if any(_QUERY_CALL.search(action) for action in _ACTION.findall(template)):
            dropped.append(name)
        else:
            kept[name] = _VALUE.sub("$values.A.Value", template)
    return kept, dropped


def grafana_rule(rule: AlertingRule, recordings: dict[str, str]) -> dict[str, object]:
    """One Grafana alert rule (provisioning schema) for one Prometheus alert.

    Example::

        grafana_rule(AlertingRule(alert="CanaryX", expr="up == 0"), {})["uid"]   # 'canary-x'
    """
    for name, value in rule.labels.items():
        if "$" in value:
            raise RuleFileError(
                f"{rule.alert}: label {name}={value!r}: Grafana would expand '$' as a variable"
            )
    annotations, _ = grafana_annotations(rule)
    result: dict[str, object] = {
        "uid": rule_uid(rule.alert),
        "title": rule.alert,
        "condition": "B",
        "data": [
            {
                "refId": "A",
                "relativeTimeRange": {"from": 600, "to": 0},
                "datasourceUid": DATASOURCE_UID,
                "model": {
                    "refId": "A",
                    "datasource": {"type": "prometheus", "uid": DATASOURCE_UID},
                    "expr": inline_recorded(rule.expr, recordings),
                    "instant": True,
                    "range": False,
                },
            },
            {
                "refId": "B",
                "datasourceUid": "__expr__",
                "model": {
                    "refId": "B",
                    "datasource": {"type": "__expr__", "uid": "__expr__"},
                    "type": "math",
                    "expression": EVERY_SERIES,
                },
            },
        ],
        "for": rule.for_,
        "noDataState": "OK",
        "execErrState": exec_err_state(rule),
        "labels": dict(rule.labels),
        "annotations": annotations,
        "isPaused": False,
    }
    if rule.keep_firing_for is not None:
        result["keepFiringFor"] = rule.keep_firing_for
    return result


def provisioning_document(groups: Sequence[RuleGroup]) -> dict[str, object]:
    """The whole provisioning document: one Grafana group per rule group that has alerts.

    Example::

        provisioning_document(load_rule_groups(Path("rules/canary.rules.yml")))["apiVersion"]   # 1
    """
    recordings = recording_exprs(groups)
    return {
        "apiVersion": 1,
        "groups": [
            {
                "orgId": 1,
                "name": group.name,
                "folder": FOLDER,
                "interval": EVALUATION_INTERVAL,
                "rules": [grafana_rule(rule, recordings) for rule in group.alerts],
            }
            for group in groups
            if group.alerts
        ],
    }


def render(rule_paths: Sequence[Path]) -> str:
    """The provisioning file's text, header comment included (deterministic for the same inputs).

    Example::

        text = render([Path("rules/canary.rules.yml")])
    """
    groups = tuple(group for path in rule_paths for group in load_rule_groups(path))
    dropped = [
        f"{rule.alert}.{name}"
        for group in groups
        for rule in group.alerts
        for name in grafana_annotations(rule)[1]
    ]
    sources = ", ".join(display_path(path) for path in rule_paths)
    header = [
        "# GENERATED FILE: do not edit. Source of truth: " + sources,
        f"# Regenerate with: {REGENERATE} (a test fails if this file is stale)",
        "#",
        "# Grafana-managed copies of the Prometheus alerts, for teams without a Prometheus ruler. Recording",
        "# rules are inlined into query A; condition B fires for every series A returns. Provision the",
        f"# Prometheus data source with uid '{DATASOURCE_UID}'. Annotations dropped because Grafana has no",
        "# `query` template function (the receiver then uses its remembered discovered set, see",
        "# docs/alerting.md):",
        *(f"#   - {item}" for item in dropped),
    ]
    body = dump_yaml(provisioning_document(groups))
    return "\n".join(header) + "\n" + body
