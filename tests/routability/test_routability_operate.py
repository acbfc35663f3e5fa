"""Routability for cron services and rate limits: GET trigger, 429 backoff honouring Retry-After, spend."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from prometheus_client.parser import text_string_to_metric_families

from exporter.configkit import Secret
from exporter.gateway.config import GatewayConfig
from exporter.routability.config import RoutabilityConfig
from exporter.routability.job import Pacer, run_pass
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpReply, retry_after_seconds
from tests.routability.test_routability_app import NOW, TOKEN, call, make_service

MODELS = {"data": [{"id": s, "architecture": {"output_modalities": ["text"]}} for s in ("a/one", "b/two")]}


@pytest.fixture
def store(tmp_path: Path) -> RoutabilityStore:
    return RoutabilityStore(tmp_path / "r.sqlite3")


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_the_trigger_takes_get_or_post_and_still_needs_the_secret(
    store: RoutabilityStore, method: str
) -> None:
    service = make_service(store)
    denied = call(service, lambda c: c.request(method, "/v1/routability/run?wait=true"))
    assert denied.status_code == 401 and store.rows() == {}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    ran = call(service, lambda c: c.request(method, "/v1/routability/run?wait=true", headers=auth))
    assert ran.status_code == 200 and ran.json()["pass"]["probed"] == 3


class Clock:
    def __init__(self) -> None:
        self.now = 0.0
        self.slept: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 3))
        self.now += seconds


def test_a_429_holds_the_next_request_for_its_retry_after_else_backs_off_exponentially() -> None:
    clock = Clock()
    pacer = Pacer(1.0, clock=clock, sleep=clock.sleep)

    async def scenario() -> None:
        await pacer.wait()
        assert pacer.back_off(HttpReply(429, {}, retry_after=7.0)) == 7.0
        await pacer.wait()  # waits the 7 s, not the 1 s pace
        # the 429 with Retry-After was the first of a run: the next ones double from 2 s
        assert [pacer.back_off(HttpReply(429, {})) for _ in range(3)] == [4.0, 8.0, 16.0]
        assert pacer.back_off(HttpReply(200, {})) == 0.0
        assert pacer.back_off(HttpReply(429, {})) == 2.0  # reset by the success
        assert pacer.back_off(HttpReply(429, {}, retry_after=86400.0)) == 300.0  # bounded

    asyncio.run(scenario())
    assert clock.slept[0] == 7.0
    assert retry_after_seconds("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0 and retry_after_seconds("x") is None


class SpendingGateway:
    def __init__(self) -> None:
        self.completions = 0

    async def request(
        self, method: str, url: str, api_key: Secret | None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        if url.endswith("/models"):
            return HttpReply(200, MODELS)
        self.completions += 1
        if self.completions == 1:
            return HttpReply(
                429, {"error": {"code": 429, "message": "Provider returned error"}}, retry_after=3.0
            )
        usage = {"prompt_tokens": 9, "completion_tokens": 2, "cost": 0.00025}
        return HttpReply(
            200, {"choices": [{"finish_reason": "stop", "message": {"content": "OK"}}], "usage": usage}
        )


def test_a_pass_counts_its_tokens_and_cost_and_waits_out_a_rate_limit(store: RoutabilityStore) -> None:
    clock = Clock()
    settings = RoutabilityConfig(pace=0.0, listed_signal=False)
    gateway = GatewayConfig(base_url="https://gw.test/api/v1", api_key=Secret("env:K", "sk"))
    pacer = Pacer(0.0, clock=clock, sleep=clock.sleep)
    summary = asyncio.run(
        run_pass(store, SpendingGateway(), gateway, settings, pacer=pacer, wall_clock=lambda: NOW)
    )
    assert (summary.prompt_tokens, summary.completion_tokens, summary.cost_usd) == (9, 2, 0.00025)
    assert clock.slept == [3.0]  # the second model waited for the first one's Retry-After


def test_spend_is_exported_as_counters(store: RoutabilityStore) -> None:
    service = make_service(store)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    call(service, lambda c: c.post("/v1/routability/run?wait=true", headers=auth))
    text = call(service, lambda c: c.get("/metrics")).text
    families = {f.name: f for f in text_string_to_metric_families(text)}
    assert {s.labels["kind"] for s in families["canary_routability_tokens"].samples} == {
        "prompt",
        "completion",
    }
    assert families["canary_routability_cost_usd"].type == "counter"
