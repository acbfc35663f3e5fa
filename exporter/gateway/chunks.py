"""A pure accumulator of chat-completion chunks (streamed ``delta``s or one non-streamed ``message``).

It keeps what a probe needs from an OpenAI/OpenRouter completion and nothing else:

- ``content``, ``reasoning`` and ``refusal`` text, joined once at the end (no quadratic concatenation);
- the FIRST non-null ``finish_reason``: OpenRouter may send the usage chunk
  after the finish chunk with ``finish_reason: null`` (reference §3.3), so "the last chunk's" is wrong;
- ``usage`` wherever it arrives (a chunk with empty ``choices``, a choice with a null finish, or the finish
  chunk itself), including ``cost`` in USD;
- the serving ``provider`` (display name) and the generation ``id``;
- the first error object, from a top-level ``error`` (mid-stream error chunk, ``code`` int or string) or a
  choice-level ``error`` (the non-streamed ``finish_reason: "error"`` shape);
- ``logprobs.content`` (when asked for): each position's token, log-probability and listed alternatives,
  bounded (``MAX_LOGPROB_POSITIONS`` positions, ``MAX_TOP_LOGPROBS`` alternatives, ``MAX_TOKEN_CHARS``
  characters a token); entries of the wrong shape are skipped;
- the moment of the **first visible token**: ``feed`` returns True for exactly one chunk, the first whose
  ``delta.content`` has a visible character (or ``delta.reasoning``, when ``count_reasoning_as_first_token``).
  Whitespace and zero-width characters alone (``" "``, ``"\\n"``, U+200B) do not count unless
  ``count_whitespace_as_first_token``: a host that flushes a newline early has not started answering.
  Role-only chunks, ``content: ""`` and refusal deltas never count; SSE comments never reach this class.

Only choice index 0 is read (probes ask for one choice). Values of the wrong type are ignored, never
raised on: a hostile or broken host cannot crash the accumulator.

Example::

    acc = ChunkAccumulator()
    acc.feed({"id": "gen-1", "provider": "DeepInfra",
              "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}]})   # False
    acc.feed({"choices": [{"index": 0, "delta": {"content": "Hi"}}]})                       # True
    acc.feed({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})             # False
    acc.feed({"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 1, "cost": 1e-6}})
    acc.content, acc.finish_reason, acc.usage.completion_tokens     # ('Hi', 'stop', 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from exporter.gateway.types import TokenLogprob
from exporter.outcomes import Usage

__all__ = ["ChunkAccumulator", "finite_number", "first_text", "parse_logprobs", "parse_usage", "whole_number"]

MAX_LOGPROB_POSITIONS = 64  # generated positions kept (the equality test reads the first)
MAX_TOP_LOGPROBS = 20  # alternatives kept per position (the most OpenAI-style APIs list)
MAX_TOKEN_CHARS = 64  # a token string longer than this is cut (tokens are a few characters)


def parse_usage(usage: object) -> Usage | None:
    """Read an OpenAI/OpenRouter ``usage`` object into ``Usage``; None when it is absent or not an object.

    Example: ``parse_usage({"prompt_tokens": 9, "completion_tokens": 10, "cost": 7.35e-06})``
    → ``Usage(prompt_tokens=9, completion_tokens=10, cost_usd=7.35e-06)``.
    """
    if not isinstance(usage, Mapping):
        return None
    return Usage(
        prompt_tokens=_non_negative_int(usage.get("prompt_tokens")),
        completion_tokens=_non_negative_int(usage.get("completion_tokens")),
        cost_usd=max(finite_number(usage.get("cost")) or 0.0, 0.0),
    )


def parse_logprobs(logprobs: object, room: int = MAX_LOGPROB_POSITIONS) -> list[TokenLogprob]:
    """The positions of an OpenAI-style ``logprobs`` object (``{"content": [{token, logprob,
    top_logprobs: [{token, logprob}]}]}``), at most ``room``; an entry without a string token and a finite
    logprob is skipped, and so is such an alternative.

    >>> parse_logprobs({"content": [{"token": "Hi", "logprob": -0.1,
    ...     "top_logprobs": [{"token": "Hi", "logprob": -0.1}, {"token": "Hey", "logprob": "x"}]}]})
    [TokenLogprob(token='Hi', logprob=-0.1, top=(('Hi', -0.1),))]
    """
    content = logprobs.get("content") if isinstance(logprobs, Mapping) else None
    if not isinstance(content, list):
        return []
    positions = []
    for entry in content[: max(room, 0)]:
        read = _token_logprob(entry)
        if read is None:
            continue
        top = entry.get("top_logprobs")
        alternatives = [_token_logprob(t) for t in top[:MAX_TOP_LOGPROBS]] if isinstance(top, list) else []
        positions.append(TokenLogprob(*read, tuple(a for a in alternatives if a is not None)))
    return positions


def _token_logprob(entry: object) -> tuple[str, float] | None:
    if not isinstance(entry, Mapping):
        return None
    token, logprob = entry.get("token"), entry.get("logprob")
    if not isinstance(token, str) or isinstance(logprob, bool) or not isinstance(logprob, int | float):
        return None
    logprob = float(logprob)
    return (token[:MAX_TOKEN_CHARS], logprob) if math.isfinite(logprob) and logprob <= 0 else None


def _non_negative_int(value: object) -> int:
    if isinstance(value, bool):
        return 0
    if isinstance(value, int):
        return max(value, 0)
    if isinstance(value, float) and math.isfinite(value) and value >= 0:
        return int(value)
    return 0


def finite_number(value: object) -> float | None:
    """A finite number from a number, a decimal string, or a percentile object (its p50)."""
    if isinstance(value, Mapping):
        value = value.get("p50")
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return None
    try:
        number = float(value)
    except (ValueError, OverflowError):  # "abc", or an integer beyond float range
        return None
    return number if math.isfinite(number) else None


def whole_number(value: object) -> int | None:
    """``finite_number`` when it is a whole number (``429``, ``"429"``, ``429.0``), else None."""
    number = finite_number(value)
    return int(number) if number is not None and number.is_integer() else None


class ChunkAccumulator:
    """Feed every decoded chunk (or the one non-streamed body) in order; read the fields at the end."""

    def __init__(
        self, *, count_reasoning_as_first_token: bool = False, count_whitespace_as_first_token: bool = False
    ) -> None:
        self._count_reasoning = count_reasoning_as_first_token
        self._count_whitespace = count_whitespace_as_first_token
        self._content: list[str] = []
        self._reasoning: list[str] = []
        self._refusal: list[str] = []
        self.finish_reason: str | None = None
        self.usage: Usage | None = None
        self.provider: str | None = None
        self.route: RouteProof | None = None  # from openrouter_metadata, when the gateway sent it
        self.generation_id: str | None = None
        self.error: Mapping[str, object] | None = None
        self.saw_visible_token = False
        self.done = False  # ``data: [DONE]`` was seen (the SSE reader sets it; it is not a chunk)
        self.logprobs: list[TokenLogprob] = []
        self.chunks = 0

    @property
    def content(self) -> str:
        return "".join(self._content)

    @property
    def reasoning(self) -> str:
        return "".join(self._reasoning)

    @property
    def refusal(self) -> str | None:
        return "".join(self._refusal) if self._refusal else None

    @property
    def finished(self) -> bool:
        """The stream reached a proper end: a finish reason, ``[DONE]``, or an error chunk."""
        return self.finish_reason is not None or self.done or self.error is not None

    def feed(self, obj: Mapping[str, object]) -> bool:
        """Take one chunk; return True iff it carried the first visible token of the stream."""
        self.chunks += 1
        self.generation_id = first_text(self.generation_id, obj.get("id"))
        self.provider = first_text(self.provider, obj.get("provider"))
        if self.route is None:
            self.route = route_proof(obj.get("openrouter_metadata"))
        usage = parse_usage(obj.get("usage"))
        if usage is not None:
            self.usage = usage
        if self.error is None:
            error = obj.get("error")
            if isinstance(error, Mapping):
                self.error = error
            elif isinstance(error, str) and error:
                self.error = {"message": error}
        choices = obj.get("choices")
        if not isinstance(choices, list) or not choices:
            return False
        choice = _first_choice(choices)
        if choice is None:
            return False
        first_visible = False
        part = choice.get("delta")
        if not isinstance(part, Mapping):
            part = choice.get("message")
        if isinstance(part, Mapping):
            content = part.get("content")
            if isinstance(content, str) and content:
                self._content.append(content)
                first_visible = self._count_whitespace or _visible(content)
            reasoning = part.get("reasoning")
            if isinstance(reasoning, str) and reasoning:
                self._reasoning.append(reasoning)
                first_visible = first_visible or (
                    self._count_reasoning and (self._count_whitespace or _visible(reasoning))
                )
            refusal = part.get("refusal")
            if isinstance(refusal, str) and refusal:
                self._refusal.append(refusal)
        room = MAX_LOGPROB_POSITIONS - len(self.logprobs)
        if room > 0:
            self.logprobs += parse_logprobs(choice.get("logprobs"), room)
        # The first non-null finish reason wins: the usage chunk may follow with finish_reason null.
        self.finish_reason = first_text(self.finish_reason, choice.get("finish_reason"))
        if self.error is None:
            error = choice.get("error")
            if isinstance(error, Mapping):
                self.error = error
        if first_visible and not self.saw_visible_token:
            self.saw_visible_token = True
            return True
        return False


# Characters that show nothing: whitespace (str.isspace) plus the zero-width format characters and BOM.
_INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff"


def _visible(text: str) -> bool:
    """Whether ``text`` shows anything: one character that is neither whitespace nor zero-width."""
    return any(not c.isspace() and c not in _INVISIBLE for c in text)


@dataclass(frozen=True, slots=True)
class RouteProof:
    """What the gateway's router metadata says about who served: stronger than a display name, which
    several endpoints share (``deepinfra/fp8`` and ``deepinfra/turbo`` are both "DeepInfra")."""

    endpoint: str | None = None  # the selected endpoint's tag, when the metadata names it
    attempts: int | None = None  # how many endpoints were tried (more than 1: a fallback happened)


def route_proof(metadata: object) -> RouteProof | None:
    """Read ``openrouter_metadata`` (experimental and unstable: every field is optional here).

    >>> route_proof({"attempt": 2, "endpoints": {"available": [{"tag": "a/b", "selected": True}]}})
    RouteProof(endpoint='a/b', attempts=2)
    """
    if not isinstance(metadata, Mapping):
        return None
    attempt = metadata.get("attempt")
    count = attempt if isinstance(attempt, int) and not isinstance(attempt, bool) else None
    endpoint = None
    endpoints = metadata.get("endpoints")
    available = endpoints.get("available") if isinstance(endpoints, Mapping) else None
    if isinstance(available, list):
        for item in available:
            if isinstance(item, Mapping) and item.get("selected") is True:
                tag = item.get("tag") or item.get("endpoint") or item.get("slug")
                endpoint = tag if isinstance(tag, str) and tag else None
                break
    return RouteProof(endpoint, count)


def _first_choice(choices: list[object]) -> Mapping[str, object] | None:
    for choice in choices:
        if isinstance(choice, Mapping) and choice.get("index", 0) == 0:
            return choice
    return None


def first_text(*values: object) -> str | None:
    """The first of ``values`` that is a non-empty string, else None (``first_text(kept, new)`` keeps
    ``kept`` once set)."""
    return next((value for value in values if isinstance(value, str) and value), None)
