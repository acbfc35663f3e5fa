"""The Hypothesis profile: full example counts unless ``HYPOTHESIS_PROFILE=fast``; a clear error otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).parents[1]
# One interpreter for every case (each would otherwise pay Hypothesis' import): the module is loaded again
# under each value of the variable, as a new pytest process would load it.
SHOW = """
import importlib, os, sys
from hypothesis import settings
import tests.fuzz_profile as profile
for name in sys.argv[1:]:
    os.environ["HYPOTHESIS_PROFILE"] = "" if name == "unset" else name
    try:
        importlib.reload(profile)
    except SystemExit as exc:
        print(name, exc)
        continue
    print(name, settings.default.max_examples, profile.examples(200), profile.examples(25))
"""


def test_the_full_counts_unless_the_fast_profile_is_asked_for_and_an_unknown_one_is_an_error() -> None:
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    done = subprocess.run(
        [sys.executable, "-c", SHOW, "unset", "full", "fast", "quick"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "unset 100 200 25",
        "full 100 200 25",
        "fast 10 20 5",
        "quick HYPOTHESIS_PROFILE: expected one of full, fast, got 'quick'",
    ]
