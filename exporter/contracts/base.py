"""What every contract shares: the probe target and context, the contract interface, reply gating.

A contract is one module with one ``Contract`` subclass, registered by name in
``exporter/contracts/__init__.py``. The engine knows no contract by name; it calls, per round:

1. ``weak_controls()`` once per contract: offline known-bad samples run through the contract's judge; any
   that is *not* judged ``fail`` makes the contract weak for the round (its passes are not evidence);
2. ``live_control(target)`` per provider: whether the host is one of this contract's live positive controls
   (e.g. a known-filtering host for the refusal contract). A host that is a live control of any contract is
   probed only by those contracts, and a control whose probe does not ``fail`` makes its contract weak;
3. ``skip_reason(target)`` per provider: a reason to report ``skipped`` without sending anything;
4. ``probe(ctx)`` per provider (sequential per provider, parallel across providers).

``sample(ctx)`` is the unit underneath: ONE pinned request judged ONCE, with no confirmations and no memory
written. ``probe`` is built from it (by default it *is* one sample; the language contract adds confirmation
samples). ``canary investigate`` repeats ``sample`` N times per host.

A contract never touches metrics or global state; it returns a ``ProbeResult`` value, and what it exports
and records is in that value: ``ttft_seconds`` feeds the TTFT histogram, ``locale`` the per-locale counter,
``evidence``/``excerpt``/``attempts`` the evidence history.
"""

from __future__ import annotations

import logging
import zlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import ClassVar, Protocol, TypedDict, Unpack

from pydantic import JsonValue

from exporter.configkit import Bool, ConfigModel, invalid, invalid_all, key
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint
from exporter.language.locales import DEFAULT_LOCALES, canonical_locale
from exporter.outcomes import Outcome, Reason, Usage
from exporter.textkit import bounded_excerpt

log = logging.getLogger("exporter.contracts")

# Reasoning hosts (an endpoint listing ``reasoning``, ``reasoning_effort`` or ``include_reasoning``): ask for
# little thinking and add room for it on top of the answer's budget, so the answer fits and a probe gives
# evidence; ``budget_exhausted`` stays rare. OpenRouter's ``reasoning`` object takes ``effort`` or
# ``max_tokens`` (one of them) and ``exclude``; reasoning tokens count against ``max_tokens`` (OpenRouter
# "Reasoning Tokens" guide, docs/use-cases/reasoning-tokens; shared/reference/openrouter.md §3.1, §4.5).
REASONING_EFFORT = "low"
REASONING_HEADROOM_TOKENS = 512


class RequestOptions(TypedDict, total=False):
    """What a contract may ask of a request beyond its messages and budget (``ChatRequest``'s fields)."""

    stream: bool
    temperature: float | None
    response_format: dict[str, JsonValue] | None
    first_token_deadline: float | None
    count_reasoning_as_first_token: bool
    count_whitespace_as_first_token: bool
    require_parameters: bool
    reasoning: dict[str, JsonValue] | None
    reasoning_effort: str | None
    top_logprobs: int | None


@dataclass(frozen=True, slots=True)
class ProbeResult:
    """The judged result of one contract for one provider in one round: the verdict and the reply it judged.

    ``detail`` is for humans and logs (never a label). ``evidence`` carries structured facts from the judge
    (e.g. which sentences were in which language) for the JSON output and the evidence history. ``excerpt``
    is the reply's start and offending span (at most 1 KiB of UTF-8). ``ttft_seconds`` is the observation a
    contract exports to ``canary_probe_ttft_seconds`` (only streamed contracts set it). ``reply`` is what the
    gateway answered (empty when nothing was sent). ``attempts`` lists the single attempts when a probe made
    several (a fail and its confirmations, in the order sent); empty when this result *is* the one attempt.
    """

    outcome: Outcome
    reason: Reason = Reason.NONE
    detail: str = ""
    ttft_seconds: float | None = None
    locale: str | None = None
    evidence: dict[str, object] = field(default_factory=dict)
    excerpt: str = ""
    reply: ChatResult = field(default_factory=ChatResult)
    attempts: tuple[ProbeResult, ...] = ()

    @property
    def usage(self) -> Usage:
        """What the probe cost: its reply's usage, or its attempts' summed."""
        return sum((a.usage for a in self.attempts), Usage()) if self.attempts else self.reply.usage


class ChatGateway(Protocol):
    """The part of the gateway client a contract uses."""

    async def chat(self, request: ChatRequest) -> ChatResult: ...


@dataclass(frozen=True, slots=True)
class ProbeTarget:
    """One route to probe: a model on one endpoint; ``pinned`` is False for direct OpenAI-compatible hosts."""

    model: str
    endpoint: Endpoint
    pinned: bool = True
    known_filtering: bool = False  # a positive-control host for the refusal contract
    required_capabilities: frozenset[str] = frozenset()  # probe even if the endpoint does not advertise these
    api_model: str | None = None  # the model id to send, when the host names it differently (direct hosts)

    @property
    def provider(self) -> str:
        return self.endpoint.tag


@dataclass(slots=True)
class ProbeContext:
    """Everything one probe may use. ``memory`` persists per (model, provider, contract) across rounds.

    ``locale``, when set, asks a locale-rotating contract for that locale instead of its own choice
    (``canary investigate --locale``; the language contract's confirmations).
    """

    target: ProbeTarget
    gateway: ChatGateway
    round_number: int
    memory: dict[str, object] = field(default_factory=dict)
    locale: str | None = None

    @property
    def turn(self) -> int:
        """The round number offset per host: a contract rotating through a list takes item ``turn % len``,
        so hosts do not all get the same item in one round."""
        return self.round_number + zlib.crc32(f"{self.target.model}\0{self.target.provider}".encode())

    def request(
        self, messages: Sequence[dict[str, str]], max_tokens: int, **kwargs: Unpack[RequestOptions]
    ) -> ChatRequest:
        """A chat request for this target, pinned when the target is pinned.

        It asks only for what the endpoint supports: ``max_tokens`` is capped at the endpoint's
        ``max_completion_tokens`` and ``temperature`` is left out where the endpoint does not list it (with
        ``require_parameters`` the gateway would otherwise filter the pinned endpoint out: no evidence).
        A reasoning endpoint gets the reasoning control it lists (``reasoning: {effort: low}``, else
        ``reasoning_effort: low``) and ``REASONING_HEADROOM_TOKENS`` more, so ``max_tokens`` stays the
        answer's budget.
        """
        endpoint = self.target.endpoint
        if endpoint.supports("reasoning"):
            kwargs.setdefault("reasoning", {"effort": REASONING_EFFORT, "exclude": False})
        elif endpoint.supports("reasoning_effort"):
            kwargs.setdefault("reasoning_effort", REASONING_EFFORT)
        if any(endpoint.supports(p) for p in ("reasoning", "reasoning_effort", "include_reasoning")):
            max_tokens += REASONING_HEADROOM_TOKENS
        if endpoint.max_completion_tokens:
            max_tokens = min(max_tokens, endpoint.max_completion_tokens)
        if endpoint.supported_parameters and not endpoint.supports("temperature"):
            kwargs["temperature"] = None
        return ChatRequest(
            model=self.target.api_model or self.target.model,
            messages=tuple(messages),
            max_tokens=max_tokens,
            pin=self.target.provider if self.target.pinned else None,
            **kwargs,
        )


def locale_codes(codes: tuple[str, ...], *, once: bool = False) -> tuple[str, ...]:
    """``codes`` (a ``locales`` key) in canonical form, each once; an unknown code is a problem, and so is a
    repeated one when ``once``."""
    problems, seen = [], list[str]()
    for code in codes:
        known = canonical_locale(code)
        if known is None:
            problems.append(((), f"unknown locale {code!r} (known: {', '.join(DEFAULT_LOCALES)})"))
        elif known in seen and once:
            problems.append(((), f"locale {known!r} is listed twice"))
        elif known not in seen:
            seen.append(known)
    if problems:
        raise invalid_all(problems)
    if once and not codes:
        raise invalid("expected at least one locale")
    return tuple(seen)


class ContractSettings(ConfigModel):
    """A contract's ``contracts.<name>`` section: the keys every contract has plus its own (a subclass)."""

    enabled: Bool = key(True, "whether the contract runs")

    def build(self) -> Contract:
        """The contract these settings configure."""
        raise NotImplementedError


class Contract(ABC):
    """One narrow, machine-judged check (design.md §5). Subclasses set ``name`` and ``Settings`` (the model of
    their configuration section, whose ``build()`` makes the contract); a contract holds its settings object,
    the one definition of its keys and defaults."""

    name: ClassVar[str]
    Settings: ClassVar[type[ContractSettings]]

    def skip_reason(self, target: ProbeTarget) -> Reason | None:
        """A reason to skip this target without a request (e.g. capability not advertised)."""
        return None

    def weak_controls(self) -> list[str]:
        """Names of offline known-bad samples the judge failed to reject (empty: the contract is sound)."""
        return []

    def prepare(self) -> None:
        """Load now what judging reads (models, lexicons, tables). A long-running service calls it at
        start-up, before it freezes its start-up heap (``tune_gc_for_latency``): the first round then pays
        no loading, and later full collections never walk what was loaded. Default: nothing to load."""
        return None

    def live_control(self, target: ProbeTarget) -> bool:
        """Whether ``target`` is a live positive control of this contract: probed with the same request each
        round, it must be judged ``fail``; anything else that is evidence makes the contract weak."""
        return False

    @classmethod
    def healthy_reply(cls, request: Mapping[str, object]) -> str | None:
        """How a healthy host answers ``request`` (a chat completion body) when it is this contract's probe,
        for the simulator behind the demo, the end-to-end tests and the benchmarks; None when it is not this
        contract's probe, or when any fluent reply in the prompt's language (what the simulator writes by
        itself, or a JSON object for a schema) is a healthy answer. A contract that asks for something more
        particular declares it here, so it works on the simulator without the simulator being told."""
        return None

    @abstractmethod
    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        """Send ONE request and judge the reply ONCE (no confirmations, no memory written)."""

    async def probe(self, ctx: ProbeContext) -> ProbeResult:
        """The round's probe of one host: one sample unless the contract confirms (then ``attempts``)."""
        return await self.sample(ctx)


def unjudgeable(result: ChatResult, target: ProbeTarget) -> ProbeResult | None:
    """The outcome of a reply that cannot be judged (gateway error, wrong provider), or None if judgeable.

    A pinned reply served by another provider is ``pin_violation``: no evidence, logged. A failed request is
    not credited to the provider that named itself before failing (its reply's ``served_by`` is cleared).
    """
    if (error := result.error) is not None:
        log.info(
            "probe request failed model=%s provider=%s outcome=%s reason=%s status=%s detail=%s",
            target.model,
            target.provider,
            error.outcome,
            error.reason,
            error.status,
            error.detail[:200],
        )
        return ProbeResult(error.outcome, error.reason, error.detail, reply=replace(result, served_by=None))
    violation = pin_violation(target, result) if target.pinned else None
    if violation is not None:
        log.warning(
            "pin violation model=%s provider=%s expected=%s served_by=%s",
            target.model,
            target.provider,
            target.endpoint.provider_name,
            violation,
        )
        return judged(Outcome.PIN_VIOLATION, Reason.WRONG_PROVIDER, f"served by {violation}", result)
    return None


def pin_violation(target: ProbeTarget, result: ChatResult) -> str | None:
    """Who else served a pinned probe, from the strongest signal there is; None when the pin held.

    The router metadata's serving endpoint tag decides when present (it tells ``deepinfra/fp8`` from
    ``deepinfra/turbo``); more than one attempt is a fallback whoever answered; only then the response's
    display name, which several endpoints of one provider share.
    """
    if result.served_endpoint is not None:
        return None if result.served_endpoint == target.provider else result.served_endpoint
    if result.attempts is not None and result.attempts > 1:
        return f"{result.served_by or 'another endpoint'} after {result.attempts} attempts"
    if (
        result.served_by is not None
        and target.endpoint.provider_name  # a listing without a display name cannot be checked against
        and result.served_by.casefold() != target.endpoint.provider_name.casefold()
    ):
        return result.served_by
    return None


def judged(
    outcome: Outcome,
    reason: Reason,
    detail: str,
    result: ChatResult,
    *,
    span: tuple[int, int] | None = None,
    ttft_seconds: float | None = None,
    locale: str | None = None,
    evidence: dict[str, object] | None = None,
) -> ProbeResult:
    """A ``ProbeResult`` for a judged reply (or one kept unjudged, a pin violation): the chat result itself
    and a bounded excerpt of it (the reply's start, plus ``span``, the offending characters, when the judge
    knows them)."""
    excerpt = bounded_excerpt(result.content or result.refusal or "", span)
    return ProbeResult(outcome, reason, detail, ttft_seconds, locale, evidence or {}, excerpt, result)


def not_rejected(controls: Mapping[str, ChatResult], judge: Callable[[ChatResult], ProbeResult]) -> list[str]:
    """The names of known-bad replies that ``judge`` did not fail (non-empty: the contract is weak)."""
    return [name for name, reply in controls.items() if judge(reply).outcome is not Outcome.FAIL]


def spent_on_reasoning(result: ChatResult) -> ProbeResult | None:
    """``inconclusive`` when a reasoning model used the whole token budget before any answer (our budget,
    not the host's fault); None otherwise."""
    if not result.content.strip() and result.finish_reason == "length" and result.reasoning:
        return judged(
            Outcome.INCONCLUSIVE, Reason.BUDGET_EXHAUSTED, "the reasoning used the whole token budget", result
        )
    return None
