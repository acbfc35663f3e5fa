"""A/B throughput of the reply-integrity judges: the code under ROOT, on 600-character simulator replies.

Usage (run it for this tree and another checkout alternately, in the same minutes, and compare)::

    .venv/bin/python bench/judges_ab.py .
    PYTHONDONTWRITEBYTECODE=1 .venv/bin/python bench/judges_ab.py /path/to/main/checkout
    PYTHONDONTWRITEBYTECODE=1 .venv/bin/python bench/judges_ab.py /path/to/main/checkout . SET.jsonl [...]

Prints replies per CPU second (this process's time, which other processes on a shared machine inflate
least) for judge + screen and for the judge alone, best of 3 passes over 1,020 replies (60 per locale).

With two roots (``judges_ab.py /path/to/main .``) both judges and screens are loaded in one process (the
``exporter`` modules are imported once per root) and timed reply by reply (screen, then judge, as a probe
reply is checked), alternately: the minimum of 7 timings per
reply, summed, and the ratio per locale. Bursts of other processes on a shared machine inflate a minimum
far less than a pass's total, so this is the figure to quote under load. The two trees' answers are compared
too (the screen's and the judge's verdict, reason, detail and evidence, as ``Verdict.as_dict``): the replies
where they differ are counted and the first few printed, so a change meant to be verdict-identical is
checked on the same replies it is timed on. With JSONL files after the two roots (``{"locale", "text"}`` rows,
such as ``bench/results/clean_paragraphs.jsonl``), nothing is timed: the answers are compared on every row
of every file, and the exit status is 1 when any differs.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

_Judge = Callable[[str, str], object]


def load(root: str) -> tuple[_Judge, Callable[[str, str], object], ModuleType]:
    """The judge, the screen and the sentence splitter's module of the ``exporter`` package under ``root``
    (a fresh import)."""
    for name in [n for n in sys.modules if n == "exporter" or n.startswith("exporter.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    from exporter.contracts.reply_checks import screen
    from exporter.language import segment
    from exporter.language.judge import Judge

    sys.path.remove(root)
    return Judge().judge, screen, segment


def passes(root: str, replies: list[tuple[str, str]]) -> None:
    judge, screen, _ = load(root)
    both, alone = [], []
    for _ in range(3):
        started = time.process_time()
        for locale, reply in replies:
            judge(reply, locale)
            screen(reply, "stop")
        both.append(len(replies) / (time.process_time() - started))
        started = time.process_time()
        for locale, reply in replies:
            judge(reply, locale)
        alone.append(len(replies) / (time.process_time() - started))
    print(f"{root}: judge + screen {max(both):.0f}/s, judge alone {max(alone):.0f}/s per CPU second")


def side_by_side(
    roots: list[str], replies: list[tuple[str, str]], forget: Callable[[ModuleType], None]
) -> None:
    pairs = [load(root) for root in roots]
    totals = [0, 0]
    per_locale: dict[str, list[int]] = {}
    differ: list[tuple[str, str]] = []
    for locale, reply in replies:
        first, second = _answers(pairs, reply, locale)
        if first != second:
            differ.append((locale, reply))
        best = [1 << 62, 1 << 62]
        for _ in range(7):
            for i, (judge, screen, segment) in enumerate(pairs):
                forget(segment)  # timed again, the reply costs what a new one does
                started = time.perf_counter_ns()
                screen(reply, "stop")
                judge(reply, locale)
                best[i] = min(best[i], time.perf_counter_ns() - started)
        cell = per_locale.setdefault(locale, [0, 0])
        for i in (0, 1):
            totals[i] += best[i]
            cell[i] += best[i]
    for root, total in zip(roots, totals, strict=True):
        print(f"{root}: screen + judge {total / len(replies) / 1000:.0f} µs per reply "
              f"({1e9 * len(replies) / total:.0f}/s), sum of per-reply minima")  # fmt: skip
    print(
        f"speed of {roots[1]} / {roots[0]}: {totals[0] / totals[1]:.2f}x; per locale: "
        + " ".join(f"{loc} {a / b:.2f}" for loc, (a, b) in per_locale.items())
    )
    print(f"answers (screen and judge) differ on {len(differ)} of {len(replies)} replies")
    for locale, reply in differ[:5]:
        print(f"  {locale}: {reply[:100]!r}")


def _answers(
    pairs: list[tuple[_Judge, Callable[[str, str], object], ModuleType]], text: str, locale: str
) -> list[tuple[object, object]]:
    """Each tree's screen and judge answer to one reply."""
    return [(_answer(screen(text, "stop")), _answer(judge(text, locale))) for judge, screen, _ in pairs]


def _answer(verdict: object) -> object:
    """A verdict as comparable data across the two trees' classes (None: the screen found nothing)."""
    as_dict = getattr(verdict, "as_dict", None)
    return as_dict() if as_dict is not None else verdict


def compare(roots: list[str], files: list[Path]) -> int:
    """The replies of JSONL files (``{"locale", "text"}`` rows: the evaluations' clean sets) on which the two
    trees' answers differ, per file; the number of differing replies in all."""
    pairs = [load(root) for root in roots]
    from exporter.language.locales import LOCALES  # the last tree loaded (both list the same locales)

    differ = 0
    for path in files:
        rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
        rows = [r for r in rows if r.get("locale") in LOCALES]
        found = 0
        for r in rows:
            text, locale = str(r["text"]), str(r["locale"])
            first, second = _answers(pairs, text, locale)
            if first != second:
                found += 1
                if found <= 3:
                    print(f"  {path.name} {locale}: {text[:100]!r}")
        print(f"{path.name}: answers differ on {found} of {len(rows)} replies")
        differ += found
    return differ


def main() -> int:
    args = sys.argv[1:]
    if not args or (len(args) > 2 and not all(a.endswith(".jsonl") for a in args[2:])):
        print(__doc__)
        return 2
    roots = [str(Path(arg).resolve()) for arg in args[:2]]
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    sys.path.insert(0, roots[-1])
    from language_worst import forget, simulator_replies

    replies = simulator_replies()
    sys.path.remove(roots[-1])
    if len(roots) == 1:
        passes(roots[0], replies)
    elif len(args) > 2:
        return 1 if compare(roots, [Path(a) for a in args[2:]]) else 0
    else:
        side_by_side(roots, replies, forget)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
