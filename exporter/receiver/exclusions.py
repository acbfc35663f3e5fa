"""The built-in exclusions file: reviewed, permanent exclusions kept in the repository, each with a reason.

Format (``schema_version: 1``)::

    schema_version: 1
    exclusions:
      - model: moonshotai/kimi-k2-0905
        provider: strictguard/text
        reason: Known-filtering control host; it is a probe control, never a route.
        reviewed: 2026-11-29 platform team     # optional free text: who reviewed it and when

Every problem in the file is reported at once with its line (``configkit``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from exporter.configkit import Problems, Section

SCHEMA_VERSION = 1


@dataclass(frozen=True, slots=True)
class BuiltinExclusion:
    model: str
    provider: str
    reason: str
    reviewed: str = ""


def read_exclusions(path: Path, problems: Problems) -> tuple[BuiltinExclusion, ...]:
    """Read and validate an exclusions file; problems are collected, not raised.

    Example::

        problems = Problems("config/builtin-exclusions.yaml")
        entries = read_exclusions(Path("config/builtin-exclusions.yaml"), problems)
        problems.raise_if_any()
    """
    root = Section.load_file(path, problems)
    version = root.integer("schema_version")
    if version is not None and version != SCHEMA_VERSION:
        root.problem(
            "schema_version", f"unsupported version {version} (this receiver reads {SCHEMA_VERSION})"
        )
    entries: list[BuiltinExclusion] = []
    seen: dict[tuple[str, str], str] = {}
    for item in root.section_list("exclusions", required=True):
        model = item.string("model")
        provider = item.string("provider")
        reason = item.string("reason")
        reviewed = item.string("reviewed", default="")
        item.finish()
        if model is None or provider is None or reason is None:
            continue
        key = (model, provider)
        if key in seen:
            item.problems.add(
                item.line, item.path, f"duplicate exclusion of {provider} for {model} (see {seen[key]})"
            )
            continue
        seen[key] = item.path
        entries.append(BuiltinExclusion(model, provider, reason.strip(), str(reviewed)))
    root.finish()
    return tuple(entries)
