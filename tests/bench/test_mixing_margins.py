"""The near-miss tool (``bench/mixing_margins.py``): each foreign sentence call taken apart, a decision
constant judged both ways and put back, and the per-set counts (calls, near misses, recall)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import pytest
from mixing_margins import record, report

from exporter.language import judge as judge_module
from exporter.language.detect import Call, Guess
from exporter.language.judge import Judge
from exporter.language.locales import LocaleSpec
from exporter.language.scripts import Script

NATIVE = [
    "The keeper climbed the stairs of the old tower before dawn.",
    "He lit the lamp and looked out over the grey harbour.",
    "Ships were coming home slowly through the heavy rain.",
    "Nobody in the village had slept well that night.",
    "The storm had torn the nets and broken two masts.",
]
ONE = "Nosotros vamos a la ciudad mañana temprano."
TWO = "Vamos pronto al mercado."


class WeakCalls:
    """Two sentences called Spanish without being sure, the rest native: two doubts."""

    def call(
        self, text: str, spec: LocaleSpec, counts: dict[Script, int] | None = None, w: float | None = None
    ) -> Call:
        if text in (ONE, TWO):
            return Call("foreign", "es", 50.0, "models", Guess((("es", 0.8),), ("es", 0.6)), sure=False)
        return Call("native", spec.language, 50.0, "models")

    def whole_reply(self, text: str, spec: LocaleSpec, calls: object) -> None:
        return None

    def pooled(self, text: str, spec: LocaleSpec) -> None:
        return None


def test_a_decision_constant_is_judged_both_ways_and_put_back() -> None:
    judge = Judge(ensemble=WeakCalls())  # type: ignore[arg-type]
    case = {"text": " ".join([*NATIVE[:2], ONE, TWO, *NATIVE[2:]]), "locale": "en", "kind": "mixing"}
    both = record(judge, case, "lore", {"MIXING_MIN_SURE": 0})
    assert (both["called"], both["was_called"]) == ("", "mixing")
    assert judge_module.MIXING_MIN_SURE == 1
    plain = record(judge, case, "lore")
    assert plain["called"] == "" and plain["rule"] == ""
    sentences = plain["sentences"]
    assert isinstance(sentences, list) and [s["sure"] for s in sentences] == [False, False]
    assert sentences[0]["words"] == 7 and sentences[0]["share"] == pytest.approx(50 / 350, abs=0.001)


def test_the_report_counts_calls_near_misses_and_recall(capsys: pytest.CaptureFixture[str]) -> None:
    near = {"set": "lore", "kind": "clean", "locale": "en", "sub": "", "fail": False, "called": ""}
    records: list[dict[str, object]] = [
        {**near, "sentences": [{}]},  # a near miss: a foreign call, no fail
        {**near},  # no foreign call at all
        {**near, "kind": "pressure joined", "fail": True, "called": "mixing"},
        {**near, "kind": "mixing", "locale": "id", "sub": "ms", "fail": True},
        {**near, "kind": "mixing", "locale": "id", "sub": "ms"},
        {**near, "kind": "switch", "fail": True},
    ]
    report(records, "counts")
    out = capsys.readouterr().out
    (row,) = [line for line in out.splitlines() if line.startswith("lore")]
    assert row.split()[:9] == ["lore", "2", "0", "0", "1", "1", "1", "0", "0"]
    assert "50.00% of 2 / 100.00% of 1" in row
    assert "Malay in Indonesian (mixing and switch): 1 of 2" in out


class WeakCallsModels(WeakCalls):
    """``WeakCalls`` with both models: Spanish for the two foreign sentences (in emphasis markup or not),
    English otherwise."""

    def call(
        self, text: str, spec: LocaleSpec, counts: dict[Script, int] | None = None, w: float | None = None
    ) -> Call:
        return super().call(text.strip("*"), spec, counts, w)

    def fasttext(self, text: str, k: int = 3) -> tuple[tuple[str, float], ...]:
        return (("es", 0.8),) if text.strip("*") in (ONE, TWO) else (("en", 0.9), ("es", 0.05))

    def cld3(self, text: str) -> tuple[str, float]:
        return ("es", 0.6) if text.strip("*") in (ONE, TWO) else ("en", 0.9)


def test_context_records_the_position_and_the_neighbours_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    import mixing_margins

    monkeypatch.setattr(mixing_margins, "CONTEXT", True)
    judge = Judge(ensemble=WeakCallsModels())  # type: ignore[arg-type]
    text = " ".join([NATIVE[0], ONE, TWO, NATIVE[1]]) + "\n\n*" + TWO + "*\n" + NATIVE[2]
    sentences = record(judge, {"text": text, "locale": "en", "kind": "clean"}, "lore")["sentences"]
    assert isinstance(sentences, list) and len(sentences) == 3
    one, two, marked = sentences
    assert one["prev"] == {"status": "native", "language": "en", "ft": 0.05, "cld3": False}
    assert one["next"] == {"status": "foreign", "language": "es", "ft": 0.8, "cld3": True}
    assert (one["own_line"], one["marked"], two["next"]["status"]) == (False, False, "native")  # type: ignore[index]
    assert (marked["own_line"], marked["marked"]) == (True, True)
    monkeypatch.setattr(mixing_margins, "CONTEXT", False)
    plain = record(judge, {"text": text, "locale": "en", "kind": "clean"}, "lore")["sentences"]
    assert isinstance(plain, list) and "prev" not in plain[0] and "own_line" not in plain[0]
