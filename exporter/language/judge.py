"""The language and encoding judge: reply text + expected locale -> pass | fail | inconclusive, with evidence.

Pure, local and deterministic: the same text and locale always give the same verdict, nothing is
downloaded, and the models are loaded once per process (``default_judge()``). Checks run in this order,
the first finding wins:

1. encoding corruption (U+FFFD, control characters, mojibake) -> ``fail/encoding`` (any length);
2. too little text to judge -> ``inconclusive/too_short``;
3. a corrupted start (stray punctuation, token fragment) -> ``fail/leading_garbage``;
4. per-sentence language (``detect.Ensemble``): mostly foreign -> ``fail/switch``; two or more foreign
   sentences making up a sustained share -> ``fail/mixing``; native evidence -> ``pass`` unless the reply
   as a whole is in another language (``fail/switch``) or its short and uncertain sentences read together
   are (``fail/mixing``); otherwise ``inconclusive/ambiguous``.

Example::

    >>> v = judge("Olá! Eu estou muito feliz em te ver hoje, entre e sente-se perto do fogo. "
    ...           "A noite está fria e a chuva não para de cair lá fora. "
    ...           "¿Dónde está la biblioteca de la ciudad? Mi madre siempre me decía que la paciencia "
    ...           "es la madre de la ciencia. Vou preparar um chá quente para nós dois.", "pt-BR")
    >>> v.outcome, v.reason
    (<Outcome.FAIL: 'fail'>, <Reason.MIXING: 'mixing'>)
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from exporter.language.detect import MIN_LETTERS, TWIN, Call, Ensemble, in_doubt
from exporter.language.encoding import EncodingChecker
from exporter.language.lexicon import lexicon
from exporter.language.locales import LOCALES, LocaleSpec, canonical_locale
from exporter.language.repetition import MAX_JUDGED_CHARS
from exporter.language.scripts import LETTERS, Script, script_counts, span_counts, weight
from exporter.language.segment import (
    QUOTE_MARKS,
    Sentence,
    is_quoted,
    join_bracketed,
    mask_code,
    one_quotation,
    split_sentences,
    unquote,
    word_count,
)
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome, Reason
from exporter.textkit import clip

MIN_REPLY_LETTERS = 30  # weighted letters (a CJK character counts 3) below which a reply is too short
SWITCH_SHARE = 0.7  # share of the judged text in one other language that makes a whole switch
SWITCH_MIN_COVERAGE = 0.4  # ... and the share of the whole reply the foreign sentences must cover
MIXING_MIN_SENTENCES = 2  # foreign sentences that make mixing when they are a sustained share ...
MIXING_SHARE = 0.10  # ... of the judged text (by weighted letters)
MIXING_MIN_SURE = 1  # ... of which this many are sure (``Call.sure``): weak calls alone are no proof
SINGLE_SHARE = 0.2  # or one strong foreign sentence (script, or both models near certain) this big
SINGLE_MIN_WEIGHT = 40  # ... with at least this many weighted letters
SINGLE_SENTENCE_SHARE = 0.25  # or one sure foreign sentence that is this share of the judged sentences
SINGLE_MIN_SHARE = 0.05  # ... and at least this share of the judged text
SURE_MIN_WORDS = 5  # ... or has this many words outside quotation marks
TITLE_SHARE = 2 / 3  # ... not this share of them capitalised after the first: a title or a run of names
# or one sure foreign sentence and an unknown one fastText gives this much of the same language
SECOND_LEANING = 0.5
_SAMPLE_CHARS = 80
_MIN_SENTENCE_CHARS = -(-MIN_LETTERS // 3)  # shortest sentence that can reach MIN_LETTERS weighted letters
_NO_LETTERS: dict[Script, int] = {}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The judge's answer. ``evidence`` is JSON-serialisable (sentences, languages, bytes)."""

    outcome: Outcome
    reason: Reason
    evidence: dict[str, object] = field(default_factory=dict)
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        return {"outcome": str(self.outcome), "reason": str(self.reason), "detail": self.detail,
                "evidence": self.evidence}  # fmt: skip


class Judge:
    """Holds the models and tables; build once (``default_judge()``) and call ``judge`` per reply."""

    def __init__(self, ensemble: Ensemble | None = None) -> None:
        self.ensemble = ensemble or Ensemble()  # tests pass a stand-in
        self.encoding = EncodingChecker()

    def warm(self, locales: Iterable[str] = LOCALES) -> None:
        """Load the lexicons the judge reads for these locales, and build the encoding check's tables of
        them, now (about 0.1 s each, once per process) instead of on each locale's first reply. English's
        is loaded whatever the locales: the rules of every locale read it (names and commands in English)."""
        lexicon("en")
        for locale in locales:
            code = canonical_locale(locale) or locale
            language = LOCALES[code].language
            lexicon(language)
            if (twin := TWIN.get(language)) is not None:
                lexicon(twin)  # ``Ensemble.whole_reply`` weighs Indonesian against Malay
            self.encoding.warm(code)

    def judge(self, text: str, locale: str) -> Verdict:
        """Judge one reply against the locale it was asked in. Raises ValueError for an unknown locale.

        >>> default_judge().judge("Bonjour ! Je suis ravie de te revoir, entre te réchauffer.", "fr").outcome
        <Outcome.PASS: 'pass'>
        """
        code = canonical_locale(locale)
        if code is None:
            raise ValueError(f"unknown locale {locale!r} (known: {', '.join(LOCALES)})")
        spec = LOCALES[code]
        text = text[:MAX_JUDGED_CHARS]  # linear time on any reply: the rest is not judged
        if (corruption := self.encoding.find(text, code)) is not None:
            return Verdict(
                Outcome.FAIL,
                Reason.ENCODING,
                {"locale": code, "encoding": corruption.as_evidence()},
                f"{corruption.kind.replace('_', ' ')} at character {corruption.offset}",
            )
        text = unicodedata.normalize("NFC", text).strip()
        # Code (fenced blocks, inline spans) is not language evidence: blanked, offsets kept.
        masked = mask_code(text)
        # A full stop inside brackets ends an abbreviation, not a sentence: the pieces are read as one.
        sentences = join_bracketed(masked, split_sentences(masked))
        # Script counts once per sentence, all from one pass over the reply, and the reply's total is their
        # sum (weight is linear); a sentence of fewer characters than MIN_LETTERS / 3 cannot carry enough
        # weighted letters to be judged (a CJK character weighs 3): the tiny ones ("Ab. Ab. …") are counted
        # together, in one scan.
        counted = iter(
            span_counts(masked, [(s.start, s.end) for s in sentences if len(s.text) >= _MIN_SENTENCE_CHARS])
        )
        sentence_counts = [
            next(counted) if len(s.text) >= _MIN_SENTENCE_CHARS else _NO_LETTERS for s in sentences
        ]
        tiny = " ".join(s.text for s in sentences if len(s.text) < _MIN_SENTENCE_CHARS)
        weights = list(map(weight, sentence_counts))
        total = sum(weights) + (weight(script_counts(tiny)) if tiny else 0.0)
        if total < MIN_REPLY_LETTERS:
            return Verdict(
                Outcome.INCONCLUSIVE,
                Reason.TOO_SHORT,
                {"locale": code, "letters": total, "needed": MIN_REPLY_LETTERS},
                f"{total:g} weighted letters, {MIN_REPLY_LETTERS} needed",
            )
        if (start := find_corrupted_start(text, code)) is not None:
            return Verdict(
                Outcome.FAIL,
                Reason.LEADING_GARBAGE,
                {"locale": code, "start": start.as_evidence(), "first_chars": text[:24]},
                f"{start.kind.replace('_', ' ')} {start.prefix!r} before the first word",
            )
        call = self.ensemble.call
        # A sentence's own quotation marks are punctuation, not words: glued to one (`«We have…»`) they make
        # tokens fastText reads as Russian or Norwegian, whatever the words are.
        calls = [
            call(s.text.strip(QUOTE_MARKS), spec, c, w)
            for s, c, w in zip(sentences, sentence_counts, weights, strict=True)
        ]
        calls = _terms(calls)
        native = sum(c.weight for c in calls if c.status == "native")
        foreign_calls = [(s, c) for s, c in zip(sentences, calls, strict=True) if c.status == "foreign"]
        foreign = sum(c.weight for _, c in foreign_calls)
        judged_weight = native + foreign
        languages: dict[str, float] = {}
        for _, c in foreign_calls:
            key = c.language or "unknown"
            languages[key] = languages.get(key, 0.0) + c.weight
        native_sentences = sum(c.status == "native" for c in calls)
        evidence: dict[str, object] = {
            "locale": code,
            "sentences": len(sentences),
            "native_sentences": native_sentences,
            "foreign_sentences": len(foreign_calls),
            "unknown_sentences": sum(c.status in ("unknown", "short") for c in calls),
        }
        if foreign_calls:
            evidence["foreign_share"] = round(foreign / judged_weight, 3)
            evidence["languages"] = {lang: round(w / judged_weight, 3) for lang, w in _by_weight(languages)}
            evidence["foreign"] = [_sentence_evidence(s, c) for s, c in foreign_calls]
        if judged_weight == 0:
            return self._whole_text(text, spec, evidence)
        share = foreign / judged_weight
        top_language = _by_weight(languages)[0][0] if languages else None
        # The foreign sentences all inside one quotation that holds no native sentence (a character
        # speaking, a quoted message or title; ``segment.quotation``) are dialogue, neither mixing nor,
        # however long, a switch while the reply's own language is there too. Two quotations in another
        # language, one and a foreign sentence outside it, or a quotation in the reply's language with
        # another's sentence inside it are the reply speaking that language.
        single = foreign_calls[0] if len(foreign_calls) == 1 else None
        dialogue = bool(foreign_calls) and (
            one_quotation(
                text,
                [s for s, _ in foreign_calls],
                (s for s, c in zip(sentences, calls, strict=True) if c.status == "native"),
            )
            is not None
        )
        if share >= SWITCH_SHARE and foreign >= SWITCH_MIN_COVERAGE * total and not (dialogue and native):
            detail = f"{share:.0%} of the judged text is {top_language}, not {code}"
            evidence["rule"] = "share"
            return Verdict(Outcome.FAIL, Reason.SWITCH, evidence, detail)
        first = single[1] if single is not None and not dialogue else None
        first_words = word_count(unquote(single[0].text)) if single is not None else 0
        titled = single is not None and first_words >= SURE_MIN_WORDS and is_titled(unquote(single[0].text))
        judged_sentences = native_sentences + len(foreign_calls)
        one_strong = (
            first is not None and first.strong and share >= SINGLE_SHARE and first.weight >= SINGLE_MIN_WEIGHT
        )
        # One whole sentence surely in another language (the script, both models, or a model and the
        # lexicon) is mixing when it is a quarter of what was said (four judged sentences or fewer), or a
        # sentence of SURE_MIN_WORDS words outside quotation marks, not capitalised word after word: a said
        # sentence, not a stray name, a quoted title or a cited one (`Hals über Kopf: Das Handbuch des
        # Notensatzes.` in an English reading list). Malay in Indonesian (basis ``lexicon``) needs the
        # quarter: the two are too close for one sentence of a long reply to settle it (docs/language.md).
        one_sure = (
            first is not None
            and first.sure
            and (
                1 / judged_sentences >= SINGLE_SENTENCE_SHARE
                or (first.basis != "lexicon" and first_words >= SURE_MIN_WORDS and not titled)
            )
            and share >= SINGLE_MIN_SHARE
        )
        # One sure foreign sentence and another that fastText leans to the same language (unknown: CLD3 or
        # the share left to ours kept it from a foreign call) are two sentences in that language (not for
        # Malay in Indonesian: fastText leans to Malay on much Indonesian).
        seconded = (
            first is not None
            and first.sure
            and first.basis != "lexicon"
            and share >= MIXING_SHARE
            and any(
                c.status == "unknown"
                and c.guess is not None
                and c.guess.fasttext[0][0] == first.language
                and c.guess.fasttext[0][1] >= SECOND_LEANING
                for c in calls
            )
        )
        # Two or more foreign sentences, at least one of them sure: a call that rests on one model's doubt
        # (the other model or the lexicon disagreeing) is much likelier on clean text than on real mixing
        # (dev: 27 % of the foreign sentences called in clean text, 1.5 % of those that catch mixing),
        # and two of them (`Мал-Раванал заплатить нам за все.`, Ukrainian words Russian writes alike) are
        # two doubts, not a second language (docs/language.md, Mixing near misses).
        several = (
            len(foreign_calls) >= MIXING_MIN_SENTENCES
            and share >= MIXING_SHARE
            and not dialogue
            and sum(c.sure for _, c in foreign_calls) >= MIXING_MIN_SURE
        )
        if one_strong or one_sure or seconded or several:
            detail = f"{len(foreign_calls)} sentence(s) ({share:.0%}) in {top_language} within {code}"
            evidence["rule"] = (
                "strong" if one_strong else "sure" if one_sure else "seconded" if seconded else "sentences"
            )
            return Verdict(Outcome.FAIL, Reason.MIXING, evidence, detail)
        if native > 0:
            if (whole := self.ensemble.whole_reply(masked, spec, calls)) is not None:
                # Sentences a close language writes alike, in that language as a whole (Malay, Galician).
                other, found = whole
                evidence["whole_reply"] = {"language": other, **found}
                detail = f"the reply as a whole is {other}, not {code} ({found['basis']})"
                return Verdict(Outcome.FAIL, Reason.SWITCH, evidence, detail)
            if (pooled := self._pooled(text, spec, sentences, calls, weights, total)) is not None:
                evidence["pooled"] = pooled
                detail = (
                    f"{pooled['sentences']} short or uncertain sentence(s) ({pooled['share']:.0%}) read "
                    f"together are {pooled['language']}, not {code} ({pooled['basis']})"
                )
                return Verdict(Outcome.FAIL, Reason.MIXING, evidence, detail)
            return Verdict(Outcome.PASS, Reason.NONE, evidence, f"{code} throughout")
        return Verdict(
            Outcome.INCONCLUSIVE, Reason.AMBIGUOUS, evidence, "too little native or foreign evidence"
        )

    def _pooled(
        self,
        text: str,
        spec: LocaleSpec,
        sentences: list[Sentence],
        calls: list[Call],
        weights: list[float],
        total: float,
    ) -> dict[str, object] | None:
        """Mixing that no sentence shows alone: the sentences too short to judge or in doubt
        (``detect.in_doubt``), outside quotation marks, read together (``Ensemble.pooled``) when there
        are ``MIXING_MIN_SENTENCES`` of them making ``MIXING_SHARE`` of the reply. Short lines said in a
        close neighbour (`Ons was te stadig.`, `Tako je.`, `Non, perdemos demasiado tempo.`) are each
        too little for the models; together they are a paragraph. The evidence, or None."""
        expected = spec.language
        doubtful = [
            (s, w)
            for s, c, w in zip(sentences, calls, weights, strict=True)
            if w > 0 and (c.status == "short" or in_doubt(c, expected))
        ]
        # Quoted sentences only drop out: too few or too little before the quotes are looked at, too few
        # after (most replies stop here without a quote scan).
        if len(doubtful) < MIXING_MIN_SENTENCES or sum(w for _, w in doubtful) / total < MIXING_SHARE:
            return None
        picked = [(unquote(s.text), w) for s, w in doubtful if not is_quoted(text, s.start, s.end)]
        share = sum(w for _, w in picked) / total
        if len(picked) < MIXING_MIN_SENTENCES or share < MIXING_SHARE:
            return None
        if (found := self.ensemble.pooled(" ".join(t for t, _ in picked), spec)) is None:
            return None
        language, evidence = found
        return {"language": language, "sentences": len(picked), "share": round(share, 3), **evidence}

    def _whole_text(self, text: str, spec: LocaleSpec, evidence: dict[str, object]) -> Verdict:
        """No sentence was judgeable on its own (many short ones): judge the reply as one piece."""
        code, call = spec.code, self.ensemble.call(text, spec)
        evidence["whole_text"] = {"status": call.status, "language": call.language, "basis": call.basis}
        if call.status == "native":
            return Verdict(Outcome.PASS, Reason.NONE, evidence, f"{code} (judged as a whole)")
        if call.status == "foreign":
            return Verdict(Outcome.FAIL, Reason.SWITCH, evidence, f"the reply is {call.language}, not {code}")
        return Verdict(Outcome.INCONCLUSIVE, Reason.AMBIGUOUS, evidence, "no sentence could be placed")


def _terms(calls: list[Call]) -> list[Call]:
    """``calls`` with the foreign calls that rest on one word (``Call.cue``: the one word only Malay writes
    of a sentence in an Indonesian reply) made unknown when two or more rest on the same word and fastText
    places none of them in the language the word is of: a term the reply uses throughout (Indonesian help
    writes *markah*, a bookmark, which Indonesian's list holds only as a rare word), not the language of
    the sentences it is in. One of them that fastText too places in the other language keeps them all."""
    cues = [c.cue for c in calls if c.cue and c.status == "foreign"]
    if len(cues) < 2 or len(set(cues)) == len(cues):
        return calls
    agreed = {c.cue for c in calls if c.cue and c.guess is not None and c.guess.fasttext[0][0] == c.language}
    terms = {cue for cue in cues if cues.count(cue) > 1} - agreed
    if not terms:
        return calls
    return [c._replace(status="unknown", language=None, sure=False) if c.cue in terms else c for c in calls]


def is_titled(sentence: str) -> bool:
    """Whether a sentence's words after the first are capitalised word after word (``TITLE_SHARE`` of
    those with a lowercase letter; a word in capitals says nothing): a title (`Die Jazzmethode für
    Klavier`) or a run of names, which a sentence said in a language, German's capitalised nouns
    included, seldom is (dev sentences of five words or more in the fiction set's alphabetic languages:
    0.07 %, at most 0.3 % in a language of a thousand or more, most of them a character giving their name
    and title). English title case leaves its short words in lowercase (`Guide to Music Notation`); a
    said sentence opening on a capitalised name (`General Protection Fault: Could not enter Windows, try
    Doors...`, five of eight) does not reach two in three.

    >>> is_titled("Hals über Kopf: Das Handbuch des Notensatzes."), is_titled("Wir müssen jetzt zum Bahnhof.")
    (True, False)
    """
    cased = [word for word in LETTERS.findall(sentence)[1:] if not word.isupper()]
    # (a ratio equal to 2 / 3, 4 of 6, is the same float as TITLE_SHARE: both are 2/3 correctly rounded)
    return bool(cased) and sum(word[0].isupper() for word in cased) / len(cased) >= TITLE_SHARE


def _by_weight(languages: dict[str, float]) -> list[tuple[str, float]]:
    return sorted(languages.items(), key=lambda item: (-item[1], item[0]))


def _sentence_evidence(sentence: Sentence, call: Call) -> dict[str, object]:
    out: dict[str, object] = {
        "start": sentence.start,
        "end": sentence.end,
        "language": call.language,
        "basis": call.basis,
        "text": clip(sentence.text, _SAMPLE_CHARS),
    }
    if call.guess is not None:
        out["models"] = call.guess.as_evidence()
    return out


@functools.cache
def default_judge() -> Judge:
    """The process-wide judge (models loaded on first use, about 0.1 s)."""
    return Judge()


def judge(text: str, locale: str) -> Verdict:
    """Judge one reply with the shared ``Judge`` (see ``Judge.judge``).

    >>> judge("ing Hello there, traveller! Come in out of the rain and sit by the fire.", "en").reason
    <Reason.LEADING_GARBAGE: 'leading_garbage'>
    """
    return default_judge().judge(text, locale)
