"""Starts of fiction and lore that look like corruption and are not: Spanish doubling its inverted marks
for emphasis, a one-word sentence before a question, a full name with letters the reply's alphabet lacks.
The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


@pytest.mark.parametrize(
    ("text", "stray"),
    [
        ("¡¡Corred, que viene la marea!! El barquero ya soltaba amarras.", None),
        ("¿¿De verdad cruzaste el río de noche?? Nadie se atreve a hacerlo.", None),
        ("¡¡¡Fuego en el granero!!! Los vecinos corrieron con cubos de agua.", None),
        # a piece "¡" glued before a sentence that closes with one mark is still stray
        ("¡¡Corred, que viene la marea! El barquero ya soltaba amarras.", "¡¡"),
        ("¿¿De verdad cruzaste el río de noche? Nadie se atreve a hacerlo.", "¿¿"),
    ],
)
def test_a_doubled_inverted_mark_is_emphasis_when_its_closer_is_doubled(text: str, stray: str | None) -> None:
    found = find_corrupted_start(text, "es")
    assert (found.prefix if found else None) == stray, found


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        # a one-word sentence of the language before a question (the lexicon knows the word)
        ("Tonterías. ¿De verdad crees que el barquero volverá esta noche?", None),
        ("Basta. ¡Nadie cruza el puente hasta que vuelva el capitán!", None),
        # a piece no lexicon lists, with a full stop, before the question is still a fragment
        ("Ation. ¿De verdad crees que el barquero volverá esta noche?", "Ation"),
    ],
)
def test_a_word_and_its_full_stop_before_a_question_is_a_sentence(text: str, fragment: str | None) -> None:
    found = find_corrupted_start(text, "es")
    assert (found.prefix if found else None) == fragment, found


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (
            "Tomás Ortega Ruiz (the Weaver) told the story of the seven sisters to every child of the vale.",
            None,
        ),
        (
            "Dvořák Anton Leopold, as the programme names him, wrote the symphony in a small Iowa town.",
            None,
        ),
        # a piece before one capitalised word, the sentence's first, is still a fragment
        ("Şlem The seven sisters rise in the east before the first frost of the year.", "Şlem"),
    ],
)
def test_a_full_name_opening_the_reply_is_a_name(text: str, fragment: str | None) -> None:
    found = find_corrupted_start(text, "en")
    assert (found.prefix if found else None) == fragment, found
