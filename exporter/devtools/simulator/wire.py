"""OpenRouter wire format: the exact JSON bodies, SSE events and error envelopes the simulator sends.

Pure builders over values, shaped after ``reference/openrouter.md`` (captured real bodies where the
reference has them). The app decides *what* to send; this module only decides *how it looks*.

Example::

    >>> error_body(401, "User not found.", user_id=False)
    {'error': {'message': 'User not found.', 'code': 401}}
"""

from __future__ import annotations

import json
import random
import string
from collections.abc import Mapping, Sequence
from decimal import Decimal
from typing import NotRequired, TypedDict

from exporter.devtools.simulator.fleet import Model, Provider
from exporter.devtools.simulator.replies import Reply

USER_ID = "user_2sim0canary0local"
KEEPALIVE = b": OPENROUTER PROCESSING\n\n"
DONE = b"data: [DONE]\n\n"
DOCS_URL = "https://openrouter.ai/docs/api-reference/errors-and-debugging"
_ID_ALPHABET = string.ascii_letters + string.digits

JSON = dict[str, object]


class ErrorBody(TypedDict):
    message: str
    code: int
    metadata: NotRequired[dict[str, object]]
    availability: NotRequired[dict[str, object]]
    problems: NotRequired[list[str]]  # the simulator's own control API: every invalid knob


class ErrorEnvelope(TypedDict):
    """The gateway's error reply; its ``error.code`` is the HTTP status."""

    error: ErrorBody
    user_id: NotRequired[str]


def generation_id(created: int, rng: random.Random) -> str:
    """``gen-<unix>-<20 random characters>`` like the gateway's ids."""
    return f"gen-{created}-{''.join(rng.choices(_ID_ALPHABET, k=20))}"


def sse(event: Mapping[str, object]) -> bytes:
    """One ``data:`` event."""
    return b"data: " + json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode() + b"\n\n"


def error_body(
    status: int,
    message: str,
    metadata: Mapping[str, object] | None = None,
    availability: Mapping[str, object] | None = None,
    user_id: bool = True,
) -> ErrorEnvelope:
    """The error envelope ``{"error": {"message", "code", "metadata"?, "availability"?}, "user_id"?}``."""
    error: ErrorBody = {"message": message, "code": status}
    if metadata is not None:
        error["metadata"] = dict(metadata)
    if availability is not None:
        error["availability"] = dict(availability)
    body: ErrorEnvelope = {"error": error}
    if user_id:
        body["user_id"] = USER_ID
    return body


# The gateway's answer for a model it cannot route, by ``availability.code``: the HTTP status and message.
UNAVAILABLE = {
    "model_not_found": (400, "{model} is not a valid model ID"),  # an unknown id (on chat: 400, not 404)
    "wrong_endpoint": (400, "{model} does not support chat completions"),  # a model that does not chat
    "no_endpoints": (404, "No endpoints found for {model}."),  # the model exists, nothing can serve it
    "model_deprecated": (404, "{model} has been deprecated and is no longer available."),  # sunset
    "constraint_filtered": (404, "No endpoints found that can handle the requested parameters for {model}."),
}


def unavailable(code: str, model: str, **availability: object) -> ErrorEnvelope:
    """HTTP 400 invalid_request or 404 not_found: the gateway cannot route ``model`` (``code``, a key of
    ``UNAVAILABLE``); ``availability`` adds to that object (``excluded_by``, ``constraint``).

    >>> unavailable("no_endpoints", "a/b")["error"]["message"]
    'No endpoints found for a/b.'
    """
    status, message = UNAVAILABLE[code]
    error_type = "invalid_request" if status == 400 else "not_found"
    facts = {"code": code, "retryable": False, "requested_models": [model], **availability}
    return error_body(
        status, message.format(model=model), {"error_type": error_type}, {**facts, "docs_url": DOCS_URL}
    )


def constraint_filtered(model: str, excluded_by: str, field: str, detail: str) -> ErrorEnvelope:
    """HTTP 404: max_tokens, require_parameters or quantizations removed every endpoint."""
    constraint = {"field": field, "detail": detail}
    return unavailable("constraint_filtered", model, excluded_by=[excluded_by], constraint=constraint)


def no_allowed_providers(available: Sequence[str], requested: Sequence[str]) -> ErrorEnvelope:
    """HTTP 404: ``provider.only`` names no endpoint that serves the model (a pin nobody satisfies)."""
    return error_body(
        404,
        "No allowed providers are available for the selected model.",
        metadata={"available_providers": list(available), "requested_providers": list(requested)},
    )


def invalid_request(issues: Sequence[Mapping[str, object]]) -> ErrorEnvelope:
    """HTTP 400 for a malformed request: the message is the list of validation issues as JSON text."""
    return plain_error(400, json.dumps(list(issues), ensure_ascii=False))


def plain_error(status: int, message: str) -> ErrorEnvelope:
    return error_body(status, message, user_id=False)


_UPSTREAM_RAW = {
    429: (
        "{model} is temporarily rate-limited upstream. Please retry shortly, or add your own key to "
        "accumulate your rate limits: https://openrouter.ai/settings/integrations"
    ),
    500: '{{"error":{{"message":"Internal server error","type":"server_error"}}}}',
    502: "upstream connect error or disconnect/reset before headers. reset reason: connection termination",
    503: '{{"error":{{"message":"Service temporarily unavailable: the engine is overloaded","code":503}}}}',
    504: "upstream request timeout",
    524: "error code: 524",
    529: '{{"type":"error","error":{{"type":"overloaded_error","message":"Overloaded"}}}}',
}
_ERROR_TYPES = {
    429: "rate_limit_exceeded",
    500: "server",
    502: "provider_unavailable",
    503: "provider_overloaded",
    504: "timeout",
    524: "timeout",
    529: "provider_overloaded",
}


def _provider_error(status: int, provider: Provider, raw: str, **metadata: object) -> ErrorEnvelope:
    """A provider failure relayed by the gateway: "Provider returned error", the host's own reply in
    ``metadata.raw`` and its display name in ``metadata.provider_name``."""
    relayed = {"raw": raw, "provider_name": provider.display_name, "is_byok": False, **metadata}
    return error_body(status, "Provider returned error", metadata=relayed)


def upstream_error(status: int, provider: Provider, model: str) -> tuple[ErrorEnvelope, dict[str, str]]:
    """A host's HTTP error (``_provider_error``, or the gateway's own 408); 429/503 carry ``Retry-After``.

    >>> upstream_error(429, Provider(tag="stormy/fp8", name="Stormy"), "a/b")[1]
    {'Retry-After': '2'}
    """
    if status == 408:
        return error_body(408, "Request timed out", metadata={"error_type": "timeout"}), {}
    raw = _UPSTREAM_RAW.get(status, "upstream error").format(model=model)
    if status == 429:
        hint = "Retry shortly, add your own provider key, or route to another provider"
        body = _provider_error(
            status, provider, raw, limit_source="upstream_provider_shared_pool", remedy_hint=hint
        )
    else:
        body = _provider_error(status, provider, raw, error_type=_ERROR_TYPES.get(status, "unmapped"))
    return body, {"Retry-After": "2"} if status in (429, 503) else {}


def refusal_error(provider: Provider) -> ErrorEnvelope:
    """HTTP 400 from a host whose policy layer rejects the prompt."""
    policy = {"message": "Input data may contain inappropriate content.", "type": "content_policy_violation"}
    return _provider_error(
        400, provider, json.dumps({"error": policy}), error_type="content_policy_violation"
    )


def outage_error(status: int) -> tuple[ErrorEnvelope, dict[str, str]]:
    """The gateway itself failing (the global outage switch): no provider involved."""
    if status == 503:
        return plain_error(503, "Service temporarily unavailable. Please try again later."), {
            "Retry-After": "5"
        }
    return plain_error(502, "Bad gateway"), {}


def mid_stream_error(provider: Provider, rng: random.Random) -> JSON:
    """The ``error`` object of a mid-stream failure; ``code`` is an int or a string, as both occur."""
    if rng.random() < 0.5:
        return {
            "code": 502,
            "message": f"Upstream error from {provider.display_name}: connection reset while streaming",
            "metadata": {"provider_name": provider.display_name, "error_type": "provider_unavailable"},
        }
    return {
        "code": "server_error",
        "message": "Internal server error",
        "metadata": {"error_type": "server"},
    }


# -- completions -----------------------------------------------------------------------------------------


def usage(reply: Reply, prompt_tokens: int, provider: Provider) -> JSON:
    """The full usage object, ``cost`` in USD from the endpoint's per-token prices."""
    prompt_cost = Decimal(provider.pricing.prompt) * prompt_tokens
    completion_cost = Decimal(provider.pricing.completion) * reply.completion_tokens
    cost = float(prompt_cost + completion_cost)
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": reply.completion_tokens,
        "total_tokens": prompt_tokens + reply.completion_tokens,
        "cost": cost,
        "is_byok": False,
        "prompt_tokens_details": {
            "cached_tokens": 0,
            "cache_write_tokens": 0,
            "audio_tokens": 0,
            "video_tokens": 0,
        },
        "cost_details": {
            "upstream_inference_cost": cost,
            "upstream_inference_prompt_cost": float(prompt_cost),
            "upstream_inference_completions_cost": float(completion_cost),
        },
        "completion_tokens_details": {"reasoning_tokens": reply.reasoning_tokens, "image_tokens": 0},
    }


def completion(
    gen_id: str,
    created: int,
    model: str,
    provider: Provider,
    reply: Reply,
    usage_json: JSON,
    error: JSON | None = None,
) -> JSON:
    """A non-streamed ``chat.completion``; with ``error`` it is the in-band error form (HTTP 200)."""
    choice: JSON = {
        "index": 0,
        "logprobs": logprobs(reply),
        "finish_reason": "error" if error else reply.finish_reason,
        "native_finish_reason": "error" if error else reply.native_finish_reason,
        "message": {
            "role": "assistant",
            "content": reply.content,
            "refusal": None,
            "reasoning": reply.reasoning or None,
        },
    }
    if error is not None:
        choice["error"] = error
    return {
        "id": gen_id,
        "object": "chat.completion",
        "created": created,
        "model": model,
        "provider": provider.display_name,
        "system_fingerprint": None,
        "choices": [choice],
        "usage": usage_json,
    }


def logprobs(reply: Reply) -> JSON | None:
    """``choices[0].logprobs`` (OpenAI's shape): the first position, when the request asked for logprobs."""
    if reply.first_token is None:
        return None

    def entry(token: str, logprob: float) -> JSON:
        return {"token": token, "logprob": round(logprob, 6), "bytes": list(token.encode())}

    top = [entry(t, lp) for t, lp in reply.alternatives]
    return {"content": [entry(*reply.first_token) | {"top_logprobs": top}], "refusal": None}


def chunk(
    gen_id: str,
    created: int,
    model: str,
    provider: Provider,
    delta: Mapping[str, object] | None,
    finish_reason: str | None = None,
    native_finish_reason: str | None = None,
    *,
    logprobs: JSON | None = None,
    **extra: object,
) -> JSON:
    """One ``chat.completion.chunk``; ``delta=None`` gives the ``choices: []`` usage shape."""
    event: JSON = {
        "id": gen_id,
        "provider": provider.display_name,
        "model": model,
        "object": "chat.completion.chunk",
        "created": created,
        "choices": []
        if delta is None
        else [
            {
                "index": 0,
                "delta": dict(delta),
                "finish_reason": finish_reason,
                "native_finish_reason": native_finish_reason,
                "logprobs": logprobs,
            }
        ],
    }
    event.update(extra)
    return event


# -- discovery -------------------------------------------------------------------------------------------


def endpoint(model: Model, provider: Provider, authenticated: bool) -> JSON:
    """One ``PublicEndpoint``; latency (ms, TTFT) and throughput stats only for authenticated callers."""
    latency = throughput = None
    if authenticated:
        median_ms = round(provider.profile.ttft.median * 1000, 1)
        p95_ms = round((provider.profile.ttft.p95 or provider.profile.ttft.median) * 1000, 1)
        latency = {"p50": median_ms, "p75": median_ms, "p90": p95_ms, "p99": round(p95_ms * 1.5, 1)}
        gap = provider.profile.inter_token.median
        tps = round(1 / gap, 1) if gap > 0 else 120.0
        throughput = {"p50": tps, "p75": tps * 1.1, "p90": tps * 1.2, "p99": tps * 1.4}
    uptime = provider.uptime
    return {
        "name": f"{provider.display_name} | {model.id}",
        "model_id": model.id,
        "model_name": model.name,
        "provider_name": provider.display_name,
        "tag": provider.tag,
        "quantization": provider.quantization,
        "status": provider.status,
        "context_length": provider.context_length,
        "max_completion_tokens": provider.max_completion_tokens,
        "max_prompt_tokens": None,
        "pricing": {**provider.pricing.model_dump(), "discount": 0},
        "supported_parameters": list(provider.supported_parameters),
        "uptime_last_5m": uptime,
        "uptime_last_30m": uptime,
        "uptime_last_1d": uptime,
        "latency_last_30m": latency,
        "throughput_last_30m": throughput,
        "supports_implicit_caching": False,
    }


def _architecture(model: Model) -> JSON:
    outputs = ["text"] if model.chat else ["embeddings"]
    return {
        "tokenizer": "Other",
        "instruct_type": None,
        "modality": "text->text" if model.chat else "text->embeddings",
        "input_modalities": ["text"],
        "output_modalities": outputs,
    }


def endpoints_listing(model: Model, listed: Sequence[Provider], authenticated: bool) -> JSON:
    return {
        "data": {
            "id": model.id,
            "name": model.name,
            "created": model.created,
            "description": model.description,
            "architecture": _architecture(model),
            "endpoints": [endpoint(model, p, authenticated) for p in listed],
        }
    }


def model_entry(model: Model, listed: Sequence[Provider]) -> JSON:
    """One entry of ``GET /api/v1/models``."""
    cheapest = min(listed, key=lambda p: Decimal(p.pricing.prompt), default=None)
    parameters = sorted({param for p in listed for param in p.supported_parameters})
    entry: JSON = {
        "id": model.id,
        "canonical_slug": model.id,
        "hugging_face_id": None,
        "name": model.name,
        "created": model.created,
        "description": model.description,
        "context_length": model.context_length,
        "architecture": _architecture(model),
        "pricing": {
            "prompt": cheapest.pricing.prompt if cheapest else "0",
            "completion": cheapest.pricing.completion if cheapest else "0",
        },
        "top_provider": {
            "context_length": model.context_length,
            "max_completion_tokens": max((p.max_completion_tokens or 0 for p in listed), default=None),
            "is_moderated": False,
        },
        "per_request_limits": None,
        "supported_parameters": parameters,
        "default_parameters": {},
        "supported_voices": None,
        "links": {"details": f"/api/v1/models/{model.id}/endpoints"},
    }
    if model.removal == "model_deprecated":
        entry["expiration_date"] = "2026-01-01"
    return entry


def provider_entry(slug: str, display_name: str) -> JSON:
    return {
        "name": display_name,
        "slug": slug,
        "privacy_policy_url": f"https://{slug}.example/privacy",
        "terms_of_service_url": f"https://{slug}.example/terms",
        "status_page_url": None,
        "headquarters": "US",
        "datacenters": ["US"],
    }
