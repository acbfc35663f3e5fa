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
from pathlib import Path
from typing import Annotated

from exporter.configkit import ConfigModel, What, choice, matching
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


def _receiver_url(value: object) -> bool:
    """Empty (the scrape address), or an http(s) URL that a rule's text can hold as it is."""
    return value == "" or (
        isinstance(value, str) and bool(_URL.fullmatch(value)) and value.startswith(("http://", "https://"))
    )


JobName = Annotated[str, matching(_JOB, "a job name (letters, digits, _ . : / -)")]
LabelValue = Annotated[str, matching(_LABEL_VALUE, "a plain label value (no quotes, spaces, braces or $)")]


class RulesConfig(ConfigModel):
    """What a deployment may change (the mixins' ``_config``); every field has the shipped default.

    ``runbook_base`` is where the team reads docs/runbook.md: each alert's ``runbook_url`` is
    ``<runbook_base>#<alert name in lower case>``. The shipped rules use the repository path; a deployment
    passes an absolute URL so the link in a notification can be clicked. ``receiver_url`` is the
    receiver's URL as people reach it (the links to its decisions); empty: the address Prometheus scrapes.
    ``live_action`` is what a route that stands out in the router's live verdicts asks of the receiver:
    ``inform`` (people only, the default) or ``suspend`` (live verdicts become a suspension trigger, with the
    rules' minimum volume and the receiver's capacity floor as brakes; docs/router.md).
    """

    exporter_job: JobName = "canary-exporter"
    receiver_job: JobName = "canary-receiver"
    alertmanager_job: JobName = "alertmanager"
    runbook_base: Annotated[str, matching(_URL, "a URL or path without '#', spaces or quotes")] = (
        "docs/runbook.md"
    )
    receiver_url: Annotated[str, What("an http(s) URL without '#' or quotes", _receiver_url)] = ""
    severity_critical: LabelValue = "critical"
    severity_warning: LabelValue = "warning"
    severity_info: LabelValue = "info"
    live_action: Annotated[str, choice(LIVE_ACTIONS)] = "inform"

    @property
    def is_default(self) -> bool:
        return self == RulesConfig()

    def values(self) -> dict[str, str]:
        """Every placeholder's value."""
        out = {key: str(value) for key, value in self.model_dump().items()}
        out.update({f"{role}_selector": f'job="{getattr(self, f"{role}_job")}"' for role in ROLES})
        return out

    def flags(self) -> str:
        """The ``canary rules render`` flags that reproduce this configuration (written into every file)."""
        flags = [
            f"--severity {name.removeprefix('severity_')}={value}"
            if name.startswith("severity_")
            else f"--{name.replace('_', '-')} {value}"
            for name, value in self.model_dump(exclude_defaults=True).items()
        ]
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
