"""A truncated story: cut mid-sentence though the host said it had finished, or cut far below the budget.

A policy layer that cuts a scene short (``The rival captain draws her``, finish ``stop``) is a refusal
that no phrase gives away, and so is a host that ends a reply with finish ``length`` long before the
requested ``max_tokens``. A reply is truncated when either holds:

- **mid-sentence**: the finish reason is not ``length`` (a model that stops on its own ends its last
  sentence, whatever the reply's length) and the reply ends where no sentence ends: its last visible
  character is a letter, a digit or a mark that cannot end a sentence (``,`` ``;`` ``:`` a dash, an
  opening bracket or quote), or an emphasis mark that opens (``and she was *``), outside the endings
  people write without a full stop: a heading, a list item whose list does not end its items with a
  mark, verse (the lines before the last are short and end without a mark too), a refrain (a last line
  of 8 letters or more the reply already wrote as a whole line: a chorus line), a closed code block, a
  link, hashtag or handle, a short last line after a finished paragraph that closes or names (a closing
  formula: ``To be continued``, ``Fin``, ``つづく``; a signature; a name, which no lexicon lists among
  its common words; anything after a letter's ``Best,`` or ``敬具``), an emoticon or chat laughter
  (``:)``, ``xD``, ``ㅋㅋ``, ``www``); a short last line of common words (``Click Memory``, ``他``) is a
  new sentence's first words, and an unclosed code block is cut wherever it stops. ``.!?…。！？``,
  closing quotes and brackets, closing ``*``/``_`` emphasis and emoji end a reply legitimately;
- **short length**: the finish reason is ``length`` while the reply used under ``LENGTH_MIN_SHARE`` of
  the requested ``max_tokens`` by the host's own ``completion_tokens``; without them, by an estimate of
  its tokens (``estimated_tokens``) that no common tokenizer exceeds twice over.

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

from exporter.language.lexicon import lexicon
from exporter.language.locales import LOCALES
from exporter.language.scripts import (
    CJK_LETTERS,
    HAN,
    HANGUL,
    KANA,
    LETTERS,
    Script,
    script_counts,
    script_of,
    weight,
)

LENGTH_MIN_SHARE = 0.5  # share of max_tokens a reply cut by the budget (finish ``length``) must have used
# Characters per token of an estimate of a reply's tokens (``estimated_tokens``): ASCII text, Cyrillic
# letters, CJK characters, anything else (accented letters, full-width marks, emoji).
ASCII_PER_TOKEN, CYRILLIC_PER_TOKEN, CJK_PER_TOKEN, OTHER_PER_TOKEN = 4.0, 3.0, 1.0, 4 / 3
# Marks that cannot end a sentence (straight quotes close as often as they open: not listed).
_OPEN_ENDS = frozenset(",;:-–—([{“‘„«‹「『（、，；：")
_QUOTES = frozenset("“‘„«‹»›")
_FENCE = re.compile(r"^[ \t]*(?:```|~~~)", re.MULTILINE)
LIST_ITEM = re.compile(r"^[ \t]*(?:[-*+•·▪‣◦]|\d{1,3}[.)]|[a-zA-Z][.)])[ \t]")
_HEADING = re.compile(r"^[ \t]*#{1,6}[ \t]")
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
# The last word a reference, not prose: a link, a hashtag or handle, an address.
_REFERENCE = re.compile(r"(?:^|\s)(?:https?://\S+|www\.\S+|[#@][^\W_][\w-]*|[\w.+-]+@[\w-]+\.[\w.]+)$")
_SENTENCE_ENDS = frozenset('.!?…。！？"”’»)」』*')
_STYLE_LINES = 6  # lines before the last that show whether the reply's lines end with a mark
_VERSE_MIN_LINES = 2  # ... at least this many short lines ending bare: verse
_VERSE_MAX_CHARS = 80  # a line of verse (or of a list of names) is shorter than this
_REFRAIN_MIN_LETTERS = 8  # a last line said before as a line of its own, this many letters or more: a refrain
_CLOSING_WORDS = 4  # a letter's closing line (``Best regards,``) has at most this many words
_SIGNATURE = re.compile(r"^[ \t]*[—–~][ \t]*\S[^\n]{0,40}$")
# Lines that close a story in the 17 locales' languages (letters only, casefolded): the end, to be
# continued.
CLOSINGS = frozenset(
    [
        "the end", "end", "fin", "finis", "to be continued", "continued", "fine", "continua", "fim",
        "continuará", "à suivre", "a suivre", "ende", "fortsetzung folgt", "einde", "wordt vervolgd",
        "koniec", "ciąg dalszy nastąpi", "конец", "продолжение следует", "кінець", "далі буде", "son",
        "devam edecek", "tamat", "bersambung", "hết", "còn tiếp", "kết thúc", "終わり", "おわり", "おしまい",
        "完", "終", "终", "つづく", "続く", "全文完", "未完待续", "未完待續", "待续", "待續", "剧终", "劇終",
        "끝", "계속", "완결", "fin del capítulo",
    ]
)  # fmt: skip
# The alphabets' languages among the 17 (each list holds English's commonest words too)
_LEXICON_SCRIPTS = frozenset({Script.LATIN, Script.CYRILLIC})
_LEXICONS = tuple(dict.fromkeys(s.language for s in LOCALES.values() if s.scripts <= _LEXICON_SCRIPTS))
_CJK_LINE = re.compile(rf"^[ \t]*[{CJK_LETTERS}・]{{1,8}}[ \t]*$")  # ・: a bullet, or between a name's words
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
    spent = estimated_tokens(text) if completion_tokens is None else completion_tokens
    if spent >= LENGTH_MIN_SHARE * max_tokens:
        return None
    ending = text[-_SAMPLE_CHARS:]
    return Truncation("short_length", _letters(text), ending, "length", max_tokens, completion_tokens)


def estimated_tokens(text: str) -> float:
    """About how many tokens a tokenizer spends on ``text``, for a host that reports no count: four ASCII
    characters a token, three Cyrillic letters, one CJK character, three quarters of a token for any other
    character. A byte-level BPE of 50,000 merges (Whisper's multilingual vocabulary, older and larger in
    its counts than the vocabularies serving stacks use now) spends 0.85-1.3 times that on the 17
    locales' prose and at most 1.8 times (Chinese punctuation): under ``LENGTH_MIN_SHARE`` of the budget
    by this estimate, a reply has not spent it by any of them."""
    ascii_chars = len(text.encode("ascii", "ignore"))
    counts = script_counts(text)
    cyrillic = counts.get(Script.CYRILLIC, 0)
    cjk = counts.get(HAN, 0) + counts.get(KANA, 0) + counts.get(HANGUL, 0)
    other = len(text) - ascii_chars - cyrillic - cjk
    return (ascii_chars / ASCII_PER_TOKEN + cyrillic / CYRILLIC_PER_TOKEN + cjk / CJK_PER_TOKEN
            + other / OTHER_PER_TOKEN)  # fmt: skip


def _ends_mid_sentence(text: str) -> bool:
    last = text[-1]
    if ("```" in text or "~~~" in text) and len(_FENCE.findall(text)) % 2:
        return True  # inside a code block that was never closed
    if last in "*_" and _emphasis_left_open(text):
        return True  # ``… and she was *``: an emphasis opened and never closed
    if not (last in _OPEN_ENDS or unicodedata.category(last)[0] in "LN"):
        return False  # it ends where a sentence can
    if last in _QUOTES and len(text) > 1 and not text[-2].isspace():
        return False  # „…“ and »…«: a mark that opens elsewhere closes after a word
    if last in _OPEN_ENDS:
        return True
    lines = text.splitlines()
    line = lines[-1]
    if _HEADING.match(line):
        return False
    if LIST_ITEM.match(line):
        return _earlier_lines_end(lines, items=True) == "marked"  # the list's own items end with a mark
    if _CHAT_END.search(line) or _REFERENCE.search(line):
        return False
    if _earlier_lines_end(lines, items=False) == "bare":
        return False  # verse: the lines before end without a mark too
    if _said_before(lines):
        return False  # a refrain: the reply already ended this line here, as a line of its own
    closing = "\n" in text and _folded(line) in CLOSINGS
    short = _is_title(line, text) or _SIGNATURE.match(line) or _CJK_LINE.match(line)
    if closing or ("\n" in text and short):
        before = text[: text.rfind("\n")].rstrip()
        above = before[before.rfind("\n") + 1 :]
        if (before.endswith(",") and len(above.split()) <= _CLOSING_WORDS) or _CJK_LINE.match(above):
            return False  # ``Best,`` / ``С уважением,`` / ``敬具`` and a name: a letter's closing
        if not before or before[-1] in _OPEN_ENDS or unicodedata.category(before[-1])[0] in "LN":
            return True  # the paragraph before did not end: the reply did not either
        # after a paragraph that ended: a signature, a closing formula or a name (a title) ends a reply;
        # the first words of a sentence (``Click Memory``, ``Già``, ``他``) do not
        return not (closing or _SIGNATURE.match(line) or _names(line))
    return True


def _folded(line: str) -> str:
    return " ".join(LETTERS.findall(line.casefold()))


def _names(line: str) -> bool:
    """``line`` (a short title-like line after a paragraph that ended) names someone or something: a word
    in it that no lexicon of the alphabets' locales lists among its common words (``Mara``, ``Kalenz
    Brightwood``), or a script no lexicon covers. A line of common words (``Click Memory``, ``Già``,
    ``Пока``) is a sentence's first words; so are one to eight CJK characters that are no closing formula
    (``他``, ``都市が``)."""
    words = _folded(line).split()
    if _CJK_LINE.match(line) or not words or words[-1] in _SMALL_WORDS:
        return False  # ``Browse the``: no title or name ends with an article or a preposition
    for word in words:
        if word in _SMALL_WORDS:
            continue
        if script_of(word[0]) not in _LEXICON_SCRIPTS:
            return True  # no lexicon for its script: nothing tells a word from a name
        if not any(lexicon(code).is_common(word) for code in _LEXICONS):
            return True
    return False


def _earlier_lines_end(lines: list[str], items: bool) -> str | None:
    """How the lines before the last end, when they set the reply's style: ``bare`` (a letter or a digit:
    verse, a list of names) or ``marked`` (a sentence's end), whichever most of them do; None when too
    few qualify. With ``items``, the list items among the last ``_STYLE_LINES`` lines; otherwise the other
    lines among them, when all are short (a paragraph of prose is one long line)."""
    before = [line.strip() for line in lines[-_STYLE_LINES - 1 : -1] if line.strip()]
    before = [line for line in before if bool(LIST_ITEM.match(line)) == items]
    if not items and (len(before) < _VERSE_MIN_LINES or any(len(line) > _VERSE_MAX_CHARS for line in before)):
        return None
    bare = sum(unicodedata.category(line[-1])[0] in "LN" for line in before)
    marked = sum(line[-1] in _SENTENCE_ENDS for line in before)
    if bare > marked and (items or bare >= _VERSE_MIN_LINES):
        return "bare"
    return "marked" if marked > bare else None


def _said_before(lines: list[str]) -> bool:
    """The last line, ``_REFRAIN_MIN_LETTERS`` letters or more, is one the reply wrote before as a whole
    line (a refrain, a chorus): the writer ended it there before, so it ends there now. A cut stops inside
    a line, where no earlier line ended."""
    last = lines[-1].strip()
    if sum(map(str.isalpha, last)) < _REFRAIN_MIN_LETTERS:
        return False
    return any(line.strip() == last for line in lines[:-1])


def _is_title(line: str, text: str) -> bool:
    words = line.lstrip(" \t—–~-").split()
    if len(words) == 1 and f" {words[0].lower()} " in text:
        return False  # one word the reply writes in lower case (``But``, ``Those``): a sentence's start
    return 0 < len(words) <= _TITLE_WORDS and all(
        w[0].isupper() or not w[0].isalpha() or w.casefold() in _SMALL_WORDS for w in words
    )


def _emphasis_left_open(text: str) -> bool:
    """The reply's last paragraph has words and an odd number of runs of its final mark (``*``, ``_``):
    an emphasis opened and not closed (``and she was *``, ``彼は言った。*``), not ``*She left.*`` nor
    ``* * *``."""
    paragraph = text[text.rfind("\n\n") + 1 :]
    before = paragraph.rstrip(text[-1])[-1:]
    # a mark after a space, or after a full-width full stop (no space in CJK), opens; after a word or a
    # Latin full stop it may close an emphasis opened in an earlier paragraph
    runs = len(re.findall(re.escape(text[-1]) + "+", paragraph))  # ``**bold**``: two runs, one emphasis
    return (before.isspace() or before in "。！？") and runs % 2 == 1 and any(map(str.isalpha, paragraph))


def _letters(text: str) -> float:
    return weight(script_counts(text[:4096]))
