# ruff: noqa: E501  (commands)
"""Builds a clean documentation evaluation from GNOME's translated user help (Mallard pages).

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
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from build_language_corpus import CJK, LOCALES, MAN_DIRS, plausible, runs

HELP_DIRS = {**MAN_DIRS, "en": "C"}
_SKIPPED = {"info", "code", "screen", "synopsis", "comment", "title", "desc"}
_UNUSABLE = {"media", "var"}
_SEQUENCES = {"keyseq": "+", "guiseq": " ▸ "}
# A paragraph that ends like a sentence (a table cell's label or a term does not: "Filename").
_SENTENCE_END = re.compile(r"[.!?。！？:：…][\s\"'»”」』)）]*$")


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _render(element: ET.Element) -> str | None:
    """The text of an inline element tree, or None when part of it would be missing on the page."""
    name = _local(element.tag)
    if name in _UNUSABLE or (name == "link" and not "".join(element.itertext()).strip()):
        return None
    if name in _SEQUENCES:  # Yelp's rendering: "Ctrl+C", "File ▸ Print Preview"
        items = ["".join(k.itertext()).strip() for k in element if _local(k.tag) != "comment"]
        return _SEQUENCES[name].join(items) + (element.tail or "")
    parts = [element.text or ""]
    for child in element:
        text = _render(child)
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
    found: list[str] = []

    def walk(element: ET.Element) -> None:
        for child in element:
            name = _local(child.tag)
            if name in _SKIPPED:
                continue
            if name == "p":
                child_tail, child.tail = child.tail, None
                text = _render(child)
                child.tail = child_tail
                found.append(" ".join(text.split()) if text else "")
            else:
                walk(child)

    walk(root)
    return found


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


def _translated(paragraph: str, locale: str) -> bool:
    """A paragraph of an alphabetic locale that differs from the English page's (or is English's own) is
    in its locale: the
    pages are translated paragraph by paragraph (``itstool``), and the untranslated ones were blanked. (The
    stop-word check of ``plausible`` rejects most short Turkish, Vietnamese and Italian help paragraphs.)"""
    return True


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default="/tmp/jdoc/root", help="where the .deb packages were extracted")
    parser.add_argument("--out", default="bench/results/help_paragraphs.jsonl")
    args = parser.parse_args()
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for locale in LOCALES:
            rows = collect(Path(args.root), locale)
            for source, text in rows:
                fh.write(
                    json.dumps({"locale": locale, "source": source, "text": text}, ensure_ascii=False) + "\n"
                )
            print(f"{locale:8} {len(rows):5} paragraphs", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
