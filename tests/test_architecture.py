"""The code's structure, kept true: the engine names no contract, no dependency is reached into, and every
module lives on a floor that imports only its own floor and the ones below.

Floors, bottom to top (``FLOORS``): ground kits (pure helpers any code may use) -> feature packages (the
probes, judges, stores, decisions) -> the whole-config composition (``exporter.config``) -> the process
shells (``exporter.commands``, one module per ``canary`` subcommand) and, beside them, the devtools and the
build-time generators.

These read the source (the checks are about how the code is written, not what it does); each fails on a
single offending line and names it.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

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


# Each top-level unit of ``exporter`` (a package or a module; "" is ``exporter/__init__.py``) on its floor.
# A module may import its own floor and lower ones, never a higher one. A new unit must be given a floor.
GROUND = "ground kits"
FEATURES = "feature packages"
COMPOSITION = "config composition"
TOP = "commands and devtools"
FLOORS: dict[str, tuple[str, ...]] = {
    GROUND: (
        "",
        "argkit",
        "configkit",
        "lifecycle",
        "logkit",
        "metrickit",
        "outcomes",
        "paths",
        "polling",
        "runrecord",
        "serving",
        "sharding",
        "signals",
        "sqlitekit",
        "stats",
        "textkit",
        "timestamps",
        "web",
    ),
    FEATURES: (
        "admin",
        "console",
        "contracts",
        "engine",
        "equality",
        "evidence",
        "gateway",
        "investigate",
        "language",
        "receiver",
        "routability",
        "router",
    ),
    COMPOSITION: ("config", "config_reference"),
    TOP: ("commands", "devtools", "generators", "launcher"),
}
ORDER = list(FLOORS)
FLOOR_OF = {unit: floor for floor, units in FLOORS.items() for unit in units}
SHELLS = "exporter.commands"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, module: str, is_package: bool) -> Iterator[tuple[int, str]]:
    """(line, imported module) for every import of ``exporter`` code, at any depth (lazy and TYPE_CHECKING
    imports count); ``from exporter import x`` yields ``exporter.x``, relative imports are resolved."""
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from ((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = here.split(".")[: len(here.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}" if base == "exporter" else base


def _unit(module: str) -> str | None:
    """The top-level unit of an ``exporter`` module ("" for the package itself), None outside ``exporter``."""
    parts = module.split(".")
    if parts[0] != "exporter":
        return None
    return parts[1] if len(parts) > 1 and parts[1] in FLOOR_OF else ""


Source = tuple[str, Path, str]  # (module name, file path, text)


def _edges(sources: list[Source]) -> Iterator[tuple[str, str, str, str]]:
    """(``file:line``, importer, its unit, imported unit) for every import of ``exporter`` code."""
    for module, path, text in sources:
        own = _unit(module) or ""
        for line, imported in _imports(ast.parse(text), module, path.name == "__init__.py"):
            if (unit := _unit(imported)) is not None:
                yield f"{path}:{line}", module, own, unit if unit else imported


def _floor(unit: str) -> str:
    return FLOOR_OF.get(unit, GROUND)  # "exporter" itself and its names (``__version__``) are ground


def _upward_imports(sources: list[Source]) -> list[str]:
    """``file:line: importer (floor) imports unit (higher floor)`` for every import that climbs."""
    return [
        f"{where}: {module} ({_floor(own)}) imports {unit} ({_floor(unit)})"
        for where, module, own, unit in _edges(sources)
        if ORDER.index(_floor(unit)) > ORDER.index(_floor(own))
    ]


def _shell_imports(sources: list[Source]) -> list[str]:
    """Imports of a process shell (``exporter.commands``) from anywhere below the top floor."""
    return [
        f"{where}: {module} imports a process shell"
        for where, module, own, unit in _edges(sources)
        if unit == "commands" and _floor(own) != TOP
    ]


def _kit_imports(sources: list[Source]) -> list[str]:
    """Imports of anything but a ground kit from a ground kit."""
    return [
        f"{where}: {module} imports {unit} ({_floor(unit)})"
        for where, module, own, unit in _edges(sources)
        if _floor(own) == GROUND and _floor(unit) != GROUND
    ]


def _exporter_sources() -> list[Source]:
    return [(_module_name(path), path.relative_to(PACKAGE.parent), text) for path, text in _sources(PACKAGE)]


def test_every_unit_of_the_package_has_a_floor() -> None:
    on_disk = {
        child.stem if child.suffix == ".py" else child.name
        for child in PACKAGE.iterdir()
        if (child.suffix == ".py" and child.stem != "__init__")
        or (child.is_dir() and any(child.rglob("*.py")))
    }
    assert {"commands", "config", "engine", "timestamps"} <= on_disk  # the walk saw the package
    assert sorted(on_disk - set(FLOOR_OF)) == [], "give every new module or package a floor in FLOORS"
    assert sorted(set(FLOOR_OF) - on_disk - {""}) == [], "FLOORS names a unit that no longer exists"


def test_no_module_imports_a_module_of_a_higher_floor() -> None:
    found = _upward_imports(_exporter_sources())
    assert found == [], "imports must not climb the floors (" + " -> ".join(ORDER) + "):\n" + "\n".join(found)


def test_no_feature_package_imports_a_process_shell() -> None:
    found = _shell_imports(_exporter_sources())
    assert found == [], "process shells are composition roots; only the top imports one:\n" + "\n".join(found)


def test_kits_import_no_feature_package() -> None:
    found = _kit_imports(_exporter_sources())
    assert found == [], "a ground kit imports other kits only:\n" + "\n".join(found)


PLANTED = [
    ("exporter.timestamps", "from exporter.receiver import state", "receiver"),
    ("exporter.gateway.client", "def f():\n    import exporter.config", "config"),
    ("exporter.receiver.app", "from exporter.commands.receiver import load", "commands"),
    ("exporter.config", "from exporter import commands", "commands"),
    ("exporter.contracts.base", "from ..commands import canary", "commands"),
    ("exporter.textkit", "from . import evidence", "evidence"),
]


@pytest.mark.parametrize(("module", "source", "climbs_to"), PLANTED)
def test_the_floor_check_sees_a_planted_upward_import(module: str, source: str, climbs_to: str) -> None:
    path = Path(*module.split(".")).with_suffix(".py")
    planted = [(module, path, "import json\nfrom exporter.outcomes import Outcome\n" + source + "\n")]
    line = 3 + source.count("\n")
    assert _upward_imports(planted) == [
        f"{path}:{line}: {module} ({_floor(_unit(module) or '')}) imports {climbs_to} ({_floor(climbs_to)})"
    ]
    shell = climbs_to == "commands"
    assert _shell_imports(planted) == ([f"{path}:{line}: {module} imports a process shell"] if shell else [])
    kit = _floor(_unit(module) or "") == GROUND
    assert [finding.split(": ")[0] for finding in _kit_imports(planted)] == (
        [f"{path}:{line}"] if kit else []
    )


def test_the_floor_check_lets_imports_go_down_and_sideways() -> None:
    source = (
        "import httpx\nfrom exporter.timestamps import format_rfc3339\nfrom exporter.gateway.types import X\n"
    )
    sources = [
        ("exporter.engine.rounds", Path("exporter/engine/rounds.py"), source),
        (
            "exporter.commands.canary",
            Path("c.py"),
            "from exporter.config import X\nimport exporter.commands.rules\n",
        ),
        (
            "exporter.devtools.demo",
            Path("d.py"),
            "from exporter.commands.exporter_service import ExporterService\n",
        ),
        ("exporter.stats", Path("s.py"), "from exporter import __version__, textkit\n"),
    ]
    assert (_upward_imports(sources), _shell_imports(sources), _kit_imports(sources)) == ([], [], [])
