"""Which models a pass covers: active chat models of the gateway catalogue, the filter, the listed signal.

Pure functions over the JSON the gateway returns: ``GET {base}/models`` and
``GET {base}/models/{slug}/endpoints`` (the latter parsed by the gateway package's own endpoint parser).
"""

from __future__ import annotations

import fnmatch
from dataclasses import dataclass
from typing import Any

from exporter.gateway.client import parse_endpoints_response
from exporter.gateway.types import GatewayError
from exporter.routability.model import ListedSignal
from exporter.timestamps import parse_rfc3339


@dataclass(frozen=True, slots=True)
class CatalogueFilter:
    """Glob patterns on model slugs; a slug is kept when it matches an include and no exclude.

    Example::

        >>> CatalogueFilter(include=("*",), exclude=("*:free",)).keeps("acme/chat:free")
        False
    """

    include: tuple[str, ...] = ("*",)
    exclude: tuple[str, ...] = ()

    def keeps(self, slug: str) -> bool:
        included = any(fnmatch.fnmatchcase(slug, p) for p in self.include)
        return included and not any(fnmatch.fnmatchcase(slug, p) for p in self.exclude)


@dataclass(frozen=True, slots=True)
class CatalogueModel:
    """One model listed by the gateway.

    ``active`` when it is a chat model (text output) that has not expired and the filter keeps it: only
    active models become targets by themselves. ``reasoning`` when it accepts a reasoning parameter.
    """

    slug: str
    reasoning: bool = False
    active: bool = True


def catalogue_models(payload: Any, now: float, keep: CatalogueFilter) -> list[CatalogueModel] | None:
    """Every model of a ``/models`` reply, sorted by slug, or None when it is not a model list at all.

    Example::

        >>> payload = {"data": [{"id": "a/chat", "architecture": {"output_modalities": ["text"]}},
        ...                     {"id": "a/img", "architecture": {"output_modalities": ["image"]}}]}
        >>> [(m.slug, m.active) for m in catalogue_models(payload, 0.0, CatalogueFilter())]
        [('a/chat', True), ('a/img', False)]
    """
    data = payload.get("data") if isinstance(payload, dict) else None
    if not isinstance(data, list):
        return None
    models: dict[str, CatalogueModel] = {}
    for entry in data:
        if not isinstance(entry, dict):
            continue
        slug = entry.get("id")
        if not isinstance(slug, str) or not slug.strip():
            continue
        active = keep.keeps(slug) and _outputs_text(entry) and not _expired(entry.get("expiration_date"), now)
        params = entry.get("supported_parameters")
        reasoning = isinstance(params, list) and ("reasoning" in params or "reasoning_effort" in params)
        models[slug] = CatalogueModel(slug, reasoning, active)
    return [models[s] for s in sorted(models)]


def listed_signal(payload: Any, now: float) -> ListedSignal | None:
    """The cheaper signal from a ``/models/{slug}/endpoints`` reply, or None if it is not one.

    Example::

        >>> payload = {"data": {"endpoints": [{"tag": "a", "status": 0, "uptime_last_30m": 99.5},
        ...                                   {"tag": "b", "status": -2}]}}
        >>> listed_signal(payload, 5.0)
        ListedSignal(checked_at=5.0, endpoints=2, healthy_endpoints=1, best_uptime_30m=99.5)
    """
    endpoints = parse_endpoints_response(payload)
    if isinstance(endpoints, GatewayError):
        return None
    healthy = sum(1 for e in endpoints if e.status == 0)
    uptimes = [e.uptime_last_30m for e in endpoints if e.uptime_last_30m is not None]
    return ListedSignal(now, len(endpoints), healthy, max(uptimes) if uptimes else None)


def _outputs_text(entry: dict[str, Any]) -> bool:
    architecture = entry.get("architecture")
    if not isinstance(architecture, dict):
        return False
    outputs = architecture.get("output_modalities")
    if isinstance(outputs, list):
        return "text" in outputs
    modality = architecture.get("modality")  # older shape: "text->text", "text+image->text"
    return isinstance(modality, str) and modality.split("->")[-1].split("+").count("text") > 0


def _expired(value: Any, now: float) -> bool:
    """An expiration date (ISO date or datetime, or unix seconds) at or before ``now``."""
    if value is None or value == "":
        return False
    if isinstance(value, int | float) and not isinstance(value, bool):
        return float(value) <= now
    if isinstance(value, str):
        try:
            return parse_rfc3339(value, assume_utc=True) <= now
        except ValueError:
            return False  # unreadable: keep the model rather than silently dropping it
    return False
