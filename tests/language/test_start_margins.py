"""Legitimate openers that came close to the corrupted-start verdict (``bench/start_margins.py``), each
with the corrupted look-alikes that must still fail."""

from __future__ import annotations

import pytest

from exporter.language.lexicon import lexicon
from exporter.language.start import FUNCTION_WORDS, find_corrupted_start


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
    "text",
    [
        "這些 設定檔會在程式啟動時被讀取，並覆蓋內建的預設值。",
        "執行 安裝程式之前，請先關閉所有正在使用的視窗。",
    ],
)
def test_a_common_word_in_traditional_characters_spaced_from_the_text_is_a_word(text: str) -> None:
    # the lexicon lists Chinese in simplified characters: "這些" is looked up as "这些", as wordfreq does
    assert find_corrupted_start(text, "zh-Hant") is None


@pytest.mark.parametrize("piece", ["況", "們學", "衝"])
def test_a_piece_spaced_before_traditional_text_is_still_a_fragment(piece: str) -> None:
    found = find_corrupted_start(f"{piece} 設定檔會在程式啟動時被讀取，並覆蓋內建的預設值。", "zh-Hant")
    assert found is not None and found.prefix == piece


def test_the_chinese_lexicon_reads_a_traditional_word_by_its_simplified_form() -> None:
    lex = lexicon("zh-Hant")
    assert lex.rank("這些") == lex.rank("这些") < FUNCTION_WORDS
    assert lex.is_common("執行") and lex.is_common("设定")
    assert not lex.is_word("們學")  # no word in either variant
    assert not lexicon("ja").is_word("這些")  # Japanese is not folded: its kanji are its own
    # nor simplified Chinese, where a traditional form is the other variant's ("於" before "唉，这是…")
    assert not lexicon("zh-Hans").is_word("這些") and lexicon("zh-Hans").is_word("这些")
    assert find_corrupted_start("於 唉，这是亡灵的杰作，他们已经开始对我们施咒了。", "zh-Hans") is not None


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
