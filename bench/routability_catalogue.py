"""Benchmark: one routability pass over the simulated 500-model catalogue.

Measures, in one run against the embedded simulator on loopback:

* baseline: the same HTTP requests a pass makes (catalogue, then per model the endpoint listing and the
  minimal completion), sent back to back through the same transport, with no pacing, classification or store;
* the job at pace 0: the full pass (classification, durable SQLite rows, logging); its excess over the
  baseline is the job's own overhead per request;
* the job at a small pace: wall time against the ideal ``(requests - 1) x pace``;

then extrapolates the wall time at the default pace (2 s), where pacing dominates:
``wall ~= (requests - 1) x pace + one request``, as long as each request takes less than the pace.

Run: .venv/bin/python bench/routability_catalogue.py [--repeats 3] [--pace 0.01]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from exporter.configkit import Secret
from exporter.devtools.simulator.fleet import CATALOGUE_FLEET, load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from exporter.gateway.config import GatewayConfig
from exporter.routability.catalogue import CatalogueFilter, catalogue_models
from exporter.routability.config import RoutabilityConfig
from exporter.routability.job import Pacer, probe_body, run_pass
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpxTransport

DEFAULT_PACE = 2.0
KEY = Secret("env:BENCH", "sk-bench")


async def baseline(base_url: str) -> tuple[float, int]:
    """The pass's requests back to back: (seconds, requests)."""
    transport = HttpxTransport(timeout=30.0)
    try:
        started = time.perf_counter()
        reply = await transport.request("GET", f"{base_url}/models", KEY)
        models = [m for m in catalogue_models(reply.body, time.time(), CatalogueFilter()) or [] if m.active]
        requests = 1
        for model in models:
            await transport.request("GET", f"{base_url}/models/{model.slug}/endpoints", KEY)
            body = probe_body(model.slug, 16, None)
            await transport.request("POST", f"{base_url}/chat/completions", KEY, body)
            requests += 2
        return time.perf_counter() - started, requests
    finally:
        await transport.aclose()


async def job(base_url: str, pace: float, workdir: Path) -> tuple[float, int, dict[str, int]]:
    """One full pass into a fresh store: (seconds, models probed, results)."""
    transport = HttpxTransport(timeout=30.0)
    path = workdir / f"bench-{time.monotonic_ns()}.sqlite3"
    try:
        with RoutabilityStore(path) as store:
            started = time.perf_counter()
            summary = await run_pass(
                store,
                transport,
                GatewayConfig(base_url=base_url, api_key=KEY),
                RoutabilityConfig(pace=pace),
                pacer=Pacer(pace),
            )
            return time.perf_counter() - started, summary.probed, summary.results
    finally:
        await transport.aclose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=3, help="runs of baseline and pace-0 pass (default 3)")
    parser.add_argument("--pace", type=float, default=0.01, help="the small pace to verify (default 0.01 s)")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory() as tmp, SimulatorServer(load_fleet(CATALOGUE_FLEET)) as server:
        base_url = server.base_url
        workdir = Path(tmp)
        asyncio.run(baseline(base_url))  # warm-up
        base_runs, job_runs = [], []
        requests = probed = 0
        results: dict[str, int] = {}
        for _ in range(args.repeats):
            seconds, requests = asyncio.run(baseline(base_url))
            base_runs.append(seconds)
            seconds, probed, results = asyncio.run(job(base_url, 0.0, workdir))
            job_runs.append(seconds)
        paced, _, _ = asyncio.run(job(base_url, args.pace, workdir))

    base, full = statistics.median(base_runs), statistics.median(job_runs)
    per_req_base = base / requests
    overhead = (full - base) / requests
    ideal_paced = (requests - 1) * args.pace
    slip = (paced - ideal_paced) / (requests - 1)  # per paced request: timer overshoot + work after the wait
    default_wall = (requests - 1) * (DEFAULT_PACE + slip) + full / requests
    print(f"catalogue: {CATALOGUE_FLEET.name}, {probed} active chat models probed, results {results}")
    print(f"requests per pass: {requests} (1 catalogue + {probed} endpoint listings + {probed} completions)")
    print(
        f"baseline (same requests, back to back): median {base:.3f} s = {per_req_base * 1000:.2f} ms/request"
    )
    print(
        f"job at pace 0: median {full:.3f} s, ratio to baseline {full / base:.3f}, "
        f"job overhead {overhead * 1000:.3f} ms/request"
    )
    print(
        f"job at pace {args.pace * 1000:.0f} ms: {paced:.3f} s "
        f"vs ideal (requests-1) x pace {ideal_paced:.3f} s, "
        f"ratio {paced / ideal_paced:.3f} (slip {slip * 1000:.2f} ms/request)"
    )
    print(
        f"extrapolated at the default pace {DEFAULT_PACE:.0f} s: "
        f"(requests-1) x (pace + slip) + one request = "
        f"{default_wall:.0f} s = {default_wall / 3600:.3f} h, ratio to ideal "
        f"{default_wall / ((requests - 1) * DEFAULT_PACE):.4f}; listed_signal off: {probed} requests + 1, "
        f"~{probed * (DEFAULT_PACE + slip) / 3600:.3f} h"
    )


if __name__ == "__main__":
    main()
