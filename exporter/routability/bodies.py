"""The routability API's response bodies as pydantic models: the row, the listing, the trigger's answers
and the errors. The OpenAPI document (``routability.openapi``) is generated from them.

Example::

    body = row_body(RoutabilityRow("a/b"), now=10.0, recent_window=3600.0)
    body.status, body.age_seconds, body.skip       # (<Status.UNKNOWN: 'unknown'>, None, False)
"""

from __future__ import annotations

from dataclasses import fields

from pydantic import Field

from exporter.outcomes import Reason
from exporter.routability.model import ListedSignal, PassSummary, RoutabilityRow, Source, Status
from exporter.routability.routing import should_skip
from exporter.web.models import Body

Counts = dict[str, int]  # models per status, every status present

#: ``?wait=`` on the trigger (read lower-cased): whether the call waits for the pass to finish.
WAIT_VALUES = {"": False, "0": False, "false": False, "no": False, "1": True, "true": True, "yes": True}


class Problem(Body):
    """Every refusal of this API (a one-sentence ``error``)."""

    error: str


class Row(Body):
    """``GET /v1/routability/{slug}``: the model's row, its age and the routing verdict."""

    slug: str
    status: Status
    last_check: float | None = Field(default=None, description="unix seconds of the last probe attempt")
    source: Source | None = None
    note: str = ""
    consecutive_failures: int = 0
    reason: Reason = Reason.NONE
    http_status: int | None = None
    last_healthy: float | None = None
    listed: ListedSignal | None = Field(default=None, description="the gateway's listing: information only")
    age_seconds: float | None
    skip: bool = Field(description="a router should skip the model (recently unavailable)")


class Rows(Body):
    """``GET /v1/routability``: every row, sorted by slug."""

    generated_at: float
    recent_unavailable_seconds: float
    running: bool
    models: Counts
    rows: list[Row]


class PassDone(Body):
    """``POST /v1/routability/run?wait=true``: the pass that ran and the counts after it."""

    pass_: PassSummary = Field(alias="pass")
    models: Counts


class PassStarted(Body):
    """``POST /v1/routability/run``: a pass started in the background (or one was already running)."""

    started: bool
    running: bool
    models: Counts
    last_pass: dict[str, object] | None = Field(description="the last completed pass as stored (PassSummary)")


def _fields(row: RoutabilityRow) -> dict[str, object]:
    return {f.name: getattr(row, f.name) for f in fields(row)}


def row_body(row: RoutabilityRow, now: float, recent_window: float) -> Row:
    age = row.age_seconds(now)
    skip = should_skip(row, now, recent_window)
    return Row.model_validate(
        _fields(row) | {"age_seconds": None if age is None else round(age, 3), "skip": skip}
    )
