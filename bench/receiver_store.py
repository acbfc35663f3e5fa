"""Receiver store cost as history grows: start-up at 10k/100k/400k decisions, duplicates at 0/5k/20k
suspensions.

Targets (issue 13): start-up <= 1 s at 400k decisions; a duplicate delivery within 2x of the empty-store
rate at 20k suspensions. Real SQLite file, real fsyncs, the real decision functions; the duplicate rate is
the service's (``ReceiverService.notify``, in-process, no HTTP: the HTTP stack's cost does not grow).

    .venv/bin/python bench/receiver_store.py            # full sizes (about 2 minutes)
    .venv/bin/python bench/receiver_store.py --quick    # 10k decisions, 0/2k suspensions
"""

from __future__ import annotations

import argparse
import resource
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from exporter.configkit import Secret
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.decide import decide_incident_add, decide_incident_remove
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService
from exporter.receiver.state import Decision, Fold, Kind, Mode
from exporter.receiver.store import Store
from exporter.timestamps import format_rfc3339

T0 = 1_800_000_000.0
HOSTS_PER_MODEL = 10
SUSPENDED_PER_MODEL = 5


def config(directory: Path) -> ReceiverConfig:
    return ReceiverConfig(
        store_dir=directory,
        webhook_token=Secret("env:W", "w"),
        admin_token=Secret("env:A", "a"),
        mode=Mode.ENFORCE,
    )


def alert(model: str, provider: str) -> dict[str, object]:
    hosts = ",".join(f"h{i}/fp8" for i in range(HOSTS_PER_MODEL))
    return {
        "status": "firing",
        "labels": {
            "alertname": "CanaryProviderFailing",
            "action": "suspend",
            "model": model,
            "provider": provider,
        },
        "annotations": {"discovered_providers": hosts},
        "startsAt": format_rfc3339(T0 - 3600),
        "fingerprint": "0123456789abcdef",
    }


def note(*alerts: dict[str, object]) -> Notification:
    n = parse_notification({"version": "4", "alerts": list(alerts)})
    assert isinstance(n, Notification)
    return n


def build_log(directory: Path, decisions: int) -> None:
    """``decisions`` incident add/remove decisions, committed 1000 per transaction."""
    policy = config(directory).policy()
    store = Store(directory, ladder=policy.ladder, init=True)
    loaded = store.loaded
    state, batch = loaded.state, []
    for i in range(decisions // 2):
        now = T0 + i
        added = decide_incident_add(state, f"m{i % 97}/x", "h1/fp8", "bench outage", None, now, policy)
        assert isinstance(added, tuple)
        state, made = added
        removed = decide_incident_remove(state, f"inc-{state.seq}", "over", now, policy)
        assert isinstance(removed, tuple)
        state, more = removed
        batch += [*made, *more]
        if len(batch) >= 1000:
            store.commit(batch, state)
            batch = []
    store.commit(batch, state)
    store.close()


def startup(directory: Path, runs: int = 3) -> tuple[float, float]:
    """(median seconds of opening a ``Store``, max RSS MiB after the runs)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        store = Store(directory)
        times.append(time.perf_counter() - started)
        store.close()
    return statistics.median(times), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def suspend(directory: Path, suspensions: int) -> None:
    """A store holding ``suspensions`` enforced suspensions, written as the decisions the receiver takes
    (folded once and committed in one transaction: building is not what is measured)."""
    policy = config(directory).policy()
    store = Store(directory, ladder=policy.ladder, init=True)
    loaded = store.loaded
    hosts = tuple(f"h{i}/fp8" for i in range(HOSTS_PER_MODEL))
    decisions = []
    for i in range(suspensions):
        model, provider = f"m{i // SUSPENDED_PER_MODEL}/x", f"h{i % SUSPENDED_PER_MODEL}/fp8"
        (a,) = note(alert(model, provider)).alerts
        decisions.append(
            Decision(
                seq=i + 1, at=T0, kind=Kind.SUSPEND, reason="suspended at rung 1 (bench)", model=model,
                provider=provider, mode=Mode.ENFORCE, rung=1, until=T0 + 86400.0, episode=a.episode,
                discovered=hosts, source="alertmanager", inputs=a.summary(), starts_at=a.starts_at,
            )
        )  # fmt: skip
    fold = Fold(loaded.state, policy.ladder)
    for d in decisions:
        fold.apply(d)
    store.commit(decisions, fold.result())
    store.close()


def duplicate_rate(directory: Path, seconds: float = 3.0) -> float:
    """Duplicate deliveries per second on a store of the given suspensions (model m0, host h0)."""
    clock = T0 + 60
    with ReceiverService(config(directory), clock=lambda: clock) as service:
        first = service.notify(note(alert("m0/x", "h0/fp8")))
        assert all(d.kind in ("suspend", "duplicate") for d in first), first
        repeat = note(alert("m0/x", "h0/fp8"))
        done, started = 0, time.perf_counter()
        while time.perf_counter() - started < seconds:
            decisions: tuple[Decision, ...] = service.notify(repeat)
            assert decisions[0].kind == "duplicate" and not decisions[0].journaled
            done += 1
        return done / (time.perf_counter() - started)


def interleaved(
    tmp: Path, sizes: Sequence[int], measure: Callable[[Path], list[float]], rounds: int = 3
) -> dict[int, list[float]]:
    """``measure`` on a store of each number of suspensions, in interleaved rounds (load on the shared
    machine hits every size alike): every figure per size."""
    built = []
    for s in sizes:
        directory = tmp / f"sus{s}"
        suspend(directory, s)
        built.append((s, directory))
    figures: dict[int, list[float]] = {s: [] for s in sizes}
    for _ in range(rounds):
        for s, directory in built:
            figures[s] += measure(directory)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--parts", default="startup,duplicates", help="comma-separated: startup, duplicates")
    args = parser.parse_args()
    parts = set(args.parts.split(","))
    logs = () if "startup" not in parts else (10_000,) if args.quick else (10_000, 100_000, 400_000)
    sizes = () if "duplicates" not in parts else (0, 2_000) if args.quick else (0, 5_000, 20_000)
    with tempfile.TemporaryDirectory() as tmp:
        for n in logs:
            directory = Path(tmp) / f"log{n}"
            build_log(directory, n)
            seconds, rss = startup(directory)
            mb = (directory / "receiver.sqlite3").stat().st_size / 1e6
            print(
                f"start-up at {n:>7} decisions: median {seconds:.3f} s, file {mb:.0f} MB, "
                f"max RSS {rss:.0f} MiB"
            )
        rates = interleaved(Path(tmp), sizes, lambda d: [duplicate_rate(d, seconds=1.5)])
        base = statistics.median(rates[sizes[0]]) if sizes else 1.0
        for s in sizes:
            rate = statistics.median(rates[s])
            print(f"duplicates at {s:>6} suspensions: {rate:,.0f}/s ({rate / base:.2f}x the empty store)")


if __name__ == "__main__":
    main()
