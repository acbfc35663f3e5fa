"""Conservative classification: only an explicit absence is `unavailable`; bodies shaped like real ones."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exporter.outcomes import Reason
from exporter.routability.classify import classify_network, classify_reply, missing_key
from exporter.routability.model import Source, Status

G, D = Source.GATEWAY, Source.DIRECT

# A non-streamed OpenRouter reply, as recorded (shared with the gateway client tests).
OK_REPLY = json.loads((Path(__file__).parents[1] / "fixtures" / "gateway" / "completion.json").read_text())
REASONING_SPENT_BUDGET = {
    "id": "gen-1",
    "provider": "DeepInfra",
    "choices": [
        {
            "index": 0,
            "finish_reason": "length",
            "native_finish_reason": "length",
            "message": {"role": "assistant", "content": "", "reasoning": "The user wants me to reply"},
        }
    ],
}
IN_BODY_ERROR = {
    "id": "gen-abc123",
    "provider": "OpenAI",
    "choices": [
        {
            "index": 0,
            "finish_reason": "error",
            "message": {"role": "assistant", "content": ""},
            "error": {
                "code": 502,
                "message": "Upstream error",
                "metadata": {"error_type": "provider_unavailable"},
            },
        }
    ],
}


def availability(code: str, status: int, retryable: bool, message: str) -> dict[str, Any]:
    """The documented availability variant (error_type/http_status instead of code)."""
    return {
        "error": {
            "message": message,
            "error_type": "not_found" if status == 404 else "invalid_request",
            "http_status": status,
            "availability": {
                "code": code,
                "retryable": retryable,
                "requested_models": ["acme/fake-1.0"],
                "docs_url": "https://openrouter.ai/docs/api-reference/errors",
            },
        }
    }


def upstream(status: int, raw: Any, provider: str = "Chutes") -> dict[str, Any]:
    return {
        "error": {
            "message": "Provider returned error",
            "code": status,
            "metadata": {"raw": raw, "provider_name": provider, "is_byok": False},
        },
        "user_id": "user_2abc",
    }


def error(code: int, message: str, **metadata: Any) -> dict[str, Any]:
    """OpenRouter's error body: ``{"error": {"code", "message", "metadata"?}}``."""
    body: dict[str, Any] = {"code": code, "message": message}
    if metadata:
        body["metadata"] = metadata
    return {"error": body}


# name, reply status, reply body, source, expected status, expected reason
Row = tuple[str, int, Any, Source, Status, Reason]


def degraded(name: str, status: int, message: str, reason: Reason, **metadata: Any) -> Row:
    """A row for a gateway error reply that must read as ``degraded`` (its body: ``error(status, ...)``)."""
    return (name, status, error(status, message, **metadata), G, Status.DEGRADED, reason)


ROWS: list[Row] = [
    # -- success ---------------------------------------------------------------------------------------
    ("completion", 200, OK_REPLY, G, Status.HEALTHY, Reason.NONE),
    ("reasoning model spent the budget", 200, REASONING_SPENT_BUDGET, G, Status.HEALTHY, Reason.NONE),
    ("direct completion", 200, OK_REPLY, D, Status.HEALTHY, Reason.NONE),
    ("in-body error on 200", 200, IN_BODY_ERROR, G, Status.DEGRADED, Reason.MID_STREAM_ERROR),
    (
        "top-level error on 200",
        200,
        {"error": {"code": 429, "message": "Rate limit exceeded"}, "choices": []},
        G,
        Status.DEGRADED,
        Reason.MID_STREAM_ERROR,
    ),
    ("200 not JSON", 200, "<html>oops</html>", G, Status.DEGRADED, Reason.MALFORMED_RESPONSE),
    (
        "200 without choices",
        200,
        {"id": "gen-1", "choices": []},
        G,
        Status.DEGRADED,
        Reason.MALFORMED_RESPONSE,
    ),
    # -- explicit absence (OpenRouter) -----------------------------------------------------------------
    (
        "unknown model id, availability variant (400!)",
        400,
        availability("model_not_found", 400, False, "acme/fake-1.0 is not a valid model ID"),
        G,
        Status.UNAVAILABLE,
        Reason.MODEL_NOT_FOUND,
    ),
    (
        "unknown model id, code variant",
        400,
        {
            "error": {
                "code": 400,
                "message": "acme/fake-1.0 is not a valid model ID",
                "availability": {"code": "model_not_found", "retryable": False},
            }
        },
        G,
        Status.UNAVAILABLE,
        Reason.MODEL_NOT_FOUND,
    ),
    (
        "unknown model id, prose only",
        400,
        {"error": {"code": 400, "message": "acme/fake-1.0 is not a valid model ID"}, "user_id": "user_x"},
        G,
        Status.UNAVAILABLE,
        Reason.MODEL_NOT_FOUND,
    ),
    (
        "no endpoints, prose only",
        404,
        {
            "error": {
                "message": "No endpoints found for meta-llama/llama-3.2-1b-instruct:free.",
                "code": 404,
            },
            "user_id": "user_x",
        },
        G,
        Status.UNAVAILABLE,
        Reason.NO_ENDPOINTS,
    ),
    (
        "no endpoints, availability",
        404,
        availability("no_endpoints", 404, False, "No endpoints found for acme/x."),
        G,
        Status.UNAVAILABLE,
        Reason.NO_ENDPOINTS,
    ),
    (
        "deprecated",
        404,
        availability("model_deprecated", 404, False, "acme/old has been deprecated"),
        G,
        Status.UNAVAILABLE,
        Reason.MODEL_DEPRECATED,
    ),
    (
        "free variant ended",
        404,
        availability("free_variant_ended", 404, False, "acme/x:free has ended"),
        G,
        Status.UNAVAILABLE,
        Reason.MODEL_DEPRECATED,
    ),
    # -- availability codes that are about us, our account or the moment: degraded ----------------------
    (
        "no endpoints left by our account's allowed providers",
        404,
        {
            "error": {
                "message": "No endpoints found matching your data policy",
                "code": 404,
                "availability": {
                    "code": "no_endpoints",
                    "retryable": False,
                    "excluded_by": ["allowed_providers"],
                },
            }
        },
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "no endpoints marked retryable",
        404,
        availability("no_endpoints", 404, True, "No endpoints found"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "every endpoint 404s upstream",
        404,
        availability("model_unavailable_upstream", 404, False, "All providers returned 404"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "constraint filtered",
        404,
        availability("constraint_filtered", 404, False, "max_price removed all"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "privacy restricted",
        404,
        availability("privacy_restricted", 404, False, "ZDR removed all endpoints"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "region restricted",
        403,
        availability("region_restricted", 403, False, "not available in your region"),
        G,
        Status.DEGRADED,
        Reason.AUTH,
    ),
    (
        "wrong endpoint",
        400,
        availability("wrong_endpoint", 400, False, "acme/embed is an embedding model"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "capacity exhausted",
        429,
        availability("capacity_exhausted", 429, True, "All providers at capacity"),
        G,
        Status.DEGRADED,
        Reason.RATE_LIMITED,
    ),
    (
        "temporarily unavailable",
        503,
        availability("temporarily_unavailable", 503, True, "All attempts failed transiently"),
        G,
        Status.DEGRADED,
        Reason.SERVER_ERROR,
    ),
    (
        "no allowed providers (account preferences)",
        404,
        {
            "error": {
                "message": "No allowed providers are available for the selected model.",
                "code": 404,
                "metadata": {"available_providers": ["deepseek", "novita"], "requested_providers": ["xai"]},
            }
        },
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "bare 404",
        404,
        {"error": {"code": 404, "message": "Resource not found"}},
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "absence code on a 5xx is contradictory",
        500,
        {"error": {"code": 500, "message": "x", "availability": {"code": "model_not_found"}}},
        G,
        Status.DEGRADED,
        Reason.SERVER_ERROR,
    ),
    # -- upstream failures: "Provider returned error" is never absence ----------------------------------
    (
        "upstream 400 unsupported param",
        400,
        upstream(
            400, '{"detail":"moonshotai/Kimi-K2-Instruct on chutes does not currently support: [\'tools\']"}'
        ),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "upstream 400 whose raw says model not found",
        400,
        upstream(
            400, {"error": {"message": "The model `kimi-k2` does not exist", "code": "model_not_found"}}
        ),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "upstream 404 raw 'is not a valid model ID'",
        404,
        upstream(404, "acme/x is not a valid model ID", "Crucible"),
        G,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "upstream 429 shared pool",
        429,
        {
            "error": {
                "message": "Provider returned error",
                "code": 429,
                "metadata": {
                    "raw": "z-ai/glm-5.3-flash is temporarily rate-limited upstream. Please retry shortly",
                    "provider_name": "BaseTen",
                    "limit_source": "upstream_provider_shared_pool",
                },
            }
        },
        G,
        Status.DEGRADED,
        Reason.RATE_LIMITED,
    ),
    (
        "529 overloaded",
        529,
        {"error": {"message": "Provider returned error", "code": 529}},
        G,
        Status.DEGRADED,
        Reason.SERVER_ERROR,
    ),
    # -- transport, account, request format: degraded ----------------------------------------------------
    degraded(
        "429 rate limit", 429, "Rate limit exceeded", Reason.RATE_LIMITED, error_type="rate_limit_exceeded"
    ),
    degraded("500 masked", 500, "Internal Server Error", Reason.SERVER_ERROR),
    ("502 html page", 502, "<html><body>Bad gateway</body></html>", G, Status.DEGRADED, Reason.SERVER_ERROR),
    degraded("503", 503, "No available model provider", Reason.SERVER_ERROR),
    degraded("524 edge timeout", 524, "Provider returned error", Reason.TIMEOUT),
    degraded("408", 408, "Request timed out", Reason.TIMEOUT),
    degraded("401 user not found", 401, "User not found.", Reason.AUTH),
    degraded("401 missing header", 401, "Missing Authentication header", Reason.AUTH),
    degraded(
        "403 guardrail",
        403,
        "Request blocked: prompt injection patterns detected",
        Reason.AUTH,
        patterns=["ignore all previous instructions"],
    ),
    (
        "402 credits",
        402,
        {
            **error(
                402,
                "This request requires more credits, or fewer max_tokens. You requested up to 16",
                provider_name=None,
            ),
            "user_id": "user_x",
        },
        G,
        Status.DEGRADED,
        Reason.CREDITS,
    ),
    degraded(
        "400 unknown request format",
        400,
        "Invalid input: messages[0].content",
        Reason.BAD_REQUEST,
        error_type="invalid_request",
    ),
    degraded("422", 422, "Unprocessable", Reason.BAD_REQUEST),
    # -- direct OpenAI-compatible routes ----------------------------------------------------------------
    (
        "vLLM unknown model (404)",
        404,
        {
            "object": "error",
            "message": "The model `acme/x` does not exist.",
            "type": "NotFoundError",
            "param": None,
            "code": 404,
        },
        D,
        Status.UNAVAILABLE,
        Reason.MODEL_NOT_FOUND,
    ),
    (
        # OpenAI says the same when the KEY lacks access to the model: an account problem (design.md §10)
        "OpenAI unknown model or no access (404, code model_not_found)",
        404,
        {
            "error": {
                "message": "The model `gpt-x` does not exist or you do not have access to it.",
                "type": "invalid_request_error",
                "param": None,
                "code": "model_not_found",
            }
        },
        D,
        Status.DEGRADED,
        Reason.AUTH,
    ),
    (
        "direct 404 permission denied for the model",
        404,
        {"error": {"message": "Model `acme/x` not found or permission denied", "code": "model_not_found"}},
        D,
        Status.DEGRADED,
        Reason.AUTH,
    ),
    (
        "direct 404 model_not_found code without access wording",
        404,
        {"error": {"message": "The model `gpt-x` does not exist.", "code": "model_not_found"}},
        D,
        Status.UNAVAILABLE,
        Reason.MODEL_NOT_FOUND,
    ),
    ("direct 404 wrong path (FastAPI)", 404, {"detail": "Not Found"}, D, Status.DEGRADED, Reason.BAD_REQUEST),
    ("direct 404 html", 404, "<html>404 page not found</html>", D, Status.DEGRADED, Reason.BAD_REQUEST),
    (
        "direct 400 model prose is not a 404",
        400,
        {"object": "error", "message": "The model `x` does not exist.", "code": 400},
        D,
        Status.DEGRADED,
        Reason.BAD_REQUEST,
    ),
    (
        "direct 401",
        401,
        {"error": {"message": "Incorrect API key provided", "code": "invalid_api_key"}},
        D,
        Status.DEGRADED,
        Reason.AUTH,
    ),
    ("direct 503", 503, "upstream connect error", D, Status.DEGRADED, Reason.SERVER_ERROR),
]


@pytest.mark.parametrize(
    ("name", "status", "body", "source", "expected", "reason"), ROWS, ids=[r[0] for r in ROWS]
)
def test_classification_table(
    name: str, status: int, body: Any, source: Source, expected: Status, reason: Reason
) -> None:
    verdict = classify_reply(status, body, source)
    assert (verdict.status, verdict.reason) == (expected, reason), verdict.note
    assert verdict.http_status == status


def test_bodies_survive_a_json_round_trip_as_received_from_the_wire() -> None:
    # what the transport hands over is json.loads of the wire text; the table uses the same shapes
    for _name, status, body, source, expected, _reason in ROWS:
        if not isinstance(body, str):
            assert classify_reply(status, json.loads(json.dumps(body)), source).status is expected


def test_upstream_note_carries_the_real_reason_from_metadata_raw() -> None:
    verdict = classify_reply(400, upstream(400, "does not currently support: ['tools']"), G)
    assert "Chutes" in verdict.note and "does not currently support" in verdict.note


def test_long_notes_are_bounded() -> None:
    verdict = classify_reply(500, {"error": {"message": "x" * 5000}}, G)
    assert len(verdict.note) <= 300


@pytest.mark.parametrize("kind", ["timeout", "network"])
def test_no_reply_is_degraded(kind: str) -> None:
    verdict = classify_network(kind, "ConnectError")
    assert verdict.status is Status.DEGRADED
    assert verdict.reason is (Reason.TIMEOUT if kind == "timeout" else Reason.NETWORK)


def test_missing_key_is_degraded() -> None:
    assert (missing_key().status, missing_key().reason) == (Status.DEGRADED, Reason.MISSING_KEY)


ABSENCE_BODIES = [body for _n, _s, body, _src, expected, _r in ROWS if expected is Status.UNAVAILABLE]
TEMPORARY_STATUSES = st.sampled_from([401, 402, 403, 408, 429, 500, 502, 503, 504, 524, 529])


@given(status=TEMPORARY_STATUSES, body=st.sampled_from(ABSENCE_BODIES), source=st.sampled_from([G, D]))
def test_a_temporary_status_never_reads_as_absence_whatever_the_body_says(
    status: int, body: Any, source: Source
) -> None:
    assert classify_reply(status, body, source).status is Status.DEGRADED


@given(
    status=st.integers(min_value=300, max_value=599),
    raw=st.one_of(
        st.text(max_size=80), st.sampled_from(["acme/x is not a valid model ID", "No endpoints found"])
    ),
    source=st.sampled_from([G, D]),
)
def test_provider_returned_error_is_never_absence(status: int, raw: str, source: Source) -> None:
    assert classify_reply(status, upstream(status, raw), source).status is not Status.UNAVAILABLE


JSON_LIKE = st.recursive(
    st.none() | st.integers() | st.text(max_size=20),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=3),
    max_leaves=10,
)


@given(body=JSON_LIKE, status=st.integers(min_value=100, max_value=599))
def test_garbage_never_raises(body: Any, status: int) -> None:
    assert classify_reply(status, body, G).status in set(Status)
