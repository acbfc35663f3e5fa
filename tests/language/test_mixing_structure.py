"""The structure of a sentence that says it is no sentence said in another language: a full stop inside
brackets (an abbreviation's, not a sentence's end) and a title cited word after word in capitals. Each
class was a clean reply failed as mixing (``bench/mixing_pressure.py``, dev split)."""

from __future__ import annotations

from exporter.language.judge import SURE_MIN_WORDS, is_titled, judge
from exporter.language.segment import BRACKET_LOOK, join_bracketed, split_sentences, word_count
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


def test_a_sentence_starting_with_a_capital_or_a_quote_inside_brackets_stays_its_own() -> None:
    text = "Einige Werkzeuge (vgl. “Hemos visto cómo se combinan las notas.” Abschnitt 10) helfen."
    assert _texts(text) == [s.text for s in split_sentences(text)]
    text = "Einige Werkzeuge (vgl. Abschnitt 10) helfen. Dann (z. B. die Datenbank) auch."
    assert _texts(text) == [
        "Einige Werkzeuge (vgl.",
        "Abschnitt 10) helfen.",
        "Dann (z. B. die Datenbank) auch.",
    ]


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


# The LilyPond reading list in English cites German books by their German titles.
READING_LIST = (
    "A concise, alphabetically ordered list of typesetting and music notation issues, covering most of "
    "the normal cases. Elaine Gould, Behind Bars: the Definitive Guide to Music Notation. Faber Music "
    "Ltd. ISBN 0-571-51456-1. {} Edition Peters. ISBN 1843670488. A comprehensive guide to the rules "
    "and conventions of music notation. It covers everything from basic themes to complex techniques "
    "and gives a comprehensive grounding in notational principles."
)
TITLE = "Hals über Kopf: Das Handbuch des Notensatzes."
SAID = "Wir müssen das Buch heute noch in die Bibliothek zurückbringen."


def test_a_title_capitalised_word_after_word_is_titled_and_a_german_sentence_is_not() -> None:
    assert is_titled(TITLE)
    assert is_titled("Klaus Ignatzek, Die Jazzmethode für Klavier.")
    assert not is_titled(SAID)  # German capitalises its nouns, not every word
    # an English joke opening on a capitalised error name is still said (five of eight words capitalised)
    assert not is_titled("General Protection Fault: Could not enter Windows, try Doors...")
    assert not is_titled("WIR MÜSSEN JETZT GEHEN, SOFORT!")  # capitals say nothing either way
    assert not is_titled("Morgen gehen wir nach Hause.")  # the first word is capitalised in any sentence


def test_one_cited_title_in_another_language_is_not_mixing_but_a_said_sentence_is() -> None:
    assert word_count(TITLE) >= SURE_MIN_WORDS and word_count(SAID) >= SURE_MIN_WORDS
    verdict = judge(READING_LIST.format(TITLE), "en")
    assert verdict.outcome is Outcome.PASS, verdict.as_dict()
    verdict = judge(READING_LIST.format(SAID), "en")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()
