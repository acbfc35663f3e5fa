"""The tutor set's readers (``bench/corpus/build_games_corpus.py --set tutor``): Vim's and Emacs' tutorials
and the help of GNOME's games, each paragraph paired with the English one at its place when the two files
agree, the exercises, tables of commands, the copyright section, sentences cut by a command line and
paragraphs left in English not read."""

from __future__ import annotations

import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

VIM_EN = """\
===============================================================================
=    W e l c o m e   t o   t h e   V I M   T u t o r    -    Version 1.7      =
===============================================================================

     Vim is a very powerful editor that has many commands, too many to
     explain in a tutor such as this.

~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
			Lesson 1.3: TEXT EDITING - DELETION

  1. Move the cursor to the line below marked with the arrow sign.

---> The ccow jumpedd ovverr thhe mooon, as everybody saw it happen.

  2. Repeat these steps until the sentence is correct and go on to lesson 1.4.
"""
VIM_DE = """\
===============================================================================
=    W i l l k o m m e n   z u m   V I M   T u t o r    -    Version 1.7      =
===============================================================================

     Vim ist ein sehr mächtiger Editor, der viele Befehle bietet, zu viele,
     um sie alle in einem Tutor wie diesem zu erklären.

~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~
			Lektion 1.3: TEXT EDITIEREN - LÖSCHEN

  1. Bewege den Cursor zu der Zeile unten, die mit dem Pfeilzeichen markiert ist.

---> Die Kuhh sprangg übberr den Mond, und alle sahen es geschehen.

  2. Wiederhole diese Schritte, bis der Satz korrekt ist, und gehe weiter zu Lektion 1.4.
"""
EMACS_EN = """\
Emacs tutorial.  See end for copying conditions.

Emacs commands generally involve the CONTROL key or the META key.
Rather than write that in full each time, we'll use a few abbreviations.

* BASIC CURSOR CONTROL
----------------------

To go forward or backward a screen at a time, and to move the cursor
to the start of the line, type the following commands:

	C-v	Move forward one screenful
	M-v	Move backward one screenful

>> Now type C-v a few times to move forward through this text, one screenful
at a time.

* COPYING
---------

This tutorial descends from a long line of Emacs tutorials and is part of GNU Emacs.
  Copyright (C) 1985 Free Software Foundation, Inc.
"""
# Japanese, in the encoding the file names in its last lines, as Emacs' TUTORIAL.ja is.
EMACS_JA = """\
Emacs 入門ガイド。本ファイルの著作権については最後を御覧下さい。

Emacs のコマンドを入力するには、一般にコントロールキーやメタキーを使います。
そこで、次のような記法を使うことにします。

＊カーソル移動の基本
====================

ここで C-v を何回かタイプして、この文章を一画面ずつ先へ
読み進めてみましょう。

＊著作権表示
============

  Copyright (C) 1985 Free Software Foundation, Inc.

;;; Local Variables:
;;; coding: iso-2022-jp
;;; End:
"""


def _write(path: Path, text: str, encoding: str = "utf-8") -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))


def test_tutorial_text_is_decoded_by_the_encoding_its_file_names(tmp_path: Path) -> None:
    _write(tmp_path / "TUTORIAL.ja", EMACS_JA, "iso2022_jp")
    assert games.tutorial_text(tmp_path / "TUTORIAL.ja") == EMACS_JA


def test_vim_lessons_leave_the_exercises_out_and_keep_the_places() -> None:
    intro, lesson = games.vim_lessons(VIM_EN)
    assert (
        intro[-1] == "Vim is a very powerful editor that has many commands, too many to explain in a tutor"
        " such as this."
    )
    assert not any("ccow" in p for p in lesson)  # the line with mistakes to correct
    assert len(lesson) == len(games.vim_lessons(VIM_DE)[1])  # an exercise is an empty place, not a gap
    assert "" in lesson


def test_emacs_sections_stop_before_the_copyright_and_drop_tables() -> None:
    sections = games.emacs_sections(EMACS_EN)
    assert len(sections) == 2  # the opening and BASIC CURSOR CONTROL; COPYING is not read
    text = " ".join(p for section in sections for p in section)
    assert "Copyright" not in text and "descends" not in text
    assert "Move forward one screenful" not in text  # the table of commands, indented
    assert "Now type C-v a few times to move forward through this text, one screenful at a time." in text
    ja = games.emacs_sections(EMACS_JA)
    assert len(ja) == 2
    # a line break between Japanese characters is no space
    assert "ここで C-v を何回かタイプして、この文章を一画面ずつ先へ読み進めてみましょう。" in ja[1]


def test_tutorials_pair_paragraphs_by_place_and_leave_out_cut_and_english_ones(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/vim/vim90/tutor"
    _write(base / "tutor.utf-8", VIM_EN)
    _write(base / "tutor.de.utf-8", VIM_DE)
    # Italian: the intro left in English, the step a sentence cut by a command shown on its own line
    italian = VIM_DE.replace(
        "Vim ist ein sehr mächtiger Editor, der viele Befehle bietet, zu viele,\n"
        "     um sie alle in einem Tutor wie diesem zu erklären.",
        "Vim is a very powerful editor that has many commands, too many to\n"
        "     explain in a tutor such as this.",
    ).replace(
        "1. Bewege den Cursor", "muovi il cursore fino alla riga qui sotto, quella indicata dalla freccia, e"
    )
    _write(base / "tutor.it.utf-8", italian)
    found: games.Found = defaultdict(dict)
    games.vimtutor(tmp_path, found)
    english = dict(found["en"])
    german = found["de"]
    assert len(german) == 3 and set(german) == set(english)  # every paragraph under its English key
    assert all(source.startswith("vimtutor/") for source, _ in german)
    step = next(k for k, v in german.items() if v.startswith("1. Bewege"))
    assert english[step].startswith("1. Move the cursor")
    italian_texts = list(found["it"].values())
    assert len(italian_texts) == 1 and italian_texts[0].startswith("2. Wiederhole")


def test_gnome_games_read_the_help_pages_not_the_project_ones(tmp_path: Path) -> None:
    page = """<page xmlns="http://projectmallard.org/1.0/" id="rules"><title>Rules</title>
<p>{}</p><p>{}</p></page>"""
    rules_en = (
        "The goal of the game is to uncover all the squares that do not hold a mine, without setting"
        " one off.",
        "Each number tells how many of the eight squares around it hold a mine, so you can work out"
        " where they are.",
    )
    rules_fr = (
        "Le but du jeu est de découvrir toutes les cases qui ne contiennent pas de mine, sans en faire"
        " exploser une.",
        rules_en[1],  # left in English by the translation
    )
    licence = "This work is licensed under a Creative Commons Attribution-ShareAlike 3.0 Unported License."
    help_dir = tmp_path / "usr/share/help"
    _write(help_dir / "C/gnome-mines/rules.page", page.format(*rules_en))
    _write(help_dir / "fr/gnome-mines/rules.page", page.format(*rules_fr))
    _write(help_dir / "C/gnome-mines/license.page", page.format(licence, licence))
    found: games.Found = defaultdict(dict)
    games.gnome_games(tmp_path, found)
    assert set(found["en"].values()) == set(rules_en)
    assert list(found["fr"].items()) == [(("gnome_games/gnome-mines/rules/0", rules_en[0]), rules_fr[0])]


def test_the_tutor_set_is_a_set_of_the_builder() -> None:
    assert games.SETS["tutor"] == (games.emacs_tutorial, games.vimtutor, games.gnome_games)
