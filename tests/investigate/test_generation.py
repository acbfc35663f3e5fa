"""Who served a generation: the gateway client's lookup against the simulator's OpenRouter-like records."""

from __future__ import annotations

import asyncio

import pytest

from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from exporter.gateway.client import GatewayClient, parse_generation
from exporter.gateway.types import ChatRequest, GatewayError, Generation
from exporter.outcomes import Outcome
from tests.virtual_time import ManualClock

KIMI = "moonshotai/kimi-k2-0905"
WINDOW = 0.5  # the default fleet's generation_404_window


def _simulator(clock: ManualClock, **kwargs: int) -> SimulatorServer:
    return SimulatorServer(Simulator(load_fleet(DEFAULT_FLEET), clock=clock, **kwargs))


async def _chat_then_lookup(
    server: SimulatorServer, clock: ManualClock, pins: list[str], wait: float
) -> list[Generation | GatewayError]:
    async with GatewayClient(server.base_url, "key", timeout=10.0) as gateway:
        ids = []
        for pin in pins:
            request = ChatRequest(KIMI, ({"role": "user", "content": "Say hello."},), 32, pin=pin)
            result = await gateway.chat(request)
            assert result.error is None and result.generation_id
            ids.append(result.generation_id)
        clock.now += wait  # the gateway's time passes; none of ours needs to
        return [await gateway.generation(gen_id) for gen_id in ids]


def test_a_generation_names_the_display_name_that_served_it() -> None:
    clock = ManualClock()
    with _simulator(clock) as server:
        started = clock.now
        (record,) = asyncio.run(_chat_then_lookup(server, clock, ["deepinfra/turbo"], WINDOW + 0.2))
    assert isinstance(record, Generation)
    assert record.model == KIMI and record.provider_name == "DeepInfra"
    assert [a.provider_name for a in record.attempts] == ["DeepInfra"] and record.attempts[0].status == 200
    assert record.created_at is not None and started - 1 <= record.created_at <= clock.now
    assert record.tokens_completion > 0


def test_a_record_asked_for_at_once_is_a_404_for_a_moment() -> None:
    clock = ManualClock()
    with _simulator(clock) as server:
        (record,) = asyncio.run(_chat_then_lookup(server, clock, ["parasail/fp8"], WINDOW - 0.01))
    assert isinstance(record, GatewayError) and record.status == 404


def test_an_unknown_id_is_a_404_error_value() -> None:
    async def lookup(server: SimulatorServer) -> Generation | GatewayError:
        async with GatewayClient(server.base_url, "key") as gateway:
            return await gateway.generation("gen-0-doesnotexist")

    with SimulatorServer(load_fleet(DEFAULT_FLEET)) as server:
        record = asyncio.run(lookup(server))
    assert isinstance(record, GatewayError) and record.status == 404
    assert "gen-0-doesnotexist" in record.detail


def test_the_simulator_keeps_only_the_newest_records() -> None:
    clock = ManualClock()
    with _simulator(clock, max_generations=2) as server:
        pins = ["deepinfra/fp8", "novita/fp8", "parasail/fp8"]
        records = asyncio.run(_chat_then_lookup(server, clock, pins, WINDOW + 0.2))
    assert isinstance(records[0], GatewayError) and records[0].status == 404
    assert [r.provider_name for r in records[1:] if isinstance(r, Generation)] == ["NovitaAI", "Parasail"]


def test_a_generation_without_provider_is_malformed() -> None:
    error = parse_generation({"data": {"id": "gen-1", "model": "m"}})
    assert isinstance(error, GatewayError) and error.outcome is Outcome.TRANSPORT
    assert isinstance(parse_generation([]), GatewayError)


def test_the_simulator_refuses_to_keep_no_records() -> None:
    with pytest.raises(ValueError, match="max_generations"):
        Simulator(load_fleet(DEFAULT_FLEET), max_generations=0)
