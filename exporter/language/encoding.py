"""Encoding corruption: U+FFFD, control and invisible formatting characters, and mojibake.

Mojibake is UTF-8 bytes read with the wrong codec: cp1252/Latin-1/cp1251 or another single-byte code page
(``OTHER_SINGLE_BYTE_CODECS``: Central European, Baltic, Vietnamese, Mac, DOS, KOI8-R...) or a legacy East
Asian codec (GB18030/GBK, Big5, cp949/EUC-KR, cp932/Shift_JIS, EUC-JP: one or two bytes per character).
Bidirectional embeddings/overrides/isolates (U+202A-U+202E, U+2066-U+2069; none of our locales is
written right to left, and U+202E is the classic spoofing character) and private-use characters (no
text in any locale has them; a broken detokenizer emits them) count as corruption too.

Mojibake is found by undoing it: a run of characters that the wrong codec could have produced is encoded
back to bytes with that codec, and the bytes are searched for well-formed multi-byte UTF-8 sequences that
decode to characters a reply in one of our locales plausibly contains. Legitimate text almost never forms
such sequences (a capital ``Ã`` followed by ``©`` is not a word), so one sequence is enough for cp1252 and
Latin-1. For cp1251 (where Ukrainian letters are continuation bytes: ``Ді``, ``Гі`` are real Ukrainian) one
sequence is enough only where no Cyrillic text can be: inside a Latin word (``cambiГі``) or in a text whose
letters are Latin once the suspicious pairs are set aside (``il valore ГЁ``); in Cyrillic text two consecutive
decoded characters, or two scattered ones without a Ukrainian letter, are required.

Example::

    >>> EncodingChecker().find("Ã©tÃ© chaud").kind
    'mojibake'
"""

from __future__ import annotations

import codecs
import functools
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from exporter.language.lexicon import fullest_words, fullest_zipf, lexicon
from exporter.language.locales import LATIN_LOCALES, LOCALES
from exporter.language.scripts import (
    CJK_LETTERS,
    CJK_PUNCTUATION,
    CJK_SCRIPTS,
    FULLWIDTH_ASCII,
    HALFWIDTH_FULLWIDTH,
    HALFWIDTH_KATAKANA,
    HAN,
    HAN_BLOCKS,
    HAN_COMPATIBILITY,
    HAN_KANA_LETTERS,
    HANGUL_SYLLABLES,
    KANA_BLOCKS,
    LETTERS,
    RU_UK_ALPHABET,
    UKRAINIAN_ONLY,
    UNIFIED_HAN,
    Script,
    letter_ranges,
    script_of,
)

_REPLACEMENT = "\ufffd"
# C0 controls except tab/newline/carriage return, DEL, C1 controls, lone surrogates, non-characters.
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufffe\uffff]")
_BIDI_CONTROL = re.compile("[\u202a-\u202e\u2066-\u2069]")
_PRIVATE_USE = re.compile("[\ue000-\uf8ff\U000f0000-\U0010ffff]")
_CHARACTER_KINDS = (
    (re.compile(_REPLACEMENT), "replacement_character"),
    (_CONTROL, "control_character"),
    (_BIDI_CONTROL, "bidi_control"),
    (_PRIVATE_USE, "private_use"),
)
_ANY_SUSPICIOUS = re.compile("[" + "".join(p.pattern.strip("[]") for p, _ in _CHARACTER_KINDS) + "]")
# Legacy East Asian codecs a serving stack may read UTF-8 with, in the order they are tried.
CJK_CODECS = ("gb18030", "big5", "cp949", "cp932", "euc_jp")
CJK_MIN_COVERAGE = 0.7  # share of a run's re-encoded bytes that must be well-formed UTF-8 sequences
LOSSY_QUOTED_COVERAGE = 0.5  # ... half, for a quoted CJK word read dropping bytes (``_lossy_quoted``; runs of
# clean dev Chinese, Japanese and Korean quoted in an English sentence: 0 of 105,450 fail on it)
MAX_FINDINGS = 32  # mojibake streaks collected before the single-byte scan stops (evidence count capped)
CJK_SCAN_CHARS = 4_096  # characters searched for legacy-CJK mojibake (a misread stream shows at once)
_NON_ASCII_SPLIT = re.compile(r"([^\x00-\x7f]+)")
_BUT_MARK_AND_NEWLINE = bytes(b for b in range(256) if b not in b"?\n")
_HANGUL_LINE = re.compile(f"(?m)^[{HANGUL_SYLLABLES}]+$")
_HANGUL_RUN = re.compile(f"[{HANGUL_SYLLABLES}]+")
# Share of the scanned letters in the Latin alphabet above which a text is Latin-alphabet text: one
# CJK character there that repairs to a Latin letter or to typography is mojibake.
CJK_LATIN_TEXT_SHARE = 0.9
_TYPOGRAPHY = re.compile("[«»‹›“”„‘’‚–—…·•¿¡\u00a0 ]+")
# English contractions spelt without their apostrophe, which careful writing never does.
_BARE_CONTRACTIONS = (
    # not can't and won't: "cant" and "wont" are words of their own ("as was her wont")
    # nor the ones that are other words when bare: its, lets, were, well, wed, hell, shell, ill, id
    *(f"{verb}nt" for verb in ("do", "does", "did", "is", "are", "was", "were", "has", "had", "have", "ai")),
    *(f"{verb}nt" for verb in ("could", "would", "should", "must")),
    *(f"{verb}ve" for verb in ("could", "would", "should", "must")),
    *(f"{who}{verb}" for who in ("you", "they") for verb in ("re", "ve", "ll", "d")),
    *("weve", "itll", "hes", "shes"),
    *(f"{wh}s" for wh in ("that", "what", "there", "here", "where", "who")),
)
_BARE_CONTRACTION = re.compile(rf"\b(?:{'|'.join(_BARE_CONTRACTIONS)})\b", re.IGNORECASE)
_BARE_CONTRACTION_SET = frozenset(_BARE_CONTRACTIONS)
_ASCII_WORD = re.compile("[a-z]+")
# Contractions that are words when bare, told by the words around them (the grammar of English, no list of
# phrases): the first person's, capitalised as only the pronoun is, before a lowercase word (German "Im
# Westen" is not one): "Im glad", "Ive seen"; "cant"/"wont" after a subject pronoun (the noun "cant" and
# the adjective "wont" never follow one, unlike a determiner: "It cant be", "you cant", not "this cant");
# "lets" opening a clause (the verb has a subject before it) before a word that is no object of it ("Lets
# get started", "First, lets create"; not "Lets you set"); "its" before an article, a possessive or
# demonstrative determiner, "not", "been" or an adverb, which no possessive precedes ("Its a good idea",
# "its our only option"; not "its true name"); "Ill" capitalised after a lowercase word or comma, where
# the adjective would be lowercase ("I think Ill wait", "And Ill make"), or before "be" or "have", which
# never follow the adjective ("Ill be glad"; not "Ill health").
_LETS_OBJECT = (
    "you|us|them|him|her|me|it|the|a|an|your|their|his|its|our|my|this|that|these|those|one|people|users?|"
    "players?|anyone|everyone|someone|everybody|anybody|somebody|each|every|any|some|all|both|either|"
    "neither|no|other|others"
)
_FIRST_PERSON = re.compile(r"\b(?:Im|Ive)(?= [a-z])")
_AFTER_SUBJECT = re.compile(
    r"\b(?:I|[Yy]ou|[Ww]e|[Tt]hey|[Hh]e|[Ss]he|[Ii]t|[Tt]here|[Ww]ho) (?:cant|wont)\b"
)
_LETS = re.compile(rf"[Ll]ets(?= (?!(?:{_LETS_OBJECT})\b)[a-z]+\b)")  # opening a clause: ``_clause_start``
_ITS = re.compile(
    r"\b[Ii]ts (?:a|an|the|my|your|our|their|his|her|this|these|those|not|been|also|never|always|probably|"
    r"actually|really|gonna)\b"
)
_ILL = re.compile(r"(?<=[a-z,] )Ill\b|\bIll(?= (?:be|have)\b)")
# each pattern searched only in a text that has its word (the words are listed at C speed first)
_BARE_PHRASES = {"im": _FIRST_PERSON, "ive": _FIRST_PERSON, "cant": _AFTER_SUBJECT, "wont": _AFTER_SUBJECT,
                 "lets": _LETS, "its": _ITS, "ill": _ILL}  # fmt: skip


def _clause_start(text: str, at: int) -> bool:
    """Whether ``at`` opens the text, a line, a quotation or parenthesis, or follows a punctuation mark
    and a space."""
    before = text[at - 1 : at]
    return at == 0 or before in '\n"(' or (before.isspace() and text[at - 2 : at - 1] in ".!?:;,")


_CYRILLIC_WORD = re.compile(f"[{RU_UK_ALPHABET}]{{2}}")
_LATIN_RUN = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]+")


# Letters that are surely not Latin: kana, Han and hangul syllables.
_CJK_LETTERS = re.compile(f"[{CJK_LETTERS}]+")


# What GB18030 and cp932 read the first two bytes of U+2000-U+27FF (quotes, dashes, ellipsis, arrows,
# operators, shapes, dingbats: the signs Latin text writes) as: signs of the text that was misread, no letter
# of another script (鈥, 窶, 竊, 鈻).
_CUT_READINGS = re.compile(
    "[" + "".join(bytes((0xE2, b)).decode(c) for c in ("gb18030", "cp932") for b in range(0x80, 0xA0)) + "]"
)


def _latin_text(text: str) -> bool:
    """Whether ``CJK_LATIN_TEXT_SHARE`` of ``text``'s letters are Latin. CJK text is told by its CJK letters
    alone (a lower bound of the letters that are not Latin), without the slower scan for all letters. The
    readings of cut punctuation (``_CUT_READINGS``) are not counted: a short reply whose quotes were misread
    is still Latin text (``Wait鈥 what? A 鈥済host鈥 鈥 or the wind?``)."""
    if not (latin := sum(map(len, _LATIN_RUN.findall(text)))):
        return False
    cjk = sum(map(len, _CJK_LETTERS.findall(text)))
    cut = len(_CUT_READINGS.findall(text)) if 0 < cjk <= latin else 0  # not read in CJK text (its cost)
    if latin / (latin + cjk - cut) < CJK_LATIN_TEXT_SHARE:
        return False
    return latin / (sum(map(len, LETTERS.findall(text))) - cut) >= CJK_LATIN_TEXT_SHARE


# What a double-byte codec reads UTF-8 as: any character of these blocks (``scripts``), not only letters.
_DOUBLE_BYTE_READING = re.compile(
    f"[{KANA_BLOCKS}{HAN_BLOCKS}{HANGUL_SYLLABLES}{HAN_COMPATIBILITY}{HALFWIDTH_KATAKANA}]"
)
_CYRILLIC_OR_CJK = re.compile(f"[\u0400-\u04ff{_DOUBLE_BYTE_READING.pattern[1:-1]}]")
_UTF8_SEQUENCE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


def _decoded(codec: str, b: int) -> str:
    """What a single-byte codec reads byte ``b`` as; an undefined byte as its Latin-1 C1 character (how
    tolerant decoders pass undefined bytes through)."""
    try:
        return bytes([b]).decode(codec)
    except UnicodeDecodeError:
        return chr(b)


@functools.cache
def _charmap(codec: str) -> dict[int, int]:
    """The single-byte codec as a charmap (``_decoded``): encoding with it is C speed for every codec
    (Python's cp866, cp437 and cp850 encode through a dict: 40-100 µs for a Russian reply, against 1-4)."""
    return codecs.charmap_build("".join(_decoded(codec, b) for b in range(256)))  # type: ignore[return-value]


def _encode(text: str, codec: str) -> bytes:
    """``text`` in a single-byte codec, characters it lacks as "?"."""
    return codecs.charmap_encode(text, "replace", _charmap(codec))[0]


@functools.cache
def _byte_table(codec: str) -> dict[str, int]:
    """Character -> byte for every non-ASCII byte of a single-byte codec (undefined bytes as Latin-1 C1)."""
    return {_decoded(codec, b): b for b in range(0x80, 0x100)}


_PLAUSIBLE_LATIN = re.compile(
    "[\u00a0-\u017f"
    "\u01a0\u01a1\u01af\u01b0"  # Vietnamese horned letters
    "\u0300-\u036f"  # combining accents of decomposed text ("quién" as "quie" and U+0301)
    "\u0400-\u04ff\u1e00-\u1eff\u2010-\u206f\u20ac"
    "\u2100-\u23ff"  # letterlike ("™" read as cp1251 is "в„ў"), arrows ("→": "в†’"), math
    "\u2500-\u27bf"  # box drawing, shapes ("▸"), dingbats
    f"{CJK_PUNCTUATION}{KANA_BLOCKS}{HAN_BLOCKS}{HANGUL_SYLLABLES}{HALFWIDTH_FULLWIDTH}"
    "\U0001f000-\U0001faff]"
)
_PLAUSIBLE_CYRILLIC_READING = re.compile(
    f"[\u0400-\u045f\u0490\u0491\u00c0-\u017f\u2010-\u206f{KANA_BLOCKS}{UNIFIED_HAN}{HANGUL_SYLLABLES}]"
)
_HAN_BLOCK = re.compile(f"[{HAN_BLOCKS}]")
_UNIFIED_HAN = re.compile(f"[{UNIFIED_HAN}]")
_HANGUL_SYLLABLE = re.compile(f"[{HANGUL_SYLLABLES}]")


def _plausible_latin(ch: str) -> bool:
    return _PLAUSIBLE_LATIN.match(ch) is not None


def _plausible_western_reading(ch: str) -> bool:
    """What UTF-8 read as cp1252/Latin-1 hides: ``_plausible_latin``, Han only among the common characters
    (``_common_han``), and Greek letters (``Î± Crv`` is ``α Crv``: star names and formulas in Latin text).
    Turkish ``Aç…’ı`` is E7 85 92 in cp1252, U+7152 ``煒``, a rare character; a Chinese word misread that
    way (``ä½ å¥½``) repairs to common ones."""
    if "\u0391" <= ch <= "\u03c9":
        return True
    return _plausible_latin(ch) and not (_HAN_BLOCK.match(ch) and _common_han().match(ch) is None)


def _plausible_cyrillic_reading(ch: str) -> bool:
    """What UTF-8 read as cp1251 hides: Cyrillic, Latin letters, CJK and punctuation (never symbols)."""
    return _PLAUSIBLE_CYRILLIC_READING.match(ch) is not None


# Ukrainian letters are continuation bytes in cp1251: "Ді", "Гі" in real Ukrainian words decode to
# "ĳ", "ó". A lone sequence containing one of them is never enough on its own.
_UKRAINIAN = frozenset(UKRAINIAN_ONLY)


_LATIN_LETTER = re.compile("[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f]")
_CYRILLIC_LETTER = re.compile("[\u0400-\u04ff]")
_WORD_AROUND = re.compile(r"[^\W\d_]*")
# The same letters in runs: counting sums a few run lengths instead of listing every letter.
_LATIN_LETTERS = re.compile(_LATIN_LETTER.pattern + "+")
_CYRILLIC_LETTERS = re.compile(_CYRILLIC_LETTER.pattern + "+")


def _letters(runs: re.Pattern[str], text: str) -> int:
    return sum(map(len, runs.findall(text)))


def _inside_latin_word(text: str, start: int, length: int) -> bool:
    """Whether a decoded sequence sits in a word whose other letters are all Latin (``cambiГі``, ``donв’t``).

    cp1251 turns ``ó`` into ``Гі``: a Cyrillic pair inside a Latin word, which real text never writes (a
    Ukrainian ``Гі`` sits among Cyrillic letters). The round trip is trusted alone only there.
    """
    before = _WORD_AROUND.match(text[max(0, start - 30) : start][::-1])
    after = _WORD_AROUND.match(text, start + length)
    rest = (before.group() if before else "") + (after.group() if after else "")
    return bool(rest) and bool(_LATIN_LETTER.search(rest)) and not _CYRILLIC_LETTER.search(rest)


_HAN_OR_HANGUL = re.compile(f"[{HAN_BLOCKS}{HANGUL_SYLLABLES}]")


def _word_end_and_typography(text: str, start: int, end: int, repaired: str) -> bool:
    """Whether a lone decoded sequence is a word's last letter and the typography after it: its first
    character a Latin letter glued to the Latin letter before it, the rest no letter, and its repair one
    CJK character. French sets a no-break space before a closing guillemet, and ``Activé\u00a0»`` is E9 A0
    BB in cp1252, UTF-8 for ``頻``; a CJK word misread in Latin text stands apart from the words around it
    or repairs to a row of characters, and a misread mark of Latin text (``donâ€™t``) repairs to no CJK."""
    piece = text[start:end]
    return (
        len(repaired) == 1
        and _HAN_OR_HANGUL.match(repaired) is not None
        and _LATIN_LETTER.match(piece) is not None
        and start > 0
        and _LATIN_LETTER.match(text, start - 1) is not None
        and not any(c.isalpha() for c in piece[1:])
    )


LATIN_CONTEXT_CYRILLIC = 0.03  # share of letters that may be Cyrillic (outside mojibake pairs) in Latin text


def _latin_context(text: str, pairs: list[str]) -> bool:
    """A letter-frequency sanity check: the text is Latin-script once the cp1251 ``pairs`` are set aside."""
    if not (latin := _letters(_LATIN_LETTERS, text)):
        return False  # Cyrillic text (the common case here): its letters need no count
    cyrillic = _letters(_CYRILLIC_LETTERS, text) - _letters(_CYRILLIC_LETTERS, "".join(pairs))
    return cyrillic <= LATIN_CONTEXT_CYRILLIC * (latin + cyrillic)


# The other single-byte codecs a serving stack may read UTF-8 with: Windows Central European, Baltic and
# Vietnamese; the Mac and DOS code pages; KOI8-R and the other Cyrillic ones. ISO 8859-2 and -16 and KOI8-U
# misread UTF-8 much as cp1250 and KOI8-R do (their round trips find the same sequences). Their letters
# pair far more often in real text than cp1252's (Polish capitals ``PÓŁ`` are a lead and a continuation
# byte in cp1250, Russian ``её`` in KOI8-R), so a repair counts only when it is made of the reply's own
# characters (``_own_characters``) and is long: two characters in a row, one of three bytes or more
# (punctuation, CJK), or two scattered ones.
OTHER_SINGLE_BYTE_CODECS = (
    ("cp1250", "cp1257", "cp1258", "mac_roman", "cp437", "cp850"),  # Latin letters, box drawing, signs
    ("koi8_r", "cp866", "mac_cyrillic", "iso8859_5"),  # Cyrillic letters and box drawing
)  # fmt: skip
ALPHABET_MIN_WORDS = 3  # words of the locale's lexicon a non-ASCII letter must occur in to be its own
# What mojibake of any reply may repair to besides its letters: general punctuation, the euro sign,
# letterlike symbols, arrows, math, box drawing, shapes, dingbats, and emoji (three and four bytes).
_ANY_REPLY = re.compile("[\u2010-\u205e\u20ac\u2100-\u23ff\u2500-\u27bf\U0001f000-\U0001faff]")
# ... and in a Latin-script reply, Latin-1's quotes, inverted marks, degree sign, middle dot and no-break
# space: not in a Cyrillic one, where two capitals are these in ISO 8859-5 (``ТА`` is ``°``, ``ТП`` ``¿``).
_LATIN_SIGNS = "«»¡¿°·\u00a0"


@functools.cache
def _own_characters(locale: str) -> tuple[Callable[[str], bool], frozenset[str]] | None:
    """Whether a character belongs to a reply in ``locale``: a letter of its CJK scripts, or a non-ASCII
    letter of at least ``ALPHABET_MIN_WORDS`` words of its lexicon (Latin-1's letters and ``_LATIN_SIGNS``
    count for every Latin-script locale: names and loanwords), or ``_ANY_REPLY``; and those letters (the
    CJK blocks by a few of their characters: U+3000-U+FFEF). None for a locale without a spec or a
    lexicon."""
    if (spec := LOCALES.get(locale)) is None:
        return None
    if spec.scripts & CJK_SCRIPTS:
        scripts = spec.scripts
        return (lambda ch: script_of(ch) in scripts or _ANY_REPLY.match(ch) is not None), frozenset(
            chr(cp) for cp in range(0x3000, 0x10000, 0x1000)
        )
    try:
        words = lexicon(locale).ranks
    except (LookupError, RuntimeError):
        return None
    seen: dict[str, int] = {}
    for word in words:
        for ch in set(word):
            if not ch.isascii() and ch.isalpha():
                seen[ch] = seen.get(ch, 0) + 1
    own = {c for c, n in seen.items() if n >= ALPHABET_MIN_WORDS}
    if Script.LATIN in spec.scripts:
        own.update(chr(cp) for cp in range(0xC0, 0x100) if cp not in (0xD7, 0xF7))
        own.update(_LATIN_SIGNS)
        own.update(map(chr, range(0x300, 0x370)))  # combining accents: decomposed text
    own |= {c.upper() for c in own if len(c.upper()) == 1} | {c.lower() for c in own if len(c.lower()) == 1}
    alphabet = frozenset(own)
    return (lambda ch: ch in alphabet or _ANY_REPLY.match(ch) is not None), alphabet


def _own_repair(found: Corruption | None, locale: str | None) -> Corruption | None:
    """``found`` when its repair is made of letters a reply in ``locale`` writes (``_own_characters``), or
    the locale is not known: UTF-8 misread by a CJK codec or cp1251 repairs to the reply's own language.
    A chance round trip of the reply's own words repairs to another alphabet: Russian ``Её`` read back
    with cp1251 is ``Ÿ``, Korean ``탄`` with cp949 ``ź``, Japanese ``か`` with Big5 ``Ư``, Chinese
    ``仆从`` with EUC-JP ``нк``."""
    if found is None or locale is None or found.repaired is None or (own := _own_characters(locale)) is None:
        return found
    plausible = own[0]
    # lowercased: Turkish ``İ`` is no letter of a lexicon's lowercase words, its ``i̇`` is
    letters = [ch for c in found.repaired if c.isalpha() for ch in c.lower() if not ch.isascii()]
    return found if all(map(plausible, letters)) else None


@dataclass(frozen=True, slots=True)
class _Misreading:
    """How ``OTHER_SINGLE_BYTE_CODECS`` would misread a reply in one locale (``_misreading``)."""

    # per group of codecs, a pre-check of the group (any lead character, then any continuation), and each
    # codec with its own pre-checks
    groups: tuple[tuple[re.Pattern[str], tuple[tuple[_Codec, tuple[re.Pattern[str], ...]], ...]], ...]
    plausible: Callable[[str], bool]  # what a repair may be made of


@functools.cache
def _misreading(locale: str) -> _Misreading | None:
    """``OTHER_SINGLE_BYTE_CODECS`` as they would misread a reply in ``locale``, each with the pairs its
    mojibake starts with: the characters the lead bytes of the locale's own letters are, then a
    continuation byte's; the lead byte of general punctuation (E2) then one of its second bytes (80-87); the
    lead of emoji (F0) then 9F. Real text rarely has them: Russian mojibake in CP866 starts with
    ``╨`` or ``╤`` (D0, D1), and ``—`` (E2 80 94) is ``тАФ``, where Russian ``так`` (E2 A0 AA) is no pair.
    E2 and F0 join the lead characters unless the codec reads them as a letter of the locale (CP866's
    ``т``): one character-class scan per codec, mostly (an alternation cost 30 µs a reply)."""
    if (own := _own_characters(locale)) is None:
        return None
    plausible, alphabet = own
    lead_bytes = {ch.encode("utf-8")[0] for ch in alphabet if not ch.isascii()}  # "ı".upper() is "I"
    groups = []
    for names in OTHER_SINGLE_BYTE_CODECS:
        readers = []
        all_leads: set[str] = set()
        all_continuations: set[str] = set()
        for name in names:
            codec, leads, continuations, checks = _reader(name, lead_bytes, plausible)
            readers.append((codec, checks))
            all_leads |= leads
            all_continuations |= continuations
        groups.append((_pair_pattern(all_leads, all_continuations), tuple(readers)))
    return _Misreading(tuple(groups), plausible)


def _reader(
    name: str, lead_bytes: set[int], plausible: Callable[[str], bool]
) -> tuple[_Codec, set[str], frozenset[str], tuple[re.Pattern[str], ...]]:
    """One codec of ``_misreading``: the codec, its lead and continuation characters, its pre-checks."""
    table = _byte_table(name)
    continuations = _chars(table, range(0x80, 0xC0))
    leads, own_leads, checks = set(_chars(table, lead_bytes)), set(), []
    for lead, seconds in ((0xE2, range(0x80, 0x88)), (0xF0, [0x9F])):
        if plausible(char := _decoded(name, lead)) and char.isalpha():  # cp866's "т": a pair of its own
            checks.append(_pair_pattern([char], _chars(table, seconds)))
            own_leads.add(char)
        else:
            leads.add(char)
    checks.insert(0, _pair_pattern(leads, continuations))
    codec = _Codec(name, checks[0], 2, 2, alone_bytes=3, words_are_text=True)
    return codec, leads | own_leads, continuations, tuple(checks)


@dataclass(frozen=True, slots=True)
class _Codec:
    name: str
    pair: re.Pattern[str]  # a lead-byte character followed by a continuation-byte one: the cheap pre-check
    min_consecutive: int  # decoded characters in a row that call it mojibake at once
    min_scattered: int  # ... or isolated decoded characters (without Ukrainian letters) in the text
    alone_bytes: int = 0  # ... or one decoded character of at least this many bytes (0: never alone)
    # whether a piece of lowercase letters is text whatever it decodes to: in CP866, KOI8-R and the Mac and
    # ISO Cyrillic code pages lowercase Cyrillic letters are lead and continuation bytes (Russian ``яко``
    # is EF AA AE, U+7C7B ``类``), while mojibake mixes cases, box drawing and signs (``тАФ``, ``╨Я``)
    words_are_text: bool = False


def _chars(table: dict[str, int], byte_values: Iterable[int]) -> frozenset[str]:
    """The characters of a codec's ``_byte_table`` that are these byte values."""
    wanted = frozenset(byte_values)
    return frozenset(c for c, b in table.items() if b in wanted)


def _pair_pattern(leads: Iterable[str], continuations: Iterable[str]) -> re.Pattern[str]:
    def char_class(chars: Iterable[str]) -> str:
        return "[" + "".join(re.escape(c) for c in sorted(chars)) + "]"

    return re.compile(char_class(leads) + char_class(continuations))


def _codec(name: str, min_consecutive: int, min_scattered: int) -> _Codec:
    table = _byte_table(name)
    pair = _pair_pattern(_chars(table, range(0xC2, 0xF5)), _chars(table, range(0x80, 0xC0)))
    return _Codec(name, pair, min_consecutive, min_scattered)


# Letters of the product's Latin-script alphabets (Vietnamese included), Cyrillic of ru/uk, and the common
# CJK blocks: what a repaired run must be written in, all of it in one of the three.
_REPAIR_LATIN = re.compile("[A-Za-zÀ-ÖØ-öø-ÿĂăĄąĆćČčĐđĘęĞğİıŁłŃńŒœŚśŞşŠšŹźŻżŽžƠơƯư\u1ea0-\u1ef9]+")
_REPAIR_CYRILLIC = re.compile(f"[{RU_UK_ALPHABET}]+")
_REPAIR_HAN_KANA = re.compile(f"[{CJK_PUNCTUATION}{KANA_BLOCKS}{UNIFIED_HAN}{FULLWIDTH_ASCII}]+")
_REPAIR_HANGUL = re.compile(f"[{CJK_PUNCTUATION}{HANGUL_SYLLABLES}]+")
_REPAIR_NEUTRAL = re.compile(r"[\s\u2010-\u206f\u00a0-\u00bf0-9]+")


def _coherent(repaired: str) -> bool:
    """Whether a repaired run reads as text: its letters all in one of our alphabets or the common CJK
    blocks. A chance round trip of real CJK text gives a jumble (``Ѱ踦``, ``Ŀ¼``, ``㼶ṹ``)."""
    letters = _REPAIR_NEUTRAL.sub("", repaired)
    scripts = (_REPAIR_LATIN, _REPAIR_CYRILLIC, _REPAIR_HAN_KANA, _REPAIR_HANGUL)
    return bool(letters) and any(p.fullmatch(letters) for p in scripts)


_NON_ASCII_BYTES = bytes(range(0x80, 0x100))
# Bytes by their role in UTF-8: "2", "3", "4" the lead byte of a sequence of that length, "C" a continuation.
_UTF8_BYTE_CLASSES = b"." * 0x80 + b"C" * 0x40 + b".." + b"2" * 30 + b"3" * 16 + b"4" * 5 + b"." * 11


def has_utf8_sequence(raw: bytes) -> bool:
    """Whether ``_UTF8_SEQUENCE`` matches in ``raw``: a translate, three substring tests (10x faster)."""
    classes = raw.translate(_UTF8_BYTE_CLASSES)
    return b"2C" in classes or b"3CC" in classes or b"4CCC" in classes


_CUT_PUNCTUATION = re.compile(rb"\xe2[\x80-\x9f]")  # U+2000-U+27FF (signs) less its last byte
_CUT_SEQUENCE = re.compile(rb"\xe2[\x80-\x9f](?![\x80-\xbf])")  # ... inside a run: no continuation follows


def _rare_hangul(char: str, codec: str) -> bool:
    """A hangul syllable outside KS X 1001 (which Python's EUC-KR spells as an 8-byte jamo sequence)."""
    return codec == "cp949" and _HANGUL_SYLLABLE.match(char) is not None and len(char.encode("euc_kr")) > 2


RARE_KANJI_MIN = 12  # kanji (in JIS X 0208) a text needs before its share of rare ones is read
RARE_KANJI_DISTINCT = 3  # distinct rare characters a misreading leaves at least (a name of two is a word)
RARE_KANJI_SHARE = 0.06  # share of the distinct kanji that are distinct rare ones that is mojibake (clean dev
# text of every set: at most 0.035 for Big5, the Book of Songs, 0.027 for JIS X 0208; the rule alone finds
# 99.5 % and 96 % of the dev Chinese, Japanese and Korean texts read as Big5 or EUC-JP, whole or from
# mid-text)
# The lead bytes of UTF-8's three-byte sequences of kana, Han and hangul (U+3000-U+DFFF): a misreading that
# dropped the bytes it could not read pairs each lead with its first continuation byte, a level-2 character
# in Big5 and JIS X 0208 both (rows C9-F9 and D0-F4)
_UTF8_CJK_LEADS = range(0xE3, 0xEE)


@functools.cache
def _jis_kanji() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Character classes of the JIS X 0208 kanji and of its rare ones: level 2 in a row of a UTF-8 lead
    byte (``_UTF8_CJK_LEADS``), and not among the common Chinese characters (GB 2312 level 1, Big5 level 1:
    于 and 价 are level 2 in Japan), from the codecs."""
    kanji, rare = [], []  # one character at a time: no table of 21,000 encodings held at once (RSS)
    for c in map(chr, range(0x4E00, 0xA000)):
        if len(raw := c.encode("euc_jp", errors="replace")) != 2:
            continue  # "?" or JIS X 0212 (3 bytes)
        kanji.append(c)
        gb, big5 = c.encode("gb2312", errors="replace"), c.encode("big5", errors="replace")
        chinese = (len(gb) == 2 and 0xB0 <= gb[0] <= 0xD7) or (len(big5) == 2 and 0xA4 <= big5[0] <= 0xC6)
        if raw[0] in _UTF8_CJK_LEADS and not chinese:
            rare.append(c)
    return re.compile(f"[{''.join(kanji)}]"), re.compile(f"[{''.join(rare)}]")


@functools.cache
def _common_han() -> re.Pattern[str]:
    """The common Chinese characters and kanji: GB 2312 level 1, Big5 level 1, JIS X 0208 level 1 (from
    the codecs, one character at a time)."""
    common = []
    for c in map(chr, range(0x4E00, 0xA000)):
        gb, big5 = c.encode("gb2312", errors="replace"), c.encode("big5", errors="replace")
        jis = c.encode("euc_jp", errors="replace")
        if ((len(gb) == 2 and 0xB0 <= gb[0] <= 0xD7) or (len(big5) == 2 and 0xA4 <= big5[0] <= 0xC6)
                or (len(jis) == 2 and 0xB0 <= jis[0] <= 0xCF)):  # fmt: skip
            common.append(c)
    return re.compile(f"[{''.join(common)}]")


def _mostly_common_han(letters: str) -> bool:
    """Whether at least half the Han characters of a repair are common ones (kana count as common): the
    repair of real mojibake is the reply's own text; a chance round trip gives rare characters."""
    han = _UNIFIED_HAN.findall(letters)
    return not han or 2 * len(_common_han().findall("".join(han))) >= len(han)


@functools.cache
def _big5_han() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """Character classes of the Big5 Han characters and of its rare ones: level 2 in a row of a UTF-8
    lead byte (``_UTF8_CJK_LEADS``, within C9-F9) and not among the common characters of GB 2312, Big5 or
    JIS X 0208 level 1 (``_common_han``). Level 2 as a whole is no mark: classical Chinese (the Book of
    Songs quoted in a fortune file) writes 9.5 % of its characters there, spread over all its rows."""
    common = _common_han()
    han, rare = [], []
    for c in map(chr, range(0x4E00, 0xA000)):
        if len(raw := c.encode("big5", errors="replace")) != 2:
            continue
        han.append(c)
        if raw[0] in _UTF8_CJK_LEADS and not common.match(c):
            rare.append(c)
    return re.compile(f"[{''.join(han)}]"), re.compile(f"[{''.join(rare)}]")


_CJK_CHARS = re.compile(f"[{HAN_KANA_LETTERS}]+")
_HAN_RUNS = re.compile(f"[{letter_ranges(HAN)}]+")
# A double-byte character's two bytes that are a UTF-8 continuation byte (A1-BF, those these codecs take as
# lead or trail) then a lead byte of a three-byte sequence of U+3000-U+DFFF (E3-ED), or the other way
# round: each byte is mapped to a weight, first bytes by one table and second bytes by the other, and a
# pair is one when its two weights sum to 3 (C, then L) or 20 (L, then C). A4 and A5 are left out as first
# bytes: EUC-JP's kana rows (``ョ`` is ``A5 E7``; katakana loanwords are full of them).
_FIRST_WEIGHTS = bytes(1 if 0xA1 <= b <= 0xBF and b not in (0xA4, 0xA5) else 4 if 0xE3 <= b <= 0xED else 0
                       for b in range(256))  # fmt: skip
_SECOND_WEIGHTS = bytes(2 if 0xE3 <= b <= 0xED else 16 if 0xA1 <= b <= 0xBF else 0 for b in range(256))
DROPPED_MIN_CHARS = 12  # Han and kana in the text's second half before their byte pairs are read
DROPPED_HANJA_SHARE = 0.35  # the same for the Han read back with cp949 (clean dev Chinese and Japanese of
# four corpora: at most 0.23; UTF-8 CJK read as EUC-KR with bytes dropped, where any is left: at least 0.35)
DROPPED_PAIR_SHARE = 0.25  # share of those whose bytes pair a UTF-8 lead and continuation byte (clean dev
# text: at most 0.19, Japanese as EUC-JP; UTF-8 CJK read with bytes dropped from mid-text on: at least 0.33)
DROPPED_DISTINCT_SLACK = 0.05  # ... and among the distinct characters, at most this much less: clean text
# past the share repeats a few pair-like words (dev of the twenty sets: distinct at most 0.18, 0.25 for
# hanja; a LibreOffice page of 表格 and 表單 reached 0.26 raw), the pairs of a misread stream are spread
# (of 66,134 misread dev texts the raw share calls, 29 are below this)
DROPPED_CLEAN_SHARE = 0.10  # the share must also be above this with DROPPED_CONFIDENCE_Z standard errors
DROPPED_CONFIDENCE_Z = 3.0  # to spare (``_wilson_low``): a share of a dozen characters is noisy (3 of 12 is
# 25 %, and ``我`` is a pair in EUC-JP), while clean Chinese and Japanese average 2-7 % (63,830 zh and ja
# catalogue strings: EUC-JP 4.3 %, Big5 2.4 %, cp949 hanja 6.8 %) and a misread stream's is mostly 60-100 %
# at any length; at 25 % the bound binds below 30 characters, at 35 % (hanja) never


def _wilson_low(hits: int, n: int, z: float) -> float:
    """The lower end of the Wilson score interval of a share ``hits`` of ``n`` at ``z`` standard errors."""
    share, z2 = hits / n, z * z
    spread = z * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n))
    return (share + z2 / (2 * n) - spread) / (1 + z2 / n)


def _utf8_pairs(chars: str, codec: str) -> int:
    """How many of ``chars`` (Han and kana) the codec encodes as a continuation and a lead byte of UTF-8.

    Every character the codec has becomes two bytes, so the pairs are the even and odd bytes: EUC-JP's
    three-byte ones (JIS X 0212, ``8F`` and two bytes) lose their ``8F``, and unencodable ones, a "?" each
    (no byte of a double-byte character is ASCII), are deleted. The weights of the first and of the
    second bytes are summed in one integer addition (no carry: at most 4 + 16), all at C speed: a regex
    over the pairs cost 40 µs a reply."""
    raw = chars.encode(codec, errors="replace").replace(b"?", b"").replace(b"\x8f", b"")
    first = int.from_bytes(raw[0::2].translate(_FIRST_WEIGHTS), "big")
    second = int.from_bytes(raw[1::2].translate(_SECOND_WEIGHTS), "big")
    sums = (first + second).to_bytes(len(raw) // 2, "big")
    return sums.count(3) + sums.count(20)


def _dropped_bytes(head: str) -> Corruption | None:
    """UTF-8 CJK text read as EUC-JP, Big5 or EUC-KR with the undecodable bytes dropped (``errors="ignore"``).

    Nothing is left to re-encode into whole sequences, but what is left are the sequences' bytes paired
    anew: a continuation byte with the next sequence's lead byte (E3-E9 for kana and Han), or a lead with
    its first continuation. Encoded back, most characters of the misread part are such a pair; real
    Chinese or Japanese text has a few (``ら`` is EUC-JP ``A4 E9``). The Han and kana of the text's
    second half are read: a misread stream stays misread to its end. EUC-KR's are read back with cp949,
    its superset, and only its Han (hanja): its kana rows (AA, AB) pair with E3-ED as often as EUC-JP's. The
    share holds among the distinct characters too: real text may say a few pair-like words over and over."""
    half = len(head) // 2
    tail = "".join(_CJK_CHARS.findall(head, half))
    if len(tail) < DROPPED_MIN_CHARS:
        return None
    han = "".join(_HAN_RUNS.findall(tail))
    for codec, chars, share in (
        ("euc_jp", tail, DROPPED_PAIR_SHARE),
        ("big5", tail, DROPPED_PAIR_SHARE),
        ("cp949", han, DROPPED_HANJA_SHARE),
    ):
        if len(chars) < DROPPED_MIN_CHARS:
            continue
        if (hits := _utf8_pairs(chars, codec)) >= share * len(chars) and (
            _wilson_low(hits, len(chars), DROPPED_CONFIDENCE_Z) >= DROPPED_CLEAN_SHARE
        ):
            distinct = "".join(dict.fromkeys(chars))
            if len(distinct) >= DROPPED_MIN_CHARS and _utf8_pairs(distinct, codec) < (
                share - DROPPED_DISTINCT_SLACK
            ) * len(distinct):
                continue  # a few words said over and over (``表格`` in a spreadsheet's manual), not pairs
            first = _CJK_CHARS.search(head, half)
            assert first is not None
            sample = tail[:24]
            return Corruption("mojibake", first.start(), sample, tuple(f"U+{ord(c):04X}" for c in sample),
                              codec=codec, repaired="", count=hits)  # fmt: skip
    return None


def split_runs(whole: bytes) -> Iterator[tuple[bytes, int]]:
    """Non-ASCII runs encoded at once, joined by ``"\\n"`` (see ``_cjk_mojibake``): per run its bytes and how
    many of them are well-formed UTF-8 (``len(raw.decode("utf-8", errors="ignore").encode())``)."""
    # "\n" is its own byte in UTF-8 and in no other character's: the well-formed part encoded back at once
    # splits into each run's (one encode, not one a run: 17 µs a codec on a Korean reply)
    valid = whole.decode("utf-8", errors="ignore").encode().split(b"\n")
    return zip(whole.split(b"\n"), map(len, valid), strict=True)


# What Latin text writes besides letters and a CJK misreading may repair to: Latin-1's signs (° ® © ² ·),
# × and ÷, general punctuation, the euro sign, letterlike symbols (™), arrows and mathematical operators.
_SIGNS = re.compile("[\u00a0-\u00bf\u00d7\u00f7\u2010-\u205e\u20ac\u2100-\u22ff]+")
_COMBINING = re.compile("[\u0300-\u036f]+")
_HALFWIDTH_KANA = re.compile(f"[{HALFWIDTH_KATAKANA}]")
_ALNUM = re.compile("[A-Za-z0-9\u00c0-\u024f]")
# A character of a double-byte reading glued to a Latin letter or digit, or a halfwidth katakana: where
# Latin-alphabet text can hold a misreading that no round trip below repairs
_STRAY_CANDIDATE = re.compile(
    f"[A-Za-z0-9]{_DOUBLE_BYTE_READING.pattern}|{_DOUBLE_BYTE_READING.pattern}[A-Za-z0-9]|{_HALFWIDTH_KANA.pattern}"
)


_FULLWIDTH_CJK = re.compile(f"[{KANA_BLOCKS}{HAN_BLOCKS}{HANGUL_SYLLABLES}{HAN_COMPATIBILITY}]")
STRAY_WINDOW = 12  # characters either side of a stray run that must hold no other CJK letter


def _glued(text: str, start: int, length: int) -> bool:
    """Whether the run at ``start`` touches a Latin letter or a digit (no space between), with no other
    kana, Han or hangul within ``STRAY_WINDOW`` characters: a Chinese or Japanese sentence quoted in Latin
    text glues its own words to numbers and names (``在3楼``, ``mysqlまたは``), a misreading stands alone
    (``45属``) or repeats itself (``Windows짰/Linux짰``)."""
    if not (_ALNUM.match(text[start - 1 : start]) or _ALNUM.match(text, start + length)):
        return False
    around = text[max(0, start - STRAY_WINDOW) : start] + text[start + length : start + length + STRAY_WINDOW]
    return set(_FULLWIDTH_CJK.findall(around)) <= set(text[start : start + length])


def _stray_in_latin(head: str, chunks: list[str], starts: list[int]) -> Corruption | None:
    """Double-byte characters that Latin-alphabet text (``_latin_text``) cannot hold, whatever they repair
    to: a halfwidth katakana (a cp932 reading's single bytes: ``Fuﾃ`` is ``Fuß`` missing its second
    byte, ``ecuacioﾌ］n`` a decomposed accent) glued to a Latin letter or digit, or re-encoding to
    well-formed UTF-8 (``ﾎｱ Crv`` is ``α Crv``), or one standing alone whose byte is the lead of a
    two-byte UTF-8 sequence (C2-DF) whose continuation the reading dropped or paired with the next byte
    (``ﾃ molto`` is ``È molto``; a halfwidth katakana word is never one letter); a run of hangul
    syllables none of which is in KS X 1001 (``볛밽``: real Korean is written in its 2,350, UTF-8's bytes
    pair into the rest). A CJK character
    between two Latin letters is no mark: a Japanese or Chinese sentence quoted in Latin text glues its
    Latin words to its own (``mysqlまたはpostgres``, ``Konsole，并在Ctrl``)."""
    for start, chars in zip(starts, chunks, strict=True):
        if not _DOUBLE_BYTE_READING.search(chars):
            continue  # accented Latin letters, punctuation
        codec = None
        if _HALFWIDTH_KANA.search(chars) and (
            _glued(head, start, len(chars))
            or _well_formed(raw := chars.encode("cp932", errors="replace"))
            or (len(raw) == 1 and 0xC2 <= raw[0] <= 0xDF)
        ):
            codec = "cp932"
        elif _HANGUL_RUN.fullmatch(chars) and all(_rare_hangul(c, "cp949") for c in chars):
            codec = "cp949"
        if codec is not None:
            return Corruption("mojibake", start, chars[:24], tuple(f"U+{ord(c):04X}" for c in chars[:24]),
                              codec=codec, repaired="")  # fmt: skip
    return None


GREEK_MIN_LETTERS = 2  # lone CJK characters of Latin text, each a misread Greek letter, that are mojibake


def _lone_greek(chunks: list[str], starts: list[int]) -> Corruption | None:
    """Greek letters of Latin-alphabet text (star names, units, formulas: ``δ Crucis``, ``5 μg``) read by
    a double-byte codec: a letter's two UTF-8 bytes (CE or CF and a continuation byte) make one CJK
    character on its own (``灌 Crucis`` in cp949, ``未 Crucis`` in GB18030, ``帤 Crucis`` in Big5). One
    lone CJK character is as often a word of its own; ``GREEK_MIN_LETTERS`` of them, each re-encoding in
    the same codec to a Greek letter, are not: a CJK word quoted in Latin text is written whole (``谢谢``),
    and about one Han character in a hundred re-encodes to a Greek letter at all."""
    singles = [(start, char) for start, char in zip(starts, chunks, strict=True) if len(char) == 1]
    singles = [(start, char) for start, char in singles if _HAN_BLOCK.match(char)]
    if len(singles) < GREEK_MIN_LETTERS:
        return None
    for codec in CJK_CODECS:
        found = []
        for start, char in singles:
            raw = char.encode(codec, errors="replace")
            if (
                len(raw) == 2
                and raw[0] in b"\xce\xcf"
                and 0x80 <= raw[1] <= 0xBF
                and "\u0391" <= (letter := raw.decode("utf-8")) <= "\u03c9"
            ):
                found.append((start, char, letter))
        if len(found) >= GREEK_MIN_LETTERS:
            start, char, _ = found[0]
            repaired = "".join(letter for *_, letter in found)[:24]
            return Corruption("mojibake", start, char, (f"U+{ord(char):04X}",), codec=codec,
                              repaired=repaired, count=len(found))  # fmt: skip
    return None


def _well_formed(raw: bytes) -> bool:
    """Whether ``raw`` is UTF-8 with at least one multi-byte sequence."""
    try:
        return not raw.isascii() and bool(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return False


def _cjk_mojibake(text: str, locale: str | None = None) -> Corruption | None:
    """UTF-8 read with a legacy East Asian codec, found by undoing it run by run: the first run whose
    repair is made of letters a reply in ``locale`` writes (``_own_repair``), so a CJK word whose chance
    round trip repairs to Han (``若욕벧`` -> ``崿度``) hides no repair further on (``xi첫d첫``: xiùdù).

    Each run of non-ASCII characters is encoded back with the codec; where the bytes are mostly
    (``CJK_MIN_COVERAGE``) well-formed UTF-8 sequences decoding to plausible characters, the run is
    mojibake. Real Chinese, Japanese or Korean text re-encoded in its own codec almost never is: its lead
    bytes are followed by other lead bytes (``你好`` in GBK is ``C4 E3 BA C3``), and where a chance round
    trip happens the repair is a jumble of scripts (``Ѱ踦``), not text (``_coherent``). A run that repairs
    to one letter only counts glued to the Latin word it belongs to (``caf茅``).
    """
    head = text[:CJK_SCAN_CHARS]  # with a CJK, hangul or halfwidth kana character (``find`` asks first)
    latin_text = functools.cache(lambda: _latin_text(head))  # asked only where a run could repair
    parts = _NON_ASCII_SPLIT.split(head)  # ASCII, run, ASCII, run, ..., ASCII
    chunks, starts = parts[1::2], list(itertools.accumulate(map(len, parts)))[:-1:2]
    # All runs in one encoding per codec (one per run cost 0.3-0.8 ms a CJK reply: Korean has one per word),
    # joined by "\n". These codecs are stateless and encode a non-ASCII character to bytes of 0x30 or more,
    # never "\n" or "?" (test_parts checks every code point), so the bytes split back into the runs' own
    # encodings, a "?" in a run's bytes is an unencodable character, and decoding the whole as UTF-8 decodes
    # each run (no UTF-8 sequence spans an ASCII byte).
    mostly_ascii = 2 * sum(map(len, chunks)) < len(head)  # no Latin-alphabet text is half non-ASCII
    if (
        mostly_ascii  # CJK text is skipped
        and _STRAY_CANDIDATE.search(head)
        and latin_text()
        and (found := _own_repair(_stray_in_latin(head, chunks, starts), locale))
    ):
        return found
    if mostly_ascii and (found := _lone_greek(chunks, starts)) and latin_text():
        return found  # the repair is Greek, no reply's own letters: not asked of ``_own_repair``
    joined = "\n".join(chunks)
    for codec in CJK_CODECS:
        # GB18030 spells a hangul syllable in four bytes, the second and fourth ASCII digits (slowly: a
        # Korean reply took 85 µs), so the first and third are never in a UTF-8 sequence and a run of them
        # is at most half well-formed: it cannot repair, and is encoded as an unencodable one, "?".
        line = _HANGUL_LINE.sub("?", joined) if codec == "gb18030" else joined
        whole = line.encode(codec, errors="replace")
        if b"?" in whole and b"\n\n" not in b"\n%b\n" % whole.translate(None, _BUT_MARK_AND_NEWLINE):
            continue  # each run has a character the codec cannot encode (Chinese in Big5 or cp949...): no
            # empty line is left once all but "?" and the separators are deleted (C speed, 5x a regex)
        if not has_utf8_sequence(whole) and not (
            (_CUT_PUNCTUATION.search(whole) or codec == "cp949") and latin_text()
        ):
            continue  # no run can repair: below, a repair needs a UTF-8 sequence or one of these two
        for start, chars, (raw, valid) in zip(starts, chunks, split_runs(whole), strict=True):
            # GB18030 and cp932 read the first two bytes of each of U+2000-U+27FF as one character (鈥, 窶)
            # and, with errors="ignore", pair the third with the byte after it or drop it: in Latin text a
            # run of those cut sequences (“\” is 鈥淺鈥) is as well-formed as a whole one
            cut = 0
            if mostly_ascii and b"\xe2" in raw and valid < len(raw) and latin_text():
                cut = 2 * len(_CUT_SEQUENCE.findall(raw))
                valid += cut
            # a quoted CJK word read dropping bytes keeps fewer whole sequences: half will do
            coverage = LOSSY_QUOTED_COVERAGE if _lossy_quoted(chars, raw, locale) else CJK_MIN_COVERAGE
            short = valid < coverage * len(raw)
            if (short and not (len(chars) == 1 and latin_text())) or b"?" in raw:
                continue  # unencodable, or at most that much is well-formed UTF-8 at all: real text
            if (
                len(chars) == 1
                and latin_text()
                and (_CUT_PUNCTUATION.fullmatch(raw) or _rare_hangul(chars, codec))
            ):
                # One CJK character in Latin-alphabet text that is the first two bytes of UTF-8
                # punctuation (“ ” – • → − ▸ start E2 80-9F) whose third byte was dropped (errors="ignore"),
                # or a hangul syllable only cp949's extension has (real Korean is written in KS X 1001's
                # 2,350): the continuation bytes of a sequence whose lead was dropped ("“I" is "쏧").
                return Corruption("mojibake", start, chars, (f"U+{ord(chars):04X}",), codec=codec,
                                  repaired=raw.hex(" "))  # fmt: skip
            if short:
                continue
            # ASCII bytes count as repaired where the whole run is well-formed UTF-8: a double-byte
            # reading swallowed the letter after a sequence ("będzie" read as cp932 is "bﾄ囘zie", whose
            # second character took the "d").
            covered = cut + (len(raw.translate(None, _NON_ASCII_BYTES)) if valid == len(raw) else 0)
            decoded: list[str] = []
            for match in _UTF8_SEQUENCE.finditer(raw):
                try:
                    piece = match.group().decode("utf-8")
                except UnicodeDecodeError:
                    continue
                if _plausible_latin(piece):
                    covered += len(match.group())
                    decoded.append(piece)
            if not decoded or covered < coverage * len(raw):
                continue
            repair = "".join(decoded)
            if (
                (_SIGNS.fullmatch(repair) and _glued(head, start, len(chars)))
                or (_COMBINING.fullmatch(repair) and _LATIN_LETTER.match(head[start - 1 : start]))
            ) and latin_text():
                # Latin text's signs ("45属" is 45°, "Windows짰" Windows®) glued to the word or number they
                # follow, or a decomposed accent after its letter ("seleccio虂n"): no CJK word is written so
                found = Corruption("mojibake", start, chars, tuple(f"U+{ord(c):04X}" for c in chars[:24]),
                                   codec=codec, repaired=repair[:24])  # fmt: skip
                if _own_repair(found, locale):
                    return found
                continue
            letters = _REPAIR_NEUTRAL.sub("", repair)
            if not letters:
                # Quotes or dashes only ("芦Pacchetti禄" is «Pacchetti»): a CJK character inside text
                # written in the Latin alphabet, standing for punctuation Latin text uses, is mojibake.
                if not (latin_text() and _TYPOGRAPHY.fullmatch("".join(decoded))):
                    continue
            elif not _coherent("".join(decoded)):
                continue
            elif _REPAIR_CYRILLIC.fullmatch(letters) and (
                latin_text() or _CYRILLIC_WORD.search(head, start + len(chars))
            ):
                # A CJK word in Latin-alphabet text ("*谢谢*" re-encoded is "лл"), or followed by Cyrillic
                # words: these codecs read UTF-8 Cyrillic (lead bytes D0-D4) as CJK or drop it, so Cyrillic
                # decoded after the run means the stream was read right there, the run written as it is.
                continue
            elif _REPAIR_HAN_KANA.fullmatch(letters) and not _mostly_common_han(letters):
                continue  # a chance round trip of real Korean ("백성들에" -> "鼺鿡"): rare characters
            quoted = _quoted_cjk(chars, raw, letters, locale)
            if (
                len(letters) == 1
                and not (_REPAIR_LATIN.fullmatch(letters) or _REPAIR_CYRILLIC.fullmatch(letters))
                and not quoted
            ):
                continue  # one CJK character is a word of its own, not a repaired accent
            if len(letters) == 1 and not latin_text() and not _LATIN_LETTER.match(text[start - 1 : start]):
                # One repaired letter counts glued to the Latin word it belongs to ("caf茅"), or anywhere
                # in Latin-alphabet text (Italian "è" is a word: "opzione 猫 usata").
                continue
            found = Corruption(
                "mojibake",
                start,
                chars[:24],
                tuple(f"U+{ord(c):04X}" for c in chars[:24]),
                codec=codec,
                repaired="".join(decoded)[:24],
            )
            if _own_repair(found, locale) or quoted:
                return found
    return None


def _quoted_cjk(chars: str, raw: bytes, letters: str, locale: str | None) -> bool:
    """Whether ``chars``, re-encoded as ``raw`` and repaired to the CJK ``letters``, is a CJK word that a
    reply in a non-CJK ``locale`` quoted (``天狼星``, ``中国``) misread by a double-byte codec. The codecs
    read UTF-8's lead bytes of CJK (E3-E9) as the lead bytes of their second level, so a misreading holds
    a character that text rarely uses (outside ``_common_han``, or a hangul syllable outside KS X 1001),
    where a word quoted as it is is written in common ones (cp932 reads a continuation byte alone as a
    halfwidth katakana, which no CJK word mixes with Han). Its repair is two CJK letters or more; or one,
    where the run is two characters or more all of whose bytes are UTF-8 leads and continuations (a lossy
    reading dropped the rest of the sequences: ``銝剖`` is ``中`` and the lead of ``国``)."""
    if not _alphabet_locale(locale) or len(_REPAIR_CJK_LETTERS.findall(letters)) != len(letters):
        return False
    if not any(_rare_cjk(c) for c in chars):
        return False
    return len(letters) >= 2 or _lossy_quoted(chars, raw, locale)


def _lossy_quoted(chars: str, raw: bytes, locale: str | None) -> bool:
    """Whether ``chars`` (re-encoded as ``raw``) may be a quoted CJK word read dropping bytes: two characters
    or more, in a reply of a non-CJK ``locale``, all of whose bytes are UTF-8 leads of CJK and continuations
    (what is left of a stream of three-byte sequences), one of them a rare character (``_quoted_cjk``).
    Its repair may then cover ``LOSSY_QUOTED_COVERAGE`` of the bytes (``銝剖`` is ``中`` and a lead byte)."""
    if len(chars) < 2 or not _alphabet_locale(locale) or raw.translate(None, _UTF8_LEADS_AND_CONTINUATIONS):
        return False
    return any(_rare_cjk(c) for c in chars)


@functools.cache
def _alphabet_locale(locale: str | None) -> bool:
    """Whether ``locale`` is known and written in no CJK script."""
    return locale is not None and (spec := LOCALES.get(locale)) is not None and not spec.scripts & CJK_SCRIPTS


_REPAIR_CJK_LETTERS = re.compile(f"[{KANA_BLOCKS}{UNIFIED_HAN}{HANGUL_SYLLABLES}]")
_UTF8_LEADS_AND_CONTINUATIONS = bytes(range(0x80, 0xC0)) + bytes(range(0xE0, 0xF0))


def _rare_cjk(char: str) -> bool:
    """A Han character outside ``_common_han``, a hangul syllable outside KS X 1001, or a halfwidth
    katakana (JIS X 0201's single bytes: cp932 reads a lone continuation byte A1-BF as one)."""
    if _UNIFIED_HAN.match(char):
        return _common_han().match(char) is None
    return _rare_hangul(char, "cp949") or _HALFWIDTH_KANA.match(char) is not None


def _lost_apostrophe(text: str) -> Corruption | None:
    """English whose typographic apostrophes a lossy decoder dropped (UTF-8 read as Big5 or EUC-JP with
    ``errors="ignore"`` deletes U+2019 and leaves no character behind): a contraction spelt without one
    (``didnt``, ``theyll``, ``Im glad``, ``It cant``, ``Lets get``, ``Its a``: ``_BARE_PHRASES``) in a text
    with no ASCII apostrophe (its writer's apostrophes would have survived), after its last U+2019 (the
    stream was read right up to there). Not the ones that are words when bare (``its``, ``cant``,
    ``wont``, ``were``) where their neighbours allow the word, nor one in a shout."""
    after = text.rfind("\u2019") + 1
    rest = text[after:]
    lower = rest.lower()
    found = None
    words = set(_ASCII_WORD.findall(lower))
    if _BARE_CONTRACTION_SET.intersection(words):  # the words at C speed: the
        # word-bounded search is slow (30 alternatives), and substring tests pass on most English ("ashes")
        # a shout is left out (``WHERES MY CHANCE``: a writer's style)
        found = next((m for m in _BARE_CONTRACTION.finditer(text, after) if not m.group().isupper()), None)
    for pattern in {_BARE_PHRASES[w] for w in words.intersection(_BARE_PHRASES)}:
        mine = next((m for m in pattern.finditer(text, after)
                     if pattern is not _LETS or _clause_start(text, m.start())), None)  # fmt: skip
        found = mine if found is None or (mine is not None and mine.start() < found.start()) else found
    if found is None or found.start() > 0:
        mine = _lost_possessive(text, words, after, found.start() if found else len(text))
        found = mine or found
    return Corruption("lost_apostrophe", found.start(), found.group(), ()) if found else None


# A possessive whose apostrophe was lost, told by the plural English writes instead: a noun ending in a
# consonant and "y", or in "x", "z" or "sh", makes its plural with "ies" or "es" ("companies", "boxes"), so
# the bare "s" form before a word ("companys website") is a possessive ("company’s") whose apostrophe was
# deleted. Not the nouns in "s" (a lexicon cannot tell "bus" from a plural) nor in "ch" ("epochs", "techs").
_POSSESSIVE_STEM = re.compile("[a-z]{2,}(?:[b-df-hj-np-tv-z]y|x|z|sh)")


@functools.cache
def _possessive_forms() -> frozenset[str]:
    """The bare possessives of ``_POSSESSIVE_STEM`` nouns of the English lexicon that are no English word:
    absent from the lexicon and ``STRONG_REMNANT_GAP`` rarer than their noun in the fullest list (web text
    drops apostrophes too: ``companys``, Zipf 2.21, against ``company`` 5.5); not the plural of a name or a
    compound in "y" (``kennedys`` 2.59 against 4.28, ``standbys``), whose plural is in "s"."""
    english = lexicon("en")
    forms = {stem + "s": stem for stem in english.ranks if _POSSESSIVE_STEM.fullmatch(stem)}
    forms = {form: stem for form, stem in forms.items() if form not in english.ranks}
    listed, floor = fullest_zipf("en", forms)
    return frozenset(
        form
        for form, stem in forms.items()
        if english.zipf[stem] - listed.get(form, floor) >= STRONG_REMNANT_GAP
    )


def _lost_possessive(text: str, words: set[str], start: int, end: int) -> re.Match[str] | None:
    """The first bare possessive (``_possessive_forms``) before a word between ``start`` and ``end``."""
    if not (found := _possessive_forms().intersection(words)):
        return None
    pattern = re.compile(rf"\b(?:{'|'.join(sorted(found))})(?= [A-Za-z])")
    return pattern.search(text, start, end)


LOST_MARKS_MIN = 2  # marks of deleted characters after the last non-ASCII character that call it corrupt
LOST_OWN_WORDS = 0.8  # share of the other distinct lowercase words there the locale's lexicon lists (misread
# Italian, Dutch, English of the fiction dev split: 0.84-0.97; a whole reply in a close language: 0.12-0.68)
LOST_OWN_WORDS_STRONG = 0.5  # ... with two strong remnants: Polish misread loses letters in most words, and
# the lexicon's 30,000 forms miss the rest of the broken ones (0.59-0.75 on the fiction dev splits)
_ASCII = "".join(map(chr, range(0x80)))
_ASCII_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_GAP = re.compile("[A-Za-z]  (?=[A-Za-z])")
# A double space between two capitalised words: a deleted arrow or dash of a menu path or a pair of names
# (``File → Save`` -> ``File  Save``). A typist's double space falls between any two words, mostly
# lowercase ones: in 120,168 human-written translated strings of 100 characters or more (the gettext
# catalogues of the fiction and documentation builders, whitespace as written) 396 hold one after their
# last non-ASCII character, 5 between two capitalised words (0.004 %; 1 of 22,215 in English).
_CAPITAL_GAP = re.compile(r"(?<![\w])[A-Z][a-z]+  (?=[A-Z][a-z])")
_LOWER_WORD = re.compile(r"\b[a-z]+\b")
SMALL_LIST_FLOOR = 3.0  # Zipf: wordfreq's small lists hold the words at least this frequent


REMNANT_MIN_GAP = 1.0  # Zipf points a remnant listed at all is below its word (ten times rarer): ``levait``
# (Zipf 2.95) is a French word of its own, ``élevait`` 3.67
ENGLISH_REMNANT_MAX = 2.0  # Zipf in English's fullest list at which a remnant is an English word instead
STRONG_REMNANT_GAP = 2.5  # ... one remnant this far below its word (300 times rarer) is a mark enough:
# ``citt`` 2.99 against ``città`` 5.77, ``bdzie`` unlisted against ``będzie`` 6.29; on the clean dev splits of
# all eighteen fiction and documentation sets the remnants of real text are at most 2.44 below (``onest``)


# The elided articles, pronouns and prepositions of languages that write them before a vowel with an
# apostrophe (``l’importo``, ``dell’intestazione``, ``l’écran``, ``jusqu’ici``, ``s’applique``); a lossy
# decoder glues them to the word (``limporto``): a word of the lexicon after one of these, the whole no word
# of it, is a mark of a lost apostrophe. French elides every one-letter pronoun and particle (ce, je, me, ne,
# se, te, de, le/la) before a vowel in writing; Italian writes its one-letter ones (``c’è``, ``m’ha``) rarely,
# and they start many words (``centrare`` is c + entrare): left out. Not a word shorter than
# ``ELIDED_MIN_LETTERS`` after the prefix.
_ELISIONS = {
    "it": ("l", "dell", "nell", "all", "dall", "sull", "quest", "quell", "un"),
    "fr": ("l", "d", "qu", "jusqu", "lorsqu", "puisqu", "quelqu", "c", "j", "m", "n", "s", "t"),
}
ELIDED_MIN_LETTERS = 4
_ELIDED_VOWEL = tuple("aeiouhàâèéêìîòôùû")


def _elided(words: Iterable[str], locale: str) -> set[str]:
    """The words of ``words`` (lowercase, none a word of the lexicon) that are an elided article or
    preposition of ``locale``'s language glued to a word of its lexicon (``_ELISIONS``)."""
    if (prefixes := _ELISIONS.get(locale)) is None:
        return set()
    ranks = lexicon(locale).ranks
    return {
        word
        for word in words
        for prefix in prefixes
        if word.startswith(prefix)
        and len(rest := word[len(prefix) :]) >= ELIDED_MIN_LETTERS
        and rest.startswith(_ELIDED_VOWEL)
        and rest in ranks
    }


@functools.cache
def _listed_elisions(locale: str) -> frozenset[str]:
    """The glued forms of ``_ELISIONS`` (a prefix and a word of the lexicon) that ``wordfreq``'s fullest
    list of the language holds (down to Zipf 1 for Italian and French: one occurrence per billion words):
    words of their own or spellings web text uses (``calma`` is c + alma, ``allarmati`` all + armati,
    ``desso``). A glued form the list lacks is written nowhere: one in a reply is a mark as strong as a
    remnant ``STRONG_REMNANT_GAP`` rarer than its word (on the clean dev splits of the twenty-three fiction
    and documentation sets: none; in their misread copies ``lintestazione``, ``lopzione``, ``unombra``,
    ``dinstructions``, ``lannexe``). Computed once per locale (one read of the list); only the listed ones
    are kept (a few hundred to two thousand)."""
    words = lexicon(locale).ranks
    glued = {
        prefix + word
        for word in words
        if len(word) >= ELIDED_MIN_LETTERS and word.startswith(_ELIDED_VOWEL)
        for prefix in _ELISIONS[locale]
    }
    return frozenset(fullest_zipf(locale, glued.difference(words))[0])


# Languages that write ß, which ``wordfreq`` casefolds to "ss": a lexicon's "ss" may be one letter.
_SHARP_S_LANGUAGES = frozenset({"de"})


@functools.cache
def _remnants(locale: str) -> dict[str, float]:
    """What the words of ``locale``'s lexicon with a non-ASCII letter or an apostrophe leave once a lossy
    decoder deletes those characters (``città`` -> ``citt``, ``all'interno`` -> ``allinterno``), where
    that is no word of the language nor of English: of three letters or more, rarer than Zipf 3 (no
    word of ``wordfreq``'s small list: Polish ``ruszaj`` is rarer than the lexicon's 30,000 words), and
    absent from its fullest list or ``REMNANT_MIN_GAP`` below the word: remnant -> how many Zipf points
    it is below its most frequent word (``lexicon.fullest_zipf``; an unlisted one at the list's floor)."""
    try:
        lexicon_of_locale, english = lexicon(locale), lexicon("en").ranks
    except (LookupError, RuntimeError):
        return {}
    words, zipf = lexicon_of_locale.ranks, lexicon_of_locale.zipf
    left: dict[str, str] = {}
    sharp_s = lexicon_of_locale.language in _SHARP_S_LANGUAGES
    for word in words:  # most frequent first: a remnant is measured against its most frequent word
        if word.isascii() and "'" not in word and not (sharp_s and "ss" in word):
            continue
        kept = "".join(c for c in word if c.isascii() and c != "'")
        # casefolded ß: ``draussen`` is ``draußen``, read as ``drauen`` (``müssen`` as ``mssen``)
        for rest in (kept, kept.replace("ss", "")) if sharp_s and "ss" in kept else (kept,):
            if len(rest) >= 3 and rest.isalpha() and rest not in words and rest not in english:
                left.setdefault(rest, word)
    listed, floor = fullest_zipf(lexicon_of_locale.language, left)
    in_english = fullest_zipf("en", left)[0] if lexicon_of_locale.language != "en" else {}
    out: dict[str, float] = {}
    for rest, word in left.items():
        rest_zipf = listed.get(rest)
        gap = round(zipf.get(word, SMALL_LIST_FLOOR) - (floor if rest_zipf is None else rest_zipf), 2)
        if in_english.get(rest, 0.0) >= ENGLISH_REMNANT_MAX:
            continue  # an English word in any reply (``installs``, Zipf 2.95, in French about a command)
        if rest_zipf is None or (rest_zipf < SMALL_LIST_FLOOR and gap >= REMNANT_MIN_GAP):
            out[rest] = gap
    return out


# Italian writes an accent on a word's last vowel only (``città``, ``perché``, ``sarà``: the stress of a word
# ending in it), and none of its own words ends in a consonant but a closed set of short function words
# and borrowings; a lossy decoder that deletes the accented vowel leaves a stem ending in a consonant
# (``sarà`` -> ``sar``, ``tradurrà`` -> ``tradurr``, ``elasticità`` -> ``elasticit``). The stems of the
# fullest list's words down to ``FINAL_ACCENT_MIN_ZIPF`` (beyond the lexicon's 30,000 forms: the future
# of every verb), where the list itself lacks the stem and English writes no such word, are marks enough
# one at a time: on the clean dev splits of the twenty-three fiction and documentation sets none occurs.
# Other languages end words in consonants, and their fullest lists lack real inflected forms (Polish
# ``eksportuj``, Turkish ``uyarlar``): not theirs.
_FINAL_ACCENT_LANGUAGES = frozenset({"it"})
FINAL_ACCENT_MIN_ZIPF = 2.0  # Zipf: a word a hundred times per billion words (``annullerà`` 2.13)
_FINAL_ACCENT = re.compile("[a-z]{2,}[b-df-hj-np-tv-z][àèéìíòóù]")


@functools.cache
def _final_accent_stems(locale: str) -> frozenset[str]:
    """What the words of ``locale``'s fullest list ending in an accented vowel after a consonant leave
    once that vowel is deleted, where the list lacks it and English's fullest list holds it below
    ``ENGLISH_REMNANT_MAX`` (``unità`` -> ``unit``, an English word, is left out); empty outside
    ``_FINAL_ACCENT_LANGUAGES``. Computed once per locale (two reads of the list)."""
    try:
        language = lexicon(locale).language
    except (LookupError, RuntimeError):
        return frozenset()
    if language not in _FINAL_ACCENT_LANGUAGES:
        return frozenset()
    words = fullest_words(
        language, lambda word: _FINAL_ACCENT.fullmatch(word) is not None, FINAL_ACCENT_MIN_ZIPF
    )
    stems = {word[:-1] for word in words}
    stems.difference_update(fullest_zipf(language, stems)[0])
    english = fullest_zipf("en", stems)[0]
    return frozenset(stem for stem in stems if english.get(stem, 0.0) < ENGLISH_REMNANT_MAX)


def _between_capitals(text: str, gap: tuple[int, str]) -> bool:
    """Whether the double space of ``text`` at ``gap`` (a ``_GAP`` match) lies between two capitalised
    words (``_CAPITAL_GAP``) on a line with no other double space and no indent: not columns aligned
    with spaces (``Name  Value``), which repeat the gap."""
    at = gap[0]
    start, end = text.rfind("\n", 0, at) + 1, text.find("\n", at)
    line = text[start : len(text) if end < 0 else end]
    if line.startswith(" ") or line.count("  ") != 1:
        return False
    word = at
    while word > 0 and text[word - 1] in _ASCII_LETTERS:
        word -= 1
    return _CAPITAL_GAP.match(text, word) is not None


def _lost_characters(text: str, locale: str) -> Corruption | None:
    """Latin-script text read by a legacy CJK codec with ``errors="ignore"``: every non-ASCII character is
    deleted from where the misreading starts (nothing CJK is left when no two bytes paired). After the
    text's last non-ASCII character, ``LOST_MARKS_MIN`` marks of deleted characters: a double space
    between two words (a spaced dash, ``emas — Aku`` -> ``emas  Aku``) or a remnant of a word of the
    language (``_remnants``: ``umanit``, ``allestremo``), or one remnant ``STRONG_REMNANT_GAP`` rarer than
    its word (``modalit``), or one elided article glued to its word that the language's fullest list does
    not hold (``_elided``: ``limporto``), in text of the language (``LOST_OWN_WORDS``). One double space
    or one remnant of a rarer word is a typo (0.8 % of human-written prose strings of 200 characters or
    more in gettext catalogues have a double space between words, 0.04 % two)."""
    head = text.rstrip(_ASCII)
    tail = text[len(head) :].lstrip(_ASCII_LETTERS) if head else text  # from a whole word on
    gaps = [(m.start(), m.group()) for m in _GAP.finditer(tail)] if "  " in tail else []
    _capital_gap = functools.partial(_between_capitals, tail)
    remnants = _remnants(locale)
    # distinct ones, at C speed; capitalised too ("Szczliwie", "GESCHFTEN": no name is a remnant)
    lowered = set(_LOWER_WORD.findall(tail.lower()))
    words = remnants.keys() & lowered
    stems = _final_accent_stems(locale).intersection(lowered)
    strong = len({w for w in words if remnants[w] >= STRONG_REMNANT_GAP} | stems) + sum(
        map(_capital_gap, gaps)
    )
    words |= stems
    written = None
    if locale in _ELISIONS and "'" not in tail:  # a writer's own apostrophes would be there (a typo)
        written = set(_LOWER_WORD.findall(tail))
        ranks = lexicon(locale).ranks  # asked word by word: a set less a dict's keys copies the keys
        elided = _elided([w for w in written if w not in ranks], locale)
        words |= elided
        strong += len(elided - _listed_elisions(locale))
    if len(gaps) + len(words) < LOST_MARKS_MIN and not strong:
        return None
    if written is None:
        written = set(_LOWER_WORD.findall(tail))  # the text's words, names left out
    own = LOST_OWN_WORDS if strong < 2 else LOST_OWN_WORDS_STRONG
    if len(written & lexicon(locale).ranks.keys()) < own * len(written - words):
        return None  # not the locale's language: Indonesian holds remnants of Turkish words (a switch)
    places = [*gaps, *((m.start(), w) for w in words if (m := re.search(rf"\b{w}\b", tail, re.IGNORECASE)))]
    at, sample = min(places)
    return Corruption("lost_characters", len(text) - len(tail) + at, sample, (), count=len(places))


@dataclass(frozen=True, slots=True)
class Corruption:
    """What was found: ``kind`` is ``replacement_character``, ``control_character``, ``bidi_control``,
    ``private_use``, ``mojibake``, ``lost_apostrophe`` or ``lost_characters``."""

    kind: str
    offset: int  # character offset of the first finding
    sample: str  # the corrupted characters as they appear (escaped for control characters)
    codepoints: tuple[str, ...]  # e.g. ("U+00C3", "U+00A9")
    codec: str | None = None  # mojibake: the codec the UTF-8 bytes were wrongly read with
    repaired: str | None = None  # mojibake: what the characters were meant to be
    count: int = 1

    def as_evidence(self) -> dict[str, object]:
        out: dict[str, object] = {
            "kind": self.kind,
            "offset": self.offset,
            "sample": self.sample,
            "codepoints": list(self.codepoints),
            "count": self.count,
        }
        if self.codec is not None:
            out["codec"] = self.codec
            out["repaired"] = self.repaired
        return out


class EncodingChecker:
    """Finds encoding corruption; build once (it precomputes codec tables) and reuse."""

    def __init__(self) -> None:
        # cp1252 covers Latin-1 too: undefined cp1252 bytes map to the C1 characters Latin-1 produces.
        self._latin = _codec("cp1252", 1, 1)
        self._cyrillic = _codec("cp1251", 2, 2)
        self._kanji, self._rare = _jis_kanji()
        self._big5, self._big5_rare = _big5_han()

    def warm(self, locale: str) -> None:
        """Build the tables ``find`` reads for replies in ``locale`` (its own characters, how other
        single-byte codecs misread them: 10-50 ms, once per process) before its first reply."""
        _own_characters(locale)
        _misreading(locale)

    def find(self, text: str, locale: str | None = None) -> Corruption | None:
        """The first kind of corruption found, or None for clean text; ``locale`` (the asked one) enables
        the checks of that language's writing (English contractions: ``_lost_apostrophe``).

        >>> EncodingChecker().find("ok\\x07") is not None
        True
        """
        if _ANY_SUSPICIOUS.search(text):  # one scan for the four kinds of character: mostly none
            for pattern, kind in _CHARACTER_KINDS:
                if first := pattern.search(text):
                    chars = pattern.findall(text)
                    sample = first.group()
                    return Corruption(
                        kind,
                        first.start(),
                        sample if sample == _REPLACEMENT else sample.encode("unicode_escape").decode("ascii"),
                        tuple(f"U+{ord(c):04X}" for c in dict.fromkeys(chars)),
                        count=len(chars),
                    )
        if found := self._mojibake(text, self._latin, _plausible_western_reading):
            return found
        if locale is not None and (found := self._other_single_byte(text, locale)):
            return found
        if locale == "en" and "'" not in text and (found := _lost_apostrophe(text)):
            return found
        if locale in LATIN_LOCALES and (found := _lost_characters(text, locale)):
            return found
        if not _CYRILLIC_OR_CJK.search(text):
            return None  # the checks below all need Cyrillic (cp1251's lead bytes) or CJK characters
        if _DOUBLE_BYTE_READING.search(text, 0, CJK_SCAN_CHARS) and (
            (found := _cjk_mojibake(text, locale))
            or (found := self._rare_kanji(text, self._kanji, self._rare, "euc_jp"))
            or (found := self._rare_kanji(text, self._big5, self._big5_rare, "big5"))
            or (found := _dropped_bytes(text[:CJK_SCAN_CHARS]))
        ):
            return found  # UTF-8 read by these codecs always gives CJK, hangul or halfwidth kana: one scan
        if not self._cyrillic.pair.search(text):
            return None  # no UTF-8 sequence can start anywhere in a cp1251 reading
        # The suspicious pairs are set aside only in a text with Latin letters (the rare case: Cyrillic text
        # has many of them, and listing them cost 10-20 µs a reply).
        if _LATIN_LETTERS.search(text) and _latin_context(text, self._cyrillic.pair.findall(text)):
            # Cyrillic letters in a Latin-script text only where the round trip decodes to UTF-8
            # (``ГЁ``, ``В»``): one sequence suffices, as for cp1252.
            found = self._mojibake(text, self._cyrillic, _plausible_latin, min_scattered=1)
            return _own_repair(found, locale)
        return _own_repair(self._mojibake(text, self._cyrillic, _plausible_cyrillic_reading), locale)

    def _other_single_byte(self, text: str, locale: str) -> Corruption | None:
        """UTF-8 read with one of ``OTHER_SINGLE_BYTE_CODECS``: the round trip of each, the repair made of
        the reply's own characters (``_misreading``)."""
        if text.isascii() or (misreading := _misreading(locale)) is None:
            return None
        for group, readers in misreading.groups:
            if (first := group.search(text)) is None:
                continue
            # a codec's pairs are pairs of its group (its leads and continuations are the group's): none
            # starts before the group's first
            start = first.start()
            for codec, checks in readers:
                if any(check.search(text, start) for check in checks) and (
                    found := self._mojibake(text, codec, misreading.plausible, checked=True)
                ):
                    return found
        return None

    @staticmethod
    def _rare_kanji(
        text: str, kanji_class: re.Pattern[str], rare_class: re.Pattern[str], codec: str
    ) -> Corruption | None:
        """UTF-8 CJK text read as EUC-JP or Big5 with the undecodable bytes dropped: the pairs left are
        mostly a UTF-8 lead byte and its continuation, level-2 characters of the codec in the rows of
        UTF-8's lead bytes (``_UTF8_CJK_LEADS``), which real text uses sparingly; nothing is left to
        re-encode, so the share of those rare characters is the signal. Among the distinct characters:
        a rare word that recurs (a sceptre, ``笏``, named in every sentence of a story; a poem's
        reduplicated ``騑騑``) is the text's own, a misreading's pairs are spread."""
        head = text[:CJK_SCAN_CHARS]
        rare = dict.fromkeys(rare_class.findall(head))
        if len(rare) < RARE_KANJI_DISTINCT:
            return None  # the common case: no count of all kanji needed
        kanji = kanji_class.findall(head)
        if len(kanji) < RARE_KANJI_MIN or len(rare) < RARE_KANJI_SHARE * len(set(kanji)):
            return None
        first = rare_class.search(head)
        assert first is not None
        sample = "".join(list(rare)[:24])
        return Corruption("mojibake", first.start(), sample, tuple(f"U+{ord(c):04X}" for c in sample),
                          codec=codec, repaired="", count=len(rare))  # fmt: skip

    @staticmethod
    def _mojibake(
        text: str,
        codec: _Codec,
        plausible: Callable[[str], bool],
        min_scattered: int | None = None,
        checked: bool = False,
    ) -> Corruption | None:
        if not checked and not codec.pair.search(text):  # no UTF-8 sequence can start anywhere: common
            return None
        found: list[tuple[int, str, str]] = []  # (offset, corrupted, repaired) of consecutive streaks
        scattered: list[tuple[int, str, str]] = []  # lone sequences, kept in case there are enough of them
        # One byte per character, so offsets line up: each character the codec has becomes its byte value,
        # any other one a "?" (C speed, the whole text at once; the codec's undefined bytes are C1 controls,
        # found before). A UTF-8 sequence never spans an ASCII or foreign character, so the sequences found
        # are those of the codec's runs, one run at a time.
        raw = _encode(text, codec.name)
        if not has_utf8_sequence(raw):
            return None  # the pairs found are not whole sequences (Cyrillic text has many pairs)
        streak: list[tuple[int, int, str]] = []
        last_end = -1  # where the last UTF-8 sequence before the current one ends
        glued = False  # whether the streak's first character follows a character outside any sequence
        quoted = False  # ... one that is no letter (an opening quotation mark)
        for match in [*_UTF8_SEQUENCE.finditer(raw), None]:
            if len(found) >= MAX_FINDINGS:
                break  # enough to decide and to show; the count is then a lower bound
            decoded = ""
            if match is not None:
                try:
                    decoded = match.group().decode("utf-8")
                except UnicodeDecodeError:  # overlong forms and surrogates: not UTF-8 after all
                    decoded = ""
            contiguous = match is not None and bool(streak) and streak[-1][1] == match.start()
            if streak and not (decoded and plausible(decoded) and contiguous):
                start, end = streak[0][0], streak[-1][1]
                piece = (start, text[start:end], "".join(p for *_, p in streak))
                # glued to a character the codec has outside any sequence: the stream is not UTF-8 there
                after = (
                    end < len(raw) and raw[end] >= 0x80 and not (decoded and match and match.start() == end)
                )
                glued = glued or after
                if codec.words_are_text and piece[1].isalpha() and piece[1].islower():
                    pass  # a piece of a word (``яко`` in CP866 is U+7C7B), not mojibake
                elif quoted and len(streak) == 1:
                    pass  # one pair after a sign that is not UTF-8 around it: a quoted capital («Ñ», „Ä“)
                elif len(streak) == 1 and _word_end_and_typography(text, start, end, piece[2]):
                    pass  # a word's last letter and a no-break space and guillemet after it, not CJK
                elif (
                    len(streak) >= codec.min_consecutive
                    # a stream misread to its end leaves no character outside a sequence after a piece: one
                    # glued to such a character is the text's own (camel case ``ВіртАдр``, ``мтДНК`` in CP866)
                    or (codec.alone_bytes and end - start >= codec.alone_bytes and not after)
                    or _inside_latin_word(text, start, end - start)
                ):
                    found.append(piece)
                elif not _UKRAINIAN.intersection(piece[1]) and not glued:
                    scattered.append(piece)
                streak = []
            if match is not None and decoded and plausible(decoded):
                if not streak:
                    at = match.start()
                    glued = at > 0 and raw[at - 1] >= 0x80 and last_end != at
                    quoted = glued and not text[at - 1].isalpha()
                streak.append((match.start(), match.end(), decoded))
            if match is not None and decoded:
                last_end = match.end()
        if not found and len(scattered) >= (min_scattered or codec.min_scattered):
            found = scattered
        if not found:
            return None
        offset, corrupted, repaired = found[0]
        return Corruption(
            "mojibake",
            offset,
            corrupted,
            tuple(f"U+{ord(c):04X}" for c in corrupted),
            codec=codec.name,
            repaired=repaired,
            count=len(found),
        )
