"""German capitalises nouns and sentence openers: a name before a capitalised word is no piece there, a
short capitalised piece before a function word still is."""

from __future__ import annotations

import pytest

from exporter.language.start import GERMAN_NAME_MIN_LETTERS, find_corrupted_start

SENTENCE = "Zu welchem Zweck wollt Ihr so lange in diesem kalten Turm am Hafen bleiben, fragte der Wächter."


@pytest.mark.parametrize("name", ["Kowalski", "Nguyễn", "Yılmaz", "García", "Dubois"])
def test_a_surname_before_a_capitalised_german_sentence_is_a_name(name: str) -> None:
    assert len(name) >= GERMAN_NAME_MIN_LETTERS
    assert find_corrupted_start(f"{name} {SENTENCE}", "de") is None


@pytest.mark.parametrize("piece", ["Ation", "Ung", "Keit"])
def test_a_short_capitalised_piece_before_a_german_function_word_is_a_fragment(piece: str) -> None:
    found = find_corrupted_start(f"{piece} {SENTENCE}", "de")
    assert found is not None and found.prefix == piece


def test_the_same_surname_before_a_capitalised_sentence_is_a_piece_in_french() -> None:
    found = find_corrupted_start("Kowalski La gardienne monta l'escalier de la vieille tour.", "fr")
    assert found is not None and found.prefix == "Kowalski"
