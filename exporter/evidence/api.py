"""``GET /v1/evidence``: query parameters validated into store arguments, and the page as JSON (pure).

Parameters: ``model``, ``provider``, ``contract``, ``outcome`` (exact matches), ``since``/``until`` (RFC 3339
with an offset, or unix seconds; ``since`` inclusive, ``until`` exclusive), ``limit`` (1..500, default 100)
and ``cursor`` (the ``next_cursor`` of the previous page). Any other parameter, a repeated parameter, or a
value too long or malformed is an ``InvalidQuery`` naming it (the endpoint answers 400).

Example::

    >>> parse_query({"model": "m/x", "since": "2026-12-01T10:00:00Z", "limit": "5"})["since"]
    1796119200.0
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from urllib.parse import urlencode

from pydantic import Field, JsonValue

from exporter.evidence.store import (
    QUERY_DEFAULT_LIMIT,
    QUERY_MAX_LIMIT,
    EvidenceJson,
    EvidencePage,
    InvalidQuery,
    Query,
    record_columns,
)
from exporter.outcomes import Outcome
from exporter.timestamps import parse_instant
from exporter.web.models import Body

PARAMETERS = tuple(Query.__annotations__)
MAX_VALUE_CHARS = 256
_OUTCOMES = tuple(o.value for o in Outcome)


def parse_query(params: Mapping[str, str] | Sequence[tuple[str, str]]) -> Query:
    """The keyword arguments of ``EvidenceStore.query`` for a request's query parameters."""
    items = list(params.items()) if isinstance(params, Mapping) else list(params)
    seen: set[str] = set()
    texts: dict[str, str] = {}
    times: dict[str, float] = {}
    limit = QUERY_DEFAULT_LIMIT
    for key, value in items:
        if key not in PARAMETERS:
            raise InvalidQuery(key, f"unknown parameter (known: {', '.join(PARAMETERS)})")
        if key in seen:
            raise InvalidQuery(key, "given more than once")
        seen.add(key)
        if not value or len(value) > MAX_VALUE_CHARS:
            raise InvalidQuery(key, f"expected a value of 1 to {MAX_VALUE_CHARS} characters")
        if key in ("since", "until"):
            try:
                times[key] = parse_instant(value)
            except ValueError as exc:
                raise InvalidQuery(key, str(exc)) from None
        elif key == "limit":
            if not re.fullmatch(r"[0-9]{1,3}", value) or not 1 <= int(value) <= QUERY_MAX_LIMIT:
                raise InvalidQuery(
                    key, f"expected a whole number from 1 to {QUERY_MAX_LIMIT} (got {value!r})"
                )
            limit = int(value)
        elif key == "outcome" and value not in _OUTCOMES:
            raise InvalidQuery(key, f"expected one of {', '.join(_OUTCOMES)} (got {value!r})")
        else:
            texts[key] = value
    since, until = times.get("since"), times.get("until")
    if since is not None and until is not None and until <= since:
        raise InvalidQuery("until", "must be later than since")
    return Query(
        model=texts.get("model"), provider=texts.get("provider"), contract=texts.get("contract"),
        outcome=texts.get("outcome"), since=since, until=until, limit=limit, cursor=texts.get("cursor"),
    )  # fmt: skip


class Page(Body):
    """The ``GET /v1/evidence`` body: one page of records, newest first, and the way to the next one."""

    records: list[EvidenceJson]
    next_cursor: str | None = Field(description="pass as cursor for the next page; null on the last")
    next: str | None = Field(description="the link to the next page (this query with its cursor)")


def page_json(page: EvidencePage, base_path: str, query: Mapping[str, str]) -> dict[str, JsonValue]:
    """The response body (``Page``): the records, the cursor, and the link to the next page."""
    following = None
    if page.next_cursor is not None:
        rest = {k: v for k, v in query.items() if k != "cursor"}
        following = f"{base_path}?{urlencode({**rest, 'cursor': page.next_cursor})}"
    body = Page(records=list(map(record_columns, page.records)), next_cursor=page.next_cursor, next=following)
    return body.model_dump(mode="json")
