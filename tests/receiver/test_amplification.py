"""Payload amplification, the cheap version of bench/receiver_amplification.py (docs/reliability.md).

Stated bound: one accepted delivery grows the store (database + WAL) by at most twice its body plus 8 KiB
per alert it carries, and a repeat of a delivery grows it by nothing. Measured on the real SQLite store
through the real parser and service, with deliveries shaped to store as much as the input bounds allow.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService

from .helpers import T0, Clock, alert, make_config, payload

PER_ALERT = 8 * 1024
HOSTS = ",".join(f"h{i:03d}/" + "x" * 26 for i in range(512))  # 16 KiB: the annotation's limit


def store_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())


def deliver(service: ReceiverService, body: dict[str, Any]) -> None:
    notification = parse_notification(json.loads(json.dumps(body)))
    assert isinstance(notification, Notification), notification
    service.notify(notification)


def many_routes(n: int) -> dict[str, Any]:
    """100 alerts for new routes, the first carrying the largest discovered_providers annotation."""
    alerts = [alert(f"new{i}/fp8", model=f"m{n}/x", discovered=HOSTS if i == 0 else None) for i in range(100)]
    return payload(*alerts)


def large_labels(n: int) -> dict[str, Any]:
    """Alerts with 64 labels (59 of 1000 characters), a new episode (startsAt) every delivery."""
    alerts = []
    for i in range(12):
        a = alert(f"h{i:03d}/" + "x" * 26, starts_at=T0 - 3600 + n, discovered=HOSTS)
        a["labels"].update({f"k{j:02d}": "v" * 1000 for j in range(59)})
        alerts.append(a)
    return payload(*alerts)


def test_each_delivery_grows_the_store_by_at_most_twice_its_body_plus_8_kib_per_alert(tmp_path: Path) -> None:
    clock = Clock()
    for shape in (many_routes, large_labels):
        directory = tmp_path / shape.__name__
        with ReceiverService(make_config(directory), clock=clock, init=True) as service:
            for n in range(3):
                body = shape(n)
                size = len(json.dumps(body).encode())
                assert size <= service.config.max_body_bytes
                before = store_bytes(directory)
                deliver(service, body)
                grown = store_bytes(directory) - before
                bound = 2 * size + PER_ALERT * len(body["alerts"])
                assert grown <= bound, (shape.__name__, n, grown, bound)
                clock.advance(1.0)
            before = store_bytes(directory)
            for _ in range(5):  # Alertmanager's repeats of the last delivery: counted, never stored
                deliver(service, body)
            assert store_bytes(directory) == before
