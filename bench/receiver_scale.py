"""Receiver cost against how much state other models hold: a 200-alert delivery at 0 and 20k suspensions,
start-up (to serving every list) and its peak RSS with 100k suspensions over 20k models and with a log of
400k decisions (the background proof of the log included).

Targets (issue 29): the delivery at 20k suspensions within 2x of the empty store (medians, same run);
start-up <= 2 s and RSS <= 150 MB at 100k suspensions and at 400k decisions. Each start-up runs in its own
process, so its peak RSS is its own. Real SQLite files, real fsyncs, the real service (no HTTP).

    .venv/bin/python bench/receiver_scale.py            # full sizes (a few minutes)
    .venv/bin/python bench/receiver_scale.py --quick    # 2k suspensions, 20k suspensions start-up, 40k log
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from receiver_store import alert, build_log, config, note, suspend

from exporter.receiver.service import ReceiverService

T0 = 1_800_000_000.0


def delivery_seconds(directory: Path, rounds: int) -> list[float]:
    """Seconds per delivery of 200 firing suspend alerts, each for a new model (200 new suspensions)."""
    clock = T0 + 60
    times = []
    with ReceiverService(config(directory), clock=lambda: clock) as service:
        for r in range(rounds):
            tag = time.monotonic_ns()  # new models in every round of every call
            batch = note(*(alert(f"new{tag}-{i}/x", "h0/fp8") for i in range(200)))
            started = time.perf_counter()
            decisions = service.notify(batch)
            times.append(time.perf_counter() - started)
            assert sum(d.kind == "suspend" for d in decisions) == 200, decisions[:3]
    return times


def startup_child(directory: str) -> None:
    """In a child process: open the service, wait for the background proof, print seconds and RSS."""
    started = time.perf_counter()
    service = ReceiverService(config(Path(directory)))
    listening = time.perf_counter() - started
    problem = service.verify_history()  # what the background thread does, awaited here
    proven = time.perf_counter() - started
    service.close()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"serving": listening, "proven": proven, "rss": rss, "problem": problem}))


def startup(directory: Path, runs: int = 3) -> tuple[float, float, float]:
    """Medians over ``runs`` child processes: seconds to serve, seconds to the proven log, peak RSS MiB."""
    results = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, __file__, "--child", str(directory)], capture_output=True, text=True, check=True
        ).stdout
        results.append(json.loads(out.strip().splitlines()[-1]))
        assert results[-1]["problem"] is None, results[-1]
    return tuple(statistics.median(r[k] for r in results) for k in ("serving", "proven", "rss"))  # type: ignore[return-value]


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--parts", default="delivery,startup", help="comma-separated: delivery, startup")
    args = parser.parse_args()
    if args.child:
        startup_child(args.child)
        return
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        if "delivery" in parts:
            sizes = (0, 2_000) if args.quick else (0, 20_000)
            built = []
            for s in sizes:
                directory = Path(tmp) / f"d{s}"
                suspend(directory, s)
                built.append((s, directory))
            times: dict[int, list[float]] = {s: [] for s in sizes}
            for _ in range(3):  # interleaved rounds: load on the shared machine hits every size alike
                for s, directory in built:
                    times[s] += delivery_seconds(directory, rounds=3)
            base = statistics.median(times[sizes[0]])
            for s in sizes:
                t = statistics.median(times[s])
                print(
                    f"200-alert delivery at {s:>6} suspensions: median {t:.3f} s ({t / base:.2f}x the empty store)"
                )
        if "startup" in parts:
            suspensions = 20_000 if args.quick else 100_000
            directory = Path(tmp) / "s"
            suspend(directory, suspensions)
            serving, proven, rss = startup(directory)
            print(
                f"start-up at {suspensions} suspensions ({suspensions // 5} models): serving {serving:.2f} s, "
                f"log proven {proven:.2f} s, peak RSS {rss:.0f} MiB"
            )
            decisions = 40_000 if args.quick else 400_000
            directory = Path(tmp) / "l"
            build_log(directory, decisions)
            serving, proven, rss = startup(directory)
            print(
                f"start-up at {decisions} decisions: serving {serving:.2f} s, log proven {proven:.2f} s, "
                f"peak RSS {rss:.0f} MiB"
            )


if __name__ == "__main__":
    main()
