"""Benchmark: GET /v1/ignore with 50 keep-alive pollers, vs a static JSON file on the same stack.

    .venv/bin/python bench/receiver_ignore.py [--rounds 5] [--duration 3]

Each target is the ignore list (200), the ignore list with a matching If-None-Match (304), the same JSON
as a static file (Starlette StaticFiles: the baseline) and the same JSON from memory (bytes), under:
- saturation: 50 closed-loop clients (each sends as soon as it has its answer): requests/s, p99, ratio;
- polling: 50 pollers each polling every 50 ms (1000 requests/s offered, open loop): p99 latency.
Targets are interleaved in every round; medians over rounds are printed.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
from pathlib import Path

import httpx
from receiver_benchserver import get, load, p99, start_server

MODEL = "moonshotai/kimi-k2-0905"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=3.0)
    parser.add_argument("--connections", type=int, default=50)
    parser.add_argument("--poll-interval", type=float, default=0.05)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        proc, port = start_server(Path(tmp))
        try:
            path = f"/v1/ignore?model={MODEL}"
            etag = httpx.get(f"http://127.0.0.1:{port}{path}").headers["etag"]
            targets = {
                "ignore 200": (get(path), 200),
                "ignore 304": (get(path, {"If-None-Match": etag}), 304),
                "static file": (get("/baseline/static/ignore.json"), 200),
                "bytes from memory": (get("/baseline/bytes"), 200),
            }
            warm = targets["ignore 200"][0]
            asyncio.run(load(port, lambda i: warm, connections=args.connections, duration=1.0, expect=200))
            for _ in range(args.rounds):
                for name, (raw, status) in targets.items():

                    def fixed(i: int, raw: bytes = raw) -> bytes:
                        return raw

                    rps, lat = asyncio.run(
                        load(port, fixed, connections=args.connections, duration=args.duration, expect=status)
                    )
                    _, polled = asyncio.run(
                        load(
                            port,
                            fixed,
                            connections=args.connections,
                            duration=args.duration,
                            expect=status,
                            interval=args.poll_interval,
                        )
                    )
                    results.setdefault(name, []).append((rps, p99(lat), p99(polled)))
        finally:
            proc.terminate()
            proc.wait()
    med = {name: [statistics.median(x[i] for x in v) for i in range(3)] for name, v in results.items()}
    base = med["static file"][0]
    offered = args.connections / args.poll_interval
    print(
        f"{args.connections} keep-alive clients, {args.rounds} rounds x {args.duration:g} s per load, medians"
    )
    print(
        f"{'target':<18} {'sat. req/s':>10} {'sat. p99 ms':>11} {'vs static':>9} "
        f"{f'p99 ms @{offered:.0f}/s':>15}"
    )
    for name, (rps, lat, polled) in med.items():
        print(f"{name:<18} {rps:>10.0f} {lat * 1000:>11.2f} {rps / base:>8.2f}x {polled * 1000:>15.2f}")


if __name__ == "__main__":
    main()
