"""Receiver cost against how much state other models hold: a 200-alert delivery at 0 and 20k suspensions,
start-up (to serving every list) and its peak RSS with 100k suspensions over 20k models and with a log of
400k decisions (the background proof of the log included); the whole-state reads (``--parts reads``): the
/metrics snapshot, its rendering and a /v1/suspensions page at 10k and 100k suspensions.

Targets (issue 29): the delivery at 20k suspensions within 2x of the empty store (medians, same run);
the cost of the witness on a durable commit, against WAL alone and a rollback journal;
start-up <= 2 s and RSS <= 150 MB at 100k suspensions and at 400k decisions; the metrics snapshot
<= 0.5 s with the process's RSS <= 150 MB, a listing page <= 0.1 s whatever the total. Each start-up and
each reads run is its own process, so its peak RSS is its own. Real SQLite files, real fsyncs, the real
service (no HTTP).

    .venv/bin/python bench/receiver_scale.py            # full sizes (a few minutes)
    .venv/bin/python bench/receiver_scale.py --quick    # 2k suspensions, 20k suspensions start-up, 40k log
"""

from __future__ import annotations

import argparse
import gc
import json
import resource
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

from receiver_store import alert, build_log, config, interleaved, note, suspend

from exporter.receiver.decide import decide_incident_add
from exporter.receiver.metrics import render
from exporter.receiver.service import ReceiverService, route_from_cursor
from exporter.receiver.store import Store
from exporter.serving import tune_gc_for_latency

T0 = 1_800_000_000.0


def delivery_seconds(directory: Path, rounds: int) -> list[float]:
    """Seconds per delivery of 200 firing suspend alerts, each for a new model (200 new suspensions)."""
    clock = T0 + 60
    times = []
    with ReceiverService(config(directory), clock=lambda: clock) as service:
        tune_gc_for_latency()  # as `canary receiver` does once its state is loaded (exporter.serving)
        for _ in range(rounds):
            tag = time.monotonic_ns()  # new models in every round of every call
            batch = note(*(alert(f"new{tag}-{i}/x", "h0/fp8") for i in range(200)))
            started = time.perf_counter()
            decisions = service.notify(batch)
            times.append(time.perf_counter() - started)
            assert sum(d.kind == "suspend" for d in decisions) == 200, decisions[:3]
    gc.unfreeze()
    return times


def startup_child(directory: str) -> None:
    """In a child process: open the service, wait for the background proofs (the log's and the record
    tables'), print seconds and RSS."""
    started = time.perf_counter()
    service = ReceiverService(config(Path(directory)))
    listening = time.perf_counter() - started
    problem = service.verify_history() or service.verify_records()  # the background thread's work, awaited
    proven = time.perf_counter() - started
    service.close()
    print(json.dumps({"serving": listening, "proven": proven, "rss": peak_rss_mib(), "problem": problem}))


def reads_child(directory: str) -> None:
    """In a child process: medians of the metrics snapshot, its rendering and listing pages (first,
    middle, last: the cursor of each from the walk), printed as JSON with the peak RSS."""
    service = ReceiverService(config(Path(directory)))
    tune_gc_for_latency()
    snapshot = [_timed(service.metrics_snapshot) for _ in range(5)]
    snapshot_rss = peak_rss_mib()  # start-up and the snapshots: before anything renders them
    render_seconds = [_timed(lambda: render(service.metrics_snapshot)) for _ in range(2)]
    size = len(render(service.metrics_snapshot))
    cursors: list[tuple[str, str] | None] = [None]
    walk = time.perf_counter()
    while (after := service.suspensions(cursors[-1]).next_after) is not None:
        cursors.append(route_from_cursor(after))
    walk = time.perf_counter() - walk
    chosen = {"first": cursors[0], "middle": cursors[len(cursors) // 2], "last": cursors[-1]}
    pages = {
        where: statistics.median(_timed(partial(service.suspensions, cursor)) for _ in range(5))
        for where, cursor in chosen.items()
    }
    service.close()
    print(
        json.dumps(
            {
                "snapshot": statistics.median(snapshot), "render": statistics.median(render_seconds),
                "body": size, "pages": len(cursors), "walk": walk, **pages, "snapshot_rss": snapshot_rss,
                "rss": peak_rss_mib(),
            }
        )
    )  # fmt: skip


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def peak_rss_mib() -> float:
    """This process's peak RSS (``VmHWM``: unlike ``ru_maxrss`` it does not carry the parent's over exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


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


def commit_seconds(directory: Path, commits: int, witness: bool) -> list[float]:
    """Seconds per durable one-decision commit through ``Store.commit`` (WAL, synchronous=FULL), with the
    witness written after each (the receiver) or not (the store before the witness existed)."""
    from exporter.receiver import store as store_module

    real = store_module.write_witness
    if not witness:
        store_module.write_witness = lambda directory, w: None  # type: ignore[assignment]
    try:
        store = Store(directory, init=not (directory / "receiver.sqlite3").exists())
        state, times = store.loaded.state, []
        policy = config(directory).policy()
        for i in range(commits):
            added = decide_incident_add(state, f"m{i}/x", "h1/fp8", "bench", None, T0 + i, policy)
            assert isinstance(added, tuple)
            state, made = added
            started = time.perf_counter()
            store.commit(made, state)
            times.append(time.perf_counter() - started)
        store.close()
    finally:
        store_module.write_witness = real
    return times


def rollback_journal_seconds(path: Path, commits: int) -> list[float]:
    """Seconds per one-row transaction in rollback-journal mode (DELETE, synchronous=FULL), the other way
    to keep committed data out of a side file, on a row the size of a decision."""
    db = sqlite3.connect(str(path), isolation_level=None)
    db.execute("PRAGMA journal_mode=DELETE")
    db.execute("PRAGMA synchronous=FULL")
    db.execute("CREATE TABLE IF NOT EXISTS t (seq INTEGER PRIMARY KEY, entry TEXT)")
    times = []
    for _ in range(commits):
        started = time.perf_counter()
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO t (entry) VALUES (?)", ("x" * 900,))
        db.execute("UPDATE t SET entry = entry WHERE seq = 1")
        db.execute("COMMIT")
        times.append(time.perf_counter() - started)
    db.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--reads-child", help=argparse.SUPPRESS)
    parser.add_argument(
        "--parts",
        default="delivery,journal,startup,reads",
        help="comma-separated: delivery, journal, startup, reads",
    )
    args = parser.parse_args()
    if args.child:
        startup_child(args.child)
        return
    if args.reads_child:
        reads_child(args.reads_child)
        return
    parts = set(args.parts.split(","))
    with tempfile.TemporaryDirectory() as tmp:
        if "delivery" in parts:
            sizes = (0, 2_000) if args.quick else (0, 20_000)
            times = interleaved(Path(tmp), sizes, lambda d: delivery_seconds(d, rounds=3))
            base = statistics.median(times[sizes[0]])
            for s in sizes:
                t = statistics.median(times[s])
                print(f"200-alert delivery at {s:>6} suspensions: median {t:.3f} s ({t / base:.2f}x empty)")
        if "journal" in parts:
            n = 50 if args.quick else 200
            runs: dict[str, list[float]] = {"wal": [], "wal+witness": [], "delete": []}
            for r in range(3):  # interleaved
                runs["wal"] += commit_seconds(Path(tmp) / f"w{r}", n, witness=False)
                runs["wal+witness"] += commit_seconds(Path(tmp) / f"v{r}", n, witness=True)
                runs["delete"] += rollback_journal_seconds(Path(tmp) / f"j{r}.sqlite3", n)
            base = statistics.median(runs["wal"])
            for name, values in runs.items():
                t = statistics.median(values)
                print(f"durable commit, {name:>11}: median {t * 1000:.2f} ms ({t / base:.2f}x WAL alone)")
        if "startup" in parts:
            suspensions = 20_000 if args.quick else 100_000
            decisions = 40_000 if args.quick else 400_000
            for what, build in (
                (f"{suspensions} suspensions ({suspensions // 5} models)", lambda d: suspend(d, suspensions)),
                (f"{decisions} decisions", lambda d: build_log(d, decisions)),
            ):
                directory = Path(tmp) / what.split()[0]
                build(directory)
                serving, proven, rss = startup(directory)
                print(
                    f"start-up at {what}: serving {serving:.2f} s, log proven {proven:.2f} s, "
                    f"peak RSS {rss:.0f} MiB"
                )
        if "reads" in parts:
            sizes = (1_000, 10_000) if args.quick else (10_000, 100_000)
            for n in sizes:
                directory = Path(tmp) / f"reads{n}"
                suspend(directory, n)
                out = subprocess.run(
                    [sys.executable, __file__, "--reads-child", str(directory)],
                    capture_output=True, text=True, check=True,
                ).stdout  # fmt: skip
                r = json.loads(out.strip().splitlines()[-1])
                print(
                    f"reads at {n} suspensions: metrics snapshot {r['snapshot']:.3f} s (peak RSS "
                    f"{r['snapshot_rss']:.0f} MiB), rendered "
                    f"{r['render']:.2f} s ({r['body'] / 1e6:.1f} MB), /v1/suspensions page first "
                    f"{r['first'] * 1000:.1f} ms, middle {r['middle'] * 1000:.1f} ms, "
                    f"last {r['last'] * 1000:.1f} ms "
                    f"({r['pages']} pages walked in {r['walk']:.2f} s), "
                    f"peak RSS with the render {r['rss']:.0f} MiB"
                )


if __name__ == "__main__":
    main()
