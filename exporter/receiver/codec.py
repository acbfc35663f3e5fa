"""JSON encoding of decision-log entries.

A decision is encoded by one pydantic adapter over ``state.Decision`` (``DECISION``): the store's log rows,
the API's decision-log entries and their OpenAPI schema. Decoding is strict: a wrong or missing field raises
``ValueError`` naming the field, so a damaged row is reported precisely instead of being half-read (a field
with a default may be absent or null). Times are Unix seconds (floats) for exactness; log entries also carry
a human ``time`` field that is ignored on reading.
"""

from __future__ import annotations

from pydantic import JsonValue, TypeAdapter, ValidationError
from pydantic_core import PydanticSerializationError, to_json

from exporter.receiver.state import SUSPENDING_KINDS, Decision, Kind
from exporter.timestamps import format_rfc3339, in_range
from exporter.web.models import json_path, problem_of

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
