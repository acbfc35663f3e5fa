"""The Hypothesis profile: full example counts unless ``HYPOTHESIS_PROFILE=fast``; a clear error otherwise."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
SHOW = (
    "from hypothesis import settings; from tests.fuzz_profile import examples; "
    "print(settings.default.max_examples, examples(200), examples(25))"
)


def counts(profile: str | None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "HYPOTHESIS_PROFILE"}
    if profile is not None:
        env["HYPOTHESIS_PROFILE"] = profile
    return subprocess.run(
        [sys.executable, "-c", SHOW], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )


@pytest.mark.parametrize(
    ("profile", "shown"), [(None, "100 200 25"), ("full", "100 200 25"), ("fast", "10 20 5")]
)
def test_the_full_counts_unless_the_fast_profile_is_asked_for(profile: str | None, shown: str) -> None:
    done = counts(profile)
    assert (done.returncode, done.stdout.strip()) == (0, shown), done.stderr


def test_an_unknown_profile_is_an_error_naming_the_variable_and_the_choices() -> None:
    done = counts("quick")
    assert done.returncode == 1
    assert "HYPOTHESIS_PROFILE: expected one of full, fast, got 'quick'" in done.stderr
