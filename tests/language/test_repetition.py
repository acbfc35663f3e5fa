# ruff: noqa: E501  (test data lines)
"""Degenerate loops fail; refrains, lists and short repeated interjections pass; truncated stories fail."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.contracts.reply_checks import screen
from exporter.language.repetition import (
    LONG_MIN_REPEATS,
    LOOP_MIN_REPEATS,
    LOOP_MIN_TOKENS,
    MAX_PERIOD,
    SHORT_PERIOD,
    find_repetition,
)
from exporter.language.truncation import find_truncation
from exporter.outcomes import Reason
from tests.fuzz_profile import examples

STORY = (
    "Steel rings on steel as Mara parries the first cut and answers with a low sweep. Her rival leaps back, "
    "laughing, and the burning rigging showers sparks across the deck between them. "
)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("the " * 200, "token_loop"),
        (STORY + "the " * 60, "token_loop"),
        ("Mara raises her sword and waits for the storm. " * 10, "token_loop"),
        (STORY + "and then and then " * 20, "token_loop"),
        ("的" * 300, "token_loop"),
        ("Она поднимает саблю, и палуба дрожит под ногами. " * 6, "token_loop"),
        ("no punctuation at all in this long loop of twelve words and more " * 12, "token_loop"),
        # the same sentence between others: not back to back, a sentence loop
        (
            " ".join(f"Mara raises her sword and waits for the storm. Wave {n} breaks." for n in range(9)),
            "sentence_loop",
        ),
        ("a b c d e f g h i j k l m n o p q r s t " * 30, "token_loop"),
        # a 70-word unit looping, longer than the token-loop check's units: compression sees it
        (" ".join(f"word{n}" for n in range(70)) * 8, "compression"),
    ],
)
def test_degenerate_loops_are_found(text: str, kind: str) -> None:
    found = find_repetition(text)
    assert found is not None and found.kind == kind, found


@pytest.mark.parametrize(
    "text",
    [
        STORY,
        "No, no, no! I will not go back there, not after what happened on that ship.",
        "Ha ha ha! You call that a blade? My grandmother swings a ladle harder than that, girl.",
        # a chorus sung three times
        (
            "Yo ho, yo ho, the sea is wide and free, and we shall sail it, you and me.\n"
            "The wind was cold, the night was long, we rowed until the dawn.\n"
        )
        * 3,
        # a list
        "- three barrels of rum\n- two barrels of water\n- one barrel of powder\n- four coils of rope\n- a crate of lemons",
        "Run! Run! Run! The mast is coming down, get below before it crushes you!",
        "「走れ！走れ！」と彼女は叫んだ。燃えるマストが甲板に倒れ、火の粉が夜空に舞い上がった。",
    ],
)
def test_what_people_write_passes(text: str) -> None:
    assert find_repetition(text) is None


@pytest.mark.parametrize(
    ("text", "finish", "truncated"),
    [
        ("The rival captain draws her", "stop", True),
        ("Mara lunges,", "stop", True),
        ("决斗开始了，对手", "stop", True),
        ("The rival captain draws her", "length", False),
        ("Steel rings on steel.", "stop", False),
        ("*She lunges*", "stop", False),
        ('"Come on, then!"', "stop", False),
        (
            "Steel rings on steel as Mara parries the first cut and answers with a low sweep of her",
            "stop",
            True,
        ),
    ],
)
def test_truncated_stories(text: str, finish: str, truncated: bool) -> None:
    assert (find_truncation(text, finish) is not None) is truncated


def test_screen_reports_refusal_first_then_truncation_then_repetition() -> None:
    refused = screen("Es tut mir leid, aber dabei kann ich nicht helfen", "stop")
    assert refused is not None and refused.reason is Reason.REFUSAL and "phrase" in refused.evidence
    pattern = screen("I'd rather not write that.", "stop", refusal_reason=Reason.REFUSAL_PATTERN)
    assert pattern is not None and pattern.reason is Reason.REFUSAL_PATTERN
    cut = screen("The rival captain draws her", "stop")
    assert cut is not None and cut.reason is Reason.TRUNCATION
    assert screen("The rival captain draws her", "stop", truncation=False) is None
    loop = screen(STORY + "the " * 60, "length")
    assert loop is not None and loop.reason is Reason.REPETITION and loop.evidence["repetition"]
    assert screen(STORY, "stop") is None


def _longest_loop(tokens: list[str]) -> tuple[int, int] | None:
    """The reference: every period, every position; (tokens covered, period) of the longest loop that
    passes the thresholds and whose unit has a word in it."""
    best: tuple[int, int] | None = None
    for period in range(1, MAX_PERIOD + 1):
        run = 0
        for i in range(period, len(tokens) + 1):
            if i < len(tokens) and tokens[i] == tokens[i - period]:
                run += 1
                continue
            worded = any(t[0].isalpha() for t in tokens[i - period : i])
            repeats = LOOP_MIN_REPEATS if period <= SHORT_PERIOD else LONG_MIN_REPEATS
            passes = (run + period) // period >= repeats and run + period >= LOOP_MIN_TOKENS
            if run >= period and worded and passes and (best is None or run + period > best[0]):
                best = (run + period, period)
            run = 0
    return best


_WORDS = st.lists(st.sampled_from(["the", "sea", "of", "la", ",", "."]), max_size=40)


@settings(max_examples=examples(200), deadline=None)
@given(before=_WORDS, unit=_WORDS.filter(bool), repeats=st.integers(0, 40), after=_WORDS)
def test_the_token_loop_check_finds_the_longest_loop_of_a_full_scan(
    before: list[str], unit: list[str], repeats: int, after: list[str]
) -> None:
    tokens = before + unit[:MAX_PERIOD] * repeats + after
    found = find_repetition(" ".join(tokens))
    loop = found if found is not None and found.kind == "token_loop" else None
    best = _longest_loop(tokens)
    assert (loop is not None) == (best is not None), (loop, best)
    if loop is not None and best is not None:
        assert loop.repeats == best[0] // best[1]
