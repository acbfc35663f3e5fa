"""Corrupted starts: a stray punctuation mark, byte or token fragment before the first word of a reply.

A reply may legitimately open with emphasis (``*``, ``_``), a quote (``"`` ``«`` ``“`` ``„`` ``「``), a
dialogue dash, ``¿``/``¡``, a list marker, a heading, an opening bracket, an ellipsis, a digit or an emoji.
It may not open with closing or separating punctuation (``,`` ``)`` ``」`` ``。``), with tokenizer residue
(``Ġ``, ``▁``, ``<|``), or with a lowercase subword glued to the real first word (``ingHello``,
``ción Hola``, ``lyЭлементы``).

Example::

    >>> find_corrupted_start(", Hola, ¿cómo estás?").kind
    'stray_punctuation'
    >>> find_corrupted_start("¿Cómo estás?") is None
    True
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# Always wrong as the very first character of a reply.
_STRAY = frozenset(",;:)]}!?。、，．；：！？）］｝】」』》〉〕〗〙〛”’›|^=<\\@&+%$")
# Wrong unless followed by what makes them legitimate (a file name, a path, a list item...).
_DOT_OK = re.compile(r"\.(?:\.|[a-z0-9])")  # ellipsis, ".bashrc", ".5"
_SLASH_OK = re.compile(r"/(?:/|[a-z0-9._~])")  # "/etc/passwd", "// comment"
_PLUS_OK = re.compile(r"\+ ")  # markdown list item
# A printf-style conversion ("%s", "%-5d", "%.2f"), then no letter: "%sulogin" is not one.
_PERCENT_OK = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcspn%](?![^\W\d_])")
_DOLLAR_OK = re.compile(r"\$[A-Za-z0-9{(]")  # "$HOME", "$5"
_LESS_OK = re.compile(r"<[^\W\d_][^<>\n]{0,30}>")  # a tag or placeholder: "<b>", "<모드>"
_BACKSLASH_OK = re.compile(r"\\(?:[a-z](?![^\W\d_])|[a-z]+[{\[])")  # "\n", "\section{...}"
_PIPE_OK = re.compile(r"\|[^\n]*\|")  # a markdown table row
_AT_OK = re.compile(r"@[A-Za-z]")  # a handle or "@file"
_ARTIFACTS = re.compile(r"^(?:Ġ|▁|Ċ|##|<0x[0-9A-Fa-f]{2}>|<\|[^|>]{0,40}\|>|</?s>|<unk>|\[UNK\]|\ufeff)")
_INVISIBLE_PREFIX = re.compile(r"^[\s\u200b\u200c\u200d\u2060]+")


def _case_class(predicate: str) -> str:
    """A regex class of the Latin and Cyrillic letters for which ``str.<predicate>()`` holds."""
    ranges = (range(0x41, 0x250), range(0x400, 0x530), range(0x1E00, 0x1F00))
    chars = "".join(
        chr(cp) for r in ranges for cp in r if getattr(chr(cp), predicate)() and chr(cp).isalpha()
    )
    return "[" + re.escape(chars) + "]"


_LOWER = _case_class("islower")
_UPPER = _case_class("isupper")
_CJK = r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]"
# "ingHello", "ingA message", "ataL'identifiant": two or more lowercase letters glued to a capitalised
# word or a one-letter capital word (not "macOS", "iPhone").
_GLUED_CAPITAL = re.compile(rf"^{_LOWER}{{2,}}{_UPPER}(?:{_LOWER}|['’]|\s)")
# "lyЭлементы", "ing你好": a lowercase Latin/Cyrillic run glued to another script. Before Chinese, Japanese
# or Korean only a known subword suffix counts: a command name takes a particle there ("mandb는", "rpm是").
# Frequent inflectional and derivational endings of the product's Latin- and Cyrillic-script languages:
# what a tokenizer leaves behind when a word is cut (a subword piece), and never a word on its own.
_SUFFIXES = (
    "ing|tion|ly|ed|ment|ness|ers?|es|ity|ous|ies"  # en
    "|ción|ciones|mente|ado|ido"  # es
    "|ção|ções|mente|ões"  # pt
    "|eur|euse|ique|ement"  # fr
    "|ung|keit|heit|lich|isch|ische|chen"  # de
    "|zione|zioni|ità|mente"  # it
    "|heid|lijk|ing"  # nl
    "|ość|ów|ach|ami|ować|anie|enie"  # pl
    "|lar|ler|ları|leri|sı|si"  # tr
    "|nya|kan|lah"  # id
    "|ent|ant|ist"
    "|ого|ого|ние|ния|ный|ная|ное|ами|ется|ться|ся|ть|ння|ний|ється"  # ru, uk
)
# "ésEACCES", "огоСТРОКА": a known ending glued to a word in capitals ("macOS" is not a cut word).
_GLUED_CAPS = re.compile(rf"^(?:{_SUFFIXES}){_UPPER}{{2,}}")
_GLUED_SCRIPT = re.compile(
    rf"^(?:[a-z]{{1,12}}(?=[А-яЁёЄєІіЇїҐґ])|(?:{_SUFFIXES})(?=\s?{_CJK})|[а-яёєіїґ]{{1,12}}(?=[A-Za-z]|{_CJK}))"
)
# "ción Hola", "ing. Hello", "ers A list", "lar ¿Qué": a lowercase fragment, then the capitalised first word.
_LOOSE_FRAGMENT = re.compile(rf"^{_LOWER}{{1,14}}[.,;:!?…]*\s+[¿¡\"“„«]?{_UPPER}(?:{_LOWER}|\s)")
# "és\ninitdb ...", "ed\nA command": a lone lowercase scrap on the first line.
_SCRAP_LINE = re.compile(rf"^{_LOWER}{{1,8}}[ \t]*\n")
# "ное 服务器": a Cyrillic fragment before the first Chinese/Japanese/Korean character. (A lowercase Latin
# word there is usually a command or product name: "iptables は ...".)
_CYRILLIC_BEFORE_CJK = re.compile(rf"^[а-яёєіїґ]{{1,14}}[.,;:!?…]*\s+{_CJK}")
# Chinese, Japanese and Korean fragments no sentence can start with: particles, verb endings, small kana.
_CJK_FRAGMENT = re.compile(
    r"^(?:的(?![确確士])|了(?![解结結却卻不得然如])|[吗嗎呢们們]"
    r"|ます(?!ます)|です|ました|[をっッゃゅょぁぃぅぇぉャュョァィゥェォーヶ]"
    r"|(?:니다|습니다|어요|아요|세요|에게|에서|는|은|을|를|의|요)(?=[\s,.]))"
)
# Opening marks a reply may legitimately start with; a fragment may hide behind them ('"ing Hello').
_OPENERS = re.compile(r"^[\"'“‘„«»‹「『（(\[*_~¿¡—–-]+\s?")


@dataclass(frozen=True, slots=True)
class CorruptedStart:
    """``kind``: ``stray_punctuation``, ``tokenizer_artifact`` or ``fragment``; ``prefix``: the garbage."""

    kind: str
    prefix: str
    codepoints: tuple[str, ...]

    def as_evidence(self) -> dict[str, object]:
        return {"kind": self.kind, "prefix": self.prefix, "codepoints": list(self.codepoints)}


def _found(kind: str, prefix: str) -> CorruptedStart:
    return CorruptedStart(kind, prefix, tuple(f"U+{ord(c):04X}" for c in prefix))


def find_corrupted_start(text: str) -> CorruptedStart | None:
    """The garbage before the first word of ``text``, or None when the start is legitimate."""
    if text.startswith("\ufeff"):
        return _found("tokenizer_artifact", "\ufeff")
    text = _INVISIBLE_PREFIX.sub("", text)
    if not text:
        return None
    if m := _ARTIFACTS.match(text):
        return _found("tokenizer_artifact", m.group())
    first = text[0]
    if first in _STRAY and not _legit_symbol_start(text):
        if first == "›" and "‹" in text:
            return None
        return _found("stray_punctuation", _stray_prefix(text))
    if first == "»" and "«" not in text:
        return _found("stray_punctuation", first)
    if first == "." and not _DOT_OK.match(text):
        return _found("stray_punctuation", _stray_prefix(text))
    if first == "/" and not _SLASH_OK.match(text):
        return _found("stray_punctuation", _stray_prefix(text))
    if "\u0300" <= first <= "\u036f":  # a combining mark with nothing to combine with
        return _found("fragment", first)
    body = text[m.end() :] if (m := _OPENERS.match(text)) else text
    for pattern in (
        _GLUED_CAPITAL,
        _GLUED_CAPS,
        _GLUED_SCRIPT,
        _LOOSE_FRAGMENT,
        _SCRAP_LINE,
        _CYRILLIC_BEFORE_CJK,
    ):
        if m := pattern.match(body):
            return _found("fragment", _first_run(m.group()))
    if m := _CJK_FRAGMENT.match(body):
        return _found("fragment", m.group())
    return None


def _legit_symbol_start(text: str) -> bool:
    checks = {
        "+": _PLUS_OK,
        "%": _PERCENT_OK,
        "$": _DOLLAR_OK,
        "<": _LESS_OK,
        "\\": _BACKSLASH_OK,
        "|": _PIPE_OK,
        "@": _AT_OK,
    }
    pattern = checks.get(text[0])
    return bool(pattern and pattern.match(text))


def _stray_prefix(text: str) -> str:
    m = re.match(r"[^\w\s]{1,8}", text)
    return m.group() if m else text[:1]


def _first_run(matched: str) -> str:
    m = re.match(rf"{_LOWER}+", matched)
    return m.group() if m else matched[:1]
