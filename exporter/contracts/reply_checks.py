"""Checks every free-text probe reply gets, whatever its contract: refusal, truncation, repetition (pure).

The refusal and language contracts ask for a story; a host that refuses it (in any of the 17 locales,
hard or soft), cuts it short mid-sentence, or loops, has not delivered it, whatever else the reply is.
``screen`` returns the first finding as a ``fail`` ``Verdict`` (reason, evidence, detail) or None; the
contract turns it into its result. ``screen_reply`` screens a gateway reply: its finish reason, the
request's ``max_tokens`` and the host's token count let the truncation check see a ``length`` finish far
below the budget. ``refusal_reason`` is the reason a refusal gets: the refusal contract
keeps its ``refusal_pattern`` label, every other contract reports ``refusal``.

Example::

    >>> screen("Lo siento, pero no puedo continuar con esta escena.", "stop").reason
    <Reason.REFUSAL: 'refusal'>
    >>> screen("the " * 200, "length").reason
    <Reason.REPETITION: 'repetition'>
"""

from __future__ import annotations

from exporter.contracts.refusal_patterns import find_refusal
from exporter.gateway.types import ChatResult
from exporter.language.judge import Verdict
from exporter.language.repetition import find_repetition
from exporter.language.truncation import find_truncation
from exporter.outcomes import Outcome, Reason


def screen(
    text: str,
    finish_reason: str | None,
    refusal_reason: Reason = Reason.REFUSAL,
    truncation: bool = True,
    max_tokens: int | None = None,
    completion_tokens: int | None = None,
    curt: bool = True,
) -> Verdict | None:
    """The first of refusal, truncation (when ``truncation``) and repetition found in a reply, or None.
    ``curt``: a whole reply that is a curt decline ("No.") is a refusal (``find_refusal``): true of a
    probe, which asks for writing; the router's real requests may ask a yes-or-no question."""
    if (phrase := find_refusal(text, curt)) is not None:
        return Verdict(
            Outcome.FAIL, refusal_reason, {"phrase": phrase[:120]}, "refusal phrase near the start"
        )
    cut = find_truncation(text, finish_reason, max_tokens, completion_tokens) if truncation else None
    if cut is not None:
        return Verdict(Outcome.FAIL, Reason.TRUNCATION, {"truncation": cut.as_evidence()}, cut.describe())
    if (loop := find_repetition(text)) is not None:
        return Verdict(Outcome.FAIL, Reason.REPETITION, {"repetition": loop.as_evidence()}, loop.describe())
    return None


def screen_reply(
    result: ChatResult,
    max_tokens: int | None,
    refusal_reason: Reason = Reason.REFUSAL,
    truncation: bool = True,
) -> Verdict | None:
    """``screen`` for a gateway reply asked with ``max_tokens`` (None: unknown). Hidden reasoning spends
    the budget too: with reasoning text and no token count, a ``length`` finish is not judged by size."""
    spent = result.usage.completion_tokens or None
    budget = None if spent is None and result.reasoning else max_tokens
    return screen(result.content, result.finish_reason, refusal_reason, truncation, budget, spent)
