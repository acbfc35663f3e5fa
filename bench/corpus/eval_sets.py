"""The clean evaluation sets on disk: their files, names, registers and rows of a split (one definition for
every tool that reads them: ``bench/start_openers.py``, ``bench/mixing_pressure.py``,
``bench/screen_pressure.py``).

A set is one file under ``bench/results/``: ``NAME_replies.jsonl`` for the fiction register (the games
builders' rows: ``locale``, ``source``, ``text``, ``keys``, ``lines``) or ``NAME_paragraphs.jsonl`` for
documentation (``locale``, ``source``, ``text``). A row's split is ``judge_cases.split_of`` of its source,
as the evaluations split them.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

from judge_cases import split_of

from exporter.language.locales import LOCALES

RESULTS = Path(__file__).resolve().parents[1] / "results"


def set_name(path: Path | str) -> str:
    """``story_replies.jsonl`` -> ``story``, ``debian_docs_paragraphs.jsonl`` -> ``debian_docs``."""
    return Path(path).name.removesuffix(".jsonl").removesuffix("_replies").removesuffix("_paragraphs")


def is_fiction(path: Path | str) -> bool:
    """Whether the file holds fiction-register replies (not documentation paragraphs)."""
    return Path(path).name.endswith("_replies.jsonl")


def eval_files(results: Path = RESULTS) -> list[Path]:
    """Every set built under ``results``: the fiction-register files first, each group by name."""
    return sorted(results.glob("*_replies.jsonl")) + sorted(results.glob("*_paragraphs.jsonl"))


def rows(path: Path | str, split: str) -> Iterator[dict[str, object]]:
    """The rows of the file in the 17 locales and in ``split`` (``all``: every row), in the file's order.
    A documentation paragraph opening with ``""`` is left out, as ``judges_eval.py`` does (an HTML
    ``<code>`` element stripped by the extraction)."""
    fiction = is_fiction(path)
    for line in Path(path).read_text("utf-8").splitlines():
        if not line:
            continue
        row = json.loads(line)
        if str(row.get("locale")) not in LOCALES:
            continue
        if split != "all" and split_of(str(row["source"])) != split:
            continue
        if not fiction and str(row["text"]).startswith('""'):
            continue
        yield row
