"""Render the shipped rules for another deployment: job names, runbook base, severity routing (mixin-style).

The shipped ``rules/canary.rules.yml`` is the source and, at the same time, the rendering with the defaults:
people edit it by hand (comments, order and layout are theirs), and ``canary rules render`` rewrites only
the parameters, structurally:

- every ``job`` label matcher inside a PromQL selector (``up{job="canary-exporter"}``) whose value is one of
  the default job names gets the deployment's name; string literals outside selectors
  (``label_replace(..., "job", ...)``), grouping clauses (``on (job, instance)``) and templates are left
  alone;
- every alert's ``runbook_url`` becomes ``<runbook base>#<alert name in lower case>``;
- ``severity`` values can be mapped (``critical=page``) and static labels added to every alert
  (``team=llm``), so a shared Alertmanager can route the alerts.

The promtool unit tests are rendered with the same parameters (series selectors, expected labels, expected
runbook URLs), so ``promtool test rules`` proves the rendered files in the deployment's own terms. With the
default parameters the rendering of the shipped file is the shipped file, byte for byte; :func:`check_source`
refuses a source that does not use the defaults (a test runs it), so the two can never drift apart.

Example::

    params = RenderParams(jobs={"exporter": "llm-canary"}, runbook_base="https://wiki.example/runbook")
    text = render_rules_text(DEFAULT_RULES.read_text(), params)
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from exporter.generators.rulefile import PROMQL_STRING, SHIPPED_RULES, RuleFileError, display_path, dump_yaml
from exporter.paths import REPO_ROOT

DEFAULT_RULES = SHIPPED_RULES
DEFAULT_RULE_TESTS_DIR = REPO_ROOT / "rules" / "tests"
# Where each runbook_url points unless a deployment says otherwise: the runbook inside the repository
# (a path every checkout has; a deployment passes the URL where its team reads the docs).
DEFAULT_RUNBOOK_BASE = "docs/runbook.md"
# Role → default Prometheus job name (config/prometheus.yml; exporter/devtools/pipeline/configs.py: the same).
DEFAULT_JOBS: Mapping[str, str] = {
    "exporter": "canary-exporter",
    "receiver": "canary-receiver",
    "alertmanager": "alertmanager",
}
SEVERITIES = ("critical", "warning", "info")

_SELECTOR_BODY = re.compile(r"\{(?!\{)((?:[^{}\"'`]|\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')*)\}")
_MATCHER = re.compile(
    r"(?P<name>[a-zA-Z_][a-zA-Z0-9_]*)\s*(?P<op>=~|!~|!=|=)\s*(?P<value>\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*')"
)
_TEMPLATE = re.compile(r"\{\{.*?\}\}", re.DOTALL)
_LABEL_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_]*$")


@dataclass(frozen=True)
class RenderParams:
    """What a deployment may change. Empty/omitted fields keep the shipped defaults.

    Example::

        RenderParams(jobs={"exporter": "llm-canary", "receiver": "quarantine"},
                     runbook_base="https://git.example/ops/canary/-/blob/main/docs/runbook.md",
                     severities={"critical": "page"}, labels={"team": "llm"})
    """

    jobs: Mapping[str, str] = field(default_factory=dict)
    runbook_base: str = DEFAULT_RUNBOOK_BASE
    severities: Mapping[str, str] = field(default_factory=dict)
    labels: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        problems = [f"unknown job role {role!r}" for role in self.jobs if role not in DEFAULT_JOBS]
        problems += [f"job name for {role} is empty" for role, job in self.jobs.items() if not job]
        problems += [
            f"unknown severity {s!r} (one of {', '.join(SEVERITIES)})"
            for s in self.severities
            if s not in SEVERITIES
        ]
        problems += [f"severity {s} mapped to an empty value" for s, v in self.severities.items() if not v]
        for name in self.labels:
            if not _LABEL_NAME.match(name) or name.startswith("__"):
                problems.append(f"label name {name!r} is not a valid Prometheus label name")
            if name in {"alertname", "severity", "action"}:
                problems.append(f"label {name!r} is owned by the rules and cannot be added")
        if not self.runbook_base or "#" in self.runbook_base:
            problems.append(f"runbook base {self.runbook_base!r} must be a non-empty URL or path without '#'")
        if problems:
            raise RuleFileError("; ".join(problems))

    @property
    def job_names(self) -> dict[str, str]:
        """Default job name → this deployment's job name."""
        return {DEFAULT_JOBS[role]: self.jobs.get(role, DEFAULT_JOBS[role]) for role in DEFAULT_JOBS}

    @property
    def is_default(self) -> bool:
        return self == RenderParams()

    def runbook_url(self, alert: str) -> str:
        return f"{self.runbook_base}#{alert.lower()}"

    def series_labels(self, labels: Mapping[str, Any]) -> dict[str, Any]:
        """A series' labels with its ``job`` renamed (the only label the deployment's scrape config sets)."""
        out = dict(labels)
        if "job" in out:
            out["job"] = self.job_names.get(str(out["job"]), out["job"])
        return out

    def alert_labels(self, labels: Mapping[str, Any]) -> dict[str, Any]:
        """An alert's labels (rule labels or expected test labels) after severity mapping and extra labels."""
        out = self.series_labels(labels)
        if "severity" in out:
            out["severity"] = self.severities.get(str(out["severity"]), out["severity"])
        return {**out, **self.labels}


# ---------------------------------------------------------------- PromQL-aware rewriting


def rewrite_job_matchers(expr: str, job_names: Mapping[str, str]) -> str:
    """``expr`` with every ``job`` matcher naming a known job renamed; everything else verbatim.

    Only label matchers inside selector braces are touched, outside template actions and string literals.

    Example::

        >>> rewrite_job_matchers('up{job="canary-exporter"} == 0 or absent(up{job="canary-exporter"})',
        ...                      {"canary-exporter": "llm"})
        'up{job="llm"} == 0 or absent(up{job="llm"})'
    """
    return map_job_matchers(expr, lambda value: job_names.get(value, value))


def job_matcher_values(expr: str) -> list[str]:
    """The values of every ``job`` matcher in ``expr``'s selectors, in order.

    Example::

        >>> job_matcher_values('up{job="a"} or label_replace(x, "job", "b", "", "")')
        ['a']
    """
    seen: list[str] = []

    def remember(value: str) -> str:
        seen.append(value)
        return value

    map_job_matchers(expr, remember)
    return seen


# In one scan, leftmost first: a template action or a string literal (copied verbatim) or a selector body.
_CODE = re.compile(f"{_TEMPLATE.pattern}|{PROMQL_STRING.pattern}|{_SELECTOR_BODY.pattern}", re.DOTALL)


def map_job_matchers(expr: str, rename: Callable[[str], str]) -> str:
    """``expr`` with each selector's ``job`` matcher value passed through ``rename``.

    Template actions (``{{ ... }}`` in annotations) are copied verbatim; so are string literals outside
    braces, so a quote starts a literal in which a brace is text, not a selector.
    """

    def matcher(match: re.Match[str]) -> str:
        if match.group("name") != "job":
            return match.group(0)
        quote, value = match.group("value")[0], match.group("value")[1:-1]
        return f"{match.group('name')}{match.group('op')}{quote}{rename(value)}{quote}"

    def token(match: re.Match[str]) -> str:
        body = match.group(1)
        return match.group(0) if body is None else "{" + _MATCHER.sub(matcher, body) + "}"

    return _CODE.sub(token, expr)


def selector_labels(selector: str) -> dict[str, str]:
    """The equality matchers of a series selector such as promtool's ``series:`` strings.

    Example::

        >>> selector_labels('up{job="a",instance="b"}')
        {'__name__': 'up', 'job': 'a', 'instance': 'b'}
    """
    name, _, rest = selector.partition("{")
    labels = {"__name__": name.strip()} if name.strip() else {}
    for match in _MATCHER.finditer(rest.rstrip().removesuffix("}")):
        labels[match.group("name")] = match.group("value")[1:-1]
    return labels


def format_selector(labels: Mapping[str, str]) -> str:
    """The inverse of :func:`selector_labels` (values with ``"`` or ``\\`` are escaped)."""
    name = labels.get("__name__", "")
    body = ",".join(f'{key}="{_escape(value)}"' for key, value in labels.items() if key != "__name__")
    return f"{name}{{{body}}}"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


# ---------------------------------------------------------------- rule files


def check_source(document: Mapping[str, Any], where: str = "rules") -> None:
    """Refuse a source that does not use the defaults, so rendering with them is the identity.

    Every ``runbook_url`` must be ``DEFAULT_RUNBOOK_BASE#<alert in lower case>`` and every ``job`` matcher a
    default job name (a new job is a new ``RenderParams`` role, not a hard-coded name).

    Example::

        check_source(yaml.safe_load(DEFAULT_RULES.read_text()))
    """
    problems: list[str] = []
    defaults = RenderParams()
    for group in document.get("groups") or []:
        for rule in group.get("rules") or []:
            name = rule.get("alert") or rule.get("record")
            for match in job_matcher_values(str(rule.get("expr", ""))):
                if match not in DEFAULT_JOBS.values():
                    problems.append(
                        f"{where}: {name}: job matcher {match!r} is not a default job "
                        f"({', '.join(DEFAULT_JOBS.values())}); add a role to RenderParams"
                    )
            if "alert" in rule:
                url = (rule.get("annotations") or {}).get("runbook_url")
                expected = defaults.runbook_url(str(name))
                if url != expected:
                    problems.append(f"{where}: {name}: runbook_url is {url!r}, expected {expected!r}")
    if problems:
        raise RuleFileError("\n".join(problems))


def render_rules(document: Mapping[str, Any], params: RenderParams) -> dict[str, Any]:
    """A rule-file document rewritten for ``params`` (the input is not modified).

    Example::

        render_rules(yaml.safe_load(DEFAULT_RULES.read_text()), RenderParams(jobs={"exporter": "x"}))
    """
    out = copy.deepcopy(dict(document))
    jobs = params.job_names
    for group in out.get("groups") or []:
        for rule in group.get("rules") or []:
            if "expr" in rule:
                rule["expr"] = rewrite_job_matchers(str(rule["expr"]), jobs)
            if "alert" in rule:
                rule["labels"] = params.alert_labels(rule.get("labels") or {})
                annotations = dict(rule.get("annotations") or {})
                annotations["runbook_url"] = params.runbook_url(str(rule["alert"]))
                rule["annotations"] = annotations
    return out


def render_rule_tests(document: Mapping[str, Any], params: RenderParams) -> dict[str, Any]:
    """A promtool test document rewritten like :func:`render_rules` rewrites the rules it tests.

    Example::

        render_rule_tests(yaml.safe_load(Path("rules/tests/fleet_alerts_test.yml").read_text()), params)
    """
    out = copy.deepcopy(dict(document))
    jobs = params.job_names
    for test in out.get("tests") or []:
        for series in test.get("input_series") or []:
            series["series"] = format_selector(params.series_labels(selector_labels(series["series"])))
        for case in test.get("alert_rule_test") or []:
            for alert in case.get("exp_alerts") or []:
                alert["exp_labels"] = params.alert_labels(alert.get("exp_labels") or {})
                annotations = alert.get("exp_annotations") or {}
                if "runbook_url" in annotations:
                    annotations["runbook_url"] = params.runbook_url(str(case["alertname"]))
        for case in test.get("promql_expr_test") or []:
            case["expr"] = rewrite_job_matchers(str(case["expr"]), jobs)
            for sample in case.get("exp_samples") or []:
                if "labels" not in sample:
                    continue
                labels = selector_labels(str(sample["labels"]))
                name = labels.pop("__name__", "")
                relabel = params.alert_labels if name.startswith("ALERTS") else params.series_labels
                sample["labels"] = format_selector({"__name__": name, **relabel(labels)})
    return out


def dump(document: Mapping[str, Any], header: Iterable[str]) -> str:
    body = dump_yaml(document)
    return "".join(f"# {line}\n" if line else "#\n" for line in header) + body


def render_rules_text(source: str, params: RenderParams, source_name: str = "rules/canary.rules.yml") -> str:
    """The rendered rule file's text: the source itself for the defaults, otherwise a generated file.

    Example::

        render_rules_text(DEFAULT_RULES.read_text(), RenderParams())   # == the shipped file
    """
    document = _load(source, source_name)
    check_source(document, source_name)
    if params.is_default:
        return source
    return dump(render_rules(document, params), _header(source_name, params))


def render_rule_tests_text(source: str, params: RenderParams, source_name: str) -> str:
    """A promtool test file's text rendered for ``params`` (the source itself for the defaults)."""
    if params.is_default:
        return source
    return dump(render_rule_tests(_load(source, source_name), params), _header(source_name, params))


def _load(source: str, where: str) -> dict[str, Any]:
    try:
        document = yaml.safe_load(source)
    except yaml.YAMLError as error:
        raise RuleFileError(f"{where}: cannot parse YAML: {error}") from error
    if not isinstance(document, dict):
        raise RuleFileError(f"{where}: expected a mapping at the top level")
    return document


def _header(source_name: str, params: RenderParams) -> list[str]:
    return [
        f"GENERATED by `canary rules render` from {source_name}: do not edit, render again.",
        "Parameters: " + params_summary(params),
        "",
    ]


def params_summary(params: RenderParams) -> str:
    """The command-line flags that reproduce ``params`` (written into every generated file)."""
    flags = [f"--{role}-job {job}" for role, job in sorted(params.jobs.items())]
    flags.append(f"--runbook-base {params.runbook_base}")
    flags += [f"--severity {key}={value}" for key, value in sorted(params.severities.items())]
    flags += [f"--label {key}={value}" for key, value in sorted(params.labels.items())]
    return " ".join(flags)


def render_directory(
    params: RenderParams,
    output: Path,
    *,
    rules: Path = DEFAULT_RULES,
    tests_dir: Path | None = DEFAULT_RULE_TESTS_DIR,
) -> list[Path]:
    """Write the rendered rule file (and, with ``tests_dir``, its promtool tests) under ``output``.

    The tests land in ``output/tests/`` with their ``rule_files`` unchanged (``../<rule file>``), so
    ``promtool test rules output/tests/*.yml`` runs them against the rendered rules.

    Example::

        render_directory(RenderParams(jobs={"exporter": "x"}), Path("out"))
    """
    written = []
    output.mkdir(parents=True, exist_ok=True)
    target = output / rules.name
    target.write_text(render_rules_text(rules.read_text(encoding="utf-8"), params, display_path(rules)))
    written.append(target)
    if tests_dir is not None:
        (output / "tests").mkdir(exist_ok=True)
        for test in sorted(tests_dir.glob("*_test.yml")):
            rendered = output / "tests" / test.name
            rendered.write_text(
                render_rule_tests_text(test.read_text(encoding="utf-8"), params, display_path(test))
            )
            written.append(rendered)
    return written
