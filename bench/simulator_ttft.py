"""How precisely the simulator delivers an injected TTFT, seen by a client on loopback.

The simulator runs in its own process (``canary simulator`` code path) with ten providers whose first
token is fixed at 100, 150, ..., 550 ms. A light raw-HTTP client opens 1 or N streams (N/10 per
provider), either at seeded random offsets within 0.5 s (N streams open at once, steady state) or all in
the same instant (worst case: N requests queue for intake), times each from sending the request to the
first non-empty ``delta.content``, and reports the error against the injected value. The baseline,
measured in the same run, is the same load against providers with a 0 ms TTFT: loopback, HTTP and
request-handling overhead alone.

Run: .venv/bin/python bench/simulator_ttft.py [--streams 100] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MODEL = "bench/ttft"
CONTENT = b'"content":"'
EMPTY_CONTENT = b'"content":""'
TTFTS_MS = [100 + 50 * i for i in range(10)]
LAUNCH = """
import argparse, sys
from exporter.devtools.simulator.cli import register
parser = argparse.ArgumentParser(prog="canary")
register(parser.add_subparsers())
args = parser.parse_args(sys.argv[1:])
sys.exit(args.func(args))
"""


def fleet_text() -> str:
    lines = ["seed: 1", "models:", f"  - id: {MODEL}", "    providers:"]
    for ms in TTFTS_MS:
        lines.append(f"      - {{tag: p{ms}/fp8, profile: {{ttft: {ms}ms, inter_token: 2ms}}}}")
        lines.append(f"      - {{tag: z{ms}/fp8, profile: {{ttft: 0ms, inter_token: 2ms}}}}")
    return "\n".join(lines) + "\n"


async def one_stream(port: int, tag: str, delay: float = 0.0) -> float:
    """Seconds from sending the request to the first non-empty content delta (raw HTTP/1.1, so the
    client's own overhead stays small and the figure is the simulator's)."""
    await asyncio.sleep(delay)
    body = json.dumps(
        {
            "model": MODEL,
            "messages": [
                {"role": "system", "content": "You are Ana, an innkeeper. Stay in character."},
                {"role": "user", "content": "Hi"},
            ],
            "stream": True,
            "max_tokens": 64,
            "provider": {"only": [tag], "allow_fallbacks": False},
        }
    ).encode()
    head = (
        "POST /api/v1/chat/completions HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        "Authorization: Bearer sk-bench\r\n"  # the simulator requires a key, as OpenRouter does
        f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    started = time.perf_counter()
    writer.write(head.encode() + body)
    first = None
    buffer = b""
    while chunk := await reader.read(65536):
        buffer += chunk
        if first is None and CONTENT in buffer.replace(EMPTY_CONTENT, b""):
            first = time.perf_counter() - started
    writer.close()
    assert first is not None, tag
    return first


async def round_errors(port: int, streams: int, prefix: str, spread: float) -> list[float]:
    """Error in ms (measured - injected) of ``streams`` streams over the ten providers, started together
    (``spread`` 0) or at seeded random offsets within ``spread`` seconds."""
    rng = random.Random(streams)
    tags = [TTFTS_MS[i % len(TTFTS_MS)] for i in range(streams)]
    delays = [rng.uniform(0, spread) for _ in tags]
    results = await asyncio.gather(
        *(one_stream(port, f"{prefix}{ms}/fp8", d) for ms, d in zip(tags, delays, strict=True))
    )
    injected = [ms if prefix == "p" else 0 for ms in tags]
    return [r * 1000 - i for r, i in zip(results, injected, strict=True)]


def summary(name: str, errors: list[float]) -> tuple[float, float]:
    ordered = sorted(errors)
    p99 = ordered[min(len(ordered) - 1, round(0.99 * (len(ordered) - 1)))]
    median = statistics.median(ordered)
    print(f"  {name:<66} n={len(ordered):4d}  median {median:6.2f}  p99 {p99:6.2f}  max {ordered[-1]:6.2f}")
    return median, p99


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--streams", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        fleet = Path(tmp) / "fleet.yaml"
        fleet.write_text(fleet_text())
        process = subprocess.Popen(
            [sys.executable, "-c", LAUNCH, "simulator", "--fleet", str(fleet), "--listen", "127.0.0.1:0"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=REPO,
        )
        try:
            assert process.stdout is not None
            base_url = process.stdout.readline().rsplit(" ", 1)[-1].strip()
            port = int(base_url.rsplit(":", 1)[1].split("/")[0])
            print(f"simulator at {base_url}; up to {args.streams} concurrent streams, {args.rounds} rounds")
            scenarios = [
                ("1 stream", 1, 0.0, args.rounds * 10),
                (f"{args.streams} streams, starts spread over 0.5 s", args.streams, 0.5, args.rounds),
                (f"{args.streams} streams, all started together", args.streams, 0.0, args.rounds),
            ]
            print("TTFT error seen by the client (measured - injected), ms:")
            for name, streams, spread, rounds in scenarios:
                figures = {}
                for prefix, label in (("z", "baseline, injected 0 ms"), ("p", "injected 100-550 ms")):
                    errors: list[float] = []
                    for _ in range(rounds):
                        errors += asyncio.run(round_errors(port, streams, prefix, spread))
                    figures[prefix] = summary(f"{name}: {label}", errors)
                print(
                    f"    -> p99 injected/baseline {figures['p'][1] / max(figures['z'][1], 1e-9):.2f}x; "
                    f"median {figures['p'][0]:+.2f} ms vs baseline {figures['z'][0]:+.2f} ms"
                )
        finally:
            process.terminate()
            process.wait(timeout=10)
            if process.stdout is not None:
                process.stdout.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
