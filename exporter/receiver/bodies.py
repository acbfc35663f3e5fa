"""The receiver API's own request and response bodies as pydantic models (webhook payloads: ``payloads``).

Requests (``LiftBody``, ``IncidentBody``) refuse unknown fields and validate into the values the service
takes; responses are built as models by the service and the app, their items the state's own records
where the fields are the same (``state.Hold``, ``state.Incident``, ``merge.IgnoreEntry``), so the OpenAPI
document (``receiver.openapi``) describes exactly what is sent. Times in responses are Unix seconds sent as
RFC 3339 text (``timestamps.TimeText``).

Example::

    body = IncidentBody.model_validate({"model": "m/x", "provider": "a/1", "reason": "outage"})
    body.until, body.force        # (None, False)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BeforeValidator,
    Field,
    JsonValue,
    StringConstraints,
    WithJsonSchema,
)

from exporter.receiver.codec import DECISION
from exporter.receiver.merge import IgnoreEntry
from exporter.receiver.state import Hold, Incident, Kind, Mode
from exporter.receiver.tags import canonical_tag
from exporter.textkit import LABEL_PATTERN, control_problem
from exporter.timestamps import Timestamp, TimeText
from exporter.web.models import REF_TEMPLATE, Body, ErrorBody

__all__ = ["ErrorBody"]  # the shared error body, answered by this API too

MAX_FIELD_CHARS = 4096  # any admin body field


def _no_controls(text: object) -> object:
    if isinstance(text, str) and (problem := control_problem(text)) is not None:
        raise ValueError(problem)
    return text


#: A required admin text field: no control characters (checked before blanks are dropped: a reason is
#: logged and served; ``textkit.control_problem``), surrounding blanks dropped, something must remain.
AdminText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=MAX_FIELD_CHARS, pattern=r"\S"),
    BeforeValidator(_no_controls),
    WithJsonSchema(
        {"type": "string", "minLength": 1, "maxLength": MAX_FIELD_CHARS, "pattern": LABEL_PATTERN}
    ),
]
#: A model slug or provider tag in an admin body: admin text, canonical (``tags.canonical_tag``).
AdminName = Annotated[AdminText, AfterValidator(canonical_tag)]
_TEXT = "a non-empty string"


class LiftBody(Body):
    """``POST /v1/admin/lift``: lift a current suspension (it holds until a clean round or ``until``)."""

    model: AdminName = Field(description=_TEXT)
    provider: AdminName = Field(description=_TEXT)
    reason: AdminText = Field(description=_TEXT)
    until: Timestamp | None = Field(default=None, description="RFC 3339; absent or null: until a clean round")


class IncidentBody(LiftBody):
    """``POST /v1/admin/incidents``: exclude a host by hand, optionally until a time."""

    until: Timestamp | None = Field(
        default=None, description="RFC 3339, in the future; absent or null: no expiry"
    )
    force: bool = Field(default=False, description="exclude even if the capacity floor breaks (recorded)")


class DecisionBrief(Body):
    """A decision as the webhook answers it; ``seq`` is null for a repeat (counted, not journaled)."""

    seq: int | None
    kind: Kind
    model: str | None
    provider: str | None
    reason: str


class WebhookReply(Body):
    status: Literal["ok"] = "ok"
    decisions: list[DecisionBrief]


def _decision_schema() -> dict[str, JsonValue]:
    """A decision-log entry's schema: the codec's (``codec.DECISION``) plus ``time``, ``at`` as text."""
    schema = DECISION.json_schema(mode="serialization", ref_template=REF_TEMPLATE)
    schema.pop("$defs", None)  # Kind and Mode: components of their own, under the same names
    schema["properties"]["time"] = {"type": "string", "format": "date-time", "description": "at, as text"}
    schema["required"] = [*schema.get("required", []), "time"]
    return {**schema, "title": "DecisionRecord"}


#: A decision-log entry as ``codec.decision_to_json`` writes it (passed through from the store, never
#: re-validated: the store checked it).
DecisionRecord = Annotated[Mapping[str, object], WithJsonSchema(_decision_schema())]


class Decisions(Body):
    decisions: Sequence[DecisionRecord]


class IncidentAdded(Decisions):
    id: str


class DecisionsPage(Decisions):
    next_since: int = Field(description="the seq to pass as since for the next page")
    truncated: bool = Field(
        default=False,
        description="true when the page stopped at its byte budget (1 MiB of entries) before limit entries; "
        "the next page starts at next_since",
    )
    oldest_in_memory: int | None = Field(description="kept for compatibility: every decision is stored")


class IgnoreList(Body):
    """``GET /v1/ignore``: the merged ignore list of one model, for a router's ``provider.ignore``."""

    model: str
    ignore: list[str]
    entries: list[IgnoreEntry]
    generated_at: TimeText


class Offense(Body):
    at: TimeText
    until: TimeText
    rung: int
    ended_at: TimeText | None


class SuspensionItem(Body):
    model: str
    provider: str
    mode: Mode
    rung: int
    since: TimeText
    until: TimeText
    reason: str
    episode: str
    failing_contracts: list[str]
    failing_reasons: list[str]
    evidence_url: str | None
    offense_level: int
    offenses: list[Offense]


class Suspensions(Body):
    """``GET /v1/suspensions``: one page of routes (by model, then provider) with their suspension or hold."""

    mode: Mode
    generated_at: TimeText
    suspensions: list[SuspensionItem]
    holds: list[Hold]
    next_after: str | None = Field(
        default=None,
        description="the cursor of the next page (pass it as after); null on the last page. A page holds "
        "at most limit routes (default and most 1000) and 1 MiB of items",
    )


class Incidents(Body):
    incidents: list[Incident]


HealthStatus = Literal["ok", "damaged", "unwritable"]


class Health(Body):
    status: HealthStatus
    mode: Mode
    seq: int
    message: str | None = Field(default=None, description="what is wrong (status damaged or unwritable, 503)")
