"""Suite-wide rules: every end-to-end test is also slow, so ``pytest -m "not slow"`` is the fast loop; files
with slow tests run first; the Hypothesis profile (full example counts, or a tenth with
``HYPOTHESIS_PROFILE=fast``) is loaded first."""

from __future__ import annotations

import pytest

import tests.fuzz_profile  # noqa: F401  (registers and loads the Hypothesis profile before any test module)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None and item.get_closest_marker("slow") is None:
            item.add_marker(pytest.mark.slow)
    # Files with a slow test first, each file's tests in their order: on several workers (scripts/test: xdist
    # --dist loadfile --no-loadscope-reorder, files in this order) the long files start at once and the many
    # short ones fill in behind them, instead of a 3-minute file starting last and running alone.
    slow_files = {item.path for item in items if item.get_closest_marker("slow") is not None}
    items.sort(key=lambda item: item.path not in slow_files)  # stable: the rest keeps collection order


@pytest.fixture(autouse=True)
def _own_run_index(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test (and the processes it starts) keeps the per-user run index (``exporter.runrecord``) in a
    directory of its own: no test reads another's run, nor the developer's."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))
