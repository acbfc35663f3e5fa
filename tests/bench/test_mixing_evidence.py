"""The mixing evidence tool (``bench/mixing_evidence.py``): which requirement a call met, what its one foreign
sentence weighs, and the trade curve's arithmetic (a cleared call is a clean fail less or a catch lost)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import pytest
from mixing_evidence import report, rule_of, sentence_evidence

from exporter.language.judge import judge

NATIVE = (
    "The keeper climbed the stairs of the old tower before dawn. He lit the lamp and looked out over the "
    "grey harbour. Ships were coming home slowly through the heavy rain. Nobody in the village had slept "
    "well that night. "
)
SPANISH = "Nosotros vamos a la ciudad mañana temprano con toda la familia y los vecinos del pueblo."


def test_a_call_on_one_sentence_is_taken_apart() -> None:
    text = NATIVE + SPANISH
    verdict = judge(text, "en")
    assert rule_of(verdict) in ("sure", "strong"), verdict.as_dict()
    (found,) = sentence_evidence(text, "en", verdict)
    assert found["words"] == 16
    assert found["letters"] == sum(ch.isalpha() for ch in SPANISH)
    assert found["confidence"] >= 0.7
    assert found["unknown"] > 0.3  # English's list knows few of its words (a, la, con are English too)
    assert rule_of(judge(NATIVE, "en")) == "?"  # a pass met no requirement


def _record(
    group: str, name: str, kind: str, fail: bool, rule: str = "", letters: float = 0.0
) -> dict[str, object]:
    out: dict[str, object] = {"group": group, "set": name, "kind": kind, "fail": fail, "called": bool(rule)}
    if rule:
        out["rule"] = rule
        out["sentences"] = [{"letters": letters, "words": 5, "confidence": 0.9, "unknown": 0.5}]
    return out


def test_the_trade_curve_counts_clean_fails_cleared_and_catches_lost(
    capsys: pytest.CaptureFixture[str],
) -> None:
    records = [
        _record("clean", "games", "clean", True, "sure", 22),  # cleared from 25 letters on
        _record("clean", "games", "clean", True, "sentences", 22),  # two sentences: never cleared
        _record("true", "lore", "mixing", True, "sure", 30),  # lost from 35 letters on
        _record("true", "lore", "mixing", True, "strong", 100),
        _record("true", "lore", "mixing", False),
        _record("true", "lore", "mixing", True, "sentences", 10),
    ]
    report(records)
    out = capsys.readouterr().out
    assert "recall now: lore/mixing 75.0%" in out
    assert "letters >= 25: clean   1 | \n" in out
    assert "letters >= 35: clean   1 | lore/mixing 50.0%\n" in out
    assert "letters >= 60: clean   1 | lore/mixing 50.0%\n" in out
