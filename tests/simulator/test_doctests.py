"""The examples in the simulator's docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "app",
    "catalogue",
    "cli",
    "fleet",
    "locales",
    "profiles",
    "replies",
    "routing",
    "state",
    "styles",
    "wire",
    "writing",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"exporter.devtools.simulator.{name}")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
