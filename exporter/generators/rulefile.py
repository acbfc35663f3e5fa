"""Prometheus rule files read into values, and recording rules inlined into the expressions that use them.

Inlining lets the same alerts run where no Prometheus ruler records the ``level:metric:operations`` series
(Grafana-managed alerting): every use of a recorded name is replaced by its parenthesised expression. A
recorded name used with a selector, range or offset cannot be inlined textually and is refused.

Example::

    groups = load_rule_groups(Path("rules/canary.rules.yml"))
    recordings = recording_exprs(groups)
    inline_recorded(":canary_probe_failing_pairs:ratio >= 0.5", recordings)
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Annotated

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, Discriminator, Field, Tag, ValidationError

from exporter.paths import REPO_ROOT
from exporter.web.models import problems

SHIPPED_RULES = REPO_ROOT / "rules" / "canary.rules.yml"
# A PromQL string literal (double, single or back quotes): copied verbatim by every rewrite of expressions.
PROMQL_STRING = re.compile(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`')


class RuleFileError(ValueError):
    """A rule file is unreadable or malformed, or an expression cannot be inlined."""


class _Rule(BaseModel):
    model_config = ConfigDict(frozen=True, validate_by_name=True, coerce_numbers_to_str=True)

    expr: Annotated[str, AfterValidator(str.strip)]
    labels: Mapping[str, str] = {}


class RecordingRule(_Rule):
    record: str


class AlertingRule(_Rule):
    alert: str
    for_: str = Field("0s", alias="for")
    keep_firing_for: str | None = None
    annotations: Mapping[str, str] = {}


def _kind(rule: object) -> str | None:
    if isinstance(rule, dict):
        return next((key for key in ("record", "alert") if key in rule), None)
    return "record" if isinstance(rule, RecordingRule) else "alert"


class RuleGroup(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    rules: tuple[
        Annotated[
            Annotated[RecordingRule, Tag("record")] | Annotated[AlertingRule, Tag("alert")],
            Discriminator(
                _kind, custom_error_type="rule", custom_error_message="neither 'record' nor 'alert'"
            ),
        ],
        ...,
    ] = ()

    @property
    def alerts(self) -> tuple[AlertingRule, ...]:
        return tuple(rule for rule in self.rules if isinstance(rule, AlertingRule))

    @property
    def recordings(self) -> tuple[RecordingRule, ...]:
        return tuple(rule for rule in self.rules if isinstance(rule, RecordingRule))


class _RuleFile(BaseModel):
    groups: tuple[RuleGroup, ...]


def load_rule_groups(path: Path) -> tuple[RuleGroup, ...]:
    """Every group of one rule file, in file order, with clear errors for a malformed file.

    Example::

        [g.name for g in load_rule_groups(Path("rules/canary.rules.yml"))]   # ['canary.recording', ...]
    """
    try:
        document = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as error:
        raise RuleFileError(f"{path}: cannot read rule file: {error}") from error
    try:
        return _RuleFile.model_validate(document).groups
    except ValidationError as error:
        raise RuleFileError(f"{path}: {'; '.join(problems(error, _RuleFile))}") from None


def recording_exprs(groups: Sequence[RuleGroup]) -> dict[str, str]:
    """Recorded name → expression, across all groups (recording rules with extra labels are refused).

    Example::

        recording_exprs(groups)["model_provider:canary_probe_failing_streak:max"]
    """
    exprs: dict[str, str] = {}
    for group in groups:
        for rule in group.recordings:
            if rule.labels:
                raise RuleFileError(f"{rule.record}: recording rules with labels cannot be inlined")
            if rule.record in exprs:
                raise RuleFileError(f"{rule.record}: recorded by more than one rule")
            exprs[rule.record] = rule.expr
    return exprs


# String literals are copied verbatim; anything else is scanned for recorded names.
_AFTER_FORBIDDEN = re.compile(r"\s*(\{|\[|offset\b|@)")


def inline_recorded(expr: str, recordings: Mapping[str, str]) -> str:
    """``expr`` with every recorded name replaced by its (recursively inlined) expression in parentheses.

    Example::

        >>> inline_recorded("a:b:c >= 2", {"a:b:c": "max by (x) (b)"})
        '(max by (x) (b)) >= 2'
    """
    return _inline(expr, recordings, stack=())


def _inline(expr: str, recordings: Mapping[str, str], stack: tuple[str, ...]) -> str:
    if not recordings:
        return expr
    names = "|".join(re.escape(name) for name in sorted(recordings, key=len, reverse=True))
    # A string literal (copied verbatim) or, in group 1, a recorded name.
    token = re.compile(PROMQL_STRING.pattern + r"|(?<![\w:])(" + names + r")(?![\w:])")

    def replace(match: re.Match[str]) -> str:
        name = match.group(1)
        if name is None:
            return match.group(0)
        if _AFTER_FORBIDDEN.match(expr, match.end()):
            raise RuleFileError(
                f"{name}: used with a selector, range, offset or @ modifier; refer to the recorded name bare "
                "so it can be inlined, or write the expression out"
            )
        if name in stack:
            raise RuleFileError(
                f"{name}: recording rules refer to each other in a cycle: {' -> '.join(stack)}"
            )
        return "(" + _inline(recordings[name], recordings, (*stack, name)) + ")"

    return token.sub(replace, expr)


class _Dumper(yaml.SafeDumper):
    """Multi-line strings (PromQL, templates) as literal blocks, so rendered files stay reviewable."""


def _represent_str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    style = "|" if "\n" in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _represent_str)


def dump_yaml(document: Mapping[str, object]) -> str:
    """A generated YAML document: keys in insertion order, long lines kept, multi-line strings as blocks.

    Example::

        >>> print(dump_yaml({"alert": "CanaryExporterDown", "for": "5m"}), end="")
        alert: CanaryExporterDown
        for: 5m
    """
    return yaml.dump(dict(document), Dumper=_Dumper, sort_keys=False, width=4096, allow_unicode=True)


def display_path(path: Path) -> str:
    """``path`` as generated headers name it: relative to the checkout when inside it, else as given."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)
