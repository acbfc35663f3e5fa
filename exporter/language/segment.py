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
from collections.abc import Iterable
from itertools import islice
from typing import NamedTuple

from exporter.language.scripts import CJK_LETTERS, FULLWIDTH_ASCII

# The marks that can end a sentence, for the quick scans that bound "this sentence" (a reply's first
# sentence, a decline's): ``split_sentences`` tells which of them really end one.
END_MARK = re.compile(r"[.!?。！？\n]")
_CJK_NEXT = CJK_LETTERS + FULLWIDTH_ASCII  # a CJK letter or a full-width form (class bodies)
# Every match starts with an end-of-sentence character, consumed first and told apart by lookbehinds: a
# pattern that opens with a character class lets the engine skip the other characters at C speed (twice as
# fast as a leading lookahead, five times lookbehinds first).
_END = re.compile(
    r"[.!?…。！？．\n](?:"
    # A run of end marks is matched only from its first mark, atomically: trying every position inside a
    # long run ("....x") would make the scan quadratic. It ends a sentence before whitespace, CJK or 「『,
    # or after a closing 」』 (a quoted sentence: `…됩니다.」GUI`); closing quotes go with it, German `“`
    # among them (`„Bitte warten.“ Dann…`).
    r"(?<=[.!?…])(?<![.!?…].)(?>[.!?…]*[\"'”“’»)\]*_」』]*)(?=\s|[「『" + _CJK_NEXT + r"]|(?<=[」』]))"
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


BRACKET_LOOK = 300  # characters after a sentence looked at for the round bracket it left open


def join_bracketed(text: str, sentences: list[Sentence]) -> list[Sentence]:
    """``sentences`` (of ``text``) with each one that ends inside a round bracket it opened joined to the
    next ones up to the bracket's close, when that is on the same line within ``BRACKET_LOOK`` characters
    and each next one goes on in lowercase (``_goes_on``): a full stop inside brackets before a lowercase
    word is an abbreviation's (`(let. vogel pad)`, `(z. B. die …)`, `(cf. the …)`), not a sentence's end,
    and the pieces it would make read as no language. A capital, a quotation mark or a CJK character
    after it may start a sentence of its own (a quoted line in another language inside the brackets).

    >>> text = "De Melkweg heet Lodde-raiddaras (let. vogel pad) in het Samisch. Dat is alles."
    >>> [s.text for s in join_bracketed(text, split_sentences(text))]
    ['De Melkweg heet Lodde-raiddaras (let. vogel pad) in het Samisch.', 'Dat is alles.']
    """
    if "(" not in text:
        return sentences
    out: list[Sentence] = []
    i = 0
    while i < len(sentences):
        s = sentences[i]
        # the brackets left open at the end of the sentence so far, counted (at C speed) over each piece once
        j, depth = i, max(0, text.count("(", s.start, s.end) - text.count(")", s.start, s.end))
        while (
            depth > 0
            and j + 1 < len(sentences)
            and _goes_on(sentences[j + 1].text)
            and _closes(text, sentences[j].end, depth)
        ):
            j += 1
            a, b = sentences[j - 1].end, sentences[j].end
            depth = max(0, depth + text.count("(", a, b) - text.count(")", a, b))
        if j > i:
            s = Sentence(text[s.start : sentences[j].end], s.start, sentences[j].end)
        out.append(s)
        i = j + 1
    return out


def _goes_on(piece: str) -> bool:
    """Whether a piece after a full stop goes on with the sentence: it starts in lowercase, or it is one
    more abbreviation (`B.` of `z. B.`, one word of letters and its stop)."""
    return piece[0].islower() or (
        piece[-1] == "." and piece[:-1].replace(".", "").isalpha() and len(piece) <= 5
    )


def _closes(text: str, at: int, depth: int) -> bool:
    """Whether the ``depth`` round brackets open at ``at`` close on the same line within ``BRACKET_LOOK``
    characters (each sentence's look is bounded, so a reply is scanned in linear time)."""
    for ch in text[at : at + BRACKET_LOOK]:
        if ch == "\n":
            return False
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return True
    return False


# Fenced code blocks (to the closing fence, or the end of the reply) and inline code spans.
_CODE = re.compile(r"(?ms)^[ \t]*(```|~~~).*?(?:^[ \t]*\1[ \t]*$|\Z)|`[^`\n]{1,400}`")
QUOTE_PAIRS = {'"': '"', "“": "”", "„": "“", "«": "»", "»": "«", "「": "」", "『": "』", "‘": "’", "‚": "‘"}
QUOTE_MARKS = "".join(dict.fromkeys([*QUOTE_PAIRS, *QUOTE_PAIRS.values()]))
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


QUOTE_LOOK = 300  # characters looked at before and after a sentence for the quotation marks around it
_TWO_WAY = frozenset(QUOTE_PAIRS) & frozenset(QUOTE_PAIRS.values())  # marks that open and close


def quotation(text: str, start: int, end: int) -> tuple[int, int] | None:
    """The quotation holding ``text[start:end]`` (a sentence): the offsets of its opening mark and just
    past its closing one; None when the sentence is not inside quotation marks. A sentence is held when it
    opens with a quote whose closer ends it (not ``"a" and "b"``) or closes after it on the same line (the
    first sentence of a quotation of several: ``“Open it. Then close it.”``), or when the nearest quote
    before it, unclosed, closes inside it or after it (on the same line then). Both marks are looked for
    within ``QUOTE_LOOK`` characters of the sentence. The sentences of one quotation get the same offsets.

    >>> text = 'Il a dit : “Open the file first. Then close it.” Puis il est parti.'
    >>> [quotation(text, s.start, s.end) for s in split_sentences(text)]
    [None, (11, 48), None]
    """
    raw = text[start:end]
    piece = raw.strip(_QUOTE_CLOSE_TAIL)
    if not piece:
        return None  # nothing but punctuation: no sentence to be inside quotes
    lead = start + len(raw) - len(raw.lstrip(_QUOTE_CLOSE_TAIL))
    # A straight quote opening and ending the sentence may be two ('"a" and "b"'); curly marks nest.
    own = QUOTE_PAIRS.get(piece[0]) if len(piece) >= 2 else None
    if own is not None and own == piece[-1] and (own != '"' or piece.find('"', 1) == len(piece) - 1):
        return lead, lead + len(piece)
    # A quote it opens and does not close comes first: a mark before it may close an earlier quote (a
    # German `“`, a French `»`) and only look like an opener.
    if (
        own is not None
        and own not in piece[1:]
        and (own != '"' or text.count('"', text.rfind("\n", 0, lead) + 1, lead) % 2 == 0)
        and (to := _closing(text, lead, lead + len(piece), own)) >= 0
    ):
        return lead, to + 1
    found: tuple[int, int] | None = None
    low = max(0, start - QUOTE_LOOK)
    for opener, closer in QUOTE_PAIRS.items():
        at = text.rfind(opener, low, start)
        if (
            at < 0
            or (found is not None and at < found[0])
            or (opener != closer and text.find(closer, at + 1, start) >= 0)
            or (opener == closer and text.count(opener, low, start) % 2 == 0)
        ):
            continue
        if (to := text.find(closer, lead + 1, end + 3)) >= 0 or (to := _closing(text, at, end, closer)) >= 0:
            found = at, to + 1
    return found


def _closing(text: str, opened: int, after: int, closer: str) -> int:
    """Where ``closer`` closes, from ``after`` on, a quotation opened at ``opened``: on its line and within
    ``QUOTE_LOOK`` characters, both marks facing the quoted text (``_faces``); -1 otherwise."""
    at = text.find(closer, after, after + QUOTE_LOOK)
    if at < 0 or "\n" in text[opened:at] or not _faces(text, opened, 1) or not _faces(text, at, -1):
        return -1
    return at


def _faces(text: str, at: int, side: int) -> bool:
    """Whether the mark at ``at`` faces the quoted text on ``side`` (1: after it, an opening mark; -1:
    before it, a closing one). Told only for the marks that open in one convention and close in another
    (`"`, `“`, `«`, `»`, `‘`): an opening one is glued to the next word and not to the previous one, a
    closing one glued to what it closes and not to the next word (`«Sposta». This…`: that `»` opens
    nothing); a French spaced `« … »` faces neither way."""
    if text[at] not in _TWO_WAY:
        return True
    before = text[at - 1] if at > 0 else " "
    after = text[at + 1] if at + 1 < len(text) else " "
    if side > 0:
        return (after.isalnum() or after in "¿¡([") and not before.isalnum()
    return not before.isspace() and not after.isalnum()


def is_quoted(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` (a sentence) is inside quotation marks (``quotation``)."""
    return quotation(text, start, end) is not None


def one_quotation(
    text: str, inside: Iterable[Sentence], outside: Iterable[Sentence] = ()
) -> tuple[int, int] | None:
    """The quotation (``quotation``) holding every sentence of ``inside`` (one or more) and none of
    ``outside``, when one and the same holds them all; else None."""
    held = None
    for s in inside:
        if (found := quotation(text, s.start, s.end)) is None or found != (held or found):
            return None
        held = found
    if held is None or any(
        s.start < held[1] and s.end > held[0] and quotation(text, s.start, s.end) == held for s in outside
    ):
        return None
    return held


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
