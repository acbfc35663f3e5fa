"""The clean-opener evaluation (``bench/start_openers.py``) judges a reply from every place a writer starts a
sentence or a line, not from where the segmenter's cut falls inside one, and counts what the judge fails."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import start_openers


def _starts(text: str) -> list[tuple[str, str]]:
    return [(kind, text[at : at + 12]) for kind, at in start_openers.openers(text)]


def test_every_sentence_and_line_start_is_an_opener() -> None:
    text = "The keeper waited. Then he spoke!\nA new line, e.g. this one. «Yes», she said."
    assert _starts(text) == [
        ("first", "The keeper w"),
        ("sentence", "Then he spok"),
        ("paragraph", "A new line, "),
        ("sentence", "«Yes», she s"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        'He asked "Is it far? " she said, and left the room.',  # a closer the segmenter left behind
        "Open Edit → Preferences… . Then choose a theme for the window.",  # a full stop after an ellipsis
        "Mi hermano... ¿secuestrado? No puede ser verdad.",  # a sentence trailing off, going on
        "メニューから その他... をクリックしてください。",  # a particle after a menu label's ellipsis
        "Is it fast without acceleration? / Why is it slow on my card?",  # a slash between two questions
        'He wrote: "PAY RENT TO SLEEP TO WORK AGAIN. STOP" on the wall.',  # a quotation's last word, closed
        "区切りとして ピリオド (.) を用いる実装もあります。",  # an end mark in brackets names the mark
        "詳しくは「どこで入手できますか?」 を見てください。",  # a particle after a quoted question
        'The symbol (e.g. " for inches) is shown next to the value.',  # an abbreviation behind a bracket
        "This was said by Dr. Melissus at the meeting last year.",  # a title without a vowel
        'Use it with care. Culture" was the last word of that title.',  # a quotation's last word, closed
    ],
)
def test_a_cut_inside_a_writers_sentence_is_no_opener(text: str) -> None:
    kinds = [kind for kind, _ in _starts(text)]
    assert kinds.count("first") == 1
    assert len(kinds) <= 2  # the first, and at most the one sentence that really starts
    assert all(
        not start.startswith(('"', ".", "¿secu", "を", "/", "STOP", "Melissus", "Culture"))
        for _, start in _starts(text)[1:]
    )


def test_a_sentence_after_a_closed_quotation_is_an_opener() -> None:
    text = 'He wrote "Stop." Then he left. She said "go" twice. "Stop" was all.'
    assert [start for _, start in _starts(text)] == [
        'He wrote "St',
        "Then he left",
        'She said "go',
        '"Stop" was a',
    ]


TEXT = "The keeper opened the old door of the tower.\nĠThe lamp on the table was lit again at dusk."


def test_a_dev_reply_with_garbage_at_a_line_start_is_counted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [
        # "demo:a" is in the dev split, "demo:c" in the test split (``split_of``)
        {"locale": "en", "source": "demo:a", "text": TEXT},
        {"locale": "en", "source": "demo:c", "text": TEXT},
        {"locale": "xx", "source": "demo:a", "text": "Not one of the seventeen locales, never judged."},
    ]
    path = tmp_path / "demo_paragraphs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    monkeypatch.setattr(sys, "argv", ["start_openers.py", str(path), "--show"])
    assert start_openers.main() == 0
    out = capsys.readouterr().out
    assert "1 replies, 2 openers" in out
    assert "--- demo en paragraph tokenizer_artifact 'Ġ'" in out
    assert "set demo paragraph" in out and "false-fail 100.000%  (1)" in out
    assert "kind first" in out and "false-fail 0.000%  (0)" in out
