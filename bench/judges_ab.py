"""A/B throughput of the reply-integrity judges: the code under ROOT, on 600-character simulator replies.

Usage (run it for this tree and another checkout alternately, in the same minutes, and compare)::

    .venv/bin/python bench/judges_ab.py .
    PYTHONDONTWRITEBYTECODE=1 .venv/bin/python bench/judges_ab.py /path/to/main/checkout

Prints replies per CPU second (this process's time, which other processes on a shared machine inflate
least) for judge + screen and for the judge alone, best of 3 passes over 1,020 replies (60 per locale).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    root = str(Path(sys.argv[1]).resolve())
    sys.path.insert(0, root)
    sys.path.insert(1, str(Path(__file__).resolve().parent))
    from language_worst import simulator_replies

    from exporter.contracts.reply_checks import screen
    from exporter.language.judge import default_judge

    judge = default_judge()
    replies = simulator_replies()
    both, alone = [], []
    for _ in range(3):
        started = time.process_time()
        for locale, reply in replies:
            judge.judge(reply, locale)
            screen(reply, "stop")
        both.append(len(replies) / (time.process_time() - started))
        started = time.process_time()
        for locale, reply in replies:
            judge.judge(reply, locale)
        alone.append(len(replies) / (time.process_time() - started))
    print(f"{root}: judge + screen {max(both):.0f}/s, judge alone {max(alone):.0f}/s per CPU second")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
