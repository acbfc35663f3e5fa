"""Legitimate openers that came close to the corrupted-start verdict (``bench/start_margins.py``), each
with the corrupted look-alikes that must still fail."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Przycisk „Zapisz” zapamiętuje zmiany, zanim zamkniesz okno edytora.", "pl"),
        ("Opcja „Pokaż siatkę” włącza linie pomocnicze na całym płótnie.", "pl"),
        ("Kategoria „Ruch” skupia zadania, w których figury przesuwa się po planszy.", "pl"),
    ],
)
def test_a_low_quote_closed_by_a_right_double_quote_is_a_term(text: str, locale: str) -> None:
    # „…” as Polish (and Romanian, Hungarian) write it, as „…“ is German's: both close the term
    assert find_corrupted_start(text, locale) is None
    assert find_corrupted_start(text.replace("”", "“"), locale) is None


@pytest.mark.parametrize(
    "text",
    [
        "Ation „Zapisz” Ten przycisk zapamiętuje zmiany.",  # a piece, a term, then a new sentence
        "Ungen „Wracaj do domu!” Matka stała w progu i patrzyła na drogę.",  # a piece before dialogue
        "Ment „Zapisz zmiany teraz. Potem zamknij okno edytora.”",  # a piece before a quoted reply
    ],
)
def test_a_piece_or_word_before_a_quoted_sentence_is_still_judged(text: str) -> None:
    assert find_corrupted_start(text, "pl") is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Я — Тарас Веремій, вартовий цієї брами вже двадцять років.", "uk"),
        ("Я — Агафья, дочь мельника, и эту дорогу знаю лучше всех.", "ru"),
    ],
)
def test_the_pronoun_before_the_copula_dash_is_a_word(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Ы — Агафья, дочь мельника, и эту дорогу знаю лучше всех.", "ru"),  # no word
        ("A — La gardienne monta l'escalier de la tour avant l'aube.", "fr"),  # no copula dash in French
    ],
)
def test_a_one_letter_piece_before_a_dash_is_still_a_fragment(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == text[0]
