"""Sentence splitting for every locale, CJK included, keeping character offsets for the evidence.

A sentence ends at ``.!?…`` (plus closing quotes or brackets) before whitespace or before a Chinese,
Japanese or Korean character (CJK text often follows an ASCII full stop without a space), at ``。！？``
(Chinese and Japanese write no space after them), at a line break, and where a full stop glues two
sentences together (``address.It is``, ``命令.Ftp``). Abbreviations may split a sentence in two; that only
makes the pieces shorter, and pieces too short to judge are simply not counted.

Example::

    >>> [s.text for s in split_sentences("Hola. ¿Qué tal?\\n你好。再见！")]
    ['Hola.', '¿Qué tal?', '你好。', '再见！']
"""

from __future__ import annotations

import functools
import re
from itertools import islice
from typing import NamedTuple

from exporter.language.scripts import CJK_LETTERS

# The marks that can end a sentence, for the quick scans that bound "this sentence" (a reply's first
# sentence, a decline's): ``split_sentences`` tells which of them really end one.
END_MARK = re.compile(r"[.!?。！？\n]")
_CJK_NEXT = CJK_LETTERS + "\uff01-\uff5e"  # a CJK letter or a full-width form (class bodies)
# Every match starts with an end-of-sentence character, consumed first and told apart by lookbehinds: a
# pattern that opens with a character class lets the engine skip the other characters at C speed (twice as
# fast as a leading lookahead, five times lookbehinds first).
_END = re.compile(
    r"[.!?…。！？．\n](?:"
    # A run of end marks is matched only from its first mark, atomically: trying every position inside a
    # long run ("....x") would make the scan quadratic. It ends a sentence before whitespace, CJK or 「『,
    # or after a closing 」』 (a quoted sentence: `…됩니다.」GUI`).
    r"(?<=[.!?…])(?<![.!?…].)(?>[.!?…]*[\"'”’»)\]*_」』]*)(?=\s|[「『" + _CJK_NEXT + r"]|(?<=[」』]))"
    r"|(?<=[a-z]{2}[.!?])(?=[A-Z][a-z]+\s)"  # "address.It is": a sentence glued to the next one
    rf"|(?<=[{_CJK_NEXT}][.!?])(?=[A-Za-z])"  # "命令.Ftp": a CJK sentence ended by an ASCII full stop
    r"|(?<=[。！？．])[。！？．]*[」』”’）)\]*]*"  # CJK end of sentence, no space needed
    r"|(?<=\n)\n*)"  # a line break always ends a sentence
)


class Sentence(NamedTuple):  # a tuple, not a frozen dataclass: built per sentence, 2.5x faster
    text: str
    start: int  # character offsets in the judged text
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their offsets; whitespace-only pieces are dropped."""
    return list(_split(text))


@functools.lru_cache(maxsize=4)  # the screen and the judge split the same reply: once, not twice
def _split(text: str) -> tuple[Sentence, ...]:
    out: list[Sentence] = []
    start = 0
    for end in [*map(re.Match.end, _END.finditer(text)), len(text)]:
        piece = text[start:end]
        if stripped := piece.strip():
            offset = start + len(piece) - len(piece.lstrip())
            out.append(Sentence(stripped, offset, offset + len(stripped)))
        start = end
    return tuple(out)


# Fenced code blocks (to the closing fence, or the end of the reply) and inline code spans.
_CODE = re.compile(r"(?ms)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)|`[^`\n]{1,400}`")
QUOTE_PAIRS = {'"': '"', "“": "”", "„": "“", "«": "»", "»": "«", "「": "」", "『": "』", "‘": "’", "‚": "‘"}
_QUOTE_CLOSE_TAIL = ".,!?…;:)]*_ \t"


# A quoted identifier: one ASCII token in quotes ('fulltradesize', "notradesize", «grep»), a name or an
# option the text refers to, written in Latin letters whatever the reply's language.
# (The quote first, then the look behind it: a pattern that opens with a character class is scanned for at
# C speed.)
_QUOTED_NAME = re.compile(r"['\"“‘«„](?<![^\W\d_].)[A-Za-z][A-Za-z0-9_.\-]{1,39}['\"”’»“](?![^\W\d_])")


def case_class(predicate: str) -> str:
    """A regex class of the Latin and Cyrillic letters for which ``str.<predicate>()`` holds."""
    ranges = (range(0x41, 0x250), range(0x400, 0x530), range(0x1E00, 0x1F00))
    chars = "".join(
        chr(cp) for r in ranges for cp in r if getattr(chr(cp), predicate)() and chr(cp).isalpha()
    )
    return "[" + re.escape(chars) + "]"


# A spreadsheet formula: "=", a function name in capitals (localised: "=SOMME.SI", "=СУММ", "=LOG10") and
# its arguments in brackets closed on the same line, up to three levels deep ("=LEN(CLEAN(CHAR(7)))").
_NAME_PART = f"(?:{case_class('isupper')}|[0-9])"
FORMULA = re.compile(
    rf"= ?{case_class('isupper')}{_NAME_PART}*(?:[._]{_NAME_PART}+)* ?"
    # (possessive: the alternatives are disjoint, so nothing is retried and an unclosed bracket costs one
    # scan of its line)
    r"\((?:[^()\n]++|\((?:[^()\n]++|\([^()\n]*+\))*+\)){0,300}+\)"
)


def _blank(m: re.Match[str]) -> str:
    return re.sub(r"[^\n]", " ", m.group())


def mask_code(text: str) -> str:
    """``text`` with code, spreadsheet formulas and quoted identifiers blanked out (same length, newlines
    kept): they are not language evidence (``Дивись також на 'fulltradesize'.`` is a Ukrainian sentence).

    >>> mask_code("Use `ls -la` here.")
    'Use          here.'
    """
    if "`" in text or "~~~" in text:
        text = _CODE.sub(_blank, text)
    if "=" in text:
        text = FORMULA.sub(_blank, text)
    return _QUOTED_NAME.sub(_blank, text)


def is_quoted(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a sentence) is inside quotation marks: it opens with a quote whose
    closer ends it (not ``"a" and "b"``), or the nearest quote before it opens a span its closer ends after
    it (bounded look)."""
    piece = text[start:end].strip(_QUOTE_CLOSE_TAIL)
    # A straight quote opening and ending the sentence may be two ('"a" and "b"'); curly marks nest.
    closer = QUOTE_PAIRS.get(piece[0]) if len(piece) >= 2 else None
    if closer is not None and closer == piece[-1] and (closer != '"' or piece.find('"', 1) == len(piece) - 1):
        return True
    before = text[max(0, start - 300) : start]
    for opener, closer in QUOTE_PAIRS.items():
        at = before.rfind(opener)
        if (
            at < 0
            or (opener != closer and closer in before[at + 1 :])
            or (opener == closer and before.count(opener) % 2 == 0)
        ):
            continue
        if closer in text[start : end + 3]:
            return True
    return False


# Quoted spans and *emphasis*: a quoted title, phrase or word is not what the sentence is written in.
_QUOTED_SPAN = re.compile(r'"[^"\n]*"|“[^”\n]*”|„[^“”\n]*[“”]|«[^»\n]*»|「[^」\n]*」|‘[^’\n]*’|\*[^*\n]+\*')


def unquote(sentence: str) -> str:
    """The sentence with its quoted spans and ``*emphasis*`` blanked.

    >>> unquote('Zie "Implementation provided keywords" in de gids.')
    'Zie   in de gids.'
    """
    return _QUOTED_SPAN.sub(" ", sentence)


_LETTER = re.compile(r"[^\W\d_]")


def word_count(text: str, up_to: int | None = None) -> int:
    """Whitespace-separated words with at least one letter (``©``, ``--`` and numbers are not words),
    counted up to ``up_to`` when given (whether there are that many needs no more)."""
    return len([*islice(filter(_LETTER.search, text.split()), up_to)])
