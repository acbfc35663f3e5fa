"""Scores the language judge on the evaluation corpus built by bench/corpus/build_language_corpus.py.

Usage::

    .venv/bin/python bench/language_eval.py bench/results/language_corpus.jsonl [--split test] [--show KIND]

Prints, per case kind: how many cases, the share judged fail / pass / inconclusive, and the acceptance
figure (false-fail for clean and legitimate starts, recall for failure kinds, fails among short replies),
then recall of mixing per pair class (close / far) and per locale figures for clean text.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from judge_cases import figure

from exporter.language.judge import default_judge

CLOSE = {frozenset(p) for p in [("es", "pt-BR"), ("es", "it"), ("pt-BR", "it"), ("fr", "it"), ("fr", "es"),
         ("de", "nl"), ("nl", "en"), ("en", "fr"), ("ru", "uk"), ("uk", "pl"), ("zh-Hans", "zh-Hant"),
         ("zh-Hans", "ja"), ("zh-Hant", "ja"), ("ko", "ja"), ("id", "vi"), ("id", "en"), ("tr", "id"),
         ("tr", "en")]}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("corpus")
    parser.add_argument("--split", choices=["dev", "test", "all"], default="all")
    parser.add_argument("--show", default="", help="print misjudged cases of this kind")
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument(
        "--reply-like",
        action="store_true",
        help="score clean, legit-start and short cases only on paragraphs the builder's reply filter keeps",
    )
    args = parser.parse_args()
    rows = [json.loads(line) for line in Path(args.corpus).read_text(encoding="utf-8").split("\n") if line]
    if args.split != "all":
        rows = [r for r in rows if r["split"] == args.split]
    if args.reply_like:
        sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
        from build_language_corpus import reply_like

        def source(row: dict[str, str]) -> str:  # the clean paragraph a clean or legit-start case shows
            return row["text"][len(row["sub"]) :].lstrip() if row["kind"] == "legit_start" else row["text"]

        rows = [
            r for r in rows if r["kind"] not in ("clean", "legit_start", "short") or reply_like(source(r))
        ]
    judge = default_judge()
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    sub_tally: dict[str, Counter[str]] = defaultdict(Counter)
    clean_locale: dict[str, Counter[str]] = defaultdict(Counter)
    shown = 0
    started = time.perf_counter()
    for row in rows:
        verdict = judge.judge(row["text"], row["locale"])
        outcome = str(verdict.outcome)
        kind = row["kind"]
        tally[kind][outcome] += 1
        tally[kind][f"reason:{verdict.reason}"] += 1
        if kind == "mixing":
            a, b = row["sub"].split("+")
            sub_tally["mixing " + ("close" if frozenset((a, b)) in CLOSE else "far")][outcome] += 1
        elif kind in ("encoding", "leading_garbage", "legit_start", "switch"):
            sub = row["sub"] if kind != "switch" else ("close" if frozenset(row["sub"].split("->")) in CLOSE
                                                       else "far")  # fmt: skip
            sub_tally[f"{kind} {sub}"][outcome] += 1
        if kind == "clean":
            clean_locale[row["locale"]][outcome] += 1
        wrong = (row["expect"] == "fail") != (outcome == "fail") or (
            row["expect"] == "pass" and outcome != "pass"
        )
        if args.show == kind and wrong and shown < args.limit:
            shown += 1
            print(
                f"--- {row['id']} {row['locale']} {row['sub']} -> {outcome}/{verdict.reason}: "
                f"{verdict.detail}"
            )
            print(repr(row["text"][:300]))
            print(json.dumps(verdict.evidence, ensure_ascii=False)[:600])
    elapsed = time.perf_counter() - started
    print(f"{len(rows)} cases judged in {elapsed:.1f} s ({len(rows) / elapsed:.0f}/s), split={args.split}")
    print(f"{'kind':28} {'n':>6} {'fail':>7} {'pass':>7} {'inconc':>7}  figure")
    for kind in ["clean", "legit_start", "short", "switch", "mixing", "encoding", "leading_garbage"]:
        _line(kind, tally[kind])
    print()
    for sub in sorted(sub_tally):
        _line(sub, sub_tally[sub])
    print("\nclean per locale (fail / inconclusive):")
    print(
        "  " + "  ".join(f"{loc}:{c['fail']}/{c['inconclusive']}" for loc, c in sorted(clean_locale.items()))
    )
    return 0


def _line(kind: str, c: Counter[str]) -> None:
    n = c["fail"] + c["pass"] + c["inconclusive"]
    if not n:
        return
    shares = " ".join(f"{c[outcome] / n:7.2%}" for outcome in ("fail", "pass", "inconclusive"))
    print(f"{kind:28} {n:6} {shares}  {figure(kind, c)}")


if __name__ == "__main__":
    raise SystemExit(main())
