"""Legitimate starts that look like a piece before a sentence: a long word the lexicon does not list, a
headword in capitals and its definition, a quoted term followed by a comma; and a quoted identifier in
Latin letters inside a Cyrillic sentence, which is no language evidence."""

from __future__ import annotations

import pytest

from exporter.language.judge import judge
from exporter.language.segment import mask_code
from exporter.language.start import LONG_HEADWORD_MIN_LETTERS, LONG_WORD_MIN_LETTERS, find_corrupted_start
from exporter.outcomes import Outcome


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Obiecywałem Ci już wczoraj, że wrócę przed zmrokiem do wioski.", "pl"),
        ("Magnanimity Is what the old king lacked when the rebels knelt before him.", "en"),
    ],
)
def test_a_long_capitalised_word_before_a_function_word_is_a_word(text: str, locale: str) -> None:
    assert len(text.split()[0]) >= LONG_WORD_MIN_LETTERS
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize("piece", ["Ation", "Ungen", "Ement"])
def test_a_capitalised_piece_before_a_function_word_is_still_a_fragment(piece: str) -> None:
    found = find_corrupted_start(f"{piece} La vieille gardienne monta l'escalier de la tour.", "fr")
    assert found is not None and found.prefix == piece


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("CASTELLO - Dimora fortificata dove il barone conta le sue monete.", "it"),
        ("LANTERNE - Lumière portative que le veilleur allume à la tombée de la nuit.", "fr"),
        ("PERGAMINOWY - Taki, który szeleści jak stare listy w szufladzie.", "pl"),
    ],
)
def test_a_headword_in_capitals_before_a_dash_and_its_definition_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize("text", ["ONAL - La torre del norte cayó anoche.", "ACE ¿Dónde está la llave?"])
def test_capitals_that_are_no_headword_stay_fragments(text: str) -> None:
    assert find_corrupted_start(text, "es") is not None


def test_a_quoted_term_followed_by_a_comma_is_inside_the_sentence() -> None:
    text = 'Przycisk "Rozkazy", który widzisz na dole ekranu, otwiera listę zadań dla oddziału.'
    assert find_corrupted_start(text, "pl") is None
    assert find_corrupted_start('Ation "Rozkazy" Ten przycisk otwiera listę zadań.', "pl") is not None


def test_a_quoted_term_followed_by_a_menu_path_symbol_is_inside_the_sentence() -> None:
    text = "Відкрийте «Файл» ▸ «Друк», щоб надрукувати сторінку, яку ви щойно написали."
    assert find_corrupted_start(text, "uk") is None
    assert judge(text, "uk").outcome is Outcome.PASS
    # a quoted sentence after the piece is dialogue, not a term: still a piece
    assert find_corrupted_start("Ment «¡Vamos ya!» Salimos antes del amanecer.", "es") is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("««Журнал» зберігає всі зміни, які ви зробили.» Відкрийте його з меню програми.", "uk"),
        ('""Arsip" adalah berkas yang berisi berkas lain." Buka arsip dengan pengelola arsip.', "id"),
    ],
)
def test_a_quoted_sentence_opening_with_a_quoted_term_is_a_quote_in_a_quote(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    # the same pair before a sentence that quotes a term inside it is a doubled opener
    inside = 'Buka berkas yang disebut "arsip" dengan pengelola. Ini "mudah" sekali.'
    assert find_corrupted_start('""' + inside, "id") is not None
    assert find_corrupted_start("««Відкрийте «Журнал» з меню програми.» Там усе.", "uk") is not None


def test_a_quoted_identifier_is_blanked_and_a_cyrillic_sentence_naming_it_stays_native() -> None:
    assert mask_code("Див. 'maxsize'.") == "Див.          ."
    reply = (
        "Місто не може рости, поки його запаси не перевищать це число. Коли запаси більші ніж "
        "'minstock', ріст відновлюється поступово. Дивись також на 'maxstocklimit'."
    )
    assert judge(reply, "uk").outcome == "pass"
    assert judge("The keeper said 'Dobranoc' and left the tower without a word.", "en").outcome == "pass"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("strażniczka: — Zamknijcie bramę, zanim słońce zajdzie za wzgórza.", "pl"),
        ("lanterne: Objet que le veilleur allume quand la nuit tombe sur le port.", "fr"),
        ("wächter: 1. jemand, der nachts am Tor steht und auf Fremde wartet.", "de"),
        # a Greek letter naming a symbol, then its colon: a definition, in any alphabet's text
        ("λ: довжина хвилі світла, яку пропускає фільтр перед камерою.", "uk"),
        ("μ: valor medio de las muestras tomadas por el sensor.", "es"),
    ],
)
def test_a_lowercase_label_and_its_colon_open_a_line(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize("text", ["ation The keeper went home.", "ationKonrad: Hello.", "ation Konrad: Hi."])
def test_a_piece_without_its_own_colon_is_still_a_fragment(text: str) -> None:
    assert find_corrupted_start(text, "en") is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # a speaker of two words or with an abbreviation, then a dialogue dash: a transcript
        ("ks. Nowak: - Kto zamknął bramę przed zmrokiem?", "pl"),
        ("strażniczka RM: - Nikt nie wejdzie po zmroku.", "pl"),
        ("старый Мирон: — Никто не пройдёт через мост до рассвета.", "ru"),
        # a label behind an opening quote
        ("„strażniczka: - Zamknijcie bramę, zanim słońce zajdzie.”", "pl"),
    ],
)
def test_a_longer_label_and_its_colon_open_a_line(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text", ["ation RM: - Nikt nie wejdzie.", "ung Nowak: - Kto zamknął bramę?", "ationNowak: - Kto tam?"]
)
def test_a_piece_before_a_speaker_label_is_still_a_fragment(text: str) -> None:
    assert find_corrupted_start(text, "pl") is not None


def test_a_long_headword_in_capitals_the_lexicon_lacks_before_a_dash_passes() -> None:
    text = "ZAMGLONY - Ten, który wyszedł z karczmy o świcie i nie pamięta drogi."
    assert len(text.split()[0]) >= LONG_HEADWORD_MIN_LETTERS
    assert find_corrupted_start(text, "pl") is None
    assert find_corrupted_start("RFACE - Ten, który wyszedł z karczmy o świcie.", "pl") is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("ПОЖАР — ГОРОД В ОГНЕ! Жители бежали к реке, пока горели крыши.", "ru"),
        ("BURZA - MIASTO BEZ PRĄDU. Mieszkańcy czekali na świt w ciemności.", "pl"),
    ],
)
def test_a_headline_in_capitals_opens_the_reply(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


def test_a_capital_piece_before_a_sentence_in_its_own_case_is_still_a_fragment() -> None:
    found = find_corrupted_start("ONAL — ГОРОД в огне! Жители бежали к реке.", "ru")
    assert found is not None and found.prefix == "ONAL"


def test_a_word_its_comma_and_a_quoted_title_open_a_sentence() -> None:
    text = "Легенда, «Старый маяк на скале». Её рассказывают рыбаки по вечерам."
    assert find_corrupted_start(text, "ru") is None
    # without its comma too: a word of the language before a quoted name (a title, a label) is the
    # sentence's first word ("Активирует «Прыжок леопарда».")
    assert find_corrupted_start("Легенда «Старый маяк на скале». Её рассказывают рыбаки.", "ru") is None
    # but before a quoted sentence (its end mark inside the quote) the word is a piece before dialogue
    assert find_corrupted_start("Легенда «Старый маяк стоит на скале.» Её рассказывают.", "ru") is not None


def test_an_abbreviation_glued_to_its_expansion_in_brackets_is_a_word() -> None:
    assert find_corrupted_start("NPC(ノンプレイヤーキャラクター)は町の門で待っている。", "ja") is None
    assert find_corrupted_start("NPC(ノンプレイヤーキャラクターは町の門で待っている。", "ja") is not None


@pytest.mark.parametrize(
    "text",
    [
        "「「灯台は遠い。」それでも僕たちは歩いた。」夜が明けた。",
        "««Маяк далеко.» Но мы всё равно шли.» Наступило утро.",
    ],
)
def test_a_quote_inside_a_quote_closing_right_after_its_end_mark_is_nested(text: str) -> None:
    assert find_corrupted_start(text, "ja" if text[0] == "「" else "ru") is None


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("Stud Ay, el faro seguía encendido cuando volvimos al puerto.", "es", "Stud"),
        ("Ention Oh, the lighthouse was still burning when we came back.", "en", "Ention"),
        ("Ство Ох, маяк всё ещё горел, когда мы вернулись в порт.", "ru", "Ство"),
        # legitimate: the interjection opens the reply, follows another or a comma, or a word of the
        # language stands before it; German capitalises nouns, so case decides nothing there
        ("Ay, el faro seguía encendido cuando volvimos al puerto.", "es", None),
        ("Oh oh, the lighthouse was still burning when we came back.", "en", None),
        ("Here, oh, the lighthouse was still burning when we came back.", "en", None),
        ("Pero Ay, el faro seguía encendido cuando volvimos al puerto.", "es", None),
        ("Nowak Ach, der Leuchtturm brannte noch, als wir zurückkamen.", "de", None),
    ],
)
def test_a_token_spaced_before_an_interjection_and_its_comma(
    text: str, locale: str, piece: str | None
) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found
