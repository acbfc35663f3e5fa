"""The scroll set's readers (``bench/corpus/build_games_corpus.py --set scroll``): Waste's Edge's and
KGoldrunner's gettext catalogues and the Ren'Py tutorial's translation files, each message with its
translations in one source unit, interface strings, markup and lines left in English out."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

INN_EN = "The innkeeper wiped the counter twice before he dared to look at the dwarf again."
INN_FR = "L'aubergiste essuya deux fois le comptoir avant d'oser regarder de nouveau le nain."
HINT_EN = "Wait on the ladder until the enemies fall into the pit, then run across their heads to the gold."
HINT_JA = "敵が穴に落ちるまではしごの上で待ち、それから敵の頭の上を走って金塊まで行きましょう。"
SAY_EN = "Welcome back! Today we will look at how a story can remember the choices its reader made."
SAY_ZH = "欢迎回来！今天我们来看看一个故事如何记住读者做出的选择。"


def _mo(path: Path, pairs: list[tuple[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    po = path.with_suffix(".po")
    body = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    body += "".join(f'msgid "{english}"\nmsgstr "{text}"\n\n' for english, text in pairs)
    po.write_text(body, "utf-8")
    subprocess.run(["msgfmt", "-o", str(path), str(po)], check=True)


def test_catalogue_dialogue_and_hints_pair_each_translation_with_its_english(tmp_path: Path) -> None:
    locale = tmp_path / "usr/share/games/adonthell/games/wastesedge/locale"
    _mo(
        locale / "fr/LC_MESSAGES/wastesedge.mo",
        [
            (INN_EN, INN_FR),
            ("Save game", "Sauvegarder"),  # interface: too short, no sentence
            ("The dwarf left at dawn without selling anything.", "The dwarf left at dawn sans rien vendre."),
        ],
    )
    _mo(
        tmp_path / "usr/share/locale/ja/LC_MESSAGES/kgoldrunner.mo",
        [(HINT_EN, HINT_JA), ("&Load Level...", "レベルを読み込む(&L)...")],
    )
    found: games.Found = defaultdict(dict)
    games.adonthell(tmp_path, found)
    games.kgoldrunner(tmp_path, found)
    assert list(found["fr"].values()) == [INN_FR]  # the half-English line keeps a run of its English
    assert list(found["ja"].values()) == [HINT_JA]
    assert sorted(found["en"].values()) == [INN_EN, HINT_EN]
    # a message and its translation share one source unit, so they fall in one split
    (unit_fr, _), (unit_ja, _) = next(iter(found["fr"])), next(iter(found["ja"]))
    assert (unit_fr, INN_EN) in found["en"] and (unit_ja, HINT_EN) in found["en"]
    assert unit_fr.startswith("adonthell/wastesedge/") and unit_ja.startswith("kgoldrunner/levels/")


def test_renpy_tutorial_lines_without_text_tags_each_file_a_domain(tmp_path: Path) -> None:
    tl = tmp_path / "usr/share/games/renpy/demo/game/tl/schinese"
    tl.mkdir(parents=True)
    (tl / "tutorial_choices.rpy").write_text(
        "translate schinese start_a1b2c3:\n\n"
        f'    # e "{SAY_EN}"\n'
        f'    e "{SAY_ZH}"\n\n'
        "translate schinese start_d4e5f6:\n\n"
        '    # e "Click {a=https://www.renpy.org/}here{/a} to download the newest version of the engine."\n'
        '    e "点击{a=https://www.renpy.org/}这里{/a}下载引擎的最新版本，然后再继续阅读下面的内容。"\n',
        "utf-8",
    )
    found: games.Found = defaultdict(dict)
    games.renpy_tutorial(tmp_path, found)
    assert list(found["zh-Hans"].values()) == [SAY_ZH]
    ((unit, english),) = found["zh-Hans"]
    assert english == SAY_EN and unit.startswith("renpy_tutorial/tutorial_choices/")


def test_the_scroll_set_is_a_set_of_the_builder() -> None:
    assert games.SETS["scroll"] == (games.adonthell, games.kgoldrunner, games.renpy_tutorial)
