"""JSON encoding of the state snapshot and of decision-log entries (store format ``schema_version`` 1).

A decision is encoded by one pydantic adapter over ``state.Decision`` (``DECISION``): the store's log rows,
the API's decision-log entries and their OpenAPI schema. Every snapshot record (a suspension, an offense,
...) is written field by field from its dataclass, in the dataclass's order, and read back by the same
table: the field's type says how it is checked. Decoding is strict: a wrong or missing field raises
``ValueError`` naming the field, so a damaged file is reported precisely instead of being half-read (a
field with a default may be absent or null). Times are Unix seconds (floats) for exactness; log entries
also carry a human ``time`` field that is ignored on reading.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType, NoneType
from typing import Any, TypeVar

from pydantic import JsonValue, TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError, to_json

from exporter.receiver.ladder import Offense
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
from exporter.timestamps import format_rfc3339, in_range
from exporter.web.models import json_path, problem_of

SCHEMA_VERSION = 1
T = TypeVar("T")

_ROUTE = ("model", "provider")
#: The state's collections in snapshot order: (name, the key's fields, the value: a record, "at" (a time),
#: "offenses" (a route's history), "tags" (model -> hosts) or "hosts_at" (model -> host -> time), whether
#: a snapshot may lack it (format-1 snapshots and older ones)).
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
    ("joined_hosts", (), "hosts_at", True),
)


#: The one codec of a decision, at the store (journal rows) and the API (decision-log entries, their schema).
DECISION: TypeAdapter[Decision] = TypeAdapter(Decision)
_TIMES = ("at", "until", "starts_at")


def decision_to_json(d: Decision) -> dict[str, JsonValue]:
    """A decision-log entry: the required fields, the others unless they hold their default (an empty
    ``discovered`` is a fact: the input told no hosts), and ``time``, the human ``at``."""
    entry: dict[str, JsonValue] = {"seq": d.seq, "at": d.at, "time": format_rfc3339(d.at)}
    # a mapping field may hold a read-only view (a suspension's explanation, renewed): written as an object
    entry.update(DECISION.dump_python(d, mode="json", exclude_defaults=True, fallback=dict, warnings=False))
    return entry


def decision_from_json(raw: str | bytes | object) -> Decision:
    """The decision of a log entry (its row text, or the text decoded), checked field by field in strict
    JSON types (no ``"1"`` for ``1``); a field with a default may be absent (an optional one null), unknown
    fields (``time``) are ignored. ``ValueError`` names the first wrong field (``entry.rung: expected an
    integer, got a string``)."""
    try:  # strict types need JSON input: a decoded entry is encoded again (cheaper than checking it here)
        decision = DECISION.validate_json(raw if isinstance(raw, str | bytes) else to_json(raw), strict=True)
    except PydanticSerializationError as exc:  # not JSON data: a lone surrogate, nested too deeply
        raise ValueError(f"entry: {exc}") from None
    except ValidationError as exc:
        error = exc.errors(include_url=False)[0]
        raise ValueError(f"{json_path(('entry', *error['loc']))}: {problem_of(error)}") from None
    for name in _TIMES:
        if (at := getattr(decision, name)) is not None and not in_range(at):
            raise ValueError(f"entry.{name}: {at!r} is not an instant in the years 1970 to 9999 (UTC)")
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
        if value == "hosts_at":
            out[name] = {m: dict(sorted(hosts.items())) for m, hosts in items}
            continue
        record = Offense if value == "offenses" else value
        names, values = (_FIELDS[record], _GETTERS[record]) if isinstance(record, type) else ((), None)
        rows = out[name] = []
        for key, v in items:  # the key's fields first (a record may repeat them), then the record's
            row = dict(zip(key_fields, key, strict=True)) if len(key_fields) > 1 else {key_fields[0]: key}
            if value == "at":
                row["at"] = v
            elif value == "offenses":
                row["offenses"] = [dict(zip(names, values(o), strict=True)) for o in v]  # type: ignore[misc]
            else:
                row.update(zip(names, values(v), strict=True))  # type: ignore[misc]
            if "explanation" in row:
                row["explanation"] = dict(row["explanation"])
            rows.append(row)
    return out


def state_from_json(raw: object, *, trusted: bool = False) -> State:
    """The state of a snapshot document. ``trusted`` (a document whose digest proved it is the one this
    receiver wrote) builds the records without checking each field, several times faster."""
    o = _at("snapshot", _obj, raw)
    version = o.get("schema_version")
    if version != SCHEMA_VERSION:
        # written by another store format version: never guess, never fall back
        raise ValueError(f"schema_version is {version!r}; this receiver reads {SCHEMA_VERSION}")
    collections: dict[str, Any] = {}
    for name, key_fields, value, may_lack in _COLLECTIONS:
        if value == "tags":
            tags = _at(name, _obj, o.get(name))
            collections[name] = MappingProxyType(
                {m: frozenset(_at(f"{name}.{m}", _str_list, tags[m])) for m in tags}
            )
            continue
        if value == "hosts_at":
            models = _at(name, _obj, o.get(name, {}))
            collections[name] = MappingProxyType(
                {
                    m: MappingProxyType(
                        {
                            h: _at(f"{name}.{m}.{h}", _time, t)
                            for h, t in _at(f"{name}.{m}", _obj, hosts).items()
                        }
                    )
                    for m, hosts in models.items()
                }
            )
            continue
        read: dict[Any, Any] = {}
        for i, entry in enumerate(o.get(name, []) if may_lack else _at(name, _list, o.get(name))):
            where = f"{name}[{i}]"
            x = _at(where, _obj, entry)
            parts = tuple(x.get(k) for k in key_fields)
            if not all(type(k) is str for k in parts):
                bad = next(k for k, v in zip(key_fields, parts, strict=True) if not isinstance(v, str))
                raise ValueError(f"{where}.{bad}: expected a string")
            key = parts if len(parts) > 1 else parts[0]
            if value == "at":
                read[key] = _at(f"{where}.at", _time, x.get("at"))
            elif value == "offenses":
                offenses = _at(f"{where}.offenses", _list, x.get("offenses"))
                if trusted:
                    read[key] = tuple(_BUILDERS[Offense](e) for e in offenses)
                else:
                    read[key] = tuple(
                        _READERS[Offense](e, f"{where}.offenses[{j}]") for j, e in enumerate(offenses)
                    )
            else:
                assert isinstance(value, type)
                read[key] = _BUILDERS[value](x) if trusted else _READERS[value](x, where)
        collections[name] = MappingProxyType(read)
    seq, pruned_at = _at("seq", _int, o.get("seq")), _at("pruned_at", _time, o.get("pruned_at"))
    return State(seq=seq, pruned_at=pruned_at, **collections)


# -- checking what is read: each check raises ValueError saying what was expected; _at says where ------
def _at(where: str, check: Callable[[Any], T], value: object) -> T:
    try:
        return check(value)
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


def _typed(kind: type[T], what: str) -> Callable[[object], T]:
    """The check that a value is a ``kind`` (never a bool), saying ``expected <what>`` otherwise."""

    def check(v: object) -> T:
        if isinstance(v, bool) or not isinstance(v, kind):
            raise ValueError(f"expected {what}")
        return v

    return check


_obj: Callable[[object], dict[str, Any]] = _typed(dict, "an object")
_list: Callable[[object], list[Any]] = _typed(list, "a list")
_str = _typed(str, "a string")
_int = _typed(int, "an integer")


def _time(v: object) -> float:
    if isinstance(v, bool) or not isinstance(v, int | float):
        raise ValueError("expected a number")
    if not in_range(v):
        raise ValueError(f"{v!r} is not an instant in the years 1970 to 9999 (UTC)")
    return float(v)


def _str_list(v: object) -> list[str]:
    if not isinstance(v, list) or not all(isinstance(x, str) for x in v):
        raise ValueError("expected a list of strings")
    return v


def _check(hint: Any, has_default: bool) -> Callable[[Any], Any]:
    """How a field of type ``hint`` is checked (every float of a record is an instant); the reader never
    passes None to the check of a field with a default."""
    args = typing.get_args(hint)
    if NoneType in args:
        inner = _check(next(a for a in args if a is not NoneType), has_default)
        return inner if has_default else lambda v: None if v is None else inner(v)
    if isinstance(hint, type) and issubclass(hint, StrEnum):
        return lambda v: hint(_str(v))
    if typing.get_origin(hint) is tuple:
        return lambda v: tuple(_str_list(v))
    if typing.get_origin(hint) is Mapping:
        return lambda v: MappingProxyType(_obj(v))
    return {str: _str, int: _int, float: _time}[hint]


def _reader(cls: type) -> Callable[[object, str], Any]:
    """The checked record of ``cls`` from a JSON object at ``where``; a field with a default may be absent
    or null."""
    hints = typing.get_type_hints(cls)
    defaults = {f.name: f.default is not MISSING or f.default_factory is not MISSING for f in fields(cls)}
    table = [(name, _check(hints[name], has_default), has_default) for name, has_default in defaults.items()]

    def read(raw: object, where: str) -> Any:
        o = _at(where, _obj, raw)
        values = {}
        for name, check, has_default in table:
            v = o.get(name)
            if v is not None or not has_default:
                try:
                    values[name] = check(v)
                except ValueError as exc:
                    raise ValueError(f"{where}.{name}: {exc}") from None
        return cls(**values)

    return read


def _builder(cls: type) -> Callable[[dict[str, Any]], Any]:
    """The record of ``cls`` from a trusted JSON object: only enums, mappings and tuples converted."""
    hints = typing.get_type_hints(cls)
    names = tuple(f.name for f in fields(cls))
    convert: dict[str, Callable[[Any], Any]] = {}
    for name in names:
        args = [a for a in (typing.get_args(hints[name]) or (hints[name],)) if a is not NoneType]
        hint = args[0] if len(args) == 1 else hints[name]
        if isinstance(hint, type) and issubclass(hint, StrEnum):
            convert[name] = hint
        elif typing.get_origin(hint) is Mapping:
            convert[name] = MappingProxyType
        elif typing.get_origin(hint) is tuple:
            convert[name] = tuple

    def build(row: dict[str, Any]) -> Any:
        values = {n: row[n] for n in names if n in row}  # None stays None: a field may have no default
        for n, f in convert.items():
            if values.get(n) is not None:
                values[n] = f(values[n])
        return cls(**values)

    return build


_KINDS = (Suspension, Hold, Offense, Incident, Episode)
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in _KINDS}
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {cls: attrgetter(*_FIELDS[cls]) for cls in _KINDS}
_READERS: dict[type, Callable[[object, str], Any]] = {cls: _reader(cls) for cls in _KINDS}
_BUILDERS: dict[type, Callable[[dict[str, Any]], Any]] = {cls: _builder(cls) for cls in _KINDS}
