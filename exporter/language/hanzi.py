"""Simplified vs traditional Chinese from character-set data (no language-ID library tells them apart).

GB 2312 is the simplified-Chinese national character set, Big5 the traditional one. A Han character in
GB 2312 but not in Big5 is a simplified form (这, 们, 说, 国); one in Big5 but not in GB 2312 is a traditional
form (這, 們, 說, 國) or a rare character only traditional text uses. Characters in both (的, 是, 我) say
nothing. Both tables come from Python's own codecs: no data file to ship or keep up to date.

The same idea separates Chinese from Japanese: a Han character that Shift_JIS (cp932, JIS X 0208 plus the
vendor extensions) cannot encode is not written in Japanese (们, 这, 说, 为 ...), so a sentence with such
characters in a Japanese reply is Chinese.

Example::

    >>> HanziTables().variant("这是我们的国家")
    'zh-Hans'
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple


def _encodable(char: str, codec: str) -> bool:
    try:
        char.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


class VariantCounts(NamedTuple):  # a tuple, not a frozen dataclass: built per sentence
    """Distinctive characters of each variant found in a text."""

    simplified: int
    traditional: int


class HanziTables:
    """The distinctive-character sets; build once (about 0.1 s) and reuse."""

    def __init__(self) -> None:
        simplified: set[str] = set()
        traditional: set[str] = set()
        not_japanese: set[str] = set()
        for cp in range(0x4E00, 0xA000):
            char = chr(cp)
            gb, big5 = _encodable(char, "gb2312"), _encodable(char, "big5")
            if gb and not big5:
                simplified.add(char)
            elif big5 and not gb:
                traditional.add(char)
            if (gb or big5) and not _encodable(char, "cp932"):
                not_japanese.add(char)
        # Character classes, not sets: the regex engine tests membership at C speed.
        self.simplified, self.traditional, self.not_japanese = (
            re.compile("[" + "".join(sorted(chars)) + "]")
            for chars in (simplified, traditional, not_japanese)
        )

    def counts(self, text: str) -> VariantCounts:
        """How many simplified-only and traditional-only characters the text has.

        >>> HanziTables().counts("這是我們").traditional
        2
        """
        return VariantCounts(len(self.simplified.findall(text)), len(self.traditional.findall(text)))

    def not_japanese_count(self, text: str) -> int:
        """How many Chinese characters the text has that Japanese (Shift_JIS) cannot write.

        >>> HanziTables().not_japanese_count("这是我们的")
        2
        """
        return len(self.not_japanese.findall(text))

    def variant(self, text: str) -> str | None:
        """``zh-Hans`` or ``zh-Hant``: the variant with more distinctive characters, None on a tie."""
        c = self.counts(text)
        if c.simplified > c.traditional:
            return "zh-Hans"
        if c.traditional > c.simplified:
            return "zh-Hant"
        return None


@functools.cache
def hanzi_tables() -> HanziTables:
    """The process-wide tables (built on first use, about 0.1 s)."""
    return HanziTables()
