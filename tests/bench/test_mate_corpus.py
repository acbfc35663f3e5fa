"""The MATE manuals' reader (``bench/corpus/build_help_corpus.py --source mate``): a DocBook XML file's
paragraphs by top-level section, inline markup read as Yelp shows it, and what would be missing on the page
or was left in English left out."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

from build_help_corpus import collect_mate, docbook_sections

CHAPTER = """<?xml version="1.0" encoding="utf-8"?>
<chapter xmlns="http://docbook.org/ns/docbook" xml:id="goscaja">
  <title>{title}</title>
  <info><abstract><para>{abstract}</para></abstract></info>
  <para>{intro}</para>
  <section xml:id="a">
    <title>Menus</title>
    <para>{menu}</para>
    <section xml:id="a1"><para>{nested}</para></section>
    <para>{kept_english}<indexterm><primary>Caja</primary></indexterm></para>
    <para>See <xref linkend="b"/> for more.</para>
  </section>
  <section xml:id="b">
    <para>A list follows <itemizedlist><listitem><para>one</para></listitem></itemizedlist> here.</para>
  </section>
</chapter>
"""
ENGLISH = {
    "title": "File Manager",
    "abstract": "About this chapter.",
    "intro": "The file manager lets you create, organize and open the files and folders of your computer.",
    "menu": (
        "To open a new window, choose <menuchoice><guimenu>File</guimenu><guimenuitem>New Window"
        "</guimenuitem></menuchoice> or press <keycombo><keycap>Ctrl</keycap><keycap>N</keycap></keycombo>."
    ),
    "nested": "Each window shows the contents of one folder, and you can open as many windows as you need.",
    "kept_english": "Bookmarks are shown in the side pane of every window, below the list of your places.",
}
GERMAN = {
    "title": "Dateiverwaltung",
    "abstract": "Über dieses Kapitel.",
    "intro": (
        "Mit der Dateiverwaltung legen Sie die Dateien und Ordner Ihres Rechners an, ordnen und öffnen sie."
    ),
    "menu": (
        "Um ein neues Fenster zu öffnen, wählen Sie <menuchoice><guimenu>Datei</guimenu>"
        "<guimenuitem>Neues Fenster</guimenuitem></menuchoice> oder drücken Sie "
        "<keycombo><keycap>Strg</keycap><keycap>N</keycap></keycombo>."
    ),
    "nested": (
        "Jedes Fenster zeigt den Inhalt eines Ordners, und Sie können so viele Fenster öffnen, "
        "wie Sie brauchen. Ein Fenster schließen Sie mit dem Knopf rechts oben in seiner Titelleiste."
    ),
    "kept_english": ENGLISH["kept_english"],  # left untranslated
}


def _write(root: Path, directory: str, texts: dict[str, str]) -> Path:
    path = root / "usr/share/help" / directory / "mate-user-guide/goscaja.xml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CHAPTER.format(**texts), encoding="utf-8")
    return path


def test_a_docbook_file_is_read_by_top_level_section_with_inline_markup_as_text(tmp_path: Path) -> None:
    sections = docbook_sections(_write(tmp_path, "de", GERMAN))
    assert sections == [
        [GERMAN["intro"]],  # the title and the abstract are not paragraphs of the text
        [
            "Um ein neues Fenster zu öffnen, wählen Sie Datei ▸ Neues Fenster oder drücken Sie Strg+N.",
            GERMAN["nested"],  # a nested section belongs to its top-level one
            ENGLISH["kept_english"],  # an index term is not part of the sentence
            "",  # a cross-reference's text is generated: the paragraph would not read as written
        ],
        [""],  # a list inside a paragraph: the paragraph is not read
    ]


def test_a_broken_file_has_no_sections(tmp_path: Path) -> None:
    path = tmp_path / "broken.xml"
    path.write_text("<chapter><para>never closed", encoding="utf-8")
    assert docbook_sections(path) == []


def test_the_manual_leaves_out_paragraphs_left_in_english_and_splits_by_section(tmp_path: Path) -> None:
    _write(tmp_path, "C", ENGLISH)
    _write(tmp_path, "de", GERMAN)
    german = " ".join(text for _, text in collect_mate(tmp_path, "de"))
    assert GERMAN["nested"] in german and "Strg+N" in german
    assert ENGLISH["kept_english"] not in german
    assert {source for source, _ in collect_mate(tmp_path, "de")} <= {
        f"mate:mate-user-guide/goscaja#{n}" for n in range(3)
    }
