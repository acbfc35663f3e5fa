"""One pass, through a scripted transport and a fake clock: targets, routes, pacing, persistence."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from exporter.configkit import Secret
from exporter.gateway.config import GatewayConfig
from exporter.outcomes import Reason
from exporter.routability.catalogue import CatalogueFilter
from exporter.routability.config import DirectRoute, RoutabilityConfig
from exporter.routability.job import PROBE_PROMPT, Pacer, last_pass, run_pass
from exporter.routability.model import RoutabilityRow, Source, Status
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpReply, HttpxTransport

BASE = "https://gw.test/api/v1"
GATEWAY = GatewayConfig(base_url=BASE, api_key=Secret("env:T", "sk-test"), kind="openrouter")
OK = {
    "id": "gen-1",
    "provider": "DeepInfra",
    "choices": [{"finish_reason": "stop", "message": {"content": "OK"}}],
}


def catalogue(*slugs: str, reasoning: tuple[str, ...] = ()) -> dict[str, Any]:
    return {
        "data": [
            {
                "id": s,
                "architecture": {"output_modalities": ["text"]},
                "supported_parameters": ["max_tokens", *(["reasoning"] if s in reasoning else [])],
            }
            for s in slugs
        ]
    }


class Clock:
    """A fake monotonic + wall clock; sleeping advances it."""

    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds


class Scripted:
    """A JsonTransport answering from a function of (method, url, body); records every call with its time."""

    def __init__(self, answer: Callable[[str, str, dict[str, Any] | None], HttpReply], clock: Clock) -> None:
        self.answer = answer
        self.clock = clock
        self.calls: list[tuple[float, str, str, str | None, dict[str, Any] | None]] = []

    async def request(
        self, method: str, url: str, api_key: Secret | None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        self.calls.append((self.clock(), method, url, api_key.value if api_key else None, body))
        self.clock.now += 0.01  # every request takes 10 ms
        return self.answer(method, url, body)

    def chats(self) -> list[tuple[float, str, str, str | None, dict[str, Any] | None]]:
        return [c for c in self.calls if c[2].endswith("/chat/completions")]


def gateway_answers(models: dict[str, Any], chat: Callable[[str], HttpReply]) -> Callable[..., HttpReply]:
    def answer(method: str, url: str, body: dict[str, Any] | None) -> HttpReply:
        if url == f"{BASE}/models":
            return HttpReply(200, models)
        if url.endswith("/endpoints"):
            return HttpReply(
                200, {"data": {"endpoints": [{"tag": "x", "status": 0, "uptime_last_30m": 99.0}]}}
            )
        assert body is not None
        return chat(body["model"])

    return answer


def run(
    store: RoutabilityStore,
    transport: Scripted,
    settings: RoutabilityConfig,
    gateway: GatewayConfig | None = GATEWAY,
) -> Any:
    clock = transport.clock
    pacer = Pacer(settings.pace, clock=clock, sleep=clock.sleep)
    return asyncio.run(run_pass(store, transport, gateway, settings, pacer=pacer, wall_clock=clock))


@pytest.fixture
def store(tmp_path: Path) -> RoutabilityStore:
    return RoutabilityStore(tmp_path / "routability.sqlite3")


def by_model(results: dict[str, HttpReply]) -> Callable[[str], HttpReply]:
    return lambda model: results[model]


def test_a_pass_classifies_every_catalogue_model_and_persists_rows(store: RoutabilityStore) -> None:
    clock = Clock()
    answers = {
        "a/ok": HttpReply(200, OK),
        "b/limited": HttpReply(429, {"error": {"code": 429, "message": "Rate limit exceeded"}}),
        "c/gone": HttpReply(400, {"error": {"code": 400, "message": "c/gone is not a valid model ID"}}),
        "d/net": HttpReply(None, None, "network", "ConnectError: connection refused"),
    }
    transport = Scripted(gateway_answers(catalogue(*answers), by_model(answers)), clock)
    summary = run(store, transport, RoutabilityConfig(pace=2.0))
    assert summary.results == {"healthy": 1, "degraded": 2, "unavailable": 1}
    assert (summary.probed, summary.skipped, summary.catalogue_listed) == (4, 0, True)
    rows = store.rows()
    assert {s: r.status for s, r in rows.items()} == {
        "a/ok": Status.HEALTHY,
        "b/limited": Status.DEGRADED,
        "c/gone": Status.UNAVAILABLE,
        "d/net": Status.DEGRADED,
    }
    assert rows["d/net"].reason is Reason.NETWORK and rows["d/net"].source is Source.GATEWAY
    assert all(r.listed is not None and r.listed.healthy_endpoints == 1 for r in rows.values())
    assert last_pass(store) == summary.to_json()


def test_the_probe_is_minimal_and_asks_reasoning_models_for_low_effort(store: RoutabilityStore) -> None:
    clock = Clock()
    transport = Scripted(
        gateway_answers(
            catalogue("p/plain", "r/think", reasoning=("r/think",)), lambda m: HttpReply(200, OK)
        ),
        clock,
    )
    run(store, transport, RoutabilityConfig(pace=0.0, listed_signal=False))
    bodies = {c[4]["model"]: c[4] for c in transport.chats() if c[4]}
    for body in bodies.values():
        assert body["messages"] == [{"role": "user", "content": PROBE_PROMPT}]
        assert body["max_tokens"] == 16 and body["stream"] is False and "provider" not in body
    assert "reasoning" not in bodies["p/plain"]
    assert bodies["r/think"]["reasoning"] == {"effort": "low"}
    assert {c[3] for c in transport.chats()} == {"sk-test"}
    assert not [c for c in transport.calls if c[2].endswith("/endpoints")]  # listed_signal off


def test_requests_never_burst_above_the_pace(store: RoutabilityStore) -> None:
    clock = Clock()
    slugs = [f"m/{i:02d}" for i in range(20)]
    transport = Scripted(gateway_answers(catalogue(*slugs), lambda m: HttpReply(200, OK)), clock)
    run(store, transport, RoutabilityConfig(pace=2.0))
    starts = [c[0] for c in transport.calls]
    assert len(starts) == 1 + 2 * 20  # catalogue, then endpoints + chat per model
    gaps = [b - a for a, b in itertools.pairwise(starts)]
    assert min(gaps) >= 2.0 - 1e-9
    assert clock.now - 1_000.0 == pytest.approx(40 * 2.0 + 0.01, abs=1e-6)  # no idle beyond the pace


def test_the_pacer_carries_over_between_passes(store: RoutabilityStore) -> None:
    clock = Clock()
    transport = Scripted(gateway_answers(catalogue("a/x"), lambda m: HttpReply(200, OK)), clock)
    pacer = Pacer(5.0, clock=clock, sleep=clock.sleep)
    settings = RoutabilityConfig(pace=5.0, listed_signal=False)
    for _ in range(2):
        asyncio.run(run_pass(store, transport, GATEWAY, settings, pacer=pacer, wall_clock=clock))
    starts = [c[0] for c in transport.calls]
    assert min(b - a for a, b in itertools.pairwise(starts)) >= 5.0 - 1e-9


def test_not_on_gateway_uses_the_direct_route_else_is_skipped(store: RoutabilityStore) -> None:
    clock = Clock()
    direct = DirectRoute(
        base_url="http://10.0.0.5:8000/v1",
        model="private-2025",
        api_key=Secret("env:D", "k-direct"),
        reasoning_effort="low",
    )

    def answer(method: str, url: str, body: dict[str, Any] | None) -> HttpReply:
        if url == f"{BASE}/models":
            return HttpReply(200, catalogue("g/listed"))
        if url == "http://10.0.0.5:8000/v1/chat/completions":
            assert body is not None and body["model"] == "private-2025" and body["reasoning_effort"] == "low"
            return HttpReply(404, {"object": "error", "message": "The model `private-2025` does not exist."})
        return HttpReply(200, OK if url.endswith("/completions") else {"data": {"endpoints": []}})

    transport = Scripted(answer, clock)
    settings = RoutabilityConfig(pace=0.0, models=("x/nowhere",), direct_routes={"acme/private": direct})
    summary = run(store, transport, settings)
    rows = store.rows()
    assert (rows["g/listed"].status, rows["g/listed"].source) == (Status.HEALTHY, Source.GATEWAY)
    assert (rows["acme/private"].status, rows["acme/private"].source) == (Status.UNAVAILABLE, Source.DIRECT)
    # not listed, no direct route, but a gateway: its execution endpoint is asked
    assert (rows["x/nowhere"].status, rows["x/nowhere"].source) == (Status.HEALTHY, Source.GATEWAY)
    assert (summary.probed, summary.skipped) == (3, 0)
    assert [c[3] for c in transport.calls if c[2].startswith("http://10.0.0.5")] == ["k-direct"]
    assert [c[4]["model"] for c in transport.chats() if c[2].startswith(BASE) and c[4]] == [
        "g/listed",
        "x/nowhere",
    ]


def test_without_a_gateway_a_model_with_no_direct_route_is_skipped(store: RoutabilityStore) -> None:
    clock = Clock()
    direct = DirectRoute(base_url="http://10.0.0.5:8000/v1", model="private-2025")
    transport = Scripted(lambda method, url, body: HttpReply(200, OK), clock)
    settings = RoutabilityConfig(pace=0.0, models=("x/nowhere",), direct_routes={"acme/private": direct})
    summary = run(store, transport, settings, gateway=None)
    rows = store.rows()
    assert (rows["acme/private"].status, rows["acme/private"].source) == (Status.HEALTHY, Source.DIRECT)
    assert rows["x/nowhere"].status is Status.UNKNOWN and "skipped" in rows["x/nowhere"].note
    assert (summary.probed, summary.skipped) == (1, 1)
    assert [c[2] for c in transport.calls] == ["http://10.0.0.5:8000/v1/chat/completions"]


def test_the_gateway_is_preferred_over_a_direct_route(store: RoutabilityStore) -> None:
    clock = Clock()
    transport = Scripted(gateway_answers(catalogue("a/both"), lambda m: HttpReply(200, OK)), clock)
    settings = RoutabilityConfig(
        pace=0.0, direct_routes={"a/both": DirectRoute(base_url="http://h/v1", model="both")}
    )
    run(store, transport, settings)
    assert store.rows()["a/both"].source is Source.GATEWAY
    assert not [c for c in transport.calls if c[2].startswith("http://h/")]


def test_a_missing_gateway_key_is_degraded_and_nothing_is_sent(store: RoutabilityStore) -> None:
    clock = Clock()
    transport = Scripted(gateway_answers(catalogue("a/x"), lambda m: HttpReply(200, OK)), clock)
    run(
        store,
        transport,
        RoutabilityConfig(pace=0.0),
        gateway=GatewayConfig(base_url=BASE, api_key=None, kind="openai-compatible"),
    )
    row = store.rows()["a/x"]
    assert (row.status, row.reason) == (Status.DEGRADED, Reason.MISSING_KEY)
    assert transport.chats() == []


def test_a_failed_catalogue_listing_reuses_the_last_one_and_invents_nothing(store: RoutabilityStore) -> None:
    clock = Clock()
    ok = Scripted(gateway_answers(catalogue("a/x", "b/y"), lambda m: HttpReply(200, OK)), clock)
    run(store, ok, RoutabilityConfig(pace=0.0))

    def outage(method: str, url: str, body: dict[str, Any] | None) -> HttpReply:
        if url == f"{BASE}/models":
            return HttpReply(503, {"error": {"code": 503, "message": "Service Unavailable"}})
        return HttpReply(503, "upstream unavailable")

    broken = Scripted(outage, clock)
    summary = run(store, broken, RoutabilityConfig(pace=0.0))
    assert summary.catalogue_listed is False and summary.probed == 2
    rows = store.rows()
    assert {r.status for r in rows.values()} == {Status.DEGRADED}
    assert all(r.listed is not None for r in rows.values())  # the last listed signal is kept


def test_catalogue_filter_and_non_chat_models(store: RoutabilityStore) -> None:
    clock = Clock()
    models = catalogue("acme/a", "acme/b:free", "other/c")
    models["data"].append({"id": "acme/img", "architecture": {"output_modalities": ["image"]}})
    transport = Scripted(gateway_answers(models, lambda m: HttpReply(200, OK)), clock)
    run(
        store,
        transport,
        RoutabilityConfig(
            pace=0.0, catalogue_filter=CatalogueFilter(include=("acme/*",), exclude=("*:free",))
        ),
    )
    assert list(store.rows()) == ["acme/a"]


def test_without_a_gateway_rows_that_are_no_longer_targets_keep_their_state(store: RoutabilityStore) -> None:
    store.put(RoutabilityRow("old/model", Status.UNAVAILABLE, last_check=5.0, consecutive_failures=2))
    clock = Clock()
    transport = Scripted(lambda method, url, body: HttpReply(200, OK), clock)
    settings = RoutabilityConfig(
        pace=0.0, direct_routes={"a/x": DirectRoute(base_url="http://h/v1", model="x")}
    )
    summary = run(store, transport, settings, gateway=None)
    assert (summary.probed, summary.skipped) == (1, 0)
    assert store.rows()["old/model"] == RoutabilityRow(
        "old/model", Status.UNAVAILABLE, last_check=5.0, consecutive_failures=2
    )


def test_httpx_transport_sends_the_key_and_no_cache_and_reports_failures_as_values() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        if request.url.path.endswith("/slow"):
            raise httpx.ReadTimeout("timed out", request=request)
        if request.url.path.endswith("/down"):
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, content=b'\n\n{"ok": true}')  # OpenRouter's leading heartbeats

    async def scenario() -> list[HttpReply]:
        transport = HttpxTransport(transport=httpx.MockTransport(handler))
        try:
            return [
                await transport.request(
                    "POST", "http://gw.test/v1/chat/completions", Secret("env:K", "sk-1"), {"a": 1}
                ),
                await transport.request("GET", "http://gw.test/v1/slow", None),
                await transport.request("GET", "http://gw.test/v1/down", None),
            ]
        finally:
            await transport.aclose()

    ok, slow, down = asyncio.run(scenario())
    assert ok == HttpReply(200, {"ok": True})
    assert (slow.status, slow.failure) == (None, "timeout")
    assert (down.status, down.failure) == (None, "network")
    assert seen[0].headers["authorization"] == "Bearer sk-1"
    assert seen[0].headers["x-openrouter-cache"] == "false"
    assert "authorization" not in seen[1].headers


def test_a_known_model_that_expired_is_probed_again_and_an_explicit_model_goes_through_the_gateway(
    store: RoutabilityStore,
) -> None:
    store.put(RoutabilityRow("old/expired", Status.HEALTHY, last_check=5.0, source=Source.GATEWAY))
    models = catalogue("a/active", "old/expired", "x/embed")
    models["data"][1]["expiration_date"] = "2020-01-01"
    models["data"][2]["architecture"] = {"output_modalities": ["embeddings"]}
    deprecated = {
        "error": {
            "message": "old/expired has been deprecated",
            "error_type": "not_found",
            "http_status": 404,
            "availability": {"code": "model_deprecated", "retryable": False},
        }
    }
    answers = {
        "a/active": HttpReply(200, OK),
        "old/expired": HttpReply(404, deprecated),
        "x/embed": HttpReply(400, {"error": {"code": 400, "message": "x/embed is an embedding model"}}),
    }
    transport = Scripted(gateway_answers(models, by_model(answers)), Clock())
    summary = run(store, transport, RoutabilityConfig(pace=0.0, models=("x/embed",)))
    rows = store.rows()
    assert (rows["old/expired"].status, rows["old/expired"].reason) == (
        Status.UNAVAILABLE,
        Reason.MODEL_DEPRECATED,
    )
    assert (rows["x/embed"].status, rows["x/embed"].source) == (Status.DEGRADED, Source.GATEWAY)
    assert summary.skipped == 0 and summary.probed == 3


def test_an_unreadable_stored_catalogue_is_treated_as_empty(store: RoutabilityStore) -> None:
    store.set_meta("catalogue", "{not json")

    def outage(method: str, url: str, body: dict[str, Any] | None) -> HttpReply:
        return HttpReply(None, None, "network", "refused")

    summary = run(store, Scripted(outage, Clock()), RoutabilityConfig(pace=0.0, models=("a/x",)))
    # the configured model is still asked of the gateway (which is down: degraded, never invented)
    assert (summary.catalogue_listed, summary.probed, summary.skipped) == (False, 1, 0)
    assert (store.rows()["a/x"].status, store.rows()["a/x"].reason) == (Status.DEGRADED, Reason.NETWORK)


def test_a_delisted_model_is_probed_again_and_gets_an_honest_status(store: RoutabilityStore) -> None:
    """Delisting is how models are removed: a known or configured model that leaves the catalogue is asked
    again through the gateway (model_not_found -> unavailable), never left ``healthy`` forever."""
    clock = Clock()
    listed = {"acme/a", "acme/b", "acme/c"}

    def chat(model: str) -> HttpReply:
        if model in listed:
            return HttpReply(200, OK)
        return HttpReply(400, {"error": {"code": 400, "message": f"{model} is not a valid model ID"}})

    settings = RoutabilityConfig(pace=0.0, models=("acme/a",))
    run(store, Scripted(gateway_answers(catalogue(*sorted(listed)), chat), clock), settings)
    assert {r.status for r in store.rows().values()} == {Status.HEALTHY}

    listed.clear()
    listed.add("acme/b")  # acme/a (configured) and acme/c (known) leave the catalogue
    clock.now += 86_400
    transport = Scripted(gateway_answers(catalogue("acme/b"), chat), clock)
    summary = run(store, transport, settings)
    rows = store.rows()
    for slug in ("acme/a", "acme/c"):
        assert (rows[slug].status, rows[slug].reason, rows[slug].source) == (
            Status.UNAVAILABLE,
            Reason.MODEL_NOT_FOUND,
            Source.GATEWAY,
        )
        assert rows[slug].last_check is not None and rows[slug].last_check > 86_000
    assert rows["acme/b"].status is Status.HEALTHY
    assert (summary.probed, summary.skipped) == (3, 0)
    assert sorted(c[4]["model"] for c in transport.chats() if c[4]) == ["acme/a", "acme/b", "acme/c"]
