"""The routers' read client for routability: its background loop survives anything one poll throws."""

from __future__ import annotations

import asyncio
import logging

import httpx
import pytest

from exporter.routability.client import RoutabilityClient

NOW = 1_700_000_000.0


def test_the_background_loop_survives_an_unexpected_error(caplog: pytest.LogCaptureFixture) -> None:
    calls = {"n": 0}
    body = {
        "recent_unavailable_seconds": 21600,
        "rows": [{"slug": "gone/model", "status": "unavailable", "last_check": NOW - 10}],
    }

    async def handler(request: httpx.Request) -> httpx.Response:
        calls["n"] += 1
        if calls["n"] == 1:
            raise RuntimeError("surprise")  # not an httpx.HTTPError
        return httpx.Response(200, json=body, headers={"ETag": '"1"'})

    async def scenario() -> bool:
        client = RoutabilityClient(
            "http://rt.test", transport=httpx.MockTransport(handler), clock=lambda: NOW
        )
        task = asyncio.create_task(client.run(interval=0.01))
        try:
            while client.staleness_seconds() is None and not task.done():  # noqa: ASYNC110 - public state
                await asyncio.sleep(0.005)
            alive = not task.done()
            return alive and client.should_skip("gone/model")
        finally:
            task.cancel()
            await client.aclose()

    with caplog.at_level(logging.ERROR, logger="exporter.routability.client"):
        assert asyncio.run(asyncio.wait_for(scenario(), 5))
    assert calls["n"] >= 2
    assert any(r.exc_info and "surprise" in str(r.exc_info[1]) for r in caplog.records)
