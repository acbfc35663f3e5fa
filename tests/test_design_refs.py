"""Every ``design.md §N`` a comment, test or doc cites names a section that docs/design.md has."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DESIGN_DOC = ROOT / "docs" / "design.md"
CITATION = re.compile(r"design\.md §(\d+(?:\.\d+)?)")
SOURCES = ("exporter", "tests", "bench", "scripts", "rules", "docs", "config")


def _sections() -> set[str]:
    text = DESIGN_DOC.read_text(encoding="utf-8")
    numbers = set(re.findall(r"^## (\d+)[a-z]?\.", text, flags=re.M))
    # "§5.2" is the second numbered item of section 5
    items = {
        f"{section}.{item}"
        for section, body in re.findall(
            r"^## (\d+)\. .*?\n(.*?)(?=^## |\Z)", DESIGN_DOC.read_text(), re.M | re.S
        )
        for item in re.findall(r"^(\d+)\. \*\*", body, re.M)
    }
    return numbers | items


def _citations() -> list[tuple[str, int, str]]:
    found = []
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in {".py", ".md", ".yml", ".yaml", ""} or not path.is_file():
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                found += [(str(path.relative_to(ROOT)), number, ref) for ref in CITATION.findall(line)]
    return found


def test_every_design_citation_names_a_section_of_the_design_document() -> None:
    sections = _sections()
    assert {"2", "5", "5.4", "8", "14"} <= sections  # the parser reads the document's own headings
    citations = _citations()
    assert len(citations) > 20  # the code does cite it
    dangling = [f"{path}:{line}: §{ref}" for path, line, ref in citations if ref not in sections]
    assert dangling == [], "citations of sections docs/design.md does not have:\n" + "\n".join(dangling)


def test_nothing_cites_a_design_document_outside_the_repository() -> None:
    stray = [
        f"{path}:{number}"
        for top in SOURCES
        for path in sorted((ROOT / top).rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"\bDESIGN\b", line)
    ]
    assert stray == [], "cite docs/design.md (as 'design.md §N'):\n" + "\n".join(stray)


HISTORY = re.compile(r"\b(?:[Ss]ession \d+|[Ii]ssue \d+|\d+(?:st|nd|rd|th) pass)\b")


def test_no_doc_narrates_the_project_s_development_history() -> None:
    """Docs are for the people who run and continue the project; history is git's."""
    docs = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:80]}"
        for path in docs
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if HISTORY.search(line)
    ]
    assert HISTORY.search("as measured in session 9") and not HISTORY.search("the 17 locales")
    assert found == [], "development history in the docs:\n" + "\n".join(found)
