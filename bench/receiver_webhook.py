"""Benchmark: webhook decisions per second with durable writes (append + fsync before the 2xx).

    .venv/bin/python bench/receiver_webhook.py [--rounds 5] [--duration 3]

Each delivery carries one firing suspend alert for a new route (a new model each time, so every delivery
is a real ``suspend`` decision, not a duplicate). Compared on the same server stack with: ``echo`` (parse
the JSON, answer 200: no decision, nothing durable) and ``fsync`` (parse, append one line, fsync, 200: the
bare durable write). Each round starts a fresh server and store.
Runs with 1 client (sequential, the Alertmanager case) and 8 concurrent clients.
Prints medians over rounds of deliveries/s and p99 latency, and ratios against both baselines.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
from pathlib import Path

from receiver_benchserver import load, p99, post, start_server

TOKEN = {"Authorization": "Bearer bench-webhook"}


def delivery(n: int, tag: str) -> bytes:
    alert = {
        "status": "firing",
        "labels": {
            "action": "suspend",
            "alertname": "CanaryProviderFailing",
            "model": f"bench/{tag}-{n}",
            "provider": "bad/fp8",
            "severity": "warning",
        },
        "annotations": {"discovered_providers": "bad/fp8,good/fp8,fine/fp8,ok/fp8"},
        "startsAt": "2026-11-29T15:41:37.58Z",
        "endsAt": "0001-01-01T00:00:00Z",
        "fingerprint": "f6ecf5b0c0e9deeb",
    }
    return json.dumps(
        {"version": "4", "status": "firing", "receiver": "bench", "groupKey": "{}", "alerts": [alert]}
    ).encode()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--duration", type=float, default=3.0)
    args = parser.parse_args()
    results: dict[str, list[tuple[float, float]]] = {}
    targets = {"webhook": "/v1/alerts", "echo": "/baseline/echo", "fsync": "/baseline/fsync"}
    for r in range(args.rounds):
        # A fresh server and store per round, so every round decides on a store of the same (small) size.
        with tempfile.TemporaryDirectory() as tmp:
            proc, port = start_server(Path(tmp))
            try:
                for clients in (1, 8):
                    for name, path in targets.items():

                        def make(n: int, path: str = path, tag: str = f"{r}-{clients}-{name}") -> bytes:
                            return post(path, delivery(n, tag), TOKEN)

                        rps, lat = asyncio.run(
                            load(port, make, connections=clients, duration=args.duration, expect=200)
                        )
                        results.setdefault(f"{name} x{clients}", []).append((rps, p99(lat)))
            finally:
                proc.terminate()
                proc.wait()
    med = {
        k: (statistics.median(r for r, _ in v), statistics.median(p for _, p in v))
        for k, v in results.items()
    }
    print(
        f"{args.rounds} rounds x {args.duration:g} s per target, medians "
        "(each webhook delivery = 1 suspend decision)"
    )
    print(f"{'target':<12} {'deliveries/s':>12} {'p99 ms':>8} {'vs echo':>8} {'vs fsync':>9}")
    for clients in (1, 8):
        echo, fsync = med[f"echo x{clients}"][0], med[f"fsync x{clients}"][0]
        for name in targets:
            rps, lat = med[f"{name} x{clients}"]
            label = f"{name} x{clients}"
            print(f"{label:<12} {rps:>12.0f} {lat * 1000:>8.2f} {rps / echo:>7.2f}x {rps / fsync:>8.2f}x")


if __name__ == "__main__":
    main()
