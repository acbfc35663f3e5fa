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

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any
from urllib.parse import urlsplit

from exporter.receiver.rfc3339 import format_rfc3339, parse_rfc3339
from exporter.receiver.tags import canonical_tag

#: Grafana raises these for its own query trouble; they carry the rule's labels, so they must never act.
GRAFANA_STATE_ALERTS = frozenset({"DatasourceNoData", "DatasourceError"})
DISCOVERED_ANNOTATION = "discovered_providers"
#: Annotations of the suspend alert that explain it (issue 10): stored in the decision and the suspension.
CONTRACTS_ANNOTATION = "failing_contracts"
REASONS_ANNOTATIONS = ("failing_reasons", "reasons")
EVIDENCE_ANNOTATION = "evidence_url"

#: Input bounds (docs/receiver.md, "Bounds"): beyond them a payload is refused, never stored.
MAX_ALERTS = 1000  # per payload: 413
MAX_LABELS = 64  # labels or annotations per alert
MAX_KEY_CHARS = 128
MAX_LABEL_CHARS = 1024  # a label value
MAX_ANNOTATION_CHARS = 16 * 1024  # an annotation value
MAX_DISCOVERED = 512  # tags in discovered_providers
MAX_TAG_CHARS = 256
MAX_EXPLANATION_ITEMS = 32  # failing contracts or reasons kept
MAX_EXPLANATION_CHARS = 512  # each


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
        """The routing tag, canonical as the gateway matches it (``tags.canonical_tag``)."""
        return canonical_tag(self.labels.get("provider", "")) or None

    @property
    def discovered(self) -> frozenset[str] | None:
        """Tags in the ``discovered_providers`` annotation; None when absent or empty (not informative)."""
        return _tag_set(self.annotations.get(DISCOVERED_ANNOTATION, "")) or None

    @property
    def explanation(self) -> dict[str, Any]:
        """Why a suspend alert fired, from its annotations: failing contracts, reasons, evidence link."""
        out: dict[str, Any] = {}
        if contracts := _items(self.annotations.get(CONTRACTS_ANNOTATION, ""), ","):
            out["failing_contracts"] = contracts
        raw = next((self.annotations[k] for k in REASONS_ANNOTATIONS if k in self.annotations), "")
        if reasons := _items(raw, ";" if ";" in raw else ","):
            out["failing_reasons"] = reasons
        if url := self.annotations.get(EVIDENCE_ANNOTATION, "").strip():
            out["evidence_url"] = url
        return out

    @property
    def episode(self) -> str:
        """Idempotency key of the alert episode: one firing stretch of one alert for one route.

        Alertmanager keeps ``startsAt`` across repeats, retries, restarts and HA members, and a new
        episode (the alert resolved and fired again) gets a new one. A JSON array, so no label value can
        make two episodes one (``(x, a|b)`` and ``(x|a, b)`` stay apart). Resolved and non-acting alerts
        have their own keys, so their repeats are recognised (counted, not journaled) too.
        """
        parts = self._episode_parts()
        if self.status != "firing" or self.action is None:
            parts = [self.status, *parts, self.fingerprint]
        return json.dumps(parts, ensure_ascii=False, separators=(",", ":"))

    @property
    def firing_episode(self) -> str | None:
        """The key of the firing episode this alert belongs to (a resolved alert: the one it resolves, as
        Alertmanager keeps ``startsAt`` on resolution); None for an alert that does not act."""
        if self.action is None:
            return None
        return json.dumps(self._episode_parts(), ensure_ascii=False, separators=(",", ":"))

    def _episode_parts(self) -> list[str]:
        parts = [str(self.action or "-"), self.model or "-", self.provider or "-", self.alertname]
        return [*parts, format_rfc3339(self.starts_at)]

    def summary(self) -> dict[str, Any]:
        """The alert's inputs as recorded in the decision log."""
        return {
            "status": self.status,
            "labels": dict(self.labels),
            "startsAt": format_rfc3339(self.starts_at),
            "fingerprint": self.fingerprint,
            **({"discovered": sorted(d)} if (d := self.discovered) is not None else {}),
        }


def is_suspend_episode(key: str) -> bool:
    """Whether an episode key (``Alert.episode``) is that of a firing suspend alert.

    >>> is_suspend_episode('["suspend","m","p","CanaryProviderFailing","2026-01-01T00:00:00Z"]')
    True
    """
    return key.startswith('["' + Action.SUSPEND + '",')


def _tag_set(raw: str) -> frozenset[str]:
    return frozenset(canonical_tag(t) for t in raw.split(",") if t.strip())


def _items(raw: str, sep: str) -> list[str]:
    return [t.strip() for t in raw.split(sep) if t.strip()]


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
    status: int = 400  # 413 when a bound on counts was exceeded

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
    elif len(raw_alerts) > MAX_ALERTS:
        return PayloadError((f"alerts: {len(raw_alerts)} alerts, more than the limit of {MAX_ALERTS}",), 413)
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
    elif len(fingerprint) > MAX_KEY_CHARS:
        problems.append(f"{where}.fingerprint: longer than {MAX_KEY_CHARS} characters")
    _check_bounds(where, labels, annotations, problems)
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


def _check_bounds(
    where: str, labels: dict[str, str], annotations: dict[str, str], problems: list[str]
) -> None:
    for name, mapping, limit in (
        ("labels", labels, MAX_LABEL_CHARS),
        ("annotations", annotations, MAX_ANNOTATION_CHARS),
    ):
        if len(mapping) > MAX_LABELS:
            problems.append(f"{where}.{name}: {len(mapping)} entries, more than the limit of {MAX_LABELS}")
            continue
        for key, value in mapping.items():
            if len(key) > MAX_KEY_CHARS:
                problems.append(f"{where}.{name}: a key longer than {MAX_KEY_CHARS} characters")
            elif len(value) > limit:
                problems.append(
                    f"{where}.{name}.{key}: {len(value)} characters, more than the limit of {limit}"
                )
    tags = annotations.get(DISCOVERED_ANNOTATION, "").split(",")
    if len(tags) > MAX_DISCOVERED:
        problems.append(
            f"{where}.annotations.{DISCOVERED_ANNOTATION}: {len(tags)} tags, "
            f"more than the limit of {MAX_DISCOVERED}"
        )
    elif any(len(t.strip()) > MAX_TAG_CHARS for t in tags):
        problems.append(
            f"{where}.annotations.{DISCOVERED_ANNOTATION}: a tag longer than {MAX_TAG_CHARS} characters"
        )
    for key in (CONTRACTS_ANNOTATION, *REASONS_ANNOTATIONS):
        items = annotations.get(key, "").split(";" if ";" in annotations.get(key, "") else ",")
        if len(items) > MAX_EXPLANATION_ITEMS or any(len(t) > MAX_EXPLANATION_CHARS for t in items):
            problems.append(
                f"{where}.annotations.{key}: at most {MAX_EXPLANATION_ITEMS} items of "
                f"{MAX_EXPLANATION_CHARS} characters"
            )
    url = annotations.get(EVIDENCE_ANNOTATION, "").strip()
    if url:
        try:
            parts = urlsplit(url)
            ok = parts.scheme in ("http", "https") and bool(parts.netloc) and len(url) <= 2048
        except ValueError:
            ok = False
        if not ok:
            problems.append(
                f"{where}.annotations.{EVIDENCE_ANNOTATION}: "
                "expected an http(s) URL of at most 2048 characters"
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
