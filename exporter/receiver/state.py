"""The receiver's durable state and its decisions, as values; ``apply_decisions`` is the only transition.

Every change to the state is a ``Decision`` (the audit log entry). The state is a fold of the decision
log: the live path and the start-up replay both go through ``apply_decisions``, so what is logged is
exactly what is served. ``decide.py`` chooses the decisions; this module only applies them.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, TypeVar

from exporter.receiver.ladder import Ladder, Offense

Route = tuple[str, str]  # (model, provider)

#: An alert episode not delivered for this long is forgotten. Alertmanager re-sends a firing alert every
#: ``repeat_interval`` (hours at most), so a still-firing episode is never forgotten.
EPISODE_MEMORY_SECONDS = 30 * 86400.0
_PRUNE_EVERY_SECONDS = 3600.0
_EMPTY: Mapping[Any, Any] = MappingProxyType({})
_DERIVE: Mapping[Any, Any] = MappingProxyType({})  # "derive this index" (compared by identity)
K = TypeVar("K")
V = TypeVar("V")
G = TypeVar("G")
M = TypeVar("M")


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
    starts_at: float | None = None  # the alert episode's startsAt (None in stores before it was kept)
    explanation: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)  # failing contracts, reasons, link


@dataclass(frozen=True, slots=True)
class Hold:
    """An administrator's lift holds: no suspension of the route until it recovers or ``until``."""

    since: float
    until: float | None
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
    starts_at: float | None = None  # the alert's startsAt, for decisions an alert caused
    explanation: Mapping[str, Any] = field(default_factory=dict)  # why the alert fired (suspend alerts)

    @property
    def journaled(self) -> bool:
        """False for a repeat that is only counted (seq 0): it changes nothing and is not in the log."""
        return self.seq > 0


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
    holds: Mapping[Route, Hold] = field(default_factory=lambda: _EMPTY)
    recovered: Mapping[Route, float] = field(default_factory=lambda: _EMPTY)  # latest recovery startsAt
    failing: Mapping[Route, float] = field(default_factory=lambda: _EMPTY)  # latest failure startsAt seen
    #: Firing suspend episodes whose resolution was delivered (key -> when): such an episode no longer
    #: fails, so the suspension it caused expires at its end instead of being renewed (``decide``).
    resolved_episodes: Mapping[str, float] = field(default_factory=lambda: _EMPTY)
    #: Hosts that joined a model's ``discovered`` list after its first one: model -> {host: since when the
    #: list holds it without a break}. The capacity floor counts such a host only once it has been listed
    #: for ``Policy.discovered_horizon``, so one shrinking or bogus list cannot swap the hosts the floor
    #: counts for names nobody routes to. Not compared: checkpoints written before it was kept lack it.
    joined_hosts: Mapping[str, Mapping[str, float]] = field(default_factory=lambda: _EMPTY, compare=False)
    #: The earliest ``until`` of a suspension, incident or hold (derived): nothing expires before it, so
    #: judging an input costs the same however many suspensions there are.
    next_due: float = field(default=math.nan, compare=False, repr=False)
    #: Indexes (derived, never stored): the suspended routes and incident ids of each model, the episode
    #: keys of each route. Reading one model's or route's part costs the same whatever the others hold.
    suspended_by_model: Mapping[str, frozenset[Route]] = field(
        default_factory=lambda: _DERIVE, compare=False, repr=False
    )
    incidents_by_model: Mapping[str, frozenset[str]] = field(
        default_factory=lambda: _DERIVE, compare=False, repr=False
    )
    episodes_by_route: Mapping[Route, frozenset[str]] = field(
        default_factory=lambda: _DERIVE, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        """Derive what was not handed over (a state built from a snapshot or by hand); the fold hands
        over what it kept up to date."""
        if math.isnan(self.next_due):
            object.__setattr__(self, "next_due", _earliest_until(self))
        if self.suspended_by_model is _DERIVE:
            object.__setattr__(self, "suspended_by_model", _index(self.suspensions, lambda r, _: (r[0], r)))
        if self.incidents_by_model is _DERIVE:
            object.__setattr__(self, "incidents_by_model", _index(self.incidents, lambda k, i: (i.model, k)))
        if self.episodes_by_route is _DERIVE:
            object.__setattr__(
                self, "episodes_by_route", _index(self.episodes, lambda k, e: ((e.model, e.provider), k))
            )

    def suspensions_of(self, model: str) -> list[Suspension]:
        """The current suspensions of ``model`` (in no particular order)."""
        return [self.suspensions[r] for r in self.suspended_by_model.get(model, ())]

    def incidents_of(self, model: str) -> list[Incident]:
        """The current incidents of ``model`` (in no particular order)."""
        return [self.incidents[k] for k in self.incidents_by_model.get(model, ())]

    def episodes_of(self, route: Route) -> dict[str, Episode]:
        """The remembered alert episodes of ``route``, by key."""
        return {k: self.episodes[k] for k in self.episodes_by_route.get(route, ())}

    def models(self) -> frozenset[str]:
        """Every model the state mentions."""
        return frozenset(
            [m for m, _ in self.suspensions]
            + [i.model for i in self.incidents.values()]
            + [m for m, _ in self.history]
            + list(self.discovered)
        )


def _earliest_until(state: State) -> float:
    untils = [s.until for s in state.suspensions.values()]
    untils += [i.until for i in state.incidents.values() if i.until is not None]
    untils += [h.until for h in state.holds.values() if h.until is not None]
    return min(untils, default=math.inf)


def _index(mapping: Mapping[K, V], part: Callable[[K, V], tuple[G, M]]) -> Mapping[G, frozenset[M]]:
    groups: dict[G, set[M]] = {}
    for k, v in mapping.items():
        group, member = part(k, v)
        groups.setdefault(group, set()).add(member)
    return {g: frozenset(members) for g, members in groups.items()}


_DERIVED = ("next_due", "suspended_by_model", "incidents_by_model", "episodes_by_route")
#: The state's mappings, which a fold copies, changes and hands back (every field but the scalars and the
#: derived ones).
_COLLECTIONS = tuple(f.name for f in fields(State) if f.name not in ("seq", "pruned_at", *_DERIVED))


def apply_decisions(state: State, decisions: Iterable[Decision], ladder: Ladder | None = None) -> State:
    """Fold decisions into the state (pure: the input state is not modified).

    ``ladder`` only trims offense history that has faded; replaying without it keeps more history but
    decides the same. Counted-only repeats (``seq`` 0) are skipped: they change nothing.
    """
    fold = Fold(state, ladder)
    for d in decisions:
        if d.journaled:
            fold.apply(d)
    return fold.result()


class Fold:
    """A mutable working copy of a state, made once, to apply many decisions to (``apply``), each at a cost
    independent of the rest of the state; ``result`` is the state after them. A state ``result`` returned
    shares the fold's mappings: it is only valid until the next ``apply`` (the decision functions use it
    this way: one fold per judgement, each decision seeing the previous ones)."""

    suspensions: dict[Route, Suspension]
    history: dict[Route, tuple[Offense, ...]]
    incidents: dict[str, Incident]
    discovered: dict[str, frozenset[str]]
    episodes: dict[str, Episode]
    holds: dict[Route, Hold]
    recovered: dict[Route, float]
    failing: dict[Route, float]
    resolved_episodes: dict[str, float]
    joined_hosts: dict[str, Mapping[str, float]]

    def __init__(self, state: State, ladder: Ladder | None) -> None:
        self.ladder = ladder
        for name in _COLLECTIONS:
            setattr(self, name, dict(getattr(state, name)))
        self.seq, self.pruned_at = state.seq, state.pruned_at
        self.next_due: float | None = state.next_due  # None: recompute (the earliest one ended)
        self.by_model = dict(state.suspended_by_model)
        self.incidents_by_model = dict(state.incidents_by_model)
        self.episodes_by_route = dict(state.episodes_by_route)

    # -- index upkeep: every change to suspensions, incidents, holds and episodes goes through these ------
    def _due(self, until: float | None) -> None:
        if until is not None and self.next_due is not None and until < self.next_due:
            self.next_due = until

    def _gone(self, until: float | None) -> None:
        if until is not None and self.next_due is not None and until <= self.next_due:
            self.next_due = None

    def _set_suspension(self, route: Route, s: Suspension) -> None:
        old = self.suspensions.get(route)
        if old is not None:
            self._gone(old.until)
        else:
            self.by_model[route[0]] = self.by_model.get(route[0], frozenset()) | {route}
        self.suspensions[route] = s
        self._due(s.until)

    def _drop_suspension(self, route: Route) -> Suspension | None:
        old = self.suspensions.pop(route, None)
        if old is not None:
            self._gone(old.until)
            _remove(self.by_model, route[0], route)
        return old

    def _set_incident(self, incident: Incident) -> None:
        self._drop_incident(incident.id)
        self.incidents[incident.id] = incident
        self.incidents_by_model[incident.model] = self.incidents_by_model.get(incident.model, frozenset()) | {
            incident.id
        }
        self._due(incident.until)

    def _drop_incident(self, incident_id: str) -> None:
        old = self.incidents.pop(incident_id, None)
        if old is not None:
            self._gone(old.until)
            _remove(self.incidents_by_model, old.model, incident_id)

    def _set_hold(self, route: Route, hold: Hold) -> None:
        self._drop_hold(route)
        self.holds[route] = hold
        self._due(hold.until)

    def _drop_hold(self, route: Route) -> None:
        old = self.holds.pop(route, None)
        if old is not None:
            self._gone(old.until)

    def _set_episode(self, key: str, episode: Episode) -> None:
        old = self.episodes.get(key)
        route = (episode.model, episode.provider)
        if old is not None and (old.model, old.provider) != route:
            _remove(self.episodes_by_route, (old.model, old.provider), key)
        if old is None or (old.model, old.provider) != route:
            self.episodes_by_route[route] = self.episodes_by_route.get(route, frozenset()) | {key}
        self.episodes[key] = episode

    def _del_episode(self, key: str) -> None:
        old = self.episodes.pop(key)
        _remove(self.episodes_by_route, (old.model, old.provider), key)

    def apply(self, d: Decision) -> None:
        if d.seq <= self.seq:
            raise ValueError(f"decision {d.seq} is not after {self.seq}: the log is out of order")
        self.seq = d.seq
        route = (d.model, d.provider) if d.model is not None and d.provider is not None else None
        if d.discovered is not None and d.model is not None:
            self._discover(d.model, frozenset(d.discovered), d.at)
        if d.episode is not None:
            old = self.episodes.get(d.episode)
            model, provider = route or (d.model or "", d.provider or "")
            self._set_episode(
                d.episode,
                Episode(model, provider, d.at, d.at) if old is None else replace(old, last_seen=d.at),
            )
        resolves = d.inputs.get("resolves") if d.kind is Kind.IGNORED else None
        if isinstance(resolves, str):  # the resolution of a firing suspend episode (first delivery)
            self.resolved_episodes.setdefault(resolves, d.at)
        if route is not None:
            self._route_effect(d, route)
        elif (d.kind is Kind.EXPIRE or d.kind is Kind.INCIDENT_REMOVE) and d.incident_id is not None:
            self._drop_incident(d.incident_id)
        if d.at - self.pruned_at >= _PRUNE_EVERY_SECONDS:
            self._prune(d.at)

    def _discover(self, model: str, hosts: frozenset[str], at: float) -> None:
        """The model's newest list is ``hosts``: hosts new to it (after its first list) join at ``at``,
        hosts it no longer holds are forgotten (joining again later starts again)."""
        previous = self.discovered.get(model)
        joined = self.joined_hosts.get(model, _EMPTY)
        if previous is not None and (hosts - previous or joined.keys() - hosts):
            changed = {h: t for h, t in joined.items() if h in hosts}
            changed.update(dict.fromkeys(hosts - previous, at))
            if changed:
                self.joined_hosts[model] = MappingProxyType(changed)
            else:
                self.joined_hosts.pop(model, None)
        self.discovered[model] = hosts

    def _route_effect(self, d: Decision, route: Route) -> None:
        if d.starts_at is not None and d.kind not in (Kind.RECOVER, Kind.IGNORED):
            # a failing episode seen (suspended, blocked or a duplicate): recoveries older are stale
            self.failing[route] = max(d.starts_at, self.failing.get(route, d.starts_at))
        if d.kind in SUSPENDING_KINDS:
            self._suspend(d, route)
        elif d.kind is Kind.PROMOTE:
            # The offense was recorded when the observe suspension was decided: only the mode changes.
            old = self.suspensions.get(route)
            if old is None:
                raise ValueError(
                    f"decision {d.seq}: promote of {route[1]} for {route[0]}, which is not suspended"
                )
            assert d.mode is not None and d.rung is not None and d.until is not None
            self._set_suspension(
                route, replace(old, mode=d.mode, rung=d.rung, until=d.until, reason=d.reason)
            )
        elif d.kind in (Kind.LIFT, Kind.RECOVER):
            self._end(d, route)
        elif d.kind is Kind.EXPIRE:
            if d.incident_id is not None:
                self._drop_incident(d.incident_id)
            elif d.inputs.get("ends") == "lift_hold":
                self._drop_hold(route)
            else:
                self._drop_suspension(route)
        elif d.kind is Kind.INCIDENT_ADD and d.incident_id is not None:
            self._set_incident(Incident(d.incident_id, route[0], route[1], d.reason, d.at, d.until))
        elif d.kind is Kind.INCIDENT_REMOVE and d.incident_id is not None:
            self._drop_incident(d.incident_id)

    def _suspend(self, d: Decision, route: Route) -> None:
        assert d.mode is not None and d.rung is not None and d.until is not None
        self._set_suspension(route, Suspension(
            route[0], route[1], d.mode, d.rung, d.at, d.until, d.episode or "", d.reason,
            d.starts_at, MappingProxyType(dict(d.explanation)),
        ))  # fmt: skip
        past = self.history.get(route, ())
        if self.ladder is not None:
            past = self.ladder.chain(past, d.at)
        self.history[route] = (*past, Offense(d.at, d.until, d.rung, d.episode or ""))

    def _end(self, d: Decision, route: Route) -> None:
        """A lift or a recovery ends the current suspension (if any); the offense stays in the history."""
        if self._drop_suspension(route) is not None:
            past = self.history.get(route, ())
            if past and past[-1].ended_at is None and past[-1].until > d.at:
                self.history[route] = (*past[:-1], replace(past[-1], ended_at=d.at))
        for key in d.closes:
            old = self.episodes.get(key)
            base = old if old is not None else Episode(route[0], route[1], d.at, d.at)
            self._set_episode(key, replace(base, closed_by=str(d.kind), closed_at=d.at))
        if d.kind is Kind.LIFT:
            self._set_hold(route, Hold(d.at, d.until, d.reason))
        else:  # a clean round: the hold of an earlier lift is over; older failing episodes are stale
            self._drop_hold(route)
            if d.starts_at is not None:
                self.recovered[route] = max(d.starts_at, self.recovered.get(route, d.starts_at))

    def _prune(self, now: float) -> None:
        self.pruned_at = now
        keep = {s.episode for s in self.suspensions.values()}
        for key in [k for k, e in self.episodes.items() if e.last_seen < now - EPISODE_MEMORY_SECONDS]:
            if key not in keep:
                self._del_episode(key)
        for key in [k for k, at in self.resolved_episodes.items() if at < now - EPISODE_MEMORY_SECONDS]:
            if key not in keep:
                del self.resolved_episodes[key]
        for model, hosts in list(self.joined_hosts.items()):  # long enough listed for any horizon
            if any(at < now - EPISODE_MEMORY_SECONDS for at in hosts.values()):
                kept = {h: at for h, at in hosts.items() if at >= now - EPISODE_MEMORY_SECONDS}
                if kept:
                    self.joined_hosts[model] = MappingProxyType(kept)
                else:
                    del self.joined_hosts[model]
        if self.ladder is not None:
            ladder = self.ladder
            for r in [
                r for r, h in self.history.items() if r not in self.suspensions and not ladder.chain(h, now)
            ]:
                del self.history[r]

    def result(self) -> State:
        collections: dict[str, Any] = {name: MappingProxyType(getattr(self, name)) for name in _COLLECTIONS}
        state = State(
            seq=self.seq,
            pruned_at=self.pruned_at,
            suspended_by_model=MappingProxyType(self.by_model),
            incidents_by_model=MappingProxyType(self.incidents_by_model),
            episodes_by_route=MappingProxyType(self.episodes_by_route),
            next_due=math.nan if self.next_due is None else self.next_due,
            **collections,
        )
        self.next_due = state.next_due
        return state


def _remove(index: dict[G, frozenset[M]], group: G, member: M) -> None:
    rest = index.get(group, frozenset()) - {member}
    if rest:
        index[group] = rest
    else:
        index.pop(group, None)
