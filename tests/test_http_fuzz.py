"""Every route of every service (exporter, receiver, routability, the simulator's own API) under seeded
hostile requests: never a 5xx (the simulator's simulated outage aside), never a response over the route's
stated byte bound. ``bench/http_fuzz.py`` runs the same at 10,000 requests and more (docs/benchmarks.md)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.fuzz_profile import examples
from tests.fuzztargets import fuzz_targets
from tests.httpfuzz import Target, fuzz

SERVICES = ("exporter", "receiver", "routability", "simulator")


@pytest.fixture(scope="module")
def targets(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Target]]:
    with fuzz_targets(tmp_path_factory.mktemp("fuzz")) as built:
        yield {t.name: t for t in built}


@pytest.mark.parametrize("service", SERVICES)
def test_no_route_answers_5xx_or_more_than_its_byte_bound(service: str, targets: dict[str, Target]) -> None:
    target = targets[service]
    report = asyncio.run(fuzz(target, examples(500), seed=29))
    assert not report.violations, report.violations[:5]
    reached = {key.split(" ", 1)[1] for key in report.by_route}
    assert reached == {route.path for route in target.routes}  # every route was asked
    assert any(400 <= status < 500 for status in report.statuses)  # hostile input was refused, not ignored


def test_the_fuzzer_sees_a_5xx_and_an_oversized_answer(tmp_path: Path) -> None:
    """The checks themselves: an app that fails or answers too much is reported, by request."""
    from starlette.applications import Starlette
    from starlette.responses import Response
    from starlette.routing import Route as StarletteRoute

    from tests.httpfuzz import Route

    async def broken(request: object) -> Response:
        raise RuntimeError("boom")

    async def big(request: object) -> Response:
        return Response(b"x" * 2000)

    app = Starlette(routes=[StarletteRoute("/broken", broken), StarletteRoute("/big", big)])
    target = Target(
        "t", app, (Route(("GET",), "/broken"), Route(("GET",), "/big")), lambda path, status: 1000
    )
    report = asyncio.run(fuzz(target, 60, seed=1))
    whats = {v.url.split("?")[0]: v.what for v in report.violations}
    assert "RuntimeError" in whats["/broken"] and "2000 bytes over the bound of 1000" in whats["/big"]
