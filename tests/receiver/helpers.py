"""Builders shared by the receiver tests: configs, alerts, notifications and a settable clock."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from exporter.configkit import Secret
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.rfc3339 import format_rfc3339
from exporter.receiver.state import Mode

WEBHOOK_TOKEN = "webhook-token-for-tests"
ADMIN_TOKEN = "admin-token-for-tests"
DAY = 86400.0
T0 = 1_800_000_000.0
FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Clock:
    now: float = T0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_config(store_dir: Path, **overrides: Any) -> ReceiverConfig:
    values: dict[str, Any] = {
        "store_dir": store_dir,
        "webhook_token": Secret("env:TEST_WEBHOOK", WEBHOOK_TOKEN),
        "admin_token": Secret("env:TEST_ADMIN", ADMIN_TOKEN),
        "mode": Mode.ENFORCE,
    }
    values.update(overrides)
    return ReceiverConfig(**values)


def alert(
    provider: str,
    *,
    model: str = "m/x",
    action: str | None = "suspend",
    status: str = "firing",
    starts_at: float = T0 - 3600,
    discovered: str | None = "a/1,b/1,c/1,d/1",
    alertname: str | None = None,
) -> dict[str, Any]:
    labels = {
        "alertname": alertname
        or ("CanaryProviderRecovered" if action == "recover" else "CanaryProviderFailing"),
        "model": model,
        "provider": provider,
        "severity": "warning",
    }
    if action is not None:
        labels["action"] = action
    annotations = {"summary": "s"}
    if discovered is not None:
        annotations["discovered_providers"] = discovered
    return {
        "status": status,
        "labels": labels,
        "annotations": annotations,
        "startsAt": format_rfc3339(starts_at),
        "endsAt": "0001-01-01T00:00:00Z",
        "fingerprint": "0123456789abcdef",
    }


def payload(*alerts: dict[str, Any], version: str = "4") -> dict[str, Any]:
    return {
        "version": version,
        "status": "firing",
        "receiver": "canary",
        "groupKey": "{}:{}",
        "alerts": list(alerts),
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
