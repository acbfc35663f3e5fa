"""The simulator's HTTP shell: a Starlette app that speaks OpenRouter's wire format over a fleet.

``Simulator`` is the HTTP shell, in three parts: discovery (models, endpoints, providers, generation
records), chat (validate, route, plan, then hand the decided ``Call`` to a writer) and the ``/_sim``
control API. The run-time state (counters, patched profiles, outage switch, request log, generation
records) is ``state.FleetState``; decisions come from the pure modules (``routing``, ``profiles``,
``replies``, ``wire``); responses that take time are written by ``writing`` to absolute deadlines.

Routes (``/api/v1`` is the gateway; ``/_sim`` is for tests and the demo, behind ``control_token``)::

    GET  /api/v1/models                          GET  /api/v1/models/{author}/{slug}/endpoints
    GET  /api/v1/providers                       POST /api/v1/chat/completions
    GET  /api/v1/generation?id=gen-...
    GET  /_sim/requests[?model=..]               POST /_sim/providers/{author}/{slug}/{tag}[?replace=true]
    POST /_sim/outage {"on": true}               GET  /_sim/fleet

Example::

    app = Simulator(load_fleet(DEFAULT_FLEET)).app    # any ASGI server, or SimulatorServer
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import asdict

from pydantic import JsonValue
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from exporter.configkit import ConfigError, Secret
from exporter.contracts import CONTRACTS
from exporter.contracts.base import Contract
from exporter.devtools.simulator import wire
from exporter.devtools.simulator.fleet import Fleet, Model, Provider
from exporter.devtools.simulator.replies import compose, thinking, with_logprobs
from exporter.devtools.simulator.routing import Preferences, max_tokens_of, parse_preferences, resolve
from exporter.devtools.simulator.state import MAX_GENERATIONS, FleetState, RequestRecord, plain
from exporter.devtools.simulator.writing import (
    Attempt,
    Call,
    Timed,
    generation_record,
    hang,
    write_completion,
    write_stream,
)
from exporter.web.auth import bearer_ok, token_bytes
from exporter.web.body import Rejected, decode_json, read_bounded

MAX_BODY_BYTES = 1 << 20
MAX_TOP_LOGPROBS = 20  # as OpenAI's API allows
Handler = Callable[[Request], Awaitable[Response]]


def _answer(envelope: wire.ErrorEnvelope, headers: Mapping[str, str] | None = None) -> JSONResponse:
    """An error envelope (``wire``) sent with its own ``error.code`` as the HTTP status."""
    return JSONResponse(envelope, status_code=envelope["error"]["code"], headers=headers)


def _refuse(status: int, message: str) -> JSONResponse:
    return _answer(wire.plain_error(status, message))


def _wants_metadata(request: Request) -> bool:
    """``X-OpenRouter-Metadata: enabled`` (or the legacy experimental header), matched case-insensitively."""
    names = ("x-openrouter-metadata", "x-openrouter-experimental-metadata")
    return any(request.headers.get(name, "").strip().lower() == "enabled" for name in names)


def _bearer(request: Request) -> str:
    """The bearer token of a request ("" when there is none)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


class Simulator:
    """A running simulated gateway over one fleet; ``app`` is its ASGI application."""

    def __init__(
        self,
        fleet: Fleet,
        *,
        clock: Callable[[], float] = time.time,
        max_generations: int = MAX_GENERATIONS,
        contracts: Sequence[type[Contract]] = CONTRACTS,
    ) -> None:
        """``clock`` stamps generation records and their 404 window; ``max_generations`` bounds them
        (the newest are kept); ``contracts`` answer their own probes as a healthy host would
        (``Contract.healthy_reply``)."""
        self.state = FleetState(fleet, clock, max_generations, contracts)
        self.fleet = fleet
        gateway, control = self._gateway, self._control
        self.app = Starlette(
            routes=[
                Route("/api/v1/models", gateway(self.list_models), methods=["GET"]),
                Route(
                    "/api/v1/models/{author}/{slug}/endpoints", gateway(self.list_endpoints), methods=["GET"]
                ),
                Route("/api/v1/providers", gateway(self.list_providers), methods=["GET"]),
                Route("/api/v1/chat/completions", gateway(self.chat), methods=["POST"]),
                Route("/api/v1/generation", gateway(self.generation), methods=["GET"]),
                Route("/_sim/requests", control(self.sim_requests), methods=["GET"]),
                Route(
                    "/_sim/providers/{author}/{slug}/{tag:path}",
                    control(self.sim_patch_provider),
                    methods=["POST"],
                ),
                Route("/_sim/outage", control(self.sim_outage), methods=["POST"]),
                Route("/_sim/fleet", control(self.sim_fleet), methods=["GET"]),
            ]
        )

    def _authorized(self, request: Request, secret: Secret | None) -> bool:
        """Whether the request's bearer token is ``secret`` (a fleet without that secret accepts any)."""
        return secret is None or bearer_ok(request.headers.get("authorization"), token_bytes(secret.value))

    def _key_refusal(self, request: Request) -> JSONResponse | None:
        """The gateway's 401 when the request's key would not be accepted, else None.

        Like OpenRouter: no bearer key at all is refused (unless the fleet says ``require_key: false``) with
        the OpenAPI spec's example message; a fleet ``api_key`` accepts only that key ("User not found." for
        any other).
        """
        if not _bearer(request):
            return _refuse(401, "Missing Authentication header") if self.fleet.require_key else None
        return None if self._authorized(request, self.fleet.api_key) else _refuse(401, "User not found.")

    def _gateway(self, handler: Handler) -> Handler:
        """A gateway route: while the outage switch is on, the gateway itself fails (502/503 in turn)."""

        async def route(request: Request) -> Response:
            if not self.state.outage:
                return await handler(request)
            return _answer(*wire.outage_error(self.state.next_outage_status()))

        return route

    def _control(self, handler: Handler) -> Handler:
        """A ``/_sim`` route: only with the fleet's ``control_token`` (when it has one)."""

        async def route(request: Request) -> Response:
            if self._authorized(request, self.fleet.control_token):
                return await handler(request)
            return _refuse(401, "A valid control token is required")

        return route

    # -- discovery ---------------------------------------------------------------------------------------
    async def list_models(self, request: Request) -> Response:
        wanted = {p for p in request.query_params.get("supported_parameters", "").split(",") if p}
        data = []
        for model in self.state.models.values():  # removed catalogue models stay listed: a stale catalogue
            listed = self.state.listed(model) if model.removal is None else []
            if wanted and not any(wanted <= set(p.supported_parameters) for p in listed):
                continue
            data.append(wire.model_entry(model, listed or list(model.providers)))
        return JSONResponse({"data": data})

    async def list_endpoints(self, request: Request) -> Response:
        model = self.state.models.get(f"{request.path_params['author']}/{request.path_params['slug']}")
        if model is None or model.removal == "model_not_found":
            return _refuse(404, "Resource not found")
        has_auth = bool(_bearer(request)) and self._authorized(request, self.fleet.api_key)
        listed = [] if model.removal is not None else self.state.listed(model)
        return JSONResponse(wire.endpoints_listing(model, listed, authenticated=has_auth))

    async def list_providers(self, request: Request) -> Response:
        seen: dict[str, str] = {}
        for model in self.state.models.values():
            for provider in model.providers:
                seen.setdefault(provider.base_slug, provider.display_name)
        return JSONResponse(
            {"data": [wire.provider_entry(slug, name) for slug, name in sorted(seen.items())]}
        )

    async def generation(self, request: Request) -> Response:
        if (refused := self._key_refusal(request)) is not None:
            return refused
        gen_id = request.query_params.get("id")
        if not gen_id:
            return _refuse(400, "Missing id query parameter")
        data = self.state.generation(gen_id)
        if data is None:
            return _refuse(404, f"Generation {gen_id} not found")
        return JSONResponse({"data": data})

    # -- chat --------------------------------------------------------------------------------------------
    async def chat(self, request: Request) -> Response:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        arrived = self.state.clock()
        if (refused := self._key_refusal(request)) is not None:
            return refused
        try:
            body = decode_json(await read_bounded(request, MAX_BODY_BYTES))
        except Rejected as rejected:  # too large (413, as OpenRouter), not JSON, or a hang-up mid-body
            return _refuse(rejected.status, rejected.message)
        issues = request_issues(body)
        prefs = parse_preferences(body.get("provider")) if isinstance(body, dict) else Preferences()
        if isinstance(prefs, list):
            issues += prefs
        if issues or not isinstance(prefs, Preferences):
            return _answer(wire.invalid_request(issues))
        assert isinstance(body, dict)  # request_issues refuses anything else
        stream = bool(body.get("stream"))
        model_id = str(body["model"])
        model = self.state.models.get(model_id)

        record = RequestRecord(arrived, model_id, prefs.pin, None, None, stream, t0)

        def finish(status: int | None, served: Provider | None) -> None:
            record.status = status
            record.provider = served.tag if served is not None else None
            self.state.requests.append(record)

        unroutable = _unroutable(model, model_id)
        if unroutable is not None:
            finish(unroutable["error"]["code"], None)
            return _answer(unroutable)
        assert model is not None
        # A pinned request resolves among the endpoints its pin selects (an index lookup); only when the pin
        # selects none is the whole listing needed, for the gateway's error naming what is available.
        pinned = self.state.listed_among(model, prefs.only) if prefs.only is not None else []
        candidates = resolve(model, pinned or self.state.listed(model), prefs, body, self.state.rng)
        if isinstance(candidates, dict):  # the gateway's own error envelope: no provider was asked
            finish(candidates["error"]["code"], None)
            return _answer(candidates)

        attempts: list[Attempt] = []
        for provider in candidates:
            understood, plan, rng = self.state.plan(model, provider, body)
            if plan.error_status is None or len(attempts) + 1 == len(candidates):
                break
            attempts.append(Attempt(provider, plan.error_status, round(plan.ttft * 1000)))  # fall back
        profile = provider.profile
        if plan.timeout:
            finish(None, provider)
            return Timed(hang(t0, provider, stream, model_id, int(self.state.clock())))
        if plan.error_status is not None:
            finish(plan.error_status, provider)
            return _answer(*wire.upstream_error(plan.error_status, provider, model.id))
        if plan.refusal == "error":
            finish(400, provider)
            return _answer(wire.refusal_error(provider))
        finish(200, provider)
        thought = thinking(profile.reasoning, body, understood.locale)
        reply = compose(
            understood, plan, self.state.texts, rng, max_tokens_of(body), thought, style=profile.style
        )
        if body.get("logprobs") is True:
            count = top if isinstance(top := body.get("top_logprobs"), int) else 0  # checked: 0..20
            reply = with_logprobs(reply, understood, self.state.texts, profile.style, count, rng)
        gen_id = wire.generation_id(int(arrived), self.state.rng)
        metadata = _wants_metadata(request)
        call = Call(gen_id, model, provider, understood, plan, reply, rng, tuple(attempts), record, metadata)
        if stream:
            return Timed(lambda w: write_stream(w, call, self._served))
        return Timed(lambda w: write_completion(w, call, self._served))

    def _served(self, call: Call, streamed: bool, usage: Mapping[str, object]) -> None:
        self.state.remember_generation(
            call.gen_id, generation_record(call, self.state.clock(), streamed, usage)
        )

    # -- control -----------------------------------------------------------------------------------------
    async def sim_requests(self, request: Request) -> Response:
        model = request.query_params.get("model")
        return JSONResponse([asdict(r) for r in self.state.requests if model is None or r.model == model])

    async def sim_outage(self, request: Request) -> Response:
        body = await _json_object(request)
        if body is None or not isinstance(on := body.get("on"), bool):
            return _refuse(400, 'Expected a JSON body {"on": true|false}')
        self.state.outage = on
        return JSONResponse({"outage": self.state.outage})

    async def sim_patch_provider(self, request: Request) -> Response:
        model_id = f"{request.path_params['author']}/{request.path_params['slug']}"
        tag = request.path_params["tag"]
        if (model_id, tag) not in self.state.providers:
            return _refuse(404, f"No provider {tag} for model {model_id}")
        body = await _json_object(request)
        if body is None:
            return _refuse(400, "Expected a JSON object of profile knobs")
        replace_all = request.query_params.get("replace", "").lower() in ("1", "true", "yes")
        try:
            profile = self.state.patch(model_id, tag, body, replace_all=replace_all)
        except ConfigError as exc:
            error = wire.plain_error(400, "Invalid profile patch")
            error["error"]["problems"] = exc.problems
            return _answer(error)
        return JSONResponse({"model": model_id, "tag": tag, "profile": plain(profile)})

    async def sim_fleet(self, request: Request) -> Response:
        return JSONResponse(self.state.summary())


def _unroutable(model: Model | None, model_id: str) -> wire.ErrorEnvelope | None:
    """The gateway's error for a model it cannot route at all (unknown, not chat, removed), else None."""
    if model is None or model.removal == "model_not_found":
        return wire.unavailable("model_not_found", model_id)
    if not model.chat:
        return wire.unavailable("wrong_endpoint", model_id)
    return None if model.removal is None else wire.unavailable(model.removal, model_id)


def request_issues(body: object) -> list[dict[str, object]]:
    """Validation issues of a chat request body (zod-style, like the gateway's 400 message)."""
    if not isinstance(body, dict):
        return [{"code": "invalid_type", "path": [], "message": "Expected object"}]
    issues: list[dict[str, object]] = []
    if not isinstance(body.get("model"), str) or not body["model"].strip():
        issues.append({"code": "invalid_type", "path": ["model"], "message": "Required: a model id string"})
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
        issues.append({"code": "invalid_type", "path": ["messages"], "message": "Expected a non-empty array"})
    for key in ("max_tokens", "max_completion_tokens"):
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            issues.append({"code": "invalid_type", "path": [key], "message": "Expected a positive integer"})
    for key in ("stream", "logprobs"):
        if key in body and not isinstance(body[key], bool):
            issues.append({"code": "invalid_type", "path": [key], "message": "Expected boolean"})
    top = body.get("top_logprobs")
    if top is not None and (
        isinstance(top, bool) or not isinstance(top, int) or not 0 <= top <= MAX_TOP_LOGPROBS
    ):
        issues.append({"code": "invalid_type", "path": ["top_logprobs"],
                       "message": f"Expected an integer from 0 to {MAX_TOP_LOGPROBS}"})  # fmt: skip
    elif top is not None and body.get("logprobs") is not True:
        issues.append({"code": "custom", "path": ["top_logprobs"], "message": "Requires logprobs: true"})
    return issues


async def _json_object(request: Request) -> dict[str, JsonValue] | None:
    """A control request's JSON object (any content type: the documented ``curl -d`` sends a form type), or
    None when it is too large, not JSON or not an object."""
    try:
        value = decode_json(await read_bounded(request, MAX_BODY_BYTES) or b"{}")
    except Rejected:
        return None
    return value if isinstance(value, dict) else None
