"""Benchmark: language-judge replies per second on one core and peak RSS, against a CLD3-only baseline.

Usage::

    .venv/bin/python bench/language_judge.py [--seconds 3] [--repeats 5] [--clean]

Replies are ~600 characters in each of the 17 locales, built from the committed fixture replies: clean
ones and each failure kind (switch, mixing, encoding, corrupted start), 60 % clean. Both the judge and the
baseline (one CLD3 call on the whole text, what a naive checker does) run in the same process, pinned to
one core, alternately, ``--repeats`` times; medians and the ratio are printed. ``--clean`` measures the clean
replies alone (what a healthy fleet mostly returns). Peak RSS is measured in two
fresh child processes (baseline only; judge) so one does not hide the other.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
FIXTURE = ROOT / "tests" / "fixtures" / "language" / "clean_replies.json"
CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}


def replies(clean_only: bool = False) -> list[tuple[str, str]]:
    """(text, locale) pairs of about 600 characters: 60 % clean, 40 % the four failure kinds (or only the
    clean ones)."""
    clean: dict[str, str] = json.loads(FIXTURE.read_text(encoding="utf-8"))
    codes = list(clean)

    def long(code: str) -> str:
        text = clean[code]
        while len(text) < 600:
            text += ("" if code in CJK else " ") + clean[code]
        return text[:600]

    out: list[tuple[str, str]] = []
    for i, code in enumerate(codes):
        other = codes[(i + 3) % len(codes)]
        body = long(code)
        half = len(body) // 2
        out += [(body, code)] * 6
        if clean_only:
            continue
        out.append((long(other), code))  # switch
        out.append((body[:half] + " " + long(other)[:half], code))  # mixing
        out.append((body.encode().decode("cp1252", errors="replace"), code))  # encoding
        out.append((", " + body, code))  # corrupted start
    return out


def rate(fn: Callable[[str, str], object], items: list[tuple[str, str]], seconds: float) -> float:
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for text, locale in items:
            fn(text, locale)
        done += len(items)
    return done / (time.perf_counter() - start)


def peak_rss(mode: str) -> float:
    """Peak RSS (MB) of a fresh process that loads and runs only ``mode``."""
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode], capture_output=True, text=True, check=True, cwd=ROOT
    ).stdout
    return float(out.strip().splitlines()[-1])


def child(mode: str) -> None:
    items = replies()
    if mode == "baseline":
        import gcld3

        detector = gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=4000)
        for text, _ in items * 3:
            detector.FindLanguage(text=text)
    else:
        from exporter.language.judge import default_judge

        judge = default_judge()
        judge.warm()  # every locale's lexicon: the footprint of a judge that has seen all 17
        for text, locale in items * 3:
            judge.judge(text, locale)
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="measuring time per run")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--clean", action="store_true", help="judge only the clean replies")
    parser.add_argument("--child", choices=["baseline", "judge"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return 0
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
    import gcld3

    from exporter.language.judge import default_judge

    detector = gcld3.NNetLanguageIdentifier(min_num_bytes=0, max_num_bytes=4000)
    judge = default_judge()
    judge.warm()
    items = replies(args.clean)
    baseline_runs, judge_runs = [], []
    for _ in range(args.repeats):
        baseline_runs.append(
            rate(lambda text, _locale: detector.FindLanguage(text=text), items, args.seconds)
        )
        judge_runs.append(rate(judge.judge, items, args.seconds))
    base, mine = statistics.median(baseline_runs), statistics.median(judge_runs)
    rss_base, rss_judge = peak_rss("baseline"), peak_rss("judge")
    chars = statistics.mean(len(t) for t, _ in items)
    print(
        f"replies: {len(items)} across 17 locales, mean {chars:.0f} characters, one core, {args.repeats} runs"
    )
    print(f"baseline (CLD3 whole text) : median {base:8.0f} replies/s")
    print(f"judge (full ensemble)      : median {mine:8.0f} replies/s  ratio {mine / base:.2f}x baseline")
    print(f"peak RSS baseline          : {rss_base:6.1f} MB")
    print(f"peak RSS judge             : {rss_judge:6.1f} MB  ratio {rss_judge / rss_base:.2f}x baseline")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
