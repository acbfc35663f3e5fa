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

from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator

from exporter.configkit import ConfigModel, Int, Label, Problems, invalid, load_file, unique, validate
from exporter.receiver.tags import canonical_tag

SCHEMA_VERSION = 1


class BuiltinExclusion(ConfigModel):
    model: Annotated[Label, AfterValidator(canonical_tag)]  # compared as the gateway does: lowercase
    provider: Annotated[Label, AfterValidator(canonical_tag)]
    reason: Annotated[Label, AfterValidator(str.strip)]
    reviewed: Label = ""


def _supported(version: int) -> int:
    if version != SCHEMA_VERSION:
        raise invalid(f"unsupported version {version} (this receiver reads {SCHEMA_VERSION})")
    return version


class ExclusionsFile(ConfigModel):
    schema_version: Annotated[Int, AfterValidator(_supported)]
    exclusions: Annotated[
        tuple[BuiltinExclusion, ...],
        unique("model", "provider", message="duplicate exclusion of {1} for {0} (see exclusions[{first}])"),
    ]


def read_exclusions(path: Path, problems: Problems) -> tuple[BuiltinExclusion, ...]:
    """Read and validate an exclusions file; problems are collected, not raised.

    Example::

        problems = Problems("config/builtin-exclusions.yaml")
        entries = read_exclusions(Path("config/builtin-exclusions.yaml"), problems)
        problems.raise_if_any()
    """
    data = load_file(path, problems)
    read = validate(ExclusionsFile, data, problems) if not problems.items else None
    return read.exclusions if read is not None else ()
