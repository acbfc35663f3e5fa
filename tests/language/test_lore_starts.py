"""Starts of fiction and lore that look like corruption and are not: Spanish doubling its inverted marks
for emphasis, a one-word sentence before a question, a full name with letters the reply's alphabet lacks.
The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a doubled inverted mark closed by a doubled closer is emphasis
        ("¡¡Corred, que viene la marea!! El barquero ya soltaba amarras.", "es", None),
        ("¿¿De verdad cruzaste el río de noche?? Nadie se atreve a hacerlo.", "es", None),
        ("¡¡¡Fuego en el granero!!! Los vecinos corrieron con cubos de agua.", "es", None),
        # ... a piece "¡" glued before a sentence that closes with one mark is still stray
        ("¡¡Corred, que viene la marea! El barquero ya soltaba amarras.", "es", "¡¡"),
        ("¿¿De verdad cruzaste el río de noche? Nadie se atreve a hacerlo.", "es", "¿¿"),
        # a one-word sentence of the language (its lexicon knows the word) before a question
        ("Tonterías. ¿De verdad crees que el barquero volverá esta noche?", "es", None),
        # ... a piece no lexicon lists, with a full stop, is still a fragment: a piece cut from a word's
        # middle is lowercase or in capitals (capitalised, it is a name: ``test_start_words``)
        ("ation. ¿De verdad crees que el barquero volverá esta noche?", "es", "ation"),
        ("ATION. ¿De verdad crees que el barquero volverá esta noche?", "es", "ATION"),
        # a full name with letters the reply's alphabet lacks
        ("Tomás Ortega Ruiz (the Weaver) told the story of the seven sisters to a child.", "en", None),
        ("Dvořák Anton Leopold, as the programme names him, wrote the symphony in Iowa.", "en", None),
        # ... a piece before one capitalised word, the sentence's first, is still a fragment
        ("Şlem The seven sisters rise in the east before the first frost of the year.", "en", "Şlem"),
        # a given name and a family name or title no common word, then the verb
        (
            "Kenjō Ishida walked to the temple before dawn, as he had done every day for forty years.",
            "en",
            None,
        ),
        # ... a piece before a common capitalised word, then lowercase, is still a fragment
        ("Şlem Seven sisters rise in the east before the first frost of the year.", "en", "Şlem"),
    ],
)
def test_a_start_of_fiction_or_lore(text: str, locale: str, piece: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found
