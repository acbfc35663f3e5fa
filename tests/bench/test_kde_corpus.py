"""The KDE handbooks' reader (``bench/corpus/build_help_corpus.py --source kde``): a handbook's compiled
cache holds every page of the book one after the other, and a row keeps only what a translator wrote."""

from __future__ import annotations

import bz2
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_help_corpus

ENGLISH_INTRO = (
    "The sky map shows the stars as they appear from your location at the current time. You can zoom in, "
    "pan across the sky and center any object by clicking on it with the left mouse button, which also "
    "shows its name and its magnitude in the status bar at the bottom of the main window."
)
FRENCH_INTRO = (
    "La carte du ciel montre les étoiles telles qu'elles apparaissent depuis votre position à l'heure "
    "actuelle. Vous pouvez zoomer, vous déplacer dans le ciel et centrer un objet en cliquant dessus avec "
    "le bouton gauche de la souris, ce qui affiche aussi son nom et sa magnitude dans la barre d'état en "
    "bas de la fenêtre principale."
)
UNTRANSLATED = (
    "This paragraph was left in English by the translation team, so it must never become a French row "
    "even though it sits on a French page of the handbook, between two paragraphs that were translated "
    "by a person and read well in the language of the page."
)


def _cache(root: Path, lang: str, pages: dict[str, str]) -> None:
    where = root / "usr/share/doc/HTML" / lang / "kstars"
    where.mkdir(parents=True)
    text = "".join(
        f'<FILENAME filename="{name}.html"><html><body>{body}</body></html></FILENAME>'
        for name, body in pages.items()
    )
    (where / "index.cache.bz2").write_bytes(bz2.compress(text.encode()))


def test_kde_pages_are_split_at_their_filename_marks_and_a_missing_cache_has_none(tmp_path: Path) -> None:
    _cache(tmp_path, "en", {"index": "<p>One.</p>", "ai-zenith": "<p>Two.</p>"})
    pages = build_help_corpus.kde_pages(tmp_path / "usr/share/doc/HTML/en/kstars/index.cache.bz2")
    assert list(pages) == ["index", "ai-zenith"]
    assert "<p>Two.</p>" in pages["ai-zenith"] and "One" not in pages["ai-zenith"]
    assert build_help_corpus.kde_pages(tmp_path / "missing/index.cache.bz2") == {}


def test_a_kde_row_is_the_translated_paragraph_and_its_source_names_the_page_not_the_language(
    tmp_path: Path,
) -> None:
    _cache(tmp_path, "en", {"tour": f"<p>{ENGLISH_INTRO}</p><pre>kstars --dump</pre><p>{UNTRANSLATED}</p>"})
    _cache(tmp_path, "fr", {"tour": f"<p>{FRENCH_INTRO}</p><pre>kstars --dump</pre><p>{UNTRANSLATED}</p>"})
    rows = build_help_corpus.collect_kde(tmp_path, "fr")
    assert rows == [("kde:kstars/tour", FRENCH_INTRO)]
