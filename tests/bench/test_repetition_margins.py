"""The repetition margin tool (``bench/repetition_margins.py``) scores each rule so that 1.0 is where its
test fires: a text the screen fails scores 1.0 or more on the rule that failed it, with no guard, and
prose scores far under every threshold."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

from repetition_margins import scores

from exporter.language.repetition import find_repetition

PROSE = (
    "The caravan left the oasis before dawn, while the dunes were still blue with shadow. Nadia rode at the "
    "back, counting the camels twice because the first count never matched the merchant's ledger. By noon "
    "the wind had risen and the guide tied a scarf over his mouth, pointing at a smudge on the horizon that "
    "might have been a city or a storm. Nobody argued with him; they simply drank less and walked faster."
)


def _by_rule(text: str) -> dict[str, tuple[float, str]]:
    return {score.rule: (score.value, score.guard) for score in scores(text)}


def test_prose_scores_under_half_of_every_threshold() -> None:
    assert find_repetition(PROSE) is None
    assert all(value < 0.5 for value, _ in _by_rule(PROSE).values())


def test_a_loop_scores_over_its_rule_s_threshold_with_no_guard() -> None:
    looped = PROSE + " " + "the wind had risen and the guide tied a scarf " * 12
    found = find_repetition(looped)
    assert found is not None and found.kind == "token_loop"
    value, guard = _by_rule(looped)["token"]
    assert value >= 1.0 and guard == ""
    said = " ".join(["Nobody argued with him, they simply drank less and walked faster."] * 9)
    found = find_repetition(PROSE + " " + said)
    assert found is not None and found.kind in ("sentence_loop", "token_loop")
    value, guard = _by_rule(PROSE + " " + said)["sentence"]
    assert value >= 1.0 and guard == ""


def test_a_sentence_after_each_field_scores_over_the_threshold_and_names_its_guard() -> None:
    fields = ["width", "height", "left margin", "top margin", "column spacing"]
    text = " ".join(
        f"Displays the {field} of the label or business card. If you are defining a custom format, enter a "
        "value here."
        for field in fields
    )
    assert find_repetition(text) is None
    value, guard = _by_rule(text)["sentence"]
    assert value >= 1.0 and guard == "designed"
