"""What the receiver tells people through Prometheus: routes the floor keeps blocking and recent transitions.

Two bounded, per-route views folded from the decisions as they are committed (pure; the service keeps
the value and the metrics collector exports it):

- **blocked**: routes whose latest suspension the capacity floor refused, while that stays true. A block
  ends when the route is suspended, recovers, is lifted or excluded by an incident, when the suspend
  alert's resolution arrives, or when no block was decided for ``BLOCK_MEMORY_SECONDS`` (Alertmanager
  re-delivers a still-firing suspend alert every 15 minutes, and every delivery is judged again, so a
  route that is still blocked is seen again long before that).
- **transitions**: the quarantine changes people are told about (escalated, promoted, lifted, recovered,
  expired, incident added or removed), each kept for ``TRANSITION_VISIBLE_SECONDS`` after it was decided.

Labels are closed sets: the failing ``contract`` and ``reason`` the suspend alert explained (names
checked against :data:`TOKEN`, otherwise ``other``; at most ``MAX_PAIRS`` per route) and a ``cause`` from
a fixed vocabulary. The free-text reason stays in the decision log; each series' value is the decision's
``seq``, so an alert links ``/v1/decisions?since=<seq - 1>&limit=1``.

The views live in memory: after a restart, a still-blocked route reappears at the next delivery of its
alert, and transitions decided before the restart are in the decision log only.

Example::

    recent = Recent().after(previous_state, decisions, now=time.time())
    [(b.model, b.provider, b.cause) for b in recent.blocked.values()]
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType

from exporter.receiver.state import Decision, Kind, Route, State

BLOCK_MEMORY_SECONDS = 3600.0
TRANSITION_VISIBLE_SECONDS = 1800.0
MAX_PAIRS = 8
TOKEN = re.compile(r"[a-z][a-z0-9_.-]{0,63}")
NONE = "none"  # a transition with no failing contract to name (an incident on a healthy route)

#: The cause of each announced decision kind that has only one (the others: ``_transition_cause``).
_ONE_CAUSE = {
    Kind.ESCALATE: "failing_again",
    Kind.PROMOTE: "enforce_mode",
    Kind.LIFT: "administrator",
    Kind.INCIDENT_REMOVE: "administrator",
}
# Decisions after which a route is no longer blocked by the floor.
_UNBLOCKING = frozenset(
    {Kind.SUSPEND, Kind.ESCALATE, Kind.OBSERVE, Kind.PROMOTE, Kind.RECOVER, Kind.LIFT, Kind.INCIDENT_ADD}
)
_NOTHING: Mapping[str, object] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Mark:
    """One route's block or transition: its labels and the decision that set it."""

    model: str
    provider: str
    cause: str
    pairs: tuple[tuple[str, str], ...]  # (contract, reason), at least one
    seq: int
    at: float
    episode: str | None = None  # a block: the suspend episode it refused


@dataclass(frozen=True, slots=True)
class Recent:
    blocked: Mapping[Route, Mark] = field(default_factory=lambda: MappingProxyType({}))
    transitions: Mapping[tuple[Route, Kind], Mark] = field(default_factory=lambda: MappingProxyType({}))

    def after(self, before: State, decisions: Iterable[Decision], now: float) -> Recent:
        """This view after ``decisions`` (journaled, in order) were applied to ``before``; entries that
        aged out by ``now`` are dropped. Costs the decisions plus the entries held, never the history."""
        blocked = {r: m for r, m in self.blocked.items() if now - m.at < BLOCK_MEMORY_SECONDS}
        transitions = {k: m for k, m in self.transitions.items() if now - m.at < TRANSITION_VISIBLE_SECONDS}
        for d in decisions:
            if not d.journaled or d.model is None or d.provider is None:
                continue
            route = (d.model, d.provider)
            if d.kind is Kind.FLOOR_BLOCK:
                cause = "hosts_unknown" if d.inputs.get("known_hosts_count", 0) is None else "below_floor"
                blocked[route] = _mark(d, cause, d.explanation or _explained(before, route), d.episode)
            elif d.kind in _UNBLOCKING or (
                d.kind is Kind.IGNORED and (b := blocked.get(route)) and d.inputs.get("resolves") == b.episode
            ):
                blocked.pop(route, None)
            if (change := _transition_cause(d)) is not None:
                explained = d.explanation or _explained(before, route)
                transitions[(route, d.kind)] = _mark(d, change, explained)
        return replace(self, blocked=MappingProxyType(blocked), transitions=MappingProxyType(transitions))


def _transition_cause(d: Decision) -> str | None:
    """The ``cause`` label of a decision announced to people (a closed set); None for the others."""
    if d.kind is Kind.RECOVER:
        return "clean_rounds" if d.rung is not None else "clean_round_after_lift"
    if d.kind is Kind.EXPIRE:
        if d.incident_id is not None:
            return "incident_ended"
        return "lift_hold_ended" if d.inputs.get("ends") == "lift_hold" else "suspension_ended"
    if d.kind is Kind.INCIDENT_ADD:
        return "administrator_forced" if d.inputs.get("forced") else "administrator"
    return _ONE_CAUSE.get(d.kind)


def _explained(state: State, route: Route) -> Mapping[str, object]:
    """What the route's current suspension (before the decision) was suspended for, if any."""
    current = state.suspension(route)
    return current.explanation if current is not None else _NOTHING


def _mark(d: Decision, cause: str, explanation: Mapping[str, object], episode: str | None = None) -> Mark:
    assert d.model is not None and d.provider is not None
    return Mark(d.model, d.provider, cause, label_pairs(explanation), d.seq, d.at, episode)


def label_pairs(explanation: Mapping[str, object]) -> tuple[tuple[str, str], ...]:
    """Bounded ``(contract, reason)`` label pairs from a suspend alert's explanation.

    >>> label_pairs({"failing_contracts": ["refusal", "json"], "failing_reasons": ["refusal=refused"]})
    (('json', 'unknown'), ('refusal', 'refused'))
    >>> label_pairs({"failing_reasons": ["Bad Contract=x y"]})
    (('other', 'other'),)
    >>> label_pairs({})
    (('none', 'none'),)
    """
    reasons: dict[str, str] = {}
    for item in _strings(explanation.get("failing_reasons")):
        contract, _, reason = item.partition("=") if "=" in item else item.partition(":")
        reasons.setdefault(_token(contract.strip()), _token(reason.strip()))
    for contract in _strings(explanation.get("failing_contracts")):
        reasons.setdefault(_token(contract.strip()), "unknown")
    pairs = sorted(reasons.items())[:MAX_PAIRS]
    return tuple(pairs) or ((NONE, NONE),)


def _strings(value: object) -> list[str]:
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


def _token(value: str) -> str:
    return value if TOKEN.fullmatch(value) else "other"
