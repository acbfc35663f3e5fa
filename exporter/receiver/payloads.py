"""Alertmanager (webhook version "4") and Grafana (webhook version "1") payload parsing into values.

Parsing is pure and total: any decoded JSON value gives either a ``Notification`` or a ``PayloadError``
listing every problem with its location (``alerts[2].labels.provider: missing ...``). Only the fields the
receiver acts on are read; everything else (``groupLabels``, Grafana's ``values``, URLs) is ignored.

Example::

    result = parse_notification(json.loads(body))
    if isinstance(result, PayloadError):
        return 400, result.problems
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from exporter.receiver.rfc3339 import format_rfc3339, parse_rfc3339

#: Grafana raises these for its own query trouble; they carry the rule's labels, so they must never act.
GRAFANA_STATE_ALERTS = frozenset({"DatasourceNoData", "DatasourceError"})
DISCOVERED_ANNOTATION = "discovered_providers"


class Source(StrEnum):
    ALERTMANAGER = "alertmanager"
    GRAFANA = "grafana"


class Action(StrEnum):
    SUSPEND = "suspend"
    RECOVER = "recover"


_VERSIONS = {"4": Source.ALERTMANAGER, "1": Source.GRAFANA}


@dataclass(frozen=True, slots=True)
class Alert:
    """One alert of a notification, judged on its own ``status``."""

    index: int
    status: str  # "firing" or "resolved"
    labels: Mapping[str, str]
    annotations: Mapping[str, str]
    starts_at: float
    fingerprint: str = ""

    @property
    def alertname(self) -> str:
        return self.labels.get("alertname", "")

    @property
    def action(self) -> Action | None:
        """The action this alert asks for, or None when it must only be recorded."""
        if self.alertname in GRAFANA_STATE_ALERTS:
            return None
        value = self.labels.get("action")
        return Action(value) if value in (Action.SUSPEND, Action.RECOVER) else None

    @property
    def model(self) -> str | None:
        return self.labels.get("model") or None

    @property
    def provider(self) -> str | None:
        return self.labels.get("provider") or None

    @property
    def discovered(self) -> frozenset[str] | None:
        """Tags in the ``discovered_providers`` annotation; None when absent or empty (not informative)."""
        raw = self.annotations.get(DISCOVERED_ANNOTATION, "")
        tags = frozenset(t.strip() for t in raw.split(",") if t.strip())
        return tags or None

    @property
    def episode(self) -> str:
        """Idempotency key of the alert episode: one firing stretch of one alert for one route.

        Alertmanager keeps ``startsAt`` across repeats, retries, restarts and HA members, and a new
        episode (the alert resolved and fired again) gets a new one.
        """
        return "|".join(
            (
                str(self.action or "-"),
                self.model or "-",
                self.provider or "-",
                self.alertname,
                format_rfc3339(self.starts_at),
            )
        )

    def summary(self) -> dict[str, Any]:
        """The alert's inputs as recorded in the decision log."""
        return {
            "status": self.status,
            "labels": dict(self.labels),
            "startsAt": format_rfc3339(self.starts_at),
            "fingerprint": self.fingerprint,
            **({"discovered": sorted(d)} if (d := self.discovered) is not None else {}),
        }


@dataclass(frozen=True, slots=True)
class Notification:
    """One webhook delivery."""

    source: Source
    alerts: tuple[Alert, ...]
    receiver: str = ""
    group_key: str = ""


@dataclass(frozen=True, slots=True)
class PayloadError:
    """Why a payload was rejected: every problem, each ``path: what is wrong``."""

    problems: tuple[str, ...] = field(default_factory=tuple)

    @property
    def message(self) -> str:
        return "; ".join(self.problems)


def parse_notification(data: object) -> Notification | PayloadError:
    """Validate a decoded webhook body.

    >>> parse_notification({"version": "4", "alerts": []}).source
    <Source.ALERTMANAGER: 'alertmanager'>
    >>> parse_notification({"version": "5", "alerts": []}).problems
    ("version: expected '4' (Alertmanager) or '1' (Grafana), got '5'",)
    """
    problems: list[str] = []
    if not isinstance(data, dict):
        return PayloadError((f"<body>: expected a JSON object, got {_kind(data)}",))
    version = data.get("version")
    source = _VERSIONS.get(version) if isinstance(version, str) else None
    if "version" not in data:
        problems.append("version: missing (Alertmanager sends '4', Grafana sends '1')")
    elif source is None:
        problems.append(f"version: expected '4' (Alertmanager) or '1' (Grafana), got {version!r}")
    raw_alerts = data.get("alerts")
    alerts: list[Alert] = []
    if "alerts" not in data:
        problems.append("alerts: missing (expected a list of alerts)")
    elif not isinstance(raw_alerts, list):
        problems.append(f"alerts: expected a list, got {_kind(raw_alerts)}")
    else:
        for i, item in enumerate(raw_alerts):
            alert = _parse_alert(i, item, problems)
            if alert is not None:
                alerts.append(alert)
    receiver = data.get("receiver", "")
    group_key = data.get("groupKey", "")
    if problems or source is None:
        return PayloadError(tuple(problems))
    return Notification(
        source=source,
        alerts=tuple(alerts),
        receiver=receiver if isinstance(receiver, str) else "",
        group_key=group_key if isinstance(group_key, str) else "",
    )


def _parse_alert(i: int, item: object, problems: list[str]) -> Alert | None:
    where = f"alerts[{i}]"
    if not isinstance(item, dict):
        problems.append(f"{where}: expected an object, got {_kind(item)}")
        return None
    before = len(problems)
    status = item.get("status")
    if status not in ("firing", "resolved"):
        what = "missing" if "status" not in item else f"expected 'firing' or 'resolved', got {status!r}"
        problems.append(f"{where}.status: {what}")
    labels = _string_map(item, "labels", where, problems, required=True)
    annotations = _string_map(item, "annotations", where, problems, required=False)
    starts_at = 0.0
    raw_start = item.get("startsAt")
    if not isinstance(raw_start, str):
        what = "missing" if "startsAt" not in item else f"expected an RFC 3339 string, got {_kind(raw_start)}"
        problems.append(f"{where}.startsAt: {what}")
    else:
        try:
            starts_at = parse_rfc3339(raw_start)
        except ValueError as exc:
            problems.append(f"{where}.startsAt: {exc}, got {raw_start!r}")
    fingerprint = item.get("fingerprint", "")
    if not isinstance(fingerprint, str):
        problems.append(f"{where}.fingerprint: expected a string, got {_kind(fingerprint)}")
    action = labels.get("action")
    if action in (Action.SUSPEND, Action.RECOVER) and labels.get("alertname") not in GRAFANA_STATE_ALERTS:
        for key, meaning in (("model", "the gateway model slug"), ("provider", "the provider's routing tag")):
            if not labels.get(key, "").strip():
                problems.append(
                    f"{where}.labels.{key}: missing (an alert with action={action!r} must name {meaning})"
                )
    if len(problems) > before:
        return None
    return Alert(
        index=i,
        status=str(status),
        labels=labels,
        annotations=annotations,
        starts_at=starts_at,
        fingerprint=str(fingerprint),
    )


def _string_map(
    item: dict[str, Any], key: str, where: str, problems: list[str], *, required: bool
) -> dict[str, str]:
    value = item.get(key)
    if value is None:
        if required:
            problems.append(f"{where}.{key}: missing (expected an object of string values)")
        return {}
    if not isinstance(value, dict):
        problems.append(f"{where}.{key}: expected an object of string values, got {_kind(value)}")
        return {}
    bad = [k for k, v in value.items() if not isinstance(v, str)]
    for k in bad[:5]:
        problems.append(f"{where}.{key}.{k}: expected a string, got {_kind(value[k])}")
    return {} if bad else dict(value)


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
