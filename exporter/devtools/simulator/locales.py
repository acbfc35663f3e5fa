"""The simulator's locales: codes, close-language pairs for code-mixing, sentence texts and their joiner.

Each locale has a file ``texts/<locale>.txt`` with one role-play sentence per line (``#`` lines are
comments). Replies are built from whole sentences so that mixing swaps *whole* sentences, as a real
code-mixing host does.

Example::

    >>> texts = Texts.load()
    >>> join_sentences(["「待って。」", "彼女は笑った。"], "ja")
    '「待って。」彼女は笑った。'
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

from exporter.language.hanzi import hanzi_tables
from exporter.language.locales import LOCALES as PRODUCT_LOCALES
from exporter.language.scripts import HAN, HANGUL, KANA, Script, script_counts

# The product's locales (``exporter.language.locales``): the simulator has sentences for each.
LOCALES: tuple[str, ...] = tuple(PRODUCT_LOCALES)

# The language a host most plausibly slips into when it code-mixes a reply in the key locale.
DEFAULT_MIXING_PAIRS: Mapping[str, str] = MappingProxyType(
    {
        "en": "es",
        "es": "pt-BR",
        "pt-BR": "es",
        "fr": "it",
        "it": "es",
        "de": "nl",
        "nl": "de",
        "pl": "uk",
        "ru": "uk",
        "uk": "ru",
        "tr": "en",
        "ja": "zh-Hans",
        "ko": "ja",
        "zh-Hans": "zh-Hant",
        "zh-Hant": "zh-Hans",
        "id": "en",
        "vi": "en",
    }
)

_WORD = re.compile(r"[^\W\d_]{2,}")
_UKRAINIAN = re.compile("[іїєґІЇЄҐ]")
_RECOGNISED_CACHE = 4096
_NON_LATIN = frozenset({"ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant"})
# Locales whose sentences are written without spaces between them.
_UNSPACED = frozenset({"ja", "zh-Hans", "zh-Hant"})
# CJK punctuation and kana, CJK ideographs, full-width forms, and the curly quotes CJK texts use.
_UNSPACED_CHAR = re.compile("[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef“”]")
_TEXTS_DIR = Path(__file__).with_name("texts")


def is_unspaced(locale: str) -> bool:
    """Whether sentences of ``locale`` are joined without spaces (Chinese, Japanese)."""
    return locale in _UNSPACED


def join_sentences(sentences: list[str], locale: str) -> str:
    """Join whole sentences the way ``locale`` writes them; a space is kept next to any spaced sentence.

    >>> join_sentences(["Hola.", "¿Qué tal?"], "es")
    'Hola. ¿Qué tal?'
    """
    out = ""
    for sentence in sentences:
        if out and not (_looks_unspaced(out[-1]) and _looks_unspaced(sentence[0])):
            out += " "
        out += sentence
    return out


def _looks_unspaced(char: str) -> bool:
    return _UNSPACED_CHAR.match(char) is not None


@dataclass(frozen=True, slots=True)
class Texts:
    """Role-play sentences per locale, read once from ``texts/<locale>.txt``."""

    sentences: Mapping[str, tuple[str, ...]]

    @classmethod
    def load(cls, directory: Path = _TEXTS_DIR) -> Texts:
        """Read every locale's sentence file; a missing or short file is an error naming the file.

        >>> len(Texts.load().for_locale("pt-BR")) >= 25
        True
        """
        found: dict[str, tuple[str, ...]] = {}
        for locale in LOCALES:
            path = directory / f"{locale}.txt"
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError as exc:
                raise ValueError(f"{path}: cannot read the {locale} sentences: {exc.strerror}") from exc
            sentences = tuple(s.strip() for s in lines if s.strip() and not s.lstrip().startswith("#"))
            if len(sentences) < 3:
                raise ValueError(f"{path}: needs at least 3 sentences, has {len(sentences)}")
            found[locale] = sentences
        return cls(MappingProxyType(found))

    def for_locale(self, locale: str) -> tuple[str, ...]:
        return self.sentences[locale]


class Recogniser:
    """Tells which locale a prompt is written in, the way a model answers in the language it is addressed in.

    Nothing in the request names the locale (a real gateway sees only the text), so the simulator reads the
    text itself: scripts first (hangul, kana, Ukrainian letters; the language kit's script data), Chinese
    variants by their distinctive characters (``hanzi``), then the words it shares with each locale's
    sentence file (and its accented letters), each weighted by how few locales use it.

    >>> recognise = Recogniser(Texts.load())
    >>> recognise("Você é a capitã de um navio. Conte o que aconteceu com a tripulação."), recognise("1 2 3")
    ('pt-BR', None)
    """

    def __init__(self, texts: Texts) -> None:
        self._words = {locale: frozenset(_tokens(" ".join(texts.for_locale(locale)))) for locale in LOCALES}
        users = Counter(word for words in self._words.values() for word in words)
        self._weight = {word: 1.0 / count for word, count in users.items()}
        # Probes repeat a few prompts: remember the answers, within a bound.
        self._cached = functools.lru_cache(maxsize=_RECOGNISED_CACHE)(self._recognise)

    def __call__(self, text: str) -> str | None:
        return self._cached(text)

    def _recognise(self, text: str) -> str | None:
        counts = script_counts(text)
        if HANGUL in counts:
            return "ko"
        if KANA in counts:
            return "ja"
        if counts.get(HAN, 0) >= 4:
            return hanzi_tables().variant(text)
        if Script.CYRILLIC in counts:
            return "uk" if _UKRAINIAN.search(text) else "ru"
        words = _tokens(text)
        scores = {
            code: sum(self._weight.get(w, 0.0) for w in words if w in vocabulary)
            for code, vocabulary in self._words.items()
            if code not in _NON_LATIN
        }
        return _best(scores)


def _tokens(text: str) -> list[str]:
    """Words, plus each accented letter on its own (``ł``, ``ğ``, ``ơ`` tell languages apart)."""
    folded = text.casefold()
    return _WORD.findall(folded) + [ch for ch in folded if ch.isalpha() and not ch.isascii()]


def _best(scores: Mapping[str, float]) -> str | None:
    ranked = sorted(scores.items(), key=lambda item: (-item[1], item[0]))
    if not ranked or ranked[0][1] <= 0 or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]
