"""Mixing no sentence shows alone (``Judge._pooled``, ``Ensemble.pooled``): short lines said in a close
neighbour, each too short for the models, read together. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.detect import NOT_ASKED, Call, Ensemble, Guess, _both_models_not_ours
from exporter.language.judge import default_judge
from exporter.language.locales import LOCALES, LocaleSpec
from exporter.language.scripts import Script
from exporter.outcomes import Outcome, Reason

# Two short lines in the neighbour (each under the weighted letters a sentence needs to be judged alone)
# inside narration in the asked locale.
MIXED = [
    (
        "de",
        "nl",
        "Die Brücke war verschwunden, noch vor der Morgendämmerung von den Räubern niedergebrannt. Ons was "
        "te laat. Wir standen am Ufer und sahen dem Rauch über dem Fluss nach. Wat moet ons nou doen? "
        "Niemand hatte eine Antwort, und der Hauptmann schüttelte nur den Kopf.",
    ),
    (
        "en",
        "nl",
        "The bridge was gone, burned to the waterline by the raiders before dawn. Ons was te laat. We stood "
        "on the bank and watched the smoke drift over the river. Wat moet ons nou doen? Nobody had an "
        "answer, and the captain only shook his head.",
    ),
    (
        "pt-BR",
        "gl",
        "A ponte tinha sumido, queimada pelos bandidos antes do amanhecer. Non sei. Ficamos na margem "
        "olhando a fumaça sobre o rio. Imos velo mañá! Ninguém tinha uma resposta e o capitão só balançou "
        "a cabeça.",
    ),
    (
        "ru",
        "hbs",
        "Мост исчез: разбойники сожгли его ещё до рассвета. Касно смо стигли. Мы стояли на берегу и "
        "смотрели, как дым плывёт над рекой. Шта ћемо сад? Никто не знал ответа, и капитан только покачал "
        "головой.",
    ),
]
SPANISH = (
    "El puente había desaparecido, quemado por los bandidos antes del amanecer. {a} Nos quedamos en la "
    "orilla mirando el humo sobre el río. {b} Nadie tenía una respuesta y el capitán solo negó con la cabeza."
)


@pytest.mark.parametrize(("locale", "language", "text"), MIXED)
def test_short_lines_in_a_close_neighbour_read_together_are_mixing(
    locale: str, language: str, text: str
) -> None:
    verdict = default_judge().judge(text, locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()
    pooled = verdict.evidence["pooled"]
    assert isinstance(pooled, dict) and pooled["language"] == language and pooled["sentences"] == 2


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("¡Ja!", "¿Y ahora qué?"),  # interjections and short lines of the reply's own language
        ("¡Uf! Correcto.", "¿Qué?"),
        # a character speaking the neighbour inside quotation marks is dialogue, not mixing
        ("Ella dijo: «Chegamos tarde de máis.»", "Él gritó: «Que imos facer agora?»"),
    ],
)
def test_short_native_lines_and_quoted_ones_do_not_make_a_pool(a: str, b: str) -> None:
    verdict = default_judge().judge(SPANISH.format(a=a, b=b), "es")
    assert verdict.outcome is Outcome.PASS, verdict.as_dict()


def test_a_pool_is_not_foreign_by_script_alone() -> None:
    # Two short kana words pooled are a word and a name, not a sentence in Japanese: the per-sentence
    # rules decide a sentence in another script once it is long enough.
    ensemble = default_judge().ensemble
    assert ensemble.pooled("Lei: ありがとう. Lui: さよなら.", LOCALES["it"]) is None
    found = ensemble.pooled("Ons was te laat. Wat moet ons nou doen?", LOCALES["de"])
    assert found is not None and found[0] == "nl"


def test_a_pool_needs_two_sentences_making_a_tenth_of_the_reply() -> None:
    lines = ("Ons was te laat.", "Wat moet ons nou doen?")
    assert default_judge().judge(SPANISH.format(a=lines[0], b=lines[1]), "es").reason is Reason.MIXING
    assert default_judge().judge(SPANISH.format(a=lines[0], b=""), "es").outcome is Outcome.PASS
    # the same two lines in a reply three times as long are under a tenth of it
    longer = " ".join([SPANISH.format(a=lines[0], b=lines[1]), *[SPANISH.format(a="", b="")] * 2])
    verdict = default_judge().judge(longer, "es")
    assert verdict.outcome is Outcome.PASS and "pooled" not in verdict.evidence, verdict.as_dict()


class _Fixed(Ensemble):
    """The ensemble with one call for any text: the pool's own rule, apart from the models' answers."""

    def __init__(self, fixed: Call) -> None:
        super().__init__()
        self.fixed = fixed

    def call(
        self, text: str, spec: LocaleSpec, counts: dict[Script, int] | None = None, w: float | None = None
    ) -> Call:
        return self.fixed


# fastText splitting Afrikaans between itself and Dutch, CLD3 certain: neither model alone "sure"
SPLIT = Guess((("af", 0.56), ("nl", 0.25), ("de", 0.04)), ("af", 0.999))
# German pool text: the whole-reply signals (CLD3 and the lexicon over the pool) find nothing in it, so only
# the call decides
POOL = "Nimm deine Waffen! Das Tor konnte nicht rechtzeitig geschlossen werden."


def test_a_pool_both_models_rule_out_is_foreign_though_neither_is_sure_of_which_language() -> None:
    unsure = Call("foreign", "af", 40.0, "models", SPLIT, sure=False)
    assert _both_models_not_ours(unsure, "de")
    found = _Fixed(unsure).pooled(POOL, LOCALES["de"])
    assert found is not None and found[0] == "af", found


@pytest.mark.parametrize(
    "guess",
    [
        Guess((("af", 0.56), ("de", 0.25), ("nl", 0.04)), ("af", 0.999)),  # fastText leaves German a quarter
        Guess(SPLIT.fasttext, ("af", 0.9)),  # CLD3 short of near certain
        Guess(SPLIT.fasttext, NOT_ASKED),  # settled without CLD3 (letters, function words)
        Guess(SPLIT.fasttext, ("und", 0.999)),
        # English is no close neighbour of German: an English line stands on its own evidence
        Guess((("en", 0.56), ("nl", 0.25), ("de", 0.04)), ("en", 0.999)),
    ],
)
def test_an_unsure_pool_stays_open_unless_both_models_rule_the_expected_language_out(guess: Guess) -> None:
    unsure = Call("foreign", "af", 40.0, "models", guess, sure=False)
    assert not _both_models_not_ours(unsure, "de")
    assert _Fixed(unsure).pooled(POOL, LOCALES["de"]) is None
