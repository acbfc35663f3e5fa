"""The receiver's OpenAPI 3.1 document: every schema generated from the models the code validates with.

Request schemas come from ``payloads.Notification`` and ``bodies.LiftBody``/``IncidentBody`` (what is
validated), response schemas from the ``bodies`` models the handlers build (what is sent); the table
below only says which operation takes and answers which model, under which token.
"""

from __future__ import annotations

from exporter.receiver import bodies
from exporter.receiver.payloads import MAX_LABEL_CHARS, Notification
from exporter.receiver.service import CURSOR_PATTERN, DECISIONS_PAGE, MAX_CURSOR_CHARS, SUSPENSIONS_PAGE
from exporter.textkit import LABEL_PATTERN, NO_CONTROLS_PATTERN
from exporter.timestamps import SCHEMA as TIMESTAMP_SCHEMA
from exporter.web.models import ErrorBody
from exporter.web.openapi import IF_NONE_MATCH, Operation, Responses, document, query

_BODY: Responses = {
    400: (ErrorBody, "invalid body; problems name each location"),
    413: (ErrorBody, "body too large"),
    415: (ErrorBody, "Content-Type is not application/json"),
    503: (ErrorBody, "not durable; retry"),
}
_ADMIN: Responses = {**_BODY, 401: (ErrorBody, "missing or wrong admin token")}
_MODEL = {"type": "string", "minLength": 1, "maxLength": MAX_LABEL_CHARS, "pattern": LABEL_PATTERN}
_REASON = {"type": "string", "maxLength": bodies.MAX_FIELD_CHARS, "pattern": NO_CONTROLS_PATTERN}


_OPERATIONS: list[Operation] = [
    ("/v1/alerts", "post", "Webhook: judge every alert of a notification; 2xx only once durable",
     "webhookToken", Notification, [],
     {200: (bodies.WebhookReply, "decided and durable"), **_BODY,
      401: (ErrorBody, "missing or wrong bearer token"),
      413: (ErrorBody, "body larger than max_body_bytes, or too many alerts")}),
    ("/v1/ignore", "get", "Merged ignore list of a model for provider.ignore (no token; ETag/304)",
     None, None,
     [query("model", _MODEL,
            True, description="the gateway model slug (compared in lowercase)"),
      IF_NONE_MATCH],
     {200: (bodies.IgnoreList, "the list (unknown model: built-in layer only, maybe empty)"),
      304: (None, "unchanged since the given ETag"),
      400: (ErrorBody, "model missing, too long or with a control character")}),
    ("/v1/suspensions", "get",
     "Current suspensions, observe-only ones included, with offense history, and lift holds; paged by route "
     "(at most 1000 routes and 1 MiB)",
     None, None,
     [query("after",
            {"type": "string", "maxLength": MAX_CURSOR_CHARS, "pattern": f"^{CURSOR_PATTERN.pattern}$"},
            description="the next_after of the previous page (absent: the first page)"),
      query("limit", {"type": "integer", "minimum": 1, "maximum": SUSPENSIONS_PAGE},
            description=f"routes per page (default {SUSPENSIONS_PAGE})")],
     {200: (bodies.Suspensions, "one page, by model then provider"),
      400: (ErrorBody, "bad limit or cursor")}),
    ("/v1/incidents", "get", "Admin incident exclusions in force", None, None, [],
     {200: (bodies.Incidents, "listing")}),
    ("/v1/decisions", "get", "The decision log from the store, paged (at most 1000 entries and 1 MiB)",
     "readToken?",
     None,
     [query("since", {"anyOf": [{"type": "string", "pattern": "^[0-9]{0,18}$"}, TIMESTAMP_SCHEMA]},
             description="a decision seq (exclusive) or an RFC 3339 time (inclusive)"),
      query("limit", {"type": "integer", "minimum": 1, "maximum": DECISIONS_PAGE})],
     {200: (bodies.DecisionsPage, "decisions, oldest first"), 400: (ErrorBody, "bad query"),
      401: (ErrorBody, "receiver.read_token is set and the bearer token is missing or wrong")}),
    ("/v1/admin/lift", "post", "Lift a current suspension; it holds until a clean round or until",
     "adminToken", bodies.LiftBody, [],
     {200: (bodies.Decisions, "lifted"), **_ADMIN, 404: (ErrorBody, "no such suspension")}),
    ("/v1/admin/incidents", "post", "Add an incident exclusion, optionally until a time",
     "adminToken", bodies.IncidentBody, [],
     {201: (bodies.IncidentAdded, "added"), **_ADMIN,
      400: (ErrorBody, "invalid body or until not in the future"),
      409: (ErrorBody, "it would break the capacity floor (send force: true)")}),
    ("/v1/admin/incidents/{incident_id}", "delete", "Remove an incident exclusion", "adminToken", None,
     [{"name": "incident_id", "in": "path", "required": True, "schema": {"type": "string"}},
      query("reason", _REASON)],
     {200: (bodies.Decisions, "removed"), 401: _ADMIN[401], 404: (ErrorBody, "no such incident"),
      400: (ErrorBody, "reason longer than 4096 characters or with a control character"),
      503: _BODY[503]}),
    ("/healthz", "get", "Liveness and store health", None, None, [],
     {200: (bodies.Health, "alive"), 503: (bodies.Health, "store found damaged")}),
]  # fmt: skip


def openapi_document() -> dict[str, object]:
    """The document served at ``GET /openapi.json``."""
    return document(
        "Provider Canary receiver",
        "Quarantine receiver: Alertmanager/Grafana webhook, per-model ignore list for routers, suspension "
        "and incident listings, decision log, admin actions. Read endpoints need no token.",
        _OPERATIONS,
        {f"{name}Token": f"receiver.{name}_token" for name in ("webhook", "admin", "read")},
    )
