"""Exporter benchmarks (issue 2): round wall time vs the ideal bound, TTFT measurement error, CPU per probe,
and /metrics render time and size. The simulator runs in its own process, as a real gateway would.

Usage::

    .venv/bin/python bench/exporter_bench.py            # all four, prints a Markdown report
    .venv/bin/python bench/exporter_bench.py --quick    # smaller sizes, for a smoke run

Every figure is a median over repeated runs in this process, with its baseline measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
from prometheus_client import CollectorRegistry, Gauge
from prometheus_client.exposition import generate_latest

from exporter.contracts.refusal import RefusalContract
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract
from exporter.engine.rounds import ModelPlan
from exporter.engine.service import ExporterService
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest
from exporter.serving import tune_gc_for_latency

MODEL = "bench/model"
# With --pin, the simulator runs on CPU 1 and this process on CPU 0, so the two do not preempt each other.
PIN = False
PARAMS = "[max_tokens, temperature, response_format, structured_outputs]"


def fleet_yaml(ttfts_ms: list[float]) -> str:
    lines = ["seed: 1", "models:", f"  - id: {MODEL}", "    name: Bench", "    providers:"]
    for i, ttft in enumerate(ttfts_ms):
        lines += [
            f"      - tag: host{i:04d}/fp8",
            f"        name: Host{i:04d}",
            f"        supported_parameters: {PARAMS}",
            f"        profile: {{ttft: {{fixed: {ttft:g}ms}}, inter_token: 0ms}}",
        ]
    return "\n".join(lines) + "\n"


@contextmanager
def simulator(ttfts_ms: list[float]) -> Iterator[str]:
    """A simulator process serving one model with one host per TTFT given."""
    with tempfile.TemporaryDirectory() as tmp:
        fleet = Path(tmp) / "fleet.yaml"
        fleet.write_text(fleet_yaml(ttfts_ms))
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "exporter.cli",
                "--log-level",
                "WARNING",
                "simulator",
                "--fleet",
                str(fleet),
                "--listen",
                "127.0.0.1:0",
            ],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            assert proc.stdout is not None
            line = proc.stdout.readline()
            base_url = line.strip().rsplit(" ", 1)[-1]
            deadline = time.monotonic() + 20
            while True:
                try:
                    httpx.get(f"{base_url}/models", timeout=2)
                    break
                except httpx.HTTPError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.05)
            yield base_url
        finally:
            proc.terminate()
            proc.wait(10)


def contracts() -> list[TTFTContract | RefusalContract | StructuredContract]:
    return [TTFTContract(threshold_seconds=10.0), RefusalContract(), StructuredContract()]


async def _one_round(base_url: str, concurrency: int) -> tuple[float, int, float]:
    client = GatewayClient(base_url, "bench-key", timeout=60)
    try:
        service = ExporterService([ModelPlan(MODEL, client)], contracts(), 0.0, concurrency)
        cpu0 = time.process_time()
        snap = await service.run_round()
        cpu = time.process_time() - cpu0
        assert snap.last_round is not None
        probes = sum(len(v) for v in snap.last_round.results.values())
        return snap.last_round.duration_seconds, probes, cpu
    finally:
        await client.aclose()


async def _bare_cpu(base_url: str, n: int) -> float:
    """Baseline: CPU ms per plain httpx chat request to the same simulator (no judging, no bookkeeping)."""
    async with httpx.AsyncClient(timeout=60) as client:
        body = {
            "model": MODEL,
            "messages": [{"role": "user", "content": "Say hi."}],
            "max_tokens": 16,
            "provider": {"only": ["host0000/fp8"], "allow_fallbacks": False},
        }
        cpu0 = time.process_time()
        for _ in range(n):
            (await client.post(f"{base_url}/chat/completions", json=body)).raise_for_status()
        return (time.process_time() - cpu0) / n * 1000


def bench_rounds(plan: list[tuple[int, int]], repeats: int, delay_ms: float) -> list[str]:
    rows = [
        "| hosts | concurrency | ideal s | wall s (median) | ratio | CPU ms / probe "
        "| bare httpx CPU ms / request |",
        "|---|---|---|---|---|---|---|",
    ]
    per_host = 3 * delay_ms / 1000  # three sequential probes, each waiting `delay` for its first token
    for n, concurrency in plan:
        with simulator([delay_ms] * n) as base_url:
            asyncio.run(_one_round(base_url, concurrency))  # warm-up: connections, imports
            walls, cpus = [], []
            for _ in range(repeats):
                wall, probes, cpu = asyncio.run(_one_round(base_url, concurrency))
                walls.append(wall)
                cpus.append(cpu / probes * 1000)
            bare = asyncio.run(_bare_cpu(base_url, 20))
        ideal = math.ceil(n / concurrency) * per_host
        wall = statistics.median(walls)
        rows.append(
            f"| {n} | {concurrency} | {ideal:.2f} | {wall:.3f} | {wall / ideal:.3f}x | "
            f"{statistics.median(cpus):.2f} | {bare:.2f} |"
        )
    return rows


async def _ttft_errors(base_url: str, ttfts_ms: list[float]) -> list[float]:
    client = GatewayClient(base_url, "bench-key", timeout=60)
    try:

        async def one(i: int) -> float:
            req = ChatRequest(
                MODEL,
                ({"role": "user", "content": "Say hi."},),
                16,
                pin=f"host{i:04d}/fp8",
                stream=True,
                first_token_deadline=30,
            )
            result = await client.chat(req)
            assert result.ttft_seconds is not None, result
            return (result.ttft_seconds - ttfts_ms[i] / 1000) * 1000

        return list(await asyncio.gather(*(one(i) for i in range(len(ttfts_ms)))))
    finally:
        await client.aclose()


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_ttft(streams: int, repeats: int) -> list[str]:
    rng = random.Random(7)
    rows = [
        "| injected TTFT | streams | error p50 ms | error p99 ms | error max ms |",
        "|---|---|---|---|---|",
    ]
    for label, ttfts in (
        ("spread 200-2000 ms", [rng.uniform(200, 2000) for _ in range(streams)]),
        ("all 500 ms (simultaneous)", [500.0] * streams),
    ):
        with simulator(ttfts) as base_url:
            asyncio.run(_ttft_errors(base_url, ttfts))  # warm-up
            errors: list[float] = []
            for _ in range(repeats):
                errors += asyncio.run(_ttft_errors(base_url, ttfts))
        rows.append(
            f"| {label} | {streams} | {_pct(errors, 0.5):.2f} | {_pct(errors, 0.99):.2f} | "
            f"{max(errors):.2f} |"
        )
    return rows


def bench_metrics(hosts: int, repeats: int, concurrency: int) -> list[str]:
    with simulator([5.0] * hosts) as base_url:

        async def run() -> ExporterService:
            client = GatewayClient(base_url, "bench-key", timeout=60)
            service = ExporterService([ModelPlan(MODEL, client)], contracts(), 0.0, concurrency)
            await service.run_round()
            await service.run_round()
            await client.aclose()
            return service

        service = asyncio.run(run())
    body = generate_latest(service.registry)
    series = sum(1 for line in body.splitlines() if line and not line.startswith(b"#"))
    ours = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        generate_latest(service.registry)
        ours.append(time.perf_counter() - t0)
    # Baseline: the same number of series as plain prometheus_client gauges (the cheapest exposition).
    registry = CollectorRegistry()
    gauge = Gauge("baseline_series", "baseline", ["a", "b", "c", "d"], registry=registry)
    for i in range(series):
        gauge.labels(MODEL, f"host{i % hosts:04d}/fp8", str(i // hosts), "x").set(i)
    base = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        generate_latest(registry)
        base.append(time.perf_counter() - t0)
    m_ours, m_base = statistics.median(ours) * 1000, statistics.median(base) * 1000
    return [
        "| hosts | series | body KiB | render ms (median) | plain-gauge baseline ms | ratio |",
        "|---|---|---|---|---|---|",
        f"| {hosts} | {series} | {len(body) / 1024:.0f} | {m_ours:.1f} | {m_base:.1f} "
        f"| {m_ours / m_base:.2f}x |",
    ]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="smaller sizes and fewer repeats")
    parser.add_argument("--parts", default="rounds,ttft,metrics", help="comma-separated subset to run")
    parser.add_argument(
        "--pin", action="store_true", help="pin the simulator to CPU 1 and this process to CPU 0"
    )
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    tune_gc_for_latency()  # as `canary exporter` does
    if args.pin:
        global PIN
        PIN = True
        os.sched_setaffinity(0, {0})
    repeats = 3 if args.quick else 5
    print(f"# exporter benchmarks ({os.cpu_count()} CPUs, python {sys.version.split()[0]})\n")
    if "rounds" in parts:
        print("## Round wall time vs the ideal bound (3 contracts per host, 1 s injected per probe)\n")
        plan = [(15, 8), (100, 50)] if args.quick else [(15, 8), (100, 50), (1000, 100)]
        print("\n".join(bench_rounds(plan, repeats, 1000.0)), flush=True)
    if "ttft" in parts:
        print("\n## TTFT measurement error against the injected delay (100 concurrent streams)\n")
        print("\n".join(bench_ttft(100, repeats)), flush=True)
    if "metrics" in parts:
        print("\n## /metrics render time and size\n")
        print("\n".join(bench_metrics(100 if args.quick else 1000, 20, concurrency=100)), flush=True)
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of the benchmark process: {rss_mib:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
