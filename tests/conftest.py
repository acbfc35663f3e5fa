"""Suite-wide rules: every end-to-end test is also slow, so ``pytest -m "not slow"`` is the fast loop."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
