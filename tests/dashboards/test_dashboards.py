"""The shipped Grafana dashboards: structure, PromQL that promtool parses, and only metrics that exist."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

from exporter.generators import dashboards

from .checks import (
    DASHBOARDS,
    expressions,
    known_metrics,
    metric_names,
    panels,
    promtool_problems,
    structure_problems,
    substitute_variables,
    unknown_metric_problems,
)

FILES = sorted(DASHBOARDS.glob("*.json"))
EXPECTED = {"canary-overview.json", "canary-provider.json", "canary-routability.json"}


def load(path: Path) -> dict[str, Any]:
    document = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(document, dict), f"{path.name}: not a JSON object"
    return document


@pytest.fixture(scope="module")
def known() -> set[str]:
    return known_metrics()


def test_the_three_dashboards_are_shipped() -> None:
    assert {path.name for path in FILES} >= EXPECTED


def test_the_json_files_are_what_build_py_generates() -> None:
    assert dashboards.main(["--check"]) == 0, "run: .venv/bin/python -m exporter.generators.dashboards"


def essentials(document: dict[str, Any]) -> dict[str, Any]:
    """What a reader sees of a dashboard, key order and JSON layout aside: per panel its kind, title,
    description, datasource, place, field defaults (unit, thresholds, mappings, ...), options, overrides
    (links among them), transformations and queries; the dashboard's links and variables."""
    return {
        "links": document["links"],
        "variables": document["templating"]["list"],
        "panels": [
            {
                key: panel.get(key)
                for key in ("type", "title", "description", "datasource", "gridPos", "options", "fieldConfig")
            }
            | {
                "transformations": panel.get("transformations", []),
                "targets": [
                    (t["refId"], t["expr"], t["legendFormat"], t["format"], t["instant"], t["datasource"])
                    for t in panel.get("targets", [])
                ],
            }
            for panel in panels(document)
        ],
    }


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_the_generated_panels_are_the_shipped_ones(name: str) -> None:
    generated, shipped = essentials(dashboards.build_all()[name]), essentials(load(DASHBOARDS / name))
    assert generated["links"] == shipped["links"] and generated["variables"] == shipped["variables"]
    assert [p["title"] for p in generated["panels"]] == [p["title"] for p in shipped["panels"]]
    for made, kept in zip(generated["panels"], shipped["panels"], strict=True):
        assert made == kept, made["title"]


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        (
            "      expr: sum(canary_model_providers",
            "      exprr: sum(canary_model_providers",
            "panels.1.panel.exprr",
        ),
        ("- stat: Providers discovered", "- gauge: Providers discovered", "unknown kind 'gauge'"),
        ("expr: sum(canary_model_providers", "legend: sum(canary_model_providers", "give one of"),
    ],
)
def test_a_mistake_in_the_declaration_names_the_panel(tmp_path: Path, old: str, new: str, says: str) -> None:
    text = dashboards.SPEC.read_text(encoding="utf-8")
    assert text.count(old) == 1
    (bad := tmp_path / "dashboards.yaml").write_text(text.replace(old, new), encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(says)):
        dashboards.load_spec(bad)


def test_uids_are_stable_and_distinct() -> None:
    uids = {path.name: load(path)["uid"] for path in FILES}
    assert uids["canary-overview.json"] == "canary-overview"
    assert uids["canary-provider.json"] == "canary-provider"
    assert uids["canary-routability.json"] == "canary-routability"
    assert len(set(uids.values())) == len(uids)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_dashboard_structure(path: Path) -> None:
    assert structure_problems(load(path)) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_expression_parses_with_promtool(path: Path) -> None:
    assert promtool_problems(load(path)) == []


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_queried_metric_is_exported_recorded_or_built_in(path: Path, known: set[str]) -> None:
    document = load(path)
    assert unknown_metric_problems(document, known) == []
    assert all(metric_names(expr) for expr in expressions(document).values()), "an expression selects nothing"


def test_the_drilldown_selects_one_model_and_one_provider() -> None:
    document = load(DASHBOARDS / "canary-provider.json")
    variables = {v["name"]: v for v in document["templating"]["list"]}
    assert not variables["model"]["multi"] and not variables["provider"]["multi"]
    assert "$model" in variables["provider"]["definition"]
    for where, expr in expressions(document).items():
        if where.startswith("panel"):
            assert 'model="$model"' in expr, where


def test_the_dashboards_cover_the_contract(known: set[str]) -> None:
    used = {
        name for path in FILES for expr in expressions(load(path)).values() for name in metric_names(expr)
    }
    for required in (
        "canary_probe_last_outcome",
        "canary_probe_failing_streak",
        "canary_probe_ttft_seconds_bucket",
        "canary_probe_ttft_last_seconds",
        "canary_probe_language_outcomes_total",
        "canary_probe_cost_usd_total",
        "canary_probe_tokens_total",
        "canary_receiver_ignored_providers",
        "canary_receiver_floor_blocks_total",
        "canary_discovery_failures_total",
        "canary_round_last_completed_timestamp_seconds",
        "canary_endpoint_info",
        "canary_endpoint_uptime_ratio",
        "canary_routability_status",
        "canary_routability_last_check_age_seconds",
        "canary_routability_probes_total",
        "model_provider_mode:canary_receiver_suspension_remaining_seconds:max",
        "model_mode:canary_receiver_suspension_active:sum",
    ):
        assert required in used, f"no dashboard shows {required}"


# ---------------------------------------------------------------- the checks can fail


def first_target(document: dict[str, Any]) -> dict[str, Any]:
    return next(target for panel in panels(document) for target in panel.get("targets", []))


def test_a_typo_in_a_metric_name_is_reported(known: set[str]) -> None:
    document = copy.deepcopy(load(DASHBOARDS / "canary-overview.json"))
    target = first_target(document)
    target["expr"] = target["expr"].replace("canary_model_providers", "canary_model_provders")
    problems = unknown_metric_problems(document, known)
    assert len(problems) == 1 and "canary_model_provders" in problems[0]


def test_a_metric_missing_from_the_contract_is_reported() -> None:
    document = load(DASHBOARDS / "canary-overview.json")
    known = known_metrics() - {"canary_probe_failing_streak"}
    assert any("canary_probe_failing_streak" in p for p in unknown_metric_problems(document, known))


def test_a_syntax_error_is_reported_by_promtool_with_the_panel() -> None:
    document = copy.deepcopy(load(DASHBOARDS / "canary-provider.json"))
    target = first_target(document)
    target["expr"] = target["expr"].rstrip(")")
    problems = promtool_problems(document)
    assert problems and "parse error" in problems[0]
    assert any("'Suspension'" in p for p in problems[1:])


def test_a_panel_without_unit_description_or_datasource_is_reported() -> None:
    document = copy.deepcopy(load(DASHBOARDS / "canary-routability.json"))
    panel = next(p for p in panels(document) if p["type"] != "row")
    del panel["fieldConfig"]["defaults"]["unit"]
    panel["description"] = " "
    panel["datasource"] = {"type": "prometheus", "uid": "prometheus"}
    problems = " | ".join(structure_problems(document))
    assert "no fieldConfig.defaults.unit" in problems
    assert "no description" in problems
    assert "datasource is not ${datasource}" in problems


def test_a_rate_over_a_fixed_or_scrape_sized_window_is_reported() -> None:
    for window in ("[5m]", "[$__rate_interval]"):
        document = copy.deepcopy(load(DASHBOARDS / "canary-overview.json"))
        panel = next(p for p in panels(document) if "increase(" in json.dumps(p.get("targets")))
        panel["targets"][0]["expr"] = panel["targets"][0]["expr"].replace("[$window]", window)
        assert any("must use [$window] (>= 2 probe rounds)" in p for p in structure_problems(document))


def test_the_window_defaults_to_two_rounds_of_the_default_round_interval() -> None:
    from exporter.engine.config import DEFAULT_INTERVAL_SECONDS

    for path in sorted(DASHBOARDS.glob("*.json")):
        (window,) = [v for v in load(path)["templating"]["list"] if v["name"] == "window"]
        two_rounds = f"{int(2 * DEFAULT_INTERVAL_SECONDS // 3600)}h"
        assert window["current"]["value"] == "1h" == two_rounds, path.name


def test_the_provider_drilldown_links_the_evidence_of_the_selected_model_and_provider() -> None:
    document = load(DASHBOARDS / "canary-provider.json")
    urls = [link.get("url", "") for link in document["links"]]
    evidence = "${exporter_url}/v1/evidence?model=${model:percentencode}&provider=${provider:percentencode}"
    assert evidence in urls
    names = [v["name"] for v in document["templating"]["list"]]
    assert "exporter_url" in names


def test_a_missing_datasource_variable_is_reported() -> None:
    document = copy.deepcopy(load(DASHBOARDS / "canary-overview.json"))
    document["templating"]["list"] = [v for v in document["templating"]["list"] if v["name"] != "datasource"]
    assert any("'datasource' variable" in p for p in structure_problems(document))


@pytest.mark.parametrize(
    ("expr", "names"),
    [
        ('sum by (model, le) (rate(a_bucket{model=~"$model"}[$__rate_interval]))', {"a_bucket"}),
        ('x:y:max{model="$model"} and on (model, provider) b == 1', {"x:y:max", "b"}),
        ('label_replace(c, "layer", "suspension", "", "") or vector(0)', {"c"}),
        ("time() - max(d_seconds) offset 5m", {"d_seconds"}),
        (
            'histogram_quantile(0.9, sum by (le) (increase(e_bucket{a="1e3"}[${__rate_interval}])))',
            {"e_bucket"},
        ),
        ("topk(10, f > 0) * 1e3 + inf", {"f"}),
    ],
)
def test_metric_names_are_extracted_from_promql(expr: str, names: set[str]) -> None:
    assert metric_names(expr) == names


def test_template_variables_are_substituted_in_every_form() -> None:
    expr = (
        'rate(x{a="$model", b="${provider}", c="[[model]]", d="${model:regex}"}[$__rate_interval]) [$__range]'
    )
    assert substitute_variables(expr) == 'rate(x{a="value", b="value", c="value", d="value"}[2m]) [1h]'
