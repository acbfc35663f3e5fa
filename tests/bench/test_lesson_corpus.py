"""The lesson set's readers (``bench/corpus/build_games_corpus.py --set lesson``): GCompris' Qt translation
files (``read_qm``) and Tux Paint's gettext catalogues, each message with its translations in one source
unit, interface strings, placeholders, markup and the release notes left out."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

FACT_EN = "The Great Wall of China is a series of fortifications built to protect the northern borders."
FACT_UK = "Велика китайська стіна — це низка укріплень, збудованих для захисту північних кордонів."
GOAL_EN = "Each car can only move horizontally or vertically. Make room so that the red car can leave."
GOAL_ZH = "每輛車只能水平或垂直移動。請騰出空間，讓紅色的車可以離開。"
TOOL_EN = "Click and drag the mouse to cover an area with foamy bubbles, like a bath full of soap."
TOOL_ES = "Haz clic y arrastra el ratón para cubrir un área con burbujas, como una bañera llena de jabón."


def _field(tag: int, raw: bytes) -> bytes:
    return bytes([tag]) + len(raw).to_bytes(4, "big") + raw


def _qm(path: Path, messages: list[tuple[str, str, list[str]]]) -> None:
    """A Qt .qm file holding each (context, source text, translations) as ``lrelease`` writes it: a hash
    block first, then the messages block, each message's fields closed by the end tag."""
    block = b""
    for context, source, translations in messages:
        for text in translations:
            block += _field(games.QM_TRANSLATION, text.encode("utf-16-be"))
        block += games.QM_OBSOLETE.to_bytes(1, "big") + bytes(4)
        block += _field(6, source.encode()) + _field(7, context.encode()) + _field(8, b"")
        block += bytes([games.QM_END])
    hashes = bytes([0x42]) + (8).to_bytes(4, "big") + bytes(8)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(
        games.QM_MAGIC + hashes + bytes([games.QM_MESSAGES]) + len(block).to_bytes(4, "big") + block
    )


def test_read_qm_reads_each_message_with_its_context_and_leaves_plural_forms_out(tmp_path: Path) -> None:
    path = tmp_path / "gcompris_uk.qm"
    _qm(
        path,
        [
            ("board1", FACT_EN, [FACT_UK]),
            ("Score", "%n stars", ["%n зірка", "%n зірки", "%n зірок"]),  # a plural form's three
        ],
    )
    assert list(games.read_qm(path)) == [("board1", FACT_EN, FACT_UK)]
    (tmp_path / "not.qm").write_bytes(b"\x95\x04\x12\xde" + bytes(40))  # a gettext .mo, not Qt's
    assert list(games.read_qm(tmp_path / "not.qm")) == []


def test_gcompris_reads_prose_in_each_context_and_leaves_placeholders_and_release_notes_out(
    tmp_path: Path,
) -> None:
    base = tmp_path / "usr/share/gcompris-qt/translations"
    _qm(
        base / "gcompris_zh_TW.qm",
        [
            ("ActivityInfo", GOAL_EN, [GOAL_ZH]),
            (
                "money",
                "Tux bought some items in your shop. He gives you %1, please give back his change.",
                ["Tux 在你的商店買了一些東西。他給你 %1，請找他零錢。"],
            ),
            (
                "ChangeLog",
                "Many activities were reworked and a new dataset lets teachers pick levels.",
                ["許多活動都經過重新設計，新的資料集讓老師可以選擇關卡。"],
            ),
            ("Menu", "Quit", ["離開"]),  # interface, too short
        ],
    )
    found: games.Found = defaultdict(dict)
    games.gcompris(tmp_path, found)
    assert list(found["zh-Hant"].values()) == [GOAL_ZH]
    assert list(found["en"].values()) == [GOAL_EN]
    ((unit, english),) = found["zh-Hant"]
    assert english == GOAL_EN and (unit, GOAL_EN) in found["en"] and unit.startswith("gcompris/ActivityInfo/")


def test_tuxpaint_reads_the_tools_descriptions(tmp_path: Path) -> None:
    po = tmp_path / "es.po"
    body = 'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
    for english, text in [(TOOL_EN, TOOL_ES), ("Open", "Abrir"), ("Your color is %s.", "Tu color es %s.")]:
        body += f'msgid "{english}"\nmsgstr "{text}"\n\n'
    po.write_text(body, "utf-8")
    mo = tmp_path / "usr/share/locale/es/LC_MESSAGES/tuxpaint.mo"
    mo.parent.mkdir(parents=True)
    subprocess.run(["msgfmt", "-o", str(mo), str(po)], check=True)
    found: games.Found = defaultdict(dict)
    games.tuxpaint(tmp_path, found)
    assert list(found["es"].values()) == [TOOL_ES]
    assert list(found["en"].values()) == [TOOL_EN]


def test_the_lesson_set_is_a_set_of_the_builder() -> None:
    assert games.SETS["lesson"] == (games.gcompris, games.tuxpaint)
