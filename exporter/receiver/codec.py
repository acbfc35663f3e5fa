"""JSON encoding of the state snapshot and of decision-log entries (store format ``schema_version`` 1).

Decoding is strict: a wrong or missing field raises ``ValueError`` naming the field, so a damaged file is
reported precisely instead of being half-read. Times are Unix seconds (floats) for exactness; log entries
also carry a human ``time`` field that is ignored on reading.
"""

from __future__ import annotations

from collections.abc import Callable
from types import MappingProxyType
from typing import Any, TypeVar

from exporter.receiver.ladder import Offense
from exporter.receiver.rfc3339 import format_rfc3339, in_range
from exporter.receiver.state import (
    SUSPENDING_KINDS,
    Decision,
    Episode,
    Hold,
    Incident,
    Kind,
    Mode,
    State,
    Suspension,
)

SCHEMA_VERSION = 1
T = TypeVar("T")


def decision_to_json(d: Decision) -> dict[str, Any]:
    out: dict[str, Any] = {
        "seq": d.seq,
        "at": d.at,
        "time": format_rfc3339(d.at),
        "kind": str(d.kind),
        "reason": d.reason,
    }
    for name in ("model", "provider", "rung", "until", "episode", "incident_id", "source"):
        value = getattr(d, name)
        if value is not None and value != "":
            out[name] = value
    if d.mode is not None:
        out["mode"] = str(d.mode)
    if d.discovered is not None:
        out["discovered"] = list(d.discovered)
    if d.closes:
        out["closes"] = list(d.closes)
    if d.inputs:
        out["inputs"] = dict(d.inputs)
    if d.starts_at is not None:
        out["starts_at"] = d.starts_at
    if d.explanation:
        out["explanation"] = dict(d.explanation)
    return out


def decision_from_json(raw: object) -> Decision:
    o = _obj(raw, "entry")
    discovered = o.get("discovered")
    decision = Decision(
        seq=_int(o, "seq"),
        at=_time(o, "at"),
        kind=_enum(o, "kind", Kind),
        reason=_str(o, "reason"),
        model=_opt(o, "model", _str),
        provider=_opt(o, "provider", _str),
        mode=_opt(o, "mode", lambda o, k: _enum(o, k, Mode)),
        rung=_opt(o, "rung", _int),
        until=_opt(o, "until", _time),
        episode=_opt(o, "episode", _str),
        incident_id=_opt(o, "incident_id", _str),
        discovered=None if discovered is None else tuple(_str_list(o, "discovered")),
        closes=tuple(_str_list(o, "closes")) if "closes" in o else (),
        source=_opt(o, "source", _str) or "",
        inputs=_obj(o.get("inputs", {}), "inputs"),
        starts_at=_opt(o, "starts_at", _time),
        explanation=_obj(o.get("explanation", {}), "explanation"),
    )
    if decision.kind in SUSPENDING_KINDS or decision.kind is Kind.PROMOTE:
        missing = [k for k in ("model", "provider", "mode", "rung", "until") if getattr(decision, k) is None]
        if missing:
            raise ValueError(f"a {decision.kind} entry needs {', '.join(missing)}")
    return decision


def state_to_json(state: State, now: float) -> dict[str, Any]:
    """The snapshot document (see docs/receiver.md, "Store format")."""
    return {
        "schema_version": SCHEMA_VERSION,
        "generated_at": format_rfc3339(now),
        "seq": state.seq,
        "pruned_at": state.pruned_at,
        "suspensions": [
            {
                "model": s.model,
                "provider": s.provider,
                "mode": str(s.mode),
                "rung": s.rung,
                "since": s.since,
                "until": s.until,
                "episode": s.episode,
                "reason": s.reason,
                "starts_at": s.starts_at,
                "explanation": dict(s.explanation),
            }
            for s in sorted(state.suspensions.values(), key=lambda s: (s.model, s.provider))
        ],
        "holds": [
            {"model": m, "provider": p, "since": h.since, "until": h.until, "reason": h.reason}
            for (m, p), h in sorted(state.holds.items())
        ],
        "recovered": [
            {"model": m, "provider": p, "at": at} for (m, p), at in sorted(state.recovered.items())
        ],
        "failing": [{"model": m, "provider": p, "at": at} for (m, p), at in sorted(state.failing.items())],
        "resolved_episodes": [{"key": k, "at": at} for k, at in sorted(state.resolved_episodes.items())],
        "history": [
            {
                "model": m,
                "provider": p,
                "offenses": [
                    {
                        "at": o.at,
                        "until": o.until,
                        "rung": o.rung,
                        "episode": o.episode,
                        "ended_at": o.ended_at,
                    }
                    for o in offenses
                ],
            }
            for (m, p), offenses in sorted(state.history.items())
        ],
        "incidents": [
            {
                "id": i.id,
                "model": i.model,
                "provider": i.provider,
                "reason": i.reason,
                "since": i.since,
                "until": i.until,
            }
            for i in sorted(state.incidents.values(), key=lambda i: i.id)
        ],
        "discovered": {m: sorted(tags) for m, tags in sorted(state.discovered.items())},
        "episodes": [
            {
                "key": k,
                "model": e.model,
                "provider": e.provider,
                "first_seen": e.first_seen,
                "last_seen": e.last_seen,
                "closed_by": e.closed_by,
                "closed_at": e.closed_at,
            }
            for k, e in sorted(state.episodes.items())
        ],
    }


class UnsupportedVersion(ValueError):
    """The file was written by another store format version: never guess, never fall back."""


def state_from_json(raw: object) -> State:
    o = _obj(raw, "snapshot")
    version = o.get("schema_version")
    if version != SCHEMA_VERSION:
        raise UnsupportedVersion(f"schema_version is {version!r}; this receiver reads {SCHEMA_VERSION}")
    suspensions = {}
    for i, s in enumerate(_list(o, "suspensions")):
        s = _obj(s, f"suspensions[{i}]")
        sus = Suspension(
            _str(s, "model"),
            _str(s, "provider"),
            _enum(s, "mode", Mode),
            _int(s, "rung"),
            _time(s, "since"),
            _time(s, "until"),
            _str(s, "episode"),
            _str(s, "reason"),
            _opt(s, "starts_at", _time),
            MappingProxyType(_obj(s.get("explanation", {}), f"suspensions[{i}].explanation")),
        )
        suspensions[(sus.model, sus.provider)] = sus
    holds = {}
    for i, x in enumerate(o.get("holds", [])):  # absent in format-1 snapshots
        x = _obj(x, f"holds[{i}]")
        holds[(_str(x, "model"), _str(x, "provider"))] = Hold(
            _time(x, "since"), _opt(x, "until", _time), _str(x, "reason")
        )
    recovered: dict[tuple[str, str], float] = {}
    failing: dict[tuple[str, str], float] = {}
    for name, target in (("recovered", recovered), ("failing", failing)):
        for i, x in enumerate(o.get(name, [])):
            x = _obj(x, f"{name}[{i}]")
            target[(_str(x, "model"), _str(x, "provider"))] = _time(x, "at")
    resolved_episodes = {}
    for i, x in enumerate(o.get("resolved_episodes", [])):  # absent in snapshots before renewal
        x = _obj(x, f"resolved_episodes[{i}]")
        resolved_episodes[_str(x, "key")] = _time(x, "at")
    history = {}
    for i, h in enumerate(_list(o, "history")):
        h = _obj(h, f"history[{i}]")
        history[(_str(h, "model"), _str(h, "provider"))] = tuple(
            Offense(
                _time(x, "at"),
                _time(x, "until"),
                _int(x, "rung"),
                _str(x, "episode"),
                _opt(x, "ended_at", _time),
            )
            for x in (_obj(x, f"history[{i}].offenses[]") for x in _list(h, "offenses"))
        )
    incidents = {}
    for i, x in enumerate(_list(o, "incidents")):
        x = _obj(x, f"incidents[{i}]")
        inc = Incident(
            _str(x, "id"),
            _str(x, "model"),
            _str(x, "provider"),
            _str(x, "reason"),
            _time(x, "since"),
            _opt(x, "until", _time),
        )
        incidents[inc.id] = inc
    discovered_raw = _obj(o.get("discovered"), "discovered")
    discovered = {m: frozenset(_str_list(discovered_raw, m)) for m in discovered_raw}
    episodes = {}
    for i, x in enumerate(_list(o, "episodes")):
        x = _obj(x, f"episodes[{i}]")
        episodes[_str(x, "key")] = Episode(
            _str(x, "model"),
            _str(x, "provider"),
            _time(x, "first_seen"),
            _time(x, "last_seen"),
            _opt(x, "closed_by", _str),
            _opt(x, "closed_at", _time),
        )
    return State(
        seq=_int(o, "seq"),
        suspensions=MappingProxyType(suspensions),
        history=MappingProxyType(history),
        incidents=MappingProxyType(incidents),
        discovered=MappingProxyType(discovered),
        episodes=MappingProxyType(episodes),
        pruned_at=_time(o, "pruned_at"),
        holds=MappingProxyType(holds),
        recovered=MappingProxyType(recovered),
        failing=MappingProxyType(failing),
        resolved_episodes=MappingProxyType(resolved_episodes),
    )


def _obj(v: object, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{where}: expected an object")
    return v


def _list(o: dict[str, Any], k: str) -> list[Any]:
    v = o.get(k)
    if not isinstance(v, list):
        raise ValueError(f"{k}: expected a list")
    return v


def _str(o: dict[str, Any], k: str) -> str:
    v = o.get(k)
    if not isinstance(v, str):
        raise ValueError(f"{k}: expected a string")
    return v


def _int(o: dict[str, Any], k: str) -> int:
    v = o.get(k)
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{k}: expected an integer")
    return v


def _num(o: dict[str, Any], k: str) -> float:
    v = o.get(k)
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{k}: expected a number")
    return float(v)


def _time(o: dict[str, Any], k: str) -> float:
    v = _num(o, k)
    if not in_range(v):
        raise ValueError(f"{k}: {v!r} is not an instant in the years 1970 to 9999 (UTC)")
    return v


def _str_list(o: dict[str, Any], k: str) -> list[str]:
    v = o.get(k)
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{k}: expected a list of strings")
    return v


def _enum(o: dict[str, Any], k: str, enum: Callable[[str], T]) -> T:
    return enum(_str(o, k))


def _opt(o: dict[str, Any], k: str, read: Callable[[dict[str, Any], str], T]) -> T | None:
    return None if o.get(k) is None else read(o, k)
