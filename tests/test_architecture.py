"""Issue 15's structural acceptance, kept true: the engine names no contract, no dependency is reached into.

These read the source (the checks are about how the code is written, not what it does); each fails on a
single offending line and names it.
"""

from __future__ import annotations

import ast
from pathlib import Path

from exporter.contracts import CONTRACTS

PACKAGE = Path(__file__).resolve().parents[1] / "exporter"
DEPENDENCIES = frozenset(
    {"httpx", "httpcore", "anyio", "prometheus_client", "starlette", "uvicorn", "pydantic", "rich", "yaml"}
)


def _sources(root: Path) -> list[tuple[Path, str]]:
    return [(path, path.read_text(encoding="utf-8")) for path in sorted(root.rglob("*.py"))]


def test_the_engine_names_no_contract() -> None:
    names = [contract.name for contract in CONTRACTS]
    assert {"ttft", "refusal", "structured", "language"} <= set(names)  # the check below looks for these
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{number}: {name!r}"
        for path, text in _sources(PACKAGE / "engine")
        for number, line in enumerate(text.splitlines(), 1)
        for name in names
        if f'"{name}"' in line or f"'{name}'" in line
    ]
    assert found == [], "the engine must learn contracts from the registry, not by name:\n" + "\n".join(found)


def _private_uses(tree: ast.AST) -> list[tuple[int, str]]:
    """``dep._name`` attribute chains and ``from dep._private import`` / ``import dep._private``."""
    aliases = {
        alias.asname or alias.name.split(".")[0]: alias.name.split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import)
        for alias in node.names
        if alias.name.split(".")[0] in DEPENDENCIES
    }
    uses: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in DEPENDENCIES:
            parts = node.module.split(".")[1:] + [alias.name for alias in node.names]
            uses += [
                (node.lineno, node.module) for part in parts if part.startswith("_") and part != "__version__"
            ]
        elif isinstance(node, ast.Import):
            uses += [
                (node.lineno, a.name)
                for a in node.names
                if any(p.startswith("_") for p in a.name.split(".")[1:])
            ]
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            root = node.value
            while isinstance(root, ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and root.id in aliases:
                uses.append((node.lineno, f"{root.id}...{node.attr}"))
    return uses


def test_no_private_name_of_a_dependency_is_used() -> None:
    found = [
        f"{path.relative_to(PACKAGE.parent)}:{line}: {what}"
        for path, text in _sources(PACKAGE)
        for line, what in _private_uses(ast.parse(text))
    ]
    assert found == [], "private names of dependencies change without notice:\n" + "\n".join(found)


def test_the_private_name_check_sees_the_forms_it_forbids() -> None:
    source = "import httpx\nimport httpcore._async\nfrom httpx._config import X\ny = httpx._types.Z\n"
    assert [line for line, _ in _private_uses(ast.parse(source))] == [2, 3, 4]
    assert (
        _private_uses(ast.parse("import httpx\nclass A:\n    def f(self):\n        return self._pool\n"))
        == []
    )
