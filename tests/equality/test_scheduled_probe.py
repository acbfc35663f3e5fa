"""The scheduled equality probe in a real exporter over the simulator's default fleet, as the demo runs it."""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from prometheus_client import generate_latest

from exporter.commands.exporter_service import ExporterService
from exporter.config import load_probing_config
from tests.simulated import default_fleet

DISTORTED = {"weakling/int4", "quanta/fp4", "templar/bf16"}


def _config(path: Path, base_url: str) -> Path:
    path.write_text(
        f"""gateway:
  base_url: {base_url}
  api_key: {{env: CANARY_TEST_KEY}}
  timeout: 20s
models:
  - slug: moonshotai/kimi-k2-0905
rounds: {{interval: 0.05s, concurrency: 20}}
contracts: {{structured: {{}}}}
equality: {{enabled: true, samples_per_round: 8}}   # the sequential test needs a few dozen samples per host
"""
    )
    return path


@pytest.mark.slow
def test_only_distorted_hosts_are_flagged_and_the_weaker_model_host_alerts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CANARY_TEST_KEY", "test-key")
    with default_fleet() as sim:  # the slow host at a healthy pace: the probe compares content
        config = load_probing_config(_config(tmp_path / "canary.yaml", sim.base_url))

        async def run() -> ExporterService:
            async with AsyncExitStack() as stack:
                service = ExporterService.from_config(config, stack)
                await service.run(rounds=8)
                return service

        service = asyncio.run(run())
    assert service.equality is not None
    verdicts = service.equality.verdicts
    flagged = {r.provider for r in verdicts.by_model["moonshotai/kimi-k2-0905"] if r.outlier}
    assert "weakling/int4" in flagged and flagged <= DISTORTED, flagged
    assert (
        verdicts.outlier_streaks[("moonshotai/kimi-k2-0905", "weakling/int4")] >= 2
    )  # the alert's condition
    text = generate_latest(service.registry).decode()
    assert 'canary_equality_outlier{model="moonshotai/kimi-k2-0905",provider="weakling/int4"} 1.0' in text
    assert 'canary_equality_samples{model="moonshotai/kimi-k2-0905",provider="deepinfra/fp8"} 64.0' in text
    # informational: the probe never touches a contract's streaks
    state = service.snapshot.streaks
    assert not any(key[2] == "equality" for key in state.failing)
