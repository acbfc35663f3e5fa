"""The riddle set's readers (``bench/corpus/build_games_corpus.py --set riddle``): SuperTuxKart's gettext
sources (compiled with ``msgfmt``, fuzzy translations out) and gbrainy's catalogues, each message with its
translations in one source unit, interface strings, placeholders and lines left in English out."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

TIP_EN = "Accelerate and press the skid key while turning to skid. Skidding can help you take sharp turns."
TIP_PL = "Przyspiesz i wciśnij klawisz poślizgu podczas skrętu. Poślizg pomaga pokonywać ostre zakręty."
STORY_EN = "But you pathetic little twerps will never be able to beat me, the King of the Karts!"
STORY_PL = "Ale wy żałosne małe gnojki nigdy mnie nie pokonacie, mnie, Króla Gokartów!"
PUZZLE_EN = "A group of people sits evenly spaced around a round table. How many of them are there at most?"
PUZZLE_KO = "사람들이 둥근 탁자 주위에 같은 간격으로 앉아 있습니다. 최대 몇 명이 앉아 있을까요?"
RADIO_EN = "Chris, we needed that pod! I told you that we couldn't afford to lose a single one!"
RADIO_JA = "クリス、重要な貨物だぞ!! 1つも失ってはならないと言ったはずだ!"


def _mo(po: Path, mo: Path) -> None:
    mo.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["msgfmt", "-o", str(mo), str(po)], check=True)


def _po(path: Path, pairs: list[tuple[str, str, bool]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    body = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    for english, text, fuzzy in pairs:
        body += ("#, fuzzy\n" if fuzzy else "") + f'msgid "{english}"\nmsgstr "{text}"\n\n'
    path.write_text(body, "utf-8")


def test_supertuxkart_reads_prose_and_leaves_fuzzy_and_interface_strings_out(tmp_path: Path) -> None:
    _po(
        tmp_path / "usr/share/games/supertuxkart/data/po/pl.po",
        [
            (TIP_EN, TIP_PL, False),
            (STORY_EN, STORY_PL, True),  # fuzzy: a machine's or an old string's guess, not a translation
            ("Press <%s> to look behind.", "Wciśnij <%s>, aby spojrzeć do tyłu.", False),  # a placeholder
            ("Grand Prix", "Grand Prix", False),  # interface, too short
        ],
    )
    found: games.Found = defaultdict(dict)
    games.supertuxkart(tmp_path, found)
    assert list(found["pl"].values()) == [TIP_PL]
    assert list(found["en"].values()) == [TIP_EN]
    ((unit, english),) = found["pl"]
    assert english == TIP_EN and (unit, TIP_EN) in found["en"] and unit.startswith("supertuxkart/")


def test_gbrainy_pairs_each_translation_with_its_english_in_one_unit(tmp_path: Path) -> None:
    po = tmp_path / "ko.po"
    _po(
        po,
        [
            (PUZZLE_EN, PUZZLE_KO, False),
            ("Which number is closest to {0}? Answer {1}, {2} or {3}.", "{0}에 가장 가까운 수는?", False),
            (  # the command line's help: an option, then what it does
                "  --norandom \\t\\t\\tThe custom game list provided will not be randomized.",
                "  --norandom \\t\\t\\t제공된 사용자 지정 게임 목록은 무작위로 섞이지 않습니다.",
                False,
            ),
        ],
    )
    _mo(po, tmp_path / "usr/share/locale/ko/LC_MESSAGES/gbrainy.mo")
    found: games.Found = defaultdict(dict)
    games.gbrainy(tmp_path, found)
    assert list(found["ko"].values()) == [PUZZLE_KO]
    ((unit, english),) = found["ko"]
    assert english == PUZZLE_EN and (unit, PUZZLE_EN) in found["en"] and unit.startswith("gbrainy/gbrainy/")


def test_starfighter_reads_the_pilots_lines(tmp_path: Path) -> None:
    po = tmp_path / "ja.po"
    _po(po, [(RADIO_EN, RADIO_JA, False), ("Mission Failed", "ミッション失敗", False)])
    _mo(po, tmp_path / "usr/share/starfighter/locale/ja/LC_MESSAGES/pr-starfighter.mo")
    found: games.Found = defaultdict(dict)
    games.starfighter(tmp_path, found)
    assert list(found["ja"].values()) == [RADIO_JA]
    assert list(found["en"].values()) == [RADIO_EN]


def test_the_riddle_set_is_a_set_of_the_builder() -> None:
    assert games.SETS["riddle"] == (games.supertuxkart, games.gbrainy, games.starfighter)
