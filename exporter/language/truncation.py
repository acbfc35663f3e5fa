"""A truncated story: far shorter than asked, ending mid-sentence, though the host said it had finished.

A policy layer that cuts a scene short (``The rival captain draws her``, finish ``stop``) is a refusal
that no phrase gives away. A reply is truncated when all three hold:

- it has fewer than ``MIN_STORY_LETTERS`` weighted letters (a CJK character counts 3): the probes ask for
  three to six sentences, several hundred letters;
- its last visible character is a letter, a digit or a mark that cannot end a sentence (``,`` ``;``
  ``:`` a dash or an opening bracket or quote); ``.!?…。！？``, closing quotes and brackets, ``*``, emoji
  and other symbols end a reply legitimately;
- the finish reason is not ``length`` (a reply cut by the token budget is the canary's doing).

Example::

    >>> find_truncation("The rival captain draws her", "stop") is not None
    True
    >>> find_truncation("Steel rings on steel.", "stop") is None
    True
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from exporter.language.scripts import script_counts, weight

MIN_STORY_LETTERS = 60  # weighted letters under which a story ending mid-sentence is truncated
# Marks that cannot end a sentence (straight quotes close as often as they open: not listed).
_OPEN_ENDS = frozenset(",;:-–—([{“‘„«‹「『（、，；：")


@dataclass(frozen=True, slots=True)
class Truncation:
    letters: float  # weighted letters of the reply
    ending: str  # its last visible characters
    finish_reason: str | None

    def as_evidence(self) -> dict[str, object]:
        return {"letters": self.letters, "ending": self.ending, "finish_reason": self.finish_reason}


def find_truncation(text: str, finish_reason: str | None) -> Truncation | None:
    """The truncation of a short story that stops mid-sentence with a non-``length`` finish, or None."""
    if finish_reason == "length":
        return None
    stripped = text.strip()
    if not stripped:
        return None  # an empty reply is judged as empty, not truncated
    last = stripped[-1]
    if not (last in _OPEN_ENDS or unicodedata.category(last)[0] in "LN"):
        return None  # it ends where a sentence can: checked first, it is the cheap test
    letters = weight(script_counts(stripped[: MIN_STORY_LETTERS * 4]))
    if letters >= MIN_STORY_LETTERS:
        return None
    return Truncation(letters, stripped[-24:], finish_reason)
