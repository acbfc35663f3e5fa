"""Legitimate starts of documentation prose that look like a piece before the text: an abbreviation
before its expansion in brackets, a first word and its short aside or gloss in brackets, a list of quoted
terms, a term quoted with the closing mark on both sides; and the corrupted starts beside them."""

from __future__ import annotations

import pytest

from exporter.language.start import PAREN_CLOSE_CHARS, find_corrupted_start


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # an abbreviation before its expansion
        ("LVM (Logical Volume Manager, ou gestion de volumes) regroupe plusieurs disques en un seul.", "fr"),
        ("RAID (Redundant Array of Independent Disks, en español) protege los datos de un fallo.", "es"),
        ("DNS (Domain Name System — система доменных имён) сопоставляет имена и адреса.", "ru"),
        # a first word and its short aside or gloss in brackets
        ("古い (十年前の) ルータでは別の設定ファイルが使われていました。", "ja"),
        ("Depends (依存) フィールドはインストールに必要なパッケージを示します。", "ja"),
        ("Suggests (建议) 字段列出可能有用的软件包。", "zh-Hans"),
    ],
)
def test_a_first_word_before_its_expansion_or_aside_in_brackets_is_a_word(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text",
    [
        "HELL (Um texto qualquer que segue sem fechar o parêntese por muitas palavras ainda.",
        "ING (In the beginning, nobody gave the keeper a name or a lamp to carry.",  # "I… b…": no
        "NGS (Le serveur de noms garde une table des adresses pour chaque machine du réseau.",
    ],
)
def test_a_capital_piece_before_a_bracket_that_does_not_spell_it_is_still_a_fragment(text: str) -> None:
    found = find_corrupted_start(text, "pt-BR")
    assert found is not None and found.kind == "fragment"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Ation (引導分區也可設定 LVM 而不是分區 (見下方)。其他的操作都相同。", "zh-Hant"),  # inner bracket
        ("Ation (これは説明です。) その後で設定します。", "ja"),  # a sentence in the bracket
        ("Ation (" + "長" * (PAREN_CLOSE_CHARS + 5) + ") と書きます。", "ja"),  # closed too far
    ],
)
def test_a_piece_before_a_bracket_opening_the_text_is_still_a_fragment(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == "Ation"


def test_a_list_of_quoted_terms_after_the_first_word_passes() -> None:
    text = 'Formaty "PNG", "JPEG" i "WebP" to przykłady formatów obsługiwanych przez przeglądarkę.'
    assert find_corrupted_start(text, "pl") is None


def test_a_piece_before_a_quoted_sentence_is_still_a_fragment() -> None:
    found = find_corrupted_start('Ment "Zostań tutaj", "proszę". Powiedziała cicho.', "pl")
    assert found is not None and found.prefix == "Ment"


def test_a_term_quoted_with_the_closing_mark_on_both_sides_passes() -> None:
    text = "”Ruang kerja” adalah tempat pengguna menyimpan berkas yang sedang dikerjakan."
    assert find_corrupted_start(text, "id") is None


@pytest.mark.parametrize(
    "text",
    ["”ing The keeper went home.", "”The keeper went home.", "”“Come in,” she said, ”quickly”."],
)
def test_a_lone_closing_quote_before_the_text_is_still_stray(text: str) -> None:
    found = find_corrupted_start(text, "en")
    assert found is not None and found.kind == "stray_punctuation"
