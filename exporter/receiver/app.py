"""The receiver's HTTP API (Starlette): webhook, ignore list, listings, admin actions, health, metrics.

A thin shell over ``ReceiverService``: it authenticates, reads bodies within the size limit *while*
reading, validates, and maps results to status codes. Bad input is a 4xx JSON error
``{"error": code, "message": text, "problems": ["path: what is wrong"]}``; 5xx only when the store
could not make a decision durable (Alertmanager then retries). See docs/receiver.md for the API.

Example::

    with ReceiverService(config) as service:
        uvicorn.run(build_app(service), host=config.host, port=config.port)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator, Callable
from typing import TypeVarTuple

import anyio.to_thread
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import JsonValue
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from exporter.receiver import bodies
from exporter.receiver.codec import decision_to_json
from exporter.receiver.decide import Refused
from exporter.receiver.metrics import render
from exporter.receiver.openapi import openapi_document
from exporter.receiver.payloads import MAX_LABEL_CHARS, PayloadError, parse_notification
from exporter.receiver.service import DECISIONS_PAGE, SUSPENSIONS_PAGE, ReceiverService, route_from_cursor
from exporter.receiver.state import Decision
from exporter.receiver.store import StoreWriteError
from exporter.receiver.tags import canonical_tag
from exporter.textkit import control_problem
from exporter.timestamps import parse_rfc3339
from exporter.web.auth import bearer_ok, token_bytes
from exporter.web.body import Rejected, read_json, uint
from exporter.web.etag import etag_matches
from exporter.web.models import ErrorBody, send, validated

log = logging.getLogger("canary.receiver")
ADMIN_MAX_BODY = 64 * 1024
MAX_INCIDENT_ID_CHARS = 64
Args = TypeVarTuple("Args")


class _Api:
    """The handlers of the API, grouped by job; ``build_app`` wires them to routes."""

    def __init__(self, service: ReceiverService, sweep_interval: float) -> None:
        self.service, self.config, self.sweep_interval = service, service.config, sweep_interval
        self.webhook_token = token_bytes(self.config.webhook_token.value)
        self.admin_token = token_bytes(self.config.admin_token.value)
        self.read_token = (
            None if self.config.read_token is None else token_bytes(self.config.read_token.value)
        )
        self.spec = json.dumps(openapi_document()).encode()

    # -- ingestion -------------------------------------------------------------------------------------

    async def webhook(self, request: Request) -> Response:
        try:
            _authorize(request, self.webhook_token)
            parsed = parse_notification(await read_json(request, self.config.max_body_bytes))
            if isinstance(parsed, PayloadError):
                code = "too_large" if parsed.status == 413 else "bad_request"
                raise Rejected(parsed.status, code, "the webhook payload is invalid", list(parsed.problems))
        except Rejected as reject:  # counted by result, as canary_receiver_webhook_requests_total shows it
            self.service.count_webhook(
                {401: "unauthorized", 413: "too_large"}.get(reject.status, "bad_request")
            )
            raise
        try:
            decisions = await anyio.to_thread.run_sync(self.service.notify, parsed)
        except StoreWriteError as exc:
            log.error("webhook not acknowledged: %s", exc)
            self.service.count_webhook("error")
            raise Rejected(503, "store_unavailable", str(exc)) from None
        self.service.count_webhook("ok")
        return send(bodies.WebhookReply(decisions=[_brief(d) for d in decisions]))

    # -- reads (no token; the decision log may need read_token) ---------------------------------------
    async def ignore(self, request: Request) -> Response:
        model = request.query_params.get("model", "")
        if not model.strip():
            raise Rejected(400, "bad_request", "query parameter model is required, e.g. ?model=vendor/model")
        if len(model) > MAX_LABEL_CHARS:
            too_long = f"model: at most {MAX_LABEL_CHARS} characters, got {len(model)}"
            raise Rejected(400, "bad_request", "invalid query", [too_long])
        if (problem := control_problem(model)) is not None:
            raise Rejected(400, "bad_request", "invalid query", [f"model: {problem}"])
        view = self.service.ignore(canonical_tag(model))
        headers = {"ETag": view.etag, "Cache-Control": "no-cache"}
        if etag_matches(request.headers.get("if-none-match"), view.etag):
            return Response(status_code=304, headers=headers)
        return Response(view.body, media_type="application/json", headers=headers)

    async def suspensions(self, request: Request) -> Response:
        limit = _limit(request, SUSPENSIONS_PAGE, SUSPENSIONS_PAGE)
        cursor = request.query_params.get("after") or None
        after = route_from_cursor(cursor) if cursor is not None else None
        if cursor is not None and after is None:
            problem = "after: expected the next_after of an earlier page"
            raise Rejected(400, "bad_request", "invalid query", [problem])
        return send(self.service.suspensions(after, limit))

    async def incidents(self, request: Request) -> Response:
        return send(self.service.incidents())

    async def decisions(self, request: Request) -> Response:
        if self.read_token is not None:
            _authorize(request, self.read_token)
        since_seq, since_time, limit = _decision_query(request)
        return send(self.service.decisions(since_seq=since_seq, since_time=since_time, limit=limit))

    # -- admin (admin token) --------------------------------------------------------------------------
    async def admin_lift(self, request: Request) -> Response:
        _authorize(request, self.admin_token)
        lift = validated(bodies.LiftBody, await read_json(request, ADMIN_MAX_BODY), "invalid request body")
        result = await _admin(self.service.lift, lift.model, lift.provider, lift.reason, lift.until)
        return send(bodies.Decisions(decisions=result))

    async def admin_add_incident(self, request: Request) -> Response:
        _authorize(request, self.admin_token)
        new = validated(bodies.IncidentBody, await read_json(request, ADMIN_MAX_BODY), "invalid request body")
        result = await _admin(
            self.service.add_incident, new.model, new.provider, new.reason, new.until, new.force
        )
        incident_id = next(d["incident_id"] for d in result if d["kind"] == "incident_add")
        return send(bodies.IncidentAdded(id=str(incident_id), decisions=result), status_code=201)

    async def admin_remove_incident(self, request: Request) -> Response:
        _authorize(request, self.admin_token)
        incident_id = request.path_params["incident_id"]
        if len(incident_id) > MAX_INCIDENT_ID_CHARS or control_problem(incident_id) is not None:
            message = f"no incident with that id (ids are inc-N, at most {MAX_INCIDENT_ID_CHARS} characters)"
            raise Rejected(404, "not_found", message)
        reason = request.query_params.get("reason", "")  # optional here
        if len(reason) > bodies.MAX_FIELD_CHARS:
            too_long = f"reason: {len(reason)} characters, longer than {bodies.MAX_FIELD_CHARS} characters"
            raise Rejected(400, "bad_request", "invalid query", [too_long])
        if (problem := control_problem(reason)) is not None:
            raise Rejected(400, "bad_request", "invalid query", [f"reason: {problem}"])
        reason = reason.strip()
        result = await _admin(self.service.remove_incident, incident_id, reason)
        return send(bodies.Decisions(decisions=result))

    # -- operations -----------------------------------------------------------------------------------
    async def healthz(self, request: Request) -> Response:
        service = self.service
        mode, seq = service.policy.mode, service.state.seq
        if (problem := service.health_problem()) is not None:
            status, message = problem
            unhealthy = bodies.Health(status=status, mode=mode, seq=seq, message=message)
            return send(unhealthy, status_code=503)
        return send(bodies.Health(status="ok", mode=mode, seq=seq), exclude_none=True)

    async def metrics(self, request: Request) -> Response:
        return Response(render(self.service.metrics_snapshot), media_type=CONTENT_TYPE_LATEST)

    async def openapi(self, request: Request) -> Response:
        return Response(self.spec, media_type="application/json")

    @contextlib.asynccontextmanager
    async def lifespan(self, app: Starlette) -> AsyncIterator[None]:
        sweeper = asyncio.create_task(_sweep_forever(self.service, self.sweep_interval))
        try:
            yield
        finally:
            sweeper.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await sweeper

    async def refused(self, request: Request, exc: Exception) -> Response:
        """Every refusal as JSON: a handler's ``Rejected`` (4xx/503) or Starlette's own (404, 405)."""
        if isinstance(exc, Rejected):
            challenge = {"WWW-Authenticate": 'Bearer realm="canary-receiver"'} if exc.status == 401 else None
            return JSONResponse(exc.body(), status_code=exc.status, headers=challenge)
        assert isinstance(exc, HTTPException)
        body = ErrorBody(error="http_error", message=exc.detail)
        return send(body, exc.status_code, headers=exc.headers)  # a 405 keeps its Allow header


def build_app(service: ReceiverService, *, sweep_interval: float = 1.0) -> Starlette:
    """The ASGI app over an open service (the caller closes it); its lifespan runs the expiry sweep.

    Example::

        with ReceiverService(config, clock=fake_clock) as service:
            app = build_app(service)   # in-process tests: TestClient(app)
    """
    api = _Api(service, sweep_interval)
    routes = [
        Route("/v1/alerts", api.webhook, methods=["POST"]),
        Route("/v1/ignore", api.ignore, methods=["GET"]),
        Route("/v1/suspensions", api.suspensions, methods=["GET"]),
        Route("/v1/incidents", api.incidents, methods=["GET"]),
        Route("/v1/decisions", api.decisions, methods=["GET"]),
        Route("/v1/admin/lift", api.admin_lift, methods=["POST"]),
        Route("/v1/admin/incidents", api.admin_add_incident, methods=["POST"]),
        Route("/v1/admin/incidents/{incident_id}", api.admin_remove_incident, methods=["DELETE"]),
        Route("/healthz", api.healthz, methods=["GET"]),
        Route("/metrics", api.metrics, methods=["GET"]),
        Route("/openapi.json", api.openapi, methods=["GET"]),
    ]
    handlers = {HTTPException: api.refused, Rejected: api.refused}
    return Starlette(routes=routes, lifespan=api.lifespan, exception_handlers=handlers)


async def _sweep_forever(service: ReceiverService, interval: float) -> None:
    while True:
        await asyncio.sleep(interval)
        try:
            await anyio.to_thread.run_sync(service.sweep)
        except StoreWriteError as exc:
            log.error("expiry not recorded, will retry: %s", exc)
        except Exception:
            log.exception("expiry sweep failed, will retry")


async def _admin(
    call: Callable[[*Args], tuple[Decision, ...] | Refused], *args: *Args
) -> list[dict[str, JsonValue]]:
    """The decision-log entries of an admin action run in a worker thread, or its refusal."""
    try:
        result = await anyio.to_thread.run_sync(call, *args)
    except StoreWriteError as exc:
        raise Rejected(503, "store_unavailable", str(exc)) from None
    if isinstance(result, Refused):
        code = {404: "not_found", 409: "conflict"}.get(result.status, "bad_request")
        raise Rejected(result.status, code, result.message)
    return [decision_to_json(d) for d in result]


def _authorize(request: Request, token: bytes) -> None:
    if not bearer_ok(request.headers.get("authorization"), token):
        header = request.headers.get("authorization", "")
        what = (
            "wrong bearer token"
            if header.lower().startswith("bearer ") and header[7:].strip()
            else ("missing Authorization: Bearer <token> header")
        )
        raise Rejected(401, "unauthorized", what)


def _limit(request: Request, default: int, most: int) -> int:
    """The ``limit`` query parameter: 1 to ``most``, ``default`` when absent."""
    raw = request.query_params.get("limit", str(default))
    if (limit := uint(raw)) is None or not 1 <= limit <= most:
        raise Rejected(400, "bad_request", "invalid query", [f"limit: expected 1..{most}, got {raw!r}"])
    return limit


def _decision_query(request: Request) -> tuple[int | None, float | None, int]:
    limit = _limit(request, 100, DECISIONS_PAGE)
    since = request.query_params.get("since")
    if since is None or since == "":
        return None, None, limit
    if (seq := uint(since)) is not None:
        return seq, None, limit
    try:
        return None, parse_rfc3339(since), limit
    except ValueError as exc:
        problem = f"since: expected a decision seq or an RFC 3339 time ({exc}), got {since!r}"
        raise Rejected(400, "bad_request", "invalid query", [problem]) from None


def _brief(d: Decision) -> bodies.DecisionBrief:
    seq = d.seq if d.journaled else None  # None: a repeat, counted but not journaled
    return bodies.DecisionBrief(seq=seq, kind=d.kind, model=d.model, provider=d.provider, reason=d.reason)
