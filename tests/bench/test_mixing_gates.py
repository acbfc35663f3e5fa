"""The gates' trade curves (``bench/mixing_gates.py``): which calls a gate takes as not sure, which mixing
verdicts lose the rule they met, and the counts per set."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import pytest
from mixing_gates import gates, isolated, keeps_rule, main

NATIVE_NEIGHBOUR = {"status": "native", "language": "en", "ft": 0.02, "cld3": False}


def call(llr: float | None, sure: bool = True, **context: object) -> dict[str, object]:
    return {"llr": llr, "llr_words": 8, "said": llr, "sure": sure, "strong": sure, "basis": "models",
            "ft": 0.95, "cld3": 0.99, "words": 8, "prev": NATIVE_NEIGHBOUR, "next": None,
            **context}  # fmt: skip


def test_isolated_asks_both_neighbours_for_no_sign_of_the_named_language() -> None:
    assert isolated(call(-1.8))  # a native neighbour and none after
    assert isolated(call(-1.8, prev=None))
    assert not isolated(call(-1.8, next={**NATIVE_NEIGHBOUR, "ft": 0.2}))  # fastText leans its way
    assert not isolated(call(-1.8, next={**NATIVE_NEIGHBOUR, "cld3": True}))
    assert not isolated(call(-1.8, prev={**NATIVE_NEIGHBOUR, "status": "foreign"}))


def test_a_verdict_loses_its_rule_only_when_no_sure_call_is_left() -> None:
    gate = gates()["llr >= -1.0"]
    weak, strong = call(-0.6), call(-1.9)
    assert not keeps_rule({"rule": "sure", "sentences": [weak]}, gate)
    assert keeps_rule({"rule": "strong", "sentences": [strong]}, gate)
    assert keeps_rule({"rule": "sentences", "sentences": [weak, strong]}, gate)
    assert not keeps_rule({"rule": "sentences", "sentences": [weak, call(-1.9, sure=False)]}, gate)
    unsure = [call(-0.6, sure=False), call(-0.7, sure=False)]
    assert keeps_rule({"rule": "sentences", "sentences": unsure}, gate)  # nothing sure for the gate to take
    assert keeps_rule({"rule": "share", "sentences": [weak]}, gate)  # a switch asks for no sure call
    assert keeps_rule({"rule": "pooled"}, gate)  # pooled without a foreign call: none to take as not sure
    assert not gate(call(None))  # no list for the named language: no lean, no gate
    odds = gates()["llr x words > -3"]  # eight words: -0.3 each is odds of 10^2.4, -0.5 each 10^4
    assert odds(call(-0.3)) and not odds(call(-0.5)) and not odds(call(None))
    ours = gates()["leans ours by 0.5, same script"]
    assert ours(call(0.6)) and not ours(call(0.4))
    assert not ours(call(0.6, basis="script"))  # a Chinese sentence's English words: the letters settle it
    assert not ours(call(0.6, llr_words=1))


def test_the_curve_counts_clean_verdicts_cleared_and_true_cases_lost(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = {"set": "lore", "locale": "en", "sub": "", "fail": True, "called": "mixing", "rule": "sure"}
    dump = tmp_path / "records.jsonl"
    dump.write_text(
        "\n".join(
            json.dumps(r)
            for r in [
                {**base, "kind": "clean", "sentences": [call(-0.6)]},  # cleared at -1.0
                {**base, "kind": "mixing", "sentences": [call(-0.8)]},  # lost at -1.0
                {**base, "kind": "mixing", "sentences": [call(-1.9)]},
                {**base, "kind": "mixing", "fail": False, "called": "", "rule": "", "sentences": []},
            ]
        ),
        encoding="utf-8",
    )
    sys.argv = ["mixing_gates.py", str(dump)]
    assert main() == 0
    out = capsys.readouterr().out
    assert "dev mixing recall now: lore 66.67%" in out
    (row,) = [line for line in out.splitlines() if line.startswith("llr >= -1.0 ")]
    assert row.split()[3:12] == ["0", "/", "1", "/", "1", "1", "1", "1", "1"]
    assert row.endswith("lore 33.33%")
    (row,) = [line for line in out.splitlines() if line.startswith("llr >= -0.5 ")]
    assert row.split()[3:12] == ["0", "/", "0", "/", "0", "0", "0", "0", "0"]
