"""Payload amplification (issue 13): what many valid maximum-size deliveries make the receiver keep.

Three shapes of delivery, each at most ``max_body_bytes`` (1 MiB) and within every input bound of
docs/receiver.md ("Bounds"), each delivered ``--deliveries`` times through the real parser and the real
service (``parse_notification`` + ``ReceiverService.notify``: real SQLite file, real fsyncs):

- ``annotations``: 60 alerts with a 15 KiB description each (~950 KB, the issue's shape), a new ``startsAt``
  every delivery (a restarted alert), so every alert is a new episode;
- ``labels``: alerts with 60 labels of 1000 characters each (the largest label set), new episodes too;
- ``routes``: up to 1000 alerts for new routes sharing one 16 KiB ``discovered_providers`` annotation (the
  most decisions one delivery can cause).

Prints per shape: body size, store growth (database + WAL) per delivery and as a ratio of the body, peak RSS
growth, median seconds per delivery, and the restart time (a new ``ReceiverService``, median of 3) afterwards.

    .venv/bin/python bench/receiver_amplification.py                    # 300 deliveries (routes: 10)
    .venv/bin/python bench/receiver_amplification.py --deliveries 20    # quicker
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from exporter.configkit import Secret
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService
from exporter.receiver.state import Mode
from exporter.timestamps import format_rfc3339

T0 = 1_800_000_000.0
MAX_BODY = 1024 * 1024
HOSTS = [f"h{i:03d}/" + "x" * 26 for i in range(512)]  # 512 tags, 16 KiB as an annotation


def _alert(model: str, provider: str, starts: float, **extra: Any) -> dict[str, Any]:
    labels = {"alertname": "CanaryProviderFailing", "action": "suspend", "model": model, "provider": provider}
    return {
        "status": "firing",
        "labels": {**labels, **extra.get("labels", {})},
        "annotations": extra.get("annotations", {}),
        "startsAt": format_rfc3339(starts),
        "fingerprint": "0123456789abcdef",
    }


def _fill(make: Callable[[int], dict[str, Any]], limit: int = 1000) -> dict[str, Any]:
    """As many alerts from ``make(i)`` as fit in one body of at most MAX_BODY bytes (and ``limit``)."""
    alerts: list[dict[str, Any]] = []
    while len(alerts) < limit:
        alerts.append(make(len(alerts)))
        if len(json.dumps({"version": "4", "alerts": alerts}).encode()) > MAX_BODY:
            alerts.pop()
            break
    return {"version": "4", "status": "firing", "alerts": alerts}


def annotations(n: int) -> dict[str, Any]:
    hosts = ",".join(HOSTS[:64])
    return _fill(
        lambda i: _alert(
            "m/x",
            HOSTS[i % 64],
            T0 - 3600 + n,
            annotations={"description": "d" * 15 * 1024, "discovered_providers": hosts},
        ),
        limit=60,
    )


def labels(n: int) -> dict[str, Any]:
    hosts = ",".join(HOSTS[:64])
    big = {f"k{j:02d}": "v" * 1000 for j in range(60)}
    return _fill(
        lambda i: _alert(
            "m/x", HOSTS[i % 64], T0 - 3600 + n, labels=big, annotations={"discovered_providers": hosts}
        )
    )


def routes(n: int) -> dict[str, Any]:
    shared = {"discovered_providers": ",".join(HOSTS)}
    return _fill(lambda i: _alert(f"m{n}/x", f"new{i}/fp8", T0 - 3600, annotations=shared if i == 0 else {}))


def store_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run(shape: Callable[[int], dict[str, Any]], deliveries: int, directory: Path) -> dict[str, float]:
    config = ReceiverConfig(
        store_dir=directory,
        webhook_token=Secret("env:W", "w"),
        admin_token=Secret("env:A", "a"),
        mode=Mode.ENFORCE,
    )
    clock = T0
    bodies = [json.dumps(shape(n)).encode() for n in range(deliveries)]
    assert all(len(b) <= MAX_BODY for b in bodies)
    rss_before, seconds, journaled = rss_mib(), [], 0
    with ReceiverService(config, clock=lambda: clock, init=True) as service:
        start_size = store_bytes(directory)
        for body in bodies:
            notification = parse_notification(json.loads(body))
            assert isinstance(notification, Notification), notification
            started = time.perf_counter()
            journaled += sum(d.journaled for d in service.notify(notification))
            seconds.append(time.perf_counter() - started)
            clock += 1.0
        grown = store_bytes(directory) - start_size
    restarts = []
    for _ in range(3):
        started = time.perf_counter()
        ReceiverService(config, clock=lambda: clock).close()
        restarts.append(time.perf_counter() - started)
    return {
        "body_kb": statistics.median(len(b) for b in bodies) / 1024,
        "alerts": len(json.loads(bodies[0])["alerts"]),
        "journaled": journaled / deliveries,
        "growth_kb": grown / deliveries / 1024,
        "ratio": grown / sum(len(b) for b in bodies),
        "total_mb": grown / 1e6,
        "rss_mib": rss_mib() - rss_before,
        "seconds": statistics.median(seconds),
        "restart": statistics.median(restarts),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--deliveries", type=int, default=300)
    parser.add_argument("--route-deliveries", type=int, default=10, help="deliveries of the routes shape")
    parser.add_argument("--shapes", default="annotations,labels,routes")
    args = parser.parse_args()
    shapes = {"annotations": annotations, "labels": labels, "routes": routes}
    print(
        f"{'shape':<12} {'n':>4} {'alerts':>6} {'body KB':>8} {'journaled':>9} {'store KB/deliv':>14} "
        f"{'store/body':>10} {'store MB':>8} {'peak RSS +MiB':>13} {'s/deliv':>8} {'restart s':>9}"
    )
    for name in args.shapes.split(","):
        n = args.route_deliveries if name == "routes" else args.deliveries
        with tempfile.TemporaryDirectory() as tmp:
            r = run(shapes[name], n, Path(tmp) / "store")
        print(
            f"{name:<12} {n:>4} {r['alerts']:>6.0f} {r['body_kb']:>8.0f} {r['journaled']:>9.0f} "
            f"{r['growth_kb']:>14.1f} {r['ratio']:>10.2f} {r['total_mb']:>8.1f} {r['rss_mib']:>13.0f} "
            f"{r['seconds']:>8.3f} {r['restart']:>9.3f}"
        )


if __name__ == "__main__":
    main()
