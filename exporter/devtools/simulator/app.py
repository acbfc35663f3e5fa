"""The simulator's HTTP shell: a Starlette app that speaks OpenRouter's wire format over a fleet.

``Simulator`` owns the run-time state (per-provider counters, patched profiles, the outage switch, the
request log and generation records); decisions come from the pure modules (``routing``, ``profiles``,
``replies``, ``wire``). Responses that take time are written by ``_Timed``, a raw ASGI response that
sleeps to absolute deadlines on the event loop clock, so the first content delta of a stream leaves
exactly ``ttft`` after the request arrived.

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
import hmac
import json
import random
import re
import time
from collections import OrderedDict, defaultdict, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, fields, is_dataclass, replace
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route
from starlette.types import Message, Receive, Scope, Send

from exporter.configkit import ConfigError
from exporter.devtools.simulator import wire
from exporter.devtools.simulator.catalogue import expand
from exporter.devtools.simulator.fleet import FaultProfile, Fleet, Model, Provider, patch_profile
from exporter.devtools.simulator.locales import Recogniser, Texts
from exporter.devtools.simulator.profiles import FAULTS, Plan, phase, plan_request, request_rng
from exporter.devtools.simulator.replies import Reply, Understood, compose, thinking, understand
from exporter.devtools.simulator.routing import (
    NoRoute,
    Preferences,
    max_tokens_of,
    parse_preferences,
    resolve,
)

MAX_BODY_BYTES = 1 << 20
MAX_REQUEST_LOG = 100_000
MAX_GENERATIONS = 10_000
_PIECE = re.compile(r"\s*\S+")
_PIECE_CHARS = 20
_DENSE_RUN = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]{2,}")


# The last stretch before a deadline is spent yielding to the loop instead of in epoll (see sleep_until).
_SPIN_SECONDS = 0.0015


def _wants_metadata(request: Request) -> bool:
    """``X-OpenRouter-Metadata: enabled`` (or the legacy experimental header), matched case-insensitively."""
    for name in ("x-openrouter-metadata", "x-openrouter-experimental-metadata"):
        if request.headers.get(name, "").strip().lower() == "enabled":
            return True
    return False


def _bearer(request: Request) -> str:
    """The bearer token of a request ("" when there is none)."""
    scheme, _, token = request.headers.get("authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" else ""


@dataclass(slots=True)
class RequestRecord:
    """One chat request as it arrived: for tests of pacing and pinning (``GET /_sim/requests``).

    ``t_loop`` and ``first_token_loop`` are CLOCK_MONOTONIC seconds (the event loop's clock), which every
    process on the host shares: a client can compare them with its own ``time.monotonic()`` stamps, and
    ``first_token_loop - t_loop`` is the time to first token the simulator really applied.
    """

    t: float  # arrival, seconds since the epoch (the simulator's clock)
    model: str
    pin: str | None  # provider.only[0], else provider.order[0]
    status: int | None  # HTTP status sent (None: the request was left hanging)
    provider: str | None  # the tag that served (or failed) it, None when routing failed
    stream: bool
    t_loop: float = 0.0  # arrival on the event-loop clock
    first_token_loop: float | None = None  # first content delta handed to the socket (streams only)

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(slots=True)
class _Generation:
    data: dict[str, Any]
    available_at: float


@dataclass(frozen=True, slots=True)
class _Attempt:
    provider: Provider
    status: int
    latency_ms: int


class Simulator:
    """A running simulated gateway over one fleet; ``app`` is its ASGI application."""

    def __init__(
        self,
        fleet: Fleet,
        *,
        texts: Texts | None = None,
        clock: Callable[[], float] = time.time,
        max_generations: int = MAX_GENERATIONS,
    ) -> None:
        if max_generations < 1:
            raise ValueError(f"max_generations must be at least 1, got {max_generations}")
        self.fleet = fleet
        self.max_generations = max_generations  # generation records kept (the newest), as memory bound
        self.texts = texts if texts is not None else Texts.load()
        self.recognise = Recogniser(self.texts)
        self.clock = clock
        catalogue = expand(fleet.catalogue) if fleet.catalogue is not None else ()
        self.models: dict[str, Model] = {m.id: m for m in (*fleet.models, *catalogue)}
        self.profiles: dict[tuple[str, str], FaultProfile] = {
            (m.id, p.tag): p.profile for m in self.models.values() for p in m.providers
        }
        self._providers: dict[tuple[str, str], Provider] = {
            (m.id, p.tag): p for m in self.models.values() for p in m.providers
        }
        self.outage = fleet.outage
        self._counters: dict[tuple[str, str, str], int] = defaultdict(int)
        self._numbers: dict[tuple[str, str], int] = defaultdict(int)
        self._requests: deque[RequestRecord] = deque(maxlen=MAX_REQUEST_LOG)
        self._generations: OrderedDict[str, _Generation] = OrderedDict()
        self._rng = random.Random(fleet.seed)  # noqa: S311 - routing and ids, not security
        self._outages = 0
        self.app = Starlette(
            routes=[
                Route("/api/v1/models", self.list_models, methods=["GET"]),
                Route("/api/v1/models/{author}/{slug}/endpoints", self.list_endpoints, methods=["GET"]),
                Route("/api/v1/providers", self.list_providers, methods=["GET"]),
                Route("/api/v1/chat/completions", self.chat, methods=["POST"]),
                Route("/api/v1/generation", self.generation, methods=["GET"]),
                Route("/_sim/requests", self.sim_requests, methods=["GET"]),
                Route(
                    "/_sim/providers/{author}/{slug}/{tag:path}", self.sim_patch_provider, methods=["POST"]
                ),
                Route("/_sim/outage", self.sim_outage, methods=["POST"]),
                Route("/_sim/fleet", self.sim_fleet, methods=["GET"]),
            ]
        )

    # -- state -------------------------------------------------------------------------------------------
    def provider(self, model: Model, tag: str) -> Provider:
        """The provider with its current (possibly patched) profile."""
        return self._providers[(model.id, tag)]

    def listed(self, model: Model) -> list[Provider]:
        """Endpoints currently in the listing: not hidden and not vanished after ``after_requests``."""
        out = []
        for base in model.providers:
            provider = self.provider(model, base.tag)
            gone = provider.profile.disappear
            served = self._numbers[(model.id, base.tag)]
            if gone.listed and (gone.after_requests is None or served < gone.after_requests):
                out.append(provider)
        return out

    @property
    def requests(self) -> list[RequestRecord]:
        return list(self._requests)

    def _authorized(self, request: Request, secret: str | None) -> bool:
        if secret is None:
            return True
        return hmac.compare_digest(_bearer(request).encode(), secret.encode())

    def _api_key(self) -> str | None:
        return self.fleet.api_key.value if self.fleet.api_key is not None else None

    def _key_refusal(self, request: Request) -> JSONResponse | None:
        """The gateway's 401 when the request's key would not be accepted, else None.

        Like OpenRouter: no bearer key at all is refused (unless the fleet says ``require_key: false``);
        a fleet ``api_key`` accepts only that key ("User not found." for any other).
        """
        key = _bearer(request)
        if not key:
            if not self.fleet.require_key:
                return None
            return JSONResponse(wire.missing_key(), status_code=401)
        if not self._authorized(request, self._api_key()):
            return JSONResponse(wire.unauthorized(), status_code=401)
        return None

    def _outage_response(self) -> JSONResponse:
        self._outages += 1
        body, headers = wire.outage_error(503 if self._outages % 2 else 502)
        return JSONResponse(body, status_code=body["error"]["code"], headers=headers)

    # -- discovery ---------------------------------------------------------------------------------------
    async def list_models(self, request: Request) -> Response:
        if self.outage:
            return self._outage_response()
        wanted = {p for p in request.query_params.get("supported_parameters", "").split(",") if p}
        data = []
        for model in self.models.values():  # removed catalogue models stay listed: a stale catalogue
            listed = self.listed(model) if model.removal is None else []
            if wanted and not any(wanted <= set(p.supported_parameters) for p in listed):
                continue
            data.append(wire.model_entry(model, listed or list(model.providers)))
        return JSONResponse({"data": data})

    async def list_endpoints(self, request: Request) -> Response:
        if self.outage:
            return self._outage_response()
        model = self.models.get(f"{request.path_params['author']}/{request.path_params['slug']}")
        if model is None or model.removal == "model_not_found":
            return JSONResponse(wire.plain_error(404, "Resource not found"), status_code=404)
        has_auth = bool(_bearer(request)) and self._authorized(request, self._api_key())
        listed = [] if model.removal is not None else self.listed(model)
        return JSONResponse(wire.endpoints_listing(model, listed, authenticated=has_auth))

    async def list_providers(self, request: Request) -> Response:
        if self.outage:
            return self._outage_response()
        seen: dict[str, str] = {}
        for model in self.models.values():
            for provider in model.providers:
                seen.setdefault(provider.base_slug, provider.display_name)
        return JSONResponse(
            {"data": [wire.provider_entry(slug, name) for slug, name in sorted(seen.items())]}
        )

    async def generation(self, request: Request) -> Response:
        if self.outage:
            return self._outage_response()
        refused = self._key_refusal(request)
        if refused is not None:
            return refused
        gen_id = request.query_params.get("id")
        if not gen_id:
            return JSONResponse(wire.plain_error(400, "Missing id query parameter"), status_code=400)
        record = self._generations.get(gen_id)
        if record is None or self.clock() < record.available_at:
            return JSONResponse(wire.plain_error(404, f"Generation {gen_id} not found"), status_code=404)
        return JSONResponse({"data": record.data})

    # -- chat --------------------------------------------------------------------------------------------
    async def chat(self, request: Request) -> Response:
        loop = asyncio.get_running_loop()
        t0 = loop.time()
        arrived = self.clock()
        if self.outage:
            return self._outage_response()
        refused = self._key_refusal(request)
        if refused is not None:
            return refused
        raw = await request.body()
        if len(raw) > MAX_BODY_BYTES:
            message = f"Request body is {len(raw)} bytes; the limit is {MAX_BODY_BYTES}"
            return JSONResponse(wire.plain_error(413, message), status_code=413)
        try:
            body = json.loads(raw)
        except ValueError:
            return JSONResponse(wire.plain_error(400, "Request body is not valid JSON"), status_code=400)
        issues = request_issues(body)
        prefs = parse_preferences(body.get("provider")) if isinstance(body, dict) else Preferences()
        if isinstance(prefs, list):
            issues += prefs
        if issues or not isinstance(prefs, Preferences):
            return JSONResponse(wire.invalid_request(issues), status_code=400)

        stream = bool(body.get("stream"))
        model_id = str(body["model"])
        model = self.models.get(model_id)

        record = RequestRecord(arrived, model_id, prefs.pin, None, None, stream, t0)

        def finish(status: int | None, served: Provider | None) -> None:
            record.status = status
            record.provider = served.tag if served is not None else None
            self._requests.append(record)

        gateway_error = self._gateway_error(model, model_id)
        if gateway_error is not None:
            finish(gateway_error.status, None)
            return JSONResponse(gateway_error.body, status_code=gateway_error.status)
        assert model is not None
        route = resolve(model, self.listed(model), prefs, body, self._rng)
        if isinstance(route, NoRoute):
            finish(route.status, None)
            return JSONResponse(route.body, status_code=route.status)

        attempts: list[_Attempt] = []
        for provider in route.candidates:
            understood, plan, rng = self._plan(model, provider, body)
            if plan.error_status is None or len(attempts) + 1 == len(route.candidates):
                break
            attempts.append(_Attempt(provider, plan.error_status, round(plan.ttft * 1000)))  # fall back
        profile = provider.profile
        if plan.timeout:
            finish(None, provider)
            return _Timed(self._hang(t0, provider, plan, stream, model_id))
        if plan.error_status is not None:
            finish(plan.error_status, provider)
            body_json, headers = wire.upstream_error(plan.error_status, provider, model.id)
            return JSONResponse(body_json, status_code=plan.error_status, headers=headers)
        if plan.refusal == "error":
            finish(400, provider)
            return JSONResponse(wire.refusal_error(provider), status_code=400)
        finish(200, provider)
        thought = thinking(profile.reasoning, body, understood.locale)
        reply = compose(understood, plan, self.texts, rng, max_tokens_of(body), thought, style=profile.style)
        call = _Call(
            gen_id=wire.generation_id(int(arrived), self._rng),
            created=int(arrived),
            model=model,
            provider=provider,
            understood=understood,
            plan=plan,
            reply=reply,
            rng=rng,
            t0=t0,
            arrived=arrived,
            attempts=tuple(attempts),
            record=record,
            metadata=_wants_metadata(request),
        )
        if stream:
            return _Timed(lambda w: self._write_stream(w, call))
        return _Timed(lambda w: self._write_completion(w, call))

    def _gateway_error(self, model: Model | None, model_id: str) -> NoRoute | None:
        if model is None or model.removal == "model_not_found":
            return NoRoute(400, wire.model_not_found(model_id))
        if not model.chat:
            return NoRoute(400, wire.wrong_endpoint(model_id))
        if model.removal == "no_endpoints":
            return NoRoute(404, wire.no_endpoints(model_id))
        if model.removal == "model_deprecated":
            return NoRoute(404, wire.model_deprecated(model_id))
        return None

    def _plan(
        self, model: Model, provider: Provider, body: Mapping[str, Any]
    ) -> tuple[Understood, Plan, random.Random]:
        """Decide one attempt's faults and advance that provider's counters (no await: atomic)."""
        key = (model.id, provider.tag)
        number = self._numbers[key]
        self._numbers[key] += 1
        rng = request_rng(self.fleet.seed, model.id, provider.tag, number, body)
        understood = understand(
            body,
            "structured_outputs" in provider.supported_parameters,
            ping=model.behaviour is not None,
            recognise=self.recognise,
        )
        indices = {fault: self._counters[(model.id, provider.tag, fault)] for fault in FAULTS}
        phases = {fault: phase(self.fleet.seed, model.id, provider.tag, fault) for fault in FAULTS}
        plan = plan_request(
            provider.profile,
            understood.kind,
            understood.locale,
            understood.last_user_message,
            indices,
            phases,
            rng,
        )
        for fault in plan.consumed:
            self._counters[(model.id, provider.tag, fault)] += 1
        return understood, plan, rng

    # -- writers -----------------------------------------------------------------------------------------
    def _hang(
        self, t0: float, provider: Provider, plan: Plan, stream: bool, model: str
    ) -> Callable[[_Writer], Awaitable[None]]:
        hang = provider.profile.timeout

        async def write(w: _Writer) -> None:
            if stream and hang.stage == "stream":
                await w.start(200, _sse_headers(None))
                await w.send(wire.KEEPALIVE)
                role = wire.chunk("gen-stalled", int(self.clock()), model, provider, {"role": "assistant"})
                await w.send(wire.sse(role))
                await w.sleep_until(t0 + hang.hang)
                return  # the stream just ends: no finish chunk, no [DONE]
            await w.sleep_until(t0 + hang.hang)
            body, headers = wire.upstream_error(524, provider, model)
            await w.start(524, {"content-type": "application/json", **headers})
            await w.send(json.dumps(body).encode())

        return write

    async def _write_stream(self, w: _Writer, call: _Call) -> None:
        profile, plan, reply = call.provider.profile, call.plan, call.reply
        # Serialised before the deadlines, so sending is all that is left.
        events, first_content = _stream_events(call)
        role = wire.chunk(
            call.gen_id, call.created, call.model.id, call.provider, {"role": "assistant", "content": ""}
        )
        await w.start(200, _sse_headers(call.gen_id))
        await w.send(wire.KEEPALIVE + wire.sse(role))
        keepalive = profile.keepalive
        next_keepalive = call.t0 + keepalive
        index = 0
        while index < len(events):
            next_keepalive = await w.wait_with_keepalive(
                call.t0 + events[index][0], next_keepalive, keepalive
            )
            # One write for every event already due: small writes cost a syscall each.
            due = w.now() - call.t0
            batch = [events[index][1]]
            index += 1
            while index < len(events) and events[index][0] <= due:
                batch.append(events[index][1])
                index += 1
            if index > first_content and call.record.first_token_loop is None:
                call.record.first_token_loop = w.now()
            await w.send(b"".join(batch))
        tail: list[bytes] = []
        if plan.mid_stream_error:
            error = wire.mid_stream_error(call.provider, call.rng)
            event = wire.chunk(
                call.gen_id,
                call.created,
                call.model.id,
                call.provider,
                {"content": ""},
                "error",
                "error",
                error=error,
            )
            tail.append(wire.sse(event))
            if call.rng.random() < 0.5:
                tail.append(wire.DONE)
            await w.send(b"".join(tail))
            return
        final = {"role": "assistant", "content": ""}
        finish = wire.chunk(
            call.gen_id,
            call.created,
            call.model.id,
            call.provider,
            final,
            reply.finish_reason,
            reply.native_finish_reason,
        )
        usage = wire.usage(reply, call.understood.prompt_tokens, call.provider)
        usage_delta = None if call.rng.random() < 0.5 else {"role": "assistant", "content": ""}
        usage_event = wire.chunk(
            call.gen_id, call.created, call.model.id, call.provider, usage_delta, usage=usage
        )
        if call.metadata:  # on the final chunk before [DONE], as the gateway sends it
            usage_event["openrouter_metadata"] = call.router_metadata()
        await w.send(wire.sse(finish) + wire.sse(usage_event) + wire.DONE)
        self._record_generation(call, streamed=True, usage=usage)

    async def _write_completion(self, w: _Writer, call: _Call) -> None:
        plan, reply = call.plan, call.reply
        pieces = _pieces(reply.content)
        done_at = call.t0 + plan.ttft + max(0, len(pieces) - 1) * plan.inter_token
        keepalive = call.provider.profile.keepalive
        if done_at - call.t0 > keepalive:
            # Slow answers start the body with newline heartbeats, as the gateway does.
            await w.start(200, {"content-type": "application/json", "x-generation-id": call.gen_id})
            next_beat = call.t0 + keepalive
            while next_beat < done_at:
                await w.sleep_until(next_beat)
                await w.send(b"\n")
                next_beat += keepalive
            await w.sleep_until(done_at)
        else:
            await w.sleep_until(done_at)
            await w.start(200, {"content-type": "application/json", "x-generation-id": call.gen_id})
        usage = wire.usage(reply, call.understood.prompt_tokens, call.provider)
        error = None
        if plan.mid_stream_error:
            error = wire.mid_stream_error(call.provider, call.rng)
            cut = max(1, int(len(pieces) * 0.4))
            reply = replace(reply, content="".join(pieces[:cut]))
        body = wire.completion(call.gen_id, call.created, call.model.id, call.provider, reply, usage, error)
        if call.metadata:
            body["openrouter_metadata"] = call.router_metadata()
        await w.send(json.dumps(body, ensure_ascii=False).encode())
        if error is None:
            self._record_generation(call, streamed=False, usage=usage)

    def _record_generation(self, call: _Call, streamed: bool, usage: Mapping[str, Any]) -> None:
        now = self.clock()
        latency_ms = round((now - call.arrived) * 1000)
        responses = [
            _provider_response(a.provider, call.model, a.status, a.latency_ms) for a in call.attempts
        ] + [_provider_response(call.provider, call.model, 200, latency_ms)]
        data = {
            "id": call.gen_id,
            "upstream_id": f"up-{call.gen_id[4:]}",
            "total_cost": usage["cost"],
            "cache_discount": None,
            "upstream_inference_cost": usage["cost"],
            "created_at": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(call.arrived)) + "Z",
            "model": call.model.id,
            "app_id": None,
            "streamed": streamed,
            "cancelled": False,
            "provider_name": call.provider.display_name,
            "latency": round(call.plan.ttft * 1000),
            "moderation_latency": None,
            "generation_time": latency_ms,
            "finish_reason": call.reply.finish_reason,
            "native_finish_reason": call.reply.native_finish_reason,
            "tokens_prompt": usage["prompt_tokens"],
            "tokens_completion": usage["completion_tokens"],
            "native_tokens_prompt": usage["prompt_tokens"],
            "native_tokens_completion": usage["completion_tokens"],
            "native_tokens_reasoning": call.reply.reasoning_tokens,
            "num_media_prompt": None,
            "num_search_results": None,
            "origin": "",
            "usage": usage["cost"],
            "is_byok": False,
            "provider_responses": responses,
            "router": None,
            "service_tier": None,
            "request_id": f"req-{call.gen_id[4:]}",
        }
        self._generations[call.gen_id] = _Generation(data, now + self.fleet.generation_404_window)
        while len(self._generations) > self.max_generations:
            self._generations.popitem(last=False)

    # -- control -----------------------------------------------------------------------------------------
    def _control_denied(self, request: Request) -> Response | None:
        token = self.fleet.control_token.value if self.fleet.control_token is not None else None
        if self._authorized(request, token):
            return None
        return JSONResponse(wire.plain_error(401, "A valid control token is required"), status_code=401)

    async def sim_requests(self, request: Request) -> Response:
        if (denied := self._control_denied(request)) is not None:
            return denied
        model = request.query_params.get("model")
        return JSONResponse([r.to_json() for r in self._requests if model is None or r.model == model])

    async def sim_outage(self, request: Request) -> Response:
        if (denied := self._control_denied(request)) is not None:
            return denied
        body = await _json_object(request)
        if body is None or not isinstance(body.get("on"), bool):
            return JSONResponse(
                wire.plain_error(400, 'Expected a JSON body {"on": true|false}'), status_code=400
            )
        self.outage = body["on"]
        return JSONResponse({"outage": self.outage})

    async def sim_patch_provider(self, request: Request) -> Response:
        if (denied := self._control_denied(request)) is not None:
            return denied
        model_id = f"{request.path_params['author']}/{request.path_params['slug']}"
        tag = request.path_params["tag"]
        if (model_id, tag) not in self.profiles:
            message = f"No provider {tag} for model {model_id}"
            return JSONResponse(wire.plain_error(404, message), status_code=404)
        body = await _json_object(request)
        if body is None:
            return JSONResponse(
                wire.plain_error(400, "Expected a JSON object of profile knobs"), status_code=400
            )
        replace_all = request.query_params.get("replace", "").lower() in ("1", "true", "yes")
        try:
            profile = patch_profile(self.profiles[(model_id, tag)], body, replace_all=replace_all)
        except ConfigError as exc:
            error = wire.plain_error(400, "Invalid profile patch")
            error["error"]["problems"] = exc.problems
            return JSONResponse(error, status_code=400)
        self.profiles[(model_id, tag)] = profile
        self._providers[(model_id, tag)] = replace(self._providers[(model_id, tag)], profile=profile)
        return JSONResponse({"model": model_id, "tag": tag, "profile": _plain(profile)})

    async def sim_fleet(self, request: Request) -> Response:
        if (denied := self._control_denied(request)) is not None:
            return denied
        listed_tags = {m.id: {p.tag for p in self.listed(m)} for m in self.fleet.models}
        models = [
            {
                "id": model.id,
                "providers": [
                    {
                        "tag": p.tag,
                        "name": p.display_name,
                        "listed": p.tag in listed_tags[model.id],
                        "requests": self._numbers[(model.id, p.tag)],
                        "profile": _plain(self.profiles[(model.id, p.tag)]),
                    }
                    for p in model.providers
                ],
            }
            for model in self.fleet.models
        ]
        catalogue: dict[str, int] = defaultdict(int)
        for model in self.models.values():
            if model.behaviour is not None:
                catalogue[model.behaviour] += 1
        return JSONResponse(
            {"seed": self.fleet.seed, "outage": self.outage, "models": models, "catalogue": dict(catalogue)}
        )


@dataclass(frozen=True, slots=True)
class _Call:
    """Everything decided about one successful chat request, before any byte is written."""

    gen_id: str
    created: int
    model: Model
    provider: Provider
    understood: Understood
    plan: Plan
    reply: Reply
    rng: random.Random
    t0: float  # event-loop time the request arrived
    arrived: float  # wall-clock time the request arrived
    attempts: tuple[_Attempt, ...]
    record: RequestRecord  # what GET /_sim/requests shows of this request
    metadata: bool = False  # the client sent X-OpenRouter-Metadata: enabled

    def router_metadata(self) -> dict[str, Any]:
        """``openrouter_metadata`` (Router Metadata guide; experimental shape): the attempts and the
        endpoint that served. The simulator also names that endpoint's tag, the proof a pin check wants."""
        selected = {"model": self.model.id, "provider": self.provider.display_name,
                    "tag": self.provider.tag, "selected": True}  # fmt: skip
        return {
            "attempt": len(self.attempts) + 1,
            "attempts": [
                {"provider": a.provider.display_name, "tag": a.provider.tag, "status": a.status}
                for a in self.attempts
            ],
            "endpoints": {"available": [selected], "total": 1 + len(self.attempts)},
            "requested": self.model.id,
            "strategy": "direct",
            "summary": f"available={1 + len(self.attempts)}, selected={self.provider.display_name}",
        }


def request_issues(body: object) -> list[dict[str, Any]]:
    """Validation issues of a chat request body (zod-style, like the gateway's 400 message)."""
    if not isinstance(body, dict):
        return [{"code": "invalid_type", "path": [], "message": "Expected object"}]
    issues: list[dict[str, Any]] = []
    if not isinstance(body.get("model"), str) or not body["model"].strip():
        issues.append({"code": "invalid_type", "path": ["model"], "message": "Required: a model id string"})
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages or not all(isinstance(m, dict) for m in messages):
        issues.append({"code": "invalid_type", "path": ["messages"], "message": "Expected a non-empty array"})
    for key in ("max_tokens", "max_completion_tokens"):
        value = body.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            issues.append({"code": "invalid_type", "path": [key], "message": "Expected a positive integer"})
    if "stream" in body and not isinstance(body["stream"], bool):
        issues.append({"code": "invalid_type", "path": ["stream"], "message": "Expected boolean"})
    return issues


async def _json_object(request: Request) -> dict[str, Any] | None:
    raw = await request.body()
    if len(raw) > MAX_BODY_BYTES:
        return None
    try:
        value = json.loads(raw or b"{}")
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _plain(value: Any) -> Any:
    """A dataclass (with nested mappings) as plain JSON values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    return value


def _provider_response(provider: Provider, model: Model, status: int, latency_ms: int) -> dict[str, Any]:
    return {
        "provider_name": provider.display_name,
        "status": status,
        "latency": latency_ms,
        "endpoint_id": f"ep-{provider.tag.replace('/', '-')}",
        "model_permaslug": model.id,
        "is_byok": False,
    }


def _sse_headers(gen_id: str | None) -> dict[str, str]:
    headers = {"content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no"}
    if gen_id is not None:
        headers["x-generation-id"] = gen_id
    return headers


def _pieces(text: str) -> list[str]:
    """Stream pieces of a few tokens each, as hosts send them: words grouped to about 16 characters,
    CJK runs cut every 4 characters. Fewer, larger events keep 100 concurrent streams cheap.

    >>> _pieces("The wind rose over the harbor tonight.")
    ['The wind rose over', ' the harbor tonight.']
    """
    words: list[str] = []
    for word in _PIECE.findall(text):
        if _DENSE_RUN.search(word):
            words.extend(word[i : i + 4] for i in range(0, len(word), 4))
        else:
            words.append(word)
    pieces: list[str] = []
    for word in words:
        if pieces and len(pieces[-1]) + len(word) <= _PIECE_CHARS and not _DENSE_RUN.search(word):
            pieces[-1] += word
        else:
            pieces.append(word)
    if text and not pieces:
        pieces = [text]
    elif pieces and text != "".join(pieces):
        pieces[-1] += text[len("".join(pieces)) :]  # trailing whitespace
    return pieces


def _stream_events(call: _Call) -> tuple[list[tuple[float, bytes]], int]:
    """(offset from arrival, SSE bytes) of every reasoning and content delta, in order; and the index of
    the first content delta."""
    plan, reply = call.plan, call.reply

    def event(delta: dict[str, Any]) -> bytes:
        return wire.sse(wire.chunk(call.gen_id, call.created, call.model.id, call.provider, delta))

    events: list[tuple[float, bytes]] = []
    reasoning = _pieces(reply.reasoning)
    for i, piece in enumerate(reasoning):
        offset = plan.ttft * (0.3 + 0.6 * i / max(1, len(reasoning)))
        delta = {
            "role": "assistant",
            "content": "",
            "reasoning": piece,
            "reasoning_details": [{"type": "reasoning.text", "text": piece, "format": "unknown", "index": 0}],
        }
        events.append((offset, event(delta)))
    first_content = len(events)
    content = _pieces(reply.content)
    if plan.mid_stream_error:
        content = content[: max(1, int(len(content) * 0.4))]
    for i, piece in enumerate(content):
        events.append((plan.ttft + i * plan.inter_token, event({"role": "assistant", "content": piece})))
    return events, first_content


class _Writer:
    """Sends one HTTP response through ASGI ``send`` and sleeps to absolute event-loop deadlines."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.started = False
        self._loop = asyncio.get_running_loop()

    async def start(self, status: int, headers: Mapping[str, str]) -> None:
        raw = [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
        await self._send({"type": "http.response.start", "status": status, "headers": raw})
        self.started = True

    async def send(self, data: bytes) -> None:
        await self._send({"type": "http.response.body", "body": data, "more_body": True})

    def now(self) -> float:
        return self._loop.time()

    async def sleep_until(self, deadline: float) -> None:
        """Sleep until ``deadline`` on the loop clock, within a fraction of a millisecond.

        epoll waits in whole milliseconds rounded up, so a plain ``asyncio.sleep`` wakes up to 1 ms late
        (0.5 ms on average): a bias in every injected delay. Sleep until just before the deadline, then
        yield to the loop (other streams keep running) until it is reached.
        """
        delay = deadline - self._loop.time()
        if delay > _SPIN_SECONDS:
            await asyncio.sleep(delay - _SPIN_SECONDS)
        while self._loop.time() < deadline:  # noqa: ASYNC110 - a deadline, not an event to wait for
            await asyncio.sleep(0)

    async def wait_with_keepalive(self, deadline: float, next_keepalive: float, interval: float) -> float:
        """Sleep until ``deadline``, sending a keep-alive comment each time ``next_keepalive`` comes first."""
        while next_keepalive < deadline:
            await self.sleep_until(next_keepalive)
            await self.send(wire.KEEPALIVE)
            next_keepalive += interval
        await self.sleep_until(deadline)
        return next_keepalive


class _Timed(Response):
    """A response written over time by a coroutine; it stops as soon as the client disconnects."""

    def __init__(self, write: Callable[[_Writer], Awaitable[None]]) -> None:
        super().__init__()
        self._write = write

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        writer = _Writer(send)
        writing = asyncio.ensure_future(self._write(writer))
        watching = asyncio.ensure_future(_wait_disconnect(receive))
        done, _ = await asyncio.wait({writing, watching}, return_when=asyncio.FIRST_COMPLETED)
        if writing not in done:
            writing.cancel()
            await asyncio.gather(writing, return_exceptions=True)
            return
        watching.cancel()
        await asyncio.gather(watching, return_exceptions=True)
        writing.result()  # re-raise a bug in the writer
        if not writer.started:
            await writer.start(500, {"content-type": "application/json"})
        await send({"type": "http.response.body", "body": b"", "more_body": False})


async def _wait_disconnect(receive: Receive) -> None:
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            return
