"""The structure of a sentence that says it is no sentence said in another language: a full stop inside
brackets (an abbreviation's, not a sentence's end). Each class was a clean reply failed as mixing
(``bench/mixing_pressure.py``, dev split)."""

from __future__ import annotations

from exporter.language.judge import judge
from exporter.language.segment import BRACKET_LOOK, join_bracketed, split_sentences
from exporter.outcomes import Outcome, Reason

# Stellarium's Sami sky culture in Dutch: `let.` (letterlijk) inside brackets cut the sentence into
# `vogel pad) of Jakke-mærka (let.`, which both models called Danish (fastText 0.74, CLD3 1.0).
SAMI = (
    "De Melkweg wordt Lodde-raiddaras (let. vogel pad) of Jakke-mærka (let. jaarmark) genoemd. "
    "Welke naam wordt gebruikt is afhankelijk van het seizoen. Op de hemelkaart van Johan Turi kan men "
    "een ster Guovso-naste, morgenster, waarnemen die kan worden geïdentificeerd als Venus, maar dit is "
    "onzeker omdat het ook Altair kan zijn, een ster die aangeeft dat de morgen nadert."
)


def _texts(text: str) -> list[str]:
    return [s.text for s in join_bracketed(text, split_sentences(text))]


def test_a_full_stop_inside_brackets_does_not_end_the_sentence() -> None:
    assert _texts(SAMI)[0] == (
        "De Melkweg wordt Lodde-raiddaras (let. vogel pad) of Jakke-mærka (let. jaarmark) genoemd."
    )
    assert len(_texts(SAMI)) == 3
    # a bracket closed inside its sentence, or never opened, leaves the split as it was
    text = "Zie het handboek (hoofdstuk 3). Dat is alles. Nog iets) hier."
    assert _texts(text) == [s.text for s in split_sentences(text)]


def test_a_bracket_closing_on_another_line_or_too_far_on_joins_nothing() -> None:
    text = "Het begint hier (zie ook. Een nieuwe regel\nmet de sluiting)."
    assert _texts(text) == [s.text for s in split_sentences(text)]
    far = "Het begint hier (zie ook. " + "Een zin zonder einde " * (BRACKET_LOOK // 20) + "sluit)."
    assert _texts(far) == [s.text for s in split_sentences(far)]


def test_a_dutch_paragraph_with_an_abbreviation_in_brackets_is_dutch() -> None:
    verdict = judge(SAMI, "nl")
    assert verdict.outcome is Outcome.PASS, verdict.as_dict()


def test_sentences_in_another_language_around_brackets_are_still_mixing() -> None:
    danish = "Jeg ved ikke, hvad vi skal gøre nu, for skibet er sunket. Vi må gå hjem til byen før natten."
    verdict = judge(SAMI.replace("Welke naam", f"{danish} Welke naam"), "nl")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()
