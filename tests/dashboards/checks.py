"""What a Provider Canary dashboard must satisfy, as functions returning problems (empty list = good).

Shared by the tests over the shipped dashboards and the negative tests that prove each check can fail.
PromQL is parsed by the real ``promtool`` (each expression becomes a recording rule in a temporary rule file);
metric names are extracted here with a small lexer and compared with docs/metrics.md and rules/*.yml.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

import yaml

from exporter.generators.rulefile import PROMQL_STRING, load_rule_groups

ROOT = Path(__file__).resolve().parents[2]
DASHBOARDS = ROOT / "dashboards"
METRICS_DOC = ROOT / "docs" / "metrics.md"
RULE_FILES = sorted((ROOT / "rules").glob("*.yml"))
# Series Prometheus itself produces (scrape health, alert state); not in docs/metrics.md.
PROMETHEUS_BUILTIN = frozenset({"up", "ALERTS", "ALERTS_FOR_STATE"})

# Values that make a dashboard expression plain PromQL; anything else named $x gets a label-value stand-in.
DURATION_VARIABLES = {"window": "1h", "__rate_interval": "2m", "__interval": "1m", "__range": "1h"}
NUMBER_VARIABLES = {"__interval_ms": "60000", "__range_s": "3600", "__range_ms": "3600000"}
_VARIABLE = re.compile(r"\$\{(\w+)(?::[^}]*)?\}|\[\[(\w+)(?::[^\]]*)?\]\]|\$(\w+)")

_KEYWORDS = frozenset({
    "by", "without", "on", "ignoring", "group_left", "group_right", "bool",
    "and", "or", "unless", "offset", "atan2", "inf", "nan",
})  # fmt: skip
_GROUPING = re.compile(r"\b(by|without|on|ignoring|group_left|group_right)\s*\(")
_IDENT = re.compile(r"(?<![\w:.])([a-zA-Z_:][a-zA-Z0-9_:]*)")
_DOC_ROW = re.compile(r"^\|\s*`([a-zA-Z_:][a-zA-Z0-9_:]*)`\s*\|\s*([a-z]+)", re.MULTILINE)
_RATE_CALL = re.compile(r"\b(rate|irate|increase)\s*\(")


def substitute_variables(expr: str) -> str:
    """Replace Grafana template variables by values that keep the expression valid PromQL.

    Example::

        >>> substitute_variables('rate(x{model=~"$model"}[$__rate_interval])')
        'rate(x{model=~"value"}[2m])'
    """

    def replace(match: re.Match[str]) -> str:
        name = next(group for group in match.groups() if group is not None)
        return DURATION_VARIABLES.get(name) or NUMBER_VARIABLES.get(name) or "value"

    return _VARIABLE.sub(replace, expr)


def _strip_balanced(text: str, opener: re.Pattern[str]) -> str:
    """Remove the parenthesised argument list that follows every match of ``opener``."""
    out, i = [], 0
    while (match := opener.search(text, i)) is not None:
        out.append(text[i : match.start()])
        depth, j = 1, match.end()
        while j < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return " ".join(out)


def metric_names(expr: str) -> set[str]:
    """Metric names an expression selects (not functions, keywords, labels, strings or durations).

    Example::

        >>> sorted(metric_names('sum by (le) (rate(a_bucket{x="y"}[5m])) / on() group_left b:c:max'))
        ['a_bucket', 'b:c:max']
    """
    text = PROMQL_STRING.sub('""', substitute_variables(expr))
    text = re.sub(r"\{[^}]*\}", " ", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", " ", text)  # ranges and subqueries
    text = _strip_balanced(text, _GROUPING)  # by (...), on (...), group_left (...)
    names = set()
    for match in _IDENT.finditer(text):
        name = match.group(1)
        following = text[match.end() :].lstrip()
        if name.lower() in _KEYWORDS or following.startswith("("):
            continue  # a keyword or a function call
        names.add(name)
    return names


def known_metrics(metrics_doc: Path = METRICS_DOC, rule_files: list[Path] = RULE_FILES) -> set[str]:
    """Every series name a dashboard may query: documented, recorded, or produced by Prometheus itself.

    Histograms contribute ``_bucket``/``_sum``/``_count``; counters are documented with their ``_total``.
    """
    names = set(PROMETHEUS_BUILTIN)
    for name, kind in _DOC_ROW.findall(metrics_doc.read_text(encoding="utf-8")):
        names.add(name)
        if kind == "histogram":
            names |= {f"{name}_bucket", f"{name}_sum", f"{name}_count"}
    for path in rule_files:
        names |= {rule.record for group in load_rule_groups(path) for rule in group.recordings}
    return names


def panels(dashboard: Mapping[str, Any]) -> Iterator[dict[str, Any]]:
    """Every panel, including those inside collapsed rows."""
    for panel in dashboard.get("panels", []):
        yield panel
        yield from panel.get("panels", [])


def expressions(dashboard: Mapping[str, Any]) -> dict[str, str]:
    """``{where: expr}`` for every panel target and every query variable."""
    found = {}
    for panel in panels(dashboard):
        for target in panel.get("targets", []):
            found[f"panel {panel.get('id')} {panel.get('title')!r} query {target.get('refId')}"] = target.get(
                "expr", ""
            )
    for variable in dashboard.get("templating", {}).get("list", []):
        if variable.get("type") == "query":
            query = variable.get("query")
            text = query.get("query", "") if isinstance(query, dict) else str(query)
            match = re.fullmatch(r"\s*label_values\((.*),\s*(\w+)\s*\)\s*", text, flags=re.DOTALL)
            found[f"variable {variable.get('name')!r}"] = match.group(1) if match else text
    return found


def structure_problems(dashboard: Mapping[str, Any]) -> list[str]:
    """Uid, schema, the datasource variable, and per panel: datasource, unit, description, rate windows."""
    problems = []
    uid = dashboard.get("uid")
    if not isinstance(uid, str) or not re.fullmatch(r"canary-[a-z0-9-]{1,33}", uid):
        problems.append(f"uid {uid!r}: expected a stable 'canary-...' uid of at most 40 characters")
    if not 36 <= int(dashboard.get("schemaVersion", 0)) <= 41:
        problems.append(f"schemaVersion {dashboard.get('schemaVersion')!r}: expected about 39")
    variables = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}
    ds = variables.get("datasource", {})
    if ds.get("type") != "datasource" or ds.get("query") != "prometheus":
        problems.append("templating: no 'datasource' variable of type datasource with query prometheus")
    if variables.get("model", {}).get("type") != "query":
        problems.append("templating: no 'model' query variable")
    for name, variable in variables.items():
        if variable.get("type") == "query" and variable.get("datasource", {}).get("uid") != "${datasource}":
            problems.append(f"variable {name!r}: does not use the ${{datasource}} variable")
    ids = [panel.get("id") for panel in panels(dashboard)]
    if len(ids) != len(set(ids)):
        problems.append(f"panel ids are not unique: {ids}")
    for panel in panels(dashboard):
        where = f"panel {panel.get('id')} {panel.get('title')!r}"
        if panel.get("type") == "row":
            continue  # rows only group panels: no query, no unit
        if panel.get("datasource", {}).get("uid") != "${datasource}":
            problems.append(f"{where}: datasource is not ${{datasource}}")
        if not panel.get("fieldConfig", {}).get("defaults", {}).get("unit"):
            problems.append(f"{where}: no fieldConfig.defaults.unit")
        if not str(panel.get("description", "")).strip():
            problems.append(f"{where}: no description")
        if "gridPos" not in panel:
            problems.append(f"{where}: no gridPos")
        targets = panel.get("targets") or []
        if not targets:
            problems.append(f"{where}: no queries")
        for target in targets:
            if target.get("datasource", {}).get("uid") != "${datasource}":
                problems.append(f"{where} query {target.get('refId')}: datasource is not ${{datasource}}")
            for call in _RATE_CALL.finditer(target.get("expr", "")):
                arguments = _call_arguments(target["expr"], call.end())
                if "[$window]" not in arguments and "[$__range]" not in arguments:
                    problems.append(
                        f"{where} query {target.get('refId')}: {call.group(1)}(...) must use "
                        f"[$window] (>= 2 probe rounds) or [$__range], got {call.group(1)}({arguments})"
                    )
    return problems


def _call_arguments(expr: str, start: int) -> str:
    depth, i = 1, start
    while i < len(expr) and depth:
        depth += {"(": 1, ")": -1}.get(expr[i], 0)
        i += 1
    return expr[start : i - 1]


def unknown_metric_problems(dashboard: Mapping[str, Any], known: set[str]) -> list[str]:
    """Every metric an expression selects that is neither documented, recorded nor built in."""
    problems = []
    for where, expr in expressions(dashboard).items():
        unknown = sorted(metric_names(expr) - known)
        if unknown:
            problems.append(f"{where}: unknown metric(s) {unknown} (not in docs/metrics.md or rules/*.yml)")
    return problems


def promtool_problems(dashboard: Mapping[str, Any]) -> list[str]:
    """Parse every expression with ``promtool check rules`` (as one recording rule each)."""
    binary = shutil.which("promtool")
    if binary is None:
        return ["promtool is not installed: apt-get install prometheus"]
    exprs = expressions(dashboard)
    names = {f"dashboard:expr_{n}:check": where for n, where in enumerate(exprs)}
    rules = [
        {"record": record, "expr": substitute_variables(exprs[where])} for record, where in names.items()
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dashboard.rules.yml"
        path.write_text(yaml.safe_dump({"groups": [{"name": "dashboard", "rules": rules}]}), encoding="utf-8")
        result = subprocess.run(
            [binary, "check", "rules", str(path)], capture_output=True, text=True, timeout=60, check=False
        )
    if result.returncode == 0:
        return []
    output = result.stdout + result.stderr
    blamed = [f"{where}: {exprs[where]!r}" for record, where in names.items() if record in output]
    return [f"promtool check rules failed:\n{output.strip()}", *blamed]
