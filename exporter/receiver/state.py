"""The receiver's durable state and its decisions, as values; ``apply_decisions`` is the only transition.

Every change to the state is a ``Decision`` (the audit log entry). The state is a fold of the decision
log: the live path and the start-up replay both go through ``apply_decisions``, so what is logged is
exactly what is served. ``decide.py`` chooses the decisions; this module only applies them.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields, replace
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
    #: Hosts that left a model's ``discovered`` list: model -> {host: when its list last held it}. The
    #: capacity floor still counts them within its horizon (``Policy.discovered_horizon``), so a shrinking
    #: or bogus list cannot make earlier hosts vanish from the count. Not compared: checkpoints written
    #: before it was kept lack it (it then fills from the next list changes).
    dropped_hosts: Mapping[str, Mapping[str, float]] = field(default_factory=lambda: _EMPTY, compare=False)
    #: The earliest ``until`` of a suspension, incident or hold (derived): nothing expires before it, so
    #: judging an input costs the same however many suspensions there are.
    next_due: float = field(default=float("inf"), compare=False)

    def __post_init__(self) -> None:
        untils = [s.until for s in self.suspensions.values()]
        untils += [i.until for i in self.incidents.values() if i.until is not None]
        untils += [h.until for h in self.holds.values() if h.until is not None]
        object.__setattr__(self, "next_due", min(untils, default=float("inf")))

    def models(self) -> frozenset[str]:
        """Every model the state mentions."""
        return frozenset(
            [m for m, _ in self.suspensions]
            + [i.model for i in self.incidents.values()]
            + [m for m, _ in self.history]
            + list(self.discovered)
        )


#: The state's mappings, which a fold copies, changes and hands back (every field but the scalars).
_COLLECTIONS = tuple(f.name for f in fields(State) if f.name not in ("seq", "pruned_at", "next_due"))


def apply_decisions(state: State, decisions: Iterable[Decision], ladder: Ladder | None = None) -> State:
    """Fold decisions into the state (pure: the input state is not modified).

    ``ladder`` only trims offense history that has faded; replaying without it keeps more history but
    decides the same. Counted-only repeats (``seq`` 0) are skipped: they change nothing.
    """
    fold = _Fold(state, ladder)
    for d in decisions:
        if d.journaled:
            fold.apply(d)
    return fold.result()


class _Fold:
    """The mutable working copy of one ``apply_decisions`` call; one method per kind of effect."""

    suspensions: dict[Route, Suspension]
    history: dict[Route, tuple[Offense, ...]]
    incidents: dict[str, Incident]
    discovered: dict[str, frozenset[str]]
    episodes: dict[str, Episode]
    holds: dict[Route, Hold]
    recovered: dict[Route, float]
    failing: dict[Route, float]
    resolved_episodes: dict[str, float]
    dropped_hosts: dict[str, Mapping[str, float]]

    def __init__(self, state: State, ladder: Ladder | None) -> None:
        self.ladder = ladder
        for name in _COLLECTIONS:
            setattr(self, name, dict(getattr(state, name)))
        self.seq, self.pruned_at = state.seq, state.pruned_at

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
            self.episodes[d.episode] = (
                Episode(model, provider, d.at, d.at) if old is None else replace(old, last_seen=d.at)
            )
        resolves = d.inputs.get("resolves") if d.kind is Kind.IGNORED else None
        if isinstance(resolves, str):  # the resolution of a firing suspend episode (first delivery)
            self.resolved_episodes.setdefault(resolves, d.at)
        if route is not None:
            self._route_effect(d, route)
        elif (d.kind is Kind.EXPIRE or d.kind is Kind.INCIDENT_REMOVE) and d.incident_id is not None:
            self.incidents.pop(d.incident_id, None)
        if d.at - self.pruned_at >= _PRUNE_EVERY_SECONDS:
            self._prune(d.at)

    def _discover(self, model: str, hosts: frozenset[str], at: float) -> None:
        """The model's newest list is ``hosts``; hosts of the previous one it lacks are remembered as last
        known at ``at``, and those it holds again are forgotten there (the newest list counts them)."""
        previous = self.discovered.get(model, frozenset())
        dropped = self.dropped_hosts.get(model, _EMPTY)
        if previous - hosts or dropped.keys() & hosts:
            changed = {h: t for h, t in dropped.items() if h not in hosts}
            changed.update(dict.fromkeys(previous - hosts, at))
            if changed:
                self.dropped_hosts[model] = MappingProxyType(changed)
            else:
                self.dropped_hosts.pop(model, None)
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
            self.suspensions[route] = replace(old, mode=d.mode, rung=d.rung, until=d.until, reason=d.reason)
        elif d.kind in (Kind.LIFT, Kind.RECOVER):
            self._end(d, route)
        elif d.kind is Kind.EXPIRE:
            if d.incident_id is not None:
                self.incidents.pop(d.incident_id, None)
            elif d.inputs.get("ends") == "lift_hold":
                self.holds.pop(route, None)
            else:
                self.suspensions.pop(route, None)
        elif d.kind is Kind.INCIDENT_ADD and d.incident_id is not None:
            self.incidents[d.incident_id] = Incident(
                d.incident_id, route[0], route[1], d.reason, d.at, d.until
            )
        elif d.kind is Kind.INCIDENT_REMOVE and d.incident_id is not None:
            self.incidents.pop(d.incident_id, None)

    def _suspend(self, d: Decision, route: Route) -> None:
        assert d.mode is not None and d.rung is not None and d.until is not None
        self.suspensions[route] = Suspension(
            route[0], route[1], d.mode, d.rung, d.at, d.until, d.episode or "", d.reason,
            d.starts_at, MappingProxyType(dict(d.explanation)),
        )  # fmt: skip
        past = self.history.get(route, ())
        if self.ladder is not None:
            past = self.ladder.chain(past, d.at)
        self.history[route] = (*past, Offense(d.at, d.until, d.rung, d.episode or ""))

    def _end(self, d: Decision, route: Route) -> None:
        """A lift or a recovery ends the current suspension (if any); the offense stays in the history."""
        if self.suspensions.pop(route, None) is not None:
            past = self.history.get(route, ())
            if past and past[-1].ended_at is None and past[-1].until > d.at:
                self.history[route] = (*past[:-1], replace(past[-1], ended_at=d.at))
        for key in d.closes:
            old = self.episodes.get(key)
            base = old if old is not None else Episode(route[0], route[1], d.at, d.at)
            self.episodes[key] = replace(base, closed_by=str(d.kind), closed_at=d.at)
        if d.kind is Kind.LIFT:
            self.holds[route] = Hold(d.at, d.until, d.reason)
        else:  # a clean round: the hold of an earlier lift is over; older failing episodes are stale
            self.holds.pop(route, None)
            if d.starts_at is not None:
                self.recovered[route] = max(d.starts_at, self.recovered.get(route, d.starts_at))

    def _prune(self, now: float) -> None:
        self.pruned_at = now
        keep = {s.episode for s in self.suspensions.values()}
        for key in [k for k, e in self.episodes.items() if e.last_seen < now - EPISODE_MEMORY_SECONDS]:
            if key not in keep:
                del self.episodes[key]
        for key in [k for k, at in self.resolved_episodes.items() if at < now - EPISODE_MEMORY_SECONDS]:
            if key not in keep:
                del self.resolved_episodes[key]
        for model, hosts in list(self.dropped_hosts.items()):
            if any(at < now - EPISODE_MEMORY_SECONDS for at in hosts.values()):
                kept = {h: at for h, at in hosts.items() if at >= now - EPISODE_MEMORY_SECONDS}
                if kept:
                    self.dropped_hosts[model] = MappingProxyType(kept)
                else:
                    del self.dropped_hosts[model]
        if self.ladder is not None:
            ladder = self.ladder
            for r in [
                r for r, h in self.history.items() if r not in self.suspensions and not ladder.chain(h, now)
            ]:
                del self.history[r]

    def result(self) -> State:
        collections: dict[str, Any] = {name: MappingProxyType(getattr(self, name)) for name in _COLLECTIONS}
        return State(seq=self.seq, pruned_at=self.pruned_at, **collections)
