"""The clean evaluation sets on disk (``bench/corpus/eval_sets.py``): one name, register and split rule for
every tool that reads them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

from eval_sets import eval_files, is_fiction, rows, set_name
from judge_cases import split_of


def test_a_set_is_named_by_its_file_and_its_register_by_the_suffix() -> None:
    assert set_name(Path("/x/story_replies.jsonl")) == "story"
    assert set_name("debian_docs_paragraphs.jsonl") == "debian_docs"
    assert is_fiction("lore_replies.jsonl") and not is_fiction("gimp_paragraphs.jsonl")


def test_every_set_built_is_found_fiction_first(tmp_path: Path) -> None:
    for name in ("b_paragraphs.jsonl", "a_paragraphs.jsonl", "z_replies.jsonl", "notes.txt"):
        (tmp_path / name).write_text("", "utf-8")
    assert [p.name for p in eval_files(tmp_path)] == [
        "z_replies.jsonl",
        "a_paragraphs.jsonl",
        "b_paragraphs.jsonl",
    ]


def test_rows_keep_to_the_split_and_the_17_locales_and_drop_code_debris(tmp_path: Path) -> None:
    dev = next(f"book:{i}" for i in range(100) if split_of(f"book:{i}") == "dev")
    test = next(f"book:{i}" for i in range(100) if split_of(f"book:{i}") == "test")
    made = [
        {"locale": "fr", "source": dev, "text": "Un paragraphe."},
        {"locale": "fr", "source": test, "text": "Jamais vu."},
        {"locale": "xx", "source": dev, "text": "Unknown locale."},
        {"locale": "fr", "source": dev, "text": '"" est la commande.'},  # an HTML <code> stripped
    ]
    for name in ("help_paragraphs.jsonl", "help_replies.jsonl"):
        path = tmp_path / name
        path.write_text("".join(json.dumps(r) + "\n" for r in made), "utf-8")
        texts = [r["text"] for r in rows(path, "dev")]
        assert texts == (["Un paragraphe."] if name.endswith("paragraphs.jsonl") else
                         ["Un paragraphe.", '"" est la commande.'])  # fmt: skip
        assert [r["text"] for r in rows(path, "test")] == ["Jamais vu."]
        assert len(list(rows(path, "all"))) == len(texts) + 1
