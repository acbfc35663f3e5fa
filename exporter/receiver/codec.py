"""JSON encoding of the state snapshot and of decision-log entries (store format ``schema_version`` 1).

Every record (a suspension, an offense, a decision, ...) is written field by field from its dataclass, in
the dataclass's order, and read back by the same table: the field's type says how it is checked. Decoding
is strict: a wrong or missing field raises ``ValueError`` naming the field, so a damaged file is reported
precisely instead of being half-read (a field with a default may be absent or null). Times are Unix seconds
(floats) for exactness; log entries also carry a human ``time`` field that is ignored on reading.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from enum import StrEnum
from types import MappingProxyType, NoneType
from typing import Any

from exporter.receiver.ladder import Offense
from exporter.receiver.rfc3339 import format_rfc3339, in_range
from exporter.receiver.state import (
    SUSPENDING_KINDS,
    Decision,
    Episode,
    Hold,
    Incident,
    Kind,
    State,
    Suspension,
)

SCHEMA_VERSION = 1
Reader = Callable[[object, str], Any]  # (value, where) -> the checked value

_ROUTE = ("model", "provider")
_ALWAYS = frozenset({"seq", "at", "kind", "reason"})  # a decision's fields written even when empty
_EVEN_EMPTY = frozenset({"discovered"})  # an empty list of hosts is a fact: the input told none
#: The state's collections in snapshot order: (name, the key's fields, the value: a record, "at" (a time)
#: or "offenses" (a route's history), whether a snapshot may lack it (format-1 snapshots and older ones)).
_COLLECTIONS: tuple[tuple[str, tuple[str, ...], type | str, bool], ...] = (
    ("suspensions", _ROUTE, Suspension, False),
    ("holds", _ROUTE, Hold, True),
    ("recovered", _ROUTE, "at", True),
    ("failing", _ROUTE, "at", True),
    ("resolved_episodes", ("key",), "at", True),
    ("history", _ROUTE, "offenses", False),
    ("incidents", ("id",), Incident, False),
    ("discovered", (), "tags", False),
    ("episodes", ("key",), Episode, False),
)


class UnsupportedVersion(ValueError):
    """The file was written by another store format version: never guess, never fall back."""


def decision_to_json(d: Decision) -> dict[str, Any]:
    """A decision-log entry: the required fields, the others when set, and ``time``, the human ``at``."""
    entry = {"seq": d.seq, "at": d.at, "time": format_rfc3339(d.at)}
    for name, value in _record_to_json(d).items():
        if name in _ALWAYS or (value is not None and (name in _EVEN_EMPTY or value not in ("", [], {}))):
            entry.setdefault(name, value)
    return entry


def decision_from_json(raw: object) -> Decision:
    decision: Decision = _RECORDS[Decision](raw, "entry")
    if decision.kind in SUSPENDING_KINDS or decision.kind is Kind.PROMOTE:
        missing = [k for k in ("model", "provider", "mode", "rung", "until") if getattr(decision, k) is None]
        if missing:
            raise ValueError(f"a {decision.kind} entry needs {', '.join(missing)}")
    return decision


def state_to_json(state: State, now: float) -> dict[str, Any]:
    """The snapshot document (see docs/receiver.md, "Store format")."""
    out: dict[str, Any] = {
        "schema_version": SCHEMA_VERSION,
        "generated_at": format_rfc3339(now),
        "seq": state.seq,
        "pruned_at": state.pruned_at,
    }
    for name, key_fields, value, _ in _COLLECTIONS:
        items = sorted(getattr(state, name).items())
        if value == "tags":
            out[name] = {m: sorted(tags) for m, tags in items}
            continue
        out[name] = [{**_key_to_json(key_fields, key), **_value_to_json(value, v)} for key, v in items]
    return out


def state_from_json(raw: object) -> State:
    o = _obj(raw, "snapshot")
    version = o.get("schema_version")
    if version != SCHEMA_VERSION:
        raise UnsupportedVersion(f"schema_version is {version!r}; this receiver reads {SCHEMA_VERSION}")
    collections: dict[str, Any] = {}
    for name, key_fields, value, may_lack in _COLLECTIONS:
        if value == "tags":
            tags = _obj(o.get(name), name)
            collections[name] = MappingProxyType(
                {m: frozenset(_str_list(tags[m], f"{name}.{m}")) for m in tags}
            )
            continue
        entries = o.get(name, []) if may_lack else _list(o.get(name), name)
        read: dict[Any, Any] = {}
        for i, entry in enumerate(entries):
            x = _obj(entry, f"{name}[{i}]")
            key = tuple(_str(x.get(k), f"{name}[{i}].{k}") for k in key_fields)
            read[key if len(key) > 1 else key[0]] = _value_from_json(value, x, f"{name}[{i}]")
        collections[name] = MappingProxyType(read)
    return State(
        seq=_int(o.get("seq"), "seq"), pruned_at=_time(o.get("pruned_at"), "pruned_at"), **collections
    )


def _key_to_json(key_fields: tuple[str, ...], key: str | tuple[str, ...]) -> dict[str, str]:
    return dict(zip(key_fields, key if isinstance(key, tuple) else (key,), strict=True))


def _value_to_json(value: type | str, v: Any) -> dict[str, Any]:
    if value == "at":
        return {"at": v}
    if value == "offenses":
        return {"offenses": [_record_to_json(o) for o in v]}
    return _record_to_json(v)


def _value_from_json(value: type | str, x: dict[str, Any], where: str) -> Any:
    if value == "at":
        return _time(x.get("at"), f"{where}.at")
    if value == "offenses":
        return tuple(
            _RECORDS[Offense](o, f"{where}.offenses[]") for o in _list(x.get("offenses"), f"{where}.offenses")
        )
    assert isinstance(value, type)
    return _RECORDS[value](x, where)


def _record_to_json(record: Any) -> dict[str, Any]:
    return {name: _plain(getattr(record, name)) for name in _FIELDS[type(record)]}


def _plain(v: object) -> object:
    if isinstance(v, Mapping):
        return dict(v)
    if isinstance(v, tuple):
        return list(v)
    return str(v) if isinstance(v, StrEnum) else v


# -- checking what is read ------------------------------------------------------------------------------
def _obj(v: object, where: str) -> dict[str, Any]:
    if not isinstance(v, dict):
        raise ValueError(f"{where}: expected an object")
    return v


def _list(v: object, where: str) -> list[Any]:
    if not isinstance(v, list):
        raise ValueError(f"{where}: expected a list")
    return v


def _str(v: object, where: str) -> str:
    if not isinstance(v, str):
        raise ValueError(f"{where}: expected a string")
    return v


def _int(v: object, where: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise ValueError(f"{where}: expected an integer")
    return v


def _time(v: object, where: str) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError(f"{where}: expected a number")
    if not in_range(v):
        raise ValueError(f"{where}: {v!r} is not an instant in the years 1970 to 9999 (UTC)")
    return float(v)


def _str_list(v: object, where: str) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError(f"{where}: expected a list of strings")
    return v


def _reader(hint: Any) -> Reader:
    """How a field of type ``hint`` is checked (every float of a record is an instant)."""
    args = typing.get_args(hint)
    if NoneType in args:
        inner = _reader(next(a for a in args if a is not NoneType))
        return lambda v, where: None if v is None else inner(v, where)
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return lambda v, where: hint(_str(v, where))
    if typing.get_origin(hint) is tuple:
        return lambda v, where: tuple(_str_list(v, where))
    if typing.get_origin(hint) is Mapping:
        return lambda v, where: MappingProxyType(_obj(v, where))
    return {str: _str, int: _int, float: _time}[hint]


def _record_reader(cls: type) -> Reader:
    hints = typing.get_type_hints(cls)
    table = [
        (
            f.name,
            _reader(hints[f.name]),
            f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
        )
        for f in dataclasses.fields(cls)
    ]

    def read(raw: object, where: str) -> Any:
        o = _obj(raw, where)
        values = {}
        for name, check, has_default in table:
            v = o.get(name)
            if v is not None or not has_default:
                values[name] = check(v, f"{where}.{name}")
        return cls(**values)

    return read


_KINDS = (Suspension, Hold, Offense, Incident, Episode, Decision)
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in dataclasses.fields(cls)) for cls in _KINDS}
_RECORDS: dict[type, Reader] = {cls: _record_reader(cls) for cls in _KINDS}
