"""The round engine with a scripted in-process gateway: discovery reuse, controls, pinning, concurrency."""

from __future__ import annotations

import asyncio
import math
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest
from prometheus_client.exposition import generate_latest
from starlette.testclient import TestClient

from exporter.commands.exporter_service import ExporterService
from exporter.contracts.refusal import RefusalContract
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.engine.rounds import ModelPlan, Prober, ProgressCallback, RoundProgress, RoundReport
from exporter.engine.state_body import state_body
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.outcomes import Outcome, Reason

MODEL = "acme/model-1"


def ep(tag: str, structured: bool = True) -> Endpoint:
    return Endpoint(
        tag=tag,
        provider_name=tag.split("/")[0].title(),
        supported_parameters=frozenset({"structured_outputs"} if structured else ()),
    )


STORY = "Steel rings on steel as the captains trade blows across the burning deck."
SHEET = '{"name": "Pim", "mood": "calm", "hit_points": 40, "items": []}'


class ScriptedGateway:
    """Answers like a healthy host unless ``faults[tag]`` returns a replacement ChatResult."""

    def __init__(self, endpoints: list[Endpoint]) -> None:
        self.endpoints = endpoints
        self.discovery_error: GatewayError | None = None
        self.faults: dict[str, Callable[[ChatRequest], ChatResult]] = {}
        self.in_flight: dict[str, int] = {}
        self.max_total = 0
        self.max_per_host = 0
        self.requests: list[ChatRequest] = []

    async def discover(self, model: str) -> list[Endpoint] | GatewayError:
        return self.discovery_error or list(self.endpoints)

    async def chat(self, request: ChatRequest) -> ChatResult:
        tag = request.pin or ""
        self.requests.append(request)
        self.in_flight[tag] = self.in_flight.get(tag, 0) + 1
        self.max_per_host = max(self.max_per_host, self.in_flight[tag])
        self.max_total = max(self.max_total, sum(self.in_flight.values()))
        await asyncio.sleep(0.01)
        self.in_flight[tag] -= 1
        served = tag.split("/")[0].title()
        if tag in self.faults:
            return self.faults[tag](request)
        if request.stream:
            return ChatResult(content="Welcome!", ttft_seconds=0.05, finish_reason="stop", served_by=served)
        if request.response_format:
            return ChatResult(content=SHEET, finish_reason="stop", served_by=served)
        return ChatResult(content=STORY, finish_reason="stop", served_by=served)


def prober(
    gw: ScriptedGateway, concurrency: int = 8, known_filtering: frozenset[str] = frozenset()
) -> Prober:
    contracts = [TTFTContract(TTFTSettings(threshold=1.0)), RefusalContract(), StructuredContract()]
    return Prober([ModelPlan(MODEL, gw, known_filtering=known_filtering)], contracts, concurrency)


def test_healthy_hosts_pass_every_contract_and_unadvertised_structured_output_is_skipped() -> None:
    gw = ScriptedGateway([ep("alpha/fp8"), ep("beta", structured=False)])
    report = asyncio.run(prober(gw).run_round(1))
    assert {c: r.outcome for c, r in report.results[(MODEL, "alpha/fp8")].items()} == {
        "ttft": Outcome.PASS,
        "refusal": Outcome.PASS,
        "structured": Outcome.PASS,
    }
    assert report.results[(MODEL, "beta")]["structured"].reason is Reason.NOT_ADVERTISED
    assert all(r.pin in {"alpha/fp8", "beta"} for r in gw.requests)


def test_probes_are_sequential_per_host_and_bounded_across_hosts() -> None:
    gw = ScriptedGateway([ep(f"host{i}") for i in range(12)])
    asyncio.run(prober(gw, concurrency=3).run_round(1))
    assert gw.max_per_host == 1
    assert gw.max_total == 3


def test_progress_counts_each_host_once_as_it_finishes_its_probes_controls_included() -> None:
    gw = ScriptedGateway([ep(f"host{i}") for i in range(5)] + [ep("guard")])
    heard: list[tuple[RoundProgress, int, int]] = []  # the event, the host's requests so far, in flight

    def on_progress(progress: RoundProgress) -> None:
        tag = progress.host[1] if progress.host else ""
        heard.append((progress, sum(r.pin == tag for r in gw.requests), gw.in_flight.get(tag, 0)))

    p = prober(gw, concurrency=2, known_filtering=frozenset({"guard"}))
    report = asyncio.run(p.run_round(7, on_progress))
    events = [event for event, _, _ in heard]
    assert events[0] == RoundProgress(7, 0, 6, None), "probing starts once discovery is done"
    assert [e.done for e in events] == list(range(7)) and {e.total for e in events} == {6}
    finished = [e.host for e in events[1:]]
    assert sorted(finished, key=str) == sorted([*report.results, *report.controls], key=str)
    probes = {key: len(r) for key, r in [*report.results.items(), *report.controls.items()]}
    for event, requests, in_flight in heard[1:]:
        assert event.host is not None
        assert requests == probes[event.host] and in_flight == 0, "told only once its probes are done"


def test_a_failing_progress_callback_changes_no_verdict() -> None:
    gw = ScriptedGateway([ep("alpha"), ep("beta")])

    def broken(progress: RoundProgress) -> None:
        raise RuntimeError("display bug")

    report = asyncio.run(prober(gw).run_round(1, broken))
    assert set(report.results) == {(MODEL, "alpha"), (MODEL, "beta")}
    assert {r.outcome for by in report.results.values() for r in by.values()} == {Outcome.PASS}


def test_discovery_failure_reuses_the_last_list_and_invents_no_verdict() -> None:
    gw = ScriptedGateway([ep("alpha")])
    p = prober(gw)
    asyncio.run(p.run_round(1))
    gw.discovery_error = GatewayError(Outcome.TRANSPORT, Reason.SERVER_ERROR, 502)
    report = asyncio.run(p.run_round(2))
    assert set(report.discovery_errors) == {MODEL}
    assert (MODEL, "alpha") in report.results


def test_first_discovery_failure_probes_nothing() -> None:
    gw = ScriptedGateway([ep("alpha")])
    gw.discovery_error = GatewayError(Outcome.TRANSPORT, Reason.NETWORK, None)
    report = asyncio.run(prober(gw).run_round(1))
    assert report.results == {}


def test_a_reply_served_by_another_provider_is_a_pin_violation() -> None:
    gw = ScriptedGateway([ep("alpha")])
    gw.faults["alpha"] = lambda r: ChatResult(content=STORY, finish_reason="stop", served_by="Someone Else")
    report = asyncio.run(prober(gw).run_round(1))
    assert {r.outcome for r in report.results[(MODEL, "alpha")].values()} == {Outcome.PIN_VIOLATION}


def test_a_known_filtering_host_that_stops_refusing_makes_the_refusal_probe_weak() -> None:
    gw = ScriptedGateway([ep("alpha"), ep("guard")])
    report = asyncio.run(prober(gw, known_filtering=frozenset({"guard"})).run_round(1))
    assert (MODEL, "guard") not in report.results
    assert report.controls[(MODEL, "guard")]["refusal"].outcome is Outcome.PASS
    assert report.weak == {(MODEL, "refusal"): ("live:guard",)}
    gw.faults["guard"] = lambda r: ChatResult(content="", finish_reason="content_filter", served_by="Guard")
    report = asyncio.run(prober(gw, known_filtering=frozenset({"guard"})).run_round(1))
    assert report.weak == {}


def test_a_crashing_probe_becomes_a_non_evidence_outcome() -> None:
    gw = ScriptedGateway([ep("alpha")])

    def boom(request: ChatRequest) -> ChatResult:
        raise RuntimeError("bug")

    gw.faults["alpha"] = boom
    report = asyncio.run(prober(gw).run_round(1))
    assert {(r.outcome, r.reason) for r in report.results[(MODEL, "alpha")].values()} == {
        (Outcome.TRANSPORT, Reason.PROBE_ERROR)
    }


def test_two_failing_rounds_reach_streak_two_and_storms_never_advance() -> None:
    gw = ScriptedGateway([ep("alpha"), ep("slow"), ep("stormy")])
    gw.faults["slow"] = lambda r: (
        ChatResult(first_token_timed_out=True, served_by="Slow")
        if r.stream
        else ChatResult(content=STORY, finish_reason="stop", served_by="Slow")
    )
    gw.faults["stormy"] = lambda r: ChatResult(
        error=GatewayError(Outcome.TRANSPORT, Reason.RATE_LIMITED, 429)
    )
    service = ExporterService(prober(gw).plans, prober(gw).contracts, 0.0, 8)
    snap = asyncio.run(service.run(rounds=2)) or service.snapshot
    assert snap.streaks.failing[(MODEL, "slow", "ttft")] == 2
    assert all(v == 0 for k, v in snap.streaks.failing.items() if k[1] != "slow")
    assert snap.streaks.clean[(MODEL, "alpha")] == 2
    assert snap.streaks.clean[(MODEL, "stormy")] == 0
    state = state_body(snap).model_dump(mode="json")
    assert state["models"][MODEL]["providers"]["slow"]["contracts"]["ttft"]["failing_streak"] == 2
    # the streak began in the first round: the exported start is that round's (whole seconds, rounded down)
    assert snap.last_round is not None
    first_round_start = snap.streaks.failing_since[(MODEL, "slow", "ttft")]
    assert first_round_start < snap.last_round.started_at
    body = generate_latest(service.registry).decode()
    labels = '{contract="ttft",model="acme/model-1",provider="slow"}'
    wanted = f"canary_probe_failing_since_timestamp_seconds{labels}"
    (line,) = [x for x in body.splitlines() if x.startswith(wanted)]
    assert float(line.split()[-1]) == math.floor(first_round_start)


def test_the_exposition_passes_promtool_check_metrics() -> None:
    gw = ScriptedGateway([ep("alpha"), ep("beta")])
    service = ExporterService(prober(gw).plans, prober(gw).contracts, 0.01, 8)
    asyncio.run(service.run(rounds=2))
    body = generate_latest(service.registry)
    assert b'canary_probe_failing_streak{contract="ttft",model="acme/model-1",provider="alpha"} 0.0' in body
    assert b"canary_probe_ttft_seconds_bucket" in body
    check = subprocess.run(["promtool", "check", "metrics"], input=body, capture_output=True, check=False)
    assert check.returncode == 0, check.stdout + check.stderr


def test_a_round_that_crashes_is_logged_and_the_schedule_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    gw = ScriptedGateway([ep("alpha")])
    service = ExporterService(prober(gw).plans, prober(gw).contracts, 0.0, 8)
    real = service.prober.run_round
    calls = []

    async def flaky(number: int, on_progress: ProgressCallback | None = None) -> RoundReport:
        calls.append(number)
        if len(calls) == 1:
            raise RuntimeError("bug in round 1")
        return await real(number, on_progress)

    service.prober.run_round = flaky  # type: ignore[method-assign]
    asyncio.run(service.run(rounds=2))
    assert len(calls) == 2 and service.snapshot.rounds_total == 1
    assert "round failed" in caplog.text and service.loop_failed is None


def test_healthz_reports_a_dead_round_loop() -> None:
    service = ExporterService([], [], 1.0, 1)
    client = TestClient(service.app())
    assert client.get("/healthz").status_code == 200
    service.loop_failed = SystemExit(3)
    response = client.get("/healthz")
    assert response.status_code == 503 and "round loop stopped" in response.text


def test_an_endpoint_listed_without_a_display_name_is_not_a_pin_violation() -> None:
    gw = ScriptedGateway([Endpoint(tag="anon/fp8", provider_name="", supported_parameters=frozenset())])
    report = asyncio.run(prober(gw).run_round(1))
    assert Outcome.PIN_VIOLATION not in {r.outcome for r in report.results[(MODEL, "anon/fp8")].values()}


def test_a_timed_out_first_token_is_counted_beside_the_histogram_so_the_slowest_host_has_a_series() -> None:
    gw = ScriptedGateway([ep("alpha"), ep("slow")])
    gw.faults["slow"] = lambda r: (
        ChatResult(first_token_timed_out=True, served_by="Slow")
        if r.stream
        else ChatResult(content=STORY, finish_reason="stop", served_by="Slow")
    )
    service = ExporterService(prober(gw).plans, prober(gw).contracts, 0.0, 8)
    asyncio.run(service.run(rounds=2))
    body = generate_latest(service.registry).decode()
    assert 'canary_probe_ttft_timeouts_total{model="acme/model-1",provider="slow"} 2.0' in body
    assert 'canary_probe_ttft_timeouts_total{model="acme/model-1",provider="alpha"} 0.0' in body
    assert 'canary_probe_ttft_seconds_count{model="acme/model-1"} 2.0' in body  # alpha's two, not slow's
    assert 'canary_probe_ttft_last_seconds{model="acme/model-1",provider="alpha"}' in body
    assert 'canary_probe_ttft_last_seconds{model="acme/model-1",provider="slow"}' not in body


def test_the_discovery_failing_gauge_says_whether_the_last_round_could_list_the_endpoints() -> None:
    gw = ScriptedGateway([ep("alpha")])
    service = ExporterService(prober(gw).plans, prober(gw).contracts, 0.0, 8)
    asyncio.run(service.run(rounds=1))
    assert 'canary_discovery_failing{model="acme/model-1"} 0.0' in generate_latest(service.registry).decode()
    gw.discovery_error = GatewayError(Outcome.TRANSPORT, Reason.SERVER_ERROR, 503)
    asyncio.run(service.run(rounds=1))
    assert 'canary_discovery_failing{model="acme/model-1"} 1.0' in generate_latest(service.registry).decode()


def test_the_exporter_prepares_every_contract_before_it_freezes_its_start_up_heap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a judge loads on its first use (language models, lexicons) belongs in the frozen start-up heap:
    loaded after the freeze, every later full collection walks it, a pause in the event loop."""
    from exporter.commands import canary

    calls: list[str] = []
    monkeypatch.setattr(ExporterService, "prepare", lambda self: calls.append("prepare"))
    monkeypatch.setattr(canary, "tune_gc_for_latency", lambda: calls.append("freeze"))

    class Stopped:  # the server returns at once: the test needs the start-up, not the serving
        async def serve(self, sockets: object) -> None:
            calls.append("serve")

    monkeypatch.setattr(canary, "uvicorn_server", lambda app: Stopped())
    monkeypatch.setenv("CANARY_TEST_PREPARE_KEY", "k")
    config = tmp_path / "canary.yaml"
    config.write_text(
        "gateway:\n  base_url: http://127.0.0.1:9/api/v1\n  api_key: {env: CANARY_TEST_PREPARE_KEY}\n"
        "models:\n  - slug: acme/model-1\nexporter:\n  listen: 127.0.0.1:0\n"
    )
    assert asyncio.run(canary._serve_exporter(str(config))) == 0
    assert calls == ["prepare", "freeze", "serve"]


def test_preparing_the_service_prepares_each_of_its_contracts() -> None:
    prepared: list[str] = []

    class Recording(RefusalContract):
        def prepare(self) -> None:
            prepared.append(self.name)

    service = ExporterService([], [Recording(), TTFTContract()], 1.0, 1)
    service.prepare()
    assert prepared == ["refusal"]
