"""Lore and dialogue the language models misplace: short lines the models pool into another language while
every word is the reply's own (``detect._lexicon_keeps``), a CJK word quoted in a sentence of an alphabet
(``detect._cjk_word``). The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.detect import _lexicon_keeps
from exporter.language.judge import default_judge
from exporter.outcomes import Outcome

# A German character's lines whose first question is a word English writes too.
GERMAN = (
    "Mission? Welche Mission? Die Brücke zu sprengen? Ich werde deine Welt zum Beben bringen! "
    "Was auch immer du tust ... ich kann dir aushelfen!"
)


def test_a_pool_of_the_replys_own_words_is_not_mixing() -> None:
    assert _lexicon_keeps("Mission? Welche Mission?", "de", "en")
    assert default_judge().judge(GERMAN, "de").outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("text", "expected", "called"),
    [
        ("Get out! Right now!", "de", "en"),  # words English writes, German does not
        ("Maatilalta? Nyt riittää.", "tr", "fi"),  # words the Turkish lexicon does not know
        ("Mission? Mission?", "de", "en"),  # known to both, likelier in English
    ],
)
def test_a_pool_with_the_called_languages_words_stays_foreign(text: str, expected: str, called: str) -> None:
    assert not _lexicon_keeps(text, expected, called)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Was ありがとう all he said? The innkeeper shrugged and went back to the fire.", "en"),
        ("Ik koop *さようなら* er één. De koopman lachte en gaf me de sleutel van de oude schuur.", "nl"),
    ],
)
def test_a_cjk_word_inside_a_sentence_of_the_alphabet_is_a_word(text: str, locale: str) -> None:
    verdict = default_judge().judge(text, locale)
    assert verdict.outcome is Outcome.PASS, verdict.detail


def test_a_japanese_sentence_inside_an_english_reply_is_still_mixing() -> None:
    text = (
        "We waited at the gate until the bells rang. 彼は家に帰らなかった。 Nobody knew where he had gone, "
        "and the captain sent riders along the river road before dawn."
    )
    assert default_judge().judge(text, "en").outcome is Outcome.FAIL
