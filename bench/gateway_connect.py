"""Benchmark: what the stamping backend's connection racing (RFC 8305) buys when a first address is dead.

httpcore hands a network backend one host name per connection; trying the addresses it resolves to is the
backend's job (httpcore's own backend leaves it to ``anyio.connect_tcp``, which races them). This measures
our backend's ``first_connection`` with real sockets on 127.0.0.1: the first address is a black hole (a
listener whose accept queue is full, so the kernel drops the SYNs, as a broken IPv6 route does) and the
second answers. Baseline, same run: the addresses tried one after the other, each with the connect timeout
(``delay`` = the timeout), which is what a backend without racing does.

Run: ``.venv/bin/python bench/gateway_connect.py [--rounds 5] [--timeout 3]``
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import socket
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from exporter.gateway.arrival import first_connection


def _black_hole() -> tuple[socket.socket, list[socket.socket], tuple[str, int]]:
    """A listener that never accepts, its queue filled: further SYNs are dropped and connect() hangs."""
    listener = socket.socket()
    listener.bind(("127.0.0.2", 0))
    listener.listen(0)
    fillers = []
    address = listener.getsockname()
    for _ in range(4):  # the queue holds backlog + 1; a few more to be sure it is full
        filler = socket.socket()
        filler.setblocking(False)
        with contextlib.suppress(BlockingIOError):
            filler.connect(address)
        fillers.append(filler)
    time.sleep(0.2)
    return listener, fillers, address


async def _connect(address: tuple[str, int], limit: float) -> socket.socket:
    loop = asyncio.get_running_loop()
    sock = socket.socket()
    sock.setblocking(False)
    try:
        async with asyncio.timeout(limit):
            await loop.sock_connect(sock, address)
    except BaseException:
        sock.close()
        raise
    return sock


async def _time(candidates: list[tuple[str, int]], delay: float, limit: float) -> float:
    started = time.perf_counter()
    sock = await first_connection(candidates, lambda a: _connect(a, limit), delay)
    sock.close()
    return time.perf_counter() - started


def main(rounds: int, timeout: float) -> None:
    hole, fillers, dead = _black_hole()
    good = socket.create_server(("127.0.0.1", 0), backlog=128)
    alive = good.getsockname()
    try:
        raced, sequential = [], []
        for _ in range(rounds):
            raced.append(asyncio.run(_time([dead, alive], 0.25, timeout)))
            sequential.append(asyncio.run(_time([dead, alive], timeout, timeout)))
        print(f"connect with a black-holed first address, {rounds} rounds, connect timeout {timeout:g}s")
        print(f"  {'strategy':<40}{'median ms':>10}{'max ms':>10}")
        for name, values in (("raced (RFC 8305, 250 ms delay)", raced), ("one after the other", sequential)):
            print(f"  {name:<40}{statistics.median(values) * 1000:>10.1f}{max(values) * 1000:>10.1f}")
    finally:
        for sock in [hole, good, *fillers]:
            sock.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=3.0, help="per-attempt connect timeout, s")
    args = parser.parse_args()
    main(args.rounds, args.timeout)
