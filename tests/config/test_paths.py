"""The repository's root has one home that build-time generators share with dev tooling."""

from __future__ import annotations

import ast
from pathlib import Path

from exporter.paths import REPO_ROOT

GENERATORS = Path(__file__).resolve().parents[2] / "exporter" / "generators"


def test_repo_root_is_the_checkout() -> None:
    assert (REPO_ROOT / "pyproject.toml").is_file() and (REPO_ROOT / "exporter" / "paths.py").is_file()


def test_generators_do_not_import_dev_tooling() -> None:
    imports = [
        (path.name, node.module)
        for path in sorted(GENERATORS.glob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("exporter.devtools")
    ]
    assert imports == []
