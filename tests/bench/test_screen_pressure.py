"""The screen pressure tool (``bench/screen_pressure.py``) makes every opener and every joined reply a real
reply lends, each once, and counts what the screen fails among them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

import screen_pressure
from screen_pressure import Reply, cases, load, paragraph_starts, variants


def test_paragraph_starts_are_the_messages_and_the_line_breaks() -> None:
    text = "The gate creaked. Mara went in.\nA lamp burned. Then silence."
    assert paragraph_starts(text, None) == (0, 32)
    joined = "The gate creaked. Mara went in. A lamp burned."
    assert paragraph_starts(joined, ["The gate creaked. Mara went in.", "A lamp burned."]) == (0, 32)


def test_every_sentence_and_paragraph_start_opens_a_text_once() -> None:
    reply = Reply("story", "en", "The gate creaked. Mara went in.\nA lamp burned. Then silence.", (0, 32))
    after = Reply("story", "en", "Morning came.", (0,))
    made = list(variants(reply, after))
    assert made == [
        ("reply", reply.text),
        ("paragraph", "A lamp burned. Then silence."),
        ("sentence", "Mara went in.\nA lamp burned. Then silence."),
        ("sentence", "Then silence."),
        ("joined", reply.text + "\n\nMorning came."),
    ]


def test_sentences_are_cut_where_a_writer_ends_them() -> None:
    reply = Reply("help", "en", "Set it to 0.5, e.g. for the U.S. office. Then save.", (0,))
    assert [t for v, t in variants(reply, None) if v == "sentence"] == ["Then save."]


def test_joined_replies_are_of_one_locale_in_file_order_and_duplicates_go() -> None:
    rows = [Reply("s", "en", "One.", (0,)), Reply("s", "de", "Eins.", (0,)), Reply("s", "en", "Two.", (0,)),
            Reply("s", "en", "One.", (0,))]  # fmt: skip
    texts = [(c.locale, c.variant, c.text) for c in cases(rows, truncation=False)]
    assert ("en", "joined", "One.\n\nTwo.") in texts and ("en", "joined", "Two.\n\nOne.") in texts
    assert not any(v == "joined" and "Eins" in t for _, v, t in texts)
    assert len(texts) == len(set(texts))


def test_a_refusal_opening_a_later_sentence_is_counted(tmp_path: Path) -> None:
    path = tmp_path / "story_replies.jsonl"
    story = "The guard looked up from the fire, counted the riders on the ridge and said nothing for a while."
    rows = [{"locale": "en", "source": f"campaign{i}", "keys": ["a", "b"],
             "lines": [f"{story} Night {i} was cold, the wind kept at the tents and the horses would "
                       "not settle. Somebody sang by the wagons until the captain told him to stop.",
                       "I can't help you with this request."]} for i in range(8)]  # fmt: skip
    path.write_text("".join(json.dumps({**r, "text": " ".join(r["lines"])}) + "\n" for r in rows), "utf-8")
    replies = load(path, "dev")
    assert replies and all(r.locale == "en" for r in replies)
    failed = [c for c in cases(replies, truncation=True) if screen_pressure.judge(c) is not None]
    # out of the window in the whole reply (and the joined one), the refusal opens the second message and
    # comes near the start of the later sentences
    assert {c.variant for c in failed} == {"paragraph", "sentence"}
    assert all(screen_pressure.judge(c)[0] == "refusal" for c in failed)  # type: ignore[index]


def test_the_test_split_shows_no_text(capsys: object) -> None:
    sys.argv = ["screen_pressure.py", "--split", "test", "--show"]
    try:
        screen_pressure.main()
    except SystemExit as exit_:
        assert exit_.code == 2
    else:
        raise AssertionError("--show on the test split must be refused")


def test_runs_join_consecutive_replies_of_a_locale_into_long_replies_twice_cut() -> None:
    rows = [Reply("s", "en", f"Reply {i} of the page, " + "x" * 600 + ".", (0,)) for i in range(12)]
    rows.insert(3, Reply("s", "de", "Eins " + "y" * 600 + ".", (0,)))
    runs = list(screen_pressure.runs(rows))
    assert runs and all(r.locale == "en" for r in runs)
    for run in runs:
        parts = run.text.split(screen_pressure.JOINER)
        assert len(parts) >= screen_pressure.RUN_MIN_REPLIES
        numbers = [int(part.split()[1]) for part in parts]
        assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))  # consecutive, in file order
    # the first cut takes 2 KB first, the second 8 KB first: each reply lies in a run of each cut
    first = [r for r in runs if r.text.startswith("Reply 0 ")]
    assert sorted(len(r.text.split(screen_pressure.JOINER)) for r in first) == [4, 12]
    made = [c for c in cases(rows, truncation=False) if c.variant == "run"]
    assert [c.text for c in made] == [r.text for r in runs]
