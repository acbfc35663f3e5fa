# ruff: noqa: E501  (commands in the docstring)
"""Scores the language judge on the fiction evaluation (bench/corpus/fiction_cases.py).

Usage::

    .venv/bin/python bench/corpus/build_fiction_corpus.py --root ROOT --out bench/results/fiction_replies.jsonl
    .venv/bin/pip download --no-deps openai-whisper -d /tmp/whisper && tar xzf /tmp/whisper/openai_whisper-*.tar.gz \\
        -C /tmp/whisper --wildcards '*/multilingual.tiktoken'
    .venv/bin/python bench/fiction_eval.py bench/results/fiction_replies.jsonl \\
        --vocab /tmp/whisper/openai_whisper-20250625/whisper/assets/multilingual.tiktoken --split dev [--show KIND]

Up to ``--per-locale`` replies of each of the 17 locales are sampled (seed 26); every case made from a
reply is in that reply's split (its catalogue, a campaign). Prints per kind the figure (false-fail for
what must pass, recall for what must fail), per sub-kind, per locale, and the clean false-fail per source
(the first component of ``source``: a campaign, or a package of ``build_games_corpus.py``). A clean reply
fails when the judge or the reply screen (``reply_checks.screen``, finish ``stop``) fails it. Any corpus
of the fiction builder's rows works as input (``build_games_corpus.py``'s too).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from fiction_cases import Pieces, encodings, foreign_lines, split_of, starts, switch_and_mixing
from judge_cases import foreign_dialogue, print_per_locale, tallies
from vocabularies import pieces_argument

from exporter.contracts.reply_checks import screen
from exporter.language.judge import default_judge
from exporter.language.locales import LOCALES

MUST_PASS = frozenset({"clean", "legit_start", "cjk_word"})


def cases(rows: list[dict[str, object]], per_locale: int, pieces: Pieces, seed: int) -> list[dict[str, str]]:
    rng = random.Random(seed)
    texts: dict[str, dict[tuple[str, str], str]] = defaultdict(dict)  # the translation of each message
    by_locale: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in rows:
        for key, line in zip(r["keys"], r["lines"], strict=True):  # type: ignore[call-overload]
            texts[str(r["locale"])][(str(r["source"]), key)] = line
        by_locale[str(r["locale"])].append(r)
    out: list[dict[str, str]] = []
    for locale in LOCALES:
        items = sorted(by_locale.get(locale, []), key=lambda r: (str(r["source"]), str(r["text"])))
        rng.shuffle(items)
        for r in items[:per_locale]:
            text, split = str(r["text"]), split_of(str(r["source"]))
            made = [("clean", "", text), *starts(locale, text, pieces, rng), *encodings(locale, text, rng),
                    *switch_and_mixing(locale, r, texts, rng),
                    *foreign_dialogue(locale, text, foreign_lines(locale, r, texts))]  # fmt: skip
            source = str(r["source"]).split("/")[0]
            out += [{"split": split, "kind": k, "sub": s, "locale": locale, "text": t, "source": source}
                    for k, s, t in made]  # fmt: skip
    return out


def figure(kind: str, c: Counter[str]) -> str:
    n = sum(c.values())
    if kind.split()[0] in MUST_PASS:
        return f"false-fail {c['fail'] / n:.2%}  inconclusive {c['inconclusive'] / n:.1%}"
    return f"recall {c['fail'] / n:.2%}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("replies")
    parser.add_argument(
        "--vocab",
        type=pieces_argument,
        required=True,
        help="a tokenizer vocabulary: .tiktoken, Tekken .json or SentencePiece model (vocabularies.py)",
    )
    parser.add_argument("--split", choices=["dev", "test", "all"], default="dev")
    parser.add_argument("--per-locale", type=int, default=400)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--show", default="")
    parser.add_argument("--limit", type=int, default=25)
    parser.add_argument("--locale", default="")
    parser.add_argument("--only", default="", help="comma-separated kinds to score (default: all)")
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.replies).read_text("utf-8").splitlines() if line]
    only = set(filter(None, args.only.split(",")))
    all_cases = [
        c
        for c in cases(rows, args.per_locale, args.vocab, args.seed)
        if (args.split == "all" or c["split"] == args.split)
        and (not args.locale or c["locale"] == args.locale)
        and (not only or c["kind"] in only)
    ]
    tally, per_locale = tallies()
    judge, shown, started = default_judge(), 0, time.perf_counter()
    for c in all_cases:
        kind = c["kind"]
        verdict = judge.judge(c["text"], c["locale"])
        outcome, reason = str(verdict.outcome), verdict.reason
        if kind == "clean" and (found := screen(c["text"], "stop")) is not None:
            outcome, reason = "fail", f"screen:{found.reason}"  # the reply screen runs on every reply
        tally[kind][outcome] += 1
        if kind == "clean":
            tally[f"clean by source {c['source']}"][outcome] += 1
        if c["sub"]:
            tally[f"{kind} {c['sub']}"][outcome] += 1
        per_locale[(kind, c["locale"])][outcome] += 1
        wrong = (outcome == "fail") == (kind in MUST_PASS)
        if args.show and kind.startswith(args.show) and wrong and shown < args.limit:
            shown += 1
            print(f"--- {kind} {c['sub']} {c['locale']} -> {outcome} {reason}: {c['text'][:150]!r}")
    elapsed = time.perf_counter() - started
    print(f"{len(all_cases)} cases in {elapsed:.1f} s, split={args.split}")
    for key in sorted(tally):
        print(f"{key:40} {sum(tally[key].values()):6}  {figure(key, tally[key])}")
    print_per_locale(per_locale)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
