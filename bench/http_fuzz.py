"""Fuzz every route of every service (issue 29): ≥ 10,000 seeded hostile requests, 0 5xx and every response
within its stated byte bound (``tests/httpfuzz.py``; the services and their bounds:
``tests/fuzztargets.py``). The test suite runs the same with fewer requests
(``tests/test_http_fuzz.py``).

Usage::

    .venv/bin/python bench/http_fuzz.py                       # 2,500 requests per service, seed 29
    .venv/bin/python bench/http_fuzz.py --requests 10000 --seed 7
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.fuzztargets import fuzz_targets
from tests.httpfuzz import fuzz


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--requests", type=int, default=2500, help="per service")
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # the services log every refusal; the table is the result
    print("| service | requests | routes | 2xx/3xx | 4xx | 5xx | violations | largest body | requests/s |")
    print("|---|---|---|---|---|---|---|---|---|")
    total = failed = 0
    with tempfile.TemporaryDirectory() as tmp, fuzz_targets(Path(tmp)) as targets:
        for target in targets:
            started = time.perf_counter()
            report = asyncio.run(fuzz(target, args.requests, args.seed))
            rate = report.sent / (time.perf_counter() - started)
            ok = sum(n for s, n in report.statuses.items() if s < 400)
            client = sum(n for s, n in report.statuses.items() if 400 <= s < 500)
            server = sum(n for s, n in report.statuses.items() if s >= 500)
            print(
                f"| {target.name} | {report.sent} | {len(target.routes)} | {ok} | {client} | {server} "
                f"| {len(report.violations)} | {report.largest:,} | {rate:.0f} |",
                flush=True,
            )
            for v in report.violations[:10]:
                print(f"  violation #{v.index}: {v.method} {v.url} -> {v.status} ({v.size} bytes): {v.what}")
            total += report.sent
            failed += len(report.violations)
    print(
        f"\n{total} requests, {failed} violations (5xx other than simulated faults, or over the byte bound)"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
