"""Suite-wide rules: every end-to-end test is also slow, so ``pytest -m "not slow"`` is the fast loop; the
Hypothesis profile (full example counts, or a tenth with ``HYPOTHESIS_PROFILE=fast``) is loaded first."""

from __future__ import annotations

import pytest

import tests.fuzz_profile  # noqa: F401  (registers and loads the Hypothesis profile before any test module)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
