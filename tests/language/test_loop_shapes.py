# ruff: noqa: E501  (test data lines)
"""Loops and cuts in the shapes serving stacks produce (near-copies, floods, tails of long replies, cuts
in lists, emphasis and budgets), and what people write that only looks like them."""

from __future__ import annotations

import random

import pytest

from exporter.language.repetition import (
    ECHO_MIN_WORDS,
    FLOOD_MIN_MARKS,
    FLOOD_MIN_SPACE,
    FLOOD_MIN_WORD,
    MAX_JUDGED_CHARS,
    find_repetition,
)
from exporter.language.truncation import estimated_tokens, find_truncation

OPENING = (
    "The lighthouse keeper climbed the stairs at dusk, counting each step as her father had taught her, "
    "and lit the lamp before the fog rolled in from the bay. "
)


# -- near-copies: the echo of word pairs at the end of the reply -------------------------------------------
@pytest.mark.parametrize(
    "loop",
    [
        # a counter that changes every time
        "\n".join(
            f"Day {n}: the fog did not lift and the boats stayed in the harbour." for n in range(3, 14)
        ),
        # a phrase with the changes sampling makes: a word dropped, doubled, swapped, a mark changed
        "The fog did not lift from the harbour that night. The fog did not lift from the harbour that night! "
        "The fog did not lift from the the harbour that night. The fog did lift from the harbour that night. "
        "The fog did not lift from harbour the that night. The fog did not lift from the harbour that night... "
        "The fog did not lift from the harbour that night. The fog not did lift from the harbour that night.",
        # three sentences taking turns
        "She waited. The boats stayed home. Nobody came. " * 5,
    ],
)
def test_near_copies_looping_to_the_end_are_a_loop(loop: str) -> None:
    found = find_repetition(OPENING + loop)
    assert found is not None, loop


def test_a_chorus_sung_three_times_in_a_row_is_not_an_echo() -> None:
    chorus = (
        "Row, row, row to the harbour light, row until the morning comes.\nHold the oar and hold it tight.\n"
    )
    assert len((chorus * 3).split()) >= ECHO_MIN_WORDS
    assert find_repetition(chorus * 3) is None


def test_a_refrain_between_new_verses_is_not_a_sentence_loop() -> None:
    refrain = "And the keeper lights the lamp again"
    verses = [
        "The gulls go quiet on the rail\nThe nets hang heavy by the door\nThe tide comes in without a sound",
        "A boat is late beyond the point\nIts lantern swinging in the rain\nA woman waits upon the pier",
        "The wind has turned towards the west\nThe bell is ringing on the reef\nThe night is long but not for her",
        "At dawn the boat comes round the rocks\nThe woman laughs and runs to meet it\nThe gulls come back to the rail",
    ]
    poem = "\n\n".join(f"{verse}\n{refrain}" for verse in verses)
    assert find_repetition(poem) is None
    assert find_truncation(poem, "stop") is None  # verse: its lines end without a mark


def test_a_sentence_said_four_times_with_nothing_new_after_is_a_loop() -> None:
    loop = "I will light the lamp tonight. The keeper nodded. " * 4
    found = find_repetition(OPENING + loop)
    assert found is not None


# -- floods -------------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "flood",
    [
        "!" * FLOOD_MIN_MARKS,
        "。" * 80,
        "…" * 40,
        "~" * 50,
        "😂" * 40,
        "\n" * FLOOD_MIN_SPACE,
        " " * 300,
        "ha" * (FLOOD_MIN_WORD // 2),
        "ㅋ" * 60,
    ],
)
def test_a_flood_of_one_mark_syllable_or_whitespace_is_a_loop(flood: str) -> None:
    assert find_repetition(OPENING + flood) is not None, repr(flood[:10])


@pytest.mark.parametrize(
    "text",
    [
        OPENING + "\n\n" + "-" * 60 + "\n\nThe next morning was clear.",
        "| keeper | lamp |\n|" + "---|" * 12 + "\n| Mara | lit |",
        OPENING + "\n\n" + "═" * 40,
        OPENING + "Ha! Hahaha! What a night!!!",
        "The word was Donaudampfschifffahrtsgesellschaftskapitänsmütze, and she laughed.",
    ],
)
def test_dividers_table_rules_and_short_runs_are_not_floods(text: str) -> None:
    assert find_repetition(text) is None


def test_a_loop_in_the_last_quarter_of_a_long_reply_counts_past_the_judged_window() -> None:
    rng = random.Random(7)  # prose that never repeats: made-up words
    body = " ".join(
        "".join(rng.choice("aeioubdklmnrst") for _ in range(rng.randrange(2, 9))) for _ in range(1800)
    )
    assert len(body) > MAX_JUDGED_CHARS
    assert find_repetition(body) is None
    assert find_repetition(body + "and the lamp went out " * 120) is not None


# -- truncation -------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "What to pack:\n\n- A lamp with a full tank.\n- Two coils of rope.\n- Matches in a ti",
        OPENING + "She whispered, and the word was *",
        OPENING + "Then she saw it, **",
        "灯台守は階段を上った。*",
    ],
)
def test_a_list_item_or_an_emphasis_cut_open_is_a_cut(text: str) -> None:
    assert find_truncation(text, "stop") is not None


@pytest.mark.parametrize(
    "text",
    [
        "What to pack:\n\n- a lamp\n- rope\n- matches",
        OPENING + "\n\nMore at https://example.org/lighthouses",
        OPENING + "#lighthouse",
        OPENING + "\n\nBest regards,\nMara",
        OPENING + "\n\nС уважением,\nМара",
        OPENING + "\n\n## The second night",
        OPENING + "*She never looked back.*",
        OPENING + "\n\n* * *",
    ],
)
def test_replies_that_end_without_a_full_stop_on_purpose_are_not_cut(text: str) -> None:
    assert find_truncation(text, "stop") is None


def test_a_new_paragraph_cut_after_a_word_the_reply_writes_in_lower_case_is_a_cut() -> None:
    text = OPENING + "\n\nAnd"
    assert find_truncation(text, "stop") is not None
    assert find_truncation(OPENING + "\n\nFin", "stop") is None


def test_a_length_finish_without_a_count_is_judged_by_the_replys_estimated_tokens() -> None:
    # 138 ASCII characters: about 35 tokens, under half of a 100-token budget, not under half of 60
    assert 30 < estimated_tokens(OPENING) < 40
    assert find_truncation(OPENING, "length", max_tokens=100) is not None
    assert find_truncation(OPENING, "length", max_tokens=60) is None
    assert (
        find_truncation(OPENING, "length", max_tokens=4 * len(OPENING), completion_tokens=4 * len(OPENING))
        is None
    )
    # a CJK character is about a token: 40 characters cannot have spent 100 tokens, can have spent 70
    cjk = "灯台守は階段を上り、霧が湾から流れ込む前にランプを灯した。彼女は父に教わった通りに段を数えた"
    assert find_truncation(cjk, "length", max_tokens=100) is not None
    assert find_truncation(cjk, "length", max_tokens=70) is None


@pytest.mark.parametrize(
    "ending",
    [
        "Click Memory",
        "Già",
        "Пока",
        "Browse the",
        "他",
        "都市が",
        "그",
        "・征",
    ],  # ・征: a bulleted item's first letter
)
def test_the_first_words_of_a_new_paragraph_after_a_finished_one_are_a_cut(ending: str) -> None:
    assert find_truncation(OPENING + "\n\n" + ending, "stop") is not None


@pytest.mark.parametrize(
    "ending",
    [
        "To be continued",
        "The End",
        "Fin",
        "Конец",
        "つづく",
        "全文完",
        "끝",
        "Mara",
        "Kalenz Brightwood",
        "Captain Mara Voss",
        "敬具\nMara",
        "此致敬礼\n李明",
    ],
)
def test_a_closing_formula_a_name_or_a_letters_closing_ends_a_reply(ending: str) -> None:
    assert find_truncation(OPENING + "\n\n" + ending, "stop") is None


def test_sentences_taking_turns_four_times_to_the_end_are_a_loop_and_three_times_are_not() -> None:
    turns = "The fog came in from the bay. The keeper lit the lamp again. "
    found = find_repetition(OPENING + turns * 4 + "The fog came in fr")
    assert found is not None and found.kind == "sentence_loop" and found.repeats == 4
    assert find_repetition(OPENING + turns * 3) is None


def test_one_sentence_said_again_with_a_word_dropped_or_swapped_each_time_is_a_loop() -> None:
    said = ["the", "keeper", "climbed", "the", "stairs", "to", "light", "the", "lamp"]
    copies = [" ".join(said[:i] + said[i + 1 :]).capitalize() + "." for i in range(1, 8)]
    found = find_repetition(OPENING + " ".join(copies))
    assert found is not None and found.kind == "near_loop"
    steps = [
        f"- Step {n}: open the {part} panel and check the {part} settings."
        for n, part in enumerate(("sound", "display", "network", "power", "keyboard", "mouse", "printer"), 1)
    ]
    assert find_repetition(OPENING + "\n" + "\n".join(steps)) is None


def test_a_sentence_said_four_times_between_new_ones_in_a_paragraph_is_a_loop() -> None:
    # not lines of verse: the copies stand in one paragraph, each followed by something new
    said = "I will light the lamp tonight, whatever the sea and the sky say to me."
    news = ["The gulls went quiet.", "Fog came.", "A bell rang twice.", "Nobody answered."]
    found = find_repetition(" ".join(f"{said} {new}" for new in news))
    assert found is not None and found.kind == "sentence_loop"


@pytest.mark.parametrize(
    "steps",
    [
        "Open Format - Cells - Numbers tab. Open Format - Cells - Font tab. Open Format - Cells - Borders tab. "
        "Open Format - Cells - Background tab. Open Format - Cells - Alignment tab. "
        "Open Format - Cells - Protection tab. Open Format - Cells - Effects tab.",
        "Das Papier wird vom linken Rand des Schachts eingezogen. Das Papier wird von der Mitte des Schachts "
        "eingezogen. Das Papier wird vom rechten Rand des Schachts eingezogen. Das Papier wird vom oberen Rand "
        "des Schachts eingezogen. Das Papier wird vom unteren Rand des Schachts eingezogen. Das Papier wird "
        "quer vom linken Rand des Schachts eingezogen.",
    ],
)
def test_near_copies_that_name_a_new_item_each_time_are_an_enumeration_not_a_loop(steps: str) -> None:
    # documentation walks through menus and positions with one sentence template; sampling drift brings no
    # new words
    assert find_repetition(steps) is None
