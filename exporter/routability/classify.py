"""Conservative classification of one routability probe: a temporary problem never reads as "model removed".

Only an explicit statement of absence from the execution endpoint makes a model ``unavailable``:

* OpenRouter: ``error.availability.code`` in ``model_not_found`` (HTTP **400**), ``no_endpoints``,
  ``model_deprecated``, ``free_variant_ended`` (404), not marked retryable; or the older prose bodies
  "… is not a valid model ID" (400) and "No endpoints found for …" (404);
* a direct OpenAI-compatible route: a 404 whose body says the *model* does not exist (a bare 404 may be a
  wrong base URL, which is our configuration, not the model).

Never when the message also mentions access or permission (OpenAI: "The model `x` does not exist or you do
not have access to it."): that is also what a key without access to the model gets, an account problem,
so it is ``degraded`` (reason ``auth``).

Everything else is ``degraded``: 408/429/5xx, 401/402/403, a missing key, network failures, any other
4xx (unknown request-format failures), in-body errors on 200, and every upstream failure that OpenRouter
relays as "Provider returned error" (whatever its status or raw text says).
"""

from __future__ import annotations

import re
from typing import Any

from exporter.gateway.classify import ErrorFacts, error_facts, status_class
from exporter.outcomes import Outcome, Reason
from exporter.routability.model import Source, Status, Verdict
from exporter.textkit import clip

# availability codes that state the model itself is absent (reference §4.4); the rest are about our
# account, preferences or request (region, privacy, constraints) or are transient.
_ABSENCE_CODES: dict[str, Reason] = {
    "model_not_found": Reason.MODEL_NOT_FOUND,
    "no_endpoints": Reason.NO_ENDPOINTS,
    "model_deprecated": Reason.MODEL_DEPRECATED,
    "free_variant_ended": Reason.MODEL_DEPRECATED,
}
_ABSENCE_STATUSES = frozenset({400, 404, 410})
_NOT_VALID_MODEL = re.compile(r"is not a valid model id", re.IGNORECASE)
_NO_ENDPOINTS = re.compile(r"^no endpoints found for ", re.IGNORECASE)
_DIRECT_MODEL_ABSENT = re.compile(
    r"\bmodel\b.*\b(does not exist|not found|not exist|unknown|no such)\b", re.IGNORECASE | re.DOTALL
)
# "... or you do not have access to it", "permission denied for model ...": maybe only our key lacks access.
_ACCESS = re.compile(r"\b(access|permission|permitted|unauthori[sz]ed|not authori[sz]ed)", re.IGNORECASE)
_UPSTREAM = "provider returned error"
_NOTE_LIMIT = 300


def classify_reply(status: int, body: Any, source: Source) -> Verdict:
    """Classify an HTTP reply to the minimal completion (``body`` is the parsed JSON, or the raw text).

    Example::

        >>> body = {"error": {"code": 429, "message": "Provider returned error",
        ...                   "metadata": {"raw": "temporarily rate-limited upstream", "provider_name": "X"}}}
        >>> classify_reply(429, body, Source.GATEWAY).status
        <Status.DEGRADED: 'degraded'>
        >>> body = {"error": {"code": 400, "message": "acme/fake-1.0 is not a valid model ID"}}
        >>> classify_reply(400, body, Source.GATEWAY).status
        <Status.UNAVAILABLE: 'unavailable'>
    """
    if 200 <= status < 300:
        return _classify_success(status, body)
    # OpenRouter/OpenAI wrap the error in "error"; vLLM and FastAPI put it at the top level.
    error = body.get("error", body) if isinstance(body, dict) else body
    facts = error_facts(error)
    if _is_upstream(facts):
        note = _note(f"{status} from {facts.provider_name or 'upstream'}: {facts.raw or facts.message}")
        return Verdict(_DEGRADED, _transient_reason(status), note, status)
    absent = _absence(status, error, facts, source)
    if absent is not None and _ACCESS.search(facts.message):
        note = _note(f"{status}: {facts.message} (may be our key lacking access, not the model)")
        return Verdict(_DEGRADED, Reason.AUTH, note, status)
    if absent is not None:
        return Verdict(Status.UNAVAILABLE, absent, _note(f"{status}: {facts.message}"), status)
    return Verdict(_DEGRADED, _transient_reason(status), _note(f"{status}: {facts.message}"), status)


def classify_network(kind: str, detail: str) -> Verdict:
    """A request that got no HTTP reply (``kind`` is ``timeout`` or ``network``): always degraded.

    Example::

        >>> classify_network("timeout", "read timed out").reason
        <Reason.TIMEOUT: 'timeout'>
    """
    reason = Reason.TIMEOUT if kind == "timeout" else Reason.NETWORK
    return Verdict(_DEGRADED, reason, _note(f"{kind}: {detail}"), None)


def missing_key() -> Verdict:
    """No API key configured for the route: degraded, nothing was sent."""
    return Verdict(_DEGRADED, Reason.MISSING_KEY, "no API key configured; probe not sent", None)


_DEGRADED = Status.DEGRADED


def _classify_success(status: int, body: Any) -> Verdict:
    if not isinstance(body, dict):
        return Verdict(_DEGRADED, Reason.MALFORMED_RESPONSE, "reply is not a JSON object", status)
    choices = body.get("choices")
    first = choices[0] if isinstance(choices, list) and choices and isinstance(choices[0], dict) else None
    error = body.get("error")
    if error is None and first is not None and first.get("finish_reason") == "error":
        error = first.get("error") or {}
    if error is not None:
        return Verdict(
            _DEGRADED,
            Reason.MID_STREAM_ERROR,
            _note(f"error in a 200 reply: {error_facts(error).message}"),
            status,
        )
    if first is None or not isinstance(first.get("message"), dict):
        return Verdict(_DEGRADED, Reason.MALFORMED_RESPONSE, "reply has no choices[0].message", status)
    content = _text(first["message"].get("content")).strip()
    finish = _text(first.get("finish_reason")) or "none"
    served = _text(body.get("provider"))
    how = f"completed by {served}" if served else "completed"
    # An empty answer still proves the model executed (e.g. a reasoning model spent the budget thinking).
    empty = "" if content else " with empty content"
    return Verdict(Status.HEALTHY, Reason.NONE, _note(f"{how}{empty} (finish {finish})"), status)


def _is_upstream(facts: ErrorFacts) -> bool:
    """OpenRouter relays an upstream host's failure: never evidence that the model is gone."""
    return facts.message.strip().lower() == _UPSTREAM or bool(facts.raw) or facts.provider_name is not None


def _absence(status: int, error: Any, facts: ErrorFacts, source: Source) -> Reason | None:
    if status not in _ABSENCE_STATUSES:
        return None
    availability = error.get("availability") if isinstance(error, dict) else None
    if isinstance(availability, dict):
        if availability.get("retryable") is True or facts.availability is None or facts.excluded_by:
            return None  # transient, unreadable, or endpoints removed by our own preferences/account
        return _ABSENCE_CODES.get(facts.availability)
    if source is Source.GATEWAY:
        if status == 400 and _NOT_VALID_MODEL.search(facts.message):
            return Reason.MODEL_NOT_FOUND
        if status == 404 and _NO_ENDPOINTS.search(facts.message):
            return Reason.NO_ENDPOINTS
        return None
    if status == 404 and (facts.code_text == "model_not_found" or _DIRECT_MODEL_ABSENT.search(facts.message)):
        return Reason.MODEL_NOT_FOUND
    return None


def _transient_reason(status: int) -> Reason:
    """The gateway's reading of the status, except that a status alone never says the model is gone (a bare
    404 may be a wrong base URL) and a non-error status here is a request we cannot use: both are
    ``bad_request``."""
    outcome, reason = status_class(status)
    if outcome is Outcome.UNAVAILABLE or status < 400:
        return Reason.BAD_REQUEST
    return reason


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _note(text: str) -> str:
    return clip(text, _NOTE_LIMIT, flat=True)
