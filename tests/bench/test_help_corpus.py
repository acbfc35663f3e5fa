"""The documentation corpus builder (``bench/corpus/build_help_corpus.py``) reads a page's paragraphs as a
reader sees them and leaves out what a translator left in English."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

from build_help_corpus import (
    _book_pages,
    _html_paragraphs,
    _LiveManualParagraphs,
    _without_english,
    _without_english_words,
    svg_sections,
    without_lost_letters,
)

TUTORIAL = """<?xml version="1.0" encoding="UTF-8"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd">
<text style="font-size:8;shape-inside:url(#a)">Drag the handle with
 <tspan style="font-weight:bold">Ctrl</tspan> held to keep the ratio.</text>
<text style="font-weight:bold;shape-inside:url(#b)">Moving the canvas</text>
<text style="shape-inside:url(#c)">
<tspan sodipodi:role="line">First line</tspan><tspan sodipodi:role="line">and the second one.</tspan></text>
<text x="4" y="9">label</text>
</svg>
"""


def test_a_tutorial_reads_inline_markup_as_text_and_starts_a_section_at_each_title(tmp_path: Path) -> None:
    page = tmp_path / "tutorial-demo.svg"
    page.write_text(TUTORIAL, encoding="utf-8")
    assert svg_sections(page) == [
        ["Drag the handle with Ctrl held to keep the ratio."],
        ["Moving the canvas", "First line and the second one.", "label"],
    ]


def test_a_broken_tutorial_has_no_paragraphs(tmp_path: Path) -> None:
    page = tmp_path / "tutorial-broken.svg"
    page.write_text("<svg><text>never closed", encoding="utf-8")
    assert svg_sections(page) == []


def test_the_live_manual_reads_text_paragraphs_without_numbers_or_code(tmp_path: Path) -> None:
    page = tmp_path / "the-basics.fr.html"
    page.write_text(
        '<div class="substance"><label class="ocn"><a href="#7">7</a></label>'
        '<p class="i0" id="7">Le système démarre depuis une clé <b>USB</b>.</p></div>'
        '<p class="code">lb build</p><p class="bold">Titre</p>',
        encoding="utf-8",
    )
    assert _html_paragraphs(page, _LiveManualParagraphs()) == ["Le système démarre depuis une clé USB."]


def test_an_untranslated_sentence_with_few_stop_words_is_english_in_an_older_edition() -> None:
    left_in_english = (
        "Le programme de change est fourni. Windows: the quote helper requires perl installed already."
    )
    assert _without_english(left_in_english, "fr")  # one English stop word: the plain check misses it
    assert not _without_english_words(left_in_english, "fr")


def test_a_translation_naming_english_menu_items_is_kept() -> None:
    assert _without_english_words("Klicken Sie auf Export Report und dann auf Save, um ihn zu sichern.", "de")
    assert _without_english_words("Wybierz Edit → Preferences, aby otworzyć okno ustawień programu.", "pl")


def test_a_book_naming_its_pages_with_the_language_is_matched_page_by_page(tmp_path: Path) -> None:
    faq = tmp_path / "usr/share/doc/debian/FAQ"
    (faq / "de").mkdir(parents=True)
    for path in (faq / "basic-defs.html", faq / "de/basic-defs.de.html", faq / "de/kernel.de.html"):
        path.write_text("<p>x</p>", encoding="utf-8")
    assert _book_pages(tmp_path, "debian-faq", "en") == {"basic-defs": faq / "basic-defs.html"}
    assert _book_pages(tmp_path, "debian-faq", "de") == {
        "basic-defs": faq / "de/basic-defs.de.html",
        "kernel": faq / "de/kernel.de.html",
    }


def test_a_unit_whose_translation_lost_its_accented_letters_is_left_out() -> None:
    good = "Die Benutzer können für jeden Dienst über die Konfiguration entscheiden, müssen aber prüfen. "
    lost = good.replace("ö", "").replace("ü", "")  # "knnen", "fr", "ber", "mssen", "prfen"
    rows = [(f"book:{i}", good * 40) for i in range(4)] + [("book:lost", lost * 50)]
    assert [s for s, _ in without_lost_letters(rows)] == ["book:0", "book:1", "book:2", "book:3"]
    short = [*rows[:4], ("book:lost", lost)]  # too little text to judge the unit by
    assert without_lost_letters(short) == short
    english = [("book:0", "The users decide for every service. " * 100)] * 2
    assert without_lost_letters(english) == english  # an alphabet without such letters
