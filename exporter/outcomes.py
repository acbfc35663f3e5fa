"""The shared vocabulary of probe results: outcomes, the closed set of reasons, and a request's usage.

Only ``pass`` and ``fail`` are evidence about a provider's quality (design.md §3, §4). Every other outcome
freezes streaks. ``Reason`` is a closed enum because it becomes a Prometheus label: free text (error
messages, model output, URLs) goes into a probe result's ``detail`` (``contracts.base.ProbeResult``) and the
structured log, never into labels.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Outcome(StrEnum):
    PASS = "pass"
    FAIL = "fail"
    TRANSPORT = "transport"
    UNAVAILABLE = "unavailable"
    CONFIG = "config"
    INCONCLUSIVE = "inconclusive"
    SKIPPED = "skipped"
    PIN_VIOLATION = "pin_violation"

    @property
    def is_evidence(self) -> bool:
        """Whether this outcome says anything about the provider's quality."""
        return self in (Outcome.PASS, Outcome.FAIL)


class Reason(StrEnum):
    """Why a probe ended the way it did. Closed: safe as a label value."""

    NONE = "none"
    # time to first token
    SLOW_FIRST_TOKEN = "slow_first_token"
    NO_CONTENT = "no_content"
    # refusal / filtering
    CONTENT_FILTER = "content_filter"
    EMPTY_REPLY = "empty_reply"
    REFUSAL_ERROR = "refusal_error"
    REFUSAL_PATTERN = "refusal_pattern"
    # structured output
    INVALID_JSON = "invalid_json"
    SCHEMA_MISMATCH = "schema_mismatch"
    CODE_FENCED = "code_fenced"
    TRUNCATED = "truncated"
    # language and encoding integrity
    SWITCH = "switch"
    MIXING = "mixing"
    ENCODING = "encoding"
    LEADING_GARBAGE = "leading_garbage"
    TOO_SHORT = "too_short"
    AMBIGUOUS = "ambiguous"
    # transport
    RATE_LIMITED = "rate_limited"
    SERVER_ERROR = "server_error"
    TIMEOUT = "timeout"
    NETWORK = "network"
    MID_STREAM_ERROR = "mid_stream_error"
    MALFORMED_RESPONSE = "malformed_response"
    PROBE_ERROR = "probe_error"  # a bug in the canary's own probe code: no evidence, look at the log
    # unavailable
    MODEL_NOT_FOUND = "model_not_found"
    NO_ENDPOINTS = "no_endpoints"
    MODEL_DEPRECATED = "model_deprecated"
    PIN_UNSATISFIABLE = "pin_unsatisfiable"
    # config (our side)
    AUTH = "auth"
    CREDITS = "credits"
    MISSING_KEY = "missing_key"
    BAD_REQUEST = "bad_request"
    PLATFORM_MODERATION = "platform_moderation"
    # skipped / pin violation
    NOT_ADVERTISED = "not_advertised"
    WRONG_PROVIDER = "wrong_provider"
    BUDGET_EXHAUSTED = "budget_exhausted"
    # every free-text probe reply (issue 11): refusal phrase outside the refusal contract, a story cut
    # short mid-sentence, a degenerate loop
    REFUSAL = "refusal"
    TRUNCATION = "truncation"
    REPETITION = "repetition"


@dataclass(frozen=True, slots=True)
class Usage:
    """Tokens and cost of one request, from the gateway's usage fields (cost in USD)."""

    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.cost_usd + other.cost_usd,
        )
