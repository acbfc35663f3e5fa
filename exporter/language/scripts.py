"""Writing-system facts from Unicode ranges: which script each letter belongs to, counted per text.

Scripts decide many language questions alone (kana means Japanese, hangul means Korean, Cyrillic is not
Spanish) and cost a few regular-expression scans, far less than a statistical detector.

Example::

    >>> counts = script_counts("Hola, 世界")
    >>> counts[Script.LATIN], counts[Script.HAN]
    (4, 2)
"""

from __future__ import annotations

import array
import functools
import re
import sys
from enum import StrEnum


class Script(StrEnum):
    LATIN = "latin"
    CYRILLIC = "cyrillic"
    HAN = "han"
    KANA = "kana"
    HANGUL = "hangul"
    OTHER = "other"


# Unicode blocks of the CJK writing systems, whole, as character-class bodies: what a byte stream misread
# with a legacy East Asian codec shows (``encoding``), punctuation and marks included. The letter classes
# (``_RANGES``) are built from the same names where a block is all letters, and differ where it is not:
# KANA's letters leave out the marks (゛゜ﾞﾟ), punctuation (・｡｢｣､･) and unassigned points of KANA_BLOCKS
# and HALFWIDTH_KATAKANA and add the phonetic extensions (ㇰ-ㇿ); HAN's leave out the Yijing hexagrams of
# HAN_BLOCKS (U+4DC0-U+4DFF) and add 々 and 〇 of CJK_PUNCTUATION and the supplementary planes' ideographs.
CJK_PUNCTUATION = "\u3000-\u303f"  # CJK Symbols and Punctuation: 　、。「」『』〜
KANA_BLOCKS = "\u3040-\u30ff"  # Hiragana and Katakana: letters, ゛゜, ・ and ー
UNIFIED_HAN = "\u4e00-\u9fff"  # CJK Unified Ideographs: the Han characters the legacy codecs encode
HAN_BLOCKS = "\u3400-\u9fff"  # Extension A, the Yijing hexagrams and the unified ideographs
HAN_COMPATIBILITY = "\uf900-\ufaff"  # CJK Compatibility Ideographs
HANGUL_SYLLABLES = "\uac00-\ud7a3"  # precomposed syllables (HANGUL's letters add the jamo)
HALFWIDTH_FULLWIDTH = "\uff00-\uffef"  # Halfwidth and Fullwidth Forms, of which:
FULLWIDTH_ASCII = "\uff01-\uff5e"  # ASCII's printable characters written full width: ！？（Ａ１
HALFWIDTH_KATAKANA = "\uff61-\uff9f"  # katakana written half width and their punctuation: ｡｢｣､･ｱﾞ

# The letters of the Russian and Ukrainian alphabets (a class body): CYRILLIC's letters less the other
# Cyrillic alphabets' (Serbian ђ, Belarusian ў, Kazakh ә...).
RU_UK_ALPHABET = "А-яЁёЄєІіЇїҐґ"
UKRAINIAN_ONLY = "іїєґІЇЄҐ"  # the letters of Ukrainian's alphabet that Russian's lacks

# Letter ranges per script (combining marks and punctuation excluded on purpose).
_RANGES: dict[Script, str] = {
    Script.LATIN: "A-Za-z\u00aa\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff",
    Script.CYRILLIC: "\u0400-\u0481\u048a-\u052f",
    Script.HAN: f"\u3005\u3007\u3400-\u4dbf{UNIFIED_HAN}{HAN_COMPATIBILITY}\U00020000-\U0003134f",
    Script.KANA: "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9d",
    Script.HANGUL: f"\u1100-\u11ff\u3131-\u318e{HANGUL_SYLLABLES}",
}
# Runs, not single characters: marking the table is a few slice assignments per run.
_PATTERNS = {script: re.compile(f"[{chars}]+") for script, chars in _RANGES.items()}
LETTERS = re.compile(r"[^\W\d_]+")  # a run of letters, any script (one definition for the judges)
_BEYOND_LATIN_1_OR_PUNCTUATION = re.compile("[^\x00-\xff\u0250-\u036f\u2000-\u206f]")
# Up to U+036F (IPA letters are not counted), Cyrillic, Vietnamese letters, general punctuation: a text within
# these blocks is counted in Latin and Cyrillic letters only; beyond them, letters of no script are ``other``.
_ALPHABETS = "\x00-\u036f\u0400-\u052f\u1e00-\u1eff\u2000-\u206f"
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_BEYOND_ALPHABETS_CLASSES = re.compile("[HhKGOX]")  # the classes of ``_class_table`` beyond the alphabets
CJK_SCRIPTS = frozenset({Script.HAN, Script.KANA, Script.HANGUL})
HAN, KANA, HANGUL = Script.HAN, Script.KANA, Script.HANGUL  # bound once: a member lookup costs 0.2 µs (3.11)


def letter_ranges(*scripts: Script) -> str:
    """The ranges of the letters of ``scripts`` (``_RANGES``): the body of a regular expression's character
    class, to build patterns with (``f"[{letter_ranges(KANA)}]+"``, ``f"[^\\W{CJK_LETTERS}]"``).

    >>> re.findall(f"[{letter_ranges(KANA)}]+", "ジョン・スミス")
    ['ジョン', 'スミス']
    """
    return "".join(_RANGES[script] for script in scripts)


CJK_LETTERS = letter_ranges(HAN, KANA, HANGUL)  # Chinese, Japanese and Korean letters (a class's body)
HAN_KANA_LETTERS = letter_ranges(HAN, KANA)  # Chinese and Japanese letters, no hangul (a class's body)


@functools.cache
def _class_table() -> tuple[str, bytes]:
    """Per BMP code point the letter of its class: ``L C H K G`` in a script's range (``h``: in the Han
    range but no letter: unassigned), ``o``/``O`` a letter of no script inside/beyond the alphabets' blocks,
    ``.``/``X`` anything else inside/beyond them. Built on first use (25 ms); the Latin-1 part as bytes."""
    # Every BMP character in one string, decoded at once (a str per character first: 4 MB of peak RSS).
    every = array.array("I", range(0x10000)).tobytes().decode(f"utf-32-{sys.byteorder[0]}e", "surrogatepass")
    table = bytearray(b"X" * len(every))
    # Each step rewrites the classes of its pattern's characters: letters, then the alphabets' blocks,
    # then each script's range (Han keeps the letter/no-letter split).
    steps = [(LETTERS, b"X", b"O"), (re.compile(f"[{_ALPHABETS}]+"), b"XO", b".o")]
    for script, c in zip(_RANGES, (b"L", b"C", b"H", b"K", b"G"), strict=True):
        steps.append((_PATTERNS[script], b"XO", b"hH") if c == b"H" else (_PATTERNS[script], b"XOo.", c * 4))
    for pattern, old, new in steps:
        rewrite = bytes.maketrans(old, new)
        for match in pattern.finditer(every):
            span = slice(*match.span())
            table[span] = table[span].translate(rewrite)
    return table.decode("ascii"), bytes(table[:256])


def _astral_class(match: re.Match[str]) -> str:
    """The class of a character beyond the BMP (Han extensions, emoji...), which the table does not hold."""
    letter = LETTERS.match(match.group()) is not None
    if _PATTERNS[Script.HAN].match(match.group()):
        return "H" if letter else "h"
    return "O" if letter else "X"


def span_counts(text: str, spans: list[tuple[int, int]]) -> list[dict[Script, int]]:
    """``script_counts(text[start:end])`` for each span: the whole text's characters are classified once
    (a table lookup each) and counted per span, instead of scans per span (a reply's sentences).

    >>> span_counts("Hola. 世界。", [(0, 5), (6, 9)])
    [{<Script.LATIN: 'latin'>: 4}, {<Script.HAN: 'han'>: 2}]
    """
    table, latin_1 = _class_table()
    if not _BEYOND_LATIN_1_OR_PUNCTUATION.search(text):
        # Latin-1 letters, and beyond them no letter that counts (IPA, typography "’—…": "?" is no letter
        # either): English, French, Spanish... as bytes, at C speed.
        raw = text.encode("latin-1", errors="replace")
        count, latin_script = raw.translate(latin_1).count, Script.LATIN
        return [{latin_script: n} if (n := count(b"L", *span)) else {} for span in spans]
    classes = text.translate(table)
    if not classes.isascii():
        classes = _ASTRAL.sub(_astral_class, classes)
    han = classes.replace("h", "H") if "h" in classes else classes  # Han characters, letters or not
    columns = [(script, [source.count(c, *span) for span in spans]) for script, c, source in (
        (Script.LATIN, "L", classes), (Script.CYRILLIC, "C", classes), (Script.HAN, "H", han),
        (Script.KANA, "K", classes), (Script.HANGUL, "G", classes)) if c in source]  # fmt: skip
    out = [{script: col[i] for script, col in columns if col[i]} for i in range(len(spans))]
    if "O" in classes or "o" in classes:
        for (start, end), counts in zip(spans, out, strict=True):
            # Letters of no script count where a character beyond the alphabets is (text within them is
            # counted in its Latin and Cyrillic letters only), less the Han range's non-letters next to Han.
            n = classes.count("O", start, end) + classes.count("o", start, end)
            if Script.HAN in counts:
                n = max(0, n - classes.count("h", start, end))
            if n and _BEYOND_ALPHABETS_CLASSES.search(classes, start, end):
                counts[Script.OTHER] = n
    return out


def script_counts(text: str) -> dict[Script, int]:
    """Letters per script; letters of other scripts (Greek, Arabic, ...) count as ``other``. A plain dict,
    absent scripts missing (a ``Counter``'s constructor cost a quarter of a sentence's count).

    >>> script_counts("Привет, world")[Script.CYRILLIC]
    6
    """
    return span_counts(text, [(0, len(text))])[0]


def script_of(char: str) -> Script | None:
    """The script of one character, or None when it is not a letter.

    >>> script_of("ж"), script_of("7")
    (<Script.CYRILLIC: 'cyrillic'>, None)
    """
    for script, pattern in _PATTERNS.items():
        if pattern.match(char):  # one character: the run pattern matches it or not
            return script
    return Script.OTHER if char.isalpha() else None


def leading_run(text: str, script: Script) -> str:
    """The letters of ``script`` ``text`` starts with (``Script.OTHER`` has no run: "").

    >>> leading_run("と这些", Script.KANA)
    'と'
    """
    m = pattern.match(text) if (pattern := _PATTERNS.get(script)) else None
    return m.group() if m else ""


def weight(counts: dict[Script, int]) -> float:
    """Letters weighted so that one CJK character counts like three alphabetic letters (size of evidence)."""
    get = counts.get
    return float(sum(counts.values()) + 2 * (get(HAN, 0) + get(KANA, 0) + get(HANGUL, 0)))
