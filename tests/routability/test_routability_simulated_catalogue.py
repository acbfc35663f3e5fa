"""A pass over a simulated catalogue of 500 models: every status right, paced, persisted across a restart."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
import urllib.request
from pathlib import Path

import pytest

from exporter.configkit import Secret
from exporter.devtools.simulator.fleet import load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from exporter.gateway.config import GatewayConfig
from exporter.outcomes import Reason
from exporter.routability.config import RoutabilityConfig
from exporter.routability.job import Pacer, run_pass
from exporter.routability.model import Source, Status
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpxTransport

FLEET = Path(__file__).with_name("fixtures") / "catalogue_fleet.yaml"
PACE = 0.005
EXPECTED = {
    "healthy": Status.HEALTHY,
    "rate_limited": Status.DEGRADED,
    "erroring": Status.DEGRADED,
    "removed": Status.UNAVAILABLE,
}
REMOVAL_REASONS = {
    "model_not_found": Reason.MODEL_NOT_FOUND,
    "no_endpoints": Reason.NO_ENDPOINTS,
    "model_deprecated": Reason.MODEL_DEPRECATED,
}


class SkippingClock:
    """Real time for the pace, skipped time for the 429 holds (40 holds of the simulator's ``Retry-After: 2``
    would make the pass 80 s longer): a hold is slept for one pace and the rest added to the clock."""

    def __init__(self) -> None:
        self.skipped = 0.0
        self.holds: list[float] = []

    def __call__(self) -> float:
        return time.monotonic() + self.skipped

    async def sleep(self, seconds: float) -> None:
        if seconds > 0.5:
            self.holds.append(seconds)
            self.skipped += seconds - PACE
            seconds = PACE
        await asyncio.sleep(seconds)


@pytest.mark.slow  # a real simulator serving 500 models, paced: ~7 s
def test_a_500_model_catalogue_gets_every_status_right_without_bursts(tmp_path: Path) -> None:
    clock = SkippingClock()
    with SimulatorServer(load_fleet(FLEET)) as sim:
        models = sim.simulator.state.models
        gateway = GatewayConfig(base_url=sim.base_url, api_key=Secret("env:K", "sk-sim"), kind="openrouter")

        async def one_pass() -> object:
            transport = HttpxTransport(timeout=10.0)
            try:
                with RoutabilityStore(tmp_path / "r.sqlite3") as store:
                    pacer = Pacer(PACE, clock=clock, sleep=clock.sleep)
                    return await run_pass(
                        store, transport, gateway, RoutabilityConfig(pace=PACE), pacer=pacer
                    )
            finally:
                await transport.aclose()

        summary = asyncio.run(one_pass())
        with urllib.request.urlopen(f"{sim.root_url}/_sim/requests") as response:  # loopback only
            arrivals = sorted(r["t"] for r in json.load(response))

    # targets: active chat models; not the 10 non-chat ones, nor deprecated ones listed with a past
    # expiration_date (the simulator lists them so; their chat answer is 404 model_deprecated)
    with RoutabilityStore(tmp_path / "r.sqlite3") as reopened:  # a restart: rows come back from disk
        rows = reopened.rows()
    chat_models = {m.id: m for m in models.values() if m.behaviour != "non_chat"}
    expired = {slug for slug, m in chat_models.items() if m.removal == "model_deprecated"}
    assert len(chat_models) == 503 and len(expired) == 6
    assert set(rows) == set(chat_models) - expired
    chat_models = {slug: m for slug, m in chat_models.items() if slug not in expired}
    wrong = {
        slug: (m.behaviour, rows[slug].status.value, rows[slug].note)
        for slug, m in chat_models.items()
        if rows[slug].status is not EXPECTED[m.behaviour]
    }
    assert wrong == {}
    for slug, m in chat_models.items():
        row = rows[slug]
        assert row.source is Source.GATEWAY and row.last_check is not None
        # the listing of an unknown model is a 404: no listed signal rather than an invented one
        assert (row.listed is None) is (m.removal == "model_not_found")
        assert row.consecutive_failures == (0 if m.behaviour == "healthy" else 1)
        if m.behaviour == "removed":
            assert m.removal is not None
            assert row.reason is REMOVAL_REASONS[m.removal], (slug, row.note)
        if m.behaviour == "rate_limited":
            assert row.reason is Reason.RATE_LIMITED
    assert summary.probed == 497 and summary.skipped == 0  # type: ignore[attr-defined]
    assert summary.results == {"healthy": 400, "degraded": 75, "unavailable": 22}  # type: ignore[attr-defined]
    # every 429 held the next request for the simulator's Retry-After
    rate_limited = sum(1 for m in chat_models.values() if m.behaviour == "rate_limited")
    assert len(clock.holds) == rate_limited > 0 and all(1.9 < hold <= 2.0 for hold in clock.holds)

    # no burst: one chat per model, chat starts at least 2 x pace apart (endpoint listing in between)
    assert len(arrivals) == 497
    gaps = [b - a for a, b in itertools.pairwise(arrivals)]
    assert min(gaps) >= PACE, min(gaps)
    assert all(arrivals[i + 10] - arrivals[i] >= 10 * 2 * PACE - 0.008 for i in range(len(arrivals) - 10))
