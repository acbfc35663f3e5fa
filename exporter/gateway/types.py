"""Values exchanged with the gateway: endpoints, chat requests and results, classified errors.

These are plain frozen values so contracts and the engine can be tested without a network. Expected
failures (429, 5xx, a 404 for a pin nobody serves, a mid-stream error chunk) are *values* here
(``GatewayError`` inside a result), not exceptions: the probe code turns them into outcomes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from exporter.outcomes import Outcome, Reason, Usage

if TYPE_CHECKING:  # the router client imports this module with only httpx installed
    from pydantic import JsonValue


@dataclass(frozen=True, slots=True)
class Endpoint:
    """One serving endpoint of a model, as discovered (information, never a verdict): only what the canary
    reads (the listing's name, context length and prices are not)."""

    tag: str  # routing slug for provider.only / provider.ignore, e.g. "deepinfra/fp8"
    provider_name: str  # display name, e.g. "DeepInfra" (what responses report in "provider")
    quantization: str | None = None
    status: int | None = None  # listed status; 0 healthy, negative degraded (undocumented)
    supported_parameters: frozenset[str] = frozenset()
    max_completion_tokens: int | None = None
    uptime_last_30m: float | None = None  # percent 0..100, as the gateway lists it

    def supports(self, parameter: str) -> bool:
        return parameter in self.supported_parameters


@dataclass(frozen=True, slots=True)
class GatewayError:
    """A request that did not produce a judgeable reply, already classified (design.md §4 table)."""

    outcome: Outcome  # transport | unavailable | config
    reason: Reason
    status: int | None = None  # HTTP status, None for network errors
    detail: str = ""  # human text for logs; never a label


@dataclass(frozen=True, slots=True)
class ChatRequest:
    """One chat completion; ``pin`` is the endpoint tag to pin to (None for direct hosts)."""

    model: str
    messages: tuple[dict[str, str], ...]
    max_tokens: int
    pin: str | None = None
    stream: bool = False
    temperature: float | None = 0.0
    response_format: dict[str, JsonValue] | None = None
    # Streamed requests only: give up waiting for the first visible token after this many seconds
    # (measured from sending the request); the result then has first_token_timed_out=True.
    first_token_deadline: float | None = None
    count_reasoning_as_first_token: bool = False
    # Whether a delta of only whitespace / zero-width characters is the first token (default: no).
    count_whitespace_as_first_token: bool = False
    # Pinned OpenRouter requests only: route only to an endpoint that supports every parameter sent. False
    # for a capability the configuration requires although the endpoint does not advertise it: the probe
    # must reach the host and be judged, not be filtered out as "no allowed providers".
    require_parameters: bool = True
    # Reasoning controls, sent only when set: OpenRouter's ``reasoning`` object ({effort|max_tokens, exclude})
    # or the OpenAI-style top-level ``reasoning_effort``.
    reasoning: dict[str, JsonValue] | None = None
    reasoning_effort: str | None = None
    # Ask for the next-token alternatives at each position: ``logprobs: true, top_logprobs: N`` (N <= 20).
    top_logprobs: int | None = None


@dataclass(frozen=True, slots=True)
class TokenLogprob:
    """One generated position of ``choices[0].logprobs.content``: the token, its log-probability (natural
    log) and the alternatives the host listed there, most likely first (``top_logprobs``)."""

    token: str
    logprob: float
    top: tuple[tuple[str, float], ...] = ()


@dataclass(frozen=True, slots=True)
class ChatResult:
    """What came back. Either ``error`` is set (no judgeable reply) or the reply fields are."""

    error: GatewayError | None = None
    status: int | None = None
    content: str = ""
    reasoning: str = ""
    refusal: str | None = None  # message.refusal / delta.refusal when the host sets it
    finish_reason: str | None = None  # first non-null finish_reason seen
    served_by: str | None = None  # the response's "provider" (display name)
    # From the router metadata, when the gateway sent it: the serving endpoint's tag and the attempt count.
    served_endpoint: str | None = None
    attempts: int | None = None
    generation_id: str | None = None
    usage: Usage = field(default_factory=Usage)
    ttft_seconds: float | None = None  # streamed only: send -> first visible content delta
    first_token_timed_out: bool = False  # streamed only: open stream, nothing visible by the deadline
    elapsed_seconds: float = 0.0
    # The client's clock when the request headers went out: the origin of ttft_seconds and elapsed_seconds
    # (on the default clock, CLOCK_MONOTONIC, comparable with other processes' stamps on the same host).
    sent_at: float | None = None
    # ``choices[0].logprobs.content`` when asked for (``ChatRequest.top_logprobs``), bounded (chunks.py).
    logprobs: tuple[TokenLogprob, ...] = ()


@dataclass(frozen=True, slots=True)
class ProviderAttempt:
    """One provider the gateway tried for a generation (fallbacks included), from ``provider_responses``."""

    provider_name: str
    status: int | None = None
    endpoint_id: str | None = None


@dataclass(frozen=True, slots=True)
class Generation:
    """The gateway's record of one generation (``GET /api/v1/generation?id=``): who served it, and how."""

    id: str
    model: str
    provider_name: str  # display name of the provider that served it (several tags may share one)
    created_at: float | None = None  # unix seconds
    finish_reason: str | None = None
    tokens_prompt: int = 0
    tokens_completion: int = 0
    total_cost_usd: float = 0.0
    attempts: tuple[ProviderAttempt, ...] = ()
