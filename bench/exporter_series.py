"""Exporter series per host at steady state (issue 29): `/metrics` series and bytes over rounds, at 1,000 and
3,000 hosts, with the four contracts and the language contract's locale rotating.

The rounds are synthetic (``RoundReport`` values folded by the real ``accumulate`` and rendered by the real
collector), so the figure is the exporter's own layout, not a gateway's speed. 1 % of attempts fail with a
rotating reason, as a live fleet's do. The baseline, measured on the same rounds, is the layout in which the
TTFT histogram and tokens were per host and the language counter kept passes per locale.

Usage::

    .venv/bin/python bench/exporter_series.py              # 1,000 and 3,000 hosts, 10 rounds
    .venv/bin/python bench/exporter_series.py --quick      # 200 hosts, 4 rounds
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import generate_latest

from exporter.contracts.base import ProbeResult
from exporter.engine.metrics import SnapshotCollector
from exporter.engine.rounds import RoundReport
from exporter.engine.snapshot import TTFT_BUCKETS, Snapshot, accumulate
from exporter.gateway.types import ChatResult, Endpoint
from exporter.language.locales import LOCALES
from exporter.outcomes import Outcome, Reason, Usage

MODEL = "bench/model"
CONTRACTS = ("ttft", "refusal", "structured", "language")
FAIL_REASONS = {
    "ttft": Reason.SLOW_FIRST_TOKEN, "refusal": Reason.REFUSAL_PATTERN,
    "structured": Reason.INVALID_JSON, "language": Reason.MIXING,
}  # fmt: skip


def report(number: int, hosts: int, rng: random.Random) -> RoundReport:
    locales = sorted(LOCALES)
    endpoints = tuple(
        Endpoint(f"host{i:04d}/fp8", f"Host{i:04d}", "fp8", status=0, uptime_last_30m=99.0)
        for i in range(hosts)
    )
    results: dict[tuple[str, str], dict[str, ProbeResult]] = {}
    for i, endpoint in enumerate(endpoints):
        by: dict[str, ProbeResult] = {}
        for contract in CONTRACTS:
            failed = rng.random() < 0.01
            outcome = Outcome.FAIL if failed else Outcome.PASS
            by[contract] = ProbeResult(
                outcome,
                FAIL_REASONS[contract] if failed else Reason.NONE,
                ttft_seconds=rng.uniform(0.2, 3.0) if contract == "ttft" and not failed else None,
                reply=ChatResult(usage=Usage(40, 120, 0.0001)),
                locale=locales[(number + i) % len(locales)] if contract == "language" else None,
            )
        results[(MODEL, endpoint.tag)] = by
    return RoundReport(number, time.time(), 1.0, {MODEL: endpoints}, {}, results)


def baseline_series(snap: Snapshot, seen_locales: Counter[tuple[str, str, str, str, str]]) -> int:
    """The same rounds in the earlier layout: a TTFT histogram and two token series per host, and every
    (locale, outcome, reason) of the language contract per host, passes included."""
    ttft_hosts = len(snap.ttft_last)
    per_host_histogram = ttft_hosts * (len(TTFT_BUCKETS) + 3)  # buckets, +Inf, _sum, _count
    return (
        _series(snap)
        - _family(snap, b"canary_probe_ttft_seconds")
        - _family(snap, b"canary_probe_ttft_last_seconds")
        - _family(snap, b"canary_probe_tokens_total")
        - _family(snap, b"canary_probe_language_outcomes_total")
        + per_host_histogram
        + 2 * len(snap.cost_usd)
        + len(seen_locales)
    )


def _render(snap: Snapshot) -> bytes:
    registry = CollectorRegistry()
    registry.register(SnapshotCollector(lambda: snap))
    return generate_latest(registry)


def _series(snap: Snapshot) -> int:
    return sum(1 for line in _render(snap).splitlines() if line and not line.startswith(b"#"))


def _family(snap: Snapshot, name: bytes) -> int:
    return sum(
        1
        for line in _render(snap).splitlines()
        if line.startswith(name + b"{") or line.startswith(name + b"_")
    )


def run(hosts: int, rounds: int) -> list[str]:
    rng = random.Random(29)
    snap = Snapshot(interval_seconds=1800.0)
    seen: Counter[tuple[str, str, str, str, str]] = Counter()
    rows = []
    for number in range(1, rounds + 1):
        r = report(number, hosts, rng)
        for (model, provider), by in r.results.items():
            lang = by["language"]
            assert lang.locale is not None
            seen[(model, provider, lang.locale, lang.outcome.value, lang.reason.value)] += 1
        snap = accumulate(snap, r)
        if number in (1, rounds):
            body = _render(snap)
            series = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
            base = baseline_series(snap, seen)
            rows.append(
                f"| {hosts} | {number} | {series} | {series / hosts:.1f} | {len(body) / 2**20:.2f} "
                f"| {base} | {base / hosts:.1f} | {series / base:.2f}x |"
            )
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    print("| hosts | rounds | series | per host | MiB per scrape | baseline series | per host | ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for hosts, rounds in [(200, 4)] if args.quick else [(1000, 10), (3000, 10)]:
        print("\n".join(run(hosts, rounds)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
