"""The receiver's OpenAPI 3.1 document: every schema generated from the models the code validates with.

Request schemas come from ``payloads.Notification`` and ``bodies.LiftBody``/``IncidentBody`` (what is
validated), response schemas from the ``bodies`` models the handlers build (what is sent); the table
below only says which operation takes and answers which model, under which token.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from exporter.receiver import bodies
from exporter.receiver.payloads import Notification
from exporter.receiver.rfc3339 import SCHEMA as TIMESTAMP_SCHEMA
from exporter.web.models import REF_TEMPLATE, ErrorBody, component_schemas

Responses = dict[int, tuple[type[BaseModel] | None, str]]  # status: (body model or none, description)
_BODY: Responses = {
    400: (ErrorBody, "invalid body; problems name each location"),
    413: (ErrorBody, "body too large"),
    415: (ErrorBody, "Content-Type is not application/json"),
    503: (ErrorBody, "not durable; retry"),
}
_ADMIN: Responses = {**_BODY, 401: (ErrorBody, "missing or wrong admin token")}


def _query(name: str, schema: dict[str, Any], required: bool = False, **more: Any) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "schema": schema, **more}


#: (path, method, summary, token scheme, request model, parameters, responses)
_OPERATIONS: list[tuple[str, str, str, str | None, type[BaseModel] | None, list[Any], Responses]] = [
    ("/v1/alerts", "post", "Webhook: judge every alert of a notification; 2xx only once durable",
     "webhookToken", Notification, [],
     {200: (bodies.WebhookReply, "decided and durable"), **_BODY,
      401: (ErrorBody, "missing or wrong bearer token"),
      413: (ErrorBody, "body larger than max_body_bytes, or too many alerts")}),
    ("/v1/ignore", "get", "Merged ignore list of a model for provider.ignore (no token; ETag/304)",
     None, None,
     [_query("model", {"type": "string", "minLength": 1, "pattern": r"\S"}, True),
      {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}],
     {200: (bodies.IgnoreList, "the list (unknown model: built-in layer only, maybe empty)"),
      304: (None, "unchanged since the given ETag"), 400: (ErrorBody, "model missing")}),
    ("/v1/suspensions", "get", "Current suspensions, observe-only ones included, with offense history",
     None, None, [], {200: (bodies.Suspensions, "listing")}),
    ("/v1/incidents", "get", "Admin incident exclusions in force", None, None, [],
     {200: (bodies.Incidents, "listing")}),
    ("/v1/decisions", "get", "The decision log, paged (at most 1000 per page) from the store", "readToken?",
     None,
     [_query("since", {"anyOf": [{"type": "string", "pattern": "^[0-9]{0,18}$"}, TIMESTAMP_SCHEMA]},
             description="a decision seq (exclusive) or an RFC 3339 time (inclusive)"),
      _query("limit", {"type": "integer", "minimum": 1, "maximum": 1000})],
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
      _query("reason", {"type": "string"})],
     {200: (bodies.Decisions, "removed"), 401: _ADMIN[401], 404: (ErrorBody, "no such incident"),
      503: _BODY[503]}),
    ("/healthz", "get", "Liveness and store health", None, None, [],
     {200: (bodies.Health, "alive"), 503: (bodies.Health, "store found damaged")}),
]  # fmt: skip


def _ref(model: type[BaseModel]) -> dict[str, Any]:
    return {"application/json": {"schema": {"$ref": REF_TEMPLATE.format(model=model.__name__)}}}


def _operation(
    summary: str, token: str | None, request: type[BaseModel] | None, params: list[Any], answers: Responses
) -> dict[str, Any]:
    out: dict[str, Any] = {"summary": summary}
    if token is not None:  # "name?": the token is optional (only when configured)
        scheme: dict[str, list[str]] = {token.rstrip("?"): []}
        out["security"] = [{}, scheme] if token.endswith("?") else [scheme]
    if params:
        out["parameters"] = params
    if request is not None:
        out["requestBody"] = {"required": True, "content": _ref(request)}
    out["responses"] = {
        str(status): {"description": text, **({"content": _ref(model)} if model else {})}
        for status, (model, text) in sorted(answers.items())
    }
    return out


def openapi_document() -> dict[str, Any]:
    """The document served at ``GET /openapi.json``."""
    paths: dict[str, dict[str, Any]] = {}
    inputs, outputs = [], []
    for path, method, summary, token, request, params, answers in _OPERATIONS:
        paths.setdefault(path, {})[method] = _operation(summary, token, request, params, answers)
        inputs += [request] if request is not None else []
        outputs += [model for model, _ in answers.values() if model is not None]
    paths["/v1/ignore"]["get"]["responses"]["200"]["headers"] = {"ETag": {"schema": {"type": "string"}}}
    text: dict[str, Any] = {"text/plain": {}}
    document = {"application/json": {"schema": {"type": "object"}}}
    paths["/metrics"] = {"get": {"responses": {"200": {"description": "Prometheus text", "content": text}}}}
    paths["/openapi.json"] = {
        "get": {"responses": {"200": {"description": "this document", "content": document}}}
    }
    bearer = {"type": "http", "scheme": "bearer"}
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "Provider Canary receiver",
            "version": "1",
            "description": "Quarantine receiver: Alertmanager/Grafana webhook, per-model ignore list for "
            "routers, suspension and incident listings, decision log, admin actions. "
            "Read endpoints need no token.",
        },
        "components": {
            "securitySchemes": {
                f"{name}Token": {**bearer, "description": f"receiver.{name}_token"}
                for name in ("webhook", "admin", "read")
            },
            "schemas": component_schemas(dict.fromkeys(inputs), dict.fromkeys(outputs)),
        },
        "paths": paths,
    }
