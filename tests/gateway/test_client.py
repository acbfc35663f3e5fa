"""GatewayClient through httpx.MockTransport: request shape, streams, deadlines, errors, discovery."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine
from typing import Any, TypeVar

import httpx
import pytest

from exporter.gateway.classify import missing_key
from exporter.gateway.client import GatewayClient, parse_endpoint
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.outcomes import Outcome, Reason, Usage
from tests.virtual_time import loop_clock, run_virtual

from .conftest import FIXTURES, GARBAGE, read_stream

BASE = "https://openrouter.test/api/v1"
KEY = "sk-or-v1-secret-test-key-0123456789"
MESSAGES = (
    {"role": "system", "content": "You are Captain Mara Voss."},
    {"role": "user", "content": "Continue."},
)
LOGGER = "exporter.gateway"  # the client's logger

T = TypeVar("T")
Handler = Callable[[httpx.Request], Awaitable[httpx.Response]]
Step = bytes | float  # bytes are sent, a float is a pause in seconds


def run(coro: Coroutine[Any, Any, T]) -> T:
    """Run on a virtual clock: the mock streams' pauses and the client's deadlines take no real time, and
    a busy machine cannot stretch one past the other."""
    return run_virtual(coro)


def request(**overrides: Any) -> ChatRequest:
    fields: dict[str, Any] = {"model": "moonshotai/kimi-k2-0905", "messages": MESSAGES, "max_tokens": 64}
    fields.update(overrides)
    return ChatRequest(**fields)


class Recorder:
    """A mock gateway: answers with a fixed handler and keeps every request it saw."""

    def __init__(self, respond: Callable[[httpx.Request], Awaitable[httpx.Response]]) -> None:
        self.requests: list[httpx.Request] = []
        self._respond = respond

    async def __call__(self, req: httpx.Request) -> httpx.Response:
        self.requests.append(req)
        return await self._respond(req)


def client_for(handler: Handler, **kwargs: Any) -> GatewayClient:
    kwargs.setdefault("clock", loop_clock)  # TTFT and elapsed on the loop's virtual clock
    api_key = kwargs.pop("api_key", KEY)
    return GatewayClient(BASE, api_key, transport=httpx.MockTransport(handler), **kwargs)


async def steps(items: list[Step], closed: list[bool] | None = None) -> AsyncIterator[bytes]:
    try:
        for item in items:
            if isinstance(item, float):
                await asyncio.sleep(item)
            else:
                yield item
    finally:
        if closed is not None:
            closed.append(True)


def sse(items: list[Step], *, closed: list[bool] | None = None, status: int = 200) -> Handler:
    async def respond(_: httpx.Request) -> httpx.Response:
        headers = {"content-type": "text/event-stream", "x-generation-id": "gen-from-header"}
        return httpx.Response(status, headers=headers, content=steps(items, closed))

    return respond


def body(status: int, content: bytes, headers: dict[str, str] | None = None) -> Handler:
    async def respond(_: httpx.Request) -> httpx.Response:
        return httpx.Response(
            status, headers=headers or {"content-type": "application/json"}, content=content
        )

    return respond


def pieces(data: bytes, size: int) -> list[Step]:
    return [data[i : i + size] for i in range(0, len(data), size)]


def data_line(obj: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(obj).encode() + b"\n\n"


def delta(content: str | None = None, reasoning: str | None = None, finish: str | None = None) -> bytes:
    part: dict[str, Any] = {"role": "assistant"}
    if content is not None:
        part["content"] = content
    if reasoning is not None:
        part["reasoning"] = reasoning
    choice = {"index": 0, "delta": part, "finish_reason": finish}
    return data_line({"id": "gen-1", "provider": "DeepInfra", "choices": [choice]})


COMMENT = b": OPENROUTER PROCESSING\n\n"
FINISH = delta("", finish="stop") + b"data: [DONE]\n\n"


def chat(handler: Handler, req: ChatRequest, **kwargs: Any) -> ChatResult:
    async def go() -> ChatResult:
        async with client_for(handler, **kwargs) as gateway:
            return await gateway.chat(req)

    return run(go())


def error_lines(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    return [r for r in caplog.records if r.name == LOGGER and r.levelno == logging.WARNING]


# -- request shape ---------------------------------------------------------------------------------------


def test_a_pinned_streamed_request_sends_exactly_the_pinning_body_and_headers() -> None:
    recorder = Recorder(sse([FINISH]))
    chat(recorder, request(pin="deepinfra/fp4", stream=True, first_token_deadline=10.0))
    (sent,) = recorder.requests
    assert sent.method == "POST"
    assert str(sent.url) == BASE + "/chat/completions"
    assert json.loads(sent.content) == {
        "model": "moonshotai/kimi-k2-0905",
        "messages": [dict(m) for m in MESSAGES],
        "max_tokens": 64,
        "stream": True,
        "temperature": 0.0,
        "provider": {"only": ["deepinfra/fp4"], "allow_fallbacks": False, "require_parameters": True},
    }
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    assert sent.headers["x-openrouter-cache"] == "false"
    assert sent.headers["x-openrouter-title"] == "Provider Canary"
    assert sent.headers["accept"] == "text/event-stream"
    assert sent.headers["content-type"] == "application/json"


def test_a_non_streamed_request_with_a_schema_and_no_pin() -> None:
    recorder = Recorder(
        body(200, b'{"choices": [{"index": 0, "message": {"content": "{}"}, "finish_reason": "stop"}]}')
    )
    schema = {
        "type": "json_schema",
        "json_schema": {"name": "x", "strict": True, "schema": {"type": "object"}},
    }
    chat(recorder, request(response_format=schema, temperature=None), app_title="My Canary")
    sent = json.loads(recorder.requests[0].content)
    assert sent == {
        "model": "moonshotai/kimi-k2-0905",
        "messages": [dict(m) for m in MESSAGES],
        "max_tokens": 64,
        "stream": False,
        "response_format": schema,
    }
    assert recorder.requests[0].headers["accept"] == "application/json"
    assert recorder.requests[0].headers["x-openrouter-title"] == "My Canary"


def test_an_openai_compatible_host_gets_no_provider_object_and_no_openrouter_headers() -> None:
    recorder = Recorder(sse([FINISH]))
    chat(recorder, request(pin="ignored", stream=True), kind="openai-compatible", api_key=None)
    sent = recorder.requests[0]
    payload = json.loads(sent.content)
    assert "provider" not in payload
    assert payload["stream_options"] == {"include_usage": True}
    assert not any(name.startswith("x-openrouter") for name in sent.headers)
    assert "authorization" not in sent.headers


def test_a_missing_key_sends_nothing_and_is_a_config_error(caplog: pytest.LogCaptureFixture) -> None:
    async def must_not_be_called(_: httpx.Request) -> httpx.Response:
        raise AssertionError("no request may be sent without a key")

    caplog.set_level(logging.INFO, LOGGER)
    result = chat(must_not_be_called, request(stream=True), api_key=None)
    assert result.error == missing_key()
    (line,) = error_lines(caplog)
    assert "reason=missing_key" in line.getMessage()


# -- non-streamed replies --------------------------------------------------------------------------------

# A non-streamed OpenRouter reply, as recorded (the routability tests read the same file).
COMPLETION = json.loads((FIXTURES / "completion.json").read_text())


def test_a_non_streamed_reply_after_whitespace_heartbeats() -> None:
    result = chat(body(200, b"\n\n\n" + json.dumps(COMPLETION).encode()), request())
    assert result.error is None
    assert (result.content, result.finish_reason) == ("Hello!", "stop")
    assert result.served_by == "Azure"
    assert result.generation_id == "gen-1779358422-LrEwL8SmYSWNlAzrHKq2"
    assert result.usage == Usage(9, 10, 0.00000735)
    assert (result.status, result.ttft_seconds, result.first_token_timed_out) == (200, None, False)


def test_a_200_with_finish_reason_error_is_an_error_that_keeps_the_partial_content() -> None:
    reply = json.loads(json.dumps(COMPLETION))
    reply["choices"][0].update(
        finish_reason="error",
        message={"role": "assistant", "content": "Hel"},
        error={
            "code": 502,
            "message": "Provider returned error",
            "metadata": {"error_type": "provider_unavailable"},
        },
    )
    result = chat(body(200, json.dumps(reply).encode()), request())
    assert result.error is not None
    assert (result.error.outcome, result.error.reason, result.error.status) == (
        Outcome.TRANSPORT,
        Reason.MID_STREAM_ERROR,
        200,
    )
    assert result.content == "Hel" and result.usage.completion_tokens == 10


def test_a_200_with_only_an_error_object_is_classified_by_its_code() -> None:
    content = b'{"error": {"code": 429, "message": "Provider returned error"}}'
    result = chat(body(200, content), request())
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.RATE_LIMITED)


@pytest.mark.parametrize(("status", "content", "reason"), GARBAGE)
def test_garbage_is_a_logged_transport_error_not_an_exception(
    caplog: pytest.LogCaptureFixture, status: int, content: bytes, reason: Reason
) -> None:
    caplog.set_level(logging.INFO, LOGGER)
    result = chat(body(status, content, {"content-type": "text/html"}), request(), max_body_bytes=4096)
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, reason)
    (line,) = error_lines(caplog)
    assert line.msg.startswith("gateway request failed")  # a fixed message; the fields are arguments
    assert f"reason={reason.value}" in line.getMessage()
    assert line.gateway["outcome"] == "transport"  # type: ignore[attr-defined]


# -- streamed replies ------------------------------------------------------------------------------------


@pytest.mark.parametrize("size", [1, 7, 64, 100_000])
def test_a_realistic_stream_in_any_read_size(size: int) -> None:
    stream = read_stream("openrouter_usage_after_finish.sse")
    result = chat(sse(pieces(stream, size)), request(stream=True))
    assert result.error is None
    assert result.content == "亚 ¿Qué tal? 🏴‍☠️ files."
    assert (result.finish_reason, result.served_by) == ("stop", "OpenAI")
    assert result.usage == Usage(7007, 49, 0.00123)
    assert result.generation_id == "gen-1739458867-kUKFjpDGCEBBvK6V46PX"
    assert result.ttft_seconds is not None and result.ttft_seconds >= 0


def test_a_stream_without_done_but_with_a_finish_reason_is_complete() -> None:
    result = chat(sse([read_stream("usage_empty_choices_no_done.sse")]), request(stream=True))
    assert result.error is None
    assert (result.finish_reason, result.usage.cost_usd) == ("length", 0.0000315)


class SteppedClock:
    """A clock the mock stream moves forward: the TTFT arithmetic is checked without real time."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    def at(self, when: float, data: bytes) -> AsyncIterator[bytes]:
        async def one() -> AsyncIterator[bytes]:
            self.now = when
            yield data

        return one()


def test_ttft_is_the_clock_at_the_read_with_the_first_visible_token_minus_the_send_time() -> None:
    clock = SteppedClock()

    async def stream() -> AsyncIterator[bytes]:
        for when, data in [
            (100.5, COMMENT),
            (101.0, delta("")),  # role chunk with empty content: not visible
            (101.5, delta(reasoning="thinking")),  # reasoning does not count by default
            (102.25, delta("Steel")),
            (103.0, delta(" rings.") + FINISH),
        ]:
            async for item in clock.at(when, data):
                yield item

    async def respond(_: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=stream())

    result = chat(respond, request(stream=True), clock=clock)
    assert result.ttft_seconds == pytest.approx(2.25)
    assert result.elapsed_seconds == pytest.approx(3.0)
    assert result.content == "Steel rings."
    assert result.generation_id == "gen-1"


def test_ttft_through_pauses_of_the_stream() -> None:
    result = chat(sse([COMMENT, 0.1, delta(""), 0.1, delta("Hi"), FINISH]), request(stream=True))
    assert result.ttft_seconds == pytest.approx(0.2)  # virtual time: exact


def test_an_error_before_the_stream_is_classified_from_its_json_body(
    caplog: pytest.LogCaptureFixture,
) -> None:
    case = json.loads((FIXTURES / "errors" / "429_upstream_rate_limited.json").read_text())
    content = json.dumps(case["body"]).encode()
    result = chat(
        body(429, content, {"content-type": "application/json", "retry-after": "7"}), request(stream=True)
    )
    assert result.error is not None
    assert (result.error.outcome, result.error.reason, result.error.status) == (
        Outcome.TRANSPORT,
        Reason.RATE_LIMITED,
        429,
    )
    assert result.status == 429 and result.ttft_seconds is None
    assert "retry-after 7" in error_lines(caplog)[0].getMessage()


@pytest.mark.parametrize(
    "name", ["mid_stream_error_int_with_done.sse", "mid_stream_error_string_no_done.sse"]
)
def test_a_mid_stream_error_chunk_is_transport_and_keeps_the_content(
    caplog: pytest.LogCaptureFixture, name: str
) -> None:
    result = chat(sse(pieces(read_stream(name), 50)), request(stream=True))
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.MID_STREAM_ERROR)
    assert result.content == "The blades" and result.finish_reason == "error"
    assert result.ttft_seconds is not None
    (line,) = error_lines(caplog)
    assert "excerpt='The blades'" in line.getMessage()


def test_a_mid_stream_refusal_error_is_marked_as_a_refusal() -> None:
    error_chunk = data_line(
        {"error": {"code": 400, "message": "blocked", "metadata": {"error_type": "content_policy_violation"}},
         "choices": [{"index": 0, "delta": {"content": ""}, "finish_reason": "error"}]}
    )  # fmt: skip
    result = chat(sse([delta(""), error_chunk]), request(stream=True))
    assert result.error is not None and result.error.reason is Reason.REFUSAL_ERROR


def test_finish_reason_error_without_an_error_object_is_a_mid_stream_error() -> None:
    result = chat(sse([delta("a"), delta("", finish="error")]), request(stream=True))
    assert result.error is not None and result.error.reason is Reason.MID_STREAM_ERROR


def test_a_truncated_stream_is_a_network_error_that_keeps_the_content(
    caplog: pytest.LogCaptureFixture,
) -> None:
    result = chat(sse(pieces(read_stream("truncated.sse"), 33)), request(stream=True))
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.NETWORK)
    assert result.content == "Captain Voss lunges"
    assert "stream truncated" in result.error.detail
    assert "reason=network" in error_lines(caplog)[0].getMessage()


@pytest.mark.parametrize(
    "stream",
    [
        COMMENT + b"data: {not json}\n\n",
        b"data: [1, 2]\n\n",
        b"data: " + b"x" * 5000 + b"\n\n",  # an event over max_body_bytes
        delta("a") + b"data: " + b"y" * 5000,  # more bytes than max_body_bytes
    ],
)
def test_garbage_in_a_stream_is_malformed(caplog: pytest.LogCaptureFixture, stream: bytes) -> None:
    result = chat(sse(pieces(stream, 1000)), request(stream=True), max_body_bytes=4096)
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE)
    assert len(error_lines(caplog)) == 1


def test_a_streamed_request_answered_with_one_json_body_is_read_as_a_completion() -> None:
    result = chat(body(200, json.dumps(COMPLETION).encode()), request(stream=True))
    assert result.error is None and result.content == "Hello!"


# -- deadlines -------------------------------------------------------------------------------------------


def test_no_visible_token_by_the_deadline_closes_the_stream_and_is_not_an_error() -> None:
    closed: list[bool] = []
    items: list[Step] = [COMMENT, 0.05, delta(""), COMMENT, 5.0, delta("late"), FINISH]
    result = chat(sse(items, closed=closed), request(stream=True, first_token_deadline=0.3))
    assert result.first_token_timed_out is True
    assert result.error is None and result.status == 200
    assert result.ttft_seconds is None and result.content == ""
    assert result.elapsed_seconds == pytest.approx(0.3)  # virtual time: the deadline exactly
    assert closed == [True]


def test_an_empty_reply_that_ends_before_the_deadline_is_a_reply_not_a_timeout() -> None:
    # A silent refusal: finish + [DONE] quickly, but the body itself lingers past the deadline.
    items: list[Step] = [delta(""), delta("", finish="stop"), b"data: [DONE]\n\n", 1.0]
    result = chat(sse(items), request(stream=True, first_token_deadline=0.05))
    assert not result.first_token_timed_out and result.error is None
    assert (result.content, result.finish_reason) == ("", "stop")


def test_garbage_before_the_deadline_is_malformed_not_a_timeout() -> None:
    result = chat(sse([b"data: {oops}\n\n", 1.0]), request(stream=True, first_token_deadline=0.05))
    assert not result.first_token_timed_out
    assert result.error is not None and result.error.reason is Reason.MALFORMED_RESPONSE


def test_reasoning_alone_does_not_beat_the_deadline_unless_it_counts() -> None:
    items: list[Step] = [delta(reasoning="hmm"), 2.0, delta("answer"), FINISH]
    slow = chat(sse(items), request(stream=True, first_token_deadline=0.2))
    assert slow.first_token_timed_out and slow.reasoning == "hmm"
    counted = chat(
        sse([delta(reasoning="hmm"), 0.3, delta("answer"), FINISH]),
        request(stream=True, first_token_deadline=0.2, count_reasoning_as_first_token=True),
    )
    assert not counted.first_token_timed_out and counted.error is None
    assert counted.content == "answer"


def test_a_token_before_the_deadline_lets_the_stream_continue_past_it() -> None:
    items: list[Step] = [delta("Hi"), 0.4, delta(" there"), FINISH]
    result = chat(sse(items), request(stream=True, first_token_deadline=0.2))
    assert not result.first_token_timed_out and result.error is None
    assert result.content == "Hi there"
    assert result.ttft_seconds == pytest.approx(0.0)
    assert result.elapsed_seconds == pytest.approx(0.4)


def test_no_response_headers_by_the_overall_timeout_is_a_transport_timeout() -> None:
    async def hang(_: httpx.Request) -> httpx.Response:
        await asyncio.sleep(5)
        return httpx.Response(200)

    result = chat(hang, request(stream=True, first_token_deadline=0.1), timeout=0.3)
    assert result.error is not None
    assert (result.error.outcome, result.error.reason, result.status) == (
        Outcome.TRANSPORT,
        Reason.TIMEOUT,
        None,
    )
    assert "response headers" in result.error.detail
    assert not result.first_token_timed_out
    assert result.elapsed_seconds == pytest.approx(0.3)


def test_a_stream_that_stalls_after_the_first_token_times_out_with_its_content() -> None:
    result = chat(sse([delta("Hi"), 5.0, FINISH]), request(stream=True), timeout=0.3)
    assert result.error is not None
    assert (result.error.reason, result.status, result.content) == (Reason.TIMEOUT, 200, "Hi")


def test_a_connection_error_is_a_network_error() -> None:
    async def refuse(req: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused", request=req)

    result = chat(refuse, request(stream=True))
    assert result.error is not None
    assert (result.error.outcome, result.error.reason) == (Outcome.TRANSPORT, Reason.NETWORK)


def test_the_api_key_never_reaches_the_log(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)
    echo = json.dumps({"error": {"code": 401, "message": f"Invalid key {KEY}"}}).encode()
    result = chat(body(401, echo), request())
    assert result.error is not None and result.error.reason is Reason.AUTH
    assert error_lines(caplog)
    assert KEY not in caplog.text
    assert all(KEY not in json.dumps(getattr(r, "gateway", {})) for r in caplog.records)


# -- discovery and the catalogue -------------------------------------------------------------------------


PARAMS = [
    "max_tokens",
    "temperature",
    "tools",
    "tool_choice",
    "response_format",
    "structured_outputs",
    "seed",
    "stop",
]


def test_discovery_parses_endpoints_tolerating_stats_shapes_nulls_and_decimal_strings() -> None:
    listing = (FIXTURES / "endpoints_kimi.json").read_bytes()
    recorder = Recorder(body(200, listing))

    async def go() -> list[Endpoint] | GatewayError:
        async with client_for(recorder) as gateway:
            return await gateway.discover("moonshotai/kimi-k2-0905")

    endpoints = run(go())
    assert isinstance(endpoints, list)
    sent = recorder.requests[0]
    assert (sent.method, str(sent.url)) == ("GET", BASE + "/models/moonshotai/kimi-k2-0905/endpoints")
    assert sent.headers["authorization"] == f"Bearer {KEY}"
    deepinfra, groq, chutes = endpoints  # the entry without a tag and the non-object are dropped
    assert deepinfra == Endpoint(
        tag="deepinfra/fp4",
        provider_name="DeepInfra",
        quantization="fp4",
        status=0,
        supported_parameters=frozenset(PARAMS),
        max_completion_tokens=16384,
        uptime_last_30m=99.6,
    )
    assert (groq.tag, groq.status, groq.quantization, groq.max_completion_tokens) == ("groq", -2, None, None)
    assert groq.uptime_last_30m == 97.5  # a percentile object instead of a number
    assert (chutes.max_completion_tokens, chutes.uptime_last_30m) == (8192, 98.25)
    assert chutes.supported_parameters == frozenset()


@pytest.mark.parametrize(
    ("status", "content", "outcome", "reason"),
    [
        (
            404,
            b'{"error":{"code":404,"message":"Resource not found"}}',
            Outcome.UNAVAILABLE,
            Reason.NO_ENDPOINTS,
        ),
        (500, b'{"error":{"code":500,"message":"Internal"}}', Outcome.TRANSPORT, Reason.SERVER_ERROR),
        (200, b'{"data": []}', Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE),
        (200, b"<html>maintenance</html>", Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE),
    ],
)
def test_a_discovery_failure_is_a_logged_gateway_error(
    caplog: pytest.LogCaptureFixture, status: int, content: bytes, outcome: Outcome, reason: Reason
) -> None:
    async def go() -> list[Endpoint] | GatewayError:
        async with client_for(body(status, content)) as gateway:
            return await gateway.discover("acme/model")

    error = run(go())
    assert isinstance(error, GatewayError)
    assert (error.outcome, error.reason) == (outcome, reason)
    assert "op=discover" in error_lines(caplog)[0].getMessage()


def test_discovery_of_an_openai_compatible_host_is_the_configured_list_without_a_request() -> None:
    async def must_not_be_called(_: httpx.Request) -> httpx.Response:
        raise AssertionError("static discovery must not send a request")

    endpoint = Endpoint(tag="vllm-local", provider_name="vLLM")

    async def go() -> tuple[list[Endpoint] | GatewayError, list[Endpoint] | GatewayError]:
        async with client_for(
            must_not_be_called, kind="openai-compatible", static_endpoints={"kimi": [endpoint]}
        ) as gateway:
            return await gateway.discover("kimi"), await gateway.discover("other")

    known, unknown = run(go())
    assert known == [endpoint]
    assert isinstance(unknown, GatewayError) and unknown.outcome is Outcome.CONFIG


def test_get_json_reads_a_json_reply_or_says_why_there_is_none() -> None:
    async def get(handler: Handler, limit: int | None = None) -> Any:
        async with client_for(handler, max_body_bytes=1024) as gateway:
            return await gateway.get_json("/v1/suspensions", limit)

    assert run(get(body(200, b'\n {"suspensions": []}'))) == {"suspensions": []}
    unreadable = run(get(body(200, b"<html>oops</html>")))
    assert isinstance(unreadable, GatewayError) and unreadable.reason is Reason.MALFORMED_RESPONSE
    assert "HTML" in unreadable.detail
    oversized = run(get(body(200, b'{"a": "' + b"x" * 2000 + b'"}')))
    assert isinstance(oversized, GatewayError) and "over 1024 bytes" in oversized.detail
    refused = run(get(body(401, b'{"error": {"message": "no"}}')))
    assert isinstance(refused, GatewayError) and (refused.status, refused.reason) == (401, Reason.AUTH)


def test_invalid_construction_is_refused_with_a_clear_message() -> None:
    with pytest.raises(ValueError, match="kind must be"):
        GatewayClient(BASE, KEY, kind="grpc")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="timeouts must be positive"):
        GatewayClient(BASE, KEY, timeout=0)


def test_endpoint_numbers_beyond_float_range_are_ignored() -> None:
    endpoint = parse_endpoint({"tag": "x", "max_completion_tokens": 10**400, "uptime_last_30m": "1e999"})
    assert endpoint is not None
    assert (endpoint.max_completion_tokens, endpoint.uptime_last_30m) == (None, None)


# -- edges found in review --------------------------------------------------------------------------------
def test_an_api_key_echoed_in_an_error_body_is_scrubbed_from_the_returned_detail() -> None:
    async def respond(_: httpx.Request) -> httpx.Response:
        return httpx.Response(401, json={"error": {"code": 401, "message": f"Invalid API key {KEY}"}})

    result = run(client_for(respond).chat(request()))
    assert result.error is not None and KEY not in result.error.detail and "***" in result.error.detail


def test_an_overall_timeout_before_the_first_token_deadline_is_transport_not_a_slow_token() -> None:
    chunk = b'data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":null}]}\n\n'
    result = run(
        client_for(sse([0.6, chunk]), timeout=0.2).chat(request(stream=True, first_token_deadline=5.0))
    )
    assert result.first_token_timed_out is False
    assert result.error is not None and (result.error.outcome, result.error.reason) == (
        Outcome.TRANSPORT,
        Reason.TIMEOUT,
    )


def test_a_streamed_request_answered_with_one_json_body_still_measures_ttft() -> None:
    async def respond(_: httpx.Request) -> httpx.Response:
        await asyncio.sleep(0.05)
        body = {"choices": [{"message": {"content": "Welcome, traveller."}, "finish_reason": "stop"}]}
        return httpx.Response(200, json=body)

    result = run(client_for(respond).chat(request(stream=True, first_token_deadline=5.0)))
    assert result.error is None and result.content == "Welcome, traveller."
    assert result.ttft_seconds == pytest.approx(0.05)


def test_a_first_token_in_a_final_event_without_its_blank_line_still_counts() -> None:
    tail = b'data: {"choices":[{"delta":{"content":"Hi"},"finish_reason":"stop"}]}\n'
    result = run(client_for(sse([0.02, tail])).chat(request(stream=True, first_token_deadline=5.0)))
    assert result.content == "Hi" and result.ttft_seconds is not None


def test_a_tag_listed_twice_is_one_endpoint() -> None:
    from exporter.gateway.client import parse_endpoints_response

    listing = {
        "data": {
            "endpoints": [
                {"tag": "a/fp8", "provider_name": "A"},
                {"tag": "a/fp8", "provider_name": "B"},
                {"tag": "b", "provider_name": "B"},
            ]
        }
    }
    parsed = parse_endpoints_response(listing)
    assert isinstance(parsed, list) and [(e.tag, e.provider_name) for e in parsed] == [
        ("a/fp8", "A"),
        ("b", "B"),
    ]


def test_a_listed_tag_no_router_could_name_is_dropped_and_a_display_name_is_escaped() -> None:
    for tag in ("a/1\nERROR forged", "a/\u202e1", "x" * 257):
        assert parse_endpoint({"tag": tag, "provider_name": "A"}) is None
    endpoint = parse_endpoint({"tag": "a/1", "provider_name": "A\r\nB"})
    assert endpoint is not None and endpoint.provider_name == "A\\r\\nB"
