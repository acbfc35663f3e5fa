"""The Prometheus rules and their promtool tests, rendered from a small configuration (mixin-style).

The sources are ``exporter/generators/rulesource/canary.rules.yml`` and ``rulesource/tests/*_test.yml``:
ordinary rule and test files in which what a deployment may change is a named placeholder, as the
monitoring mixins' ``_config`` does (``up{${exporter_selector}} == 0``, ``runbook_url:
${runbook_base}#canaryexporterstale``, ``severity: ${severity_critical}``). Rendering substitutes the
values of one :class:`RulesConfig`; nothing else in the text changes (comments and layout included), and
an unknown placeholder is an error naming its line. The shipped ``rules/`` directory is the rendering with
the defaults (a test checks it is up to date); ``canary rules render`` writes a deployment's own.

Placeholders: every :class:`RulesConfig` field, plus ``${exporter_selector}``, ``${receiver_selector}``
and ``${alertmanager_selector}`` (``job="<that job>"``); ``${name:-text}`` is ``text`` when the value is
empty (the promtool tests use it for what the rules compute from a scrape address by default).

Example::

    config = RulesConfig(exporter_job="llm-canary", runbook_base="https://wiki.example/canary/runbook")
    text = render_text(SOURCE_RULES.read_text(), config, "canary.rules.yml")
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from exporter.generators.rulefile import SHIPPED_RULES, RuleFileError
from exporter.paths import REPO_ROOT

SOURCE_DIR = Path(__file__).parent / "rulesource"
SOURCE_RULES = SOURCE_DIR / "canary.rules.yml"
SHIPPED_DIR = SHIPPED_RULES.parent
ROLES = ("exporter", "receiver", "alertmanager")
SEVERITIES = ("critical", "warning", "info")
LIVE_ACTIONS = (
    "inform",
    "suspend",
)  # "suspend": the receiver acts on the live rule (an action label it knows)

_PLACEHOLDER = re.compile(r"\$\{([a-z_]+)(?::-([^}]*))?\}")
_JOB = re.compile(r"[A-Za-z0-9_.:/-]{1,128}")
_LABEL_VALUE = re.compile(r"[^\"'\\\s{}$]{1,64}")
_URL = re.compile(r"[^\s\"'#{}\\$<>]{1,512}")


@dataclass(frozen=True)
class RulesConfig:
    """What a deployment may change (the mixins' ``_config``); every field has the shipped default.

    ``runbook_base`` is where the team reads docs/runbook.md: each alert's ``runbook_url`` is
    ``<runbook_base>#<alert name in lower case>``. The shipped rules use the repository path; a deployment
    passes an absolute URL so the link in a notification can be clicked. ``receiver_url`` is the
    receiver's URL as people reach it (the links to its decisions); empty: the address Prometheus scrapes.
    ``live_action`` is what a route that stands out in the router's live verdicts asks of the receiver:
    ``inform`` (people only, the default) or ``suspend`` (live verdicts become a suspension trigger, with the
    rules' minimum volume and the receiver's capacity floor as brakes; docs/router.md).
    """

    exporter_job: str = "canary-exporter"
    receiver_job: str = "canary-receiver"
    alertmanager_job: str = "alertmanager"
    runbook_base: str = "docs/runbook.md"
    receiver_url: str = ""
    severity_critical: str = "critical"
    severity_warning: str = "warning"
    severity_info: str = "info"
    live_action: str = "inform"

    def __post_init__(self) -> None:
        problems = [
            f"{role}_job {getattr(self, f'{role}_job')!r} is not a job name (letters, digits, _ . : / -)"
            for role in ROLES
            if not _JOB.fullmatch(getattr(self, f"{role}_job"))
        ]
        problems += [
            f"severity_{s} {getattr(self, f'severity_{s}')!r} is not a plain label value"
            for s in SEVERITIES
            if not _LABEL_VALUE.fullmatch(getattr(self, f"severity_{s}"))
        ]
        if not _URL.fullmatch(self.runbook_base):
            problems.append(
                f"runbook_base {self.runbook_base!r} must be a URL or path without '#', spaces or quotes"
            )
        if self.receiver_url and not (
            _URL.fullmatch(self.receiver_url) and self.receiver_url.startswith(("http://", "https://"))
        ):
            problems.append(
                f"receiver_url {self.receiver_url!r} must be an http(s) URL without '#' or quotes"
            )
        if self.live_action not in LIVE_ACTIONS:
            problems.append(f"live_action {self.live_action!r} must be one of {', '.join(LIVE_ACTIONS)}")
        if problems:
            raise RuleFileError("; ".join(problems))

    @classmethod
    def from_mapping(cls, values: Mapping[str, object], where: str = "config") -> RulesConfig:
        """A configuration from a mapping (a YAML file's content), naming unknown keys and bad types."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise RuleFileError(
                f"{where}: unknown keys {', '.join(unknown)} (known: {', '.join(sorted(known))})"
            )
        bad = sorted(key for key, value in values.items() if not isinstance(value, str))
        if bad:
            raise RuleFileError(f"{where}: {', '.join(bad)}: expected a string")
        return cls(**{key: str(value) for key, value in values.items()})

    @property
    def is_default(self) -> bool:
        return self == RulesConfig()

    def values(self) -> dict[str, str]:
        """Every placeholder's value."""
        out = {key: str(value) for key, value in asdict(self).items()}
        out.update({f"{role}_selector": f'job="{getattr(self, f"{role}_job")}"' for role in ROLES})
        return out

    def flags(self) -> str:
        """The ``canary rules render`` flags that reproduce this configuration (written into every file)."""
        default = RulesConfig()
        flags = []
        for f in fields(self):
            value = getattr(self, f.name)
            if value != getattr(default, f.name):
                severity = f.name.removeprefix("severity_")
                flag = (
                    f"--severity {severity}={value}"
                    if severity != f.name
                    else f"--{f.name.replace('_', '-')} {value}"
                )
                flags.append(flag)
        return " ".join(flags) or "(defaults)"


def render_text(source: str, config: RulesConfig, where: str) -> str:
    """``source`` with every placeholder replaced; an unknown one is an error naming ``where`` and its line.

    Example::

        >>> render_text("up{${exporter_selector}} == 0", RulesConfig(exporter_job="x"), "t")
        'up{job="x"} == 0'
    """
    values = config.values()
    problems = [
        f"{where}:{source.count(chr(10), 0, m.start()) + 1}: unknown placeholder ${{{m.group(1)}}}"
        for m in _PLACEHOLDER.finditer(source)
        if m.group(1) not in values
    ]
    if problems:
        raise RuleFileError("\n".join(problems))
    return _PLACEHOLDER.sub(lambda m: values[m.group(1)] or (m.group(2) or ""), source)


def header(source: Path, config: RulesConfig) -> str:
    return (
        f"# GENERATED by `canary rules render` from {_shown(source)}: edit the source, then render again.\n"
        f"# Parameters: {config.flags()}\n"
    )


def rendered_files(config: RulesConfig, output: Path) -> dict[Path, str]:
    """Every file of one rendering under ``output``: the rule file and ``tests/*_test.yml``.

    The tests keep their ``rule_files: [../canary.rules.yml]``, so ``promtool test rules
    output/tests/*.yml`` proves the rendered rules in the deployment's own terms.
    """
    sources = [(SOURCE_RULES, output / SOURCE_RULES.name)]
    sources += [(t, output / "tests" / t.name) for t in sorted((SOURCE_DIR / "tests").glob("*_test.yml"))]
    return {
        target: header(source, config) + render_text(source.read_text("utf-8"), config, _shown(source))
        for source, target in sources
    }


def write_rendering(config: RulesConfig, output: Path) -> dict[Path, str]:
    """Write one rendering (``rendered_files``) under ``output``; returns what was written."""
    files = rendered_files(config, output)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return files


def _shown(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return f"exporter/generators/rulesource/{path.relative_to(SOURCE_DIR)}"
