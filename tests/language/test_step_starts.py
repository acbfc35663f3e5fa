"""Corrupted starts before a list item (a tutorial's numbered step ``1. ``, a bullet ``·``) or glued to a
notice's label in capitals, and the legitimate starts of the same shape: a step's label, a product's name
and version, a code glued to a number, a menu's path, a dash in running text, a name's middle dot, camel
case. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


def _piece(text: str, locale: str) -> str | None:
    found = find_corrupted_start(text, locale)
    return found.prefix if found else None


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a piece glued to the step's number, spaced from it, behind a dash or an opening mark
        ("e1. Type o to open a line below the cursor.", "en", "e"),
        ("ghan1. Digite o para abrir uma linha abaixo do cursor.", "pt-BR", "ghan"),
        ("onscious 3. カーソルの後ろにテキストを追加します。", "ja", "onscious"),
        ("orde— 2. Die Eingabe von / sucht vorwärts nach dem Ausdruck.", "de", "orde"),
        ("iders¿2. Para corregir los errores, mueva el cursor.", "es", "iders"),
        ("ipse「3.」 カーソルの後ろにテキストを追加します。", "ja", "ipse"),
        ("rone*1. 按下 CTRL 鍵不放開然後按 g 鍵。", "zh-Hant", "rone"),
        ("xim 4. Удалите строку командой dd и вставьте её ниже.", "ru", "xim"),
        # a word of the language is no label with a mark between it and the number
        ("hart“3. v motion :w FILENAME saves the selected lines.", "en", "hart"),
        ("volt¿2. Met / en een zoekterm wordt vooruit gezocht.", "nl", "volt"),
        ("start— 5. O Vim salvará as linhas selecionadas no arquivo.", "pt-BR", "start"),
        ("Oh — 3. That one is wrong, try the next.", "en", None),
        # a step's label is a word of the reply's language, spaced from its number
        ("Step 3. Type the command and press Enter.", "en", None),
        ("Schritt 3. Tippe den Befehl und drücke die Eingabetaste.", "de", None),
        ("Lección 2. Mueva el cursor hasta el final de la línea.", "es", None),
        # a product and its version: a word of the language, or an English name in another script
        ("Windows 10. 设置里可以打开这个选项。", "zh-Hans", None),
        ("Python 3. 以降では print は関数です。", "ja", None),
        # a decimal, a hyphenated name, a code glued to its number
        ("Vim 9.0 brings a new script language.", "en", None),
        ("Q3. Revenue grew faster than the year before.", "en", None),
        ("MP3. Das Format speichert Musik verlustbehaftet.", "de", None),
    ],
)
def test_a_piece_before_a_numbered_step(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a piece spaced from a bullet, glued to it, or with a dash or an opening mark before it
        ("vem · Random age: the tree is planted at any age.", "en", "vem"),
        ("These· Baue ein Hauptquartier und zwei Bahnhöfe.", "de", "These"),
        ("fashion „· Wartende Güter: Personen und Güter in einer Zeile.", "de", "fashion"),
        ("orest *· Typ: Die Liste ist nach Fahrzeugtypen sortiert.", "de", "orest"),
        ("zeniu「· Kartennummer: Es stehen viele Karten zur Auswahl.", "de", "zeniu"),
        ("ност • Откройте меню и выберите пункт.", "ru", "ност"),
        # a hyphen is a bullet only behind a dash or an opening mark
        ("alid — - yellow: another vehicle must be placed in front.", "en", "alid"),
        ("ssig ¿-- einfaches Signal: es ist das normale Signal.", "de", "ssig"),
        ("Tools - Options - General opens the dialog.", "en", None),
        ("Choose «- none -» to clear the field.", "en", None),
        ("您也可以选择「- 空缺 -」或「- 不空缺 -」条目。", "zh-Hans", None),
        ("Marta - come here, she said, and sit by the fire.", "en", None),
        # a menu's path or a word of the language before a bullet, spaced; a list opening with its bullet
        ("Menu · File · Open lists the recent files.", "en", None),
        ("· Typ: Die Liste ist nach Fahrzeugtypen sortiert.", "de", None),
        ("• Open the menu and choose an item.", "en", None),
        # a Chinese name's middle dot is no bullet
        ("马林·凯沙出生在哈德里克四世逝世后的第十年。", "zh-Hans", None),
    ],
)
def test_a_piece_before_a_bullet(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("teriorIMPORTANT: Take care that signals do not block the way.", "en", "terior"),
        ("kaarIMPORTANT : les pistes ne doivent pas être connectées par le bout.", "fr", "kaar"),
        ("ostrWARNING: the file is overwritten without asking.", "en", "ostr"),
        # camel case: its lowercase part is a word, or its capitals are none
        ("innerHTML: the markup inside the element.", "en", None),
        ("getURL returns the address of the page.", "en", None),
        ("macOS keeps the file in the user's library.", "en", None),
    ],
)
def test_a_piece_glued_to_a_notice_in_capitals(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece
