"""The receiver's OpenAPI 3.1 document: every schema generated from the models the code validates with.

Request schemas come from ``payloads.Notification`` and ``bodies.LiftBody``/``IncidentBody`` (what is
validated), response schemas from the ``bodies`` models the handlers build (what is sent); this module
only says which operation takes and answers which model.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from exporter.receiver import bodies
from exporter.receiver.payloads import Notification
from exporter.receiver.rfc3339 import SCHEMA as TIMESTAMP_SCHEMA
from exporter.web.models import REF_TEMPLATE, ErrorBody, component_schemas

_INPUTS: tuple[type[BaseModel], ...] = (Notification, bodies.LiftBody, bodies.IncidentBody)
_OUTPUTS: tuple[type[BaseModel], ...] = (
    ErrorBody,
    bodies.WebhookReply,
    bodies.IgnoreList,
    bodies.Suspensions,
    bodies.Incidents,
    bodies.DecisionsPage,
    bodies.Decisions,
    bodies.IncidentAdded,
    bodies.Health,
)
_WEBHOOK_SEC: list[dict[str, list[str]]] = [{"webhookToken": []}]
_ADMIN_SEC: list[dict[str, list[str]]] = [{"adminToken": []}]


def _ref(model: type[BaseModel]) -> dict[str, str]:
    return {"$ref": REF_TEMPLATE.format(model=model.__name__)}


def _json(model: type[BaseModel], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": _ref(model)}}}


def _errors(**described: str) -> dict[str, Any]:
    """Error responses by status (``e401="..."``)."""
    return {status.removeprefix("e"): _json(ErrorBody, text) for status, text in described.items()}


def _request(model: type[BaseModel]) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": _ref(model)}}}


def _query(name: str, schema: dict[str, Any], *, required: bool = False, **extra: Any) -> dict[str, Any]:
    return {"name": name, "in": "query", "required": required, "schema": schema, **extra}


_BODY_ERRORS = {
    "e400": "invalid body; problems name each location",
    "e413": "body too large",
    "e415": "Content-Type is not application/json",
    "e503": "not durable; retry",
}


def openapi_document() -> dict[str, Any]:
    """The document served at ``GET /openapi.json``."""
    admin = {"e401": "missing or wrong admin token"}
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
                "webhookToken": {"type": "http", "scheme": "bearer", "description": "receiver.webhook_token"},
                "adminToken": {"type": "http", "scheme": "bearer", "description": "receiver.admin_token"},
                "readToken": {"type": "http", "scheme": "bearer", "description": "receiver.read_token"},
            },
            "schemas": component_schemas(_INPUTS, _OUTPUTS),
        },
        "paths": {
            "/v1/alerts": {
                "post": {
                    "summary": "Webhook: judge every alert of a notification; 2xx only once durable",
                    "security": _WEBHOOK_SEC,
                    "requestBody": _request(Notification),
                    "responses": {
                        "200": _json(bodies.WebhookReply, "decided and durable"),
                        **_errors(
                            **{**_BODY_ERRORS, "e413": "body larger than max_body_bytes, or too many alerts"}
                        ),
                        **_errors(e401="missing or wrong bearer token"),
                    },
                }
            },
            "/v1/ignore": {
                "get": {
                    "summary": "Merged ignore list of a model for provider.ignore (no token; ETag/304)",
                    "parameters": [
                        _query("model", {"type": "string", "minLength": 1, "pattern": r"\S"}, required=True),
                        {
                            "name": "If-None-Match",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string"},
                        },
                    ],
                    "responses": {
                        "200": {
                            **_json(
                                bodies.IgnoreList,
                                "the list (unknown model: built-in layer only, maybe empty)",
                            ),
                            "headers": {"ETag": {"schema": {"type": "string"}}},
                        },
                        "304": {"description": "unchanged since the given ETag"},
                        **_errors(e400="model missing"),
                    },
                }
            },
            "/v1/suspensions": {
                "get": {
                    "summary": "Current suspensions, observe-only ones included, with offense history",
                    "responses": {"200": _json(bodies.Suspensions, "listing")},
                }
            },
            "/v1/incidents": {
                "get": {
                    "summary": "Admin incident exclusions in force",
                    "responses": {"200": _json(bodies.Incidents, "listing")},
                }
            },
            "/v1/decisions": {
                "get": {
                    "summary": "The decision log, paged (at most 1000 per page) from the store",
                    "parameters": [
                        _query(
                            "since",
                            {"anyOf": [{"type": "string", "pattern": "^[0-9]{0,18}$"}, TIMESTAMP_SCHEMA]},
                            description="a decision seq (exclusive) or an RFC 3339 time (inclusive)",
                        ),
                        _query("limit", {"type": "integer", "minimum": 1, "maximum": 1000}),
                    ],
                    "security": [{}, {"readToken": []}],
                    "responses": {
                        "200": _json(bodies.DecisionsPage, "decisions, oldest first"),
                        **_errors(
                            e400="bad query",
                            e401="receiver.read_token is set and the bearer token is missing or wrong",
                        ),
                    },
                }
            },
            "/v1/admin/lift": {
                "post": {
                    "summary": "Lift a current suspension; it holds until a clean round or until",
                    "security": _ADMIN_SEC,
                    "requestBody": _request(bodies.LiftBody),
                    "responses": {
                        "200": _json(bodies.Decisions, "lifted"),
                        **_errors(**_BODY_ERRORS, **admin, e404="no such suspension"),
                    },
                }
            },
            "/v1/admin/incidents": {
                "post": {
                    "summary": "Add an incident exclusion, optionally until a time",
                    "security": _ADMIN_SEC,
                    "requestBody": _request(bodies.IncidentBody),
                    "responses": {
                        "201": _json(bodies.IncidentAdded, "added"),
                        **_errors(
                            **{**_BODY_ERRORS, "e400": "invalid body or until not in the future"},
                            **admin,
                            e409="it would break the capacity floor (send force: true)",
                        ),
                    },
                }
            },
            "/v1/admin/incidents/{incident_id}": {
                "delete": {
                    "summary": "Remove an incident exclusion",
                    "security": _ADMIN_SEC,
                    "parameters": [
                        {"name": "incident_id", "in": "path", "required": True, "schema": {"type": "string"}},
                        _query("reason", {"type": "string"}),
                    ],
                    "responses": {
                        "200": _json(bodies.Decisions, "removed"),
                        **_errors(**admin, e404="no such incident", e503="not durable; retry"),
                    },
                }
            },
            "/healthz": {
                "get": {
                    "responses": {
                        "200": _json(bodies.Health, "alive"),
                        "503": _json(bodies.Health, "store found damaged"),
                    }
                }
            },
            "/metrics": {
                "get": {
                    "responses": {"200": {"description": "Prometheus text", "content": {"text/plain": {}}}}
                }
            },
            "/openapi.json": {
                "get": {
                    "responses": {
                        "200": {
                            "description": "this document",
                            "content": {"application/json": {"schema": {"type": "object"}}},
                        }
                    }
                }
            },
        },
    }
