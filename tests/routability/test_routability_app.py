"""The HTTP surface: protected trigger with aggregates only, read API with ETags, /metrics, router client."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest
from prometheus_client.parser import text_string_to_metric_families

from exporter.configkit import Secret
from exporter.gateway.config import GatewayConfig
from exporter.outcomes import Reason
from exporter.routability.app import RoutabilityService, build_app
from exporter.routability.client import RoutabilityClient
from exporter.routability.config import RoutabilityConfig
from exporter.routability.job import Pacer, ProbeCallback, run_pass
from exporter.routability.model import ListedSignal, PassSummary, RoutabilityRow, Source, Status
from exporter.routability.schedule import Schedule
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpReply
from tests.virtual_time import loop_clock, run_virtual

DAILY = Schedule(at_minute=None, interval=86400.0)  # a pass every day after the last

NOW = 1_800_000_000.0
TOKEN = "trigger-s3cret"
BASE = "https://gw.test/api/v1"
MODELS = {
    "data": [
        {"id": s, "architecture": {"output_modalities": ["text"]}} for s in ("a/ok", "b/limited", "c/gone")
    ]
}


class FakeGateway:
    async def request(
        self, method: str, url: str, api_key: Secret | None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        await asyncio.sleep(0)
        if url.endswith("/models"):
            return HttpReply(200, MODELS)
        if url.endswith("/endpoints"):
            return HttpReply(
                200, {"data": {"endpoints": [{"tag": "p", "status": 0, "uptime_last_30m": 98.0}]}}
            )
        model = (body or {}).get("model")
        if model == "a/ok":
            return HttpReply(200, {"choices": [{"finish_reason": "stop", "message": {"content": "OK"}}]})
        if model == "b/limited":
            return HttpReply(429, {"error": {"code": 429, "message": "Provider returned error"}})
        return HttpReply(400, {"error": {"code": 400, "message": "c/gone is not a valid model ID"}})


def make_service(store: RoutabilityStore, token: str | None = TOKEN) -> RoutabilityService:
    settings = RoutabilityConfig(pace=0.0)

    async def one_pass(on_probe: ProbeCallback) -> PassSummary:
        gateway = GatewayConfig(base_url=BASE, api_key=Secret("env:K", "sk"))
        # paced on the loop's clock: under ``call`` (virtual time) the 429's 2 s backoff takes no real time
        pacer = Pacer(settings.pace, clock=loop_clock)
        return await run_pass(
            store, FakeGateway(), gateway, settings, pacer=pacer, wall_clock=lambda: NOW, on_probe=on_probe
        )

    return RoutabilityService(
        store,
        one_pass,
        trigger_token=token,
        schedule=DAILY,
        recent_window=6 * 3600.0,
        wall_clock=lambda: NOW + 60,
    )


def call(service: RoutabilityService, scenario: Callable[[httpx.AsyncClient], Awaitable[Any]]) -> Any:
    async def main() -> Any:
        transport = httpx.ASGITransport(app=build_app(service))
        async with httpx.AsyncClient(transport=transport, base_url="http://rt.test") as client:
            return await scenario(client)

    return run_virtual(main())  # in-process ASGI: every wait is on the loop, so virtual time is exact


@pytest.fixture
def store(tmp_path: Path) -> RoutabilityStore:
    return RoutabilityStore(tmp_path / "r.sqlite3")


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"Basic {TOKEN}"}, {"Authorization": "Bearer"}],
)
def test_the_trigger_needs_the_secret(store: RoutabilityStore, headers: dict[str, str]) -> None:
    service = make_service(store)
    response = call(service, lambda c: c.post("/v1/routability/run?wait=true", headers=headers))
    assert response.status_code == 401
    assert "www-authenticate" in response.headers
    assert store.rows() == {}  # nothing ran


def test_the_trigger_is_disabled_without_a_configured_token(store: RoutabilityStore) -> None:
    response = call(make_service(store, token=None), lambda c: c.post("/v1/routability/run", headers={}))
    assert response.status_code == 403 and "trigger_token" in response.json()["error"]


def test_the_trigger_runs_a_pass_and_returns_aggregate_counts_only(store: RoutabilityStore) -> None:
    service = make_service(store)
    auth = {"Authorization": f"Bearer {TOKEN}"}
    response = call(service, lambda c: c.post("/v1/routability/run?wait=true", headers=auth))
    assert response.status_code == 200
    body = response.json()
    assert body["pass"]["results"] == {"healthy": 1, "degraded": 1, "unavailable": 1}
    assert body["models"] == {"unknown": 0, "healthy": 1, "degraded": 1, "unavailable": 1}
    text = response.text
    assert not any(slug in text for slug in ("a/ok", "b/limited", "c/gone"))  # no per-model detail
    assert "not a valid model ID" not in text


def test_the_background_trigger_answers_at_once_and_runs_one_pass_at_a_time(store: RoutabilityStore) -> None:
    service = make_service(store)
    auth = {"Authorization": f"Bearer {TOKEN}"}

    async def scenario(client: httpx.AsyncClient) -> tuple[httpx.Response, httpx.Response]:
        first = await client.post("/v1/routability/run", headers=auth)
        second = await client.post("/v1/routability/run", headers=auth)
        assert service.running
        await service.join()
        assert not service.running
        return first, second

    first, second = call(service, scenario)
    assert (first.status_code, first.json()["started"]) == (202, True)
    assert (second.status_code, second.json()["started"]) == (202, False)
    assert set(first.json()) == {"started", "running", "models", "last_pass"}
    assert len(store.rows()) == 3


def test_read_api_rows_with_status_age_and_etag(store: RoutabilityStore) -> None:
    store.put(
        RoutabilityRow(
            "moonshotai/kimi-k2-0905",
            Status.UNAVAILABLE,
            last_check=NOW,
            source=Source.GATEWAY,
            note="400: moonshotai/kimi-k2-0905 is not a valid model ID",
            consecutive_failures=2,
            reason=Reason.MODEL_NOT_FOUND,
            http_status=400,
            listed=ListedSignal(NOW, 2, 1, 99.0),
        )
    )
    store.put(RoutabilityRow("z/never"))
    service = make_service(store)

    async def scenario(client: httpx.AsyncClient) -> list[httpx.Response]:
        listing = await client.get("/v1/routability")
        again = await client.get("/v1/routability", headers={"If-None-Match": listing.headers["etag"]})
        one = await client.get("/v1/routability/moonshotai/kimi-k2-0905")
        missing = await client.get("/v1/routability/nobody/here")
        return [listing, again, one, missing]

    listing, again, one, missing = call(service, scenario)
    rows = listing.json()["rows"]
    assert [r["slug"] for r in rows] == ["moonshotai/kimi-k2-0905", "z/never"]
    first = rows[0]
    assert {
        k: first[k] for k in ("status", "age_seconds", "last_check", "source", "consecutive_failures")
    } == {
        "status": "unavailable",
        "age_seconds": 60.0,
        "last_check": NOW,
        "source": "gateway",
        "consecutive_failures": 2,
    }
    assert first["note"].endswith("is not a valid model ID") and first["skip"] is True
    assert first["listed"] == {
        "checked_at": NOW,
        "endpoints": 2,
        "healthy_endpoints": 1,
        "best_uptime_30m": 99.0,
    }
    assert rows[1]["status"] == "unknown" and rows[1]["age_seconds"] is None and rows[1]["skip"] is False
    assert listing.json()["models"]["unavailable"] == 1
    assert again.status_code == 304
    assert one.status_code == 200 and one.json()["slug"] == "moonshotai/kimi-k2-0905"
    assert missing.status_code == 404


def test_metrics_expose_status_age_counts_and_probe_totals(store: RoutabilityStore) -> None:
    service = make_service(store)
    run_virtual(service.run_once())
    response = call(service, lambda c: c.get("/metrics"))
    samples = {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(response.text)
        for s in family.samples
    }

    def value(name: str, **labels: str) -> float:
        return samples[(name, tuple(sorted(labels.items())))]

    assert value("canary_routability_status", model="c/gone", status="unavailable") == 1.0
    assert value("canary_routability_status", model="c/gone", status="healthy") == 0.0
    assert value("canary_routability_status", model="b/limited", status="degraded") == 1.0
    assert value("canary_routability_last_check_age_seconds", model="a/ok") == 60.0
    assert value("canary_routability_models", status="healthy") == 1.0
    assert value("canary_routability_models", status="unknown") == 0.0
    assert value("canary_routability_probes_total", result="unavailable") == 1.0
    assert value("canary_routability_skipped_total") == 0.0
    assert value("canary_routability_listed_uptime_ratio", model="a/ok") == pytest.approx(0.98)
    assert value("canary_routability_last_pass_timestamp_seconds") == NOW
    assert value("canary_routability_pass_running") == 0.0
    assert "not a valid model ID" not in response.text  # notes never become labels


def test_the_schedule_runs_when_due_and_then_waits(store: RoutabilityStore) -> None:
    runs: list[float] = []
    clock = [NOW]

    async def one_pass(on_probe: ProbeCallback) -> PassSummary:
        runs.append(clock[0])
        summary = PassSummary(clock[0], clock[0], 0, 0)
        store.set_meta("last_pass", f'{{"finished_at": {clock[0]!r}}}')
        return summary

    async def sleep(seconds: float) -> None:
        clock[0] += seconds
        if clock[0] >= NOW + 2.5 * 86400:
            raise asyncio.CancelledError

    service = RoutabilityService(
        store, one_pass, trigger_token=None, schedule=DAILY, recent_window=1.0, wall_clock=lambda: clock[0],
        sleep=sleep,
    )  # fmt: skip
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(service.run_schedule())
    assert runs == [NOW, NOW + 86400, NOW + 2 * 86400]


def test_router_client_skips_only_recent_unavailable_and_fails_static(store: RoutabilityStore) -> None:
    store.put(RoutabilityRow("gone/model", Status.UNAVAILABLE, last_check=NOW))
    store.put(RoutabilityRow("old/gone", Status.UNAVAILABLE, last_check=NOW - 7 * 3600))
    store.put(RoutabilityRow("busy/model", Status.DEGRADED, last_check=NOW))
    app = build_app(make_service(store))
    up = [True]

    async def handler(request: httpx.Request) -> httpx.Response:
        if not up[0]:
            raise httpx.ConnectError("refused", request=request)
        return await httpx.ASGITransport(app=app).handle_async_request(request)

    async def scenario() -> dict[str, Any]:
        client = RoutabilityClient(
            "http://rt.test", transport=httpx.MockTransport(handler), clock=lambda: NOW + 60
        )
        try:
            out: dict[str, Any] = {"before": client.should_skip("gone/model")}
            out["first"] = await client.refresh()
            out["second"] = await client.refresh()  # 304
            up[0] = False
            out["down"] = await client.refresh()
            out["skips"] = {
                m: client.should_skip(m) for m in ("gone/model", "old/gone", "busy/model", "new/x")
            }
            out["staleness"] = client.staleness_seconds()
            return out
        finally:
            await client.aclose()

    out = asyncio.run(scenario())
    assert out["before"] is False
    assert (out["first"], out["second"], out["down"]) == (True, True, False)
    assert out["skips"] == {"gone/model": True, "old/gone": False, "busy/model": False, "new/x": False}
    assert out["staleness"] == 0.0


def test_read_api_honours_weak_and_wildcard_if_none_match(store: RoutabilityStore) -> None:
    store.put(RoutabilityRow("a/x", Status.HEALTHY, last_check=NOW, source=Source.GATEWAY))
    service = make_service(store)

    async def scenario(client: httpx.AsyncClient) -> list[httpx.Response]:
        etag = (await client.get("/v1/routability")).headers["etag"]
        headers = [f"W/{etag}", "*", f'"stale", W/{etag}', '"stale"', f'W/{etag[:-2]}"']
        return [await client.get("/v1/routability", headers={"If-None-Match": h}) for h in headers]

    weak, star, listed, stale, other = call(service, scenario)
    assert [r.status_code for r in (weak, star, listed, stale, other)] == [304, 304, 304, 200, 200]
    assert weak.headers["etag"] == stale.headers["etag"]


def test_every_documented_routability_metric_is_exported_and_vice_versa(store: RoutabilityStore) -> None:
    import re

    doc = (Path(__file__).resolve().parents[2] / "docs" / "metrics.md").read_text(encoding="utf-8")
    section = doc.split("## Routability", 1)[1].split("\n## ", 1)[0]
    documented = set(re.findall(r"^\| `(canary_routability_[a-z_]+)`", section, re.MULTILINE))
    store.put(RoutabilityRow("a/b", Status.HEALTHY, last_check=NOW, listed=ListedSignal(NOW, 1, 1, 100.0)))
    service = make_service(store)
    service.store.set_meta("last_pass", f'{{"finished_at": {NOW}}}')
    text = call(service, lambda c: c.get("/metrics")).text
    exported = set()
    for family in text_string_to_metric_families(text):
        exported.add(family.name + ("_total" if family.type == "counter" else ""))
    assert documented == exported


@pytest.mark.parametrize("wait", ["maybe", "2", "truthy"])
def test_the_trigger_refuses_a_wait_that_is_not_true_or_false_naming_it(
    store: RoutabilityStore, wait: str
) -> None:
    auth = {"Authorization": f"Bearer {TOKEN}"}
    response = call(
        make_service(store), lambda c: c.post("/v1/routability/run", params={"wait": wait}, headers=auth)
    )
    assert response.status_code == 400
    assert response.json() == {"error": f"wait: expected true or false (1/0, yes/no), got {wait!r}"}
    assert store.rows() == {}  # nothing ran


def test_the_openapi_document_describes_what_the_api_sends(store: RoutabilityStore) -> None:
    store.put(RoutabilityRow("a/b", Status.HEALTHY, last_check=NOW, listed=ListedSignal(NOW, 2, 1, 99.5)))
    auth = {"Authorization": f"Bearer {TOKEN}"}

    async def scenario(client: httpx.AsyncClient) -> list[httpx.Response]:
        return [
            await client.get("/openapi.json"),
            await client.get("/v1/routability"),
            await client.get("/v1/routability/a/b"),
            await client.get("/v1/routability/x/none"),
            await client.post("/v1/routability/run?wait=1", headers=auth),
        ]

    spec, listing, one, missing, ran = call(make_service(store), scenario)
    document = spec.json()
    assert set(document["paths"]) == {
        "/v1/routability/run", "/v1/routability", "/v1/routability/{slug}", "/metrics", "/openapi.json"
    }  # fmt: skip

    def check(response: httpx.Response, path: str, method: str = "get") -> None:
        content = document["paths"][path][method]["responses"][str(response.status_code)]["content"]
        schema = {**content["application/json"]["schema"], "components": document["components"]}
        jsonschema.validate(response.json(), schema)  # raises on any mismatch

    check(listing, "/v1/routability")
    check(one, "/v1/routability/{slug}")
    check(missing, "/v1/routability/{slug}")
    check(ran, "/v1/routability/run", "post")
    with pytest.raises(jsonschema.ValidationError):  # the check can fail: a row is not a listing
        jsonschema.validate(one.json(), {"$ref": "#/components/schemas/Rows", **document})
