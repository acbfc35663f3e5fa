"""Known-filtering control hosts must be built-in exclusions: never routed to, never counted as capacity."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.config import load_config
from exporter.configkit import ConfigError

EXCLUSIONS = Path(__file__).resolve().parents[2] / "config" / "builtin-exclusions.yaml"


def config(tmp_path: Path, control: str) -> Path:
    path = tmp_path / "c.yaml"
    path.write_text(f"""gateway: {{api_key: {{env: HOME}}}}
models: [{{slug: moonshotai/kimi-k2-0905, known_filtering: [{control}]}}]
receiver:
  store_dir: store
  webhook_token: {{env: HOME}}
  admin_token: {{env: PATH}}
  builtin_exclusions: {EXCLUSIONS}
""")
    return path


def test_a_control_host_that_is_a_builtin_exclusion_is_accepted(tmp_path: Path) -> None:
    assert load_config(config(tmp_path, "strictguard/text")).models[0].known_filtering == {"strictguard/text"}


def test_a_control_host_missing_from_the_builtin_exclusions_is_a_problem(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as raised:
        load_config(config(tmp_path, "prudish/fp8"))
    (problem,) = raised.value.problems
    assert (
        "models[0].known_filtering: prudish/fp8 is a known-filtering control host but not a built-in"
        in problem
    )
