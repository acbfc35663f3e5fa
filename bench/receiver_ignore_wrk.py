"""Benchmark: p99 of GET /v1/ignore with 50 pollers, measured by wrk (C) instead of a Python load generator.

Usage::

    apt-get install wrk                                   # Debian's wrk
    .venv/bin/python bench/receiver_ignore_wrk.py [--seconds 10] [--poll-ms 100]

50 connections, each polling every ``--poll-ms`` +/- 50 % (wrk's ``delay()`` hook: independent phases,
as real routers poll; 50 pollers at 100 ms = 500 requests/s offered, the service-time regime, not
saturation). The server (the real receiver app plus same-stack baselines, see ``receiver_benchserver.py``)
is pinned to CPU 1 and wrk to CPU 0, so the load generator does not compete with the server for a core.
Targets are measured alternately in one run: the
ignore list (200), the ignore list with ``If-None-Match`` (304), and the same JSON as a static file.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from receiver_benchserver import start_server

MODEL = "moonshotai/kimi-k2-0905"
_LATENCY = re.compile(r"^\s+(50|90|99)(?:\.000)?%\s+([\d.]+)(us|ms|s)\s*$", re.MULTILINE)
_RATE = re.compile(r"^Requests/sec:\s+([\d.]+)", re.MULTILINE)
_UNIT_MS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def lua(poll_ms: int, etag: str | None) -> str:
    header = f'wrk.headers["If-None-Match"] = "{etag}"\n' if etag else ""
    # Each poller waits poll_ms +/- 50 %: real routers poll with independent phases, not in lock-step.
    low, high = poll_ms // 2, poll_ms + poll_ms // 2
    return f"{header}function delay() return math.random({low}, {high}) end\n"


def run_wrk(url: str, script: Path, seconds: int) -> tuple[float, dict[str, float]]:
    out = subprocess.run(
        ["taskset", "-c", "0", "wrk", "-t1", "-c50", f"-d{seconds}s", "--latency", "-s", str(script), url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rate = float(_RATE.search(out).group(1))  # type: ignore[union-attr]
    latency = {f"p{m[0]}": float(m[1]) * _UNIT_MS[m[2]] for m in _LATENCY.findall(out)}
    return rate, latency


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--seconds", type=int, default=10)
    parser.add_argument("--poll-ms", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    if shutil.which("wrk") is None:
        print("wrk is not installed: apt-get install wrk", file=sys.stderr)
        return 2
    import httpx

    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        proc, port = start_server(work)
        try:
            subprocess.run(["taskset", "-pc", "1", str(proc.pid)], capture_output=True, check=False)
            base = f"http://127.0.0.1:{port}"
            etag = httpx.get(f"{base}/v1/ignore", params={"model": MODEL}).headers["etag"]
            targets = {
                "ignore 200": (f"{base}/v1/ignore?model={MODEL}", None),
                "ignore 304": (f"{base}/v1/ignore?model={MODEL}", etag.replace('"', '\\"')),
                "static file": (f"{base}/baseline/static/ignore.json", None),
            }
            results: dict[str, list[tuple[float, dict[str, float]]]] = {name: [] for name in targets}
            for _ in range(args.rounds):
                for name, (url, tag) in targets.items():
                    script = work / "poll.lua"
                    script.write_text(lua(args.poll_ms, tag))
                    results[name].append(run_wrk(url, script, args.seconds))
        finally:
            proc.terminate()
            proc.wait(10)
    offered = 50 * 1000 / args.poll_ms
    print(
        f"50 pollers every {args.poll_ms} ms (~{offered:.0f} req/s offered), {args.rounds} rounds x "
        f"{args.seconds} s, server on CPU 1, wrk on CPU 0; medians of the rounds"
    )
    print(f"{'target':<14}{'req/s':>9}{'p50 ms':>9}{'p90 ms':>9}{'p99 ms':>9}")
    for name, runs in results.items():

        def median(values: list[float]) -> float:
            return sorted(values)[len(values) // 2]

        rate = median([r for r, _ in runs])
        p = {k: median([lat[k] for _, lat in runs]) for k in ("p50", "p90", "p99")}
        print(f"{name:<14}{rate:>9.0f}{p['p50']:>9.2f}{p['p90']:>9.2f}{p['p99']:>9.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
