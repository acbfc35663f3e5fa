"""The receiver's durable state and its decisions, as values; ``Fold`` is the only transition.

Every change to the state is a ``Decision`` (the audit log entry). The state is a fold of the decision
log: the live path and the store's rebuild from its log both go through ``Fold``, so what is logged is
exactly what is served. ``decide.py`` chooses the decisions; this module only applies them.

The state is one ``Part`` per model: a decision reads and changes the parts of the models it names, so it
costs the same whatever other models hold; a state backed by the store's tables reads a part when it is
first asked for (``State.source``).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any, Protocol

from exporter.receiver.ladder import Ladder, Offense
from exporter.timestamps import TimeText

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

    model: str
    provider: str
    since: TimeText
    until: TimeText | None
    reason: str


@dataclass(frozen=True, slots=True)
class Incident:
    """An administrator's runtime exclusion; ``until`` None means until removed."""

    id: str
    model: str
    provider: str
    reason: str
    since: TimeText
    until: TimeText | None = None


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
class Part:
    """Everything the receiver holds about one model: what the store reads and writes as one row, and
    what a decision about the model reads and changes (never another model's part). Routes are keyed by
    provider, incidents by id, episodes by their key (``payloads.Alert.episode``)."""

    suspensions: Mapping[str, Suspension] = field(default_factory=lambda: _EMPTY)
    history: Mapping[str, tuple[Offense, ...]] = field(
        default_factory=lambda: _EMPTY
    )  # offenses, oldest first
    holds: Mapping[str, Hold] = field(default_factory=lambda: _EMPTY)
    recovered: Mapping[str, float] = field(default_factory=lambda: _EMPTY)  # latest recovery startsAt
    failing: Mapping[str, float] = field(default_factory=lambda: _EMPTY)  # latest failure startsAt seen
    incidents: Mapping[str, Incident] = field(default_factory=lambda: _EMPTY)
    discovered: frozenset[str] | None = None  # the newest list of the model's hosts (None: never told)
    #: Hosts that joined ``discovered`` after its first list: host -> since when the list holds it without a
    #: break. The capacity floor counts such a host only once it has been listed for
    #: ``Policy.discovered_horizon``, so one shrinking or bogus list cannot swap the hosts the floor counts
    #: for names nobody routes to.
    joined: Mapping[str, float] = field(default_factory=lambda: _EMPTY)
    episodes: Mapping[str, Episode] = field(default_factory=lambda: _EMPTY)
    #: Firing suspend episodes whose resolution was delivered (key -> when): such an episode no longer
    #: fails, so the suspension it caused expires at its end instead of being renewed (``decide``).
    resolved: Mapping[str, float] = field(default_factory=lambda: _EMPTY)

    @property
    def empty(self) -> bool:
        return self.discovered is None and not any(getattr(self, name) for name in _MAPPINGS)

    @property
    def due(self) -> float:
        """The earliest ``until`` of a suspension, incident or hold: nothing of the model expires before."""
        untils = [s.until for s in self.suspensions.values()]
        untils += [i.until for i in self.incidents.values() if i.until is not None]
        untils += [h.until for h in self.holds.values() if h.until is not None]
        return min(untils, default=math.inf)

    @property
    def forget(self) -> float:
        """The earliest time stamp of what ``pruned`` forgets once it is ``EPISODE_MEMORY_SECONDS`` old."""
        keep = self._kept_episodes()
        times = [e.last_seen for k, e in self.episodes.items() if k not in keep]
        times += [at for k, at in self.resolved.items() if k not in keep]
        return min((*times, *self.joined.values()), default=math.inf)

    @property
    def faded(self) -> float:
        """The earliest end of the last offense of a route not suspended: its history fades
        ``Ladder.fade_after`` later."""
        ends = [h[-1].end if h else -math.inf for p, h in self.history.items() if p not in self.suspensions]
        return min(ends, default=math.inf)

    def _kept_episodes(self) -> set[str]:
        return {s.episode for s in self.suspensions.values()}

    def pruned(self, now: float, ladder: Ladder | None) -> Part:
        """This part without what was last seen ``EPISODE_MEMORY_SECONDS`` before ``now`` (episodes and
        resolutions of no current suspension, joining times) and without faded histories (``ladder``)."""
        cut, keep = now - EPISODE_MEMORY_SECONDS, self._kept_episodes()
        changes: dict[str, object] = {}
        if self.forget < cut:
            changes["episodes"] = {k: e for k, e in self.episodes.items() if k in keep or e.last_seen >= cut}
            changes["resolved"] = {k: at for k, at in self.resolved.items() if k in keep or at >= cut}
            changes["joined"] = {h: at for h, at in self.joined.items() if at >= cut}
        if ladder is not None and now - self.faded >= ladder.fade_after:
            changes["history"] = {
                p: h for p, h in self.history.items() if p in self.suspensions or ladder.chain(h, now)
            }
        if not changes:
            return self
        return replace(self, **{k: MappingProxyType(v) for k, v in changes.items()})  # type: ignore[arg-type]


_MAPPINGS = tuple(f.name for f in fields(Part) if f.name != "discovered")
EMPTY_PART = Part()
#: Parts read for judging, kept with the state read (beyond those a judgement changes): enough for a
#: delivery of a few thousand models, bounded whatever the number of models.
_MEMO_MAX = 4096


class Source(Protocol):
    """Where a state reads the parts it does not hold: the store's tables (``store.Tables``). Its answers
    are those of the last committed state."""

    def part(self, model: str) -> Part | None: ...

    def parts(self) -> Iterator[tuple[str, Part]]: ...

    def models(self) -> list[str]: ...

    def due_models(self, now: float) -> list[str]: ...

    def prune_models(self, forget_before: float, faded_before: float) -> list[str]: ...

    def incident_model(self, incident_id: str) -> str | None: ...


@dataclass(frozen=True, slots=True, eq=False)
class State:
    """Everything the receiver must not forget, one ``Part`` per model.

    Without a ``source`` the state holds every part. With one (a store's tables) it holds only the parts
    that differ from the source (a judgement's changes, until the store commits them) and reads any other
    part when it is first asked for: a decision and a start-up cost the same whatever other models hold.
    Per-model reads (``part``, ``suspension``, ``incident``, ``due_models``) are what decisions use;
    ``all_parts`` reads every part. Two states are equal when they hold the same parts. A state read from a
    store reads the parts it does not hold from the store's tables as they are when asked (the newest
    committed state): keep the newest state.
    """

    seq: int = 0
    pruned_at: float = 0.0
    parts: Mapping[str, Part] = field(default_factory=lambda: _EMPTY)
    source: Source | None = field(default=None, repr=False)
    memo: dict[str, Part] = field(default_factory=dict, repr=False)  # parts read from the source

    # -- per-model reads: each costs one model's part ----------------------------------------------------
    def part(self, model: str, *, keep: bool = False) -> Part:
        """The part of ``model`` (empty when the state holds nothing of it). ``keep`` remembers a part read
        from the source with this state whatever the bound (a fold reads what it changes so)."""
        found = self.parts.get(model)
        if found is None:
            found = self.memo.get(model)
        if found is None:
            found = (self.source.part(model) if self.source is not None else None) or EMPTY_PART
            if self.source is not None and (keep or len(self.memo) < _MEMO_MAX):
                self.memo[model] = found
        return found

    def suspension(self, route: Route) -> Suspension | None:
        return self.part(route[0]).suspensions.get(route[1])

    def incident(self, incident_id: str) -> Incident | None:
        """The current incident ``incident_id`` (whichever model it belongs to)."""
        for part in self.parts.values():
            if incident_id in part.incidents:
                return part.incidents[incident_id]
        if self.source is None:
            return None
        model = self.source.incident_model(incident_id)
        return None if model is None or model in self.parts else self.part(model).incidents.get(incident_id)

    def episodes_of(self, route: Route) -> dict[str, Episode]:
        """The remembered alert episodes of ``route``, by key."""
        return {k: e for k, e in self.part(route[0]).episodes.items() if e.provider == route[1]}

    def due_models(self, now: float) -> list[str]:
        """The models with a suspension, incident or hold whose ``until`` is at or before ``now``, sorted."""
        held = {m for m, p in self.parts.items() if p.due <= now}
        if self.source is not None:
            held.update(m for m in self.source.due_models(now) if m not in self.parts)
        return sorted(held)

    def prune_models(self, now: float, ladder: Ladder | None) -> list[str]:
        """The models ``Part.pruned`` may change at ``now``, sorted."""
        forget = now - EPISODE_MEMORY_SECONDS
        faded = now - ladder.fade_after if ladder is not None else -math.inf
        chosen = {m for m, p in self.parts.items() if p.forget < forget or p.faded <= faded}
        if self.source is not None:
            chosen.update(m for m in self.source.prune_models(forget, faded) if m not in self.parts)
        return sorted(chosen)

    # -- whole-state reads: each reads every part ---------------------------------------------------------
    def all_parts(self) -> Iterator[tuple[str, Part]]:
        """Every model's part that holds something (the source's streamed, in no particular order)."""
        pending = dict(self.parts)
        if self.source is not None:
            for model, part in self.source.parts():
                mine = pending.pop(model, None) or self.memo.get(model, part)
                if not mine.empty:
                    yield model, mine
        for model, part in pending.items():
            if not part.empty:
                yield model, part

    def models(self) -> frozenset[str]:
        """Every model the state mentions (names only: no part is read)."""
        names = set(self.source.models()) if self.source is not None else set()
        for model, part in self.parts.items():
            (names.discard if part.empty else names.add)(model)
        return frozenset(names)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return (self.seq, self.pruned_at, dict(self.all_parts())) == (
            other.seq,
            other.pruned_at,
            dict(other.all_parts()),
        )

    __hash__ = None  # type: ignore[assignment]


class _Draft:
    """A working copy of one part, changed in place by a fold."""

    def __init__(self, part: Part) -> None:
        self.suspensions: dict[str, Suspension] = dict(part.suspensions)
        self.history: dict[str, tuple[Offense, ...]] = dict(part.history)
        self.holds: dict[str, Hold] = dict(part.holds)
        self.recovered: dict[str, float] = dict(part.recovered)
        self.failing: dict[str, float] = dict(part.failing)
        self.incidents: dict[str, Incident] = dict(part.incidents)
        self.discovered = part.discovered
        self.joined: dict[str, float] = dict(part.joined)
        self.episodes: dict[str, Episode] = dict(part.episodes)
        self.resolved: dict[str, float] = dict(part.resolved)

    def freeze(self) -> Part:
        values = {name: MappingProxyType(dict(getattr(self, name))) for name in _MAPPINGS}
        return Part(discovered=self.discovered, **values)


class Fold:
    """A working copy of a state, to apply many decisions to (``apply``), each at the cost of the parts it
    reads and changes; ``result`` is the state after them (``result`` costs the parts changed since the
    last one, plus one entry per part the state holds)."""

    def __init__(self, state: State, ladder: Ladder | None) -> None:
        self.base, self.ladder = state, ladder
        self.seq, self.pruned_at = state.seq, state.pruned_at
        self.frozen: dict[str, Part] = dict(state.parts)
        self.drafts: dict[str, _Draft] = {}
        self.stale: set[str] = set()  # drafts changed since the last result

    def draft(self, model: str) -> _Draft:
        found = self.drafts.get(model)
        if found is None:
            start = self.frozen.get(model) or self.base.part(model, keep=True)
            found = self.drafts[model] = _Draft(start)
        self.stale.add(model)
        return found

    def apply(self, d: Decision) -> None:
        if d.seq <= self.seq:
            raise ValueError(f"decision {d.seq} is not after {self.seq}: the log is out of order")
        self.seq = d.seq
        route = (d.model, d.provider) if d.model is not None and d.provider is not None else None
        if d.discovered is not None and d.model is not None:
            self._discover(self.draft(d.model), frozenset(d.discovered), d.at)
        if d.episode is not None:
            model, provider = route or (d.model or "", d.provider or "")
            episodes = self.draft(model).episodes
            old = episodes.get(d.episode)
            episodes[d.episode] = (
                Episode(model, provider, d.at, d.at) if old is None else replace(old, last_seen=d.at)
            )
        resolves = d.inputs.get("resolves") if d.kind is Kind.IGNORED else None
        if isinstance(resolves, str):  # the resolution of a firing suspend episode (first delivery)
            self.draft(d.model or "").resolved.setdefault(resolves, d.at)
        if route is not None:
            self._route_effect(d, route)
        elif (d.kind is Kind.EXPIRE or d.kind is Kind.INCIDENT_REMOVE) and d.incident_id is not None:
            self._drop_incident(d.incident_id, d.model)
        if d.at - self.pruned_at >= _PRUNE_EVERY_SECONDS:
            self._prune(d.at)

    def _drop_incident(self, incident_id: str, model: str | None) -> None:
        if model is None or incident_id not in self.draft(model).incidents:
            model = self._incident_model(incident_id)
        if model is not None:
            self.draft(model).incidents.pop(incident_id, None)

    def _incident_model(self, incident_id: str) -> str | None:
        """The model of the current incident ``incident_id`` as the fold stands (None: no such incident)."""
        for model, draft in self.drafts.items():
            if incident_id in draft.incidents:
                return model
        for model, part in self.frozen.items():
            if model not in self.drafts and incident_id in part.incidents:
                return model
        source = self.base.source
        found = source.incident_model(incident_id) if source is not None else None
        return found if found is not None and found not in self.frozen and found not in self.drafts else None

    @staticmethod
    def _discover(part: _Draft, hosts: frozenset[str], at: float) -> None:
        """The model's newest list is ``hosts``: hosts new to it (after its first list) join at ``at``,
        hosts it no longer holds are forgotten (joining again later starts again)."""
        previous = part.discovered
        if previous is not None and (hosts - previous or part.joined.keys() - hosts):
            changed = {h: t for h, t in part.joined.items() if h in hosts}
            changed.update(dict.fromkeys(hosts - previous, at))
            part.joined = changed
        part.discovered = hosts

    def _route_effect(self, d: Decision, route: Route) -> None:
        part, provider = self.draft(route[0]), route[1]
        if d.starts_at is not None and d.kind not in (Kind.RECOVER, Kind.IGNORED):
            # a failing episode seen (suspended, blocked or a duplicate): recoveries older are stale
            part.failing[provider] = max(d.starts_at, part.failing.get(provider, d.starts_at))
        if d.kind in SUSPENDING_KINDS:
            self._suspend(d, part, route)
        elif d.kind is Kind.PROMOTE:
            # The offense was recorded when the observe suspension was decided: only the mode changes.
            old = part.suspensions.get(provider)
            if old is None:
                raise ValueError(
                    f"decision {d.seq}: promote of {route[1]} for {route[0]}, which is not suspended"
                )
            assert d.mode is not None and d.rung is not None and d.until is not None
            part.suspensions[provider] = replace(
                old, mode=d.mode, rung=d.rung, until=d.until, reason=d.reason
            )
        elif d.kind in (Kind.LIFT, Kind.RECOVER):
            self._end(d, part, route)
        elif d.kind is Kind.EXPIRE:
            if d.incident_id is not None:
                self._drop_incident(d.incident_id, route[0])
            elif d.inputs.get("ends") == "lift_hold":
                part.holds.pop(provider, None)
            else:
                part.suspensions.pop(provider, None)
        elif d.kind is Kind.INCIDENT_ADD and d.incident_id is not None:
            self._drop_incident(d.incident_id, route[0])
            part.incidents[d.incident_id] = Incident(
                d.incident_id, route[0], provider, d.reason, d.at, d.until
            )
        elif d.kind is Kind.INCIDENT_REMOVE and d.incident_id is not None:
            self._drop_incident(d.incident_id, route[0])

    def _suspend(self, d: Decision, part: _Draft, route: Route) -> None:
        assert d.mode is not None and d.rung is not None and d.until is not None
        part.suspensions[route[1]] = Suspension(
            route[0], route[1], d.mode, d.rung, d.at, d.until, d.episode or "", d.reason,
            d.starts_at, MappingProxyType(dict(d.explanation)),
        )  # fmt: skip
        past = part.history.get(route[1], ())
        if self.ladder is not None:
            past = self.ladder.chain(past, d.at)
        part.history[route[1]] = (*past, Offense(d.at, d.until, d.rung, d.episode or ""))

    @staticmethod
    def _end(d: Decision, part: _Draft, route: Route) -> None:
        """A lift or a recovery ends the current suspension (if any); the offense stays in the history."""
        provider = route[1]
        if part.suspensions.pop(provider, None) is not None:
            past = part.history.get(provider, ())
            if past and past[-1].ended_at is None and past[-1].until > d.at:
                part.history[provider] = (*past[:-1], replace(past[-1], ended_at=d.at))
        for key in d.closes:
            old = part.episodes.get(key)
            base = old if old is not None else Episode(route[0], provider, d.at, d.at)
            part.episodes[key] = replace(base, closed_by=str(d.kind), closed_at=d.at)
        if d.kind is Kind.LIFT:
            part.holds[provider] = Hold(route[0], provider, d.at, d.until, d.reason)
        else:  # a clean round: the hold of an earlier lift is over; older failing episodes are stale
            part.holds.pop(provider, None)
            if d.starts_at is not None:
                part.recovered[provider] = max(d.starts_at, part.recovered.get(provider, d.starts_at))

    def _prune(self, now: float) -> None:
        """Forget what aged out, in the parts that hold some (``State.prune_models``): the cost of those."""
        self.pruned_at = now
        for model in self.result().prune_models(now, self.ladder):
            part = self.frozen.get(model) or self.base.part(model, keep=True)
            if (pruned := part.pruned(now, self.ladder)) is not part:
                self.drafts[model] = _Draft(pruned)
                self.stale.add(model)

    def result(self) -> State:
        for model in self.stale:
            self.frozen[model] = self.drafts[model].freeze()
        self.stale.clear()
        base = self.base
        return State(self.seq, self.pruned_at, MappingProxyType(dict(self.frozen)), base.source, base.memo)
