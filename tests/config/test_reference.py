"""README's configuration reference is generated from the models: any disagreement fails here."""

from __future__ import annotations

import re
from pathlib import Path

from exporter.config import file_model
from exporter.config_reference import main, render
from exporter.configkit import keys_of

README = Path(__file__).resolve().parents[2] / "README.md"
FIX = "regenerate it: python -m exporter.config_reference --write README.md"


def test_the_readme_reference_is_what_the_models_say() -> None:
    text = README.read_text(encoding="utf-8")
    assert render(text) == text, FIX


def test_every_section_of_the_file_has_its_table_in_the_readme() -> None:
    blocks = re.findall(r"<!-- config-reference: (\S+) -->", README.read_text(encoding="utf-8"))
    assert blocks == list(keys_of(file_model()))


def test_a_default_edited_in_the_readme_alone_is_caught() -> None:
    text = README.read_text(encoding="utf-8")
    row = "| `interval` | a duration such as 10s, 30m or 1d | `30m` |"
    assert row in text
    edited = text.replace(row, row.replace("`30m`", "`20m`"))
    assert render(edited) == text != edited


def test_a_key_missing_from_the_readme_is_caught() -> None:
    text = README.read_text(encoding="utf-8")
    edited = "\n".join(line for line in text.split("\n") if not line.startswith("| `fade_after` |"))
    assert render(edited) == text != edited


def test_the_generator_rewrites_a_stale_file(tmp_path: Path) -> None:
    stale = tmp_path / "README.md"
    stale.write_text("x\n<!-- config-reference: rounds -->\n| old |\n<!-- /config-reference -->\ny\n")
    assert main(["--write", str(stale)]) == 0
    written = stale.read_text()
    assert "| `concurrency` | a whole number | `8` |" in written and "| old |" not in written
    assert written.startswith("x\n") and written.endswith("y\n")
