"""The three-layer ignore list of a model: built-in exclusions, runtime incidents, enforced suspensions.

Pure functions over the model's part of the state (``State.part``: never another model's) and the clock,
one selection of the layers for both uses: the capacity floor's ``excluded_hosts`` (observe-only
suspensions count, "as if enforcing") and the served ``ignore_entries`` (observe-only suspensions never
exclude anything; a receiver in observe mode serves no suspensions at all, whatever mode they were
decided in).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.state import Mode, Part
from exporter.timestamps import TimeText


class Layer(StrEnum):
    BUILTIN = "builtin"
    INCIDENT = "incident"
    SUSPENSION = "suspension"


@dataclass(frozen=True, slots=True, order=True)
class IgnoreEntry:
    provider: str
    layer: Layer
    reason: str
    until: TimeText | None = None


def ignore_entries(
    model: str, builtin: Sequence[BuiltinExclusion], part: Part, now: float, *, suspensions: bool = True
) -> tuple[IgnoreEntry, ...]:
    """Every exclusion of ``model`` in force at ``now`` as served, sorted by provider then layer (observe-only
    suspensions exclude nothing). ``suspensions`` False leaves the suspension layer out (the served list of a
    receiver running in observe mode).

    >>> control = BuiltinExclusion(model="m", provider="x/y", reason="control host")
    >>> ignore_entries("m", [control], Part(), now=0.0)
    (IgnoreEntry(provider='x/y', layer=<Layer.BUILTIN: 'builtin'>, reason='control host', until=None),)
    """
    entries = _entries(model, builtin, part, now, count_observe=False, suspensions=suspensions)
    return tuple(sorted(entries, key=lambda e: (e.provider, _LAYER_ORDER[e.layer])))


_LAYER_ORDER = {layer: i for i, layer in enumerate(Layer)}


def _entries(
    model: str,
    builtin: Sequence[BuiltinExclusion],
    part: Part,
    now: float,
    *,
    count_observe: bool,
    suspensions: bool = True,
) -> list[IgnoreEntry]:
    """The entries of ``ignore_entries``, unsorted (observe-only suspensions too with ``count_observe``)."""
    entries = [IgnoreEntry(b.provider, Layer.BUILTIN, b.reason) for b in builtin if b.model == model]
    entries += [
        IgnoreEntry(i.provider, Layer.INCIDENT, i.reason, i.until)
        for i in part.incidents.values()
        if i.until is None or i.until > now
    ]
    entries += [
        IgnoreEntry(s.provider, Layer.SUSPENSION, s.reason, s.until)
        for s in (part.suspensions.values() if suspensions else ())
        if s.until > now and (count_observe or s.mode is Mode.ENFORCE)
    ]
    return entries


def excluded_hosts(model: str, builtin: Sequence[BuiltinExclusion], part: Part, now: float) -> frozenset[str]:
    """The union of the layers as the capacity floor counts them: observe-only suspensions count (as if
    enforcing), so observe mode decides what enforce mode would."""
    return frozenset(e.provider for e in _entries(model, builtin, part, now, count_observe=True))
