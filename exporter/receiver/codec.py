"""JSON encoding of decision-log entries.

A decision is written field by field from its dataclass, in the dataclass's order, and read back by the
same table: the field's type says how it is checked. Decoding
is strict: a wrong or missing field raises ``ValueError`` naming the field, so a damaged file is reported
precisely instead of being half-read (a field with a default may be absent or null). Times are Unix seconds
(floats) for exactness; log entries also carry a human ``time`` field that is ignored on reading.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from enum import StrEnum
from operator import attrgetter
from types import MappingProxyType, NoneType
from typing import Any, TypeVar

from exporter.receiver.state import SUSPENDING_KINDS, Decision, Kind
from exporter.timestamps import format_rfc3339, in_range

T = TypeVar("T")

_ALWAYS = frozenset({"seq", "at", "kind", "reason"})  # a decision's fields written even when empty
_EVEN_EMPTY = frozenset({"discovered"})  # an empty list of hosts is a fact: the input told none


def decision_to_json(d: Decision) -> dict[str, Any]:
    """A decision-log entry: the required fields, the others when set, and ``time``, the human ``at``."""
    entry = {"seq": d.seq, "at": d.at, "time": format_rfc3339(d.at)}
    for name, value in zip(_FIELDS[Decision], _GETTERS[Decision](d), strict=True):
        # "" and () and {} (any empty mapping) are unset; an empty ``discovered`` is set
        unset = value is None or (name not in _EVEN_EMPTY and (value == "" or value == () or value == {}))
        if (name in _ALWAYS or not unset) and name not in entry:
            entry[name] = _PLAIN[name](value) if name in _PLAIN else value
    return entry


def decision_from_json(raw: object) -> Decision:
    decision: Decision = _READERS[Decision](raw, "entry")
    if decision.kind in SUSPENDING_KINDS or decision.kind is Kind.PROMOTE:
        missing = [k for k in ("model", "provider", "mode", "rung", "until") if getattr(decision, k) is None]
        if missing:
            raise ValueError(f"a {decision.kind} entry needs {', '.join(missing)}")
    return decision


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


_KINDS = (Decision,)
_FIELDS: dict[type, tuple[str, ...]] = {cls: tuple(f.name for f in fields(cls)) for cls in _KINDS}
_GETTERS: dict[type, Callable[[Any], tuple[Any, ...]]] = {cls: attrgetter(*_FIELDS[cls]) for cls in _KINDS}
_READERS: dict[type, Callable[[object, str], Any]] = {cls: _reader(cls) for cls in _KINDS}
#: Fields whose values JSON needs in another form (mappings as objects, tuples as lists).
_PLAIN: dict[str, Callable[[Any], Any]] = {
    "explanation": dict,
    "inputs": dict,
    "discovered": list,
    "closes": list,
}
