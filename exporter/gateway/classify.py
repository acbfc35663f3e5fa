"""The outcome classification table of design.md §4: pure functions from what came back to a ``GatewayError``.

Inputs are an HTTP status with its body and headers, a mid-stream (or non-streamed ``finish_reason:
"error"``) error object, or an exception. The status alone does not decide (an unknown model is a 400 on
OpenRouter; upstream failures all say "Provider returned error"), so the error body is read first:
``error.code`` (int or string), ``error.message``, ``error.metadata.error_type``, ``error.metadata.raw``
(string or object), ``error.availability.code`` (also the variant that carries ``error_type`` /
``http_status`` and no ``code``), and ``metadata.reasons`` / ``flagged_input`` / ``patterns``. Bodies of
plain OpenAI-compatible hosts (``{"error": {"code": "model_not_found", ...}}``, vLLM's top-level
``{"object": "error", ...}``, FastAPI's ``{"detail": ...}``) are read the same way.

Decision order (first match wins):

1. OpenRouter moderation or guardrail block (``reasons``, ``flagged_input`` or ``patterns`` metadata), or
   a ``content_policy_violation`` / ``refusal`` ``error_type`` that no provider signed (no
   ``metadata.provider_name``, no upstream ``metadata.raw``, no ``provider_code``; before any token)
   → ``config`` / ``platform_moderation``: our prompt tripped the *platform's* filter, not the provider's.
   OpenRouter documents these error types as raised by a provider *or* by OpenRouter itself (Errors and
   Debugging, ``ApiErrorType``; shared/reference/openrouter.md §4.2, §4.5); an upstream refusal arrives as
   "Provider returned error" with the provider's name and raw body.
2. Provider-side refusal (``error_type`` ``content_policy_violation`` or ``refusal``) → ``inconclusive`` /
   ``refusal_error``. **This is the dedicated field the refusal contract reads**: ``reason is
   Reason.REFUSAL_ERROR`` means the provider refused, and that contract turns it into a ``fail``. Every
   other contract sees ``inconclusive`` (no evidence), because a refusal does not tell whether the host's
   JSON or language would have been right.
3. ``availability.code`` (reference §4.4): ``model_not_found`` / ``no_endpoints`` / ``model_deprecated``
   / ``constraint_filtered`` ... → ``unavailable``; ``capacity_exhausted`` / ``temporarily_unavailable``
   → ``transport``; ``wrong_endpoint`` → ``config``.
4. Well-known messages: "... is not a valid model ID" → ``unavailable/model_not_found``; "No endpoints
   found ..." → ``unavailable/no_endpoints``; "No allowed providers are available ..." →
   ``unavailable/pin_unsatisfiable``; OpenAI-style string codes (``model_not_found``,
   ``insufficient_quota``, ``invalid_api_key``, ...).
5. The status: 408/504/524 → ``transport/timeout``; 429 → ``transport/rate_limited``; other 5xx →
   ``transport/server_error``; 401/403 → ``config/auth``; 402 → ``config/credits``; 404 →
   ``unavailable/no_endpoints``; other 4xx → ``config/bad_request`` (malformed request: our fault).
6. Nothing to go on (no status, no recognised code) → ``transport/malformed_response``.

Mid-stream errors (``mid_stream=True``): the request was accepted and generation started, so anything that
would be ``transport`` or ``config/bad_request`` becomes ``transport/mid_stream_error``; refusals,
moderation, availability, auth and credits keep their class.

Garbage (an HTML error page, non-JSON, a truncated or oversized body) never raises: with an error status
the status decides (a 502 HTML page is ``transport/server_error``), otherwise it is
``transport/malformed_response``. An HTML 404 is no gateway's answer but a web server's: a wrong
``base_url``, ``config/bad_request`` with a hint saying so.

Example::

    err = classify_http_error(429, b'{"error":{"message":"Provider returned error","code":429}}')
    (err.outcome, err.reason)       # (Outcome.TRANSPORT, Reason.RATE_LIMITED)
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from urllib.parse import urlsplit, urlunsplit

import httpx

from exporter.gateway.chunks import first_text, whole_number
from exporter.gateway.types import GatewayError
from exporter.outcomes import Outcome, Reason
from exporter.textkit import clip

__all__ = [
    "DETAIL_MAX_CHARS",
    "ErrorFacts",
    "classify_error_object",
    "classify_exception",
    "classify_http_error",
    "discovery_hint",
    "error_facts",
    "malformed_response",
    "missing_key",
    "oversized_body",
    "parse_json_body",
    "status_class",
    "truncated_stream",
]

DETAIL_MAX_CHARS = 300
WRONG_BASE_URL_HINT = "check gateway.base_url (OpenRouter's is https://openrouter.ai/api/v1)"

# "content_filter" is the code Azure-style hosts use for the same provider-side policy block.
_REFUSAL_TYPES = frozenset({"content_policy_violation", "refusal", "content_filter"})

_AVAILABILITY: dict[str, tuple[Outcome, Reason]] = {
    "model_not_found": (Outcome.UNAVAILABLE, Reason.MODEL_NOT_FOUND),
    "no_endpoints": (Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
    "model_deprecated": (Outcome.UNAVAILABLE, Reason.MODEL_DEPRECATED),
    "free_variant_ended": (Outcome.UNAVAILABLE, Reason.MODEL_DEPRECATED),
    "model_unavailable_upstream": (Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
    "privacy_restricted": (Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
    "region_restricted": (Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
    # our own request constraints (pin, require_parameters, max_tokens ...) removed every endpoint
    "constraint_filtered": (Outcome.UNAVAILABLE, Reason.PIN_UNSATISFIABLE),
    "capacity_exhausted": (Outcome.TRANSPORT, Reason.RATE_LIMITED),
    "temporarily_unavailable": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "wrong_endpoint": (Outcome.CONFIG, Reason.BAD_REQUEST),
}

# String codes of OpenAI-compatible hosts (and OpenRouter's string ``code`` variant).
_STRING_CODES: dict[str, tuple[Outcome, Reason]] = {
    "model_not_found": (Outcome.UNAVAILABLE, Reason.MODEL_NOT_FOUND),
    "insufficient_quota": (Outcome.CONFIG, Reason.CREDITS),  # OpenAI sends it with a 429
    "payment_required": (Outcome.CONFIG, Reason.CREDITS),
    "invalid_api_key": (Outcome.CONFIG, Reason.AUTH),
    "authentication": (Outcome.CONFIG, Reason.AUTH),
    "permission_denied": (Outcome.CONFIG, Reason.AUTH),
    "rate_limit_exceeded": (Outcome.TRANSPORT, Reason.RATE_LIMITED),
    "server_error": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "server": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "unmapped": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "provider_overloaded": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "provider_unavailable": (Outcome.TRANSPORT, Reason.SERVER_ERROR),
    "timeout": (Outcome.TRANSPORT, Reason.TIMEOUT),
}

_MESSAGES: tuple[tuple[re.Pattern[str], Outcome, Reason], ...] = (
    (re.compile(r"is not a valid model id", re.I), Outcome.UNAVAILABLE, Reason.MODEL_NOT_FOUND),
    (re.compile(r"no allowed providers are available", re.I), Outcome.UNAVAILABLE, Reason.PIN_UNSATISFIABLE),
    (re.compile(r"no endpoints found", re.I), Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
    (re.compile(r"model\b.*\b(does not exist|not found)", re.I), Outcome.UNAVAILABLE, Reason.MODEL_NOT_FOUND),
)


@dataclass(frozen=True, slots=True)
class ErrorFacts:
    """What an error body says, normalised across OpenRouter and OpenAI-compatible shapes."""

    code: int | None = None  # error.code when an int, else error.http_status
    code_text: str | None = None  # error.code when a string
    message: str = ""
    error_type: str | None = None  # error.metadata.error_type, error.error_type or error.type
    availability: str | None = None  # error.availability.code
    excluded_by: tuple[str, ...] = ()
    raw: str = ""  # error.metadata.raw, serialised when an object
    provider_name: str | None = None
    moderation: bool = False  # metadata.reasons / flagged_input / patterns present
    # error_type came in OpenRouter's own fields (metadata.error_type / error_type), not an OpenAI-style
    # host's ``type``, and no provider signed the error: a refusal type here is OpenRouter's, not a host's
    unsigned_platform_type: bool = False


def error_facts(error: object) -> ErrorFacts:
    """Normalise an error object (the value of ``"error"``, or a whole vLLM/FastAPI error body).

    Example: ``error_facts({"code": 429, "message": "Provider returned error",
    "metadata": {"provider_name": "BaseTen"}}).provider_name`` → ``'BaseTen'``.
    """
    if isinstance(error, str):
        return ErrorFacts(message=error)
    if not isinstance(error, Mapping):
        return ErrorFacts()
    metadata = error.get("metadata")
    meta: Mapping[str, object] = metadata if isinstance(metadata, Mapping) else {}
    availability = error.get("availability")
    avail: Mapping[str, object] = availability if isinstance(availability, Mapping) else {}
    raw_code = error.get("code")
    code = whole_number(raw_code)
    code_text = first_text(raw_code.strip()) if code is None and isinstance(raw_code, str) else None
    if code is None:
        code = whole_number(error.get("http_status"))
    message = error.get("message")
    if not isinstance(message, str):
        detail = error.get("detail")
        message = detail if isinstance(detail, str) else ""
    error_type = first_text(meta.get("error_type"), error.get("error_type"), error.get("type"))
    excluded = avail.get("excluded_by")
    raw = meta.get("raw")
    raw_text = (
        raw
        if isinstance(raw, str)
        else ""
        if raw is None
        else json.dumps(raw, ensure_ascii=False, default=str)
    )
    return ErrorFacts(
        code=code,
        code_text=code_text,
        message=message,
        error_type=error_type,
        availability=first_text(avail.get("code")),
        excluded_by=tuple(x for x in excluded if isinstance(x, str)) if isinstance(excluded, list) else (),
        raw=raw_text,
        provider_name=first_text(meta.get("provider_name")),
        moderation=any(key in meta for key in ("reasons", "flagged_input", "patterns")),
        unsigned_platform_type=first_text(meta.get("error_type"), error.get("error_type")) is not None
        and first_text(meta.get("provider_name")) is None
        and not raw_text
        and "provider_code" not in meta,
    )


def classify_error_object(
    error: object, *, status: int | None = None, mid_stream: bool = False
) -> GatewayError:
    """Classify an error object; ``status`` is the HTTP status when there was one (None mid-stream).

    Example: ``classify_error_object({"code": "server_error", "message": "boom"}, mid_stream=True)``
    → ``GatewayError(TRANSPORT, MID_STREAM_ERROR, None, ...)``.
    """
    facts = error_facts(error)
    if mid_stream:  # generation had started at the pinned host: a refusal type mid-stream is the host's
        facts = replace(facts, unsigned_platform_type=False)
    effective = status if status is not None and status >= 400 else facts.code
    outcome, reason = _decide(facts, effective)
    # mid-stream, a transport error or our "bad request" says nothing more precise than "the stream broke"
    if mid_stream and (outcome is Outcome.TRANSPORT or reason is Reason.BAD_REQUEST):
        outcome, reason = Outcome.TRANSPORT, Reason.MID_STREAM_ERROR
    prefix = "mid-stream error" if mid_stream else (f"HTTP {status}" if status is not None else "error")
    return GatewayError(outcome, reason, status, _clip(f"{prefix}: {_describe(facts)}"))


def classify_http_error(
    status: int, body: bytes | str, headers: Mapping[str, str] | None = None
) -> GatewayError:
    """Classify a non-2xx response from its status, its (possibly garbage) body, and its headers.

    Example: ``classify_http_error(400, b'{"error":{"code":400,"message":"acme/fake is not a valid model
    ID"}}')`` → ``GatewayError(UNAVAILABLE, MODEL_NOT_FOUND, 400, ...)``.
    """
    parsed, problem = parse_json_body(body)
    retry_after = httpx.Headers(headers).get("retry-after")
    suffix = f" (retry-after {retry_after})" if retry_after else ""
    error_obj: object = None
    if isinstance(parsed, Mapping):
        if "error" in parsed:
            error_obj = parsed["error"]
        elif parsed.get("object") == "error" or "message" in parsed or "detail" in parsed:
            error_obj = parsed
    if error_obj is not None:
        classified = classify_error_object(error_obj, status=status)
        return GatewayError(classified.outcome, classified.reason, status, _clip(classified.detail + suffix))
    outcome, reason = _decide(ErrorFacts(), status)
    what = problem or "JSON body without an error object"
    if status == 404 and problem is not None:
        # A web server's page (HTML or plain text), not the API: the path is no gateway endpoint.
        page = "HTML page" if problem.startswith("HTML") else "page without JSON"
        hint = f"HTTP 404 {page}, not the API: {WRONG_BASE_URL_HINT}"
        return GatewayError(Outcome.CONFIG, Reason.BAD_REQUEST, status, _clip(f"{hint}: {_excerpt(body)}"))
    return GatewayError(outcome, reason, status, _clip(f"HTTP {status}: {what}: {_excerpt(body)}{suffix}"))


def classify_exception(exc: BaseException) -> GatewayError:
    """Classify an exception raised while talking to the gateway (never raises itself).

    Example: ``classify_exception(httpx.ConnectTimeout("timed out"))`` → ``GatewayError(TRANSPORT, TIMEOUT)``.
    """
    name = type(exc).__name__
    text = str(exc)
    detail = _clip(f"{name}: {text}" if text else name)
    if isinstance(exc, httpx.TimeoutException | TimeoutError):
        return GatewayError(Outcome.TRANSPORT, Reason.TIMEOUT, None, detail)
    if isinstance(exc, httpx.DecodingError):
        return GatewayError(Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE, None, detail)
    if isinstance(exc, httpx.UnsupportedProtocol | httpx.InvalidURL):
        return GatewayError(Outcome.CONFIG, Reason.BAD_REQUEST, None, detail)
    return GatewayError(Outcome.TRANSPORT, Reason.NETWORK, None, detail)


def missing_key() -> GatewayError:
    """The error for a request that needs an API key when none is configured (nothing was sent)."""
    return GatewayError(Outcome.CONFIG, Reason.MISSING_KEY, None, "no API key configured; request not sent")


def malformed_response(detail: str, status: int | None = None) -> GatewayError:
    """A response we could not read as the wire format says (garbage, wrong shape)."""
    return GatewayError(Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE, status, _clip(detail))


def oversized_body(limit: int, status: int | None = None) -> GatewayError:
    """A body larger than ``limit`` bytes: reading stopped there. Error statuses keep their class."""
    if status is not None and status >= 400:
        outcome, reason = _decide(ErrorFacts(), status)
        return GatewayError(outcome, reason, status, f"HTTP {status}: body over {limit} bytes (not read)")
    return malformed_response(f"body over {limit} bytes (reading stopped)", status)


def truncated_stream(detail: str, status: int | None = 200) -> GatewayError:
    """A stream that ended without a finish reason, ``[DONE]`` or an error chunk."""
    return GatewayError(Outcome.TRANSPORT, Reason.NETWORK, status, _clip(f"stream truncated: {detail}"))


def parse_json_body(body: bytes | str) -> tuple[object, str | None]:
    """Parse a JSON body that may start with whitespace heartbeats; return ``(value, problem)``.

    ``problem`` is None on success, otherwise says what was wrong (and ``value`` is None).
    Example: ``parse_json_body(b"\\n\\n{\\"a\\": 1}")`` → ``({'a': 1}, None)``.
    """
    text: str
    if isinstance(body, bytes | bytearray):
        try:
            text = bytes(body).decode("utf-8")
        except UnicodeDecodeError as exc:
            return None, f"body is not UTF-8 ({exc.reason} at byte {exc.start})"
    else:
        text = body
    text = text.strip()
    if not text:
        return None, "empty body"
    if text[0] == "<":
        return None, "HTML/XML body instead of JSON"
    try:
        return json.loads(text), None
    except json.JSONDecodeError as exc:
        return None, f"body is not JSON ({exc.msg} at char {exc.pos})"
    except RecursionError:
        return None, "body is not usable JSON (nested too deeply)"


# -- internals -------------------------------------------------------------------------------------------


def _decide(facts: ErrorFacts, status: int | None) -> tuple[Outcome, Reason]:
    refusal_type = facts.error_type in _REFUSAL_TYPES or facts.code_text in _REFUSAL_TYPES
    if facts.moderation or (refusal_type and facts.unsigned_platform_type):
        return Outcome.CONFIG, Reason.PLATFORM_MODERATION
    if refusal_type:
        return Outcome.INCONCLUSIVE, Reason.REFUSAL_ERROR
    if facts.availability is not None and facts.availability in _AVAILABILITY:
        outcome, reason = _AVAILABILITY[facts.availability]
        if reason is Reason.NO_ENDPOINTS and "allowed_providers" in facts.excluded_by:
            reason = Reason.PIN_UNSATISFIABLE
        return outcome, reason
    for pattern, outcome, reason in _MESSAGES:
        if pattern.search(facts.message):
            return outcome, reason
    if facts.code_text is not None and facts.code_text in _STRING_CODES:
        return _STRING_CODES[facts.code_text]
    if status is None:
        if facts.error_type is not None and facts.error_type in _STRING_CODES:
            return _STRING_CODES[facts.error_type]
        return Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE
    return status_class(status)


# Statuses that say more than their class (5xx: a server error; other 4xx: our malformed request).
_STATUSES: dict[int, tuple[Outcome, Reason]] = {
    **dict.fromkeys((408, 504, 524), (Outcome.TRANSPORT, Reason.TIMEOUT)),
    429: (Outcome.TRANSPORT, Reason.RATE_LIMITED),
    **dict.fromkeys((401, 403), (Outcome.CONFIG, Reason.AUTH)),
    402: (Outcome.CONFIG, Reason.CREDITS),
    404: (Outcome.UNAVAILABLE, Reason.NO_ENDPOINTS),
}


def status_class(status: int) -> tuple[Outcome, Reason]:
    """What an HTTP status alone says (step 5 of the decision order), for a reply with nothing else to go on.

    Example: ``status_class(429)`` → ``(Outcome.TRANSPORT, Reason.RATE_LIMITED)``.
    """
    if status in _STATUSES:
        return _STATUSES[status]
    if status >= 500:
        return Outcome.TRANSPORT, Reason.SERVER_ERROR
    if status >= 400:
        return Outcome.CONFIG, Reason.BAD_REQUEST
    # 1xx/2xx/3xx handed in as an error: nothing we can read as the wire format
    return Outcome.TRANSPORT, Reason.MALFORMED_RESPONSE


def _describe(facts: ErrorFacts) -> str:
    named: tuple[tuple[str, object], ...] = (("code", facts.code), ("code", facts.code_text))
    named += (("error_type", facts.error_type), ("availability", facts.availability))
    named += (("provider", facts.provider_name),)
    parts = [f"{name}={value}" for name, value in named if value is not None]
    raw = [f"raw={facts.raw[:160]!r}"] if facts.raw else []
    return " ".join([facts.message or "(no message)", *parts, *raw])


def _excerpt(body: bytes | str, limit: int = 120) -> str:
    text = body.decode("utf-8", errors="replace") if isinstance(body, bytes | bytearray) else body
    text = " ".join(text[: limit * 2].split())
    return repr(text[:limit])


def _clip(text: str) -> str:
    return clip(text, DETAIL_MAX_CHARS)


def discovery_hint(error: GatewayError, base_url: str, model: str, model_index: int | None) -> str | None:
    """What to change in the configuration when discovering ``model`` failed with ``error`` (None: nothing
    the configuration can fix). A 404 page that is not the API names ``gateway.base_url`` and its likely
    right value (``…/api/v1``); the gateway's own JSON 404 names the model's ``models[i].slug``.

    >>> e = GatewayError(Outcome.CONFIG, Reason.BAD_REQUEST, 404, "HTTP 404 page without JSON, not the API")
    >>> discovery_hint(e, "https://openrouter.ai/v1", "m/x", 0)
    'gateway.base_url https://openrouter.ai/v1 is not the API (HTTP 404 page); did you mean https://openrouter.ai/api/v1?'
    """
    if error.status != 404:
        return None
    if error.outcome is Outcome.CONFIG:
        parts = urlsplit(base_url)
        path = parts.path.rstrip("/")
        likely = "/api/v1" if path in ("", "/v1", "/api") else None
        if likely is None:
            return f"gateway.base_url {base_url} is not the API (HTTP 404 page); {WRONG_BASE_URL_HINT}"
        right = urlunsplit(parts._replace(path=likely, query="", fragment=""))
        return f"gateway.base_url {base_url} is not the API (HTTP 404 page); did you mean {right}?"
    where = f"models[{model_index}].slug" if model_index is not None else "the model's slug"
    return f"model {model} not found on the gateway (HTTP 404); check {where}"
