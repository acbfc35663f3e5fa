"""Scores the reply-integrity judges on issue 11's generated evaluation (bench/corpus/judge_cases.py).

Usage::

    .venv/bin/python bench/corpus/build_language_corpus.py --clean-out bench/results/clean_paragraphs.jsonl
    .venv/bin/python bench/judges_eval.py bench/results/clean_paragraphs.jsonl --split dev [--show KIND]

``--vocab FILE`` draws the corrupted starts' pieces from a real tokenizer vocabulary
(``bench/corpus/vocabularies.py``) instead of word tails of other paragraphs.

For every clean paragraph of real text: the paragraph itself, whole switch and mixing
(``build_language_corpus.synthesise``), the classic encoding cases, the generated corrupted and legitimate
starts, legacy-CJK/bidi/private-use encoding cases, one quoted foreign sentence and a code block (must
pass), dialogue in another language (must fail) and repetition loops. Prints per kind the share failed
and the figure (false-fail for what must pass, recall for what must fail), then per locale, then per
sub-kind.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from build_language_corpus import synthesise
from judge_cases import (
    MUST_PASS,
    dialogue_and_code,
    encodings,
    figure,
    foreign_dialogue,
    print_per_locale,
    repetitions,
    split_of,
    starts,
    tallies,
)
from vocabularies import Pieces, pieces_argument

from exporter.contracts.reply_checks import screen
from exporter.language.judge import default_judge


def cases(rows: list[dict[str, str]], seed: int, pieces: Pieces | None = None) -> list[dict[str, str]]:
    rng = random.Random(seed)
    clean: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for r in rows:
        clean[r["locale"]].append((r["source"], r["text"]))
    out = [
        {**c, "split": c["split"]}
        for c in synthesise(dict(clean), seed)
        if c["kind"] in ("clean", "switch", "mixing", "encoding", "short")
    ]
    texts = [r["text"] for r in rows]
    for locale, items in clean.items():
        others = [t for loc, its in clean.items() if loc != locale for _, t in its[:50]]
        for source, text in items:
            split = split_of(source)
            made = [*starts(locale, text, texts, rng, pieces), *encodings(text, rng), *repetitions(text, rng),
                    *dialogue_and_code(locale, text, rng.choice(others), rng),
                    *foreign_dialogue(locale, text, others)]  # fmt: skip
            for kind, sub, case in made:
                out.append({"split": split, "kind": kind, "sub": sub, "locale": locale, "text": case})
    return out


def sample(rows: list[dict[str, str]], per_locale: int, seed: int) -> list[dict[str, str]]:
    """The paragraphs the evaluation judges: up to ``per_locale`` of each locale, drawn with ``seed``."""
    by_locale: dict[str, list[dict[str, str]]] = defaultdict(list)
    for r in rows:
        if not r["text"].startswith('""'):  # an HTML <code> element stripped by the extraction: debris
            by_locale[r["locale"]].append(r)
    rng = random.Random(seed)
    picked = []
    for items in by_locale.values():
        rng.shuffle(items)
        picked += items[:per_locale]
    return picked


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clean")
    parser.add_argument("--split", choices=["dev", "test", "all"], default="dev")
    parser.add_argument("--per-locale", type=int, default=300)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--show", default="")
    parser.add_argument("--limit", type=int, default=25)
    parser.add_argument(
        "--drop-particle-starts", action="store_true", help="drop ja paragraphs opening with を"
    )
    parser.add_argument("--only", default="", help="comma-separated kinds to score (default: all)")
    parser.add_argument(
        "--vocab",
        type=pieces_argument,
        help="draw the corrupted starts' pieces from this vocabulary (.tiktoken, Tekken .json or "
        "SentencePiece model) instead of word tails of other paragraphs",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.clean).read_text("utf-8").splitlines() if line]
    picked = sample(rows, args.per_locale, args.seed)
    if args.drop_particle_starts:
        # Extraction debris too: a Japanese paragraph opening with the object particle を, whose noun (a
        # key or file name in <code>) was dropped; no Japanese sentence starts with を. After sampling, so
        # the other paragraphs picked stay the same.
        picked = [r for r in picked if not r["text"].startswith("を")]
    only = set(filter(None, args.only.split(",")))
    all_cases = [
        c
        for c in cases(picked, args.seed, args.vocab)
        if (args.split == "all" or c["split"] == args.split) and (not only or c["kind"] in only)
    ]
    tally, per_locale = tallies()
    judge, shown, started = default_judge(), 0, time.perf_counter()
    for c in all_cases:
        kind = c["kind"]
        if kind == "repetition" or kind == "clean":
            found = screen(c["text"], "stop", truncation=False)
            if kind == "repetition":
                outcome = "fail" if found is not None else "pass"
            else:
                verdict = judge.judge(c["text"], c["locale"])
                outcome = "fail" if found is not None else str(verdict.outcome)
        else:
            verdict = judge.judge(c["text"], c["locale"])
            outcome = str(verdict.outcome)
        tally[kind][outcome] += 1
        tally[f"{kind} {c['sub']}"][outcome] += 1
        per_locale[(kind, c["locale"])][outcome] += 1
        wrong = (outcome == "fail") != (kind not in MUST_PASS and kind != "short")
        if kind == "short":
            wrong = outcome == "fail"
        if args.show and kind.startswith(args.show) and wrong and shown < args.limit:
            shown += 1
            print(f"--- {kind} {c['sub']} {c['locale']} -> {outcome}: {c['text'][:160]!r}")
    elapsed = time.perf_counter() - started
    print(f"{len(all_cases)} cases in {elapsed:.1f} s, split={args.split}")
    for key in sorted(tally):
        c = tally[key]
        n = sum(c.values())
        print(f"{key:34} {n:6}  {figure(key, c)}")
    print_per_locale(per_locale)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
