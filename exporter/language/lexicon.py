"""Per-language lexicons: the most frequent words of a language, from the ``wordfreq`` package's word lists.

Used where a rule needs to know whether a token is a word of the reply's language (a corrupted start: a
token that is no word of the language, before a capitalised sentence) or which of two close languages a
sentence's words belong to (Malay or Indonesian). The lists are read from ``wordfreq``'s installed data
files (nothing is downloaded), once per language and process, on first use: about 0.2 s and 4 MB each.

Example::

    >>> lexicon("en").is_word("keeper"), lexicon("en").is_word("ation")
    (True, False)
    >>> lexicon("es").is_common("la")
    True
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

WORDS = 30_000  # a word of the language: among its 30,000 most frequent word forms
COMMON = 5_000  # a common word: among its 5,000 most frequent (so not a rare name)
ABSENT = 2.0  # Zipf frequency assumed for a word beyond a lexicon's common words (about 1 per 10 million)


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The frequent words of one language, casefolded. Plain ``str -> int/float`` dicts: CPython's garbage
    collector does not track a dict of atomic values, so 30,000 words per language cost a full collection
    nothing (a frozenset is tracked and traversed: ~60 ms per full collection with every lexicon loaded)."""

    language: str
    ranks: dict[str, int]  # word -> frequency rank, 0 the most frequent
    zipf: dict[str, float]  # the common words' Zipf frequency (log10 of occurrences per billion words)

    def is_word(self, token: str) -> bool:
        return token.casefold() in self.ranks

    def is_common(self, token: str) -> bool:
        return self.ranks.get(token.casefold(), WORDS) < COMMON

    def rank(self, token: str) -> int:
        """The word's frequency rank among the common words (``COMMON`` when it is not one of them)."""
        return min(self.ranks.get(token.casefold(), COMMON), COMMON)


# wordfreq's codes for our languages (zh-Hans and zh-Hant share Chinese, pt-BR is Portuguese).
_WORDFREQ_CODE = {"zh-Hans": "zh", "zh-Hant": "zh", "pt-BR": "pt"}


@functools.cache
def lexicon(language: str) -> Lexicon:
    """The lexicon of a language (``en``, ``pt``, ``ms``… or a locale code); loaded once per process.

    Raises ``RuntimeError`` when ``wordfreq`` (the ``exporter`` extra) is not installed, ``LookupError``
    when it has no list for the language.
    """
    try:
        import wordfreq
    except ImportError as err:  # pragma: no cover - the exporter extra installs it
        raise RuntimeError("the wordfreq package (exporter extra) is not installed") from err
    code = _WORDFREQ_CODE.get(language, language)
    if code not in wordfreq.available_languages(wordlist="small"):
        raise LookupError(f"wordfreq has no word list for {language!r}")
    ranked = wordfreq.top_n_list(code, WORDS, wordlist="small", ascii_only=False)
    common = ranked[:COMMON]
    frequencies = wordfreq.get_frequency_dict(code, wordlist="small")  # no tokenizer: CJK needs none here
    zipf = {w: round(math.log10(frequencies[w] * 1e9), 2) for w in common if frequencies.get(w, 0) > 0}
    # wordfreq keeps each language's whole list cached; only the top of it is kept here.
    wordfreq.get_frequency_list.cache_clear()
    wordfreq.get_frequency_dict.cache_clear()
    ranks: dict[str, int] = {}
    for i, word in enumerate(ranked):
        ranks.setdefault(word, i)
    return Lexicon(code, ranks, zipf)


def preference(words: list[str], first: Lexicon, second: Lexicon) -> float:
    """How much more ``words`` belong to ``first`` than to ``second``: the mean, over the words either
    lexicon lists as common, of the difference of their Zipf frequencies (a word missing from a list counts
    as ``ABSENT``). Positive: ``first``."""
    total, n = 0.0, 0
    for word in words:
        a, b = first.zipf.get(word), second.zipf.get(word)
        if a is None and b is None:
            continue
        total += (a if a is not None else ABSENT) - (b if b is not None else ABSENT)
        n += 1
    return total / n if n else 0.0


def distinctive(words: list[str], first: Lexicon, second: Lexicon) -> int:
    """How many of ``words`` (casefolded) are common words of ``first`` that ``second`` does not list at
    all: words only the first language writes (Malay *butang*, *skrin*, *mestilah* against Indonesian)."""
    return sum(1 for word in words if first.ranks.get(word, WORDS) < COMMON and word not in second.ranks)
