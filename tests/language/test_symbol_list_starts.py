"""Legitimate documentation starts: a list of symbols, each spaced before its definition; a quoted command
of vi's command line with its arguments; a word before a term a low quote opens and a straight quote closes;
and the stray marks and pieces beside them."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # bash's word designators: each symbol before its definition, the next one after a sentence's end
        (
            "^ Le premier argument, c'est-à-dire le mot 1. $ Le dernier mot. C’est généralement le dernier"
            " argument. % Le premier mot correspondant à la recherche.",
            "fr",
        ),
        ("$ L'ultima parola. Normalmente questo è l'ultimo argomento. % La prima parola trovata.", "it"),
        ("| Separa le alternative.\n& Inserisce il testo trovato.", "it"),
    ],
)
def test_a_list_of_symbols_and_their_definitions_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("$ The keeper went home. He said nothing to anyone.", "en"),  # one sentence opens with a symbol
        ("& La gardienne ferma la porte.\n\nElle ne dit rien.", "fr"),
        ('^ The keeper went home. "Stay," he said. $10 was all he had.', "en"),  # "$10" defines nothing
        ("^ Der Wächter ging. - Er sagte nichts.", "de"),  # a dash is no symbol of the list
    ],
)
def test_a_stray_symbol_before_prose_is_still_stray(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.kind == "stray_punctuation"


@pytest.mark.parametrize(
    "text",
    [
        '":set uc=0" ile de yapılabilir. Geri almak için ":set uc=200" yapın.',
        '":w!". -R seçeneği -n seçeneğini de uygular. ´readonly\' seçeneği ":set noro" ile sıfırlanabilir.',
    ],
)
def test_a_quoted_command_of_vi_with_its_arguments_passes(text: str) -> None:
    assert find_corrupted_start(text, "tr") is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('":make install" builds the program and copies it into place.', "en"),  # no other command named
        ('".Il guardiano disse: vieni qui. :set è un comando."', "it"),  # a capital: a line of dialogue
        ('":the keeper went home. He said" nothing at :set time.', "en"),  # a sentence inside the quote
        ('",set uc=0" ile de yapılabilir. Geri almak için ":set uc=200" yapın.', "tr"),  # a comma
    ],
)
def test_a_stray_mark_behind_an_opening_quote_is_still_stray(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.kind == "stray_punctuation"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('Właściwość „Margin" służy do ustawiania równych marginesów ze wszystkich stron strony.', "pl"),
        ('Kliknij „Zapisz" i zamknij okno.', "pl"),
    ],
)
def test_a_word_before_a_term_a_low_quote_opens_and_a_straight_quote_closes_passes(
    text: str, locale: str
) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('Ment „Chodź tutaj," powiedziała cicho.', "pl"),  # dialogue: its comma before the closer
        ('Ation „Die Tür" Er ging hinaus.', "de"),  # no word before the term, a sentence after it
        # a typographic closer follows: the straight quotes are a quote inside the quote
        ('Wonder „Dies ist eine "Sperber" gelenkte Anti-Luftrakete.“ Sie wurde entwickelt.', "de"),
        ("Kliknij „Zapisz i zamknij okno, a potem wróć do listy wszystkich dokumentów w folderze.", "pl"),
    ],
)
def test_a_piece_before_a_low_quote_is_still_a_fragment(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.kind == "fragment"


def test_a_stray_symbol_before_a_text_with_a_spaced_formula_is_still_stray() -> None:
    text = 'Si delimitador es un intervalo, se usa de nuevo. = UNIRCADENAS(" "; 1; "Aquí") devuelve "Aquí".'
    found = find_corrupted_start("| " + text, "es")
    assert found is not None and found.kind == "stray_punctuation"
