"""The receiver's durable state and its decisions, as values; ``apply_decisions`` is the only transition.

Every change to the state is a ``Decision`` (the audit log entry). The state is a fold of the decision
log: the live path and the start-up replay both go through ``apply_decisions``, so what is logged is
exactly what is served. ``decide.py`` chooses the decisions; this module only applies them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from exporter.receiver.ladder import Ladder, Offense

Route = tuple[str, str]  # (model, provider)

#: An alert episode not delivered for this long is forgotten. Alertmanager re-sends a firing alert every
#: ``repeat_interval`` (hours at most), so a still-firing episode is never forgotten.
EPISODE_MEMORY_SECONDS = 30 * 86400.0
_PRUNE_EVERY_SECONDS = 3600.0
_EMPTY: Mapping[Any, Any] = MappingProxyType({})


class Mode(StrEnum):
    OBSERVE = "observe"
    ENFORCE = "enforce"


class Kind(StrEnum):
    SUSPEND = "suspend"
    ESCALATE = "escalate"
    OBSERVE = "observe"
    PROMOTE = "promote"  # an observe suspension enforced (same rung and until) after a switch to enforce
    FLOOR_BLOCK = "floor_block"
    LIFT = "lift"
    RECOVER = "recover"
    EXPIRE = "expire"
    INCIDENT_ADD = "incident_add"
    INCIDENT_REMOVE = "incident_remove"
    DUPLICATE = "duplicate"
    IGNORED = "ignored"


SUSPENDING_KINDS = frozenset({Kind.SUSPEND, Kind.ESCALATE, Kind.OBSERVE})


@dataclass(frozen=True, slots=True)
class Suspension:
    """A current suspension; ``mode`` is the mode it was decided in (observe ones exclude nothing)."""

    model: str
    provider: str
    mode: Mode
    rung: int
    since: float
    until: float
    episode: str
    reason: str


@dataclass(frozen=True, slots=True)
class Incident:
    """An administrator's runtime exclusion; ``until`` None means until removed."""

    id: str
    model: str
    provider: str
    reason: str
    since: float
    until: float | None = None


@dataclass(frozen=True, slots=True)
class Episode:
    """What the receiver remembers of one alert episode (see ``payloads.Alert.episode``)."""

    model: str
    provider: str
    first_seen: float
    last_seen: float
    closed_by: str | None = None  # "lift" or "recover": this episode may never suspend again
    closed_at: float | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """One audited decision: what was decided, on which inputs, why, and its effect on the state."""

    seq: int
    at: float
    kind: Kind
    reason: str
    model: str | None = None
    provider: str | None = None
    mode: Mode | None = None
    rung: int | None = None
    until: float | None = None
    episode: str | None = None
    incident_id: str | None = None
    discovered: tuple[str, ...] | None = None  # the model's discovered hosts, when this input told them
    closes: tuple[str, ...] = ()  # episodes a lift or recovery closes
    source: str = ""  # alertmanager, grafana, admin, clock
    inputs: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class State:
    """Everything the receiver must not forget. Treat the mappings as read-only."""

    seq: int = 0
    suspensions: Mapping[Route, Suspension] = field(default_factory=lambda: _EMPTY)
    history: Mapping[Route, tuple[Offense, ...]] = field(default_factory=lambda: _EMPTY)
    incidents: Mapping[str, Incident] = field(default_factory=lambda: _EMPTY)
    discovered: Mapping[str, frozenset[str]] = field(default_factory=lambda: _EMPTY)
    episodes: Mapping[str, Episode] = field(default_factory=lambda: _EMPTY)
    pruned_at: float = 0.0

    def models(self) -> frozenset[str]:
        """Every model the state mentions."""
        return frozenset(
            [m for m, _ in self.suspensions]
            + [i.model for i in self.incidents.values()]
            + [m for m, _ in self.history]
            + list(self.discovered)
        )


def apply_decisions(state: State, decisions: Iterable[Decision], ladder: Ladder | None = None) -> State:
    """Fold decisions into the state (pure: the input state is not modified).

    ``ladder`` only trims offense history that has faded; replaying without it keeps more history but
    decides the same.
    """
    suspensions = dict(state.suspensions)
    history = dict(state.history)
    incidents = dict(state.incidents)
    discovered = dict(state.discovered)
    episodes = dict(state.episodes)
    seq, pruned_at = state.seq, state.pruned_at
    for d in decisions:
        if d.seq <= seq:
            raise ValueError(f"decision {d.seq} is not after {seq}: the log is out of order")
        seq = d.seq
        route = (d.model, d.provider) if d.model is not None and d.provider is not None else None
        if d.discovered is not None and d.model is not None:
            discovered[d.model] = frozenset(d.discovered)
        if route is not None and d.episode is not None:
            old = episodes.get(d.episode)
            episodes[d.episode] = (
                Episode(route[0], route[1], d.at, d.at) if old is None else replace(old, last_seen=d.at)
            )
        if d.kind in SUSPENDING_KINDS and route is not None:
            assert d.mode is not None and d.rung is not None and d.until is not None
            suspensions[route] = Suspension(
                route[0], route[1], d.mode, d.rung, d.at, d.until, d.episode or "", d.reason
            )
            past = history.get(route, ())
            if ladder is not None:
                past = ladder.chain(past, d.at)
            history[route] = (*past, Offense(d.at, d.until, d.rung, d.episode or ""))
        elif d.kind is Kind.PROMOTE and route is not None:
            # The offense was recorded when the observe suspension was decided: only the mode changes.
            old_s = suspensions.get(route)
            if old_s is None:
                raise ValueError(
                    f"decision {d.seq}: promote of {route[1]} for {route[0]}, which is not suspended"
                )
            assert d.mode is not None and d.rung is not None and d.until is not None
            suspensions[route] = replace(old_s, mode=d.mode, rung=d.rung, until=d.until, reason=d.reason)
        elif d.kind in (Kind.LIFT, Kind.RECOVER) and route is not None:
            suspensions.pop(route, None)
            past = history.get(route, ())
            if past and past[-1].ended_at is None and past[-1].until > d.at:
                history[route] = (*past[:-1], replace(past[-1], ended_at=d.at))
            for key in d.closes:
                old = episodes.get(key)
                base = old if old is not None else Episode(route[0], route[1], d.at, d.at)
                episodes[key] = replace(base, closed_by=str(d.kind), closed_at=d.at)
        elif d.kind is Kind.EXPIRE:
            if d.incident_id is not None:
                incidents.pop(d.incident_id, None)
            elif route is not None:
                suspensions.pop(route, None)
        elif d.kind is Kind.INCIDENT_ADD and route is not None and d.incident_id is not None:
            incidents[d.incident_id] = Incident(d.incident_id, route[0], route[1], d.reason, d.at, d.until)
        elif d.kind is Kind.INCIDENT_REMOVE and d.incident_id is not None:
            incidents.pop(d.incident_id, None)
        if d.at - pruned_at >= _PRUNE_EVERY_SECONDS:
            pruned_at = d.at
            keep = {s.episode for s in suspensions.values()}
            for key in [k for k, e in episodes.items() if e.last_seen < d.at - EPISODE_MEMORY_SECONDS]:
                if key not in keep:
                    del episodes[key]
            if ladder is not None:
                for r in [
                    r for r, h in history.items() if r not in suspensions and not ladder.chain(h, d.at)
                ]:
                    del history[r]
    return State(
        seq=seq,
        suspensions=MappingProxyType(suspensions),
        history=MappingProxyType(history),
        incidents=MappingProxyType(incidents),
        discovered=MappingProxyType(discovered),
        episodes=MappingProxyType(episodes),
        pruned_at=pruned_at,
    )
