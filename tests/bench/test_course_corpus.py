"""The course set's readers (``bench/corpus/build_games_corpus.py --set course``): Klavaro's catalogue and
the texts its exercises give to type, and Simutrans' help pages, the ones encoded twice in the package
decoded back."""

from __future__ import annotations

import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_games_corpus as games

DEPOT_EN = """<title>Depots</title>

<h1><strong>Depot Controls</strong></h1>

<p>
Depots are used to purchase and manage vehicles. Different types of transport have their own depot.<br>
Click on a depot with the <a href="inspection_tool.txt">Inspection Tool</a> to open the depot's controls.
</p>
<p>
- <a href="railtools.txt">Train Depot</a><br>
</p>
"""
DEPOT_JA = """<title>車庫</title>

<h1>車庫の操作</h1>

<p>
車庫では車両を購入し、管理します。輸送の種類ごとにそれぞれの車<br>
庫があります。<br>
ゲームビューで<a href="inspection_tool.txt">調査ツール</a>を使って車庫をクリックすると、車庫の操作が開きます。
</p>
<p>
- <a href="railtools.txt">鉄道車庫</a><br>
</p>
"""


def _twice(text: str) -> str:
    """The text as the package holds it: its UTF-8 read as Latin-1 and encoded in UTF-8 again."""
    return text.encode("utf-8").decode("latin-1")


def test_twice_encoded_decodes_a_twice_encoded_text_and_leaves_any_other_as_it_is() -> None:
    assert games.twice_encoded(_twice("総合ヘルプ")) == "総合ヘルプ"
    assert games.twice_encoded(_twice("Überblick über die Fahrzeuge")) == "Überblick über die Fahrzeuge"
    for text in ("Fahrzeugverbände … Linien", "Die Fahrzeuge für den Übergang", "Depots are used to"):
        assert games.twice_encoded(text) == text


def test_simutrans_pages_are_paired_by_place_the_twice_encoded_decoded(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/games/simutrans/text"
    for directory, text in (("en", DEPOT_EN), ("ja", _twice(DEPOT_JA)), ("pt", DEPOT_EN)):
        (base / directory).mkdir(parents=True)
        (base / directory / "depot.txt").write_text(text, "utf-8")
    found: games.Found = defaultdict(dict)
    games.simutrans(tmp_path, found)
    english = found["en"]
    assert sorted(english.values()) == [
        "Click on a depot with the Inspection Tool to open the depot's controls.",
        "Depots are used to purchase and manage vehicles. Different types of transport have their own depot.",
    ]  # the title, the heading and the list of links are not read
    japanese = found["ja"]
    assert set(japanese) == set(english)  # each paragraph under its English key
    assert (
        sorted(japanese.values())[-1]
        == "車庫では車両を購入し、管理します。輸送の種類ごとにそれぞれの車庫があります。"
    )
    assert set(found) == {"en", "ja"}  # "pt", of no stated variant, is not read


def test_simutrans_pages_of_another_shape_have_no_partner(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/games/simutrans/text"
    for directory in ("en", "ko"):
        (base / directory).mkdir(parents=True)
    (base / "en/depot.txt").write_text(DEPOT_EN, "utf-8")
    korean = (
        "<p>\n차고에서는 차량을 구입하고 관리합니다. 운송 수단마다 각각의 차고가 있습니다.\n"
        "차고를 누르면 창이 열립니다.\n</p>\n"
    )
    (base / "ko/depot.txt").write_text(_twice(korean), "utf-8")
    found: games.Found = defaultdict(dict)
    games.simutrans(tmp_path, found)
    [(key, text)] = found["ko"].items()
    assert key == ("simutrans/depot/0", text) and text.startswith("차고에서는")


def test_a_korean_page_laid_out_as_the_japanese_one_is_not_read(tmp_path: Path) -> None:
    base = tmp_path / "usr/share/games/simutrans/text"
    for directory in ("en", "ko"):
        (base / directory).mkdir(parents=True)
    (base / "en/depot.txt").write_text(DEPOT_EN, "utf-8")
    (base / "en/schedule.txt").write_text(DEPOT_EN, "utf-8")
    human = "<p>\n차고에서는 차량을 구입하고 관리합니다. 운송 수단마다 각각의 차고가 있습니다.\n</p>\n"
    glued = "<p>\n변경은 즉시에 반영됩니다.다만 재기동 후는 원의 설정으로 돌아와 버립니다.\n</p>\n"
    (base / "ko/depot.txt").write_text(_twice(human), "utf-8")
    (base / "ko/schedule.txt").write_text(_twice(glued), "utf-8")
    found: games.Found = defaultdict(dict)
    games.simutrans(tmp_path, found)
    assert [source for source, _ in found["ko"]] == ["simutrans/depot/0"]


def test_a_page_written_without_its_languages_accented_letters_is_told_apart() -> None:
    accented = "Las cocheras sirven para comprar y gestionar vehículos. Pulsa después en el camino. " * 5
    plain = accented.replace("í", "i").replace("é", "e")
    assert not games.without_accents("es", accented) and games.without_accents("es", plain)
    assert not games.without_accents("es", plain[:200])  # too few letters to tell
    english = "Depots are used to purchase and manage vehicles, each kind of transport its own depot. " * 5
    assert not games.without_accents("en", english) and not games.without_accents("nl", english)


def test_paragraph_pieces_cut_a_long_paragraph_at_its_sentences_ends() -> None:
    sentence = "Это предложение о том, как печатать текст быстро и без ошибок на клавиатуре. "
    pieces = games.paragraph_pieces(sentence * 20)
    assert len(pieces) == 3 and all(len(p) <= games.PARAGRAPH_CHARS for p in pieces)
    assert all(p.startswith("Это") and p.endswith("клавиатуре.") for p in pieces)
    assert games.paragraph_pieces("One short paragraph.\nOn two lines.") == [
        "One short paragraph. On two lines."
    ]


@pytest.mark.skipif(
    subprocess.run(["which", "msgfmt"], capture_output=True).returncode != 0, reason="no msgfmt"
)
def test_klavaro_reads_its_catalogue_and_its_texts_to_type(tmp_path: Path) -> None:
    remark_en = "Correct positioning of the hands and fingers is very important to efficient typing."
    remark_vi = "Đặt đúng vị trí của bàn tay và các ngón tay là rất quan trọng để gõ phím hiệu quả."
    po = tmp_path / "vi.po"
    po.write_text(
        'msgid ""\nmsgstr "Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        f'msgid "{remark_en}"\nmsgstr "{remark_vi}"\n\n'
        'msgid "Try to reach at least %.0f WPM, you are still away from the highway."\n'
        'msgstr "Hãy cố gắng đạt ít nhất %.0f WPM, bạn vẫn còn cách xa đường cao tốc."\n',
        "utf-8",
    )
    messages = tmp_path / "usr/share/locale/vi/LC_MESSAGES"
    messages.mkdir(parents=True)
    subprocess.run(["msgfmt", "-o", str(messages / "klavaro.mo"), str(po)], check=True)
    texts = tmp_path / "usr/share/klavaro"
    texts.mkdir(parents=True)
    english_text = (
        "In an age when mailboxes bulge with junk mail, a hand-addressed envelope is cause for rejoicing."
    )
    korean_text = "찬 눈과 쓰린 바람을 무릅쓰고 거리에 나다니려면 의복도 필요하다."
    (texts / "C.paragraphs").write_text(f"{english_text}\n\nToo short.\n", "utf-8")
    (texts / "ko.paragraphs").write_text(f"\ufeff{korean_text}\n", "utf-8")
    found: games.Found = defaultdict(dict)
    games.klavaro(tmp_path, found)
    assert list(found["vi"].values()) == [remark_vi]  # the remark with a placeholder is not prose
    assert set(found["en"].values()) == {remark_en, english_text}
    [(key, text)] = found["ko"].items()
    assert text == korean_text and key == (games.unit("klavaro", "paragraphs", text), text)  # no partner


def test_the_course_set_is_a_set_of_the_builder() -> None:
    assert games.SETS["course"] == (games.klavaro, games.simutrans)
