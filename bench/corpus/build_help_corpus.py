# ruff: noqa: E501  (commands)
"""Builds a clean documentation evaluation from translated user documentation (GNOME help, Debian books, LibreOffice help, the GIMP manual, Inkscape's tutorials, GnuCash's guides, the Debian Live manual, the KDE handbooks, the MATE manuals).

Sources (not used by the other evaluations), as shipped in Debian and read at run time from the extracted
packages; nothing is installed or committed::

    mkdir -p /tmp/jdoc && cd /tmp/jdoc
    apt-get download gnome-user-docs yelp gnome-terminal-data gnome-calculator gnome-system-monitor eog \\
        evince-common gedit-common gnome-clocks gnome-maps gnome-weather totem-common baobab \\
        gnome-disk-utility gnome-font-viewer file-roller
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --root /tmp/jdoc/root \\
        --out bench/results/help_paragraphs.jsonl
    .venv/bin/python bench/judges_eval.py bench/results/help_paragraphs.jsonl --split dev

Every ``usr/share/help/<lang>/<document>/*.page`` is a topic page written in English (``C``) and
translated by a person. Its ``<p>`` elements outside the page's ``<info>`` are read with their inline
markup as text (a ``<keyseq>`` as ``Ctrl+C``, a ``<guiseq>`` as ``File ▸ Print``); a paragraph with an empty ``<link>`` (Yelp puts the linked
page's title there) or an image is left out, and so are code blocks and paragraphs left untranslated
(identical to one of the English page) or not ending like a sentence (a table cell's label). Consecutive short paragraphs are
joined to 160 characters (60 in Chinese, Japanese and Korean) and then go through the
documentation builder's filters and runs (``build_language_corpus.runs``: prose, a start a person writes,
runs of 200-700 characters; its locale check only for Chinese, Japanese and Korean, where it also drops
paragraphs dominated by Latin words and the other Chinese variant: elsewhere a translated paragraph is in
its locale).

The **source** of a row is the document and page without the language (``help:gnome-help/files-copy``),
so a page and all its translations fall in one split (``judge_cases.split_of``). Output rows are those of
``build_language_corpus.py --clean-out``: ``{"locale", "source", "text"}``.

``--source handbook`` and ``--source install`` read DocBook books instead: *The Debian Administrator's
Handbook* (package ``debian-handbook``, 16 of the 17 locales: no Ukrainian) and the Debian installation
guide (``installation-guide-amd64``, 12: no Brazilian Portuguese, Polish, Turkish, Ukrainian or
traditional Chinese), one HTML page per section and language::

    mkdir -p /tmp/jdoc3 && cd /tmp/jdoc3 && apt-get download debian-handbook installation-guide-amd64
    dpkg-deb -x debian-handbook_*.deb root && dpkg-deb -x installation-guide-amd64_*.deb ig
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source handbook --root /tmp/jdoc3/root \\
        --out bench/results/handbook_paragraphs.jsonl
    .venv/bin/python bench/corpus/build_help_corpus.py --source install --root /tmp/jdoc3/ig \\
        --out bench/results/install_paragraphs.jsonl

Their paragraphs (``<div class="para">``, ``<p>``) are read with their inline markup as text (a command
name, a file name, an acronym); a code block, a list or a note inside a paragraph ends it, footnote marks
are left out; a paragraph that ends with a colon (it introduces the block that follows) and an
untranslated one (identical to the English page's once the cross-references' text, which DocBook writes
in the page's language, is masked) are blanked; in the alphabetic locales a paragraph with an English
sentence is left out (``_without_english``); the rest goes through the same steps as a help page (short
ones merged; ``runs``). The source of a row is the book's **chapter** (``handbook:6`` for every section
6.x, ``install:B`` for appendix B), so a chapter and all its translations fall in one split.

``--source libreoffice`` reads LibreOffice's help (``libreoffice-help-<lang>``, 16 of the 17 locales: no
Ukrainian), one HTML page per topic and language::

    mkdir -p /tmp/jdoc4 && cd /tmp/jdoc4
    apt-get download libreoffice-help-{en-us,es,pt-br,fr,de,it,nl,pl,ru,tr,ja,ko,zh-cn,zh-tw,id,vi}
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source libreoffice --root /tmp/jdoc4/root \\
        --out bench/results/libreoffice_paragraphs.jsonl

A page's ``<p class="paragraph">`` elements are read as the help viewer shows them (of a ``switchinline``'s
variants only the default one: the macOS or per-module ones are hidden spans with a class); another
page's text embedded in it and its "how to get" box are left out (read on their own page), and so are
paragraphs with an image (an icon the sentence names), paragraphs untranslated or translated in part (a
sentence of three words or more identical to one of the English page's), paragraphs with a control
character (the source's own mojibake), one already read on an earlier page, and one ending with a colon.
The rest goes through the same steps as a help page; a row has 300 characters or more (200 in Chinese,
Japanese and Korean). The source of a row is the page without the language
(``libreoffice:scalc/01/04060184``), so a page and its translations fall in one split.

``--source gimp`` reads the GIMP user manual the same way (``gimp-help-<lang>``, 12 of the 17 locales: no
Polish, Turkish, traditional Chinese, Indonesian or Vietnamese), one DocBook HTML page per section and
language, the same file name in every language::

    mkdir -p /tmp/jgimp && cd /tmp/jgimp
    apt-get download gimp-help-{en,es,pt-br,fr,de,it,nl,ru,uk,ja,ko,zh-cn}
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source gimp --root /tmp/jgimp/root \\
        --out bench/results/gimp_paragraphs.jsonl

Its paragraphs are DocBook's (``<p>`` without a class), with inline markup as text (a menu path ``Image →
Canvas Size``, a key ``Shift``); an image inside a paragraph (an icon) leaves it out, and a
cross-reference's text (written by DocBook in the page's language) is masked when a paragraph is compared
with the English page's. The source of a row is the page (``gimp:gimp-tool-crop``).

``--source inkscape`` reads Inkscape's tutorials (``inkscape-tutorials``, 16 of the 17 locales: no
Turkish; Italian and Spanish translate some of them), an SVG document per tutorial and language
(``tutorial-basic.de.svg``; English has no language suffix)::

    mkdir -p /tmp/jink && cd /tmp/jink && apt-get download inkscape-tutorials
    dpkg-deb -x inkscape-tutorials_*.deb root
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source inkscape --root /tmp/jink/root \\
        --out bench/results/inkscape_paragraphs.jsonl

A paragraph is an SVG ``<text>`` element, its ``<tspan>`` children (bold, italic, a key name) read as
inline text and a ``sodipodi:role="line"`` one as a line break; a heading and a drawing's label do not end
like a sentence and end a run. Paragraphs untranslated or translated in part (a sentence of three words
or more identical to one of the English tutorial's) are left out, and so is one that introduces a
drawing or a list (ending with a colon); the rest goes through the same steps as LibreOffice's help
(300 characters or more, 200 in Chinese, Japanese and Korean). The source of a row is the tutorial's
section (``inkscape:tutorial-basic#3``, the third titled section; every translation has the same
sections), so a section and its translations fall in one split.

``--source gnucash`` reads GnuCash's *Tutorial and Concepts Guide* and its *Help Manual*
(``gnucash-docs``: English, German, Italian and Japanese; its Portuguese is European Portuguese), DocBook
HTML read like the Debian books above (one page per section; the source of a row is the book's chapter,
``gnucash-guide:6``). The translations were made from older editions, which named some pages otherwise
and numbered chapters differently: a page is read only where the English book has a page of its name,
and its chapter is the English page's::

    mkdir -p /tmp/jgnc && cd /tmp/jgnc && apt-get download gnucash-docs && dpkg-deb -x gnucash-docs_*.deb root
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source gnucash --root /tmp/jgnc/root \\
        --out bench/results/gnucash_paragraphs.jsonl

``--source debian-docs`` reads four more DocBook books the same way (translations of older editions
too): the Debian FAQ (``debian-faq`` and ``debian-faq-<lang>``), the New Maintainers' Guide
(``maint-guide``, ``maint-guide-<lang>``), the Developer's Reference (``developers-reference``,
``developers-reference-<lang>``) and aptitude's manual (``aptitude-doc-<lang>``); 12 of the 17 locales
(no Brazilian Portuguese, Polish, Turkish, Ukrainian or Indonesian). The FAQ and the guide name their
pages with the language (``basic-defs.de.html``); a page is matched with the English one by its name
without it. A paragraph with a C0 or C1 control character (the source's own mojibake) is left out::

    mkdir -p /tmp/jdeb && cd /tmp/jdeb
    apt-get download debian-faq debian-faq-{de,fr,it,ja,ko,nl,ru,zh-cn} developers-reference \\
        developers-reference-{de,fr,it,ja,ru} maint-guide maint-guide-{de,es,fr,it,ja,ru,vi,zh-cn,zh-tw} \\
        aptitude-doc-{en,es,fr,it,ja,nl,ru}
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source debian-docs --root /tmp/jdeb/root \\
        --out bench/results/debian_docs_paragraphs.jsonl

``--source kde`` reads the KDE handbooks (13 of the 17 locales: no Turkish, Korean, traditional Chinese or
Vietnamese), DocBook compiled to HTML, every page of an application's handbook one after the other in its
``usr/share/doc/HTML/<lang>/<app>/index.cache.bz2`` between ``<FILENAME>`` marks (``KDE_APPS``)::

    mkdir -p /tmp/jkde && cd /tmp/jkde
    apt-get download kstars-data okular dolphin marble-data kmplot konsole gwenview kalzium-data kig kdenlive-data
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source kde --root /tmp/jkde/root \\
        --out bench/results/kde_paragraphs.jsonl

Its pages are read as the GIMP manual's, each beside the same page of the English handbook; the source of
a row is the application and page (``kde:kstars/ai-zenith``), so a page and its translations fall in one
split.

``--source mate`` reads the MATE manuals (DocBook 5 XML, translated with itstool: 15 of the 17 locales,
none in traditional Chinese or Vietnamese, Dutch, Polish and Indonesian a few dozen paragraphs): the MATE
user guide and the manuals of Pluma, Eye of MATE, Engrampa and MATE Terminal, one XML file per chapter
and language under ``usr/share/help/<lang>/<manual>/``::

    mkdir -p /tmp/jmate/root && cd /tmp/jmate
    apt-get download mate-user-guide pluma-common eom-common engrampa-common mate-terminal-common
    for deb in *.deb; do dpkg-deb --fsys-tarfile "$deb" | tar x -C root --wildcards './usr/share/help/*'; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source mate --root /tmp/jmate/root \\
        --out bench/results/mate_paragraphs.jsonl

A file's ``<para>`` and ``<simpara>`` elements are read with their inline markup as text (a menu path
``File ▸ New Window``, a key combination ``Ctrl+N``; an index term and a footnote left out); a paragraph
with a generated cross-reference (``<xref>``), an image or a block inside it (a list, a note, a screen)
is left out, and so are the legal notice and code. Each file is cut at its top-level sections and each
section read beside the same section of the English (``C``) file, a paragraph identical to one of the
English section's being left untranslated; a file with another number of sections than the English one is
not read. The rest goes through the GNOME help's steps (short paragraphs merged, ``runs``). The source of
a row is the manual, file and section (``mate:mate-user-guide/goscaja#3``). Atril's help is Evince's,
which the GNOME help set reads: not read.

``--source manuals`` reads five more books, each in its own layout (14 of the 17 locales: no Turkish,
Vietnamese or traditional Chinese)::

    mkdir -p /tmp/jman && cd /tmp/jman
    apt-get download harden-doc debian-history debian-edu-doc-{en,de,es,fr,it,ja,nl,pt-br,zh-cn} \
        debian-edu-doc-legacy-{en,fr,ja,nl,pl,pt-br,uk,zh-cn} kicad-doc-{en,de,es,fr,id,it,ja,pl,ru,zh} \
        lilypond-doc-html lilypond-doc-html-{de,es,fr,it,ja,nl,zh}
    for deb in *.deb; do dpkg-deb -x "$deb" root; done
    cd - && .venv/bin/python bench/corpus/build_help_corpus.py --source manuals --root /tmp/jman/root \
        --out bench/results/manuals_paragraphs.jsonl

*Securing Debian* (``harden-doc``, Publican HTML like the Debian Administrator's Handbook) and *A Short
History of the Debian Project* (``debian-history``, pages named with the language, ``detailed.ja.html``;
its ``pt`` is European Portuguese) are translations of older editions, read like the Debian FAQ
(``whole_book``; the source of a row is the chapter, ``harden:4``). The Debian Edu manual (bookworm), the
older Debian Edu ITIL, Rosegarden and Audacity manuals (``debian-edu-doc-legacy-<lang>``) and KiCad's
manuals (AsciiDoc) are each one HTML page per language: the page is cut at its numbered headings and each
section read beside the same section of the English book (``SINGLE_PAGE_BOOKS``; the source of a row is
the book and the section with its chapter, ``edu:13.4``, ``kicad-pcbnew:5.2``). LilyPond's learning,
usage, notation, essay, extending and web manuals (Texinfo HTML, ``learning/tuplets.ja.html`` beside
``learning/tuplets.html``; the source of a row is the manual and page) leave out a music example's
paragraph, a list of cross-references ("See also") and the end of a sentence a code example cuts. All
then go through the steps of LibreOffice's help (``_translated_rows``: untranslated paragraphs and ones
translated in part left out; 300 characters or more, 200 in Chinese, Japanese and Korean).
"""

from __future__ import annotations

import argparse
import bz2
import html.parser
import json
import re
import sys
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_language_corpus import CJK, LOCALES, MAN_DIRS, STOPWORDS, plausible, runs, sentences
from wordfreq import zipf_frequency

HELP_DIRS = {**MAN_DIRS, "en": "C"}
_SKIPPED = {"info", "code", "screen", "synopsis", "comment", "title", "desc"}
_UNUSABLE = {"media", "var"}
_SEQUENCES = {"keyseq": "+", "guiseq": " ▸ "}
# A paragraph that ends like a sentence (a table cell's label or a term does not: "Filename").
_SENTENCE_END = re.compile(r"[.!?。！？:：…][\s\"'»”」』)）]*$")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _render(element: ET.Element, docbook: bool = False) -> str | None:
    """The text of an inline element tree, or None when part of it would be missing on the page (in a
    DocBook paragraph also when a block sits inside it: a list, a note, a screen)."""
    name = _local(element.tag)
    unusable = _DOCBOOK_UNUSABLE if docbook else _UNUSABLE
    if name in unusable or (name == "link" and not "".join(element.itertext()).strip()):
        return None
    if docbook and name in _DOCBOOK_HIDDEN:  # an index term, a footnote: not in the sentence
        return element.tail or ""
    sequences = _DOCBOOK_SEQUENCES if docbook else _SEQUENCES
    if name in sequences:  # Yelp's rendering: "Ctrl+C", "File ▸ Print Preview"
        items = [
            "".join(k.itertext()).strip() for k in element if _local(k.tag) not in ("comment", "shortcut")
        ]
        return sequences[name].join(items) + (element.tail or "")
    parts = [element.text or ""]
    for child in element:
        text = _render(child, docbook)
        if text is None:
            return None
        parts.append(text)
    return "".join(parts) + (element.tail or "")


def page_paragraphs(path: Path) -> list[str]:
    """The page's paragraphs in document order (unusable ones as empty strings, which end a run)."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return []
    return _paragraphs_under(root, {"p"}, _SKIPPED, docbook=False)


def _paragraphs_under(element: ET.Element, tags: set[str], skipped: set[str], docbook: bool) -> list[str]:
    """The texts of the elements named ``tags`` under ``element`` in document order (unusable ones as empty
    strings), looking into no element named in ``skipped``."""
    found: list[str] = []

    def walk(parent: ET.Element) -> None:
        for child in parent:
            name = _local(child.tag)
            if name in skipped:
                continue
            if name in tags:
                child_tail, child.tail = child.tail, None
                text = _render(child, docbook)
                child.tail = child_tail
                found.append(" ".join(text.split()) if text else "")
            else:
                walk(child)

    walk(element)
    return found


# DocBook XML (the MATE manuals): a generated cross-reference's text (``<xref>``), an image or a block
# inside a paragraph leave it out; an index term and a footnote are not part of its sentence; a key
# combination and a menu path read as Yelp shows them; the legal notice and code are not read.
_DOCBOOK_UNUSABLE = {
    "xref", "inlinemediaobject", "mediaobject", "inlinegraphic", "graphic", "itemizedlist", "orderedlist",
    "variablelist", "simplelist", "screen", "programlisting", "literallayout", "note", "tip", "warning",
    "important", "caution", "table", "informaltable", "figure", "informalfigure", "example", "equation",
}  # fmt: skip
_DOCBOOK_HIDDEN = {"indexterm", "footnote", "remark"}
_DOCBOOK_SEQUENCES = {"keycombo": "+", "menuchoice": " ▸ "}
_DOCBOOK_SKIPPED = {"legalnotice", "indexterm", "screen", "programlisting", "remark"}
_DOCBOOK_SECTIONS = {"section", "sect1"}


def _docbook_paragraphs(element: ET.Element, sections: bool = True) -> list[str]:
    """The ``<para>`` and ``<simpara>`` texts under a DocBook element in document order (unusable ones as
    empty strings); without ``sections``, none inside a section."""
    skipped = _SKIPPED | _DOCBOOK_SKIPPED | (set() if sections else _DOCBOOK_SECTIONS)
    return _paragraphs_under(element, {"para", "simpara"}, skipped, docbook=True)


def docbook_sections(path: Path) -> list[list[str]]:
    """A DocBook XML file's paragraphs by top-level section (a ``<section>`` or ``<sect1>`` inside no
    other; the paragraphs outside every section come first), none when the file does not parse."""
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return []
    tops: list[ET.Element] = []

    def find(parent: ET.Element) -> None:
        for child in parent:
            if _local(child.tag) in _DOCBOOK_SECTIONS:
                tops.append(child)
            else:
                find(child)

    find(root)
    return [_docbook_paragraphs(root, sections=False), *(_docbook_paragraphs(top) for top in tops)]


def merged(paragraphs: list[str], least: int) -> list[str]:
    """Consecutive paragraphs joined until each block has ``least`` characters (help paragraphs are often
    one or two short sentences, too short for the locale check to decide on alone); an empty paragraph or
    one that does not end like a sentence ends a block and is left out."""
    out: list[str] = []
    block = ""
    for p in [*paragraphs, ""]:
        if not _SENTENCE_END.search(p):
            out += [block, ""] if block else [""]
            block = ""
            continue
        block = f"{block} {p}" if block else p
        if len(block) >= least:
            out.append(block)
            block = ""
    return out


def collect(root: Path, locale: str) -> list[tuple[str, str]]:
    base = root / "usr/share/help" / HELP_DIRS[locale]
    least = 60 if locale in CJK else 160
    sources = []
    for page in sorted(base.glob("*/*.page")):
        english = set(page_paragraphs(root / "usr/share/help/C" / page.parent.name / page.name))
        # an untranslated paragraph is the English original left in place: it ends a run
        own = [p if locale == "en" or p not in english else "" for p in page_paragraphs(page)]
        sources.append((f"help:{page.parent.name}/{page.stem}", merged(own, least)))
    return runs(sources, locale, in_locale=plausible if locale in CJK else _translated)


def collect_mate(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of the MATE manuals in DocBook XML (the user guide, Pluma, Eye of MATE, Engrampa, MATE Terminal):
    each file's top-level sections beside the same sections of the English (``C``) file, none of a file
    with another number of sections (a translation of another revision). The source of a row is the
    manual, the file and the section (``mate:mate-user-guide/goscaja#3``). Atril's help (Mallard pages) is
    Evince's, which the GNOME help set reads, and is not read."""
    base = root / "usr/share/help"
    least = 60 if locale in CJK else 160
    sources = []
    own_dir = base / HELP_DIRS[locale]
    for path in sorted([*own_dir.glob("*/*.xml"), *own_dir.glob("*/index.docbook")]):
        if path.name == "legal.xml":
            continue
        sections = docbook_sections(path)
        english = docbook_sections(base / "C" / path.parent.name / path.name)
        if len(sections) != len(english):
            continue
        for number, (own, original) in enumerate(zip(sections, english, strict=True)):
            left_english = set(original)  # an untranslated paragraph is the English one left in place
            kept = [p if locale == "en" or p not in left_english else "" for p in own]
            sources.append((f"mate:{path.parent.name}/{path.stem}#{number}", merged(kept, least)))
    in_locale = plausible if locale in CJK else _translated
    return runs(sources, locale, in_locale=in_locale)


# DocBook books in HTML: where each is extracted, and its directory per locale.
DOCBOOKS = {
    "handbook": ("usr/share/doc/debian-handbook/html/", {
        "en": "en-US", "es": "es-ES", "pt-BR": "pt-BR", "fr": "fr-FR", "de": "de-DE", "it": "it-IT",
        "nl": "nl-NL", "pl": "pl-PL", "ru": "ru-RU", "tr": "tr-TR", "ja": "ja-JP", "ko": "ko-KR",
        "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "id": "id-ID", "vi": "vi-VN"}),
    "install": ("usr/share/doc/installation-guide-amd64/", {
        "en": "en", "es": "es", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "ru": "ru", "ja": "ja",
        "ko": "ko", "zh-Hans": "zh_CN", "id": "id", "vi": "vi"}),  # ("pt" is European Portuguese)
    **{book: (f"usr/share/doc/gnucash-docs/{book}-", {"en": "en", "de": "de", "it": "it", "ja": "ja"})
       for book in ("gnucash-guide", "gnucash-help")},  # ("pt" is European Portuguese)
    # where a book names its pages with the language, a directory is a path with the page's name in it
    "debian-faq": ("usr/share/doc/debian/FAQ/", {"en": "{page}.html", **{
        loc: f"{d}/{{page}}.{d}.html" for loc, d in {
            "de": "de", "fr": "fr", "it": "it", "ja": "ja", "ko": "ko", "nl": "nl", "ru": "ru",
            "zh-Hans": "zh-cn"}.items()}}),
    "maint-guide": ("usr/share/doc/maint-guide", {"en": "/html/{page}.en.html", **{
        loc: f"-{d}/html/{{page}}.{d}.html" for loc, d in {
            "de": "de", "es": "es", "fr": "fr", "it": "it", "ja": "ja", "ru": "ru", "vi": "vi",
            "zh-Hans": "zh-cn", "zh-Hant": "zh-tw"}.items()}}),
    "developers-reference": ("usr/share/developers-reference/", {
        "en": "{page}.html", "de": "de", "fr": "fr", "it": "it", "ja": "ja", "ru": "ru"}),
    "aptitude": ("usr/share/doc/aptitude/html/", {
        "en": "en", "es": "es", "fr": "fr", "it": "it", "ja": "ja", "nl": "nl", "ru": "ru"}),
    "harden": ("usr/share/doc/harden-doc/html/", {
        "en": "en-US", "es": "es-ES", "pt-BR": "pt-BR", "fr": "fr-FR", "de": "de-DE", "it": "it-IT",
        "ja": "ja-JP", "zh-Hans": "zh-CN"}),
    "debian-history": ("usr/share/doc/debian-history/docs/", {"en": "{page}.en.html", **{
        loc: f"{{page}}.{loc}.html" for loc in ("es", "fr", "de", "it", "ru", "ja", "ko")}}),  # ("pt" is European)
}  # fmt: skip
# Sources made of several books, translated from older editions of them (read with ``whole_book``).
COLLECTIONS = {
    "gnucash": ("gnucash-guide", "gnucash-help"),
    "debian-docs": ("debian-faq", "maint-guide", "developers-reference", "aptitude"),
    "manuals": ("harden", "debian-history"),  # with SINGLE_PAGE_BOOKS and LILYPOND (collect_manuals)
}
# A page's number in its English title: "Chapter 6. Maintenance…", "6.2. aptitude…", "A.3. Linux Mint".
_CHAPTER = re.compile(r"<title[^>]*>\s*(?:(?:Chapter|Appendix)\s+)?([0-9]+|[A-Z])[.]")
# Marks around a cross-reference's text, which DocBook generates from the target's title in the page's
# language: an untranslated paragraph differs from the English one only there ("see Sección 6.2.5, …").
_XREF = ("\x02", "\x03")
_XREF_TEXT = re.compile("\x02[^\x03]*\x03")
# A paragraph that introduces what follows it ("… run the following commands:"): a list, a command or an
# example, which is not read; without it the paragraph is cut short.
_INTRODUCES = re.compile(r"[:：]\s*$")
# Blocks that end the paragraph they sit in; their own paragraphs (a list item's) are read on their own.
_BLOCKS = {"div", "p", "pre", "ul", "ol", "dl", "table", "blockquote"}


class _DocBookParagraphs(html.parser.HTMLParser):
    """The text of a DocBook HTML page's paragraphs (``<div class="para">``, or ``<p>`` without a class:
    a title is ``<p class="title">``), in document order, with inline
    markup as text (a cross-reference's between the ``_XREF`` marks); a nested block ends the paragraph
    (an empty string marks the break), a code block's text and footnote marks are left out."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []  # open elements: "para", "skip" or the tag
        self.parts: list[str] = []
        self.found: list[str] = []

    def _flush(self) -> None:
        text = " ".join("".join(self.parts).split())
        if text or (self.found and self.found[-1]):
            self.found.append(text)
        self.parts = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        cls = dict(attrs).get("class") or ""
        if tag in ("br", "img", "hr", "meta", "link", "input"):
            return
        if "para" in self.stack and tag in _BLOCKS:
            self._flush()
        kind = self._kind(tag, cls, attrs)
        if kind == "xref":
            self.parts.append(_XREF[0])
        self.stack.append(kind)

    def _kind(self, tag: str, cls: str, attrs: list[tuple[str, str | None]]) -> str:
        """What an opening tag starts: "para", "xref", "skip" (text left out) or an inline element (its tag)."""
        if (tag == "div" and cls == "para") or (tag == "p" and not cls):
            return "para"
        if tag == "a" and cls == "xref":
            return "xref"
        if tag == "pre" or "footnote" in cls or tag in ("script", "style", "title"):
            return "skip"
        return tag

    def handle_endtag(self, tag: str) -> None:
        if tag in ("br", "img", "hr", "meta", "link", "input") or not self.stack:
            return
        top = self.stack.pop()
        if top == "xref":
            self.parts.append(_XREF[1])
        if top == "para" or ("para" in self.stack and tag in _BLOCKS):
            self._flush()

    def handle_data(self, data: str) -> None:
        if "para" in self.stack and "skip" not in self.stack:
            self.parts.append(data)


def docbook_paragraphs(path: Path) -> list[str]:
    return _html_paragraphs(path, _DocBookParagraphs())


def _html_paragraphs(path: Path, parser: _DocBookParagraphs) -> list[str]:
    if not path.exists():
        return []
    return _feed(parser, path.read_text(encoding="utf-8", errors="replace"))


def _feed(parser: _DocBookParagraphs, html_text: str) -> list[str]:
    parser.feed(html_text)
    parser.close()
    return parser.found


def _long_sentences(paragraphs: Iterable[str]) -> set[str]:
    """The sentences of three words or more of an English page: a paragraph translated in part keeps one
    of them ("Zoekt door alle velden. If you are running a search in a table, …")."""
    return {s for p in paragraphs for s in sentences(p) if len(s.split()) >= 3}


def _translated_in_full(paragraph: str, english: set[str], english_sentences: set[str]) -> bool:
    """Neither one of the English page's paragraphs left in place nor one translated in part."""
    return paragraph not in english and english_sentences.isdisjoint(sentences(paragraph))


# Characters a book renders in the page's language around a quoted term ("…", „…“, «…»): masked when a
# translated paragraph is compared with the English book's sentences.
_QUOTES = re.compile(r"[\"'“”„‟«»‘’‚‹›「」『』]")


def _english_sentences(pages: list[Path]) -> set[str]:
    """The sentences of three words or more of an English book's pages, cross-references and quotation
    marks masked."""
    masked = (_XREF_TEXT.sub("", p) for page in pages for p in docbook_paragraphs(page))
    return {_QUOTES.sub("", s) for s in _long_sentences(masked)}


def _book_pages(root: Path, book: str, locale: str) -> dict[str, Path]:
    """A DocBook book's pages in one language, by the page's name without the language (``ch02s02``)."""
    where, dirs = DOCBOOKS[book]
    pattern = dirs[locale] if "{page}" in dirs[locale] else dirs[locale] + "/{page}.html"
    head, tail = f"{where}{pattern}".split("{page}")
    found = {}
    for path in sorted(root.glob(f"{head}*{tail}")):
        relative = path.relative_to(root).as_posix()
        found[relative[len(head) : len(relative) - len(tail)]] = path
    return found


def collect_docbook(root: Path, locale: str, book: str, whole_book: bool = False) -> list[tuple[str, str]]:
    """Rows of a DocBook HTML book. With ``whole_book`` (a translation of an older edition, which left
    untranslated English paragraphs and sentences inside translated ones), a paragraph with a sentence
    of the English book anywhere in it is left out too, and so is one with a sentence of English words
    (``_without_english_words``)."""
    if locale not in DOCBOOKS[book][1]:
        return []
    english_pages = _book_pages(root, book, "en")
    book_sentences = _english_sentences(list(english_pages.values())) if whole_book else set()
    least = 60 if locale in CJK else 160
    sources = []
    for name, page in _book_pages(root, book, locale).items():
        original = english_pages.get(name)
        if original is None:  # a translation of an older edition, which named its pages otherwise
            continue
        number = _CHAPTER.search(original.read_text(encoding="utf-8", errors="replace")[:4000])
        english = {_XREF_TEXT.sub("", p) for p in docbook_paragraphs(original)}
        own = []
        for marked in docbook_paragraphs(page):
            masked = _XREF_TEXT.sub("", marked)
            p = marked.replace(_XREF[0], "").replace(_XREF[1], "")
            translated = locale == "en" or (
                masked not in english
                and book_sentences.isdisjoint(_QUOTES.sub("", s) for s in sentences(masked))
            )
            # a C0/C1 control character is the source's own mojibake
            own.append(p if translated and not _INTRODUCES.search(p) and not _CONTROL.search(p) else "")
        sources.append((f"{book}:{number[1] if number else name}", merged(own, least)))
    in_locale = plausible if locale in CJK else _without_english_words if whole_book else _without_english
    return runs(sources, locale, in_locale=in_locale)


LIBREOFFICE = ("usr/share/libreoffice/help", {
    "en": "en-US", "es": "es", "pt-BR": "pt-BR", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl",
    "ru": "ru", "tr": "tr", "ja": "ja", "ko": "ko", "zh-Hans": "zh-CN", "zh-Hant": "zh-TW", "id": "id",
    "vi": "vi"})  # fmt: skip
# Left out of a LibreOffice help paragraph: an image (an icon the sentence names), which the text cannot show.
_PICTURE = "\x00"
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
# Where LibreOffice help shows another page's text: an embedded section and the "how to get" box
# (read on their own page, so a paragraph is read once and in one split).
_BORROWED = {"embedded", "howtoget"}


class _PictureParagraphs(_DocBookParagraphs):
    """DocBook paragraphs where an image inside a paragraph leaves ``_PICTURE`` in its text."""

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img" and "para" in self.stack and "skip" not in self.stack:
            self.parts.append(_PICTURE)
        super().handle_starttag(tag, attrs)


class _LibreOfficeParagraphs(_PictureParagraphs):
    """The text of a LibreOffice help page's paragraphs (``<p class="paragraph">``), as the help viewer
    shows them: of the variants of a ``switchinline`` (macOS, one module) only the default one, which is
    the span that is hidden without a class; another page's embedded text is left out."""

    def _kind(self, tag: str, cls: str, attrs: list[tuple[str, str | None]]) -> str:
        if tag == "p":
            return "para" if cls == "paragraph" else "skip"
        if (tag == "span" and cls and dict(attrs).get("hidden")) or (tag == "div" and cls in _BORROWED):
            return "skip"
        return super()._kind(tag, cls, attrs)


# HTML help books: where each is extracted, its directory per locale, the pages' folder and pattern, and
# the paragraph reader.
HTML_HELP: dict[str, tuple[str, dict[str, str], str, str, type[_DocBookParagraphs]]] = {
    "libreoffice": (*LIBREOFFICE, "text", "*/**/*.html", _LibreOfficeParagraphs),
    "gimp": ("usr/share/gimp/2.0/help", {
        "en": "en", "es": "es", "pt-BR": "pt_BR", "fr": "fr", "de": "de", "it": "it", "nl": "nl",
        "ru": "ru", "uk": "uk", "ja": "ja", "ko": "ko", "zh-Hans": "zh_CN"}, ".", "*.html", _PictureParagraphs),
}  # fmt: skip


def collect_html_help(root: Path, locale: str, book: str = "libreoffice") -> list[tuple[str, str]]:
    """Rows of an HTML help book: LibreOffice's help (``libreoffice-help-<lang>``, one HTML page per topic
    under ``text/<module>/``; the source of a row is the page without the language,
    ``libreoffice:swriter/01/04020000``) or the GIMP user manual (``gimp-help-<lang>``, one page per
    section, ``gimp:gimp-tool-crop``)."""
    where, dirs, folder, pattern, reader = HTML_HELP[book]
    base = root / where
    pages = (
        (
            f"{book}:{name.with_suffix('')}",
            _html_paragraphs(page, reader()),
            _html_paragraphs(base / dirs["en"] / folder / name, reader()),
        )
        for page in sorted((base / dirs[locale] / folder).glob(pattern))
        for name in [page.relative_to(base / dirs[locale] / folder)]
    )
    return _translated_rows(pages, locale)


def _translated_rows(pages: Iterable[tuple[str, list[str], list[str]]], locale: str) -> list[tuple[str, str]]:
    """Rows of translated pages, each ``(source, its paragraphs, the English page's paragraphs)`` with the
    cross-references' text between the ``_XREF`` marks: a paragraph untranslated or translated in part, one
    already read on an earlier page, one with an image or a control character and one ending with a colon
    are left out; the rest are merged and go through ``runs``, a row of 300 characters or more (200 in
    Chinese, Japanese and Korean)."""
    least = 60 if locale in CJK else 160
    seen: set[str] = set()
    sources = []
    for source, marked_paragraphs, english_paragraphs in pages:
        # compared without the cross-references' text, which DocBook writes in the page's language
        english = {_XREF_TEXT.sub("", p) for p in english_paragraphs}
        english_sentences = _long_sentences(english)
        own = []
        for marked in marked_paragraphs:
            masked = _XREF_TEXT.sub("", marked)
            p = marked.replace(_XREF[0], "").replace(_XREF[1], "")
            usable = (
                (locale == "en" or _translated_in_full(masked, english, english_sentences))
                and p not in seen
                and _PICTURE not in p
                and not _CONTROL.search(p)  # a C0/C1 control character: the source's own mojibake
            )
            own.append(p if usable and not _INTRODUCES.search(p) else "")
            seen.add(p)
        sources.append((source, merged(own, least)))
    rows = runs(sources, locale, in_locale=plausible if locale in CJK else _without_english)
    return [(source, text) for source, text in rows if locale in CJK or len(text) >= LIBREOFFICE_LEAST]


# KDE handbooks: their folder per locale under usr/share/doc/HTML, and the applications whose handbook is
# read (each ships its compiled pages in ``<app>/index.cache.bz2``).
KDE_HELP = ("usr/share/doc/HTML", {
    "en": "en", "es": "es", "pt-BR": "pt_BR", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl",
    "ru": "ru", "uk": "uk", "ja": "ja", "zh-Hans": "zh_CN", "id": "id"})  # fmt: skip
KDE_APPS = (
    "kstars",
    "marble",
    "kdenlive",
    "okular",
    "dolphin",
    "konsole",
    "kig",
    "kalzium",
    "kmplot",
    "gwenview",
)
# Where one page of a handbook's compiled cache starts: ``<FILENAME filename="ai-skycoords.html">``.
_KDE_PAGE = re.compile(r'<FILENAME filename="([^"]+)\.html">')


def kde_pages(cache: Path) -> dict[str, str]:
    """The HTML pages of a KDE handbook's compiled cache (``index.cache.bz2``, every page of the book one
    after the other between ``<FILENAME>`` marks) by name; none when the handbook is not shipped."""
    if not cache.exists():
        return {}
    text = bz2.decompress(cache.read_bytes()).decode("utf-8", errors="replace")
    marks = list(_KDE_PAGE.finditer(text))
    ends = [m.start() for m in marks[1:]] + [len(text)]
    return {m[1]: text[m.end() : end] for m, end in zip(marks, ends, strict=True)}


def collect_kde(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of the KDE handbooks (DocBook compiled to HTML, one page per chapter or section, the same
    page name in every language): the source of a row is the application and page, ``kde:kstars/ai-zenith``."""
    where, dirs = KDE_HELP
    base = root / where
    pages = []
    for app in KDE_APPS:
        english = kde_pages(base / "en" / app / "index.cache.bz2")
        own = kde_pages(base / dirs[locale] / app / "index.cache.bz2")
        for name, page in own.items():
            if name in english:
                pages.append(
                    (
                        f"kde:{app}/{name}",
                        _feed(_PictureParagraphs(), page),
                        _feed(_PictureParagraphs(), english[name]),
                    )
                )
    return _translated_rows(pages, locale)


INKSCAPE = ("usr/share/inkscape/tutorials", {
    "en": "", "es": ".es", "pt-BR": ".pt_BR", "fr": ".fr", "de": ".de", "it": ".it", "nl": ".nl",
    "pl": ".pl", "ru": ".ru", "uk": ".uk", "ja": ".ja", "ko": ".ko", "zh-Hans": ".zh_CN",
    "zh-Hant": ".zh_TW", "id": ".id", "vi": ".vi"})  # fmt: skip
_SVG_TEXT = "{http://www.w3.org/2000/svg}text"
_SODIPODI_ROLE = "{http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd}role"


def _svg_text(element: ET.Element) -> str:
    """An SVG text element's text as shown: its ``tspan`` children inline, a ``line`` one on a new line."""
    parts = [element.text or ""]
    for child in element:
        parts += [" " if child.get(_SODIPODI_ROLE) == "line" else "", _svg_text(child), child.tail or ""]
    return "".join(parts)


def _svg_heading(element: ET.Element) -> bool:
    """A section title: Inkscape's tutorial generator sets it as a bold text flowed into the page."""
    style = element.get("style") or ""
    return "font-weight:bold" in style and "shape-inside" in style


def svg_sections(path: Path) -> list[list[str]]:
    """An Inkscape tutorial's paragraphs (its ``<text>`` elements) in document order, by section (the
    first list is what precedes the first section title); every translation has the same sections."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError):
        return []
    found: list[list[str]] = [[]]
    for element in root.iter(_SVG_TEXT):
        if _svg_heading(element):
            found.append([])
        found[-1].append(" ".join(_svg_text(element).split()))
    return found


def collect_inkscape(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of Inkscape's tutorials, one SVG document per tutorial and language; the source of a row is
    the tutorial's section (``inkscape:tutorial-basic#3``); the paragraphs left untranslated or
    translated in part are left out."""
    base = root / INKSCAPE[0]
    suffix = INKSCAPE[1][locale]
    least = 60 if locale in CJK else 160
    sources = []
    for original in sorted(p for p in base.glob("tutorial-*.svg") if p.stem.count(".") == 0):
        page = base / f"{original.stem}{suffix}.svg"
        english = {p for section in svg_sections(original) for p in section}
        english_sentences = _long_sentences(english)
        for number, section in enumerate(svg_sections(page) if page.exists() else []):
            own = [
                p
                if (locale == "en" or _translated_in_full(p, english, english_sentences))
                and not _INTRODUCES.search(p)
                else ""
                for p in section
            ]
            sources.append((f"inkscape:{original.stem}#{number}", merged(own, least)))
    rows = runs(sources, locale, in_locale=plausible if locale in CJK else _without_english)
    return [(source, text) for source, text in rows if locale in CJK or len(text) >= LIBREOFFICE_LEAST]


LIVE_MANUAL = ("usr/share/doc/live-manual/html/live-manual", {
    "en": "en", "es": "es", "pt-BR": "pt_BR", "fr": "fr", "de": "de", "it": "it", "pl": "pl", "ja": "ja"})  # fmt: skip


class _LiveManualParagraphs(_PictureParagraphs):
    """The text paragraphs of a page of the Debian Live manual (SiSU HTML: ``<p class="i0">``; a code
    block, a bold heading and a paragraph's number label are not text)."""

    def _kind(self, tag: str, cls: str, attrs: list[tuple[str, str | None]]) -> str:
        if tag == "p":
            return "para" if cls == "i0" else "skip"
        if tag == "label":
            return "skip"
        return super()._kind(tag, cls, attrs)


def collect_live_manual(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of the Debian Live manual, one HTML page per chapter and language (``the-basics.de.html``);
    the source of a row is the chapter (``live:the-basics``); untranslated paragraphs, ones translated
    in part and ones with an image are left out."""
    base = root / LIVE_MANUAL[0]
    least = 60 if locale in CJK else 160
    sources = []
    for original in sorted(base.glob("*.en.html")):
        name = original.name.removesuffix(".en.html")
        english = set(_html_paragraphs(original, _LiveManualParagraphs()))
        english_sentences = _long_sentences(english)
        own = [
            p
            if (locale == "en" or _translated_in_full(p, english, english_sentences))
            and _PICTURE not in p
            and not _INTRODUCES.search(p)
            else ""
            for p in _html_paragraphs(base / f"{name}.{LIVE_MANUAL[1][locale]}.html", _LiveManualParagraphs())
        ]
        sources.append((f"live:{name}", merged(own, least)))
    rows = runs(sources, locale, in_locale=plausible if locale in CJK else _without_english)
    return [(source, text) for source, text in rows if locale in CJK or len(text) >= LIBREOFFICE_LEAST]


# Books in one HTML page per language, the same sections numbered the same way in every translation: the
# Debian Edu manual and its older ones (ITIL, Rosegarden, Audacity; DocBook) and KiCad's manuals
# (AsciiDoc). Each book: the page's path with its language, and the language's name in it per locale.
_EDU = {"en": "en", "es": "es", "pt-BR": "pt-br", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl",
        "uk": "uk", "ja": "ja", "zh-Hans": "zh-cn"}  # fmt: skip
_EDU_LEGACY = "usr/share/doc/debian-edu-doc-legacy-{lang}/{book}-manual.html"
_KICAD = {"en": "en", "es": "es", "fr": "fr", "de": "de", "it": "it", "pl": "pl", "ru": "ru", "ja": "ja",
          "zh-Hans": "zh", "id": "id"}  # fmt: skip
SINGLE_PAGE_BOOKS = {
    "edu": ("usr/share/doc/debian-edu-doc-{lang}/debian-edu-bookworm-manual.html", _EDU),
    **{f"edu-{book}": (_EDU_LEGACY.replace("{book}", name), _EDU)
       for book, name in (("itil", "debian-edu-itil"), ("rosegarden", "rosegarden"), ("audacity", "audacity"))},
    **{f"kicad-{book}": (f"usr/share/doc/kicad/help/{{lang}}/{book}.html", _KICAD)
       for book in ("getting_started_in_kicad", "introduction", "kicad", "eeschema", "pcbnew", "gerbview",
                    "pcb_calculator", "pl_editor")},
}  # fmt: skip
# Where a numbered section starts: ``<h3 class="title"><a id="…"></a>13.4. …`` (DocBook), ``<h3 id="…">1.2. …``
# (AsciiDoc).
_NUMBERED_HEADING = re.compile(r"<h[2-6][^>]*>(?:<a [^>]*></a>)?\s*((?:[0-9]+\.)+)")


def numbered_sections(html_text: str) -> dict[str, str]:
    """A single-page book's numbered sections (``"13.4"``), each from its heading to the next one; what
    precedes the first numbered heading (the title page, the table of contents) is left out."""
    marks = list(_NUMBERED_HEADING.finditer(html_text))
    ends = [m.start() for m in marks[1:]] + [len(html_text)]
    return {m[1].rstrip("."): html_text[m.start() : end] for m, end in zip(marks, ends, strict=True)}


def collect_single_page(root: Path, locale: str, book: str) -> list[tuple[str, str]]:
    """Rows of a single-page book (``SINGLE_PAGE_BOOKS``), each section beside the same section of the
    English book; the source of a row is the book and the section with its chapter (``edu:13.4``; a
    subsection ``13.4.2`` is read in ``13.4``), so a section and its translations fall in one split."""
    where, dirs = SINGLE_PAGE_BOOKS[book]
    if locale not in dirs:
        return []

    def sections(lang: str) -> dict[str, str]:
        path = root / where.format(lang=lang)
        return numbered_sections(path.read_text(encoding="utf-8", errors="replace")) if path.exists() else {}

    english = sections(dirs["en"])
    pages = [
        (
            f"{book}:" + ".".join(number.split(".")[:2]),
            _feed(_PictureParagraphs(), page),
            _feed(_PictureParagraphs(), english[number]),
        )
        for number, page in sections(dirs[locale]).items()
        if number in english
    ]
    return _translated_rows(pages, locale)


# LilyPond's manuals in HTML (Texinfo): one page per section and language, ``learning/tuplets.ja.html``
# beside the English ``learning/tuplets.html``; the manuals read (the others are reference lists, code
# snippets or untranslated).
LILYPOND = ("usr/share/doc/lilypond/html/Documentation", {
    "en": "", "es": ".es", "fr": ".fr", "de": ".de", "it": ".it", "nl": ".nl", "ja": ".ja",
    "zh-Hans": ".zh"})  # fmt: skip
LILYPOND_MANUALS = ("learning", "usage", "notation", "web", "essay", "extending")


class _TexinfoParagraphs(_PictureParagraphs):
    """The text paragraphs of a Texinfo HTML page (``<p>`` without attributes: the language list, the
    navigation and the footer are ``<p>`` with an id or a class). ``_PICTURE`` marks the paragraphs left
    out: one with a music example's image, a list of cross-references ("See also" — "Glossary: tuplet,
    triplet.": half of its letters or more are links' text, the linked pages' titles, often untranslated) and
    the end of a sentence an example interrupts (the paragraph after a code block, when the one before
    it does not end like a sentence: "… see" / example / "を参照してください。")."""

    def __init__(self) -> None:
        super().__init__()
        self.linked = 0  # characters of links' text in the open paragraph
        self.after_code = False
        self.continues = False

    def _kind(self, tag: str, cls: str, attrs: list[tuple[str, str | None]]) -> str:
        if tag == "p":
            if attrs:
                return "skip"
            self.continues = self.after_code and bool(self.found) and not _SENTENCE_END.search(self.found[-1])
            self.after_code = False
            return "para"
        return super()._kind(tag, cls, attrs)

    def handle_endtag(self, tag: str) -> None:
        self.after_code = self.after_code or tag == "pre"
        super().handle_endtag(tag)

    def handle_data(self, data: str) -> None:
        if "a" in self.stack and "para" in self.stack and "skip" not in self.stack:
            self.linked += sum(c.isalpha() for c in data)
        super().handle_data(data)

    def _flush(self) -> None:
        letters = sum(c.isalpha() for part in self.parts for c in part)
        if letters and (self.continues or 2 * self.linked >= letters):
            self.parts.append(_PICTURE)
        self.linked, self.continues = 0, False
        super()._flush()


def collect_lilypond(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of LilyPond's manuals (``LILYPOND_MANUALS``): the source of a row is the manual and page
    (``lilypond:learning/tuplets``). A translated manual keeps the pages and paragraphs not yet translated
    in English: they are left out like another book's."""
    base = root / LILYPOND[0]
    suffix = LILYPOND[1].get(locale)
    if suffix is None:
        return []
    pages = (
        (
            f"lilypond:{manual}/{original.stem}",
            _html_paragraphs(original.with_name(f"{original.stem}{suffix}.html"), _TexinfoParagraphs()),
            _html_paragraphs(original, _TexinfoParagraphs()),
        )
        for manual in LILYPOND_MANUALS
        for original in sorted((base / manual).glob("*.html"))
        if "." not in original.stem
    )
    return _translated_rows(pages, locale)


def collect_manuals(root: Path, locale: str) -> list[tuple[str, str]]:
    """Rows of ``--source manuals``: the Securing Debian manual and the Debian project's history (DocBook
    books translated from older editions), the single-page books (the Debian Edu manuals, KiCad's) and
    LilyPond's manuals."""
    books = [r for b in COLLECTIONS["manuals"] for r in collect_docbook(root, locale, b, whole_book=True)]
    single = [r for book in SINGLE_PAGE_BOOKS for r in collect_single_page(root, locale, book)]
    return books + single + collect_lilypond(root, locale)


# Characters of a row outside Chinese, Japanese and Korean (a reply of a few sentences; ``runs`` keeps
# 200 and more, which in those scripts is already several sentences).
LIBREOFFICE_LEAST = 300

ENGLISH_MIN_STOPWORDS = 3  # distinct English stop words (not the locale's own) that make a sentence English
# In a translation of an older edition, a sentence is English too when at least this many of its words,
# and half of them, are words of English (wordfreq's Zipf frequency 3 or more) clearly more frequent in
# English than in the locale (by 1 Zipf, ten times): an untranslated sentence with few stop words
# ("Windows: Finance::Quote on Windows requires perl to be installed already."). Elsewhere the check is
# not made: it also takes a translated sentence spelling out an English name ("Abreviação de American
# Standard Code for Information Interchange."), which is documentation a judge must pass.
ENGLISH_MIN_WORDS = 4
_WORDFREQ = {"pt-BR": "pt", "zh-Hans": "zh", "zh-Hant": "zh"}


def _without_english(paragraph: str, locale: str) -> bool:
    """A paragraph of an alphabetic locale with no sentence in English: a book translated from an older
    English edition leaves the newer English sentences inside translated paragraphs (``…загрузку с
    соответствующих устройств. Most BIOS/UEFI versions allow you to…``). A sentence is English with
    ``ENGLISH_MIN_STOPWORDS`` distinct stop words of English that are not the locale's (Dutch writes "is"
    and "of", Polish "to")."""
    own = set(STOPWORDS.get(locale, ()))
    return locale == "en" or not any(
        len({w for w in re.findall(r"\w+", s.lower()) if w in STOPWORDS["en"] and w not in own})
        >= ENGLISH_MIN_STOPWORDS
        for s in sentences(paragraph)
    )


def _english_words(sentence: str, locale: str) -> int:
    """How many of a sentence's words are English words clearly more frequent in English than in ``locale``."""
    theirs = _WORDFREQ.get(locale, locale)
    return sum(
        1
        for w in re.findall(r"[^\W\d_]+", sentence.lower())
        if zipf_frequency(w, "en") >= 3 and zipf_frequency(w, "en") > zipf_frequency(w, theirs) + 1
    )


def _without_english_words(paragraph: str, locale: str) -> bool:
    """``_without_english``, and no sentence with ``ENGLISH_MIN_WORDS`` English words making half of its
    words (for a translation of an older edition)."""
    return _without_english(paragraph, locale) and not any(
        (found := _english_words(s, locale)) >= ENGLISH_MIN_WORDS
        and 2 * found >= len(re.findall(r"[^\W\d_]+", s))
        for s in sentences(paragraph)
    )


def _translated(paragraph: str, locale: str) -> bool:
    """A paragraph of an alphabetic locale that differs from the English page's (or is English's own) is
    in its locale: the
    pages are translated paragraph by paragraph (``itstool``), and the untranslated ones were blanked. (The
    stop-word check of ``plausible`` rejects most short Turkish, Vietnamese and Italian help paragraphs.)"""
    return True


# A unit whose translation kept under this share of the locale's non-ASCII letters (across the whole
# source) lost them in the package: Securing Debian's German chapter 5 is shipped as "knnen", "fr", "mssen"
# (0.04 % of its letters against the German text's 1.3 %). That is the misreading the encoding judge looks
# for, written into the package: a catalogue defect, not a clean paragraph.
LOST_LETTERS_SHARE = 0.05
LOST_LETTERS_MIN_LETTERS = 3000  # letters of the unit: enough text for its share to mean something
LOST_LETTERS_MIN_RATE = 0.005  # the locale's own share of non-ASCII letters: English and Indonesian have none


def without_lost_letters(rows: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """``rows`` (one locale's) without the units whose non-ASCII letters were lost in the package."""
    counts: dict[str, list[int]] = {}
    for source, text in rows:
        letters = [c for c in text if c.isalpha()]
        count = counts.setdefault(source, [0, 0])
        count[0] += len(letters)
        count[1] += sum(not c.isascii() for c in letters)
    rate = sum(c[1] for c in counts.values()) / max(1, sum(c[0] for c in counts.values()))
    if not LOST_LETTERS_MIN_RATE <= rate < 0.5:  # an alphabet without them, or a script other than Latin
        return rows
    lost = {source for source, (letters, other) in counts.items()
            if letters >= LOST_LETTERS_MIN_LETTERS and other < LOST_LETTERS_SHARE * rate * letters}  # fmt: skip
    return [(source, text) for source, text in rows if source not in lost]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--source",
        choices=["help", *DOCBOOKS, *COLLECTIONS, *HTML_HELP, "inkscape", "live", "kde", "mate"],
        default="help",
    )
    parser.add_argument("--root", default="/tmp/jdoc/root", help="where the .deb packages were extracted")
    parser.add_argument("--out", default="bench/results/help_paragraphs.jsonl")
    args = parser.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    books = COLLECTIONS.get(args.source, (args.source,))
    languages = (
        HTML_HELP[args.source][1]
        if args.source in HTML_HELP
        else INKSCAPE[1]
        if args.source == "inkscape"
        else LIVE_MANUAL[1]
        if args.source == "live"
        else KDE_HELP[1]
        if args.source == "kde"
        else {*_EDU, *_KICAD, *LILYPOND[1], *DOCBOOKS["harden"][1], *DOCBOOKS["debian-history"][1]}
        if args.source == "manuals"
        else {loc for book in books for loc in DOCBOOKS[book][1]}
        if books[0] in DOCBOOKS
        else HELP_DIRS
    )
    with out.open("w", encoding="utf-8") as fh:
        for locale in [loc for loc in LOCALES if loc in languages]:
            if args.source == "help":
                rows = collect(Path(args.root), locale)
            elif args.source == "mate":
                rows = collect_mate(Path(args.root), locale)
            elif args.source == "inkscape":
                rows = collect_inkscape(Path(args.root), locale)
            elif args.source == "live":
                rows = collect_live_manual(Path(args.root), locale)
            elif args.source == "kde":
                rows = collect_kde(Path(args.root), locale)
            elif args.source == "manuals":
                rows = collect_manuals(Path(args.root), locale)
            elif args.source in HTML_HELP:
                rows = collect_html_help(Path(args.root), locale, args.source)
            else:
                older = args.source in COLLECTIONS
                rows = [
                    r for b in books for r in collect_docbook(Path(args.root), locale, b, whole_book=older)
                ]
            rows = without_lost_letters(rows)
            for source, text in rows:
                fh.write(
                    json.dumps({"locale": locale, "source": source, "text": text}, ensure_ascii=False) + "\n"
                )
            print(f"{locale:8} {len(rows):5} paragraphs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
