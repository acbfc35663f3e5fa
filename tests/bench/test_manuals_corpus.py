"""The manuals' corpus builder (``build_help_corpus.py --source manuals``) reads single-page books section by
section beside the English book, and Texinfo pages as a reader sees their prose."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

from build_help_corpus import (
    _PICTURE,
    _book_pages,
    _html_paragraphs,
    _TexinfoParagraphs,
    collect_lilypond,
    collect_single_page,
    numbered_sections,
)

BOOK = """<html><body><div class="titlepage"><h2 class="title"><a id="idm1"></a>The Handbook</h2></div>
<p>Published in spring.</p>
<h2 class="title" style="clear: both"><a id="intro"></a>1. Introduction</h2><p>One.</p>
<h3 class="title"><a id="idm9"></a>1.1. Scope</h3><p>Two.</p>
<h3 id="_usage">1.2. Usage</h3><div class="paragraph"><p>Three.</p></div>
"""


def test_a_single_page_book_is_cut_at_its_numbered_headings_without_its_title_page() -> None:
    sections = numbered_sections(BOOK)
    assert list(sections) == ["1", "1.1", "1.2"]
    assert "Two." in sections["1.1"] and "Three." not in sections["1.1"]
    assert "Published" not in "".join(sections.values())


def _page(paragraphs: list[str], lang: str) -> str:
    body = "".join(
        f'<h3 class="title"><a id="s{n}"></a>2.{n}. Title</h3><p>{p}</p>' for n, p in enumerate(paragraphs, 1)
    )
    return f'<html><body lang="{lang}">{body}</body></html>'


def test_a_single_page_book_keeps_translated_sections_and_names_them_by_chapter(tmp_path: Path) -> None:
    english = [
        "The server hands out addresses to every machine of the school network, and it keeps a record "
        "of each lease in its database so that a machine finds the same address after a restart. " * 2,
        "Backups run every night at two o'clock and keep the last seven days of every home directory, "
        "so that a pupil who deletes a file by mistake can ask for it back the next morning. " * 2,
    ]
    french = [
        "Le serveur attribue une adresse à chaque machine du réseau de l'école et garde la trace de chaque "
        "bail dans sa base, afin qu'une machine retrouve la même adresse après un redémarrage. " * 2,
        english[1],  # left in English by the translator
    ]
    for lang, paragraphs in (("en", english), ("fr", french)):
        path = tmp_path / f"usr/share/doc/debian-edu-doc-{lang}/debian-edu-bookworm-manual.html"
        path.parent.mkdir(parents=True)
        path.write_text(_page(paragraphs, lang), encoding="utf-8")
    rows = collect_single_page(tmp_path, "fr", "edu")
    assert [source for source, _ in rows] == ["edu:2.1"]
    assert rows[0][1].startswith("Le serveur attribue")
    assert collect_single_page(tmp_path, "ko", "edu") == []  # no Korean translation


TEXINFO = """<p id="languages">English, 日本語</p>
<p>Use <code>\\relative</code> to enter pitches; the example below shows it.
</p>
<p>The full list is given in
</p><blockquote><pre class="example">scm/output-lib.scm</pre></blockquote>
<p>which is read at start-up.
</p>
<h4 class="subsubheading">See also</h4>
<p>Music Glossary: <a href="../g/tuplet.html">tuplet</a>, <a href="../g/triplet.html">triplet</a>.
</p>
<p>A note <a href="../g/x.html">with a link</a> in a long sentence stays a paragraph of prose.</p>
<p class="footer_version">Version 2.24</p>
"""


def test_texinfo_pages_leave_out_navigation_reference_lists_and_a_sentence_cut_by_an_example(
    tmp_path: Path,
) -> None:
    page = tmp_path / "tuplets.html"
    page.write_text(TEXINFO, encoding="utf-8")
    found = [p for p in _html_paragraphs(page, _TexinfoParagraphs()) if p]
    assert found[0] == "Use \\relative to enter pitches; the example below shows it."
    assert found[1] == "The full list is given in"
    assert _PICTURE in found[2] and found[2].startswith("which is read")  # the sentence's end
    assert _PICTURE in found[3] and found[3].startswith("Music Glossary:")  # a list of links
    assert found[4] == "A note with a link in a long sentence stays a paragraph of prose."
    assert len(found) == 5  # the language list and the footer are not prose


def test_the_history_book_is_matched_page_by_page_across_languages(tmp_path: Path) -> None:
    docs = tmp_path / "usr/share/doc/debian-history/docs"
    docs.mkdir(parents=True)
    for name in ("detailed.en.html", "detailed.ja.html", "leaders.en.html", "detailed.pt.html"):
        (docs / name).write_text("<p>x</p>", encoding="utf-8")
    assert set(_book_pages(tmp_path, "debian-history", "en")) == {"detailed", "leaders"}
    assert _book_pages(tmp_path, "debian-history", "ja") == {"detailed": docs / "detailed.ja.html"}


def test_lilypond_pages_are_read_beside_the_english_page_of_the_same_name(tmp_path: Path) -> None:
    learning = tmp_path / "usr/share/doc/lilypond/html/Documentation/learning"
    learning.mkdir(parents=True)
    kept = (
        "連符はコマンドで入力します。分数で音符の長さの比を指定し、その後に波括弧で囲んだ音符を続けます。"
        "三連符は最もよく使われる連符で、二つの音符の長さに三つの音符を入れます。"
        "連符の括弧と数字は自動的に譜刻されますが、その向きや表示は後から変更することができます。"
        "長い楽曲では連符をまとめて入力すると便利で、同じ比の連符を続けて書くことができます。"
        "詳しい設定は記譜法リファレンスの連符の節に説明があり、多くの例が載っています。"
    )
    english_only = "Tuplets are made with the \\tuplet keyword and a fraction, then the music in braces." * 4
    (learning / "tuplets.html").write_text(f"<p>{english_only}</p><p>Other text.</p>", encoding="utf-8")
    (learning / "tuplets.ja.html").write_text(f"<p>{kept}</p><p>{english_only}</p>", encoding="utf-8")
    (learning / "index.ja.html").write_text(f"<p>{kept}</p>", encoding="utf-8")  # no English page
    rows = collect_lilypond(tmp_path, "ja")
    assert [source for source, _ in rows] == ["lilypond:learning/tuplets"]
    assert rows[0][1].startswith("連符は") and "Tuplets" not in rows[0][1]
    assert collect_lilypond(tmp_path, "ko") == []  # no Korean manual
