"""Writing-system facts from Unicode ranges: which script each letter belongs to, counted per text.

Scripts decide many language questions alone (kana means Japanese, hangul means Korean, Cyrillic is not
Spanish) and cost a few regular-expression scans, far less than a statistical detector.

Example::

    >>> counts = script_counts("Hola, 世界")
    >>> counts[Script.LATIN], counts[Script.HAN]
    (4, 2)
"""

from __future__ import annotations

import re
from enum import StrEnum


class Script(StrEnum):
    LATIN = "latin"
    CYRILLIC = "cyrillic"
    HAN = "han"
    KANA = "kana"
    HANGUL = "hangul"
    OTHER = "other"


# Letter ranges per script (combining marks and punctuation excluded on purpose).
_RANGES: dict[Script, str] = {
    Script.LATIN: "A-Za-z\u00aa\u00ba\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff",
    Script.CYRILLIC: "\u0400-\u0481\u048a-\u052f",
    Script.HAN: "\u3005\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f",
    Script.KANA: "\u3041-\u3096\u309d-\u309f\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff\uff66-\uff9d",
    Script.HANGUL: "\u1100-\u11ff\u3131-\u318e\uac00-\ud7a3",
}
# Runs, not single characters: counting is the summed length of a few runs instead of a list per letter.
_PATTERNS = {script: re.compile(f"[{chars}]+") for script, chars in _RANGES.items()}
_ANY_LETTER = re.compile(r"[^\W\d_]+")
# Text beyond the alphabets (CJK, mostly) in one scan instead of six: a run of each script, or of letters of
# none of them (``other``); group i + 1 is ``_SCRIPT_ORDER[i]``, in the order the counts are listed.
_EACH_SCRIPT = re.compile(
    "|".join(f"([{chars}]+)" for chars in _RANGES.values())
    + rf"|((?:(?![{''.join(_RANGES.values())}])[^\W\d_])+)"
)
_SCRIPT_ORDER = (*_RANGES, Script.OTHER)
_HAN_LETTERS = re.compile(rf"(?:(?=[^\W\d_])[{_RANGES[Script.HAN]}])+")
_LATIN_ONLY = {Script.LATIN: _PATTERNS[Script.LATIN]}
_UP_TO_CYRILLIC = {Script.LATIN: _PATTERNS[Script.LATIN], Script.CYRILLIC: _PATTERNS[Script.CYRILLIC]}
# Which scripts can occur at all, by one C-speed search each (``max(text)`` compared every character as
# a Python object: a third of the cost): most sentences need one or two scans, not six.
_BEYOND_LATIN_1 = re.compile("[^\x00-\xff]")
_BEYOND_LATIN = re.compile("[^\x00-\u024f]")
# Up to U+036F (as before: IPA letters are not counted), Cyrillic, Vietnamese letters, general punctuation:
# no letter of another script can be among them (no ``other`` scan needed).
_BEYOND_ALPHABETS = re.compile("[^\x00-\u036f\u0400-\u052f\u1e00-\u1eff\u2000-\u206f]")
# Latin-1 text (English, French, Spanish, ...) counts its Latin letters as bytes: delete the others.
_NOT_LATIN_BYTES = bytes(b for b in range(256) if not _PATTERNS[Script.LATIN].match(chr(b)))
CJK_SCRIPTS = frozenset({Script.HAN, Script.KANA, Script.HANGUL})


def script_counts(text: str) -> dict[Script, int]:
    """Letters per script; letters of other scripts (Greek, Arabic, ...) count as ``other``. A plain dict,
    absent scripts missing (a ``Counter``'s constructor cost a quarter of a sentence's count).

    >>> script_counts("Привет, world")[Script.CYRILLIC]
    6
    """
    counts: dict[Script, int] = {}
    if not _BEYOND_LATIN_1.search(text):
        if n := len(text.encode("latin-1").translate(None, _NOT_LATIN_BYTES)):
            counts[Script.LATIN] = n
        return counts
    if not _BEYOND_ALPHABETS.search(text):
        for script, pattern in (_UP_TO_CYRILLIC if _BEYOND_LATIN.search(text) else _LATIN_ONLY).items():
            if n := sum(map(len, pattern.findall(text))):
                counts[script] = n
        return counts  # no letter of another script can be there
    found = [0] * len(_SCRIPT_ORDER)
    for match in _EACH_SCRIPT.finditer(text):
        found[match.lastindex - 1] += match.end() - match.start()  # type: ignore[operator]
    if found[-1] and found[_SCRIPT_ORDER.index(Script.HAN)]:
        # The other letters are counted as all letters less the scripts' characters, and the Han ranges
        # hold unassigned code points, which are no letters: they are taken off, as ever.
        han = found[_SCRIPT_ORDER.index(Script.HAN)]
        found[-1] = max(0, found[-1] - han + sum(map(len, _HAN_LETTERS.findall(text))))
    for script, n in zip(_SCRIPT_ORDER, found, strict=True):
        if n:
            counts[script] = n
    return counts


def script_of(char: str) -> Script | None:
    """The script of one character, or None when it is not a letter.

    >>> script_of("ж"), script_of("7")
    (<Script.CYRILLIC: 'cyrillic'>, None)
    """
    for script, pattern in _PATTERNS.items():
        if pattern.match(char):  # one character: the run pattern matches it or not
            return script
    return Script.OTHER if char.isalpha() else None


def weight(counts: dict[Script, int]) -> float:
    """Letters weighted so that one CJK character counts like three alphabetic letters (size of evidence)."""
    get = counts.get
    return float(
        sum(counts.values()) + 2 * (get(Script.HAN, 0) + get(Script.KANA, 0) + get(Script.HANGUL, 0))
    )
