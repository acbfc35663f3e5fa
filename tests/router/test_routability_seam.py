"""The router skips a model only when routability says it is recently and explicitly unavailable."""

from __future__ import annotations

import asyncio

import httpx

from exporter.routability.client import RoutabilityClient
from exporter.router import IgnoreListClient

NOW = 1_800_000_000.0
HOUR = 3600.0


def routability_body() -> dict[str, object]:
    return {
        "recent_unavailable_seconds": 6 * HOUR,
        "rows": [
            {"slug": "acme/gone", "status": "unavailable", "last_check": NOW - HOUR},
            {"slug": "acme/long-gone", "status": "unavailable", "last_check": NOW - 48 * HOUR},
            {"slug": "acme/flaky", "status": "degraded", "last_check": NOW - 60},
            {"slug": "acme/fine", "status": "healthy", "last_check": NOW - 60},
        ],
    }


def test_ignore_list_client_consults_routability_through_its_seam() -> None:
    routability = RoutabilityClient(
        "http://routability.test",
        transport=httpx.MockTransport(lambda request: httpx.Response(200, json=routability_body())),
        clock=lambda: NOW,
    )
    assert asyncio.run(routability.refresh()) is True
    lists = IgnoreListClient("http://receiver.test", ["acme/gone"], is_unavailable=routability.should_skip)
    assert lists.should_skip_model("acme/gone") is True
    assert lists.should_skip_model("acme/long-gone") is False  # not recent: try it again
    assert lists.should_skip_model("acme/flaky") is False  # degraded is never a reason to skip
    assert lists.should_skip_model("acme/fine") is False
    assert lists.should_skip_model("acme/never-seen") is False
    asyncio.run(routability.aclose())


def test_an_unreachable_routability_service_skips_nothing_it_has_not_seen() -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    routability = RoutabilityClient(
        "http://routability.test", transport=httpx.MockTransport(down), clock=lambda: NOW
    )
    assert asyncio.run(routability.refresh()) is False
    lists = IgnoreListClient("http://receiver.test", ["acme/gone"], is_unavailable=routability.should_skip)
    assert lists.should_skip_model("acme/gone") is False
    asyncio.run(routability.aclose())
