# ruff: noqa: E501  (test data lines)
"""Degenerate loops fail; refrains, lists and short repeated interjections pass; truncated stories fail."""

from __future__ import annotations

import random
import re
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.contracts.reply_checks import screen
from exporter.language.repetition import (
    COMPRESS_MAX_RATIO,
    LONG_MIN_REPEATS,
    LOOP_MIN_REPEATS,
    LOOP_MIN_TOKENS,
    MAX_PERIOD,
    SHORT_PERIOD,
    TAIL_HEAD_MAX_RATIO,
    TAIL_MAX_RATIO,
    _compression,
    _says_new,
    _Spellings,
    _substitution,
    _words,
    find_repetition,
    tokenize,
)
from exporter.language.scripts import CJK_LETTERS
from exporter.language.truncation import find_truncation
from exporter.outcomes import Reason
from tests.fuzz_profile import examples

_TOKEN = re.compile(rf"[{CJK_LETTERS}]|[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")  # a CJK letter: one token

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
    # the text never ends on a finished sentence: the reply is never read as leaving a loop (``_leaves``),
    # so every run the walk finds counts
    tokens = before + unit[:MAX_PERIOD] * repeats + after + ["sea"]
    found = find_repetition(" ".join(tokens))
    loop = found if found is not None and found.kind == "token_loop" else None
    best = _longest_loop(tokens)
    assert (loop is not None) == (best is not None), (loop, best)
    if loop is not None and best is not None:
        assert loop.repeats == best[0] // best[1]


# Letters, digits, apostrophes, the underscore, marks, combining accents, letters casefold changes (ß, İ,
# ﬁ), Unicode spaces str.split and \\s both split at (NBSP, thin, ideographic, the ASCII separators).
_TRICKY = "aZé1٣_'’ -.,!?…\n\t\u00a0\u2009\u3000\x1c\x85\u0301ßİﬁΣς"


@settings(max_examples=examples(1000), deadline=None)
@given(
    st.text(st.one_of(st.sampled_from(_TRICKY), st.characters(exclude_categories=["Cs"])), max_size=120)
    | st.text(st.sampled_from(_TRICKY + "的ーか한"), max_size=120)
)
def test_tokenize_gives_the_token_pattern_s_tokens_of_the_casefolded_text(text: str) -> None:
    # the one-pattern definition ``tokenize`` replaces, on random text with and without CJK
    assert tokenize(text) == _TOKEN.findall(text.casefold())


# -- truncation at any length ------------------------------------------------------------------------------
LONG_STORY = STORY + (
    "The crew falls back to the rail, torches in hand, while the helmsman fights the wheel against the swell. "
    "Sparks drift over the water like fireflies, and somewhere below a cannon breaks loose and rolls. "
    "Mara feints high, steps inside the rival's guard and drives her back towards the mainmast. "
)


@pytest.mark.parametrize(
    "ending",
    [
        ".",
        "!",
        "?",
        "…",
        "...",
        "\n\n- a coil of rope\n- two lanterns",
        "\n\n1. Parry\n2. Riposte",
        "\n\n```python\nprint('en garde')\n```",
        " 😊",
        " ✨",
        "*",
        "**",
        "_",
        "\n\nTo Be Continued",
        "\n\n— Mara",
        " :)",
        " xD",
    ],
)
def test_a_story_that_ends_where_people_end_one_is_not_cut(ending: str) -> None:
    assert find_truncation(LONG_STORY.rstrip() + ending, "stop") is None
    assert screen(LONG_STORY.rstrip() + ending, "stop") is None


@pytest.mark.parametrize(
    "reply",
    [
        "“Steel rings on steel,” she said.",
        "(She lunges, and the deck shudders)",
        "„Ich kenne dich“, sagte sie. „Du bist die Kapitänin.“",
        "決闘が始まった。彼女は剣を抜いた。",
        "决斗开始了。她拔出了弯刀！",
        "「行くぞ」",
        "결투가 시작되었다. 그녀는 칼을 뽑았다.",
        "*She smiles and sheathes her cutlass*",
        "Will you yield?",
    ],
)
def test_closing_quotes_brackets_cjk_stops_questions_and_emphasis_end_a_reply(reply: str) -> None:
    assert find_truncation(reply, "stop") is None


@pytest.mark.parametrize(
    "reply",
    [
        LONG_STORY + "Then, as the smoke clears, the rival captain raises her",  # normal length, cut
        LONG_STORY + "She turns to the crew and shouts:",
        LONG_STORY + "Mara draws a breath, and",
        "決闘が始まった。燃える甲板の上で、彼女は剣を" * 3,
        LONG_STORY + "\n\n```python\nfor blade in blades:\n    print(blade)",  # a code block never closed
        LONG_STORY + "\n\nThe rival",  # a new paragraph cut after two words, not a title
    ],
)
def test_a_stop_reply_ending_mid_sentence_is_cut_whatever_its_length(reply: str) -> None:
    cut = find_truncation(reply, "stop")
    assert cut is not None and cut.kind == "mid_sentence"
    assert cut.as_evidence()["finish_reason"] == "stop"


def test_a_length_finish_far_below_the_budget_is_a_cut_and_a_spent_budget_is_not() -> None:
    short = "Steel rings on steel as Mara parries the first cut and answers with a low sweep, and her rival"
    assert len(short) < 120
    cut = find_truncation(short, "length", max_tokens=400)  # no token count: about 24 tokens by estimate
    assert cut is not None and cut.kind == "short_length" and cut.as_evidence()["max_tokens"] == 400
    reported = find_truncation(short, "length", max_tokens=400, completion_tokens=30)
    assert reported is not None and reported.completion_tokens == 30 and "30 of 400" in reported.describe()
    assert find_truncation(short, "length", max_tokens=400, completion_tokens=400) is None  # budget spent
    assert find_truncation(short, "length", max_tokens=None) is None  # budget unknown
    # without a count, about 24 tokens are under half of 60, not of 40
    assert find_truncation(short, "length", max_tokens=60) is not None
    assert find_truncation(short, "length", max_tokens=40) is None


def test_screen_reply_reads_the_budget_and_the_hosts_count_and_leaves_hidden_reasoning_alone() -> None:
    from exporter.contracts.reply_checks import screen_reply
    from exporter.gateway.types import ChatResult
    from exporter.outcomes import Usage

    short = "Steel rings on steel as Mara parries the first cut and her rival"
    cut = screen_reply(ChatResult(content=short, finish_reason="length", usage=Usage(10, 25)), 400)
    assert cut is not None and cut.reason is Reason.TRUNCATION
    spent = ChatResult(content=short, finish_reason="length", usage=Usage(10, 400))
    assert screen_reply(spent, 400) is None
    thinking = ChatResult(content=short, finish_reason="length", reasoning="Let me think about the duel...")
    assert screen_reply(thinking, 400) is None  # reasoning with no token count: the budget may be spent


# -- repetition on windows, CJK included, and what legitimately repeats -------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        LONG_STORY * 2 + "and the sea and the sea and the sea " * 12,  # the last quarter loops
        "燃える甲板の上で、彼女は剣を抜いた。" + "そして彼女は" * 40,  # a Japanese n-gram loop
        "決闘が始まった。" + "剣と剣がぶつかり合い、火花が散った" * 8,  # a 17-character unit, no stop
        " ".join(
            f"Kapitan podnosi szablę, a pokład drży pod jej stopami, gdy ogień sięga masztu. Fala {n} uderza."
            for n in range(9)
        ),  # a multi-clause Polish sentence said 9 times among others
    ],
)
def test_loops_in_the_last_quarter_cjk_loops_and_a_sentence_said_nine_times_are_found(text: str) -> None:
    assert find_repetition(text) is not None


@pytest.mark.parametrize(
    "text",
    [
        # a poem with a chorus: three verses, the chorus after each
        "\n\n".join(
            f"{verse}\n\nYo ho, the sea is wide, and we shall sail it, you and me.\nThe wind is cold, the night is long."
            for verse in (
                "We left the harbour at the break of day.",
                "The storm came up and tore the sails away.",
                "We found the isle where the old captain lay.",
            )
        ),
        # dialogue with the speakers' names on every line
        "\n".join(f"{('Mara', 'Kalenz')[n % 2]}: {line}" for n, line in enumerate(LONG_STORY.split(". "))),
        # a list whose items share an opening
        "\n".join(
            f"- She took the {item}." for item in ("sword", "shield", "rope", "lantern", "map", "compass")
        ),
        # a refrain said three times among other sentences
        "Never again. The deck burned. Never again. The mast fell. The crew ran. Never again.",
        # a rule of dashes and an ellipsis line are decoration
        STORY + "\n\n" + "-" * 80 + "\n\n" + STORY.replace("Steel", "Iron") + "\n\n" + ". " * 40,
    ],
)
def test_choruses_dialogue_lists_refrains_and_rules_pass(text: str) -> None:
    assert find_repetition(text) is None


# -- designed repetition in documentation: the same sentence after a different item each time ------------------
HINT = "Leave this box empty to keep the default."


@pytest.mark.parametrize(
    "text",
    [
        # one instruction repeated after each field's description
        " ".join(
            f"Sets the {field} of the printed page. {HINT}"
            for field in ("top margin", "bottom margin", "gutter width", "paper height")
        ),
        # one menu path, a different last item after it each time
        " ".join(
            f"Choose Tools - Options… - {item}."
            for item in ("Writer - Fonts", "Writer - Grid", "Calc - Sort Lists", "Calc - Formula", "Paths")
        ),
        # a menu entry alone, then with each of its tabs: the piece after the ellipsis continues the path
        " ".join(
            f"Choose File - Wizards - Fax…{tab}."
            for tab in ("", " - Tab: Page Design", " - Tab: Items", " - Tab: Sender", " - Tab: Footer")
        ),
    ],
)
def test_a_sentence_repeated_after_a_different_item_each_time_passes(text: str) -> None:
    assert find_repetition(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the same sentence said back to back
        f"Sets the top margin of the printed page. {HINT} {HINT} {HINT} {HINT}",
        # taking turns with one other sentence
        f"Sets the top margin of the printed page. {HINT} Sets the width. {HINT} Sets the width. {HINT} "
        f"Sets the width. {HINT}",
        # between the copies only a number that counts up
        " ".join(f"Step {n}. {HINT}" for n in range(1, 6)),
        # a sentence with no word to compare (numbers with suffixes) is judged as it is
        " ".join(f"Item {n}. 1st 2nd 3rd 4th 5th 6th." for n in "abcde"),
    ],
)
def test_a_sentence_repeated_with_nothing_new_between_its_copies_still_loops(text: str) -> None:
    found = find_repetition(text)
    assert found is not None and found.kind in ("sentence_loop", "token_loop", "near_loop"), found


def test_a_sentence_s_words_leave_out_marks_and_tokens_holding_a_digit() -> None:
    # the near-copy and the designed-repetition checks read the same words: a counter (4, v2, 4th) is none
    assert _words("Day 4: don't open v2 (the 4th door).") == ["day", "don't", "open", "the", "door"]
    assert _words("我々は 2 回") == ["我", "々", "は", "回"]


def test_copies_separated_by_one_sentence_whose_counter_counts_up_are_a_sentence_loop() -> None:
    # what is said between the copies differs only in a version number: nothing new, so no design
    said = "I will light the lamp tonight, whatever the sea and the sky say to me."
    text = " ".join(f"{said} The notes of build v{n} list every change we made." for n in range(2, 7))
    found = find_repetition(text)
    assert found is not None and found.kind == "sentence_loop"


def test_a_short_label_before_each_new_item_is_a_frame_not_a_loop() -> None:
    items = ["General", "View", "Print", "Paths", "Colours", "Fonts", "Security", "Advanced", "Memory"]
    framed = " ".join(
        f"Field {item} - the {item.lower()} line of the address. Not used for vendors." for item in items
    )
    assert find_repetition(framed) is None
    # the same label with only a word or two between its copies: the copies outweigh the items, a loop
    assert find_repetition(" ".join(f"{item}. Not used for vendors." for item in items)) is not None


def test_a_multi_clause_sentence_said_nine_times_among_new_ones_still_loops() -> None:
    # among new sentences of a story (not the items of one list: see the test after each item of one list)
    others = ["The north road was empty that morning.", "A dog barked somewhere behind the mill.",
              "Her boots were still wet from the ford.", "Smoke rose over the chapel roof.",
              "Nobody had fed the horses.", "The innkeeper swore at his cellar boy.", "It began to rain.",
              "Two crows fought over a crust on the well.", "She counted the coins twice."]  # fmt: skip
    copy = "When the bell rang, the keeper closed the gate, and nobody came."
    text = " ".join(part for other in others for part in (copy, other))
    found = find_repetition(text)
    assert found is not None and found.kind == "sentence_loop"


def test_a_template_naming_a_new_item_each_time_is_no_near_copy_loop() -> None:
    slots = ["first derivative", "second derivative", "integral", "parameter curve", "polar plot", "inverse",
             "tangent"]  # fmt: skip
    text = " ".join(f"Returns the line width of the {slot} of the function with this id. "
                    "If the function does not exist, zero is returned." for slot in slots)  # fmt: skip
    assert find_repetition(text) is None
    # the same sentences with nothing new: a loop
    looped = " ".join("Returns the line width of the graph of the function with this id. If the function "
                      "does not exist, zero is returned." for _ in slots)  # fmt: skip
    assert find_repetition(looped) is not None


def _table_rows(quantities: tuple[str, ...], components: tuple[str, ...]) -> str:
    return " ".join(
        f"Sets a change in the default {quantity} of the {component} component. Zero means no change, values "
        "below zero mean a decrease and values above zero mean an increase."
        for quantity in quantities
        for component in components
    )


def test_a_table_template_saying_a_new_combination_each_time_is_no_near_copy_loop() -> None:
    # every item is named in the first rows; the later rows pair them anew (contrast with each colour)
    assert find_repetition(_table_rows(("brightness", "contrast"), ("blue", "green", "red"))) is None
    # the same rows with no new pairing: two rows taking turns, a loop
    looped = (
        _table_rows(("brightness",), ("blue", "green"))
        + " "
        + _table_rows(("brightness",), ("blue", "green")) * 2
    )
    found = find_repetition(looped)
    assert found is not None and found.kind in ("near_loop", "sentence_loop"), found


def test_a_loop_s_copies_with_words_dropped_doubled_or_swapped_say_no_new_combination() -> None:
    copies = [
        "the keeper walks the wall and counts the lamps one by one.",
        "the keeper walks the wall and counts the lamps by one.",
        "the keeper walks the the wall and counts the lamps one by one.",
        "the keeper walks wall the and counts the lamps one by one.",
    ]
    text = " ".join(copies * 3)
    assert not _says_new(text, len(text.split()))
    assert find_repetition(text) is not None


WIZARD = "In LibreOffice Draw or LibreOffice Impress, choose File - Export, select the HTML file type, page {n} of the wizard."


def test_near_copies_the_reply_leaves_with_a_new_finished_sentence_are_no_loop() -> None:
    pages = " ".join(WIZARD.format(n=n) for n in range(1, 7))
    # a loop runs to the end of the reply: one that ends on something new has left the copies
    assert (
        find_repetition(
            pages + " Choose File - Export; with a graphics file type the dialog opens after Save."
        )
        is None
    )
    # ending on a copy, or on a copy the budget cut, it is still a loop (a counter that counts up)
    assert find_repetition(pages) is not None
    assert find_repetition(pages + " " + WIZARD.format(n=7)[:60]) is not None


def test_menu_paths_continued_after_an_ellipsis_are_no_copies_of_each_other() -> None:
    items = [
        "General",
        "View",
        "Calculate",
        "Compatibility",
        "Sort Lists",
        "Formula",
        "Defaults",
        "Print",
        "Grid",
    ]
    path = "Open a spreadsheet document, choose Tools – Options… – LibreOffice Calc – {item}."
    assert find_repetition(" ".join(path.format(item=item) for item in items)) is None
    # the same path to the same item nine times among other sentences is a loop
    looped = " ".join(f"{path.format(item='View')} The {item.lower()} page opens." for item in items)
    assert find_repetition(looped) is not None


def test_a_table_s_rows_that_differ_only_in_a_number_among_others_are_designed() -> None:
    rows = (
        ["Ship-to name - Shipping information - Name"]
        + [f"Ship-to address {n} - Shipping information - Address line {n}" for n in range(1, 5)]
        + [f"Ship-to {field} - Shipping information - {field}" for field in ("phone", "fax", "email")]
    )
    assert find_repetition(" ".join(f"{row}. Optional. Not relevant for vendors." for row in rows)) is None
    # the rows with only their numbers between the copies: a counter loop
    counter = " ".join(f"Ship-to address {n}. Not relevant for vendors." for n in range(1, 9))
    assert find_repetition(counter) is not None


def test_copies_that_misspell_a_name_say_nothing_new() -> None:
    # sampling misspells a copy late in the loop (a letter doubled, dropped or swapped): still the same loop
    said = "Haldric stood at the gate of the old keep."
    misspelt = [
        said.replace("Haldric", "Halldric"),
        said.replace("Haldric", "Hadlric"),
        said.replace("keep", "kep"),
    ]
    text = "The night was long and the rain did not stop. " + " ".join([said] * 6 + misspelt)
    assert not _says_new(text, len(text.split()))
    assert find_repetition(text) is not None
    # a template's items are other words, not misspellings
    assert _says_new(_table_rows(("brightness", "contrast"), ("blue", "green", "red")), 180)


def test_a_word_longer_than_the_spelling_bound_is_compared_as_it_is() -> None:
    spelled = _Spellings()
    long_word = "abcdefghij" * 5  # longer than SPELLING_MAX_LETTERS: no letter-left-out variants built
    assert spelled.first(long_word) == long_word
    assert spelled.first(long_word[:-1] + "x") == long_word[:-1] + "x"
    assert spelled.first("haldric") == "haldric" and spelled.first("halldric") == "haldric"


def test_a_template_s_slot_filled_with_the_template_s_own_words_is_an_enumeration() -> None:
    # each copy puts another item where the copy before it had one: some items are named with words the
    # template already has (``More Fields``, ``Fields``), which is no new word but is a new item
    items = ["Variables", "Document", "Fields", "Functions", "More Fields", "Document Fields"]
    paths = [f"Choose Insert - Fields - More Fields - {item} tab." for item in items]
    assert find_repetition(" ".join(paths)) is None
    # the same paths taking turns between two items: no new item after the first two, a loop
    turns = [paths[1], paths[3]] * 4
    assert find_repetition(" ".join(turns)) is not None


def test_a_substitution_puts_other_words_in_place_and_sampling_s_changes_do_not() -> None:
    before = ["choose", "file", "new", "cards", "medium", "tab"]
    assert _substitution(before, ["choose", "file", "new", "cards", "business", "cards", "tab"]) == (
        ("medium",),
        ("business", "cards"),
    )
    base = ["the", "keeper", "walks", "the", "wall", "and", "counts", "the", "lamps"]
    assert _substitution(base, base[:3] + base[4:]) is None  # a word dropped: one side empty
    assert _substitution(base, base[:3] + base[3:4] * 2 + base[4:]) is None  # a word doubled
    assert _substitution(base, [*base[:3], base[4], base[3], *base[5:]]) is None  # two words swapped
    # a space moved into a word: other words, the same letters
    assert _substitution(["the", "eldaric", "gate"], ["the", "e", "ldaric", "gate"]) is None


def test_near_copies_ending_on_a_finished_copy_that_names_a_new_item_have_left_the_loop() -> None:
    step = "In form design mode click the Group Box icon on the toolbar and draw a frame with the mouse"
    pages = [f"{step} - Wizard page {n}." for n in range(1, 7)]
    # the template's last item brings words no copy had: the enumeration ends, the reply left the copies
    assert find_repetition(" ".join([*pages, f"{step} - Last page of the wizards."])) is None
    # a copy that only moves a space (``dra w``) makes new words of old letters: still a loop
    moved = f"{step.replace('draw', 'dra w')} - Wizard page 7."
    assert find_repetition(" ".join([*pages, moved])) is not None


def _reference(template: str, items: list[str]) -> str:
    return " ".join(template.format(item=item) for item in items)


def test_a_last_quarter_as_repetitive_as_the_rest_is_no_compression_loop() -> None:
    # documentation repeating its phrasing from its first line to its last: the last quarter compresses
    # under TAIL_MAX_RATIO, and so does the rest of the reply (the whole reply is over COMPRESS_MAX_RATIO)
    rng = random.Random(9)
    names = [
        "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(48)
    ]
    verbs = ["Sets", "Returns", "Shows", "Hides"]
    reference = " ".join(
        f"Choose Tools - Options - {rng.choice(names).title()} - {name}. {rng.choice(verbs)} the {name} of the "
        "selected frame; the value is kept with the document."
        for name in names
    )
    raw = reference.encode()
    tail = raw[-(len(raw) // 4) :]
    assert len(zlib.compress(raw, 6)) >= COMPRESS_MAX_RATIO * len(raw)
    assert len(zlib.compress(tail, 6)) < TAIL_MAX_RATIO * len(tail)
    assert find_repetition(reference) is None
    # prose, then a 40-word unit looping over the last quarter and more: far more repetitive than the prose
    prose = " ".join(
        " ".join(rng.choice(names) for _ in range(rng.randrange(6, 14))).capitalize() + "." for _ in range(60)
    )
    unit = " ".join(rng.choice(names) for _ in range(40))
    assert _compression(prose + " " + " ".join([unit] * 12)) is not None


def test_a_reply_ending_on_a_refrain_line_it_wrote_before_is_not_cut() -> None:
    # stanzas of long lines (not verse by their length) each closed by the same refrain line, no marks
    stanza = (
        "We left the harbour when the morning bells were ringing over the grey and sleeping town\n"
        "and the gulls came screaming after us as far as the last of the lighthouse rocks"
    )
    song = f"{stanza}\nHeave away my bonny lads\n\n{stanza.replace('morning', 'evening')}\nHeave away my bonny lads"
    assert find_truncation(song, "stop") is None
    # the refrain cut short: no earlier line ended there
    assert find_truncation(song[:-6], "stop") is not None


QUOTES = [
    "The desert grows; woe to him who hides deserts within him! The stones grind upon stones, and the desert "
    "swallows and strangles.",
    "He who would learn to fly one day must first learn to stand and walk and run and climb and dance. One "
    "cannot fly into flying.",
    "One must still have chaos in oneself to be able to give birth to a dancing star. I tell you: you still "
    "have chaos in yourselves.",
    "There is always some madness in love, but there is also always some reason in madness. And to me also, "
    "who love life, butterflies seem most to enjoy happiness.",
    "Whoever fights monsters should see to it that in the process he does not become a monster. And when you "
    "look long into an abyss, the abyss also looks into you.",
    "That which does not kill us makes us stronger, or so the old soldiers at the gate liked to say when the "
    "winter came down from the passes.",
    "Without music, life would be a mistake, and the tavern on the hill knew it better than anyone, for its "
    "fiddler played every night until the candles died.",
    "The higher we soar, the smaller we appear to those who cannot fly, said the eagle to the crow, and the "
    "crow laughed at him from the branch of the old oak.",
    "In individuals, insanity is rare; but in groups, parties, nations and epochs, it is the rule. So the "
    "hermit stayed on his mountain for another ten years.",
    "All truly great thoughts are conceived while walking, far from the desk and the lamp and the ink, on the "
    "paths that wind along the lake below the village.",
]
ATTRIBUTION = 'Friedrich Nietzsche, "Thus Spoke Zarathustra".'


def test_a_sentence_said_after_each_item_of_a_list_is_no_loop_however_often_it_is_said() -> None:
    # an attribution after each quotation, ten times: every stretch between its copies is new and the
    # copies are under a quarter of what they span
    quoted = " ".join(f"{quote} {ATTRIBUTION}" for quote in QUOTES)
    assert find_repetition(quoted) is None
    assert find_repetition("\n\n".join(f"{quote} {ATTRIBUTION}" for quote in QUOTES)) is None
    # the same sentence after one short new sentence each time: the copies outweigh a quarter, a loop
    short = " ".join(f"{quote.split(',')[0].split(';')[0][:24]}. {ATTRIBUTION}" for quote in QUOTES)
    found = find_repetition(short)
    assert found is not None and found.kind == "sentence_loop"
    # the same long stretch twice between the copies: not every one new, a loop
    again = " ".join(f"{quote} {ATTRIBUTION}" for quote in [*QUOTES[:5], QUOTES[4], *QUOTES[6:]])
    found = find_repetition(again)
    assert found is not None and found.kind == "sentence_loop"


_PROFILE = (
    "The acceleration profile used for the {device}. The profile can be set either to the default one, which "
    "uses the profile of each device, or to a flat one, which accelerates by a constant factor derived from "
    "the configured pointer speed, or to an adaptive one, which adapts the acceleration to the movement. If "
    "the {device} does not support the configured profile, the default one is used."
)


def _prose(rng: random.Random, sentences: int) -> str:
    names = [
        "".join(rng.choice("bcdfghklmnprstvz") + rng.choice("aeiou") for _ in range(3)) for _ in range(90)
    ]
    return " ".join(
        " ".join(rng.choice(names) for _ in range(rng.randrange(6, 14))).capitalize() + "."
        for _ in range(sentences)
    )


def test_a_last_quarter_filling_a_template_s_slots_is_no_compression_loop() -> None:
    rng = random.Random(21)
    devices = ["mouse", "touchpad", "pointing stick", "trackball", "graphics tablet", "drawing pen",
               "touch screen", "joystick", "foot pedal", "eye tracker", "head mouse"]  # fmt: skip
    options = _prose(rng, 40) + "\n\n" + "\n\n".join(_PROFILE.format(device=device) for device in devices)
    raw = options.encode()
    tail, head = raw[-(len(raw) // 4) :], raw[: len(raw) // 4]
    ratio = len(zlib.compress(tail, 6)) / len(tail)
    assert ratio < TAIL_MAX_RATIO and ratio < TAIL_HEAD_MAX_RATIO * len(zlib.compress(head, 6)) / len(head)
    assert _compression(options) is None  # each paragraph names a new device
    # the same paragraph for one device over and over: nothing new in the last quarter, a loop
    looped = _prose(rng, 40) + "\n\n" + "\n\n".join(_PROFILE.format(device="mouse") for _ in devices)
    assert _compression(looped) is not None


def test_a_last_quarter_pairing_a_template_s_values_anew_is_no_compression_loop() -> None:
    # a table's rows pairing the same few values anew (each quantity with each colour) after an
    # introduction: no new word in the second half of the last quarter, but new combinations of them
    rng = random.Random(5)
    intro = _prose(rng, 30) + "\n\n"
    quantities, components = (
        ("brightness", "contrast", "saturation", "gamma"),
        ("blue", "green", "red", "alpha"),
    )
    row = "Sets the {} of the {} component for the selected layer, from zero to one hundred per cent."
    table = " ".join(row.format(quantity, component) for quantity in quantities for component in components)
    raw = (intro + table).encode()
    tail = raw[-(len(raw) // 4) :]
    assert len(zlib.compress(tail, 6)) < TAIL_MAX_RATIO * len(tail)
    assert _compression(intro + table) is None
    # two of its rows taking turns to the end: no new combination, a loop
    looped = " ".join(row.format("gamma", component) for component in components[:2] * 8)
    assert _compression(intro + table + " " + looped) is not None


def test_a_loop_misspelling_short_words_in_the_last_quarter_fills_no_slot() -> None:
    # a sentence looping over the last quarter after an introduction, its last copies with a letter dropped
    # from a short word (``ui``, ``id`` after ``uid``: pieces of a word said before, not new words)
    rng = random.Random(3)
    said = 'The "uid" field holds the effective UID of the socket creator.'
    copies = [said] * 10 + [said.replace("uid", "ui", 1), said, said.replace("uid", "id", 1)]
    text = _prose(rng, 24) + "\n\n" + " ".join(copies)
    assert _compression(text) is not None


def test_a_cjk_loop_dropping_characters_after_a_latin_word_fills_no_slot() -> None:
    # a Japanese sentence looping over the last quarter, each copy a character short; ``POSIX`` glued to the
    # characters after it is one token, so each copy's would be a new word: its characters are compared
    said = "また、この値は、POSIX形式のタイムゾーン環境変数の処理においてタイムゾーンファイルが使われる際にも利用される。"
    copies = [said[:at] + said[at + 1 :] for at in range(13, 37)]
    intro = _prose(random.Random(7), 20) + "\n\n"
    raw = (intro + "".join(copies)).encode()
    assert len(zlib.compress(raw[-(len(raw) // 4) :], 6)) < TAIL_MAX_RATIO * (len(raw) // 4)
    assert _compression(intro + "".join(copies)) is not None


_ACCESSOR = (
    "Returns the {name} of the selected frame as a number in the unit chosen under Tools - Options - General, "
    "and sets the {name} of the selected frame when a number is given as its second argument, the value being "
    "kept with the document."
)


def test_a_reference_naming_a_new_item_in_each_entry_is_no_whole_reply_compression_loop() -> None:
    # one long template per entry around a new name: the whole reply compresses under COMPRESS_MAX_RATIO,
    # and its second half names items its first half never did
    names = ["width", "height", "depth", "margin", "padding", "border", "shadow", "angle", "opacity",
             "weight", "spacing", "indent"]  # fmt: skip
    reference = " ".join(_ACCESSOR.format(name=name) for name in names)
    raw = reference.encode()
    assert len(zlib.compress(raw, 6)) < COMPRESS_MAX_RATIO * len(raw)
    assert _compression(reference) is None
    assert find_repetition(reference) is None
    # the same entries once, then the first one over and over: the second half says nothing new, a loop
    looped = " ".join(_ACCESSOR.format(name=name) for name in [*names[:3], *["width"] * 12])
    found = _compression(looped)
    assert found is not None and found.kind == "compression"


CUSTOM = "If you are defining a custom format, enter a value here."
DIMENSIONS = ["width", "height", "left margin", "top margin", "horizontal pitch", "vertical pitch",
              "number of columns", "number of rows", "page width", "page height"]  # fmt: skip


def test_a_sentence_said_after_each_item_of_one_list_is_no_loop_however_often_it_is_said() -> None:
    # an instruction after each dimension of a label, ten times: the items are as long as the copies (no
    # ``items`` by length), but written on one template, most of them naming a new value
    fields = " ".join(
        f"Displays the {name} for the label or the business card. {CUSTOM}" for name in DIMENSIONS
    )
    assert find_repetition(fields) is None
    # the same sentence between prose sentences (a sampler coming back to it): a loop
    prose = ["The caravan left the oasis before dawn.", "Nadia rode at the back, counting camels.",
             "By noon the wind had risen.", "The guide tied a scarf over his mouth.", "Nobody argued with him.",
             "They drank less and walked faster.", "A city appeared on the horizon.", "Or perhaps a storm.",
             "The merchant cursed his ledger."]  # fmt: skip
    found = find_repetition(" ".join(f"{CUSTOM} {sentence}" for sentence in prose))
    assert found is not None and found.kind == "sentence_loop"
    # between near-copies of one sentence that name nothing new (a word dropped, doubled or swapped): a loop
    rode = "The knight rode on through the dark forest."
    drifts = [rode, rode.replace(" on", ""), rode.replace("dark forest", "forest dark"), rode[4:].capitalize(),
              rode.replace("on", "on on"), rode.replace("the dark", "dark"), rode.replace("The", "The the"),
              rode.replace("rode on", "on rode"), rode.replace("forest", "forest forest")]  # fmt: skip
    found = find_repetition(" ".join(f"{CUSTOM} {sentence}" for sentence in drifts))
    assert found is not None and found.kind == "sentence_loop"
    # between items that differ only in a counter: a loop
    found = find_repetition(" ".join(f"{CUSTOM} Step {n}: check the dark forest." for n in range(9)))
    assert found is not None and found.kind == "sentence_loop"


def test_a_sentence_said_four_times_after_short_items_of_one_list_is_no_loop() -> None:
    # an instruction after each of five short fields: the items, on one template and each naming a new value,
    # are under half as long as the copies (no ``designed`` by length), which cover most of the reply
    said = "If you are defining a custom format for your own sheets, enter a value here."
    fields = ["width", "height", "left margin", "top margin", "pitch"]
    text = "Labels are printed on sheets. " + " ".join(
        f"Sets the {name} of the label. {said}" for name in fields
    )
    assert find_repetition(text) is None
    # the same field each time, or one that differs only in a counter: nothing new between the copies, a loop
    for item in ("Sets the width of the label.", "Sets the width {n} of the label."):
        looped = "Labels are printed on sheets. " + " ".join(f"{item.format(n=n)} {said}" for n in range(5))
        found = find_repetition(looped)
        assert found is not None and found.kind in ("sentence_loop", "token_loop")
    # the same sentence between prose sentences four times: a loop
    prose = ["The caravan left the oasis.", "Nadia rode at the back.", "The wind rose.", "Nobody argued."]
    found = find_repetition(" ".join(f"{sentence} {said}" for sentence in prose))
    assert found is not None and found.kind == "sentence_loop"


# -- an emphatic repeat the reply goes on from, and the loop it is not ------------------------------------------
HUBUB = ", ".join(["hubub"] * 14) + "."
CHANT = "They are coming. " * 4


@pytest.mark.parametrize(
    "text",
    [
        # a word said over and over for effect, then the story goes on at more length than the chant
        STORY + HUBUB + ' "These are dark times for all of us," the herald cries from the steps of the hall, '
        "and the crowd falls silent as the bell tolls over the harbour.",
        # a stutter, then the line goes on
        "The smith shouts: " + "Sch… " * 14 + "Scheiße, that will be a shovel, not a hammer! The apprentice "
        "drops his tongs, laughs and walks out into the snow without a word to anyone in the forge.",
        # a line said four times for effect among the sentences of a story, the story going on after it
        # (the copies over 40 % of what follows the first: the story after them is short, but longer than they)
        "Ashes like to be taken for extinct volcanoes. " + "Leave the church now. " * 4 + "Every sweet thing "
        "has its bitterness, every bitter thing its sweetness, every evil its good. So it goes.",
        "Ворота скрипят. "
        + "Они уже идут сюда. " * 5
        + "Мара поднимает саблю, и палуба дрожит под ногами, пока "
        "ветер рвёт паруса и гонит корабль к берегу. Пусть они сами идут.",
    ],
)
def test_an_emphatic_repeat_the_reply_goes_on_from_is_no_loop(text: str) -> None:
    assert find_repetition(text) is None


@pytest.mark.parametrize(
    "text",
    [
        # the same repeats running to the end of the reply
        STORY + HUBUB * 2,
        STORY + CHANT,
        "Ворота скрипят. Мара поднимает саблю. " + "Они уже идут сюда. " * 5,
        # ... or followed by less new text than the loop holds: a sampler's short way out
        STORY + ", ".join(["hubub"] * 30) + ". The end.",
        STORY + "Leave the church now. " * 6 + "Then silence.",
        # ... or followed by a sentence that says nothing the loop did not (its copy cut and resumed)
        STORY + HUBUB + " " + ", ".join(["hubub"] * 20) + ", HUBUB.",
        # ... or by new words with no end: the budget cut the reply, which may still be in the loop
        STORY + HUBUB + " The herald cries from the steps of the hall and the crowd falls silent as the bell",
        # a loop inside the reply's last sentence, however much that sentence goes on to say
        STORY + "and the " * 30 + "crowd falls silent as the bell tolls over the harbour and the herald "
        "cries from the steps of the great hall that the king has fallen in the north at last.",
    ],
)
def test_the_same_repeats_with_no_new_text_after_them_still_loop(text: str) -> None:
    assert find_repetition(text) is not None
