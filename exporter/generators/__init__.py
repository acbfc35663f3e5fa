"""Build-time generators: files the project ships, generated from one source, checked for staleness by tests.

- ``rulerender``: the rules and promtool tests rendered from a configuration (source: ``rulesource/``;
  ``canary rules render``, in ``exporter.commands.rules``);
- ``rulefile``: Prometheus rule files read into values;
- ``grafana_alerts``: the Grafana alert provisioning file generated from the rule files;
- ``dashboards``: the Grafana dashboards in ``dashboards/`` (``python -m exporter.generators.dashboards``).
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from pathlib import Path

from exporter.generators.rulefile import display_path


def stale(files: Mapping[Path, str]) -> list[Path]:
    """The generated files whose content on disk is not ``files[path]`` (missing ones included)."""
    return [path for path, text in files.items() if not path.exists() or path.read_text("utf-8") != text]


def write_or_check(files: Mapping[Path, str], *, check: bool, regenerate: str = "") -> int:
    """Write every generated file, saying so (exit status 0), or with ``check`` write nothing and name each
    stale one (exit status 1 if any); ``regenerate`` is the command the message tells the reader to run."""
    if check:
        for path in (out_of_date := stale(files)):
            print(f"{display_path(path)} is out of date: run {regenerate}", file=sys.stderr)
        return 1 if out_of_date else 0
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {display_path(path)}")
    return 0
