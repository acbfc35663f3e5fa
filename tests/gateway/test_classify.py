"""The design.md §4 classification table over real-shaped error bodies, mid-stream errors and exceptions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.gateway.classify import (
    DETAIL_MAX_CHARS,
    classify_error_object,
    classify_exception,
    classify_http_error,
    error_facts,
    missing_key,
    oversized_body,
    parse_json_body,
)
from exporter.gateway.types import GatewayError
from exporter.outcomes import Outcome, Reason
from tests.fuzz_profile import examples

from .conftest import FIXTURES, GARBAGE

ERROR_CASES = sorted((FIXTURES / "errors").glob("*.json"))


def load_case(path: Path) -> tuple[int, bytes, dict[str, str], dict[str, str]]:
    case: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    body = case["body_text"] if "body_text" in case else json.dumps(case["body"])
    return case["status"], body.encode("utf-8"), case["headers"], case["expect"]


def test_the_fixture_table_covers_every_row_of_the_design_table() -> None:
    expected = {load_case(p)[3]["reason"] for p in ERROR_CASES}
    assert expected >= {
        "rate_limited", "server_error", "timeout", "model_not_found", "no_endpoints", "model_deprecated",
        "pin_unsatisfiable", "auth", "credits", "bad_request", "platform_moderation", "refusal_error",
    }  # fmt: skip


@pytest.mark.parametrize("path", ERROR_CASES, ids=[p.stem for p in ERROR_CASES])
def test_error_body_is_classified_as_the_fixture_expects(path: Path) -> None:
    status, body, headers, expect = load_case(path)
    error = classify_http_error(status, body, headers)
    assert (error.outcome.value, error.reason.value) == (expect["outcome"], expect["reason"])
    assert error.status == status
    assert error.detail and len(error.detail) <= DETAIL_MAX_CHARS


def test_retry_after_and_upstream_provider_reach_the_detail() -> None:
    status, body, headers, _ = load_case(FIXTURES / "errors" / "429_upstream_rate_limited.json")
    detail = classify_http_error(status, body, headers).detail
    assert "retry-after 7" in detail and "provider=BaseTen" in detail and "rate-limited upstream" in detail


def test_the_same_status_means_different_things_depending_on_the_body() -> None:
    unknown_model = classify_http_error(
        400, b'{"error":{"code":400,"message":"x/y is not a valid model ID"}}'
    )
    malformed = classify_http_error(400, b'{"error":{"code":400,"message":"messages: required"}}')
    refused = classify_http_error(
        400, b'{"error":{"code":400,"metadata":{"error_type":"refusal","provider_name":"Groq"}}}'
    )
    assert [e.outcome for e in (unknown_model, malformed, refused)] == [
        Outcome.UNAVAILABLE,
        Outcome.CONFIG,
        Outcome.INCONCLUSIVE,
    ]


def test_moderation_403_is_the_platform_not_a_provider_refusal() -> None:
    body = {
        "error": {
            "code": 403,
            "message": "flagged",
            "metadata": {
                "reasons": ["violence"],
                "flagged_input": "...",
                "error_type": "content_policy_violation",
            },
        }
    }
    error = classify_http_error(403, json.dumps(body).encode())
    assert (error.outcome, error.reason) == (Outcome.CONFIG, Reason.PLATFORM_MODERATION)


def test_only_content_policy_and_refusal_errors_are_provider_refusals() -> None:
    for error_type in ("content_policy_violation", "refusal"):
        signed = {"error_type": error_type, "provider_name": "Groq"}
        error = classify_error_object({"code": 400, "message": "no", "metadata": signed})
        assert error.reason is Reason.REFUSAL_ERROR
        assert not error.outcome.is_evidence  # other contracts must not count it as a quality verdict
    azure = classify_error_object({"code": "content_filter", "message": "Azure filter"})
    assert azure.reason is Reason.REFUSAL_ERROR
    assert classify_error_object({"code": 429, "message": "slow down"}).reason is not Reason.REFUSAL_ERROR


@pytest.mark.parametrize(
    "metadata",
    [
        {"error_type": "content_policy_violation"},
        {"error_type": "refusal", "provider_name": None},
        {"error_type": "content_policy_violation", "provider_name": ""},
    ],
)
def test_a_content_policy_error_no_provider_signed_is_openrouters_moderation_not_a_refusal(
    metadata: dict[str, Any],
) -> None:
    body = json.dumps({"error": {"code": 400, "message": "Input flagged", "metadata": metadata}})
    error = classify_http_error(400, body.encode())
    assert (error.outcome, error.reason) == (Outcome.CONFIG, Reason.PLATFORM_MODERATION)


def test_a_content_policy_error_from_upstream_stays_the_providers_refusal() -> None:
    raw = '{"error":{"type":"content_policy_violation"}}'
    upstream = {"code": 400, "message": "Provider returned error", "metadata": {"raw": raw,
                "error_type": "content_policy_violation"}}  # fmt: skip
    assert classify_http_error(400, json.dumps({"error": upstream}).encode()).reason is Reason.REFUSAL_ERROR
    openai_style = {"error": {"message": "blocked", "type": "content_policy_violation"}}  # a direct host
    assert classify_http_error(400, json.dumps(openai_style).encode()).reason is Reason.REFUSAL_ERROR


def test_an_html_404_is_a_wrong_base_url_not_an_unavailable_model() -> None:
    page = b"<!DOCTYPE html><html><head><title>404 Not Found</title></head><body>Not Found</body></html>"
    error = classify_http_error(404, page, {"content-type": "text/html"})
    assert (error.outcome, error.reason) == (Outcome.CONFIG, Reason.BAD_REQUEST)
    assert "check gateway.base_url" in error.detail and "404" in error.detail
    json_404 = classify_http_error(404, b'{"error":{"code":404,"message":"No endpoints found for a/b."}}')
    assert json_404.outcome is Outcome.UNAVAILABLE  # the gateway's own 404 is still unavailability
    html_502 = classify_http_error(502, page)
    assert html_502.outcome is Outcome.TRANSPORT


@pytest.mark.parametrize(
    ("error", "outcome", "reason"),
    [
        ({"code": 429, "message": "Rate limit exceeded", "metadata": {"error_type": "rate_limit_exceeded"}},
         Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ({"code": "server_error", "message": "boom"}, Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ({"code": 502, "message": "Upstream error from AtlasCloud", "metadata": {"raw": {"x": 1}}},
         Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ({"code": 400, "message": "Provider returned error"}, Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ({"message": "something odd"}, Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ("a bare string", Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
        ({"code": 400, "message": "x", "metadata": {"error_type": "content_policy_violation"}},
         Outcome.INCONCLUSIVE, Reason.REFUSAL_ERROR),
        ({"code": "refusal", "message": "x"}, Outcome.INCONCLUSIVE, Reason.REFUSAL_ERROR),
        ({"code": 402, "message": "Insufficient credits"}, Outcome.CONFIG, Reason.CREDITS),
        ({"code": "401", "message": "User not found."}, Outcome.CONFIG, Reason.AUTH),
        ({"code": "²", "http_status": "⁴"}, Outcome.TRANSPORT, Reason.MID_STREAM_ERROR),
    ],
)  # fmt: skip
def test_mid_stream_errors(error: object, outcome: Outcome, reason: Reason) -> None:
    classified = classify_error_object(error, mid_stream=True)
    assert (classified.outcome, classified.reason) == (outcome, reason)
    assert classified.status is None
    assert classified.detail.startswith("mid-stream error")


def test_an_in_band_error_object_uses_its_code_as_the_status() -> None:
    error = classify_error_object({"code": 429, "message": "Provider returned error"})
    assert (error.outcome, error.reason) == (Outcome.TRANSPORT, Reason.RATE_LIMITED)


def test_error_facts_reads_both_availability_shapes() -> None:
    with_code = error_facts({"code": 404, "message": "m", "availability": {"code": "no_endpoints"}})
    without = error_facts(
        {"error_type": "not_found", "http_status": 404, "availability": {"code": "no_endpoints"}}
    )
    assert (with_code.code, with_code.availability) == (404, "no_endpoints")
    assert (without.code, without.error_type, without.availability) == (404, "not_found", "no_endpoints")


@pytest.mark.parametrize(
    ("exc", "outcome", "reason"),
    [
        (httpx.ConnectTimeout("connect timed out"), Outcome.TRANSPORT, Reason.TIMEOUT),
        (httpx.ReadTimeout("read timed out"), Outcome.TRANSPORT, Reason.TIMEOUT),
        (httpx.PoolTimeout("pool"), Outcome.TRANSPORT, Reason.TIMEOUT),
        (TimeoutError(), Outcome.TRANSPORT, Reason.TIMEOUT),
        (httpx.ConnectError("connection refused"), Outcome.TRANSPORT, Reason.NETWORK),
        (httpx.ReadError("connection reset"), Outcome.TRANSPORT, Reason.NETWORK),
        (httpx.RemoteProtocolError("peer closed connection"), Outcome.TRANSPORT, Reason.NETWORK),
        (ConnectionResetError(104, "reset"), Outcome.TRANSPORT, Reason.NETWORK),
        (httpx.DecodingError("bad gzip"), Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE),
        (httpx.UnsupportedProtocol("ftp://"), Outcome.CONFIG, Reason.BAD_REQUEST),
    ],
)
def test_exceptions(exc: BaseException, outcome: Outcome, reason: Reason) -> None:
    error = classify_exception(exc)
    assert (error.outcome, error.reason, error.status) == (outcome, reason, None)
    assert type(exc).__name__ in error.detail


@pytest.mark.parametrize(("status", "body", "reason"), GARBAGE)
def test_garbage_bodies_never_raise_and_the_status_decides(status: int, body: bytes, reason: Reason) -> None:
    error = classify_http_error(status, body)
    assert error.reason is reason
    assert error.status == status


def test_parse_json_body_allows_heartbeat_whitespace_and_reports_problems() -> None:
    assert parse_json_body(b'\n\n \r\n{"a": 1}') == ({"a": 1}, None)
    assert parse_json_body(b"<!DOCTYPE html>")[1] == "HTML/XML body instead of JSON"
    assert parse_json_body(b"   ")[1] == "empty body"
    problem = parse_json_body(b'{"a": ')[1]
    assert problem is not None and problem.startswith("body is not JSON")


def test_helper_errors() -> None:
    assert missing_key() == GatewayError(
        Outcome.CONFIG, Reason.MISSING_KEY, None, "no API key configured; request not sent"
    )
    assert oversized_body(1024, 200).reason is Reason.MALFORMED_RESPONSE
    assert oversized_body(1024, 503).reason is Reason.SERVER_ERROR


def test_a_long_detail_is_clipped() -> None:
    error = classify_http_error(500, json.dumps({"error": {"message": "x" * 5000, "code": 500}}).encode())
    assert len(error.detail) == DETAIL_MAX_CHARS and error.detail.endswith("…")


@settings(max_examples=examples(300), deadline=None)
@given(status=st.integers(min_value=100, max_value=599), body=st.binary(max_size=200))
def test_any_bytes_with_any_status_classify_without_raising(status: int, body: bytes) -> None:
    error = classify_http_error(status, body, {"Retry-After": "1"})
    assert not error.outcome.is_evidence
    if status >= 500 and parse_json_body(body)[1] is not None:  # garbage: the status decides
        assert error.outcome is Outcome.TRANSPORT


@settings(max_examples=examples(200), deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.text(max_size=20),
        lambda inner: (
            st.lists(inner, max_size=3)
            | st.dictionaries(
                st.sampled_from(
                    ["code", "message", "metadata", "error_type", "availability", "raw", "reasons"]
                ),
                inner,
                max_size=4,
            )
        ),
        max_leaves=10,
    ),
    st.booleans(),
)
def test_any_error_object_classifies_without_raising(error: object, mid_stream: bool) -> None:
    classified = classify_error_object(error, mid_stream=mid_stream)
    assert not classified.outcome.is_evidence
