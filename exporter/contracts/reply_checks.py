"""Checks every free-text probe reply gets, whatever its contract: refusal, truncation, repetition (pure).

The refusal and language contracts ask for a story; a host that refuses it (in any of the 17 locales,
hard or soft), cuts it short mid-sentence, or loops, has not delivered it, whatever else the reply is.
``screen`` returns the first finding as a ``Finding`` (reason, detail, evidence) or None; the contract
turns it into its ``fail`` result. ``refusal_reason`` is the reason a refusal gets: the refusal contract
keeps its ``refusal_pattern`` label, every other contract reports ``refusal``.

Example::

    >>> screen("Lo siento, pero no puedo continuar con esta escena.", "stop").reason
    <Reason.REFUSAL: 'refusal'>
    >>> screen("the " * 200, "length").reason
    <Reason.REPETITION: 'repetition'>
"""

from __future__ import annotations

from dataclasses import dataclass, field

from exporter.contracts.refusal_patterns import find_refusal
from exporter.language.repetition import find_repetition
from exporter.language.truncation import find_truncation
from exporter.outcomes import Reason


@dataclass(frozen=True, slots=True)
class Finding:
    reason: Reason
    detail: str
    evidence: dict[str, object] = field(default_factory=dict)


def screen(
    text: str, finish_reason: str | None, refusal_reason: Reason = Reason.REFUSAL, truncation: bool = True
) -> Finding | None:
    """The first of refusal, truncation (when ``truncation``) and repetition found in a reply, or None."""
    if (phrase := find_refusal(text)) is not None:
        return Finding(refusal_reason, "refusal phrase near the start", {"phrase": phrase[:120]})
    if truncation and (cut := find_truncation(text, finish_reason)) is not None:
        detail = (
            f"a {cut.letters:g}-letter story ending mid-sentence ({cut.ending!r}), finish {finish_reason}"
        )
        return Finding(Reason.TRUNCATION, detail, {"truncation": cut.as_evidence()})
    if (loop := find_repetition(text)) is not None:
        return Finding(Reason.REPETITION, loop.describe(), {"repetition": loop.as_evidence()})
    return None
