"""The receiver's OpenAPI 3.0 document, built as data so it stays next to the code it describes."""

from __future__ import annotations

from typing import Any

_ERROR = {
    "type": "object",
    "required": ["error", "message"],
    "properties": {
        "error": {"type": "string"},
        "message": {"type": "string"},
        "problems": {"type": "array", "items": {"type": "string"}},
    },
}
_STRINGS = {"type": "object", "additionalProperties": {"type": "string"}}
_TIME = {"type": "string", "format": "date-time"}
_NULLABLE_TIME = {"type": "string", "format": "date-time", "nullable": True}


def _json(schema: dict[str, Any], description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": schema}}}


def _err(description: str) -> dict[str, Any]:
    return _json({"$ref": "#/components/schemas/Error"}, description)


_DECISION = {
    "type": "object",
    "required": ["seq", "at", "time", "kind", "reason"],
    "properties": {
        "seq": {"type": "integer"},
        "at": {"type": "number", "description": "Unix seconds"},
        "time": _TIME,
        "kind": {
            "type": "string",
            "enum": [
                "suspend", "escalate", "observe", "promote", "floor_block", "lift", "recover", "expire",
                "incident_add", "incident_remove", "duplicate", "ignored",
            ],
        },
        "reason": {"type": "string"},
        "model": {"type": "string"},
        "provider": {"type": "string"},
        "mode": {"type": "string", "enum": ["observe", "enforce"]},
        "rung": {"type": "integer"},
        "until": {"type": "number"},
        "episode": {"type": "string"},
        "incident_id": {"type": "string"},
        "discovered": {"type": "array", "items": {"type": "string"}},
        "closes": {"type": "array", "items": {"type": "string"}},
        "source": {"type": "string"},
        "inputs": {"type": "object"},
        "starts_at": {"type": "number", "description": "the alert's startsAt, Unix seconds"},
        "explanation": {
            "type": "object",
            "description": "why a suspend alert fired: failing_contracts, failing_reasons, evidence_url",
        },
    },
}  # fmt: skip

_ALERT = {
    "type": "object",
    "required": ["status", "labels", "startsAt"],
    "properties": {
        "status": {"type": "string", "enum": ["firing", "resolved"]},
        "labels": _STRINGS,
        "annotations": _STRINGS,
        "startsAt": _TIME,
        "endsAt": {"type": "string"},
        "generatorURL": {"type": "string"},
        "fingerprint": {"type": "string"},
    },
}

_WEBHOOK = {
    "type": "object",
    "required": ["version", "alerts"],
    "description": 'Alertmanager (version "4") or Grafana (version "1") webhook payload. An alert with '
    "labels.action suspend or recover must also have non-empty labels.model and labels.provider.",
    "properties": {
        "version": {"type": "string", "enum": ["4", "1"]},
        "status": {"type": "string"},
        "receiver": {"type": "string"},
        "groupKey": {"type": "string"},
        "truncatedAlerts": {"type": "integer"},
        "groupLabels": _STRINGS,
        "commonLabels": _STRINGS,
        "commonAnnotations": _STRINGS,
        "externalURL": {"type": "string"},
        "alerts": {"type": "array", "items": {"$ref": "#/components/schemas/Alert"}},
    },
}

_IGNORE = {
    "type": "object",
    "required": ["model", "ignore", "entries", "generated_at"],
    "additionalProperties": False,
    "properties": {
        "model": {"type": "string"},
        "ignore": {"type": "array", "items": {"type": "string"}},
        "entries": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["provider", "layer", "reason", "until"],
                "additionalProperties": False,
                "properties": {
                    "provider": {"type": "string"},
                    "layer": {"type": "string", "enum": ["builtin", "incident", "suspension"]},
                    "reason": {"type": "string"},
                    "until": _NULLABLE_TIME,
                },
            },
        },
        "generated_at": _TIME,
    },
}

_DECISIONS_OUT = {
    "type": "object",
    "required": ["decisions"],
    "properties": {"decisions": {"type": "array", "items": {"$ref": "#/components/schemas/Decision"}}},
}

_WEBHOOK_SEC: list[dict[str, list[str]]] = [{"webhookToken": []}]
_ADMIN_SEC: list[dict[str, list[str]]] = [{"adminToken": []}]


def openapi_document() -> dict[str, Any]:
    """The document served at ``GET /openapi.json``."""
    return {
        "openapi": "3.0.3",
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
            "schemas": {"Error": _ERROR, "Alert": _ALERT, "Webhook": _WEBHOOK, "Decision": _DECISION},
        },
        "paths": {
            "/v1/alerts": {
                "post": {
                    "summary": "Webhook: judge every alert of a notification; 2xx only once durable",
                    "security": _WEBHOOK_SEC,
                    "requestBody": {
                        "required": True,
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Webhook"}}},
                    },
                    "responses": {
                        "200": _json(
                            {"type": "object", "required": ["status", "decisions"]}, "decided and durable"
                        ),
                        "400": _err("malformed payload; problems name each location"),
                        "401": _err("missing or wrong bearer token"),
                        "413": _err("body larger than max_body_bytes, or too many alerts"),
                        "415": _err("Content-Type is not application/json"),
                        "503": _err("the decision could not be made durable; retry"),
                    },
                }
            },
            "/v1/ignore": {
                "get": {
                    "summary": "Merged ignore list of a model for provider.ignore (no token; ETag/304)",
                    "parameters": [
                        {
                            "name": "model",
                            "in": "query",
                            "required": True,
                            "schema": {"type": "string", "minLength": 1},
                        },
                        {
                            "name": "If-None-Match",
                            "in": "header",
                            "required": False,
                            "schema": {"type": "string"},
                        },
                    ],
                    "responses": {
                        "200": {
                            **_json(_IGNORE, "the list (unknown model: built-in layer only, maybe empty)"),
                            "headers": {"ETag": {"schema": {"type": "string"}}},
                        },
                        "304": {"description": "unchanged since the given ETag"},
                        "400": _err("model missing"),
                    },
                }
            },
            "/v1/suspensions": {
                "get": {
                    "summary": "Current suspensions, observe-only ones included, with offense history",
                    "responses": {
                        "200": _json({"type": "object", "required": ["mode", "suspensions"]}, "listing")
                    },
                }
            },
            "/v1/incidents": {
                "get": {
                    "summary": "Admin incident exclusions in force",
                    "responses": {"200": _json({"type": "object", "required": ["incidents"]}, "listing")},
                }
            },
            "/v1/decisions": {
                "get": {
                    "summary": "The decision log, paged (at most 1000 per page) from the store",
                    "parameters": [
                        {
                            "name": "since",
                            "in": "query",
                            "required": False,
                            "description": "a decision seq (exclusive) or an RFC 3339 time (inclusive)",
                            "schema": {"type": "string"},
                        },
                        {
                            "name": "limit",
                            "in": "query",
                            "required": False,
                            "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
                        },
                    ],
                    "security": [{}, {"readToken": []}],
                    "responses": {
                        "200": _json(_DECISIONS_OUT, "decisions, oldest first"),
                        "400": _err("bad query"),
                        "401": _err("receiver.read_token is set and the bearer token is missing or wrong"),
                    },
                }
            },
            "/v1/admin/lift": {
                "post": {
                    "summary": "Lift a current suspension; its alert episode can never re-suspend",
                    "security": _ADMIN_SEC,
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": _admin_body(("model", "provider", "reason"), until=True)
                            }
                        },
                    },
                    "responses": {
                        "200": _json(_DECISIONS_OUT, "lifted"),
                        "400": _err("invalid body"),
                        "401": _err("missing or wrong admin token"),
                        "404": _err("no such suspension"),
                        "413": _err("body too large"),
                        "415": _err("Content-Type is not application/json"),
                        "503": _err("not durable; retry"),
                    },
                }
            },
            "/v1/admin/incidents": {
                "post": {
                    "summary": "Add an incident exclusion, optionally until a time",
                    "security": _ADMIN_SEC,
                    "requestBody": {
                        "required": True,
                        "content": {
                            "application/json": {
                                "schema": _admin_body(("model", "provider", "reason"), until=True, force=True)
                            }
                        },
                    },
                    "responses": {
                        "201": _json({"type": "object", "required": ["id", "decisions"]}, "added"),
                        "400": _err("invalid body or until not in the future"),
                        "401": _err("missing or wrong admin token"),
                        "409": _err("it would break the capacity floor (send force: true)"),
                        "413": _err("body too large"),
                        "415": _err("Content-Type is not application/json"),
                        "503": _err("not durable; retry"),
                    },
                }
            },
            "/v1/admin/incidents/{incident_id}": {
                "delete": {
                    "summary": "Remove an incident exclusion",
                    "security": _ADMIN_SEC,
                    "parameters": [
                        {"name": "incident_id", "in": "path", "required": True, "schema": {"type": "string"}},
                        {"name": "reason", "in": "query", "required": False, "schema": {"type": "string"}},
                    ],
                    "responses": {
                        "200": _json(_DECISIONS_OUT, "removed"),
                        "401": _err("missing or wrong admin token"),
                        "404": _err("no such incident"),
                        "503": _err("not durable; retry"),
                    },
                }
            },
            "/healthz": {
                "get": {
                    "responses": {
                        "200": _json({"type": "object", "required": ["status"]}, "alive"),
                        "503": _json({"type": "object", "required": ["status"]}, "store found damaged"),
                    }
                }
            },
            "/metrics": {
                "get": {
                    "responses": {"200": {"description": "Prometheus text", "content": {"text/plain": {}}}}
                }
            },
            "/openapi.json": {"get": {"responses": {"200": _json({"type": "object"}, "this document")}}},
        },
    }


def _admin_body(required: tuple[str, ...], *, until: bool = False, force: bool = False) -> dict[str, Any]:
    props: dict[str, Any] = {
        k: {"type": "string", "minLength": 1, "maxLength": 4096, "pattern": r"\S"} for k in required
    }
    if until:
        props["until"] = _NULLABLE_TIME
    if force:
        props["force"] = {"type": "boolean", "description": "exclude even if the capacity floor breaks"}
    return {"type": "object", "required": list(required), "additionalProperties": False, "properties": props}
