"""Evidence-store benchmarks (issue 10): its CPU against a round's at 1000 hosts, disk per host per day, and
the p99 of evidence queries over a day of a 100-host fleet.

Usage::

    .venv/bin/python bench/evidence_store.py            # all three, prints a Markdown report
    .venv/bin/python bench/evidence_store.py --quick    # 200 hosts and fewer repeats, for a smoke run

1. A real round (ttft, refusal, structured) over N simulated hosts, the simulator in its own process, as
   in ``bench/exporter_bench.py``; the round's CPU (``process_time``) is the baseline, and the store's CPU is
   that of ``EvidenceStore.record(report.evidence)`` (one transaction; it runs on a worker thread in the
   exporter, here on the main thread so ``process_time`` sees it alone). Medians of the repeats.
2. A day at the default 30-minute cadence: 48 rounds of 100 hosts, each with the round's real records plus a
   language attempt carrying the judge's real evidence of a code-mixed reply (a failing host adds two
   confirmations); used pages and file size per host.
3. Query latency over that day: the evidence link of an alert (route + fail + since), a route's last 100, a
   contract fleet-wide, and a three-page walk; baseline: a primary-key lookup on the same connection.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import importlib.util
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

from exporter.evidence.store import EvidenceRecord, EvidenceStore
from exporter.language.judge import default_judge
from exporter.outcomes import Outcome, Reason

_spec = importlib.util.spec_from_file_location(
    "exporter_bench", Path(__file__).with_name("exporter_bench.py")
)
assert _spec is not None and _spec.loader is not None
exporter_bench = importlib.util.module_from_spec(_spec)
sys.modules["exporter_bench"] = exporter_bench
_spec.loader.exec_module(exporter_bench)

DAY_ROUNDS = 48  # 30-minute cadence
DAY_HOSTS = 100
MIXED_PT = (
    "A tempestade finalmente passou e o mar está calmo de novo. Eu me lembro daquela noite como se fosse "
    "ontem. El viento arrancó las velas y el agua entraba por todas partes del barco. Nadie creía que "
    "saldríamos vivos de aquella tormenta tan terrible. Mas nós sobrevivemos, e é isso que importa agora."
)


async def _round_records(base_url: str, concurrency: int) -> tuple[float, tuple[EvidenceRecord, ...]]:
    from exporter.commands.exporter_service import ExporterService
    from exporter.engine.rounds import ModelPlan
    from exporter.gateway.client import GatewayClient

    client = GatewayClient(base_url, "bench-key", timeout=60)
    try:
        service = ExporterService(
            [ModelPlan(exporter_bench.MODEL, client)], exporter_bench.contracts(), 0.0, concurrency
        )
        cpu0 = time.process_time()
        snap = await service.run_round()
        cpu = time.process_time() - cpu0
        assert snap.last_round is not None
        return cpu, snap.last_round.evidence
    finally:
        await client.aclose()


def bench_cpu(hosts: int, concurrency: int, repeats: int) -> tuple[list[str], tuple[EvidenceRecord, ...]]:
    rows = [
        "| hosts | records / round | round CPU ms (median) | store CPU ms (median) | ratio |",
        "|---|---|---|---|---|",
    ]
    rounds, stores = [], []
    records: tuple[EvidenceRecord, ...] = ()
    with exporter_bench.simulator([20.0] * hosts) as base_url, tempfile.TemporaryDirectory() as tmp:
        store = EvidenceStore(Path(tmp) / "e.sqlite3")
        asyncio.run(_round_records(base_url, concurrency))  # warm-up: connections, imports
        for _ in range(repeats):
            cpu, records = asyncio.run(_round_records(base_url, concurrency))
            cpu0 = time.process_time()
            store.record(records)
            stores.append(time.process_time() - cpu0)
            rounds.append(cpu)
        store.close()
    r, s = statistics.median(rounds) * 1000, statistics.median(stores) * 1000
    rows.append(f"| {hosts} | {len(records)} | {r:.0f} | {s:.1f} | {s / r:.2%} |")
    return rows, records


def _language_attempts(
    host: int, round_number: int, at: float, template: EvidenceRecord
) -> list[EvidenceRecord]:
    verdict = default_judge().judge(MIXED_PT, "pt-BR")
    failing = host % 10 == 0  # one host in ten fails, with two confirmations
    result = dataclasses.replace(
        template.result,
        locale="pt-BR",
        outcome=verdict.outcome if failing else Outcome.PASS,
        reason=verdict.reason if failing else Reason.NONE,
        detail=verdict.detail,
        evidence=verdict.evidence,
        excerpt=MIXED_PT,
    )
    first = dataclasses.replace(template, contract="language", at=at, round=round_number, result=result)
    return [dataclasses.replace(first, attempt=n) for n in range(1, 4 if failing else 2)]


def day_store(path: Path, records: tuple[EvidenceRecord, ...]) -> EvidenceStore:
    """A day of a 100-host fleet written round by round (one transaction each), ending now."""
    by_host = {}
    for record in records:
        by_host.setdefault(record.provider, []).append(record)
    hosts = sorted(by_host)[:DAY_HOSTS]
    now = time.time()
    store = EvidenceStore(path)
    for number in range(DAY_ROUNDS):
        at = now - (DAY_ROUNDS - number) * 1800
        batch: list[EvidenceRecord] = []
        for index, host in enumerate(hosts):
            own = [dataclasses.replace(r, at=at, round=number + 1) for r in by_host[host]]
            batch += own + _language_attempts(index, number + 1, at, own[0])
        store.record(batch)
    return store


def bench_disk(path: Path, store: EvidenceStore) -> list[str]:
    store.close()
    size = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    reopened = EvidenceStore(path)
    used = reopened.used_bytes()
    count = len(reopened.query(limit=500).records)
    reopened.close()
    main = path.stat().st_size
    return [
        "| hosts | rounds | used pages | database file | with WAL | per host per day (used) | rows seen |",
        "|---|---|---|---|---|---|---|",
        f"| {DAY_HOSTS} | {DAY_ROUNDS} | {used / 2**20:.1f} MiB | {main / 2**20:.1f} MiB "
        f"| {size / 2**20:.1f} MiB | {used / DAY_HOSTS / 1024:.0f} KiB | {count}+ |",
    ]


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def bench_queries(path: Path, repeats: int) -> list[str]:
    store = EvidenceStore(path)
    model = exporter_bench.MODEL
    newest = store.query(limit=1).records[0]
    since = newest.at - 3 * 1800
    shapes = {
        "alert link: route, fail, since 3 rounds": lambda i: store.query(
            model=model, provider=f"host{i % DAY_HOSTS:04d}/fp8", outcome="fail", since=since
        ),
        "a route's last 100": lambda i: store.query(model=model, provider=f"host{i % DAY_HOSTS:04d}/fp8"),
        "one contract fleet-wide, 100": lambda i: store.query(contract="language", outcome="fail"),
    }
    rows = ["| query | p50 ms | p99 ms | p99 / baseline p99 |", "|---|---|---|---|"]
    baseline: list[float] = []
    for i in range(repeats):
        t0 = time.perf_counter()
        store.query(model=model, provider=f"host{i % DAY_HOSTS:04d}/fp8", limit=1)
        baseline.append((time.perf_counter() - t0) * 1000)
    base99 = _percentile(baseline, 0.99)
    base50 = statistics.median(baseline)
    rows.append(f"| baseline: newest row of a route (limit 1) | {base50:.3f} | {base99:.3f} | 1.0x |")
    for name, run in shapes.items():
        times = []
        for i in range(repeats):
            t0 = time.perf_counter()
            run(i)
            times.append((time.perf_counter() - t0) * 1000)
        p99 = _percentile(times, 0.99)
        rows.append(f"| {name} | {statistics.median(times):.3f} | {p99:.3f} | {p99 / base99:.1f}x |")
    store.close()
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="200 hosts, fewer repeats")
    args = parser.parse_args()
    hosts, repeats, queries = (200, 2, 200) if args.quick else (1000, 3, 1000)
    cpu_rows, records = bench_cpu(hosts, 100, repeats)
    print(f"## Store CPU vs a round's CPU ({os.cpu_count()} cores)\n\n" + "\n".join(cpu_rows) + "\n")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "day.sqlite3"
        store = day_store(path, records)
        print("## Disk for a day at the 30-minute cadence\n\n" + "\n".join(bench_disk(path, store)) + "\n")
        print(f"## Queries over that day ({queries} each)\n\n" + "\n".join(bench_queries(path, queries)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
