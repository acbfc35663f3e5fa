"""Decision-log pages after large-label decisions (issue 29): each page's bytes and the receiver's RSS under
four concurrent `/v1/decisions?limit=1000` pages, with `limit=10` pages measured in the same run.

A real `canary receiver` process (its RSS is read from /proc) gets `--decisions` webhook deliveries, each one
alert whose 60 labels hold 1,000 characters (60 KB of decision log per decision), then four clients read
pages at once, `--repeats` times.

Usage::

    .venv/bin/python bench/receiver_pages.py                      # 1,000 decisions, 3 repeats
    .venv/bin/python bench/receiver_pages.py --decisions 200
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

HOOK = {"Authorization": "Bearer bench-webhook-token", "Content-Type": "application/json"}


def _rss_mib(pid: int, field: str = "VmRSS") -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    return 0.0


def _delivery(n: int) -> bytes:
    labels = {f"k{i:02d}": f"{n:06d}" + "v" * 994 for i in range(60)}
    labels |= {"alertname": f"Noise{n}", "model": "bench/m", "provider": "a/1"}
    alert = {"status": "firing", "labels": labels, "startsAt": "2026-11-29T15:41:37Z"}
    return json.dumps({"version": "4", "alerts": [alert]}).encode()


async def _pages(url: str, limit: int, clients: int) -> list[int]:
    async with httpx.AsyncClient(timeout=120) as client:
        replies = await asyncio.gather(
            *(client.get(f"{url}/v1/decisions", params={"limit": str(limit)}) for _ in range(clients))
        )
    assert all(r.status_code == 200 for r in replies), [r.status_code for r in replies]
    return [len(r.content) for r in replies]


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--decisions", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        probe.close()
        config = Path(tmp) / "canary.yaml"
        config.write_text(
            f"receiver: {{listen: '127.0.0.1:{port}', store_dir: {tmp}/store, mode: enforce, "
            "webhook_token: {env: BENCH_HOOK}, admin_token: {env: BENCH_ADMIN}}\n"
        )
        env = {**os.environ, "BENCH_HOOK": "bench-webhook-token", "BENCH_ADMIN": "bench-admin-token-x"}
        cmd = [
            sys.executable,
            "-m",
            "exporter.commands.canary",
            "receiver",
            "--config",
            str(config),
            "--init",
        ]
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        url = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    httpx.get(f"{url}/healthz", timeout=1)
                    break
                except httpx.HTTPError:
                    assert time.monotonic() < deadline and proc.poll() is None
                    time.sleep(0.1)
            with httpx.Client(timeout=60) as client:
                for n in range(args.decisions):
                    assert (
                        client.post(f"{url}/v1/alerts", content=_delivery(n), headers=HOOK).status_code == 200
                    )
            idle = _rss_mib(proc.pid)
            print(f"{args.decisions} decisions of ~60 KB each; receiver RSS after them: {idle:.0f} MiB\n")
            print("| pages | clients | bytes per page (median) | RSS after (MiB) | RSS growth (MiB) |")
            print("|---|---|---|---|---|")
            for limit in (10, 1000):
                sizes, after = [], []
                for _ in range(args.repeats):
                    sizes += asyncio.run(_pages(url, limit, 4))
                    after.append(_rss_mib(proc.pid))
                peak = max(after)
                print(
                    f"| limit={limit} | 4 | {statistics.median(sizes):,.0f} | {peak:.0f} "
                    f"| {peak - idle:+.0f} |",
                    flush=True,
                )
            print(f"\npeak RSS of the receiver (VmHWM): {_rss_mib(proc.pid, 'VmHWM'):.0f} MiB")
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
