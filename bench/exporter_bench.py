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
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
from prometheus_client import CollectorRegistry, Gauge
from prometheus_client.exposition import generate_latest

from exporter.commands.exporter_service import ExporterService
from exporter.contracts.refusal import RefusalContract
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.engine.rounds import ModelPlan
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, ChatResult
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
                "exporter.commands.canary",
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
    return [TTFTContract(TTFTSettings(threshold=10.0)), RefusalContract(), StructuredContract()]


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
    async with httpx.AsyncClient(timeout=60, headers={"Authorization": "Bearer bench-key"}) as client:
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


@dataclass(frozen=True)
class _Stream:
    """One measured stream, all in milliseconds."""

    vs_nominal: float  # measured TTFT - the configured delay
    vs_applied: float  # measured TTFT - the delay the simulator applied (its first-token write - its arrival)
    intake: float  # simulator's arrival stamp - client's send stamp: loopback + the simulator's request queue
    receive: float  # client's first-token stamp - simulator's first-token write: loopback + client stamping


def _compare(results: list[ChatResult], log: list[dict[str, Any]], ttfts_ms: list[float]) -> list[_Stream]:
    """Each stream's measurement against the simulator's own record of the request (``GET /_sim/requests``:
    CLOCK_MONOTONIC stamps, shared by both processes; the newest record per host)."""
    latest = {record["pin"]: record for record in log}
    streams = []
    for i, result in enumerate(results):
        record = latest[f"host{i:04d}/fp8"]
        assert result.ttft_seconds is not None and result.sent_at is not None, result
        assert record["first_token_loop"] is not None, record
        measured = result.ttft_seconds * 1000
        applied = (record["first_token_loop"] - record["t_loop"]) * 1000
        streams.append(
            _Stream(
                vs_nominal=measured - ttfts_ms[i],
                vs_applied=measured - applied,
                intake=(record["t_loop"] - result.sent_at) * 1000,
                receive=(result.sent_at + result.ttft_seconds - record["first_token_loop"]) * 1000,
            )
        )
    return streams


async def _chat_all(client: GatewayClient, starts_ms: list[float]) -> list[ChatResult]:
    """One streamed chat per host, all at once (host i sends after ``starts_ms[i]``)."""

    async def one(i: int) -> ChatResult:
        await asyncio.sleep(starts_ms[i] / 1000)
        req = ChatRequest(
            MODEL,
            ({"role": "user", "content": "Say hi."},),
            16,
            pin=f"host{i:04d}/fp8",
            stream=True,
            first_token_deadline=30,
        )
        return await client.chat(req)

    return list(await asyncio.gather(*(one(i) for i in range(len(starts_ms)))))


async def _ttft_scenario(
    base_url: str, ttfts_ms: list[float], starts_ms: list[float], repeats: int
) -> list[_Stream]:
    """``repeats`` rounds with one long-lived client, as the exporter keeps one."""
    measured: list[_Stream] = []
    async with (
        httpx.AsyncClient(base_url=base_url.rsplit("/api/", 1)[0], timeout=10) as control,
        GatewayClient(base_url, "bench-key", timeout=60) as client,
    ):
        await _chat_all(client, starts_ms)  # warm-up: connections, imports
        for _ in range(repeats):
            results = await _chat_all(client, starts_ms)
            log = (await control.get("/_sim/requests", params={"model": MODEL})).json()
            measured += _compare(results, log, ttfts_ms)
    return measured


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def bench_ttft(streams: int, repeats: int) -> list[str]:
    """TTFT error of the client as shipped with ``streams`` concurrent streams, on warm connections, against
    the simulator's own record of each request."""
    rng = random.Random(7)
    spread = [rng.uniform(200, 2000) for _ in range(streams)]
    rows = [
        "| scenario | error vs applied p50 / p99 / max ms | receive-side p50 / p99 ms "
        "| intake p50 / p99 ms | error vs nominal p99 ms |",
        "|---|---|---|---|---|",
    ]
    scenarios = (
        ("sends 2 ms apart, TTFT 200-2000 ms", spread, [2.0 * i for i in range(streams)]),
        ("all sent at once, TTFT 200-2000 ms", spread, [0.0] * streams),
        ("all sent at once, every first token at 500 ms", [500.0] * streams, [0.0] * streams),
    )
    for label, ttfts, starts in scenarios:
        with simulator(ttfts) as base_url:
            measured = asyncio.run(_ttft_scenario(base_url, ttfts, starts, repeats))
        applied = [s.vs_applied for s in measured]
        receive = [s.receive for s in measured]
        intake = [s.intake for s in measured]
        rows.append(
            f"| {label} "
            f"| {_pct(applied, 0.5):.2f} / **{_pct(applied, 0.99):.2f}** / {max(applied):.2f} "
            f"| {_pct(receive, 0.5):.2f} / {_pct(receive, 0.99):.2f} "
            f"| {_pct(intake, 0.5):.2f} / {_pct(intake, 0.99):.2f} "
            f"| {_pct([s.vs_nominal for s in measured], 0.99):.2f} |"
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
        print("\n## TTFT measurement error with 100 concurrent streams\n")
        print("\n".join(bench_ttft(100, repeats)), flush=True)
    if "metrics" in parts:
        print("\n## /metrics render time and size\n")
        print("\n".join(bench_metrics(100 if args.quick else 1000, 20, concurrency=100)), flush=True)
    rss_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak RSS of the benchmark process: {rss_mib:.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
