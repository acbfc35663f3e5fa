"""Repetition and truncation cases in the shapes serving stacks produce, and replies that only look like them.

Usage::

    .venv/bin/python bench/corpus/loop_cases.py --split dev
    .venv/bin/python bench/corpus/loop_cases.py --split dev --show "rep counter" --limit 5

Reads clean human-written replies (JSONL ``{"locale", "source", "text"}``; by default the fiction, game and
help sets under ``bench/results/``), keeps the 17 locales and the split's sources (``judge_cases.split_of``),
and makes from each reply one case of every shape below, each screened as ``screen_reply`` screens a probe
reply (``exporter/contracts/reply_checks.py``). This generator shares no code or template with
``bench/screen_eval.py``: its shapes are the ones that one does not draw.

Must fail (``rep`` and ``cut``):

- ``rep alternate2`` / ``rep alternate3``: the reply, then two or three of its sentences alternating until
  the budget ends; ``rep counter``: one sentence said again and again behind a number that counts up
  (``Day 3 …``, ``4. …``, ``(5) …``); ``rep varied``: a phrase repeated with the small changes temperature
  sampling makes (a word dropped, doubled or swapped with its neighbour, a mark changed); ``rep flood``: one
  character or a short syllable over and over (``。。。``, ``!!!!``, ``…``, ``hahaha``, ``哈哈``, ``ㅋㅋ``)
  after the reply; ``rep mid_sentence``: a sentence broken off and its last few words repeated from there;
  ``rep long_tail``: a reply of 4,000-16,000 characters whose last quarter is a loop of a phrase or of a
  sentence; ``rep whitespace``: the reply, then a flood of line breaks or spaces;
- ``cut mid_word``, ``cut mid_number``, ``cut in_quote``, ``cut in_emphasis``, ``cut in_code``,
  ``cut after_comma``, ``cut new_paragraph``, ``cut list_item``, ``cut cjk_clause`` with finish ``stop``;
  ``cut length_share`` with finish ``length`` at 2-45 % of ``max_tokens`` (the host's token count given),
  ``cut length_unreported`` the same without a token count.

Must pass (``ctl``): the reply as is; a poem with a refrain and no full stops; a song whose chorus is sung
three times; a chant said three times in the story; a list of parallel steps (``- Step 1: …``); a table
with repeated cells; code with repeated and numbered lines; a dialogue of short repeated replies
(``"No."``); the reply ending with a list, a code block, an emoji, a URL, a heading, a signature, a table,
a hashtag; a ``length`` finish at 90-100 % of the budget; a long reply (4,000-16,000 characters) as is.

Prints per kind the share screened out (recall for ``rep``/``cut``, false-fail for ``ctl``), then per
locale.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_sets import RESULTS
from judge_cases import print_recall_table, record, split_of

from exporter.contracts.reply_checks import screen
from exporter.language.locales import DEFAULT_LOCALES

SETS = ("fiction_replies", "games_replies", "help_paragraphs")
EAST_ASIAN = frozenset({"ja", "ko", "zh-Hans", "zh-Hant"})
IDEOGRAPH = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]")
PIECE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]|\w+|[^\w\s]")
# sentence ends: after . ! ? … and the full-width marks, with any closing quote or bracket
STOP = re.compile(r"[^.!?…。！？]+[.!?…。！？]+[\"'”’»)」』]*", re.S)
OPEN_CLOSE = {"en": ("“", "”"), "de": ("„", "“"), "fr": ("« ", " »"), "ru": ("«", "»"), "uk": ("«", "»"),
              "pl": ("„", "”"), "ja": ("「", "」"), "zh-Hant": ("「", "」"), "zh-Hans": ("“", "”"),
              "ko": ("“", "”"), "es": ("«", "»"), "it": ("«", "»"), "pt-BR": ("“", "”")}  # fmt: skip
FLOODS = ("。", "!", "？", "…", ".", "!?", "ha", "哈", "ㅋ", "w", "lol ", "ー", "~")
EMOJI = ("🙂", "🎉", "🔥", "🌙✨", "🐉")


@dataclass(frozen=True, slots=True)
class Case:
    kind: str
    locale: str
    text: str
    finish: str
    max_tokens: int
    completion_tokens: int | None


def tokens_in(text: str) -> int:
    """An estimate of a tokenizer's count: a CJK character or a mark is a token, a word about 1.3."""
    count = 0.0
    for piece in PIECE.findall(text):
        count += 1.3 if piece[0].isalnum() and len(piece) > 1 else 1.0
    return max(1, round(count))


def sentences_of(text: str) -> list[str]:
    found = [m.group().strip() for m in STOP.finditer(text)]
    return [s for s in found if len(s) >= 8]


def sep(locale: str) -> str:
    return "" if locale in EAST_ASIAN else " "


def _budget_case(kind: str, locale: str, text: str, finish: str = "length") -> Case:
    """A reply that ran into the budget: ``max_tokens`` just above the tokens it holds."""
    spent = tokens_in(text)
    return Case(kind, locale, text, finish, spent + 2, spent + 2)


def must_fail(locale: str, text: str, long: str, rng: random.Random) -> Iterator[Case]:
    sents = sentences_of(text) or [text]
    glue = sep(locale)
    pieces = rng.sample(sents * 3, 3)
    body = text.rstrip()
    for n, kind in ((2, "rep alternate2"), (3, "rep alternate3")):
        unit = glue.join(pieces[:n])
        times = max(4, 1 + len(body) // (3 * len(unit)))
        yield _budget_case(kind, locale, body + glue + glue.join([unit] * times))
    base = rng.choice(sents)
    form = rng.choice(("Day {n}: ", "{n}. ", "({n}) ", "Chapter {n} — ", "{n}日目、", "#{n} "))
    first = rng.randrange(1, 20)
    loop = "\n".join(form.format(n=first + i) + base for i in range(rng.randrange(8, 16)))
    yield _budget_case("rep counter", locale, body + "\n\n" + loop)
    yield _budget_case("rep varied", locale, body + glue + glue.join(_varied(base, locale, rng)))
    flood = rng.choice(FLOODS) * rng.randrange(60, 300)
    yield _budget_case("rep flood", locale, body + flood)
    words = PIECE.findall(body) if locale in EAST_ASIAN else body.split()
    if len(words) >= 12:
        at = rng.randrange(len(words) // 3, len(words) - 4)
        n = rng.randrange(2, 9)
        unit = glue.join(words[at - n : at])
        head = glue.join(words[:at])
        times = max(8, len(words) // n)
        yield _budget_case("rep mid_sentence", locale, head + glue + glue.join([unit] * times))
    if len(long) >= 3000:
        share = rng.uniform(0.25, 0.35)
        keep = long[: int(len(long) * (1 - share))].rstrip()
        if rng.random() < 0.5:
            long_words = PIECE.findall(keep[-600:]) if locale in EAST_ASIAN else keep[-600:].split()
            n = rng.randrange(1, 12)
            unit = glue.join(long_words[-n:])
        else:
            unit = rng.choice(sentences_of(keep[-2000:]) or sents)
        times = max(6, int(len(long) * share) // max(1, len(unit) + 1))
        yield _budget_case("rep long_tail", locale, keep + glue + glue.join([unit] * times))
    space = rng.choice(("\n", " ", "\n\n", " \n", "\t"))
    yield _budget_case("rep whitespace", locale, body + space * rng.randrange(80, 1500))
    yield from _cuts(locale, text, sents, rng)


def _varied(base: str, locale: str, rng: random.Random) -> list[str]:
    """``base`` again and again, each copy changed the way sampling at a temperature changes it."""
    east = locale in EAST_ASIAN
    parts = list(base) if east else base.split()
    copies = []
    for _ in range(rng.randrange(8, 14)):
        copy = list(parts)
        change = rng.randrange(5)
        i = rng.randrange(len(copy))
        if change == 0 and len(copy) > 3:
            del copy[i]
        elif change == 1:
            copy.insert(i, copy[i])
        elif change == 2 and i + 1 < len(copy):
            copy[i], copy[i + 1] = copy[i + 1], copy[i]
        elif change == 3:
            copy[-1] = copy[-1].rstrip(".!?。！？") + rng.choice(("!", "...", "?", "。" if east else "."))
        copies.append(("" if east else " ").join(copy))
    return copies


def _cuts(locale: str, text: str, sents: list[str], rng: random.Random) -> Iterator[Case]:
    body = text.rstrip()
    glue = sep(locale)
    letters = [i for i in range(len(body) // 4, len(body) - 1) if body[i].isalpha() and body[i + 1].isalpha()]
    if letters and locale not in EAST_ASIAN:
        yield Case("cut mid_word", locale, body[: rng.choice(letters) + 1], "stop", 400, None)
    digits = [m.start() + 1 for m in re.finditer(r"\d[\d.,]*\d", body)]
    if digits:
        yield Case("cut mid_number", locale, body[: rng.choice(digits)], "stop", 400, None)
    else:
        year = f"{rng.randrange(1100, 2100)}"
        cut = year[: rng.randrange(1, 4)]
        yield Case("cut mid_number", locale, f"{body}{glue}{rng.choice(sents)[:-1]} {cut}", "stop", 400, None)
    opening, _closing = OPEN_CLOSE.get(locale, ('"', '"'))
    spoken = rng.choice(sents)
    said = spoken[: max(2, len(spoken) * rng.randrange(20, 80) // 100)].rstrip()
    yield Case("cut in_quote", locale, f"{body}{glue}{opening}{said}", "stop", 400, None)
    mark = rng.choice(("*", "**", "_"))
    opened = mark if rng.random() < 0.4 else mark + said
    yield Case("cut in_emphasis", locale, f"{body}{glue}{opened}", "stop", 400, None)
    code = rng.choice(("```python\nfor i in range(10):\n    print(", "```\n$ tar -xzf archive.tar.gz -C",
                       "```js\nconst x = [1, 2,", "```"))  # fmt: skip
    yield Case("cut in_code", locale, f"{body}\n\n{code}", "stop", 400, None)
    commas = [m.end() for m in re.finditer(r"[,，、]", body)]
    if commas:
        yield Case("cut after_comma", locale, body[: rng.choice(commas)], "stop", 400, None)
    start = rng.choice(sents)
    opening_words = PIECE.findall(start)[: rng.randrange(1, 4)] if locale in EAST_ASIAN else start.split()[:3]
    head = glue.join(opening_words[: rng.randrange(1, len(opening_words) + 1)]).rstrip(".!?。！？")
    if head:
        yield Case("cut new_paragraph", locale, f"{body}\n\n{head}", "stop", 400, None)
    items = [s.rstrip() for s in rng.sample(sents * 4, 4)]
    last = items[-1]
    partial = last[: max(3, len(last) * rng.randrange(30, 85) // 100)].rstrip(".!?。！？ ")
    listed = "\n".join(f"- {s}" for s in items[:-1]) + f"\n- {partial}"
    yield Case("cut list_item", locale, f"{body}\n\n{listed}", "stop", 400, None)
    if locale in EAST_ASIAN:
        clause = [
            i for i, ch in enumerate(body) if ch in "、，" or (IDEOGRAPH.match(ch) and i > len(body) // 4)
        ]
        if clause:
            yield Case("cut cjk_clause", locale, body[: rng.choice(clause) + 1], "stop", 400, None)
    share = rng.uniform(0.02, 0.45)
    cut = body[: max(10, int(len(body) * rng.uniform(0.3, 1.0)))]
    spent = tokens_in(cut)
    budget = max(spent + 1, round(spent / share))
    yield Case("cut length_share", locale, cut, "length", budget, spent)
    yield Case("cut length_unreported", locale, cut, "length", budget, None)


def must_pass(locale: str, text: str, long: str, rng: random.Random) -> Iterator[Case]:
    sents = sentences_of(text) or [text]
    glue = sep(locale)
    body = text.rstrip()
    yield Case("ctl clean", locale, body, "stop", 400, None)
    lines = _verse_lines(text, locale)
    if len(lines) >= 8:
        refrain = lines[0]
        stanzas = [lines[i : i + 3] for i in range(1, min(len(lines), 13), 3)]
        poem = "\n\n".join("\n".join([*stanza, refrain]) for stanza in stanzas)
        yield Case("ctl poem_refrain", locale, poem, "stop", 400, None)
        chorus = "\n".join(lines[:2])
        verses = [lines[i : i + 2] for i in range(2, 8, 2)]
        song = "\n\n".join(
            f"[Verse {i + 1}]\n" + "\n".join(v) + f"\n\n[Chorus]\n{chorus}" for i, v in enumerate(verses)
        )
        yield Case("ctl song", locale, song, "stop", 400, None)
    short = min(sents, key=len)
    others = [s for s in sents if s != short]
    if len(short) <= 60 and others:
        chant = " ".join([short] * 3) if locale not in EAST_ASIAN else short * 3
        parts = [*others[:2], chant, *others[2:]]
        yield Case("ctl chant", locale, glue.join(parts), "stop", 400, None)
    distinct = list(dict.fromkeys(sents))
    steps = rng.sample(distinct, min(8, len(distinct)))
    marker = rng.choice(("- Step {n}: ", "{n}. ", "* Step {n} — ", "Step {n}: "))
    listed = "\n".join(marker.format(n=i + 1) + s for i, s in enumerate(steps))
    yield Case("ctl parallel_list", locale, f"{sents[0]}\n\n{listed}", "stop", 400, None)
    words = [w for w in PIECE.findall(body) if w[0].isalpha()][:8] or ["north", "south"]
    rows = [
        f"| {w} | {rng.choice(('yes', 'no', '✓', '—'))} | {rng.choice(('yes', 'no', '✓'))} |" for w in words
    ]
    table = "| item | A | B |\n|---|---|---|\n" + "\n".join(rows)
    yield Case("ctl table", locale, f"{sents[0]}\n\n{table}", "stop", 400, None)
    n = rng.randrange(5, 11)
    code_lines = [f"grid[{i}][0] = 0" for i in range(n)] + ['print("-" * 40)'] * 2 + ["    pass"] * 3
    code = "```python\n" + "\n".join(code_lines) + "\n```"
    yield Case("ctl code_repeat", locale, f"{sents[0]}\n\n{code}", "stop", 400, None)
    no = {"en": "No.", "de": "Nein.", "fr": "Non.", "es": "No.", "it": "No.", "ru": "Нет.", "uk": "Ні.",
          "pl": "Nie.", "ja": "いいえ。", "ko": "아니.", "zh-Hans": "不。", "zh-Hant": "不。", "nl": "Nee.",
          "tr": "Hayır.", "id": "Tidak.", "vi": "Không.", "pt-BR": "Não."}[locale]  # fmt: skip
    opening, closing = OPEN_CLOSE.get(locale, ('"', '"'))
    talk = []
    for s in rng.sample(distinct, min(5, len(distinct))):
        talk += [f"{opening}{s}{closing}", f"{opening}{no}{closing}"]
    yield Case("ctl short_replies", locale, "\n".join(talk), "stop", 400, None)
    endings = {
        "ends_list": "\n\n- " + "\n- ".join(words[:3]),
        "ends_code": "\n\n```bash\nls -la /var/log\n```",
        "ends_emoji": " " + rng.choice(EMOJI),
        "ends_url": "\n\nhttps://example.org/docs/" + words[0].lower(),
        "ends_heading": "\n\n## " + glue.join(words[:2]),
        "ends_signature": rng.choice(("\n\nBest,\nMara", "\n\n— Mara", "\n\nCheers,\nKalenz Brightwood")),
        "ends_table": "\n\n" + table,
        "ends_hashtag": " #" + words[0],
    }
    for name, ending in endings.items():
        yield Case(f"ctl {name}", locale, body + ending, "stop", 400, None)
    spent = tokens_in(body)
    budget = max(1, round(spent / rng.uniform(0.9, 1.0)))
    yield Case("ctl length_full", locale, body, "length", budget, spent)
    if len(long) >= 3000:
        yield Case("ctl long_clean", locale, long, "stop", 400, None)


def _verse_lines(text: str, locale: str) -> list[str]:
    """Short lines cut at commas and sentence ends, without their marks: a poem's lines."""
    pieces = re.split(r"[,.!?;:，、。！？；：]+", text)
    lines = [p.strip() for p in pieces if 3 <= len(p.strip()) <= (30 if locale in EAST_ASIAN else 70)]
    return lines


def load(paths: list[Path], split: str) -> dict[str, list[str]]:
    texts: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            row = json.loads(line)
            if row["locale"] in DEFAULT_LOCALES and split_of(row["source"]) == split and row.get("text"):
                texts[row["locale"]].append(row["text"].strip())
    return texts


def build(texts: dict[str, list[str]], per_locale: int, rng: random.Random) -> list[tuple[Case, bool]]:
    cases: list[tuple[Case, bool]] = []
    for locale in DEFAULT_LOCALES:
        # a paragraph that ends with ":" introduced a list the extraction left out: not a whole reply
        pool = list(
            dict.fromkeys(t for t in texts.get(locale, []) if len(t) >= 80 and not t.endswith((":", "：")))
        )
        rng.shuffle(pool)
        for text in pool[:per_locale]:
            target = rng.randrange(4000, 16000) // (3 if locale in EAST_ASIAN else 1)
            joined = [text]
            for other in rng.sample(pool, min(len(pool), 200)):
                if sum(map(len, joined)) >= target:
                    break
                if other != text:
                    joined.append(other)
            long = ("\n\n" if rng.random() < 0.5 else sep(locale)).join(joined)
            cases += [(case, True) for case in must_fail(locale, text, long, rng)]
            cases += [(case, False) for case in must_pass(locale, text, long, rng)]
    return cases


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="*", type=Path, default=[RESULTS / f"{name}.jsonl" for name in SETS])
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--per-locale", type=int, default=150, help="replies per locale and input")
    parser.add_argument("--seed", type=int, default=2615)
    parser.add_argument("--show", default="", help="print the misjudged cases of kinds starting with this")
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases: list[tuple[Case, bool]] = []
    for path in args.inputs:
        cases += build(load([path], args.split), args.per_locale, rng)
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    per_locale: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    shown = 0
    for case, failing in cases:
        verdict = screen(
            case.text, case.finish, max_tokens=case.max_tokens, completion_tokens=case.completion_tokens
        )
        outcome = "fail" if verdict is not None else "pass"
        record(tally, per_locale, case.kind, case.locale, outcome)
        if (
            args.show
            and case.kind.startswith(args.show)
            and (outcome == "fail") != failing
            and shown < args.limit
        ):
            shown += 1
            why = f" ({verdict.reason.value}: {verdict.detail[:90]})" if verdict is not None else ""
            print(
                f"--- {case.kind} {case.locale} {case.finish} {case.completion_tokens}/{case.max_tokens}{why}"
            )
            print(f"    {case.text[:200]!r} … {case.text[-160:]!r}")
    print(f"{len(cases)} cases, split={args.split}, replies per locale and input <= {args.per_locale}")
    print_recall_table(tally, per_locale, ("rep", "cut", "ctl"), DEFAULT_LOCALES, 28)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
