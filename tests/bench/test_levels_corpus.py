"""The levels set's readers (``bench/corpus/build_games_corpus.py --set levels``): Globulation 2's tutorial
scripts, INSTEAD's tutorial game, Crimson Fields' levels, Neverball's level introductions, Laby's level texts
and the game catalogues read whole (X-Moto, LordsAWar, Tux Math, KDE's games as plain text), each
message with its translations in one source unit, labels, lists, French titles, comments and interface
strings left out."""

from __future__ import annotations

import struct
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

QUARRY_EN = "You'll notice that there is a small stone quarry to the right side of your base. Remember this."
QUARRY_DE = (
    "Auf der rechten Seite deiner Basis ist ein kleiner Steinbruch. Merke dir das, er könnte nützlich sein."
)
QUARRY_RU = (
    "Заметьте, что справа от вашей базы есть небольшая каменоломня. Запомните это, она может пригодиться."
)


def _mo(path: Path, pairs: list[tuple[str, str]]) -> None:
    """A gettext .mo file holding the pairs (little-endian, no hash table)."""
    pairs = sorted(pairs)
    blobs = [english.encode() for english, _ in pairs] + [text.encode() for _, text in pairs]
    start = 28 + 16 * len(pairs)
    table, data = b"", b""
    for blob in blobs:
        table += struct.pack("<2I", len(blob), start + len(data))
        data += blob + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(pairs), 28, 28 + 8 * len(pairs), 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + table + data)


def test_glob2_pairs_each_translation_with_the_english_message_before_it(tmp_path: Path) -> None:
    script = tmp_path / "usr/share/games/glob2/scripts/tutorial_part2.sgsl"
    script.parent.mkdir(parents=True)
    script.write_text(
        "# Tutorial translated into german\n"
        '#show("An old English message, commented out of the script, long enough to be prose.")\n'
        "GuiDisable(Pool)\n"
        f'show("{QUARRY_EN}")\n'
        f'show("{QUARRY_DE}",de)\n'
        f'show("{QUARRY_RU}", ru)\n'
        'show("Un message dans une langue que le jeu ne connaît pas, assez long pour être lu.", xx)\n',
        "utf-8",
    )
    found: games.Found = defaultdict(dict)
    games.glob2(tmp_path, found)
    assert found["en"] == {("glob2/tutorial_part2/0", QUARRY_EN): QUARRY_EN}
    assert found["de"] == {("glob2/tutorial_part2/0", QUARRY_EN): QUARRY_DE}
    assert found["ru"] == {("glob2/tutorial_part2/0", QUARRY_EN): QUARRY_RU}
    assert set(found) == {"en", "de", "ru"}


def test_glob2_cuts_a_script_into_blocks_of_messages(tmp_path: Path) -> None:
    script = tmp_path / "usr/share/games/glob2/scripts/tutorial_part1.sgsl"
    script.parent.mkdir(parents=True)
    lines = [
        f'show("Step {n}: click on the Swarm and look at the bars on the right side of the screen.")\n'
        f"show(\"Étape {n} : cliquez sur l'essaim et regardez les barres à droite de l'écran.\", fr)\n"
        for n in range(games.GLOB2_BLOCK + 1)
    ]
    script.write_text("".join(lines), "utf-8")
    found: games.Found = defaultdict(dict)
    games.glob2(tmp_path, found)
    sources = [source for source, _ in found["en"]]
    assert sources == ["glob2/tutorial_part1/0"] * games.GLOB2_BLOCK + ["glob2/tutorial_part1/1"]


def test_instead_sections_reads_strings_paragraphs_and_links_by_blocks_of_definitions() -> None:
    game = (
        "-- $Name:English Tutorial$\n"
        "game.act = 'You can\\'t.';\n"
        "main = room {\n"
        "\tnam = 'Tutorial',\n"
        "\tdsc = [[The game has scenes.^^The current scene is called {Tutorial}.^Click {r1|Next}.]],\n"
        "};\n"
        "keys = obj {\n"
        "\tdsc = [[Esc menu^F5 refresh^Tab switch]],\n"
        "};\n"
    )
    assert games.instead_sections(game) == [
        ["Tutorial", "The game has scenes.", "The current scene is called Tutorial. Click Next.", ""]
    ]


def test_instead_pairs_paragraphs_by_place_and_reads_portuguese_as_brazilian(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/games/instead/games/tutorial3"
    base.mkdir(parents=True)
    english = "Let's continue the lesson. You are inside a room. Take both objects that you see."
    brazilian = "Vamos continuar a lição. Você está dentro de uma sala. Pegue os dois objetos que você vê."
    (base / "main-en.lua").write_text(f"r1 = room {{\n\tdsc = [[{english}]],\n}};\n", "utf-8")
    (base / "main-pt.lua").write_text(f"r1 = room {{\n\tdsc = [[{brazilian}]],\n}};\n", "utf-8")
    found: games.Found = defaultdict(dict)
    games.instead(tmp_path, found)
    assert found["en"] == {("instead/tutorial3/0", english): english}
    assert found["pt-BR"] == {("instead/tutorial3/0", english): brazilian}


def _level(blocks: dict[str, list[str]]) -> bytes:
    """A Crimson Fields level: a header, then each language's block of inverted, NUL-ended messages."""
    data = b"MSSN\r\x0c\x00\x01"
    for code, messages in blocks.items():
        body = b"".join(bytes(~b & 0xFF for b in m.encode()) + b"\0" for m in messages)
        data += b"\0" + code.encode() + struct.pack("<I", len(body)) + body
    return data + b"\0default\x07\0"


def test_crimson_messages_reads_each_language_block() -> None:
    level = _level({"de": ["Feuertaufe", "Gut gemacht!"], "en": ["Baptism of Fire", "Well done!"]})
    assert games.crimson_messages(level) == {
        "de": ["Feuertaufe", "Gut gemacht!"],
        "en": ["Baptism of Fire", "Well done!"],
    }


def test_crimson_pairs_messages_by_place_and_leaves_numbered_goals_out(tmp_path: Path) -> None:
    briefing = (
        "The next phase of our campaign is going to be the most dangerous yet. We need to cross the plains.",
        "Następna faza naszej kampanii będzie najniebezpieczniejsza. Musimy przekroczyć równiny.",
    )
    goals = (
        "Mission objectives:\n\n1a. Capture the Kandelian headquarters\n1b. Destroy all enemy units.",
        "Cele misji:\n\n1a. Zdobądź kandyjską kwaterę główną\n1b. Zniszcz wszystkie jednostki wroga.",
    )
    path = tmp_path / "usr/share/games/crimson/levels/Baptism.lev"
    path.parent.mkdir(parents=True)
    path.write_bytes(_level({"en": [briefing[0], goals[0]], "pl": [briefing[1], goals[1]]}))
    found: games.Found = defaultdict(dict)
    games.crimson(tmp_path, found)
    assert found["pl"] == {("crimson/Baptism", briefing[0]): briefing[1]}


def test_neverball_reads_backslashes_as_line_breaks_and_leaves_labels_and_french_titles_out(
    tmp_path: Path,
) -> None:
    hills = ("Hills require more speed to get over.\\Be careful not to go too fast!",
             "这些山坡需要更快的速度才能跨\\过去。\\但是也千万别太快了！")  # fmt: skip
    described = ("Difficulty: Beginner through Expert\\\\25 levels which provide a balanced\\challenge.\\",
                 "难度：初学到精通25关\\\\的设定给与玩家缓和进阶的挑战。\\")  # fmt: skip
    titled = ("Le labyrinthe fou.\\You know the way, you see it,\\so why are you taking another one?",
              "Le labyrinthe fou.\\你知道路，你看得见它，\\为什么还要走另一条？")  # fmt: skip
    _mo(tmp_path / "usr/share/locale/zh_CN/LC_MESSAGES/neverball.mo", [hills, described, titled])
    found: games.Found = defaultdict(dict)
    games.neverball(tmp_path, found)
    assert list(found["en"].values()) == [
        "Hills require more speed to get over. Be careful not to go too fast!"
    ]
    assert list(found["zh-Hans"].values()) == ["这些山坡需要更快的速度才能跨过去。但是也千万别太快了！"]


def test_reads_as_french_tells_a_french_title_from_an_english_line() -> None:
    assert games.reads_as_french("Le labyrinthe fou.")
    assert games.reads_as_french("Savoir rebondir pour aller plus haut.")
    assert not games.reads_as_french("You know the way, you see it,")
    assert not games.reads_as_french("Hint:")


def test_laby_reads_its_blocks_without_comments_and_by_locale(tmp_path: Path) -> None:
    level = tmp_path / "usr/share/laby/levels/1b.laby"
    level.parent.mkdir(parents=True)
    english = "A rock is in the way. Use specific instructions to take and drop rocks."
    spanish = "Una piedra en el camino. Usa instrucciones específicas para coger y dejar piedras."
    level.write_text(
        "map:\no o o\no . x\n\ntitle:\ntext\t\tOh a rock\nfr_FR.UTF-8\tOh le caillou\n\n"
        f"comment:\ntext\t\t{english}\nes_MX.UTF-8\t{spanish}\n"
        "#tr_TR.UTF-8\tBir kaya yolunuzu kesiyor. Kayaları almak ve bırakmak için özel komutlar kullanın.\n",
        "utf-8",
    )
    found: games.Found = defaultdict(dict)
    games.laby(tmp_path, found)
    assert list(found["en"].values()) == [english]
    assert list(found["es"].values()) == [spanish]
    assert "tr" not in found and "fr" not in found  # a comment; a title too short to be prose


def test_rich_text_reads_qt_markup_as_plain_text() -> None:
    message = "<qt><p>In a <b>sandbox game</b>, the solution is shown.</p><p>It&apos;s&nbsp;useful.</p></qt>"
    assert games.rich_text(message) == "In a sandbox game, the solution is shown.\nIt's useful.\n"


def test_a_kde_catalogue_is_read_as_plain_text_in_the_units_of_kde_games(tmp_path: Path) -> None:
    english = (
        "<qt>Click on the marked laser to send a beam into the <b>black box</b>. Watch where it exits.</qt>"
    )
    korean = (
        "<qt>표시된 레이저를 클릭해서 <b>검은 상자</b> 안으로 빔을 쏘십시오. 빔이 나가는 곳을 보십시오.</qt>"
    )
    _mo(
        tmp_path / "usr/share/locale/ko/LC_MESSAGES/kblackbox.mo",
        [
            (english, korean),
            ("New Game", "새 게임"),
            (
                "%1: the file could not be read. Please check that it exists and try again.",
                "%1: 파일을 읽을 수 없습니다. 파일이 있는지 확인하고 다시 시도하십시오.",
            ),
        ],
    )
    found: games.Found = defaultdict(dict)
    kblackbox = games.kde_games[games.KDE_GAMES.index("kblackbox")]
    kblackbox(tmp_path, found)
    [((source, _), text)] = found["ko"].items()
    assert source.startswith("kdegames/games/")
    assert text == "표시된 레이저를 클릭해서 검은 상자 안으로 빔을 쏘십시오. 빔이 나가는 곳을 보십시오."


def test_xmoto_reads_its_catalogue_from_the_games_locale_folder(tmp_path: Path) -> None:
    tutorial = ("Find all the strawberries and touch the flower to finish\nthe level.",
                "Sammle alle Erdbeeren und berühre die Blume,\num das Level zu beenden.")  # fmt: skip
    _mo(tmp_path / "usr/share/games/locale/de/LC_MESSAGES/xmoto.mo", [tutorial])
    found: games.Found = defaultdict(dict)
    games.xmoto(tmp_path, found)
    assert list(found["de"].values()) == [
        "Sammle alle Erdbeeren und berühre die Blume, um das Level zu beenden."
    ]


def test_the_levels_set_is_registered() -> None:
    assert games.SETS["levels"] == (
        games.glob2,
        games.instead,
        games.crimson,
        games.neverball,
        games.xmoto,
        games.lordsawar,
        games.laby,
        games.tuxmath,
        *games.kde_games,
    )
