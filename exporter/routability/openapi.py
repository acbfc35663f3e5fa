"""The routability service's OpenAPI 3.1 document, every schema generated from the ``bodies`` models."""

from __future__ import annotations

from exporter.routability import bodies
from exporter.web.openapi import IF_NONE_MATCH, Operation, Responses, document, query

_TRIGGER: Responses = {
    200: (bodies.PassDone, "wait=true: the pass ran; its counts and the models per status after it"),
    202: (bodies.PassStarted, "started in the background (started false: one was already running)"),
    400: (bodies.Problem, "wait is not true or false"),
    401: (bodies.Problem, "missing or wrong bearer token"),
    403: (bodies.Problem, "the trigger is disabled (no routability.trigger_token)"),
}
_WAIT = query("wait", {"enum": sorted(bodies.WAIT_VALUES)}, description="run the pass now")
_SUMMARY = "Run a pass (aggregate counts only); GET too, for cron services"
_OPERATIONS: list[Operation] = [
    ("/v1/routability/run", method, _SUMMARY, "triggerToken", None, [_WAIT], _TRIGGER)
    for method in ("post", "get")
] + [
    ("/v1/routability", "get", "Every row with status and age (ETag / If-None-Match: 304)", None, None,
     [IF_NONE_MATCH],
     {200: (bodies.Rows, "the rows, sorted by slug"), 304: (None, "unchanged since the given ETag")}),
    ("/v1/routability/{slug}", "get", "One model's row", None, None,
     [{"name": "slug", "in": "path", "required": True, "schema": {"type": "string"}}],
     {200: (bodies.Row, "the row"), 404: (bodies.Problem, "no row for this model")}),
]  # fmt: skip


def openapi_document() -> dict[str, object]:
    """The document served at ``GET /openapi.json``."""
    return document(
        "Provider Canary routability",
        "Catalogue-wide model routability: a protected trigger and a read API for routers.",
        _OPERATIONS,
        {"triggerToken": "routability.trigger_token"},
    )
