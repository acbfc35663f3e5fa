"""Corrupted starts before a numbered step (a tutorial's or a list's ``1. ``), and the legitimate starts of
the same shape: a step's label, a product's name and version, a code glued to a number. The texts are
written for these tests."""

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
