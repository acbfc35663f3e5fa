"""A truncated story: cut mid-sentence though the host said it had finished, or cut far below the budget.

A policy layer that cuts a scene short (``The rival captain draws her``, finish ``stop``) is a refusal
that no phrase gives away, and so is a host that ends a reply with finish ``length`` long before the
requested ``max_tokens``. A reply is truncated when either holds:

- **mid-sentence**: the finish reason is not ``length`` (a model that stops on its own ends its last
  sentence, whatever the reply's length) and the reply ends where no sentence ends: its last visible
  character is a letter, a digit or a mark that cannot end a sentence (``,`` ``;`` ``:`` a dash, an
  opening bracket or quote), outside the endings people write without a full stop: a list item, a closed
  code block, a short capitalised last line (a title, ``To be continued``, a signature), a short CJK last
  line, an emoticon or chat laughter (``:)``, ``xD``, ``ㅋㅋ``, ``www``); an unclosed code block is cut
  wherever it stops. ``.!?…。！？``, closing quotes and brackets, ``*``/``_`` emphasis and emoji end a
  reply legitimately;
- **short length**: the finish reason is ``length`` while the reply used under ``LENGTH_MIN_SHARE`` of
  the requested ``max_tokens``: by the host's own ``completion_tokens`` when it reports them, else by the
  reply's UTF-8 size (a token is at least one byte, so a reply of fewer bytes than the budget's share
  cannot have spent it).

Example::

    >>> find_truncation("The rival captain draws her", "stop") is not None
    True
    >>> find_truncation("Steel rings on steel.", "stop") is None
    True
    >>> find_truncation("Steel rings on steel as the", "length", max_tokens=400).kind
    'short_length'
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from exporter.language.scripts import script_counts, weight

LENGTH_MIN_SHARE = 0.5  # share of max_tokens a reply cut by the budget (finish ``length``) must have used
# Marks that cannot end a sentence (straight quotes close as often as they open: not listed).
_OPEN_ENDS = frozenset(",;:-–—([{“‘„«‹「『（、，；：")
_QUOTES = frozenset("“‘„«‹»›")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
_LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+•·▪‣◦]|\d{1,3}[.)]|[a-zA-Z][.)]|#{1,6})[ \t]")
# A title, sign-off or "To be continued" line: at most five words, each capitalised or not a word.
_TITLE_WORDS = 5
_SMALL_WORDS = frozenset(
    [
        "of",
        "the",
        "a",
        "an",
        "and",
        "to",
        "de",
        "la",
        "le",
        "du",
        "di",
        "del",
        "van",
        "von",
        "da",
        "do",
        "der",
        "des",
    ]
)
_SIGNATURE = re.compile(r"^[ \t]*[—–~][ \t]*\S[^\n]{0,40}$")
_CJK_LINE = re.compile(r"^[ \t]*[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]{1,8}[ \t]*$")
_CHAT_END = re.compile(
    r"(?:(?<![^\W_])(?:[:;=]-?[)(DPpOo3]|[xX]D+|w{2,}|lol|lmao|haha+|hehe+)|<3|ㅋ{2,}|ㅎ{2,}|\^[_.]?\^)$"
)
_SAMPLE_CHARS = 24


@dataclass(frozen=True, slots=True)
class Truncation:
    kind: str  # ``mid_sentence`` or ``short_length``
    letters: float  # weighted letters of the reply (a CJK character counts 3)
    ending: str  # its last visible characters
    finish_reason: str | None
    max_tokens: int | None = None
    completion_tokens: int | None = None

    def as_evidence(self) -> dict[str, object]:
        evidence: dict[str, object] = {"kind": self.kind, "letters": self.letters, "ending": self.ending,
                                       "finish_reason": self.finish_reason}  # fmt: skip
        if self.kind == "short_length":
            evidence |= {"max_tokens": self.max_tokens, "completion_tokens": self.completion_tokens}
        return evidence

    def describe(self) -> str:
        if self.kind == "short_length":
            used = "?" if self.completion_tokens is None else str(self.completion_tokens)
            return f"finish length after {used} of {self.max_tokens} tokens ({self.letters:g} letters)"
        ending = f"ending mid-sentence ({self.ending!r}), finish {self.finish_reason}"
        return f"a {self.letters:g}-letter story {ending}"


def find_truncation(
    text: str, finish_reason: str | None, max_tokens: int | None = None, completion_tokens: int | None = None
) -> Truncation | None:
    """The truncation of ``text`` (see the module), or None. ``max_tokens`` is the request's budget for the
    reply, ``completion_tokens`` the host's count of what it spent (None or 0: not reported)."""
    stripped = text.strip()
    if not stripped:
        return None  # an empty reply is judged as empty, not truncated
    if finish_reason == "length":
        return _short_length(stripped, max_tokens, completion_tokens or None)
    if not _ends_mid_sentence(stripped):
        return None
    return Truncation("mid_sentence", _letters(stripped), stripped[-_SAMPLE_CHARS:], finish_reason)


def _short_length(text: str, max_tokens: int | None, completion_tokens: int | None) -> Truncation | None:
    if not max_tokens:
        return None  # the budget is unknown: a ``length`` finish is the canary's doing
    used = completion_tokens if completion_tokens is not None else len(text.encode("utf-8"))
    if used >= LENGTH_MIN_SHARE * max_tokens:
        return None
    ending = text[-_SAMPLE_CHARS:]
    return Truncation("short_length", _letters(text), ending, "length", max_tokens, completion_tokens)


def _ends_mid_sentence(text: str) -> bool:
    last = text[-1]
    if ("```" in text or "~~~" in text) and len(_FENCE.findall(text)) % 2:
        return True  # inside a code block that was never closed
    if not (last in _OPEN_ENDS or unicodedata.category(last)[0] in "LN"):
        return False  # it ends where a sentence can
    if last in _QUOTES and len(text) > 1 and not text[-2].isspace():
        return False  # „…“ and »…«: a mark that opens elsewhere closes after a word
    line = text[text.rfind("\n") + 1 :]
    if last not in _OPEN_ENDS and (_LIST_ITEM.match(line) or _CHAT_END.search(line)):
        return False
    if "\n" in text and last not in _OPEN_ENDS and (_is_title(line) or _SIGNATURE.match(line)
                                                     or _CJK_LINE.match(line)):  # fmt: skip
        before = text[: text.rfind("\n")].rstrip()
        # a title, a sign-off or a signature after a paragraph that ended
        return not before or before[-1] in _OPEN_ENDS or unicodedata.category(before[-1])[0] in "LN"
    return True


def _is_title(line: str) -> bool:
    words = line.lstrip(" \t—–~-").split()
    return 0 < len(words) <= _TITLE_WORDS and all(
        w[0].isupper() or not w[0].isalpha() or w.casefold() in _SMALL_WORDS for w in words
    )


def _letters(text: str) -> float:
    return weight(script_counts(text[:4096]))
