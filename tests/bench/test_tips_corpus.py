"""The tips set's readers (``bench/corpus/build_games_corpus.py --set tips``): OpenTTD's compiled language
files, Minetest's, Gramps' and PyChess' catalogues (Gramps' tips without their titles), Tux Paint's stamp
captions and Hex-a-Hop's tutorial, each message with its translations in one source unit, placeholders,
interface strings and messages whose lines are items left out."""

from __future__ import annotations

import struct
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

SETTING_EN = "Automatically remove signals during rail construction if the signals are in the way."
SETTING_KO = "신호기가 철도 건설에 방해가 되면 철도를 건설하는 동안 신호기를 자동으로 제거합니다."
SETTING_VI = "Tự động gỡ bỏ đèn tín hiệu khi xây dựng đường ray nếu đèn tín hiệu cản đường."
NEWS_EN = "World Recession!\n\nFinancial experts fear worst as economy slumps and trade grinds to a halt!"
NEWS_KO = "세계 경제 공황!\n\n경제가 폭락하고 무역이 멈추자 금융 전문가들이 최악의 사태를 우려하고 있습니다!"
BLACK, STRING = "\ue04b", "\ue005"  # OpenTTD's colour code and a placeholder for a name


def _lng(path: Path, iso: str, strings: list[str]) -> None:
    """An OpenTTD language file: the header with the ISO code and the count of the first tab, the strings."""
    header = bytearray(games.OPENTTD_HEADER)
    header[:4] = b"LANG"
    header[72 : 72 + len(iso)] = iso.encode()
    struct.pack_into("<H", header, 88, len(strings))
    body = bytearray()
    for text in strings:
        data = text.encode("utf-8")
        body += bytes([len(data)]) if len(data) < 0xC0 else bytes([0xC0 | len(data) >> 8, len(data) & 0xFF])
        body += data
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(bytes(header + body) + b"\0")


def _mo(path: Path, pairs: list[tuple[str, str]]) -> None:
    """A gettext .mo file holding the pairs (little-endian, no hash table)."""
    pairs = sorted(pairs)
    ids = [english.encode() for english, _ in pairs]
    strs = [text.encode() for _, text in pairs]
    start = 28 + 16 * len(pairs)
    table, data = b"", b""
    for blob in ids + strs:
        table += struct.pack("<2I", len(blob), start + len(data))
        data += blob + b"\0"
    header = struct.pack("<7I", 0x950412DE, 0, len(pairs), 28, 28 + 8 * len(pairs), 0, 0)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header + table + data)


def test_read_lng_reads_the_iso_code_and_every_string_short_or_long(tmp_path: Path) -> None:
    long = "A long explanation of a setting, written out. " * 6  # over 0xC0 bytes: a two-byte length
    _lng(tmp_path / "korean.lng", "ko_KR", [SETTING_KO, long, ""])
    iso, strings = games.read_lng(tmp_path / "korean.lng")
    assert iso == "ko_KR" and strings == [SETTING_KO, long, ""]
    (tmp_path / "other.lng").write_bytes(b"NOPE" + bytes(600))
    assert games.read_lng(tmp_path / "other.lng") == ("", [])


def test_openttd_text_drops_colours_and_rejects_placeholders() -> None:
    assert games.openttd_text(BLACK + SETTING_EN) == SETTING_EN
    assert games.openttd_text(f"Citizens celebrate! First train arrives at {STRING}!") is None
    assert games.openttd_text(None) is None


def test_openttd_pairs_each_string_with_the_english_by_id_in_blocks_of_ids(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/games/openttd/lang"
    english = [BLACK + SETTING_EN, NEWS_EN, f"{STRING} has been sold to a rival company for a good price."]
    english += ["Build railway track"] * (games.OPENTTD_BLOCK - 3) + [SETTING_EN.replace("rail", "road")]
    korean = [BLACK + SETTING_KO, NEWS_KO, f"{STRING}가 경쟁 회사에 좋은 가격에 팔렸습니다."]
    korean += ["철도 건설"] * (games.OPENTTD_BLOCK - 3) + [SETTING_KO.replace("철도", "도로")]
    _lng(base / "english.lng", "en_GB", english)
    _lng(base / "korean.lng", "ko_KR", korean)
    _lng(base / "vietnamese.lng", "vi_VN", [SETTING_VI])  # another count of strings: not paired
    found: games.Found = defaultdict(dict)
    games.openttd(tmp_path, found)
    road = SETTING_EN.replace("rail", "road")
    assert found["en"] == {
        ("openttd/0", SETTING_EN): SETTING_EN,
        ("openttd/0", NEWS_EN): " ".join(NEWS_EN.split()),
        ("openttd/1", road): road,  # the next block of ids is another source unit
    }
    assert found["ko"] == {
        ("openttd/0", SETTING_EN): SETTING_KO,
        ("openttd/0", NEWS_EN): " ".join(NEWS_KO.split()),
        ("openttd/1", road): SETTING_KO.replace("철도", "도로"),
    }  # the placeholder's message and the interface's label are not read
    assert "vi" not in found


def test_line_items_tells_a_list_of_items_from_a_wrapped_text() -> None:
    assert games.line_items("Show entity selection boxes\nA restart is required after changing this.")
    assert games.line_items("Handling for deprecated calls:\n-    none: Do not log deprecated calls")
    assert not games.line_items("Arm inertia, gives a more realistic movement of\nthe arm when it moves.")
    assert not games.line_items("If enabled, actions are recorded.\nThis option is read when it starts.")


def test_minetest_joins_a_line_wrapped_between_cjk_characters_and_leaves_items_out(tmp_path: Path) -> None:
    items = "Show entity selection boxes\nA restart is required after changing this option."
    remote = "Enable usage of remote media server (if provided by server).\nRemote servers are faster."
    _mo(
        tmp_path / "usr/share/locale/ja/LC_MESSAGES/minetest.mo",
        [
            (remote, "リモートメディアサーバーの使用を有効にします (サーバーによって提供\nされている場合)。"),
            (items, "エンティティの選択ボックスを表示\n変更後は再起動が必要です。"),
        ],
    )
    found: games.Found = defaultdict(dict)
    games.minetest(tmp_path, found)
    assert list(found["ja"].values()) == [
        "リモートメディアサーバーの使用を有効にします (サーバーによって提供されている場合)。"
    ]
    assert [key for _, key in found["en"]] == [remote]


def test_gramps_reads_its_tips_without_their_titles_and_its_messages(tmp_path: Path) -> None:
    tip_en = (
        "<b>Talk to Relatives Before It Is Too Late</b><br/>Your oldest relatives can be your most "
        "important source of information. They usually know things that haven&apos;t been written down."
    )
    tip_zh = (
        "<b>趁早和亲戚交谈</b><br/>"
        "您最年长的亲戚可能是您最重要的信息来源。他们通常知道一些没有被记录下来的家族往事。"
    )
    (tmp_path / "usr/share/gramps").mkdir(parents=True)
    (tmp_path / "usr/share/gramps/tips.xml").write_text(
        f'<?xml version="1.0"?>\n<tips>\n<tip number="5">{tip_en}</tip>\n</tips>\n', "utf-8"
    )
    merge_en = "Exactly two families must be selected to perform a merge of their records."
    merge_zh = "必须同时选中两个家庭方可进行合并，之后才能合并它们的记录。"
    placeholder = (
        "She had a relationship with %(spouse)s in the town.",
        "她与%(spouse)s在镇上有过伴侣关系。",
    )
    _mo(
        tmp_path / "usr/share/locale/zh_CN/LC_MESSAGES/gramps.mo",
        [(tip_en, tip_zh), (merge_en, merge_zh), placeholder],
    )
    glued = (
        "Trò chuyện với người thân trước khi quá muộn<b><br/>Người thân lớn tuổi nhất là nguồn thông tin quý."
    )
    _mo(tmp_path / "usr/share/locale/vi/LC_MESSAGES/gramps.mo", [(tip_en, glued)])
    found: games.Found = defaultdict(dict)
    games.gramps(tmp_path, found)
    assert "vi" not in found  # its title, not marked as the English's, would be glued to the text
    assert sorted(found["zh-Hans"].values()) == sorted(
        [merge_zh, "您最年长的亲戚可能是您最重要的信息来源。他们通常知道一些没有被记录下来的家族往事。"]
    )
    tips = [text for (source, _), text in found["en"].items() if source.startswith("gramps/tips/")]
    assert tips == [
        "Your oldest relatives can be your most important source of information. "
        "They usually know things that haven't been written down."
    ]


def test_tuxpaint_stamps_read_each_caption_in_its_category(tmp_path: Path) -> None:
    caption = "The honey bee collects nectar from flowers and makes honey for the hive in winter."
    stamp = tmp_path / "usr/share/tuxpaint/stamps/animals/insects/bee.txt"
    stamp.parent.mkdir(parents=True)
    stamp.write_text(
        f"{caption}\n"
        "de.utf8=Die Honigbiene sammelt Nektar von Blumen und macht daraus Honig für den Winter.\n"
        "id.utf8=Lebah madu mengumpulkan nektar dari bunga dan membuat madu untuk sarang di musim dingin.\n"
        "pt.utf8=A abelha recolhe o néctar das flores e faz mel para a colmeia durante o inverno frio.\n",
        "utf-8",
    )
    short = tmp_path / "usr/share/tuxpaint/stamps/animals/birds/toucan.txt"
    short.parent.mkdir(parents=True)
    short.write_text("A toucan.\nde.utf8=Ein Tukan.\n", "utf-8")
    found: games.Found = defaultdict(dict)
    games.tuxpaint_stamps(tmp_path, found)
    assert set(found) == {"en", "de", "id", "pt"}  # European Portuguese is not read as Brazilian
    assert {source for language in found.values() for source, _ in language} == {
        "tuxpaint-stamps/animals/insects"
    }  # the category is the unit; the toucan's caption is too short to be prose
    assert found["de"][("tuxpaint-stamps/animals/insects", caption)].startswith("Die Honigbiene")


def test_hex_a_hop_reads_a_title_before_the_bar_as_a_label(tmp_path: Path) -> None:
    goal_en = "Your goal is to break all the green tiles.    You mainly do this by jumping on them."
    goal_vi = "Mục tiêu của bạn là phá vỡ mọi ô màu xanh lá cây, chủ yếu bằng cách nhảy lên chúng."
    _mo(
        tmp_path / "usr/share/locale/vi/LC_MESSAGES/hex-a-hop.mo",
        [(f"Objective:|{goal_en}", f"Mục tiêu:|{goal_vi}")],
    )
    found: games.Found = defaultdict(dict)
    games.hex_a_hop(tmp_path, found)
    [text] = found["vi"].values()
    assert text == f"Mục tiêu: {goal_vi}"


def test_pychess_reads_its_catalogue(tmp_path: Path) -> None:
    tip = (
        "Did you know that the rooks are generally engaged late in the game, after the minor pieces?",
        "룩은 보통 마이너 기물들이 나온 뒤, 게임 후반에 가서야 싸움에 뛰어든다는 것을 알고 있습니까?",
    )
    _mo(tmp_path / "usr/share/locale/ko/LC_MESSAGES/pychess.mo", [tip, ("New Game", "새 게임")])
    found: games.Found = defaultdict(dict)
    games.pychess(tmp_path, found)
    assert list(found["ko"].values()) == [tip[1]]


def test_the_tips_set_is_registered() -> None:
    assert games.SETS["tips"] == (
        games.minetest,
        games.gramps,
        games.openttd,
        games.pychess,
        games.tuxpaint_stamps,
        games.hex_a_hop,
    )
