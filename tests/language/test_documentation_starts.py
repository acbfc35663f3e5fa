"""Legitimate starts of documentation prose that look like a piece before the text: an abbreviation
before its expansion in brackets, a first word and its short aside or gloss in brackets, a list of quoted
terms, a term quoted with the closing mark on both sides; and the corrupted starts beside them."""

from __future__ import annotations

import pytest

from exporter.language.judge import judge
from exporter.language.lexicon import lexicon
from exporter.language.segment import mask_code
from exporter.language.start import PAREN_CLOSE_CHARS, find_corrupted_start
from exporter.outcomes import Outcome


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


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("=SUM(B2:B9) adds the sales of the week and shows the total in the cell.", "en"),
        ('=SOMME.SI(A1:A8;">0";B1:B8) additionne les montants positifs du mois.', "fr"),
        ('=LARGO(LIMPIAR(CARACTER(7) & "x")) devuelve 1, porque quita el carácter.', "es"),
        ("= ДЛСТР(A2) возвращает длину текста в ячейке, пробелы тоже считаются.", "ru"),
        ("=CONTAR (1; 2; 3) devolve 3, o número de valores da lista.", "pt-BR"),
    ],
)
def test_a_reply_opening_with_a_spreadsheet_formula_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text",
    ["=The keeper went home at dusk.", "=SUM the column and go on.", "=Sum(B2) adds them.", "=ing(B2) adds."],
)
def test_an_equals_sign_before_text_that_is_no_formula_is_still_stray(text: str) -> None:
    found = find_corrupted_start(text, "en")
    assert found is not None and found.kind == "stray_punctuation" and found.prefix.startswith("=")


def test_a_formula_is_no_language_evidence() -> None:
    masked = mask_code('Le texte reste. =CHERCHEB("ᄫᄬ";"ᄩᄔᄕ";2) renvoie 2.')
    assert "ᄫ" not in masked and "CHERCHEB" not in masked and masked.endswith("renvoie 2.")
    text = (
        "Cette fonction compte les octets d'un texte au lieu de ses caractères. Elle sert aux langues "
        'dont les caractères occupent deux octets. =LENB("ᄩᄔᄕᄜᄝᄞᄠᄢᄣ") renvoie 18 dans ce cas.'
    )
    assert judge(text, "fr").outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("\\ : la barre oblique inverse affiche le caractère suivant tel quel.", "fr"),
        ("% : Het procentteken vermenigvuldigt de waarde met honderd.", "nl"),
    ],
)
def test_a_symbol_before_a_spaced_colon_is_a_glossary_entry(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("OCR - Optical Character Recognition (распознавание текста). Программа читает сканы.", "ru"),
        ('API는 "Application Programming Interface"의 약자이며 프로그램 사이의 약속입니다.', "ko"),
    ],
)
def test_an_abbreviation_before_its_expansion_behind_a_dash_or_a_quote_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text",
    ["ING - In the morning the keeper opened the gate.", "NGS - Le serveur garde une table des noms."],
)
def test_capitals_before_a_dash_that_do_not_spell_the_words_are_still_a_fragment(text: str) -> None:
    found = find_corrupted_start(text, "fr")
    assert found is not None and found.kind == "fragment"


def test_a_turkish_word_with_a_dotted_capital_i_is_a_word() -> None:
    assert lexicon("tr").is_word("İşlev") and lexicon("tr").is_common("İçin")
    assert find_corrupted_start("İşlev A sütunundaki değerleri toplar ve sonucu gösterir.", "tr") is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Pipe(Rohr) verbindet zwei Programme, die nacheinander laufen.", "de"),
        ("Kernel(Çekirdek), donanım ile programlar arasında duran yazılımdır.", "tr"),
    ],
)
def test_a_capitalised_word_glued_to_its_gloss_in_brackets_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text",
    [
        "ation(La gardienne ferme la porte et attend la nuit.",  # lowercase
        "Ni(La gardienne) ferme la porte.",  # too short for a word
        "Ation(La gardienne ferme la porte et attend la nuit sans bouger.",  # not closed near
    ],
)
def test_a_piece_glued_to_a_bracket_is_still_a_fragment(text: str) -> None:
    found = find_corrupted_start(text, "fr")
    assert found is not None and found.kind == "fragment"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("KDE (Entorno de escritorio que usan muchas distribuciones libres) ofrece su propio visor.", "es"),
        ("XFCE (Xfce, лёгкая среда рабочего стола для старых машин) запускается быстрее остальных.", "ru"),
    ],
)
def test_a_name_in_capitals_before_its_translated_gloss_in_brackets_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    "text",
    [
        "TION (Eine Erklärung, die nie geschlossen wird, und der Satz läuft einfach weiter.",
        # a sentence in the bracket
        "TION (Der Dialog mit allen Einstellungen öffnet sich sofort.) Danach klicken Sie auf Speichern.",
        "Tion (Ein Fenster mit vielen Einstellungen für die Ansicht) zeigt die Werte an.",  # not capitals
    ],
)
def test_a_piece_before_a_long_bracket_is_still_a_fragment(text: str) -> None:
    found = find_corrupted_start(text, "de")
    assert found is not None and found.kind == "fragment"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("保存 ボタンを押すと、編集中の文書がディスクに書き込まれます。", "ja"),
        ("印刷 コマンドは現在の文書をプリンターに送ります。", "ja"),
        ("打印 按钮会把当前文档发送到默认打印机。", "zh-Hans"),
    ],
)
def test_a_spaced_label_before_its_element_kind_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("ます ボタンを押すと、編集中の文書がディスクに書き込まれます。", "ja"),  # a verb ending
        ("鞘翅 文書がディスクに書き込まれます。", "ja"),  # no element kind after it, and no common word
        ("保存 버튼을 누르면 문서가 디스크에 저장됩니다.", "ko"),  # Korean writes no Han label
    ],
)
def test_a_spaced_piece_before_cjk_text_is_still_a_fragment(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Voilà. The picture is ready to print, with its margins and its colours.", "en"),
        ("Voilà! La imagen ya está lista para imprimir con sus márgenes.", "es"),
    ],
)
def test_a_loanword_said_as_a_sentence_of_its_own_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


def test_a_foreign_piece_before_a_full_stop_is_still_a_fragment() -> None:
    found = find_corrupted_start("Şlem. Si no lo sabes, dímelo y te lo explico con más calma.", "es")
    assert found is not None and found.prefix == "Şlem"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("LVM - 論理ボリューム管理 を使うと、複数のディスクを一つの領域として扱えます。", "ja"),
        ("FTP - Debian 公式ミラー に接続して、必要なパッケージを取得してください。", "ja"),
        ("SSH — 安全外壳协议 是远程登录服务器时最常用的方式。", "zh-Hans"),
    ],
)
def test_an_abbreviation_before_a_dash_and_its_translated_expansion_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    assert judge(text, locale).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("ATION - 彼女は灯台へ向かい、嵐の前に火を守ろうとした。", "ja"),  # a sentence after the dash
        ("ALLY - 灯台守は眠っていた。嵐はまだ来ない。", "ja"),  # its subject not spaced from the particle
        ("ING - 彼は Linux を使っていた。", "ja"),  # a Latin word spaced before the particle
    ],
)
def test_capitals_before_a_dash_and_a_sentence_are_still_a_piece(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # a name in camelCase
        ("\\voiceTwo puts the stems of the second voice down, so both voices stay readable.", "en"),
        # a name that is no word of the reply's language
        ("\\partial setzt einen Auftakt vor den ersten vollen Takt des Stücks.", "de"),
        # a reply naming another command
        ("\\stemUp et \\stemDown fixent la direction des hampes pour la voix en cours.", "fr"),
        ("\\header ブロックには曲名や作曲者を書きます。", "ja"),  # a Latin name in a Japanese reply
        ("\\layout 块用来设置整个乐谱的版面。", "zh-Hans"),
        # a name that is a word of the reply's language, in a sentence that names code
        ("\\set Staff.keyAlterations = #`(((octava . paso) . alteración)) donde octava especifica…", "es"),
        ("\\set is used because fingeringOrientations is a property of the Voice context.", "en"),
        ("\\override fait appel à New_fingering_engraver pour placer les doigtés.", "fr"),
    ],
)
def test_a_reply_opening_with_a_command_of_tex_or_lilypond_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("\\nThe lamp was lit at dusk, as every evening.", "en"),  # an escape before a capital
        ("\\ufeffThe lamp was lit at dusk, as every evening.", "en"),  # an escaped byte order mark
        ("\\xef\\xbb\\xbfLa lampe était allumée au crépuscule.", "fr"),  # escaped bytes
        ("\\inThe lamp was lit at dusk, as every evening.", "en"),  # a piece glued to the first word
        ("\\casa fica no fim da rua, perto do rio.", "pt-BR"),  # a word of the reply's language
        ("\\set up your iPhone and your macOS laptop before the trip.", "en"),  # brands are no code
        ("\\casa fica no fim da rua. O rio passa perto, diz o fileName.", "pt-BR"),  # code after the sentence
        ("\\Der Schlüssel lag unter der Matte.", "de"),
        ("\\灯台の火は毎晩ともされた。", "ja"),
    ],
)
def test_a_backslash_before_the_first_word_is_still_stray(text: str, locale: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.kind == "stray_punctuation"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("PilihFormat - Paragraf - Kapital Turun. Pilih Tilik - Gaya - buka menu konteks.", "id"),
        ("SelectFormat - Paragraph - Drop Caps. Choose View - Styles and open the context menu.", "en"),
    ],
)
def test_two_words_of_the_language_that_lost_their_space_before_a_dash_pass(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    # a piece glued to a word before a dash is no word of the language; a word glued to a name is a piece too
    found = find_corrupted_start("Ation" + text[text.index("Format") :], locale)
    assert found is not None and found.prefix == "AtionFormat"
    assert find_corrupted_start("BillElena - Saya merasa terhormat dan berharap memenuhi harapan.", "id")


def test_a_name_too_long_for_a_piece_before_a_hyphen_in_korean_passes() -> None:
    text = "XListener- 및 이 옵션의 메소드 구성 요소는 대/소문자를 구분합니다. 이벤트는 API로 처리합니다."
    assert find_corrupted_start(text, "ko") is None
    found = find_corrupted_start("ation- 및 이 옵션의 메소드 구성 요소는 대/소문자를 구분합니다.", "ko")
    assert found is not None and found.prefix == "ation"
