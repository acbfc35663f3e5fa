"""The evaluation case generators (``bench/corpus/``) write text a model could write: they split a paragraph
into sentences where a writer ends one and keep every other character, so a decimal, a formula, an
abbreviation, a URL or a path is never broken by a space the generator invented."""

from __future__ import annotations

import base64
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import build_language_corpus
import fiction_cases
import judge_cases
from sentence_spans import insert_before, resplice, sentence_spans, sentences

SENTENCES = [
    'Set the weight to 0.5 and enter =SUM.IF(A1:A9;">0") in the cell, e.g. for the U.S. office.',
    "The template lives in /usr/share/templates/report.ots on every machine.",
    "Read https://help.example.org/calc/sum.if.html before you change it.",
    "Ask the admin if it fails.",
]
PARAGRAPH = " ".join(SENTENCES)
# Every way a generator that splits at each full stop and re-joins with spaces breaks the paragraph.
BROKEN = ["0. 5", "SUM. IF", "e. g.", "U. S.", "help. example", "report. ots", "sum. if", "if. html"]


def _unbroken(text: str) -> bool:
    return not any(b in text for b in BROKEN)


def test_sentences_end_where_a_writer_ends_them() -> None:
    assert sentences(PARAGRAPH) == SENTENCES
    assert all(PARAGRAPH[a:b] == s for (a, b), s in zip(sentence_spans(PARAGRAPH), SENTENCES, strict=True))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She met J. Smith there. Then she left.", ["She met J. Smith there.", "Then she left."]),
        ("Это т.е. пример. Да.", ["Это т.е. пример.", "Да."]),
        ("One.\nand two.", ["One.", "and two."]),  # a line break always ends one
        ("これは例です。次の文です。", ["これは例です。", "次の文です。"]),
    ],
)
def test_abbreviations_and_line_breaks(text: str, expected: list[str]) -> None:
    assert sentences(text) == expected


def test_rebuilding_keeps_every_gap() -> None:
    text = "First one.  Second one.\nThird one."
    spans = sentence_spans(text)
    assert resplice(text, spans, {1: "Zweiter."}) == "First one.  Zweiter.\nThird one."
    assert insert_before(text, spans, 2, "“Hi.”") == "First one.  Second one.\n“Hi.”\nThird one."
    assert resplice(text, spans, {}) == text


def test_documentation_cases_keep_the_paragraph_intact() -> None:
    rng = random.Random(5)
    donors = ["Une autre phrase assez longue, vraiment. Et encore une."]
    made = [
        *judge_cases.starts("en", PARAGRAPH, donors, rng),
        *judge_cases.repetitions(PARAGRAPH, rng),
        *judge_cases.dialogue_and_code("en", PARAGRAPH, "Eine ganz andere Zeile kommt hier. Zwei.", rng),
    ]
    assert all(_unbroken(text) for _, _, text in made)
    by_kind = {(kind, sub): text for kind, sub, text in made}
    first = SENTENCES[0]
    assert by_kind[("legit_start", "dialogue")] == f'"{first}" ' + " ".join(SENTENCES[1:])
    code = by_kind[("code_block", "")]
    assert code.startswith(" ".join(SENTENCES[:2]) + "\n\n```python\n")
    assert code.endswith("```\n\n" + " ".join(SENTENCES[2:]))
    quoted = by_kind[("quoted_dialogue", "")]
    assert "“Eine ganz andere Zeile kommt hier.”" in quoted
    assert quoted.replace(" “Eine ganz andere Zeile kommt hier.”", "") == PARAGRAPH


def test_documentation_mixing_swaps_whole_sentences() -> None:
    clean = {locale: [("doc/a.xml", PARAGRAPH)] for locale in build_language_corpus.LOCALES}
    mixed = [c["text"] for c in build_language_corpus.synthesise(clean, 7) if c["kind"] == "mixing"]
    assert mixed
    assert all(_unbroken(text) for text in mixed)
    assert all(set(sentences(text)) <= set(SENTENCES) for text in mixed)


def test_fiction_cases_keep_the_reply_intact(tmp_path: Path) -> None:
    vocab = tmp_path / "tiny.tiktoken"
    tokens = ["ly", "ation", "ного", "ます", "ού", "Ġx", "ally"]
    vocab.write_text("".join(f"{base64.b64encode(t.encode()).decode()} {i}\n" for i, t in enumerate(tokens)))
    pieces = fiction_cases.Pieces(vocab)
    rng = random.Random(3)
    made = list(fiction_cases.starts("en", PARAGRAPH, pieces, rng))
    assert all(_unbroken(text) for _, _, text in made)
    by_sub = {sub: text for kind, sub, text in made if kind == "legit_start"}
    assert by_sub["dialogue"] == f"“{SENTENCES[0]}” " + " ".join(SENTENCES[1:])
    assert by_sub["quoted_term"][1:].replace(by_sub["quoted_term"][0], "", 1) == PARAGRAPH
    keys = ["k1", "k2", "k3"]
    texts = {
        lang: {("s", k): "Oraciones cortas aquí. Otra más." for k in keys} for lang in fiction_cases.OTHERS
    }
    row = {"keys": keys, "source": "s", "text": PARAGRAPH}
    made = fiction_cases.switch_and_mixing("en", row, texts, random.Random(1))
    mixed = [text for kind, _, text in made if kind == "mixing"]
    assert mixed
    for text in mixed:
        assert _unbroken(text)
        assert set(sentences(text)) <= {*SENTENCES, "Oraciones cortas aquí.", "Otra más."}


@pytest.mark.parametrize(
    ("clean", "bad", "trace"),
    [
        ("the book “Sky over Macedonia” (2004)", "the book Sky over Macedonia (2004)", False),
        ("Hipparchus’ catalog and ‘Man’, he said", "Hipparchus catalog and Man, he said", False),
        ("“Who was it?” “Me.”", "Who was it? Me.", False),
        ("Mother Nature’s wonders", "Mother Natures wonders", True),  # a word glued
        ("the wretch — the monster", "the wretch  the monster", True),  # two spaces
        ("Trolls ha’ overrun the pass", "Trolls ha overrun the pass", True),  # an elision's mark
        ("“ Who", " Who", True),  # a line opening with a space
        ("a storm… Finally", "a storm Finally", True),  # not a quotation mark
        ("the name 仪象考成", "the name 隞芾情", True),  # characters that were not there
        ("unchanged", "unchanged", False),
    ],
)
def test_a_misreading_leaves_a_trace_unless_only_quotes_went(clean: str, bad: str, trace: bool) -> None:
    assert judge_cases.leaves_trace(clean, bad) is trace


def test_no_encoding_case_is_a_clean_text_without_its_quotation_marks() -> None:
    quoted = "Open the “Accounts” tab and choose “New”, then save the file to the disk."
    bare = quoted.replace("“", "").replace("”", "")
    dashed = quoted.replace("tab and", "tab — and")
    lossy = [
        bad
        for seed in range(60)
        for text in (quoted, dashed)
        for kind, sub, bad in [
            *judge_cases.encodings(text, random.Random(seed)),
            *fiction_cases.encodings("en", text, random.Random(seed)),
        ]
        if sub.endswith("/ignore")
    ]
    assert bare not in lossy
    assert bare.replace("tab and", "tab  and") in lossy  # the dash's two spaces are a trace
