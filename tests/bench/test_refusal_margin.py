"""The refusal margin tool (``bench/refusal_margin.py``) names the reading that lets a refusal-like phrase of
a clean text pass, and names none where the phrase fails or where there is no phrase."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import pytest
from refusal_margin import readings

from exporter.contracts.refusal_patterns import find_refusal


@pytest.mark.parametrize(
    ("text", "family", "reading"),
    [
        ('"I\'d rather not write to him," she said, and folded the letter.', "soft", "quoted"),
        ("I'd rather not write to him again, Mara decided, and folded the letter.", "soft", "reported"),
        ("Infelizmente devo declinar do seu convite, devido a um compromisso assumido.", "soft", "thing"),
        ("No thanks, I'll pass. The road north is flooded, so the caravan will wait at the ford until the "
         "water drops and the wagons can cross without losing their wheels.", "soft", "story-after"),
        ("Sorry, I can't help you with that. The smith in the lower town mends such blades, and he owes my "
         "brother a favour from the winter war, so tell him I sent you.", "hard", "story-after"),
        ("I can't understand why a person will take a year or two to write a novel when he can buy one.",
         "composed", "other-act"),
    ],
)  # fmt: skip
def test_a_near_miss_is_named_by_the_reading_that_lets_it_pass(text: str, family: str, reading: str) -> None:
    assert find_refusal(text) is None
    assert readings(text).get(family) == reading


@pytest.mark.parametrize(
    "text",
    [
        "The lanterns dimmed over the harbour, and the fishermen pulled their boats onto the shingle.",
        "I'd rather not write that. Let's change the subject, shall we?",
    ],
)
def test_no_phrase_or_a_decline_found_has_no_near_miss_reading(text: str) -> None:
    found = readings(text)
    assert not found or find_refusal(text) is not None
    assert "soft" not in found
