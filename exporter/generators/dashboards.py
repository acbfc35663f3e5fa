"""Generates the Grafana dashboards in ``dashboards/`` from ``dashboards.yaml`` beside this file (the JSON
files are build output; edit the YAML).

Run ``python -m exporter.generators.dashboards`` after a change, ``... --check`` to verify the JSON is up
to date (tests/dashboards runs the same comparison). Every panel queries the ``datasource`` variable,
has a unit and a description, and uses the ``$window`` variable in every ``rate``/``increase``; the
tests enforce it. ``$__rate_interval`` (a few scrape intervals) is wrong here: exporter series change once
per probe round (30 minutes by default), so a window must span at least two rounds to see a change.

The YAML declares panel kinds (``kinds``: Grafana type, options, field defaults, target format, size) and per
dashboard its variables and panels, each a mapping whose first key is its kind and title::

    - stat: Providers discovered              # a kind of ``kinds``: the panel's title
      description: Endpoints discovered ...
      expr: sum(canary_model_providers{model=~"$model"})   # or targets: [{expr, legend}, ...]
      thresholds: [[null, green], [1, orange]]
      mappings: {"1": [suspended, red]}       # value: [text, colour]
      overrides: {provider: {links: [...]}}   # field name: {property: value}
      hide: [Time]                            # the table's organize transformation (rename: {...})

``- row: Title`` starts a row (``size``: its panels' default). An ``outcomes`` panel names a ``selector`` and
``by`` instead of a query: the last outcome of each contract as its code in the kind's ``mappings``.

Metric names are the contract in docs/metrics.md; recorded names come from rules/canary.rules.yml.

Example::

    >>> from exporter.generators.dashboards import build_all
    >>> sorted(build_all())
    ['canary-overview.json', 'canary-provider.json', 'canary-routability.json']
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Discriminator, Field, JsonValue, Tag, model_validator

from exporter.configkit import parse_duration
from exporter.engine.config import DEFAULT_EXPORTER_URL, DEFAULT_INTERVAL_SECONDS
from exporter.generators import write_or_check
from exporter.paths import REPO_ROOT

HERE = REPO_ROOT / "dashboards"
SPEC = Path(__file__).with_name("dashboards.yaml")
SCHEMA_VERSION = 39
DS: dict[str, JsonValue] = {"type": "prometheus", "uid": "${datasource}"}
TAGS: list[JsonValue] = ["provider-canary"]
GENERATED = "Generated from exporter/generators/dashboards.yaml; do not edit the JSON by hand."
REGENERATE = "python -m exporter.generators.dashboards"
Json = dict[str, JsonValue]
Mappings = dict[str, tuple[str, str]]  # value: (text, colour)
Steps = list[tuple[int | float | None, str]]  # (from value, colour); the first from None


class _Spec(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)


class _Fields(_Spec):
    """Field defaults a kind sets and a panel adds to (Grafana's names for noValue, min, max, decimals)."""

    unit: str | None = None
    thresholds: Steps | None = None
    mappings: Mappings | None = None
    noValue: str | None = None
    min: int | float | None = None
    max: int | float | None = None
    decimals: int | None = None
    custom: Json = {}  # fieldConfig.defaults.custom
    options: Json = {}


class Kind(_Fields):
    """What every panel of one kind shares: its Grafana type, field defaults, options, target format, size."""

    type: str
    unit: str = "short"  # unless the panel says
    colour: str = "palette-classic"
    format: Literal["time_series", "table", "heatmap"] = "time_series"  # a table's queries are instant
    size: tuple[int, int] = (12, 8)  # width, height in grid units, unless the row or the panel says


class Target(_Spec):
    expr: str
    legend: str = ""


class Override(_Spec):
    """The properties a panel sets on one field (a table column or a series)."""

    unit: str | None = None
    links: list[Json] | None = None
    color: Json | None = None
    mappings: Mappings | None = None
    cell_options: Json | None = Field(None, alias="custom.cellOptions")


class Panel(_Fields):
    """One panel: its kind (a key of ``kinds``), title, what it shows, queries and what differs."""

    kind: str
    title: str
    description: str
    expr: str | None = None  # one query (``legend`` its legend), or
    legend: str = ""
    targets: list[Target] = []  # several (targets A, B, ...)
    selector: str = ""  # an outcomes panel: the series ...
    by: str = ""  # ... and the labels of one row of the state timeline
    size: tuple[int, int] | None = None  # without it, the row's, else the kind's
    overrides: dict[str, Override] = {}  # field name: {property: value}
    merge: bool = False  # merge the queries' tables into one
    hide: list[str] = []  # the table's fields not shown ...
    rename: dict[str, str] = {}  # ... and the headers of the others

    @model_validator(mode="before")
    @classmethod
    def _kind_key(cls, data: object) -> object:
        """``{stat: Title, ...}`` is ``{kind: stat, title: Title, ...}``: the first key names the kind."""
        if isinstance(data, dict) and data and "kind" not in data:
            kind, title = next(iter(data.items()))
            data = {"kind": kind, "title": title} | {k: v for k, v in data.items() if k != kind}
        return data

    @model_validator(mode="after")
    def _one_query_form(self) -> Panel:
        if [bool(self.expr), bool(self.targets), bool(self.selector)].count(True) != 1:
            raise ValueError(f"panel {self.title!r}: give one of expr, targets, selector")
        return self


class Row(_Spec):
    """A collapsible group of panels (it queries nothing, so has no unit); ``size``: its panels' default."""

    row: str
    size: tuple[int, int] | None = None


class Variable(_Spec):
    """A variable filled from ``label_values(...)``; multi-valued ones offer All as ``.+``."""

    name: str
    label: str
    query: str
    multi: bool


def _item(data: object) -> str:
    return "row" if isinstance(data, dict) and "row" in data else "panel"


class Dashboard(_Spec):
    title: str
    description: str
    variables: list[Variable]
    evidence: bool = False  # the exporter URL variable and the link to its evidence of the model and provider
    time: str = "now-24h"
    panels: list[Annotated[Annotated[Row, Tag("row")] | Annotated[Panel, Tag("panel")], Discriminator(_item)]]


class Spec(_Spec):
    kinds: dict[str, Kind]
    dashboards: dict[str, Dashboard]


def outcome_code_expr(codes: Mappings, selector: str, by: str) -> str:
    """The last round's outcome of each contract as a number (``codes``: ``{code: (outcome, colour)}``).

    ``canary_probe_last_outcome`` has one series (value 1) per contract; this selects it by outcome and turns
    its ``outcome`` label into the value, so a state timeline shows one row per contract.

    Example::

        >>> codes = {"1": ("pass", "green"), "2": ("fail", "red")}
        >>> outcome_code_expr(codes, 'model="m"', "contract").count(" or ")
        1
    """
    parts = [
        f'(canary_probe_last_outcome{{{selector}, outcome="{name}"}} == 1) * {code}'
        for code, (name, _) in codes.items()
    ]
    body = "\n  or ".join(parts)
    return f"max by ({by}) (\n  {body}\n)"


def value_text(mapping: Mappings) -> list[JsonValue]:
    """Grafana value mappings from ``{value: (text, colour)}``."""
    options: Json = {
        value: {"text": text, "color": colour, "index": i}
        for i, (value, (text, colour)) in enumerate(mapping.items())
    }
    return [{"type": "value", "options": options}]


def thresholds(steps: Steps) -> Json:
    return {"mode": "absolute", "steps": [{"value": v, "color": c} for v, c in steps]}


def _targets(panel: Panel, kind: Kind) -> list[JsonValue]:
    if panel.selector:
        codes = kind.mappings or {}
        queries = [Target(expr=outcome_code_expr(codes, panel.selector, panel.by), legend=panel.legend)]
    else:
        queries = [Target(expr=panel.expr, legend=panel.legend)] if panel.expr else panel.targets
    instant = kind.format == "table"
    return [
        {
            "refId": chr(ord("A") + i),
            "datasource": DS,
            "editorMode": "code",
            "expr": q.expr,
            "legendFormat": q.legend or "__auto",
            "range": not instant,
            "instant": instant,
            "format": kind.format,
        }
        for i, q in enumerate(queries)
    ]


def _defaults(kind: Kind, panel: Panel) -> Json:
    steps, mappings = panel.thresholds or kind.thresholds, panel.mappings or kind.mappings
    defaults: Json = {
        "unit": panel.unit or kind.unit,
        "color": {"mode": kind.colour},
        "thresholds": thresholds(steps or [(None, "green")]),
        "mappings": value_text(mappings) if mappings else [],
    }
    for key in ("noValue", "min", "max", "decimals"):
        if (value := getattr(panel, key)) is not None or (value := getattr(kind, key)) is not None:
            defaults[key] = value
    if custom := kind.custom | panel.custom:
        defaults["custom"] = custom
    return defaults


def _override(name: str, override: Override) -> JsonValue:
    values: Json = override.model_dump(exclude_none=True, by_alias=True)
    if override.mappings:
        values["mappings"] = value_text(override.mappings)
    return {
        "matcher": {"id": "byName", "options": name},
        "properties": [{"id": key, "value": value} for key, value in values.items()],
    }


def _panel(spec: Spec, panel: Panel, n: int, grid: Json) -> Json:
    kind = spec.kinds[panel.kind]
    built: Json = {
        "id": n,
        "type": kind.type,
        "title": panel.title,
        "description": panel.description,
        "datasource": DS,
        "gridPos": grid,
        "fieldConfig": {
            "defaults": _defaults(kind, panel),
            "overrides": [_override(name, properties) for name, properties in panel.overrides.items()],
        },
        "options": kind.options | panel.options,
        "targets": _targets(panel, kind),
    }
    organize: Json = {"excludeByName": dict.fromkeys(panel.hide, True), "renameByName": dict(panel.rename)}
    transformations: list[JsonValue] = [{"id": "merge", "options": {}}] if panel.merge else []
    if panel.hide or panel.rename:
        transformations.append({"id": "organize", "options": organize})
    if transformations:
        built["transformations"] = transformations
    return built


def _layout(spec: Spec, items: Iterable[Row | Panel]) -> list[JsonValue]:
    """Flow panels left to right, 24 grid units per line; a row starts a new line."""
    panels: list[JsonValue] = []
    x = y = line_h = 0
    row_size: tuple[int, int] | None = None
    for n, item in enumerate(items, start=1):
        if isinstance(item, Row):
            y += line_h
            grid: Json = {"x": 0, "y": y, "w": 24, "h": 1}
            panels.append(
                {"id": n, "type": "row", "title": item.row, "collapsed": False, "gridPos": grid, "panels": []}
            )
            x, line_h, y, row_size = 0, 0, y + 1, item.size
            continue
        w, h = item.size or row_size or spec.kinds[item.kind].size
        if x + w > 24:
            x, y, line_h = 0, y + line_h, 0
        panels.append(_panel(spec, item, n, {"x": x, "y": y, "w": w, "h": h}))
        x += w
        line_h = max(line_h, h)
    return panels


def _variable(name: str, label: str, kind: str, query: JsonValue, **fields: JsonValue) -> Json:
    """A dashboard variable, shown, of one value unless ``fields`` say ``multi``."""
    shown: Json = {"current": {}, "hide": 0, "includeAll": False, "multi": False, "options": []}
    return {"name": name, "label": label, "type": kind, "query": query, **shown, **fields}


def fixed_variable(
    name: str, label: str, description: str, kind: str, values: Sequence[str], current: str
) -> Json:
    """A variable whose values are written in the dashboard (custom list or textbox), not queried."""
    return _variable(
        name,
        label,
        kind,
        ",".join(values),
        description=description,
        current={"text": current, "value": current, "selected": True},
        options=[{"text": value, "value": value, "selected": value == current} for value in values],
    )


def query_variable(variable: Variable) -> Json:
    query, multi = variable.query, variable.multi
    editor: Json = {"query": query, "refId": "PrometheusVariableQueryEditor-VariableQuery", "qryType": 1}
    built = _variable(
        variable.name, variable.label, "query", editor, datasource=DS, definition=query, refresh=2
    )
    built |= {"includeAll": multi, "multi": multi, "regex": "", "sort": 1}
    return {**built, "allValue": ".+"} if multi else built


DATASOURCE_VARIABLE = _variable("datasource", "Data source", "datasource", "prometheus", refresh=1, regex="")
# The rate/increase window: by default the shortest choice spanning two rounds at the default round
# interval, in which a once-per-round counter is seen to change (lower it for the demo's 10-second rounds).
WINDOW_OPTIONS = ("1m", "5m", "10m", "30m", "1h", "2h", "6h", "12h", "1d")
DEFAULT_WINDOW = next(w for w in WINDOW_OPTIONS if parse_duration(w) >= 2 * DEFAULT_INTERVAL_SECONDS)
WINDOW_VARIABLE = fixed_variable(
    "window",
    "Window (>= 2 rounds)",
    "Range of every rate/increase: at least two probe rounds (2 x rounds.interval).",
    "custom",
    WINDOW_OPTIONS,
    DEFAULT_WINDOW,
)
# Where the provider drill-down links the exporter's evidence endpoint (a textbox: set it to your exporter).
EXPORTER_URL_VARIABLE = fixed_variable(
    "exporter_url",
    "Exporter URL",
    "Base URL of the exporter; the evidence links open $exporter_url/v1/evidence.",
    "textbox",
    [DEFAULT_EXPORTER_URL],
    DEFAULT_EXPORTER_URL,
)
EVIDENCE_LINK: Json = {
    "title": "Evidence: the probes of this provider (exporter /v1/evidence)",
    "type": "link",
    "icon": "doc",
    "url": "${exporter_url}/v1/evidence?model=${model:percentencode}&provider=${provider:percentencode}",
    "targetBlank": True,
    "tooltip": "Open the exporter's evidence history for this model and provider",
}
DASHBOARDS_LINK: Json = {
    "title": "Provider Canary",
    "type": "dashboards",
    "tags": TAGS,
    "asDropdown": True,
    "includeVars": True,
    "keepTime": True,
}
ANNOTATIONS: Json = {
    "builtIn": 1,
    "datasource": {"type": "grafana", "uid": "-- Grafana --"},
    "enable": True,
    "hide": True,
    "iconColor": "rgba(0, 211, 255, 1)",
    "name": "Annotations & Alerts",
    "type": "dashboard",
}


def dashboard(spec: Spec, uid: str, board: Dashboard) -> Json:
    variables = [query_variable(v) for v in board.variables] + (
        [EXPORTER_URL_VARIABLE] if board.evidence else []
    )
    return {
        "uid": uid,
        "title": board.title,
        "description": f"{board.description} {GENERATED}",
        "tags": TAGS,
        "timezone": "browser",
        "editable": True,
        "graphTooltip": 1,
        "schemaVersion": SCHEMA_VERSION,
        "version": 1,
        "refresh": "1m",
        "time": {"from": board.time, "to": "now"},
        "timepicker": {},
        "fiscalYearStartMonth": 0,
        "liveNow": False,
        "annotations": {"list": [ANNOTATIONS]},
        "links": [DASHBOARDS_LINK, *([EVIDENCE_LINK] if board.evidence else [])],
        "templating": {"list": [DATASOURCE_VARIABLE, *variables, WINDOW_VARIABLE]},
        "panels": _layout(spec, board.panels),
    }


def load_spec(path: Path = SPEC) -> Spec:
    """The dashboards' declaration; a panel of an unknown kind is an error naming it."""
    spec = Spec.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))
    for uid, board in spec.dashboards.items():
        for panel in board.panels:
            if isinstance(panel, Panel) and panel.kind not in spec.kinds:
                raise ValueError(f"{path.name}: {uid}: panel {panel.title!r}: unknown kind {panel.kind!r}")
    return spec


def build_all(spec: Spec | None = None) -> dict[str, Json]:
    """Every dashboard by file name."""
    spec = spec or load_spec()
    return {f"{uid}.json": dashboard(spec, uid, board) for uid, board in spec.dashboards.items()}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if a dashboard JSON is out of date")
    args = parser.parse_args(argv)
    try:
        built = build_all()
    except ValueError as error:  # a pydantic ValidationError among them
        print(f"{SPEC}: {error}", file=sys.stderr)
        return 2
    files = {HERE / name: json.dumps(doc, indent=2, ensure_ascii=False) + "\n" for name, doc in built.items()}
    return write_or_check(files, check=args.check, regenerate=REGENERATE)


if __name__ == "__main__":
    sys.exit(main())
