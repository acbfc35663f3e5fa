"""The mixing pressure tool (``bench/mixing_pressure.py``) builds its clean cases from one split only, pairs a
reply with another source's, and counts only the judge's mixing and switch reasons."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import pytest
from eval_sets import rows as split_rows
from judge_cases import split_of
from mixing_pressure import cases, evidence_lines, paragraphs

from exporter.language.judge import Verdict
from exporter.outcomes import Outcome, Reason


def _sources(split: str, n: int) -> list[str]:
    """``n`` source names in ``split`` (the evals' split rule)."""
    found = [f"camp/{i}" for i in range(200) if split_of(f"camp/{i}") == split]
    return found[:n]


def _row(locale: str, source: str, text: str, lines: list[str] | None = None) -> dict[str, object]:
    row: dict[str, object] = {"locale": locale, "source": source, "text": text}
    if lines is not None:
        row["lines"] = lines
    return row


def test_paragraphs_are_blank_line_pieces_or_a_fiction_reply_s_messages() -> None:
    assert paragraphs(_row("en", "s", "One here.\n\nTwo there.\n\n")) == ["One here.", "Two there."]
    assert paragraphs(_row("en", "s", "One here. Two there.", ["One here.", "Two there."])) == [
        "One here.",
        "Two there.",
    ]
    # one paragraph is the reply itself: no paragraph case
    assert paragraphs(_row("en", "s", "Just one paragraph.")) == []
    assert paragraphs(_row("en", "s", "Just one.", ["Just one."])) == []


def _file(tmp_path: Path, rows: list[dict[str, object]]) -> Path:
    path = tmp_path / "fiction_replies.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def test_cases_keep_to_the_split_and_join_replies_of_different_sources(tmp_path: Path) -> None:
    dev, test = _sources("dev", 2), _sources("test", 1)
    rows = [
        _row("fr", dev[0], "Le premier.", ["Le", "premier."]),
        _row("fr", dev[0], "Le deuxième."),
        _row("fr", dev[1], "Le troisième."),
        _row("fr", test[0], "Jamais vu."),
        _row("xx", dev[0], "Unknown locale."),
    ]
    path = _file(tmp_path, rows)
    made = list(cases(split_rows(path, "dev"), "fiction", 0, 26))
    assert {c["set"] for c in made} == {"fiction"}
    assert all("Jamais vu." not in c["text"] and c["locale"] == "fr" for c in made)
    kinds = [c["kind"] for c in made]
    assert kinds.count("reply") == 3 and kinds.count("paragraph") == 2 and kinds.count("joined") == 3
    for c in made:
        if c["kind"] == "joined":
            first, second = c["text"].split("\n\n")
            owner = {str(r["text"]): str(r["source"]) for r in rows}
            assert owner[first] != owner[second]
    # a cap per locale, and the other split
    assert [c["kind"] for c in cases(split_rows(path, "dev"), "fiction", 1, 26)].count("reply") == 1
    assert [c["text"] for c in cases(split_rows(path, "test"), "fiction", 0, 26)] == ["Jamais vu."]


def test_a_reply_alone_in_its_source_is_not_joined() -> None:
    dev = _sources("dev", 1)
    rows = [_row("de", dev[0], "Erstens."), _row("de", dev[0], "Zweitens.")]
    assert [c["kind"] for c in cases(rows, "lore", 0, 1)] == ["reply", "reply"]


@pytest.mark.parametrize("key", ["whole_reply", "pooled"])
def test_evidence_lines_name_the_sentence_language_and_models(key: str) -> None:
    verdict = Verdict(
        Outcome.FAIL,
        Reason.MIXING,
        {
            "foreign": [
                {"language": "es", "basis": "models", "text": "Hola amigo.", "models": {"cld3": ["es", 0.9]}}
            ],
            key: {"language": "gl"},
        },
    )
    lines = evidence_lines(verdict)
    assert "[es by models] 'Hola amigo.'" in lines[0] and '"cld3": ["es", 0.9]' in lines[0]
    assert lines[1] == f'    {key}: {{"language": "gl"}}'
