"""Alertmanager (webhook version "4") and Grafana (webhook version "1") payloads: their pydantic models.

``Notification`` and ``Alert`` are at once the validation, the values the receiver decides on and the
OpenAPI schema of ``POST /v1/alerts``. Parsing is pure and total: any decoded JSON value gives either a
``Notification`` or a ``PayloadError`` listing every problem with its location (``alerts[2].labels.provider:
missing ...``). Only the fields the receiver acts on are declared; everything else the senders write
(``groupLabels``, ``endsAt``, Grafana's ``values``, URLs) is accepted and ignored, as their formats grow.

Example::

    result = parse_notification(json.loads(body))
    if isinstance(result, PayloadError):
        return 400, result.problems
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Literal
from urllib.parse import urlsplit

from pydantic import AfterValidator, BeforeValidator, Field, JsonValue, StringConstraints, ValidationError

from exporter.receiver.tags import canonical_tag
from exporter.textkit import NO_CONTROLS_PATTERN, control_problem
from exporter.timestamps import Timestamp, format_rfc3339
from exporter.web.models import Wire, explained, kind, problems, several

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
#: Labels that identify a route (or the alert): no control characters (``textkit.control_problem``).
IDENTIFIER_LABELS = ("model", "provider", "action", "alertname")


class Source(StrEnum):
    ALERTMANAGER = "alertmanager"
    GRAFANA = "grafana"


class Action(StrEnum):
    SUSPEND = "suspend"
    RECOVER = "recover"


def _name_their_route(labels: dict[str, str]) -> dict[str, str]:
    """An alert that acts (``action`` suspend or recover) must name the model and the provider; neither
    may hold a control character (they are served to routers and written to the log)."""
    unfit = [(key, problem) for key in IDENTIFIER_LABELS if (problem := control_problem(labels.get(key, "")))]
    if unfit:
        raise several(unfit)
    action = labels.get("action")
    if action not in (Action.SUSPEND, Action.RECOVER) or labels.get("alertname") in GRAFANA_STATE_ALERTS:
        return labels
    found = [
        (key, f"missing (an alert with action={action!r} must name {meaning})")
        for key, meaning in (
            ("model", "the gateway model slug"),
            ("provider", "the provider's routing tag"),
        )
        if not labels.get(key, "").strip()
    ]
    if found:
        raise several(found)
    return labels


def _within_bounds(annotations: dict[str, str]) -> dict[str, str]:
    found: list[tuple[str, str]] = []
    tags = annotations.get(DISCOVERED_ANNOTATION, "").split(",")
    if len(tags) > MAX_DISCOVERED:
        found.append((DISCOVERED_ANNOTATION, f"{len(tags)} tags, more than the limit of {MAX_DISCOVERED}"))
    elif any(len(t.strip()) > MAX_TAG_CHARS for t in tags):
        found.append((DISCOVERED_ANNOTATION, f"a tag longer than {MAX_TAG_CHARS} characters"))
    elif problem := next(filter(None, map(control_problem, tags)), None):
        found.append((DISCOVERED_ANNOTATION, f"a tag with {problem}"))
    for key in (CONTRACTS_ANNOTATION, *REASONS_ANNOTATIONS):
        items = annotations.get(key, "").split(";" if ";" in annotations.get(key, "") else ",")
        if len(items) > MAX_EXPLANATION_ITEMS or any(len(t) > MAX_EXPLANATION_CHARS for t in items):
            found.append(
                (key, f"at most {MAX_EXPLANATION_ITEMS} items of {MAX_EXPLANATION_CHARS} characters")
            )
    url = annotations.get(EVIDENCE_ANNOTATION, "").strip()
    if url:
        try:
            parts = urlsplit(url)
            ok = parts.scheme in ("http", "https") and bool(parts.netloc) and len(url) <= 2048
        except ValueError:
            ok = False
        if not ok:
            found.append((EVIDENCE_ANNOTATION, "expected an http(s) URL of at most 2048 characters"))
    if found:
        raise several(found)
    return annotations


Key = Annotated[str, StringConstraints(max_length=MAX_KEY_CHARS)]
# The validators follow the bounds, so pydantic-core checks the bounds itself (before a validator they
# would be a Python check of their own).
_IDENTIFIER_SCHEMA = {"type": "string", "maxLength": MAX_LABEL_CHARS, "pattern": NO_CONTROLS_PATTERN}
Labels = Annotated[
    dict[Key, Annotated[str, StringConstraints(max_length=MAX_LABEL_CHARS)]],
    Field(
        max_length=MAX_LABELS,
        description="expected an object of string values",
        json_schema_extra={"properties": dict.fromkeys(IDENTIFIER_LABELS, _IDENTIFIER_SCHEMA)},
    ),
    AfterValidator(_name_their_route),
]
Annotations = Annotated[
    dict[Key, Annotated[str, StringConstraints(max_length=MAX_ANNOTATION_CHARS)]],
    Field(
        max_length=MAX_LABELS,
        description="an object of string values (null: none, as a Go nil map is sent)",
        json_schema_extra={
            "type": ["object", "null"],
            "properties": {DISCOVERED_ANNOTATION: {"type": "string", "pattern": NO_CONTROLS_PATTERN}},
        },
    ),
    BeforeValidator(lambda value: {} if value is None else value),  # a Go nil map
    AfterValidator(_within_bounds),
]


class Alert(Wire):
    """One alert of a notification, judged on its own ``status``."""

    status: Literal["firing", "resolved"] = Field(description="'firing' or 'resolved'")
    labels: Labels
    annotations: Annotations = Field(default_factory=dict)
    starts_at: Timestamp = Field(alias="startsAt", description="the episode's start, RFC 3339")
    fingerprint: Key = ""

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
        """The gateway model slug, canonical as tags are (``tags.canonical_tag``): ``RC/Case2`` is
        ``rc/case2``."""
        return canonical_tag(self.labels.get("model", "")) or None

    @property
    def provider(self) -> str | None:
        """The routing tag, canonical as the gateway matches it (``tags.canonical_tag``)."""
        return canonical_tag(self.labels.get("provider", "")) or None

    @property
    def discovered(self) -> frozenset[str] | None:
        """Tags in the ``discovered_providers`` annotation; None when absent or empty (not informative)."""
        tags = self.annotations.get(DISCOVERED_ANNOTATION, "").split(",")
        return frozenset(canonical_tag(t) for t in tags if t.strip()) or None

    @property
    def explanation(self) -> dict[str, JsonValue]:
        """Why a suspend alert fired, from its annotations: failing contracts, reasons, evidence link."""
        out: dict[str, JsonValue] = {}
        if contracts := _items(self.annotations.get(CONTRACTS_ANNOTATION, ""), ","):
            out["failing_contracts"] = [*contracts]
        raw = next((self.annotations[k] for k in REASONS_ANNOTATIONS if k in self.annotations), "")
        if reasons := _items(raw, ";" if ";" in raw else ","):
            out["failing_reasons"] = [*reasons]
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

    def summary(self) -> dict[str, JsonValue]:
        """The alert's inputs as recorded in the decision log."""
        out: dict[str, JsonValue] = {
            "status": self.status,
            "labels": {**self.labels},
            "startsAt": format_rfc3339(self.starts_at),
            "fingerprint": self.fingerprint,
        }
        if (d := self.discovered) is not None:
            out["discovered"] = [*sorted(d)]
        return out


def is_suspend_episode(key: str) -> bool:
    """Whether an episode key (``Alert.episode``) is that of a firing suspend alert.

    >>> is_suspend_episode('["suspend","m","p","CanaryProviderFailing","2026-01-01T00:00:00Z"]')
    True
    """
    return key.startswith('["' + Action.SUSPEND + '",')


def _items(raw: str, sep: str) -> list[str]:
    return [t.strip() for t in raw.split(sep) if t.strip()]


class Notification(Wire):
    """One webhook delivery (its ``version`` says who sent it)."""

    model_config = Wire.model_config | {
        "json_schema_extra": {
            "description": "Alertmanager (version '4') or Grafana (version '1') webhook payload. An alert "
            "with labels.action suspend or recover must also have non-empty labels.model and labels.provider."
        }
    }

    version: Annotated[Literal["4", "1"], explained("expected '4' (Alertmanager) or '1' (Grafana)")] = Field(
        description="Alertmanager sends '4', Grafana sends '1'"
    )
    alerts: tuple[Alert, ...] = Field(
        max_length=MAX_ALERTS, strict=False, description="expected a list of alerts"
    )
    receiver: str = ""
    group_key: str = Field(default="", alias="groupKey")

    @property
    def source(self) -> Source:
        return Source.ALERTMANAGER if self.version == "4" else Source.GRAFANA


@dataclass(frozen=True, slots=True)
class PayloadError:
    """Why a payload was rejected: every problem, each ``path: what is wrong``."""

    problems: tuple[str, ...] = ()
    status: int = 400  # 413 when a bound on counts was exceeded


def parse_notification(data: object) -> Notification | PayloadError:
    """Validate a decoded webhook body.

    >>> parse_notification({"version": "4", "alerts": []}).source
    <Source.ALERTMANAGER: 'alertmanager'>
    >>> parse_notification({"version": "5", "alerts": []}).problems
    ("version: expected '4' (Alertmanager) or '1' (Grafana), got '5'",)
    """
    if not isinstance(data, dict):
        return PayloadError((f"<body>: expected a JSON object, got {kind(data)}",))
    alerts = data.get("alerts")
    if isinstance(alerts, list) and len(alerts) > MAX_ALERTS:  # refused before reading a single alert
        return PayloadError((f"alerts: {len(alerts)} alerts, more than the limit of {MAX_ALERTS}",), 413)
    try:
        return Notification.model_validate(data)
    except ValidationError as exc:
        return PayloadError(tuple(problems(exc, Notification)))
