"""Starts of characters' lines in fiction that look like corruption and are not: Spanish doubling its
inverted marks for emphasis."""

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
