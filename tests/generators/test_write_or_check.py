"""The generators' one write-or-check step: write every file, or name each stale one without writing."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.generators import stale, write_or_check


def test_check_names_each_stale_or_missing_file_writes_nothing_and_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fresh, changed, missing = tmp_path / "fresh.json", tmp_path / "changed.json", tmp_path / "d" / "new.json"
    fresh.write_text("{}\n", encoding="utf-8")
    changed.write_text("old\n", encoding="utf-8")
    files = {fresh: "{}\n", changed: "new\n", missing: "[]\n"}

    assert stale(files) == [changed, missing]
    assert write_or_check(files, check=True, regenerate="make it") == 1
    err = capsys.readouterr().err
    assert f"{changed} is out of date: run make it" in err
    assert f"{missing} is out of date: run make it" in err
    assert "fresh.json" not in err
    assert changed.read_text(encoding="utf-8") == "old\n" and not missing.exists()


def test_writing_creates_directories_and_then_the_check_passes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {tmp_path / "a" / "b.json": "{}\n", tmp_path / "c.yaml": "x: 1\n"}
    assert write_or_check(files, check=False, regenerate="make it") == 0
    assert capsys.readouterr().out.count("wrote ") == 2
    assert all(path.read_text(encoding="utf-8") == text for path, text in files.items())
    assert write_or_check(files, check=True, regenerate="make it") == 0
    assert stale(files) == []
