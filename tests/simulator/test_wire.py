"""The wire format, checked over HTTP against a running simulator (reference §10 checklist)."""

from __future__ import annotations

import json
import socket
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest

from exporter.configkit import ConfigError
from exporter.devtools.simulator import wire
from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from tests.virtual_time import ManualClock

from .conftest import AUTH, FAULTS_MODEL, FLEETS, KIMI, MakeSim, chat, content_of, fleet_of, sse_events


def test_endpoint_listing_shape_and_stats_only_with_auth(kimi: SimulatorServer) -> None:
    url = f"{kimi.base_url}/models/{KIMI}/endpoints"
    data = httpx.get(url).json()["data"]
    assert data["id"] == KIMI and isinstance(data["endpoints"], list)
    assert {"id", "name", "created", "description", "architecture", "endpoints"} <= set(data)
    first = data["endpoints"][0]
    assert first["tag"] == "deepinfra/fp8" and first["provider_name"] == "DeepInfra"
    assert first["name"] == f"DeepInfra | {KIMI}"
    assert first["pricing"]["prompt"] == "0.0000005" and first["quantization"] == "fp8"
    assert "structured_outputs" in first["supported_parameters"] and first["max_completion_tokens"] == 16384
    assert first["latency_last_30m"] is None and first["throughput_last_30m"] is None
    authed = httpx.get(url, headers={"Authorization": "Bearer x"}).json()["data"]["endpoints"][0]
    assert authed["latency_last_30m"]["p50"] == 120.0  # milliseconds
    by_tag = {e["tag"]: e for e in data["endpoints"]}
    assert by_tag["deepinfra/turbo"]["provider_name"] == by_tag["deepinfra/fp8"]["provider_name"]


def test_unknown_model_listing_is_a_404(kimi: SimulatorServer) -> None:
    response = httpx.get(f"{kimi.base_url}/models/nobody/nothing/endpoints")
    assert response.status_code == 404
    assert response.json() == {"error": {"message": "Resource not found", "code": 404}}


def test_models_and_providers_listings(kimi: SimulatorServer) -> None:
    models = httpx.get(f"{kimi.base_url}/models").json()["data"]
    assert [m["id"] for m in models] == [KIMI]
    assert models[0]["links"] == {"details": f"/api/v1/models/{KIMI}/endpoints"}
    assert {"canonical_slug", "top_provider", "per_request_limits", "supported_parameters"} <= set(models[0])
    providers = {p["slug"]: p["name"] for p in httpx.get(f"{kimi.base_url}/providers").json()["data"]}
    assert providers["deepinfra"] == "DeepInfra" and providers["strictguard"] == "StrictGuard"


def test_non_streamed_completion(kimi: SimulatorServer) -> None:
    response = chat(kimi, "deepinfra/fp8", model=KIMI, locale="de")
    assert response.status_code == 200
    body = response.json()
    assert body["id"].startswith("gen-") and response.headers["x-generation-id"] == body["id"]
    assert (body["object"], body["model"], body["provider"]) == ("chat.completion", KIMI, "DeepInfra")
    choice = body["choices"][0]
    assert (choice["finish_reason"], choice["native_finish_reason"]) == ("stop", "stop")
    assert choice["message"]["role"] == "assistant" and choice["message"]["content"]
    usage = body["usage"]
    expected_cost = (
        Decimal("0.0000005") * usage["prompt_tokens"] + Decimal("0.000002") * usage["completion_tokens"]
    )
    assert usage["cost"] == pytest.approx(float(expected_cost))
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]
    assert {"prompt_tokens_details", "completion_tokens_details", "cost_details", "is_byok"} <= set(usage)


def test_stream_has_keepalives_role_chunk_finish_then_usage_then_done(faults: SimulatorServer) -> None:
    response = chat(faults, "healthy/fp8", stream=True)
    assert response.headers["content-type"].startswith("text/event-stream")
    assert response.text.startswith(": OPENROUTER PROCESSING\n\n")
    events = sse_events(response.text)
    data = [e for e in events if isinstance(e, dict)]
    assert data[0]["choices"][0]["delta"] == {"role": "assistant", "content": ""}
    assert all(e["id"] == response.headers["x-generation-id"] for e in data)
    assert all(e["provider"] == "Healthy" and e["object"] == "chat.completion.chunk" for e in data)
    finish_index = next(i for i, e in enumerate(data) if e["choices"] and e["choices"][0]["finish_reason"])
    assert data[finish_index]["choices"][0]["finish_reason"] == "stop"
    assert "usage" not in data[finish_index]
    usage_chunk = data[finish_index + 1]
    assert usage_chunk["usage"]["completion_tokens"] > 0 and "cost" in usage_chunk["usage"]
    assert usage_chunk["choices"] == [] or usage_chunk["choices"][0]["finish_reason"] is None
    assert events[-1] == "[DONE]" and len(data) == finish_index + 2
    assert content_of(events)


def test_both_usage_chunk_shapes_occur(faults: SimulatorServer) -> None:
    shapes = set()
    for _ in range(12):
        data = [e for e in sse_events(chat(faults, "healthy/fp8", stream=True).text) if isinstance(e, dict)]
        shapes.add("empty" if data[-1]["choices"] == [] else "null_finish")
    assert shapes == {"empty", "null_finish"}


@pytest.mark.serial  # a window of wall-clock time: run alone, not beside the parallel suite
def test_slow_stream_sends_comments_between_events_and_keeps_its_first_token_time(
    faults: SimulatorServer,
) -> None:
    started = time.perf_counter()
    first_content = None
    lines: list[str] = []
    with httpx.stream(
        "POST",
        f"{faults.base_url}/chat/completions",
        json={
            "model": FAULTS_MODEL,
            "messages": [{"role": "user", "content": "go"}],
            "stream": True,
            "provider": {"only": ["slow/fp8"]},
        },
        headers=AUTH,
    ) as response:
        for line in response.iter_lines():
            lines.append(line)
            if (
                first_content is None
                and line.startswith("data: {")
                and json.loads(line[6:])["choices"][0]["delta"].get("content")
            ):
                first_content = time.perf_counter() - started
    # The client's own clock adds its scheduling under load; the simulator's record below is the exact check.
    assert first_content is not None and 0.35 <= first_content < 0.85
    role_index = next(i for i, line in enumerate(lines) if line.startswith("data: "))
    first_content_index = next(
        i for i, line in enumerate(lines) if '"content":"' in line and '"content":""' not in line
    )
    between = [line for line in lines[role_index:first_content_index] if line.startswith(":")]
    assert len(between) == 3  # keepalive 100 ms, first token at 350 ms
    # The request log tells the time to first token the simulator applied, on the shared monotonic clock.
    (record,) = httpx.get(f"{faults.root_url}/_sim/requests").json()
    assert started < record["t_loop"] < record["first_token_loop"] < started + first_content
    assert 0.35 <= record["first_token_loop"] - record["t_loop"] < 0.36


def test_the_request_log_has_no_first_token_time_without_a_streamed_token(faults: SimulatorServer) -> None:
    chat(faults, "healthy/fp8")  # not streamed
    chat(faults, "thinker/bf16", stream=True)  # reasoning first: the first token is the first content
    plain, thinker = httpx.get(f"{faults.root_url}/_sim/requests").json()
    assert plain["first_token_loop"] is None
    assert thinker["first_token_loop"] - thinker["t_loop"] >= 0.05


def test_reasoning_deltas_come_before_content(faults: SimulatorServer) -> None:
    data = [e for e in sse_events(chat(faults, "thinker/bf16", stream=True).text) if isinstance(e, dict)]
    kinds = [
        "reasoning" if e["choices"][0]["delta"].get("reasoning") else "content"
        for e in data
        if e["choices"]
        and (e["choices"][0]["delta"].get("reasoning") or e["choices"][0]["delta"].get("content"))
    ]
    assert kinds[0] == "reasoning" and "content" in kinds
    assert kinds == sorted(kinds, key=lambda k: k != "reasoning")
    body = chat(faults, "thinker/bf16").json()
    assert (
        body["choices"][0]["message"]["reasoning"]
        and body["usage"]["completion_tokens_details"]["reasoning_tokens"] > 0
    )


def test_slow_non_streamed_answers_start_with_newline_heartbeats(faults: SimulatorServer) -> None:
    response = chat(faults, "slow/fp8")
    assert response.text.startswith("\n\n\n{")
    assert response.json()["provider"] == "Slow"


def test_generation_record_404s_briefly_then_lists_provider_responses() -> None:
    clock = ManualClock()  # the 404 window (200 ms in this fleet) is exact, whatever the machine's load
    with SimulatorServer(Simulator(load_fleet(FLEETS / "faults.yaml"), clock=clock)) as faults:
        gen_id = chat(faults, "healthy/fp8").json()["id"]
        url = f"{faults.base_url}/generation"
        clock.now += 0.19
        assert httpx.get(url, params={"id": gen_id}, headers=AUTH).status_code == 404
        clock.now += 0.02
        data = httpx.get(url, params={"id": gen_id}, headers=AUTH).json()["data"]
    assert data["id"] == gen_id and data["provider_name"] == "Healthy"
    assert [r["provider_name"] for r in data["provider_responses"]] == ["Healthy"]
    assert data["provider_responses"][0]["status"] == 200


def test_unknown_model_is_a_400_with_availability(faults: SimulatorServer) -> None:
    response = chat(faults, None, model="acme/fake-1.0")
    assert response.status_code == 400
    assert response.json() == wire.unavailable("model_not_found", "acme/fake-1.0")
    assert response.json()["error"]["availability"]["code"] == "model_not_found"
    assert response.json()["error"]["message"] == "acme/fake-1.0 is not a valid model ID"


def test_a_pin_nobody_serves_is_the_no_allowed_providers_404(faults: SimulatorServer) -> None:
    response = chat(faults, "ghost/fp8")
    assert response.status_code == 404
    error = response.json()["error"]
    assert error["message"] == "No allowed providers are available for the selected model."
    assert error["code"] == 404 and error["metadata"]["requested_providers"] == ["ghost/fp8"]
    assert "healthy/fp8" in error["metadata"]["available_providers"]
    assert "hidden/fp8" not in error["metadata"]["available_providers"]


def test_unknown_provider_keys_are_rejected(faults: SimulatorServer) -> None:
    response = chat(faults, None, provider={"only": ["healthy/fp8"], "allow_fallback": False})
    assert response.status_code == 400
    issues = json.loads(response.json()["error"]["message"])
    assert issues == [
        {
            "code": "unrecognized_keys",
            "keys": ["allow_fallback"],
            "path": ["provider"],
            "message": "Unrecognized key(s) in object: 'allow_fallback'",
        }
    ]
    assert chat(faults, None, provider={"only": "healthy/fp8"}).status_code == 400


@pytest.mark.parametrize(
    ("entry", "allowed"),
    [
        ("healthy", {"Healthy:healthy/fp8", "Healthy:healthy/turbo"}),
        ("healthy/priority", {"Healthy:healthy/priority"}),
        ("healthy/turbo", {"Healthy:healthy/turbo"}),
    ],
)
def test_only_matches_tags_and_base_slugs_but_not_service_tiers(
    faults: SimulatorServer, entry: str, allowed: set[str]
) -> None:
    for _ in range(8):
        assert chat(faults, entry).status_code == 200
    served = {f"Healthy:{r['provider']}" for r in httpx.get(f"{faults.root_url}/_sim/requests").json()}
    assert served <= allowed


@pytest.mark.parametrize("entry", ["HEALTHY/TURBO", "Healthy", "healthy/Turbo", " healthy/turbo"])
def test_a_wrong_case_or_display_name_pin_matches_nothing_as_on_openrouter(
    faults: SimulatorServer, entry: str
) -> None:
    response = chat(faults, entry)
    assert response.status_code == 404
    assert response.json()["error"]["metadata"]["requested_providers"] == [entry]
    ignored = chat(faults, "healthy/turbo", provider={"only": ["healthy/turbo"], "ignore": [entry]})
    assert ignored.status_code == 200  # an entry that matches nothing ignores nothing


def test_max_tokens_above_the_endpoint_limit_removes_it(faults: SimulatorServer) -> None:
    response = chat(faults, "nostruct/fp8", max_tokens=65)
    assert response.status_code == 404
    assert response.json()["error"]["availability"]["code"] == "constraint_filtered"
    assert chat(faults, "nostruct/fp8", max_tokens=64).status_code == 200
    assert chat(faults, "nostruct/fp8", max_tokens=None, max_completion_tokens=65).status_code == 404


def test_require_parameters_and_silently_dropped_parameters(faults: SimulatorServer) -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    response_format = {"type": "json_schema", "json_schema": {"name": "x", "strict": True, "schema": schema}}
    pinned = chat(faults, "nostruct/fp8", max_tokens=64, response_format=response_format)
    assert pinned.status_code == 404
    assert pinned.json()["error"]["availability"]["excluded_by"] == ["require_parameters"]
    loose = chat(
        faults, None, max_tokens=64, response_format=response_format, provider={"only": ["nostruct/fp8"]}
    )
    assert loose.status_code == 200
    with pytest.raises(ValueError):
        json.loads(loose.json()["choices"][0]["message"]["content"])  # the schema was dropped: prose
    supported = chat(faults, "healthy/fp8", response_format=response_format).json()
    assert json.loads(supported["choices"][0]["message"]["content"])["a"]


def test_fallbacks_are_on_by_default_and_off_when_asked(make_sim: MakeSim) -> None:
    sim = make_sim(FLEETS / "fallback.yaml")
    model = "test/fallback"
    for _ in range(6):
        response = chat(sim, None, model=model, provider={})
        assert response.status_code == 200 and response.json()["provider"] == "Steady"
    assert chat(sim, None, model=model, provider={"order": ["stormy/fp8"]}).json()["provider"] == "Steady"
    pinned = chat(sim, "stormy/fp8", model=model)
    assert pinned.status_code == 502 and pinned.json()["error"]["metadata"]["provider_name"] == "Stormy"
    ordered = chat(sim, None, model=model, provider={"order": ["stormy/fp8"], "allow_fallbacks": False})
    assert ordered.status_code == 502
    gen_id = chat(sim, None, model=model, provider={"order": ["stormy/fp8"]}).json()["id"]
    time.sleep(0.6)
    record = httpx.get(f"{sim.base_url}/generation", params={"id": gen_id}, headers=AUTH).json()["data"]
    assert [(r["provider_name"], r["status"]) for r in record["provider_responses"]] == [
        ("Stormy", 502),
        ("Steady", 200),
    ]


def test_api_key_is_required_when_the_fleet_sets_one(make_sim: MakeSim) -> None:
    sim = make_sim(
        FLEETS / "secured.yaml", environ={"SIM_TEST_API_KEY": "k-1", "SIM_TEST_CONTROL_TOKEN": "c-2"}
    )
    for headers in ({"Authorization": "Bearer wrong"}, AUTH):
        response = chat(sim, "healthy/fp8", model="test/secured", headers=headers)
        assert response.status_code == 401
        assert response.json() == {"error": {"message": "User not found.", "code": 401}}
    for headers in ({}, {"Authorization": "k-1"}):
        response = chat(sim, "healthy/fp8", model="test/secured", headers=headers)
        assert response.json() == {"error": {"message": "Missing Authentication header", "code": 401}}
    ok = chat(sim, "healthy/fp8", model="test/secured", headers={"Authorization": "Bearer k-1"})
    assert ok.status_code == 200


def test_a_key_is_required_by_default_and_any_key_serves_a_fleet_without_one(faults: SimulatorServer) -> None:
    missing = chat(faults, "healthy/fp8", headers={})
    assert missing.status_code == 401
    assert missing.json()["error"]["message"] == "Missing Authentication header"
    generation = httpx.get(f"{faults.base_url}/generation", params={"id": "gen-1"})
    assert generation.status_code == 401
    assert chat(faults, "healthy/fp8", headers={"Authorization": "Bearer sk-or-v1-any"}).status_code == 200


def test_a_fleet_may_opt_out_of_keys_but_not_while_it_sets_one(make_sim: MakeSim, tmp_path: Path) -> None:
    fleet = "require_key: false\nmodels: [{id: a/b, providers: [{tag: x/y}]}]\n"
    (tmp_path / "open.yaml").write_text(fleet)
    sim = make_sim(tmp_path / "open.yaml")
    assert chat(sim, "x/y", model="a/b", headers={}).status_code == 200
    with pytest.raises(ConfigError, match="require_key: is false but api_key is set"):
        fleet_of(tmp_path, "api_key: {env: K}\n" + fleet, environ={"K": "v"})


def test_malformed_requests_are_400_and_oversized_413(faults: SimulatorServer) -> None:
    url = f"{faults.base_url}/chat/completions"
    assert httpx.post(url, content=b"{not json", headers=AUTH).status_code == 400
    assert httpx.post(url, json={"model": FAULTS_MODEL, "messages": []}, headers=AUTH).status_code == 400
    assert (
        httpx.post(
            url,
            json={"model": FAULTS_MODEL, "messages": [{"role": "user", "content": "x"}], "max_tokens": 0},
            headers=AUTH,
        ).status_code
        == 400
    )
    huge = {"model": FAULTS_MODEL, "messages": [{"role": "user", "content": "x" * (1 << 20)}]}
    assert httpx.post(url, json=huge, headers=AUTH).status_code == 413


def test_a_body_declared_too_large_is_refused_before_it_is_sent(faults: SimulatorServer) -> None:
    # The body is never sent: a server that buffered before checking the size would wait for it (and hold
    # whatever arrived); a bounded reader answers 413 from the declared length at once.
    url = httpx.URL(f"{faults.base_url}/chat/completions")
    head = (
        f"POST {url.raw_path.decode()} HTTP/1.1\r\nHost: {url.host}\r\n"
        f"Authorization: {AUTH['Authorization']}\r\nContent-Type: application/json\r\n"
        "Content-Length: 10000000000\r\n\r\n"
    )
    with socket.create_connection((url.host, url.port or 80), timeout=10) as conn:
        conn.sendall(head.encode())
        reply = conn.makefile("rb")  # the head and the body may arrive in separate segments
        status = reply.readline()
        fields = dict(line.decode().split(":", 1) for line in iter(reply.readline, b"\r\n"))
        body = json.loads(reply.read(int(fields["content-length"])))
    assert status.startswith(b"HTTP/1.1 413"), status
    assert "exceeds the limit of" in body["error"]["message"]


@pytest.mark.serial  # a window of wall-clock time: run alone, not beside the parallel suite
def test_small_successive_writes_are_not_delayed_by_nagle(faults: SimulatorServer) -> None:
    # A 1 ms TTFT stream is several small writes; with Nagle + delayed ACK each costs ~40 ms.
    with httpx.Client(verify=False, headers=AUTH) as client:
        chat(faults, "healthy/fp8", stream=True)  # warm-up
        started = time.perf_counter()
        for _ in range(5):
            body = {"model": FAULTS_MODEL, "messages": [{"role": "user", "content": "go"}], "stream": True,
                    "max_tokens": 16, "provider": {"only": ["healthy/fp8"]}}  # fmt: skip
            assert client.post(f"{faults.base_url}/chat/completions", json=body).status_code == 200
    assert (time.perf_counter() - started) / 5 < 0.03


def test_a_reasoning_host_honours_openrouters_reasoning_parameter(faults: SimulatorServer) -> None:
    def usage_and_message(**extra: Any) -> tuple[dict[str, Any], dict[str, Any]]:
        body = chat(faults, "thinker/bf16", max_tokens=600, **extra).json()
        return body["usage"], body["choices"][0]["message"]

    default, _ = usage_and_message()
    low, shown = usage_and_message(reasoning={"effort": "low"})
    capped, _ = usage_and_message(reasoning={"max_tokens": 5})
    hidden_usage, hidden = usage_and_message(reasoning={"effort": "low", "exclude": True})
    off, _ = usage_and_message(reasoning={"enabled": False})
    thought = [u["completion_tokens_details"]["reasoning_tokens"] for u in (default, low, capped, off)]
    assert thought[0] > thought[1] > thought[2] == 5 and thought[3] == 0
    assert shown["reasoning"] and not hidden.get("reasoning")
    assert hidden_usage["completion_tokens_details"]["reasoning_tokens"] == thought[1]  # billed, not shown
    effort, _ = usage_and_message(reasoning_effort="minimal")
    assert 0 < effort["completion_tokens_details"]["reasoning_tokens"] < thought[1]
    small = chat(faults, "thinker/bf16", max_tokens=48).json()["choices"][0]
    assert small["finish_reason"] == "length" and not small["message"]["content"]  # left to itself
