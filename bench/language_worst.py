"""Worst-case time, throughput and memory of the reply-integrity judges (issue 11).

Usage::

    .venv/bin/python bench/language_worst.py [--repeat 7]

Worst case: 64 KB replies built to stress each part (punctuation runs, one giant sentence, many tiny
sentences, a token loop, CJK, mixed scripts with mojibake pairs, every-code-point noise), each judged by
the language judge and screened for refusal, truncation and repetition; the median and max of
``--repeat`` runs per case are printed in milliseconds. Throughput: replies of about 600 characters (the
simulator's real-text pools, all 17 locales) judged per second on one core. RSS: the process's peak
resident set after loading both models and judging everything. What warm-up loaded is frozen out of the
garbage collector's walks, as the exporter does at start-up; ``--unfrozen`` leaves it in (a router's process).
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.append(str(Path(__file__).resolve().parents[1]))  # after a tree chosen by judges_ab.py

from exporter.contracts.reply_checks import screen
from exporter.devtools.simulator.locales import Texts
from exporter.language import segment
from exporter.language.judge import default_judge
from exporter.language.locales import DEFAULT_LOCALES
from exporter.serving import tune_gc_for_latency

SIZE = 64 * 1024


def _fill(unit: str) -> str:
    text = unit * (SIZE // len(unit.encode()) + 1)
    return text.encode()[:SIZE].decode("utf-8", errors="ignore")


def worst_cases() -> dict[str, str]:
    rng = random.Random(7)
    noise = "".join(chr(rng.choice([rng.randrange(0x20, 0x2FF), rng.randrange(0x400, 0x52F),
                                    rng.randrange(0x3040, 0x9FFF), rng.randrange(0xAC00, 0xD7A3)]))
                    for _ in range(SIZE // 3))  # fmt: skip
    return {
        "dots": _fill("."),
        "mixed end marks": _fill(".!?…"),
        "one sentence": _fill("word "),
        "tiny sentences": _fill("Ab. "),
        "token loop": _fill("the "),
        "cjk": _fill("我们今天在海边看日出"),
        "cp1251 pairs": _fill("Гі ГЁ в†’ "),
        "quotes": _fill('"«»“”„'),
        "code fences": _fill("```\nx\n```\n"),
        "noise": noise.encode()[:SIZE].decode("utf-8", errors="ignore"),
    }


def forget(module: object = segment) -> None:
    """Drop the sentence splits the screen and the judge share (``segment``'s last few replies), so a reply
    timed again costs what a new reply does (a tree without that cache: nothing to drop)."""
    if (split := getattr(module, "_split", None)) is not None:
        split.cache_clear()


def simulator_replies() -> list[tuple[str, str]]:
    """(locale, reply) pairs of about 600 characters from the simulator's real-text pools, 60 per locale."""
    texts = Texts.load()
    rng = random.Random(3)
    replies: list[tuple[str, str]] = []
    for locale in DEFAULT_LOCALES:
        pool = list(texts.for_locale(locale))
        for _ in range(60):
            rng.shuffle(pool)
            reply, i = "", 0
            while len(reply) < 600 and i < len(pool):
                reply = f"{reply} {pool[i]}".strip()
                i += 1
            replies.append((locale, reply[:700]))
    return replies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument(
        "--unfrozen",
        action="store_true",
        help="leave what warm-up loaded to the garbage collector (a router's own process) instead of "
        "freezing it as the exporter does at start-up",
    )
    args = parser.parse_args()
    judge = default_judge()
    judge.judge("warm up the models, please, this is a sentence.", "en")
    judge.warm()  # the lexicons, loaded once per process
    if not args.unfrozen:
        tune_gc_for_latency()  # as the exporter after ``ExporterService.prepare``
    print(f"worst case, {SIZE // 1024} KB replies (judge + screen), ms: wall median / max, "
          f"CPU median / max of {args.repeat} (CPU: this process's time on its core, what other "
          "processes on a shared machine inflate least)")  # fmt: skip
    worst = worst_cpu = 0.0
    for name, text in worst_cases().items():
        times, cpu = [], []
        for _ in range(args.repeat):
            forget()
            started, started_cpu = time.perf_counter(), time.process_time()
            judge.judge(text, "en")
            screen(text, "stop")
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.process_time() - started_cpu) * 1000)
        worst, worst_cpu = max(worst, max(times)), max(worst_cpu, max(cpu))
        print(f"  {name:16} {statistics.median(times):7.2f} / {max(times):7.2f}   "
              f"CPU {statistics.median(cpu):7.2f} / {max(cpu):7.2f}")  # fmt: skip
    print(f"  worst of all: {worst:.2f} ms wall, {worst_cpu:.2f} ms CPU")
    replies = simulator_replies()
    rates, cpu_rates, judge_rates = [], [], []
    for _ in range(3):
        started, started_cpu = time.perf_counter(), time.process_time()
        for locale, reply in replies:
            judge.judge(reply, locale)
            screen(reply, "stop")
        rates.append(len(replies) / (time.perf_counter() - started))
        cpu_rates.append(len(replies) / (time.process_time() - started_cpu))
        started_cpu = time.process_time()
        for locale, reply in replies:
            judge.judge(reply, locale)
        judge_rates.append(len(replies) / (time.process_time() - started_cpu))
    mean_len = statistics.mean(len(r) for _, r in replies)
    print(f"throughput: {statistics.median(rates):.0f} replies/s wall, {statistics.median(cpu_rates):.0f}/s "
          f"per CPU second (judge + screen), judge alone {statistics.median(judge_rates):.0f}/s per CPU "
          f"second (median of 3 passes over {len(replies)} replies, mean {mean_len:.0f} chars)")  # fmt: skip
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak RSS: {rss:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
