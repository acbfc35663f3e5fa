"""What each check of the reply screen and the language judge costs, per locale, on 600-character replies.

Usage::

    .venv/bin/python bench/judges_cost.py [--repeat 5]

Times each public check on the simulator's replies (``language_worst.simulator_replies``: 60 per locale),
reply by reply, the minimum of ``--repeat`` timings (bursts of other processes on a shared machine inflate
a minimum least), and prints the mean per reply in microseconds, overall and per locale:

- the screen (``reply_checks.screen``) and its three checks: ``find_refusal``, ``find_truncation``,
  ``find_repetition``;
- the judge (``Judge.judge``) and two of its checks, on the text the judge reads: the encoding check
  (``EncodingChecker.find``) and the corrupted start (``find_corrupted_start``); ``judge rest`` is the
  judge less those two: sentence splitting, script counts, the per-sentence calls (fastText, CLD3, the
  lexicons) and the whole-reply and pooled checks.

The checks are timed alone, each on a reply its own cache of sentence splits has just seen, so their sum
is below the screen's and the judge's (each of those splits the reply once, and runs all its checks with
colder caches); the shares show where a reply's time goes, not a budget to the microsecond.
"""

from __future__ import annotations

import argparse
import sys
import time
import unicodedata
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from language_worst import forget, simulator_replies

from exporter.contracts.refusal_patterns import find_refusal
from exporter.contracts.reply_checks import screen
from exporter.language.judge import default_judge
from exporter.language.locales import canonical_locale
from exporter.language.repetition import MAX_JUDGED_CHARS, find_repetition
from exporter.language.start import find_corrupted_start
from exporter.language.truncation import find_truncation


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    judge = default_judge()
    judge.warm()
    replies = simulator_replies()
    for locale, reply in replies:  # every table and lexicon a reply may need, loaded before timing
        screen(reply, "stop")
        judge.judge(reply, locale)

    def judged(reply: str) -> str:  # the text the judge's start check reads
        return unicodedata.normalize("NFC", reply[:MAX_JUDGED_CHARS]).strip()

    checks: dict[str, Callable[[str, str], object]] = {
        "screen": lambda reply, _: screen(reply, "stop"),
        "  refusal": lambda reply, _: find_refusal(reply),
        "  truncation": lambda reply, _: find_truncation(reply, "stop"),
        "  repetition": lambda reply, _: find_repetition(reply),
        "judge": lambda reply, locale: judge.judge(reply, locale),
        "  encoding": lambda reply, code: judge.encoding.find(reply[:MAX_JUDGED_CHARS], code),
        "  start": lambda reply, code: find_corrupted_start(judged(reply), code),
    }
    spent: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))  # check -> locale -> ns
    for locale, reply in replies:
        code = canonical_locale(locale) or locale
        for name, check in checks.items():
            best = 1 << 62
            for _ in range(args.repeat):
                forget()
                started = time.perf_counter_ns()
                check(reply, locale if name == "judge" else code)
                best = min(best, time.perf_counter_ns() - started)
            spent[name][locale] += best
    locales = list(dict.fromkeys(locale for locale, _ in replies))
    per_locale = len(replies) // len(locales)
    for locale in locales:  # the judge less the two checks timed alone
        spent["  judge rest"][locale] = max(
            0, spent["judge"][locale] - spent["  encoding"][locale] - spent["  start"][locale]
        )
    total = sum(spent["screen"].values()) + sum(spent["judge"].values())
    print(f"µs per reply (minimum of {args.repeat} per reply, mean of {len(replies)} replies), share of "
          f"screen + judge; per locale (mean of {per_locale}):")  # fmt: skip
    print(f"{'':14}{'all':>7}{'share':>7} " + " ".join(f"{loc:>7}" for loc in locales))
    for name, cells in spent.items():
        mean = sum(cells.values()) / len(replies) / 1000
        share = sum(cells.values()) / total
        print(f"{name:14}{mean:7.1f}{share:7.1%} "
              + " ".join(f"{cells[loc] / per_locale / 1000:7.0f}" for loc in locales))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
