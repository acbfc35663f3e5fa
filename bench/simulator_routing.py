"""The simulator's cost of routing one pinned request against the size of the model's fleet.

A round pins one request to each host, so a per-request cost that grows with the fleet makes a round grow
with its square. This times, in one process and the same run, the routing step of a pinned request
(``FleetState.listed_among`` then ``resolve``, as ``Simulator.chat`` does it) against the same step over the
whole listing (the baseline: what routing costs when every request filters the fleet), at 20, 300 and 3,000
hosts, and prints medians and ratios.

Usage: .venv/bin/python bench/simulator_routing.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from exporter.devtools.simulator.fleet import load_fleet
from exporter.devtools.simulator.routing import Preferences, resolve
from exporter.devtools.simulator.state import MAX_GENERATIONS, FleetState

MODEL = "bench/model"


def _state(hosts: int) -> FleetState:
    lines = ["seed: 1", "models:", f"  - id: {MODEL}", "    name: Bench", "    providers:"]
    for i in range(hosts):
        lines += [f"      - tag: host{i:04d}/fp8", f"        name: Host{i:04d}"]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fleet.yaml"
        path.write_text("\n".join(lines) + "\n")
        return FleetState(load_fleet(path), time.time, MAX_GENERATIONS)


def _per_request_us(hosts: int, route: Callable[[FleetState, Preferences], object], repeats: int) -> float:
    state = _state(hosts)
    model = state.models[MODEL]
    pins = [Preferences(only=(p.tag,), allow_fallbacks=False) for p in model.providers]
    requests = max(2_000, hosts)
    rng = random.Random(7)
    timings = []
    for _ in range(repeats):
        chosen = [rng.choice(pins) for _ in range(requests)]
        start = time.perf_counter()
        for prefs in chosen:
            route(state, prefs)
        timings.append((time.perf_counter() - start) / requests * 1e6)
    return statistics.median(timings)


def _indexed(state: FleetState, prefs: Preferences) -> object:
    model = state.models[MODEL]
    assert prefs.only is not None
    return resolve(model, state.listed_among(model, prefs.only) or state.listed(model), prefs, {}, state.rng)


def _whole_listing(state: FleetState, prefs: Preferences) -> object:
    model = state.models[MODEL]
    return resolve(model, state.listed(model), prefs, {}, state.rng)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print("| hosts | pinned, indexed (µs, median) | whole listing (µs) | indexed / whole | vs 20 hosts |")
    print("|---|---|---|---|---|")
    first = None
    for hosts in (20, 300, 3000):
        ours = _per_request_us(hosts, _indexed, args.repeats)
        whole = _per_request_us(hosts, _whole_listing, args.repeats)
        first = first or ours
        print(f"| {hosts} | {ours:.1f} | {whole:.1f} | {ours / whole:.3f}x | {ours / first:.2f}x |")


if __name__ == "__main__":
    main()
