"""The built-in exclusions a router applies on a cold start, read from the same reviewed file the receiver
serves (``config/builtin-exclusions.yaml``, validated by ``exporter.receiver.exclusions``).

Reading the YAML file needs ``pyyaml`` and ``pydantic`` (the ``router-judges`` extra); a router on the
base install passes the mapping itself (``IgnoreListClient(..., builtin={model: [tags]})``).

Example::

    lists = IgnoreListClient(url, models, builtin=load_builtin_exclusions(Path("builtin-exclusions.yaml")))
"""

from __future__ import annotations

from pathlib import Path

from exporter.configkit import Problems
from exporter.receiver.exclusions import read_exclusions


def load_builtin_exclusions(path: Path) -> dict[str, tuple[str, ...]]:
    """The reviewed exclusions per model (raises ``ConfigError`` naming every problem with its line)."""
    problems = Problems(str(path))
    entries = read_exclusions(path, problems)
    problems.raise_if_any()
    out: dict[str, list[str]] = {}
    for entry in entries:
        out.setdefault(entry.model, []).append(entry.provider)
    return {model: tuple(tags) for model, tags in out.items()}
