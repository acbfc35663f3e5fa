"""A judge-independent audit of the clean evaluation sets: source text that is not clean in its locale.

The clean sets are real translations and manuals, and real sources carry defects: a message left
untranslated (an English sentence in the Polish fortunes, a German line in every translation of a game), or
text decoded with the wrong codec (``donâ\\x80\\x99t``, a cp1252 ``\\x92`` left as a C1 control). A judge
that fails such a case is right; the set is wrong to call it clean. The audit marks those cases so that the
clean false-fail can be reported both ways: raw, and on the cases the audit leaves clean.

It never looks at what the judge says, and it uses none of the judge's models or lexicons: the language
identifiers are CLD2 (``pycld2``, Chromium's compact language detector) and lingua
(``lingua-language-detector``, built for short text), where the judge uses fastText lid.176, CLD3 and
wordfreq; the encoding check is ``ftfy``'s ``fix_encoding`` plus C1 controls and U+FFFD. The unit is the
source's own: every sentence of a translated message (a fiction row's ``lines``) or of a documentation
paragraph. A sentence is foreign when both identifiers call its translatable words (``words``) the same
other language, lingua surely so, and there are enough of them for that call to mean something.

Example::

    >>> [f.kind for f in audit_units(["Dzień dobry, jak się masz?", "You donâ\\x80\\x99t need it."], "pl")]
    ['encoding']
    >>> foreign_language("You should have known that the shop would be closed on a Sunday afternoon.", "pl")
    'en 0.99'
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

import ftfy
import pycld2
from lingua import IsoCode639_1, Language, LanguageDetector, LanguageDetectorBuilder
from sentence_spans import sentences

# The language the identifiers report for each locale of the product.
LANGUAGE = {"en": "en", "es": "es", "pt-BR": "pt", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl",
            "ru": "ru", "uk": "uk", "tr": "tr", "ja": "ja", "ko": "ko", "zh-Hans": "zh", "zh-Hant": "zh-Hant",
            "id": "id", "vi": "vi"}  # fmt: skip
# Languages the identifiers cannot tell apart from the expected one on a sentence: the two Chinese scripts (a
# Simplified sentence with no character that differs between them is both), Malay and Indonesian (one
# standard language, two spellings of a few hundred words).
_SAME = {"zh": {"zh", "zh-Hant"}, "zh-Hant": {"zh", "zh-Hant"}, "id": {"id", "ms"}}
# A sentence with fewer translatable words than this is not audited: an identifier's call on a few words
# is a guess.
MIN_WORDS = 4
MIN_LETTERS_CJK = 15  # Chinese, Japanese and Korean: letters (a letter carries a word's worth of evidence)
# The least confidence lingua must give the other language, and the most it may give the expected one.
MIN_CONFIDENCE = 0.5
MAX_OWN_CONFIDENCE = 0.1
# The languages lingua weighs: the product's locales and the neighbours a source can hold instead (Catalan,
# Afrikaans, Malay, Bulgarian, Czech, Slovak, Romanian, the Scandinavian languages). A sentence in a
# language outside the list is still called some other language than the expected one, which is all the
# audit asks; a long list only spreads the confidence of short sentences over look-alikes (Italian and
# Latin).
LINGUA_LANGUAGES = ("en", "es", "pt", "fr", "de", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "zh", "id",
                    "vi", "ca", "af", "ms", "bg", "cs", "sk", "ro", "sv", "da", "nb")  # fmt: skip
_C1 = re.compile("[\x80-\x9f]")
_EDGE = (
    "\"'“”„‘’«»‹›()[]{}<>.,;:!?¡¿…—–*_/\\|`~=+#%&@$^。、，：；！？「」『』（）《》【】・"  # not "-": --option
)
_LETTERS = re.compile(r"[^\W\d_]+")
_APOSTROPHE = re.compile(r"[^\W\d_]+['’][^\W\d_]+")  # l'acronimo, don't
# Quoted and bracketed spans: a mentioned term or a gloss in the source language.
_ASIDE = re.compile(r"\([^()]*\)|\[[^\[\]]*\]|\"[^\"]*\"|“[^“”]*[”“]|„[^„“”]*[“”]|«[^«»]*»|»[^«»]*«|‘[^‘’]*’")
_CASELESS = {"HAN", "HIRAGANA", "KATAKANA", "HANGUL"}
# The scripts of the locales not written in Latin letters.
_OWN_SCRIPTS = {"ru": {"CYRILLIC"}, "uk": {"CYRILLIC"}, "ja": {"HAN", "HIRAGANA", "KATAKANA"},
                "ko": {"HANGUL", "HAN"}, "zh-Hans": {"HAN"}, "zh-Hant": {"HAN"}}  # fmt: skip
_CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}


@dataclass(frozen=True, slots=True)
class Finding:
    """A unit of a clean case that is not clean in its locale."""

    kind: str  # "language" or "encoding"
    detail: str  # "en 0.96" (lingua's confidence), "C1 control U+0092", "U+FFFD", "mojibake"
    text: str  # the unit


def encoding_defect(unit: str) -> str | None:
    """Why ``unit`` was decoded wrongly at its source, or None."""
    if "\ufffd" in unit:
        return "U+FFFD"
    c1 = _C1.search(unit)
    if c1:
        return f"C1 control U+{ord(c1.group()):04X}"
    if ftfy.fix_encoding(unit) != unit:
        return "mojibake"
    return None


def _script(ch: str) -> str:
    """The script of a letter, by the first word of its Unicode name (LATIN, CYRILLIC, CJK, HANGUL, ...)."""
    name = unicodedata.name(ch, "")
    return "HAN" if name.startswith("CJK") else name.split(" ")[0]


def _majority_script(word: str) -> str:
    """The script most letters of ``word`` are in (``рets`` with a Cyrillic ``р`` is Latin)."""
    scripts = [_script(ch) for ch in word]
    return max(set(scripts), key=scripts.count)


def words(sentence: str, locale: str) -> list[str]:
    """The words of ``sentence`` a translator translates.

    Those are its words without a capital, digit or inner punctuation outside quotes and brackets: names,
    titles, product names, acronyms, commands and identifiers (``Free Software Foundation``, ``PostScript``,
    ``APT::Get``, ``distribution-proposed-updates``) stay as they are in every translation, and a term a
    translation quotes or glosses in brackets (``los dispositivos crudos (raw devices)``) is the source's
    own. Chinese, Japanese and Korean have no case, so all their words count. In a locale written in a
    script of its own (Cyrillic, CJK), when the sentence has words in that script only they are kept: the
    Latin words beside them are the terms such a text quotes.
    """
    text = _ASIDE.sub(" ", sentence)
    kept: list[str] = []
    for n, token in enumerate(text.split()):
        token = token.strip(_EDGE)
        if n == 0 and token[1:].islower():
            token = token.lower()  # a sentence's capital is no name's
        if any(_script(ch) in _CASELESS for ch in token):
            kept += _LETTERS.findall(token)  # CJK writes no spaces: its runs of letters
        elif _LETTERS.fullmatch(token) or _APOSTROPHE.fullmatch(token):
            kept.append(token)
    kept = [w for w in kept if not any(ch.isupper() for ch in w)]
    own = _OWN_SCRIPTS.get(locale)
    if own:
        native = [w for w in kept if _majority_script(w) in own]
        kept = native or kept
    return kept


def _letters(text: str) -> int:
    return sum(1 for ch in text if ch.isalpha())


@functools.cache
def _lingua() -> LanguageDetector:
    codes = [getattr(IsoCode639_1, code.upper()) for code in LINGUA_LANGUAGES]
    return LanguageDetectorBuilder.from_iso_codes_639_1(*codes).build()


def _cld2_language(unit: str) -> str:
    """CLD2's language for ``unit`` ("un" when it cannot read it)."""
    try:
        _, _, languages = pycld2.detect(unit, isPlainText=True)
    except pycld2.error:  # text CLD2 cannot read (lone surrogates)
        return "un"
    return str(languages[0][1])


def foreign_language(unit: str, locale: str) -> str | None:
    """The other language ``unit`` is written in ("en 0.86"), or None if it is in ``locale`` or too short.

    Two identifiers must agree on the sentence's translatable words (``words``): CLD2 names the same other
    language as lingua (built for short text), lingua is sure of it and gives the expected language almost
    no confidence, and lingua's own split of the words into languages finds no stretch in the expected one.
    """
    expected = LANGUAGE[locale]
    own = {code.split("-")[0] for code in _SAME.get(expected, {expected})}  # lingua has one Chinese
    kept = words(unit, locale)
    text = " ".join(kept)
    if (_letters(text) < MIN_LETTERS_CJK) if locale in _CJK else (len(kept) < MIN_WORDS):
        return None
    cld2 = _cld2_language(text).split("-")[0]
    if cld2 in own or cld2 in ("un", "xxx"):
        return None
    detector = _lingua()
    values = detector.compute_language_confidence_values(text)
    confidence = {_code(v.language): v.value for v in values}
    top = _code(values[0].language)
    if (
        top != cld2
        or values[0].value < MIN_CONFIDENCE
        or sum(confidence.get(c, 0.0) for c in own) > MAX_OWN_CONFIDENCE
    ):
        return None
    if any(_code(part.language) in own for part in detector.detect_multiple_languages_of(text)):
        return None
    return f"{top} {values[0].value:.2f}"


def _code(language: Language) -> str:
    return str(language.iso_code_639_1.name.lower())


def audit_units(units: Iterable[str], locale: str) -> list[Finding]:
    """Findings over ``units`` (a message or a paragraph each), in order: a unit with an encoding defect as a
    whole, else each of its sentences in another language. An empty list means the case is audited clean."""
    found: list[Finding] = []
    for unit in units:
        unit = unicodedata.normalize("NFC", unit)
        bad = encoding_defect(unit)
        if bad:
            found.append(Finding("encoding", bad, unit))
            continue
        for sentence in sentences(unit):
            other = foreign_language(sentence, locale)
            if other:
                found.append(Finding("language", other, sentence))
    return found
