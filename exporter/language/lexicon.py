"""Per-language lexicons: the most frequent words of a language, from the ``wordfreq`` package's word lists.

Used where a rule needs to know whether a token is a word of the reply's language (a corrupted start: a
token that is no word of the language, before a capitalised sentence) or which of two close languages a
sentence's words belong to (Malay or Indonesian). The lists are read from ``wordfreq``'s installed data
files (nothing is downloaded), once per language and process, on first use: about 0.2 s and 5 MB each.

Example::

    >>> lexicon("en").is_word("keeper"), lexicon("en").is_word("ation")
    (True, False)
    >>> lexicon("es").is_common("la")
    True
"""

from __future__ import annotations

import functools
import gzip
import math
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import NamedTuple

from exporter.language.locales import LOCALES
from exporter.language.scripts import LETTERS

WORDS = 30_000  # a word of the language: among its 30,000 most frequent word forms
COMMON = 5_000  # a common word: among its 5,000 most frequent (so not a rare name)
# wordfreq's small lists stop at Zipf 3 (one occurrence per million words): a word a list lacks is rarer.
ABSENT = 2.5  # Zipf frequency assumed for a word a lexicon does not list
MAX_GAP = 2.0  # one word's Zipf difference is counted up to this (one spelling cannot outweigh a sentence)
RARE = 4.0  # a rare word of a list: one Zipf point above the lists' floor (ten per million words or fewer)
# Words among both lexicons' SHARED_TOP most frequent (yang, dan, kepada, itu) can be left out of a
# preference: their relative frequency follows the register (formal prose against chat) more than the
# language. Over a whole reply that leaves enough words; in one sentence, too few.
SHARED_TOP = 300
DOTTED_I = frozenset({"tr", "az"})  # languages whose capital I is dotless ı in lowercase, İ dotted i


@dataclass(frozen=True, slots=True)
class Lexicon:
    """The frequent words of one language, casefolded. Plain ``str -> int/float`` dicts: CPython's garbage
    collector does not track a dict of atomic values, so 30,000 words per language cost a full collection
    nothing (a frozenset is tracked and traversed: ~60 ms per full collection with every lexicon loaded)."""

    language: str
    ranks: dict[str, int]  # word -> frequency rank, 0 the most frequent
    zipf: dict[str, float]  # each word's Zipf frequency (log10 of occurrences per billion words)
    # Chinese: ``wordfreq`` lists its words in simplified characters and looks traditional text up by
    # simplifying it character by character (its own table); None for other languages.
    simplify: dict[int, str] | None = None

    def is_word(self, token: str) -> bool:
        return self._rank(token) is not None

    def is_common(self, token: str) -> bool:
        found = self._rank(token)
        return found is not None and found < COMMON

    def rank(self, token: str) -> int:
        """The word's frequency rank among the common words (``COMMON`` when it is not one of them)."""
        found = self._rank(token)
        return COMMON if found is None else min(found, COMMON)

    def fold(self, word: str) -> str:
        """A word as the lexicon's list writes it: casefolded, and in Turkish and Azerbaijani with İ as i
        and I as dotless ı first ("İşlev": işlev, a function), as ``wordfreq`` folds them; ``casefold``
        alone writes İ as i and a combining dot, which no list holds.

        >>> lexicon("tr").fold("İSTANBUL"), lexicon("en").fold("Straße")
        ('istanbul', 'strasse')
        """
        if self.language in DOTTED_I:
            word = word.replace("İ", "i").replace("I", "ı")
        return word.casefold()

    def folded(self, words: Iterable[str]) -> Iterator[str]:
        """``fold`` of each word, lazily (at C speed outside Turkish and Azerbaijani: ``str.casefold``)."""
        return map(self.fold if self.language in DOTTED_I else str.casefold, words)

    def words(self, text: str) -> list[str]:
        """The words of ``text`` (runs of letters, ``scripts.LETTERS``), each folded (``fold``): the letters
        are found first, so a letter ``casefold`` writes with a combining mark cannot split a word.

        >>> lexicon("tr").words("İyi geceler, İpek.")
        ['iyi', 'geceler', 'ipek']
        """
        return list(self.folded(LETTERS.findall(text)))

    def _rank(self, token: str) -> int | None:
        found = self.ranks.get(token.casefold())
        if found is None and self.language in DOTTED_I and ("I" in token or "İ" in token):
            found = self.ranks.get(self.fold(token))  # a capital I read as i first: "BIR" is bir too
        if found is None and self.simplify is not None:
            found = self.ranks.get(token.translate(self.simplify))  # 這些 is 这些
        return found


@functools.cache
def lexicon(language: str) -> Lexicon:
    """The lexicon of a language (``en``, ``pt``, ``ms``… or a locale code: ``pt-BR`` reads Portuguese's);
    loaded once per process and language.

    Raises ``RuntimeError`` when ``wordfreq`` (the ``exporter`` extra) is not installed, ``LookupError``
    when it has no list for the language.
    """
    if (spec := LOCALES.get(language)) is not None and spec.language != language:
        return lexicon(spec.language)  # one copy per language, whichever code asked first
    try:
        import wordfreq
    except ImportError as err:  # pragma: no cover - the exporter extra installs it
        raise RuntimeError("the wordfreq package (exporter extra) is not installed") from err
    if language not in wordfreq.available_languages(wordlist="small"):
        raise LookupError(f"wordfreq has no word list for {language!r}")
    ranked = wordfreq.top_n_list(language, WORDS, wordlist="small", ascii_only=False)
    frequencies = wordfreq.get_frequency_dict(language, wordlist="small")  # no tokenizer: CJK needs none here
    zipf: dict[str, float] = {}
    values: dict[float, float] = {}  # one float object per distinct value (a few hundred): less memory
    for word in ranked:
        if (frequency := frequencies.get(word, 0.0)) > 0:
            z = round(math.log10(frequency * 1e9), 2)
            zipf[word] = values.setdefault(z, z)
    # wordfreq keeps each language's whole list cached; only the top of it is kept here.
    wordfreq.get_frequency_list.cache_clear()
    wordfreq.get_frequency_dict.cache_clear()
    ranks: dict[str, int] = {}
    for i, word in enumerate(ranked):
        ranks.setdefault(word, i)
    return Lexicon(language, ranks, zipf, _simplified_chinese() if language == "zh" else None)


def _simplified_chinese() -> dict[int, str]:
    """``wordfreq``'s table from traditional to simplified characters (3,275 characters), as its
    ``simplify_chinese`` reads it (that module needs ``jieba``, not installed: the table is read here)."""
    import gzip

    import msgpack  # a dependency of wordfreq
    from wordfreq.util import data_path

    with gzip.open(data_path("_chinese_mapping.msgpack.gz")) as table:
        return dict(msgpack.load(table, raw=False, strict_map_key=False))


def lexicon_or_none(language: str | None) -> Lexicon | None:
    """``lexicon(language)``, or None when there is no language (a reply judged without a locale) or
    ``wordfreq`` has no list for it: each caller says what its rule decides without one.

    >>> lexicon_or_none("xx") is None, lexicon_or_none(None) is None
    (True, True)
    """
    if language is None:
        return None
    try:
        return lexicon(language)
    except LookupError:
        return None


class Lean(NamedTuple):
    """How much a run of words belongs to one language rather than another (``preference``)."""

    per_word: float  # the mean log10 likelihood ratio per counted word; positive: the first language
    words: int  # the words either lexicon lists (the others are names, numbers, typos: no evidence)

    @property
    def llr(self) -> float:
        """The log10 likelihood ratio of the whole run (3: a thousand to one for the first language)."""
        return self.per_word * self.words


def preference(words: Iterable[str], first: Lexicon, second: Lexicon, shared_top: int = 0) -> Lean:
    """How much more ``words`` (casefolded) belong to ``first`` than to ``second``: the log10 likelihood
    ratio of the two languages' unigram models, per word, over the words either lexicon lists, except the
    ``shared_top`` most frequent words of both (``SHARED_TOP``, or none). A word's term is the difference
    of its Zipf frequencies (a word missing from a list counts as ``ABSENT``, a difference is capped at
    ``MAX_GAP``); the words both languages write count too, so a sentence's shared words weigh against its
    few distinctive ones. Positive: ``first``."""
    total, n = 0.0, 0
    a_zipf, b_zipf, a_ranks, b_ranks = first.zipf, second.zipf, first.ranks, second.ranks
    for word in words:
        a, b = a_zipf.get(word), b_zipf.get(word)
        if (a is None and b is None) or (
            a_ranks.get(word, shared_top) < shared_top and b_ranks.get(word, shared_top) < shared_top
        ):
            continue
        gap = (a if a is not None else ABSENT) - (b if b is not None else ABSENT)
        total += MAX_GAP if gap > MAX_GAP else -MAX_GAP if gap < -MAX_GAP else gap
        n += 1
    return Lean(total / n if n else 0.0, n)


def distinctive(words: list[str], first: Lexicon, second: Lexicon) -> int:
    """How many of ``words`` (casefolded) are common words of ``first`` that ``second`` does not list, or
    lists only as a rare word (Zipf at most ``RARE``) at least ``MAX_GAP`` below ``first`` (a hundred
    times rarer: the largest term one word can have in ``preference``): words only the first language
    writes (Malay *butang*, *skrin*, *mestilah* against Indonesian), or that the second's list holds only
    as a borrowing or a quotation (Malay *sahaja*, *bahawa*, *iaitu*, *soalan*: Zipf 5.5 to 6.1 in
    Malay's list, 3.2 to 3.9 in Indonesian's). A word the second language writes often in its own sense
    is not one (Indonesian *awak kapal*, a ship's crew; Malay *awak*, you)."""
    return len(distinctive_words(words, first, second))


def distinctive_words(words: list[str], first: Lexicon, second: Lexicon) -> list[str]:
    """The words of ``distinctive``, in their order, repeats kept."""
    a_ranks, a_zipf, b_ranks, b_zipf = first.ranks, first.zipf, second.ranks, second.zipf
    return [
        word
        for word in words
        if a_ranks.get(word, WORDS) < COMMON
        and (
            word not in b_ranks
            or ((b := b_zipf.get(word, ABSENT)) <= RARE and a_zipf.get(word, ABSENT) - b >= MAX_GAP)
        )
    ]


def fullest_zipf(language: str, words: Iterable[str]) -> tuple[dict[str, float], float]:
    """The Zipf frequency of each of ``words`` that ``wordfreq``'s fullest list of ``language`` holds (its
    ``large`` list, down to Zipf 1, where it has one; the ``small`` list, down to Zipf 3, otherwise), and
    the list's floor: a word it lacks is rarer than that. Empty, and the floor 0, without a list. Each
    frequency is rounded to two decimals, as a lexicon's.

    The list file (a gzipped msgpack array of frequency buckets, one per centibel: ``wordfreq``'s cBpack)
    is read one bucket at a time, keeping only ``words``: reading the whole of Polish's 450,000 words
    into a dict costs 90 MB and a second; a bucket holds at most a few thousand.

    >>> found, floor = fullest_zipf("it", ["città", "citt"])
    >>> found["città"] > 5 > floor, "citt" in found
    (True, True)
    """
    wanted = frozenset(words)
    found: dict[str, float] = {}
    floor = 0.0
    for zipf, bucket in _buckets(language):
        floor = zipf  # the last bucket is empty: the list's floor
        for word in bucket:
            if word in wanted:
                found[word] = zipf
    return found, floor


def fullest_words(language: str, keep: Callable[[str], bool], min_zipf: float) -> dict[str, float]:
    """The words of ``language``'s fullest list (as ``fullest_zipf``) at least ``min_zipf`` frequent that
    ``keep`` accepts, with their Zipf frequencies; the list is read down to ``min_zipf`` only.

    >>> found = fullest_words("it", lambda word: word.endswith("à"), 5.0)
    >>> "città" in found, all(word.endswith("à") and zipf >= 5 for word, zipf in found.items())
    (True, True)
    """
    found: dict[str, float] = {}
    for zipf, bucket in _buckets(language):
        if zipf < min_zipf:
            break
        found.update((word, zipf) for word in bucket if keep(word))
    return found


def _buckets(language: str) -> Iterator[tuple[float, list[str]]]:
    """The frequency buckets of ``language``'s fullest list, most frequent first: each bucket's Zipf
    frequency and words, then the list's floor with no words (nothing without a list)."""
    try:
        import msgpack  # installed with wordfreq
        import wordfreq
    except ImportError:  # pragma: no cover - the exporter extra installs both
        return
    language = spec.language if (spec := LOCALES.get(language)) is not None else language
    path = wordfreq.available_languages("large").get(language) or wordfreq.available_languages("small").get(
        language
    )
    if path is None:
        return
    with gzip.open(path, "rb") as stream:
        unpacker = msgpack.Unpacker(stream, raw=False)
        buckets = unpacker.read_array_header() - 1
        header = unpacker.unpack()
        if not isinstance(header, dict) or header.get("format") != "cB":
            raise ValueError(f"{path}: not a cBpack word list")
        for centibels in range(buckets):
            yield round(9 - centibels / 100, 2), unpacker.unpack()  # a frequency of 10^(-cB/100), in Zipf
    yield round(9 - buckets / 100, 2), []
