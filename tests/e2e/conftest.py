"""Fixtures of the end-to-end tests: one stack per module, built by ``make_stack`` and always torn down."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from .stack import Stack


@pytest.fixture(scope="module")
def make_stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Callable[..., Stack]]:
    """Start stacks for a module (``make_stack(fleet, **options)``; ``stack_class=`` picks a subclass,
    ``start=False`` leaves starting to the caller); every process is ended at module end."""
    started: list[Stack] = []

    def make(fleet: Path, stack_class: type[Stack] = Stack, start: bool = True, **options: object) -> Stack:
        stack = stack_class(tmp_path_factory.mktemp(fleet.stem), fleet, **options)  # type: ignore[arg-type]
        started.append(stack)
        return stack.start() if start else stack

    yield make
    for stack in reversed(started):
        stack.close()
    alive = [pid for stack in started for pid in stack.pids() if _alive(pid)]
    assert alive == [], f"processes the e2e stack started are still running: {alive}"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)  # signal 0: existence check only, on a PID we started ourselves
    except ProcessLookupError:
        return False
    return True
