"""The async gateway client: endpoint discovery, pinned chat completions (plain or streamed), generations.

This is the thin I/O shell around the pure parts of the package: ``sse`` decodes the event stream,
``chunks`` accumulates the completion, ``classify`` turns every failure into a ``GatewayError`` value.
``chat`` never raises for an expected failure (HTTP errors, timeouts, broken or garbage streams); it returns
a ``ChatResult`` whose ``error`` is set, keeps whatever content arrived, and logs one structured line with a
fixed message (``gateway request failed``) and ``key=value`` fields, never the API key and at most a short
excerpt of model output.

Time to first token: ``ttft_seconds`` runs from ``clock()`` just before the request headers were written to
``clock()`` when the client reads the first visible token: what the event loop is busy with between the
token's arrival and that read counts too (milliseconds at the default concurrency, ``bench/gateway_ttft.py``;
design.md §13).

Two kinds of gateway:

- ``openrouter``: discovery is ``GET {base_url}/models/{model}/endpoints``; a request with ``pin`` sends
  ``provider: {only: [pin], allow_fallbacks: false, require_parameters: true}``, and every chat sends
  ``X-OpenRouter-Cache: false`` and ``X-OpenRouter-Title``. A chat without an API key is not sent
  (``config/missing_key``).
- ``openai-compatible`` (a provider's own API, vLLM, SGLang): discovery returns the configured
  ``static_endpoints[model]`` without a request; chat sends no ``provider`` object and asks for usage in the
  stream (``stream_options.include_usage``), which such servers only send when asked.

Example::

    async with GatewayClient("https://openrouter.ai/api/v1", api_key) as gateway:
        endpoints = await gateway.discover("moonshotai/kimi-k2-0905")
        result = await gateway.chat(ChatRequest(model="moonshotai/kimi-k2-0905",
                                                messages=({"role": "user", "content": "Hi"},),
                                                max_tokens=16, pin="deepinfra/fp4", stream=True,
                                                first_token_deadline=10.0))
        result.ttft_seconds, result.first_token_timed_out, result.error
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import TracebackType
from typing import Literal, TypeVar
from urllib.parse import quote

import httpcore
import httpx
from pydantic import JsonValue

from exporter.gateway.chunks import ChunkAccumulator, finite_number, first_text, whole_number
from exporter.gateway.classify import (
    classify_error_object,
    classify_exception,
    classify_http_error,
    malformed_response,
    missing_key,
    oversized_body,
    parse_json_body,
    truncated_stream,
)
from exporter.gateway.sse import SSEDecoder, SSEEvent, SSEKind
from exporter.gateway.types import (
    ChatRequest,
    ChatResult,
    Endpoint,
    GatewayError,
    Generation,
    ProviderAttempt,
)
from exporter.outcomes import Outcome, Reason, Usage
from exporter.textkit import control_problem, escape_controls
from exporter.timestamps import parse_rfc3339

__all__ = [
    "GatewayClient",
    "GatewayKind",
    "Reply",
    "parse_endpoint",
    "parse_endpoints_response",
    "parse_generation",
]

GatewayKind = Literal["openrouter", "openai-compatible"]
_T = TypeVar("_T")

_LOG_MESSAGE = (
    "gateway request failed op=%s model=%s pin=%s outcome=%s reason=%s status=%s elapsed_s=%.3f detail=%r"
    " excerpt=%r"
)
_EXCERPT_CHARS = 60
# httpcore trace event (http11.* / http2.*) at which the request starts going out: servers start their clock
# when the request line and headers arrive, before the body is read, so this is "sending the request".
_SENT_EVENT = ".send_request_headers.started"
# After [DONE], how long to wait for the end of the body before closing the connection instead.
_DRAIN_SECONDS = 0.1


@dataclass(frozen=True, slots=True)
class Reply:
    """What ``GatewayClient.fetch`` read: the status, the body (its first ``limit`` bytes when
    ``oversized``) and the headers."""

    status: int
    body: bytes
    headers: httpx.Headers
    oversized: bool = False


@dataclass(slots=True)
class _Progress:
    """Mutable bookkeeping of one chat call (local to the call, never shared)."""

    scope: asyncio.Timeout  # the call's deadline: the overall one, or the first token's while that is sooner
    overall_at: float  # loop time of the overall deadline
    clock: Callable[[], float]  # the client's clock (TTFT, elapsed)
    t0: float = 0.0  # clock() just before sending
    loop_t0: float = 0.0  # the event loop's time at the same moment (deadlines run on the loop's clock)
    status: int | None = None
    ttft: float | None = None
    generation_header: str | None = None
    first_token_at: float | None = None  # loop time of the first-token deadline, while waiting for it
    received: int = 0  # bytes of the event stream so far
    connecting: object = None  # the TCP stream of a connection being opened for this call

    def wait_for_first_token(self, deadline: float) -> None:
        """Bring the call's deadline forward to ``deadline`` seconds after sending, until a token comes."""
        self.first_token_at = self.loop_t0 + deadline
        self.scope.reschedule(min(self.first_token_at, self.overall_at))

    def stop_waiting_for_first_token(self) -> None:
        if self.first_token_at is not None:
            self.first_token_at = None
            self.scope.reschedule(self.overall_at)

    async def trace(self, event: str, info: Mapping[str, object]) -> None:
        """httpcore's trace hook: re-stamp "sent" when the request has actually been written; close the
        socket of a TLS handshake this call's deadline cut short.

        Under load many probes wait their turn for a connection and for the event loop; stamping when the
        request bytes are written keeps that client-side queueing out of TTFT. Transports without tracing
        (``MockTransport``) keep the stamp taken just before ``send``.
        """
        if event.endswith(_SENT_EVENT):
            self.t0 = self.clock()
            self.loop_t0 = asyncio.get_running_loop().time()
        elif event == "connection.connect_tcp.complete":
            self.connecting = info.get("return_value")
        elif event == "connection.start_tls.failed" and isinstance(
            self.connecting, httpcore.AsyncNetworkStream
        ):  # httpcore closes the socket of a failed TLS handshake, not of one the call's deadline cancelled
            with contextlib.suppress(Exception):
                await self.connecting.aclose()


# The defaults of gateway.timeout and gateway.connect_timeout (exporter/gateway/config.py reads them).
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_CONNECT_TIMEOUT_SECONDS = 10.0


class GatewayClient(contextlib.AbstractAsyncContextManager["GatewayClient", None]):
    """Talks to OpenRouter (or any OpenAI-compatible host) for the canary; see the module docstring.

    ``transport`` is the I/O seam (``httpx.MockTransport`` in tests; by default httpx's own, which honours
    ``HTTPS_PROXY``/``ALL_PROXY``/``NO_PROXY`` from the environment); ``clock`` measures TTFT and elapsed
    time; ``timeout`` bounds a whole request (headers and body) and ``connect_timeout`` the connection;
    ``max_body_bytes`` bounds what is read from one response.
    """

    def __init__(
        self,
        base_url: str,
        api_key: str | None,
        *,
        kind: GatewayKind = "openrouter",
        static_endpoints: Mapping[str, Sequence[Endpoint]] | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        timeout: float = DEFAULT_TIMEOUT_SECONDS,
        connect_timeout: float = DEFAULT_CONNECT_TIMEOUT_SECONDS,
        max_body_bytes: int = 4 * 1024 * 1024,
        clock: Callable[[], float] = time.perf_counter,
        app_title: str = "Provider Canary",
    ) -> None:
        if kind not in ("openrouter", "openai-compatible"):
            raise ValueError(f"kind must be 'openrouter' or 'openai-compatible', got {kind!r}")
        if timeout <= 0 or connect_timeout <= 0:
            raise ValueError(
                f"timeouts must be positive, got timeout={timeout} connect_timeout={connect_timeout}"
            )
        if max_body_bytes < 1024:
            raise ValueError(f"max_body_bytes must be at least 1024, got {max_body_bytes}")
        self._base = base_url.rstrip("/")
        self._api_key = api_key or None
        self._kind: GatewayKind = kind
        self._static = {model: tuple(eps) for model, eps in (static_endpoints or {}).items()}
        self._timeout = timeout
        self._max_body = max_body_bytes
        self._clock = clock
        self._log = logging.getLogger("exporter.gateway")
        self._app_title = app_title
        self._http = httpx.AsyncClient(
            transport=transport,
            timeout=httpx.Timeout(timeout, connect=connect_timeout),
            limits=httpx.Limits(max_connections=256, max_keepalive_connections=256),
            follow_redirects=False,
        )

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        """Close the connection pool."""
        await self._http.aclose()

    # -- requests ----------------------------------------------------------------------------------------

    def build_chat_body(self, request: ChatRequest) -> dict[str, JsonValue]:
        """The JSON body ``chat`` sends for ``request`` (pure; never ``models``, never ``plugins``).

        Example (OpenRouter, pinned): ``{"model": "m", "messages": [...], "max_tokens": 16, "stream": true,
        "temperature": 0.0, "provider": {"only": ["deepinfra/fp8"], "allow_fallbacks": false,
        "require_parameters": true}}``.
        """
        body: dict[str, JsonValue] = {
            "model": request.model,
            "messages": [dict(message) for message in request.messages],
            "max_tokens": request.max_tokens,
            "stream": request.stream,
        }
        if request.temperature is not None:
            body["temperature"] = request.temperature
        if request.response_format is not None:
            body["response_format"] = request.response_format
        if request.reasoning is not None:
            body["reasoning"] = dict(request.reasoning)
        if request.reasoning_effort is not None:
            body["reasoning_effort"] = request.reasoning_effort
        if request.top_logprobs is not None:
            body["logprobs"] = True
            body["top_logprobs"] = request.top_logprobs
        if self._kind == "openrouter":
            if request.pin is not None:
                body["provider"] = {
                    "only": [request.pin],
                    "allow_fallbacks": False,
                    "require_parameters": request.require_parameters,
                }
        elif request.stream:
            body["stream_options"] = {"include_usage": True}
        return body

    def build_chat_headers(self, request: ChatRequest) -> dict[str, str]:
        """The request headers ``chat`` sends (the API key included: never log this)."""
        headers = self._base_headers(self._api_key)
        headers["Accept"] = "text/event-stream" if request.stream else "application/json"
        if self._kind == "openrouter":
            headers["X-OpenRouter-Cache"] = "false"
            if request.pin is not None:  # router metadata: which endpoint served, and after how many tries
                headers["X-OpenRouter-Metadata"] = "enabled"
        return headers

    async def discover(self, model: str) -> list[Endpoint] | GatewayError:
        """The model's serving endpoints (``GET {base}/models/{model}/endpoints``), or why not.

        For ``openai-compatible`` gateways, the configured ``static_endpoints[model]`` (no request).
        Example: ``await client.discover("moonshotai/kimi-k2-0905")``
        → ``[Endpoint(tag="deepinfra/fp4", ...)]``.
        """
        if self._kind == "openai-compatible":
            if model in self._static:
                return list(self._static[model])
            return self._unsupported("discover", model, f"no static endpoints configured for model {model!r}")
        path = f"/models/{quote(model, safe='/:')}/endpoints"
        return await self._get("discover", model, path, self._max_body, parse_endpoints_response)

    async def generation(self, generation_id: str) -> Generation | GatewayError:
        """The gateway's record of one generation (``GET {base}/generation?id=``): who served it, and how.

        An unknown id (or one asked for within a second of completing: OpenRouter writes the record a moment
        later) is a ``GatewayError`` with status 404. ``openai-compatible`` hosts have no such record.
        Example: ``(await client.generation("gen-1768896871-9HgAQqS1Z72C6gApaidi")).provider_name``
        → ``"DeepInfra"``.
        """
        if self._kind == "openai-compatible":
            return self._unsupported("generation", "*", "an openai-compatible host has no generation log")
        path = f"/generation?id={quote(generation_id, safe='')}"
        return await self._get("generation", "*", path, self._max_body, parse_generation)

    async def chat(self, request: ChatRequest) -> ChatResult:
        """Send one chat completion and return what came back; never raises for expected failures.

        Example: ``(await client.chat(ChatRequest("m", ({"role": "user", "content": "Hi"},), 16))).content``.
        """
        if self._kind == "openrouter" and self._api_key is None:
            return ChatResult(error=self._log_error("chat", request.model, request.pin, missing_key(), 0.0))
        http_request = self._http.build_request(
            "POST", self._base + "/chat/completions", json=self.build_chat_body(request),
            headers=self.build_chat_headers(request),
        )  # fmt: skip
        acc = ChunkAccumulator(
            count_reasoning_as_first_token=request.count_reasoning_as_first_token,
            count_whitespace_as_first_token=request.count_whitespace_as_first_token,
        )
        loop = asyncio.get_running_loop()
        overall_at = loop.time() + self._timeout
        scope = asyncio.timeout_at(overall_at)
        progress = _Progress(scope, overall_at, self._clock, loop_t0=loop.time(), t0=self._clock())
        error: GatewayError | None
        timed_out_first_token = False
        http_request.extensions["trace"] = progress.trace
        try:
            async with scope:
                error = await self._exchange(http_request, request, acc, progress)
        except TimeoutError as exc:
            first_token_due = progress.first_token_at is not None and loop.time() >= progress.first_token_at
            if scope.expired() and first_token_due:
                error, timed_out_first_token = None, True
            elif scope.expired():
                phase = "response headers" if progress.status is None else "the end of the response"
                error = GatewayError(
                    Outcome.TRANSPORT, Reason.TIMEOUT, progress.status,
                    f"no {phase} within the overall timeout of {self._timeout:g}s",
                )  # fmt: skip
            else:
                error = classify_exception(exc)
        except (httpx.HTTPError, OSError) as exc:
            error = classify_exception(exc)
            if progress.status is not None:
                error = replace(error, status=progress.status)
        elapsed = self._clock() - progress.t0
        if error is not None:
            error = self._log_error("chat", request.model, request.pin, error, elapsed, acc.content)
        elif timed_out_first_token:
            self._log.info(
                "first token deadline passed model=%s pin=%s deadline_s=%s elapsed_s=%.3f",
                request.model, request.pin, request.first_token_deadline, elapsed,
            )  # fmt: skip
        return ChatResult(
            error=error,
            status=progress.status,
            content=acc.content,
            reasoning=acc.reasoning,
            refusal=acc.refusal,
            finish_reason=acc.finish_reason,
            served_by=acc.provider,
            served_endpoint=acc.route.endpoint if acc.route else None,
            attempts=acc.route.attempts if acc.route else None,
            generation_id=acc.generation_id or progress.generation_header,
            usage=acc.usage or Usage(),
            ttft_seconds=progress.ttft,
            first_token_timed_out=timed_out_first_token,
            elapsed_seconds=elapsed,
            sent_at=progress.t0,
            logprobs=tuple(acc.logprobs),
        )

    # -- internals ---------------------------------------------------------------------------------------

    async def _exchange(
        self, http_request: httpx.Request, request: ChatRequest, acc: ChunkAccumulator, progress: _Progress
    ) -> GatewayError | None:
        """Send the chat and read the reply: a stream's events as they come (TTFT, first-token deadline), then
        what they add up to; plain JSON (a request not streamed, an error before the stream, or a completion
        a host did not stream) read whole."""
        response = await self._http.send(http_request, stream=True)
        progress.status = response.status_code
        progress.generation_header = response.headers.get("x-generation-id")
        try:
            if (
                not request.stream
                or "text/event-stream" not in response.headers.get("content-type", "")
                or response.status_code >= 300
            ):
                error = await self._read_whole(response, acc)
                if request.stream and error is None and acc.saw_visible_token:  # it came with the rest
                    progress.ttft = self._clock() - progress.t0
                return error
            if request.first_token_deadline is not None:
                progress.wait_for_first_token(request.first_token_deadline)
            error = await self._read_events(response, acc, progress)
        finally:
            # leaving for any reason but the deadline: closing is not a timeout
            if not progress.scope.expired():
                progress.stop_waiting_for_first_token()
            await response.aclose()
        return error or _stream_outcome(acc, response.status_code, progress.received)

    async def _read_whole(self, response: httpx.Response, acc: ChunkAccumulator) -> GatewayError | None:
        """A JSON reply read whole (bounded): an HTTP error classified from its body, or a completion."""
        body, over = await self._read_bounded(response, self._max_body)
        if over:
            return oversized_body(self._max_body, response.status_code)
        if response.status_code >= 300:
            return classify_http_error(response.status_code, body, response.headers)
        return _read_completion(body, acc, response.status_code)

    async def _read_events(
        self, response: httpx.Response, acc: ChunkAccumulator, progress: _Progress
    ) -> GatewayError | None:
        """Feed the event stream into ``acc`` until ``[DONE]``, an error chunk or the end of the body; after
        ``[DONE]`` or an error, drain the rest for the keep-alive connection. An error for an unreadable
        stream (oversized, garbage)."""
        decoder = SSEDecoder(max_event_chars=self._max_body)
        chunks = response.aiter_bytes()
        async for chunk in chunks:
            progress.received += len(chunk)
            if progress.received > self._max_body:
                return oversized_body(self._max_body, response.status_code)
            ended = self._take_events(decoder.feed(chunk), acc, progress, response)
            if ended is True:
                await _drain(chunks, progress.overall_at)
            if ended is not False:
                return None if ended is True else ended
        progress.stop_waiting_for_first_token()  # the stream has ended either way
        ended = self._take_events(decoder.flush(), acc, progress, response)
        return ended if isinstance(ended, GatewayError) else None

    def _take_events(
        self, events: list[SSEEvent], acc: ChunkAccumulator, progress: _Progress, response: httpx.Response
    ) -> bool | GatewayError:
        """Feed decoded events until one ends the stream: True for ``[DONE]`` or an error chunk (the gateway
        ends the stream after one), an error when an event is unreadable, else False (read on)."""
        for event in events:
            if event.kind is SSEKind.OVERSIZED:
                ended: bool | GatewayError = malformed_response(f"SSE {event.text}", response.status_code)
            elif event.kind is not SSEKind.EVENT:
                continue
            elif event.data == "[DONE]":
                acc.done = True
                ended = True
            elif (problem := _feed_event(event.data, acc)) is not None:
                ended = malformed_response(problem, response.status_code)
            else:
                if acc.saw_visible_token and progress.ttft is None:
                    progress.ttft = self._clock() - progress.t0
                    progress.stop_waiting_for_first_token()
                ended = acc.error is not None
            if ended is not False:
                progress.stop_waiting_for_first_token()
                return ended
        return False

    async def fetch(
        self,
        method: str,
        url: str,
        api_key: str | None,
        *,
        json_body: Mapping[str, object] | None = None,
        limit: int | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> Reply | GatewayError:
        """One request for a JSON reply, read whole up to ``limit`` bytes (default ``max_body_bytes``), or
        the classified reason there is no reply (timeout, network; never raises for those). ``url`` is a
        path under ``base_url`` or an absolute URL; ``api_key`` is sent as a bearer token when set. Not
        logged: the caller decides what a reply means. What routability's probes go through.

        Example: ``await client.fetch("GET", "/models", key)`` → ``Reply(status=200, body=b'{"data": ...')``.
        """
        limit = self._max_body if limit is None else limit
        sent = self._base_headers(api_key)
        sent["Accept"] = "application/json"
        sent.update(headers or {})
        target = url if "://" in url else self._base + url
        scope = asyncio.timeout(self._timeout)
        status: int | None = None
        try:
            async with scope:
                request = self._http.build_request(method, target, json=json_body, headers=sent)
                response = await self._http.send(request, stream=True)
                try:
                    status = response.status_code
                    body, over = await self._read_bounded(response, limit)
                finally:
                    await response.aclose()
        except TimeoutError as exc:
            if not scope.expired():
                return classify_exception(exc)
            return GatewayError(
                Outcome.TRANSPORT, Reason.TIMEOUT, status, f"no complete response within {self._timeout:g}s"
            )
        except (httpx.HTTPError, OSError) as exc:
            return classify_exception(exc)
        return Reply(response.status_code, body, response.headers, over)

    async def get_json(self, path: str, limit: int | None = None) -> object:
        """GET ``path`` (under ``base_url``, or an absolute URL; the API key when set) for a JSON reply read
        whole up to ``limit`` bytes (default ``max_body_bytes``), or the classified reason there is none: an
        HTTP error read from its body, an oversized or unparsable body, a timeout. Not logged.

        Example: ``await client.get_json("/v1/suspensions")`` → ``{"suspensions": [...]}``.
        """
        limit = self._max_body if limit is None else limit
        reply = await self.fetch("GET", path, self._api_key, limit=limit)
        if isinstance(reply, GatewayError):
            return reply
        if reply.oversized:
            return oversized_body(limit, reply.status)
        if reply.status >= 300:
            return classify_http_error(reply.status, reply.body, reply.headers)
        body, problem = parse_json_body(reply.body)
        return (
            body if problem is None else malformed_response(f"HTTP {reply.status}: {problem}", reply.status)
        )

    async def _get(
        self, op: str, model: str, path: str, limit: int, parse: Callable[[object], _T | GatewayError]
    ) -> _T | GatewayError:
        """``get_json`` and ``parse``; a failure of either is logged and returned."""
        started = self._clock()
        body = await self.get_json(path, limit)
        parsed = body if isinstance(body, GatewayError) else parse(body)
        if isinstance(parsed, GatewayError):
            return self._log_error(op, model, None, parsed, self._clock() - started)
        return parsed

    def _unsupported(self, op: str, model: str, detail: str) -> GatewayError:
        error = GatewayError(Outcome.CONFIG, Reason.BAD_REQUEST, None, detail)
        return self._log_error(op, model, None, error, 0.0)

    async def _read_bounded(self, response: httpx.Response, limit: int) -> tuple[bytes, bool]:
        declared = response.headers.get("content-length", "")
        if declared.isascii() and declared.isdigit() and int(declared) > limit:
            return b"", True
        parts: list[bytes] = []
        size = 0
        async for chunk in response.aiter_bytes():
            size += len(chunk)
            if size > limit:
                return b"".join(parts), True
            parts.append(chunk)
        return b"".join(parts), False

    def _base_headers(self, api_key: str | None) -> dict[str, str]:
        headers: dict[str, str] = {}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        if self._kind == "openrouter":
            headers["X-OpenRouter-Title"] = self._app_title
        return headers

    def _log_error(
        self, op: str, model: str, pin: str | None, error: GatewayError, elapsed: float, content: str = ""
    ) -> GatewayError:
        """Log a classified error and return it with the API key scrubbed from its detail.

        The detail travels on into probe results, ``/v1/state`` and JSON output: a host that echoes the
        key back in an error body must not publish it anywhere.
        """
        detail = error.detail
        excerpt = content[:_EXCERPT_CHARS]
        if self._api_key is not None:
            detail = detail.replace(self._api_key, "***")
            excerpt = excerpt.replace(self._api_key, "***")
            if detail != error.detail:
                error = replace(error, detail=detail)
        fields = {
            "op": op,
            "model": model,
            "pin": pin,
            "outcome": error.outcome.value,
            "reason": error.reason.value,
            "status": error.status,
            "elapsed_s": round(elapsed, 3),
            "detail": detail,
            "excerpt": excerpt,
        }
        self._log.warning(_LOG_MESSAGE, *fields.values(), extra={"gateway": fields})  # in the message's order
        return error


def _stream_outcome(acc: ChunkAccumulator, status: int, received: int) -> GatewayError | None:
    """What a stream that was read to its end adds up to: an error chunk, ``finish_reason: "error"``, a
    stream cut short (no finish reason and no ``[DONE]``), or None (a complete reply)."""
    if acc.error is not None:
        return classify_error_object(acc.error, mid_stream=True)
    if acc.finish_reason == "error":
        return _error_finish(status)
    if not acc.finished:
        return truncated_stream(
            f"no finish reason and no [DONE] after {received} bytes, {acc.chunks} chunks", status
        )
    return None


async def _drain(chunks: AsyncIterator[bytes], overall_at: float) -> None:
    """Read what follows ``[DONE]`` (or an error chunk) for a moment, so a body that ends promptly gives its
    keep-alive connection back to the pool instead of being closed (a new TLS handshake per probe)."""
    budget = min(_DRAIN_SECONDS, overall_at - asyncio.get_running_loop().time() - _DRAIN_SECONDS)
    if budget <= 0:
        return
    with contextlib.suppress(TimeoutError, httpx.HTTPError):
        async with asyncio.timeout(budget):
            async for _ in chunks:
                pass


def _feed_event(data: str, acc: ChunkAccumulator) -> str | None:
    """Decode one SSE data payload into the accumulator; return a problem description or None."""
    try:
        obj = json.loads(data)
    except (ValueError, RecursionError):
        return f"SSE data is not JSON: {data[:80]!r}"
    if not isinstance(obj, dict):
        return f"SSE data is not a JSON object: {data[:80]!r}"
    acc.feed(obj)
    return None


def _read_completion(body: bytes, acc: ChunkAccumulator, status: int) -> GatewayError | None:
    """Read a non-streamed completion body (leading whitespace heartbeats allowed) into ``acc``."""
    parsed, problem = parse_json_body(body)
    if problem is not None:
        return malformed_response(f"HTTP {status}: {problem}", status)
    if not isinstance(parsed, dict):
        return malformed_response(f"HTTP {status}: completion is not a JSON object: {_shape(parsed)}", status)
    choices = parsed.get("choices")
    if parsed.get("error") and not choices:
        # An error reported in-band with a 2xx status, before any generation.
        return replace(classify_error_object(parsed["error"]), status=status)
    acc.feed(parsed)
    if acc.error is not None:
        return replace(classify_error_object(acc.error, mid_stream=True), status=status)
    if not isinstance(choices, list) or not choices:
        return malformed_response(f"HTTP {status}: completion without choices: {_shape(parsed)}", status)
    if acc.finish_reason == "error":
        return _error_finish(status)
    return None


def _error_finish(status: int) -> GatewayError:
    return GatewayError(
        Outcome.TRANSPORT, Reason.MID_STREAM_ERROR, status, "finish_reason 'error' without an error object"
    )


def parse_endpoints_response(payload: object) -> list[Endpoint] | GatewayError:
    """Parse ``{"data": {..., "endpoints": [...]}}`` into endpoints; entries without a tag are dropped, and a
    tag listed twice keeps its first entry.

    Example: ``parse_endpoints_response({"data": {"endpoints": [{"tag": "deepinfra/fp8",
    "provider_name": "DeepInfra"}]}})`` → ``[Endpoint(tag="deepinfra/fp8", provider_name="DeepInfra")]``.
    """
    data = payload.get("data") if isinstance(payload, Mapping) else None
    endpoints = data.get("endpoints") if isinstance(data, Mapping) else None
    if not isinstance(endpoints, list):
        return malformed_response(f"endpoint listing without data.endpoints: {_shape(payload)}", 200)
    unique: dict[str, Endpoint] = {}  # a tag listed twice is one route: probe it once, export it once
    for item in endpoints:
        endpoint = parse_endpoint(item)
        if endpoint is not None:
            unique.setdefault(endpoint.tag, endpoint)
    return list(unique.values())


def parse_generation(payload: object) -> Generation | GatewayError:
    """Parse ``{"data": {"id", "model", "provider_name", "created_at", "provider_responses", ...}}``.

    Example: ``parse_generation({"data": {"id": "gen-1", "model": "m", "provider_name": "DeepInfra"}})
    .provider_name`` → ``"DeepInfra"``.
    """
    data = payload.get("data") if isinstance(payload, Mapping) else None
    if not isinstance(data, Mapping):
        return malformed_response(f"generation record without a 'data' object: {_shape(payload)}", 200)
    gen_id, model = first_text(data.get("id")), first_text(data.get("model"))
    provider = first_text(data.get("provider_name"))
    if gen_id is None or model is None or provider is None:
        return malformed_response("generation record without id, model or provider_name", 200)
    responses = data.get("provider_responses")
    attempts = tuple(
        ProviderAttempt(name, whole_number(item.get("status")), first_text(item.get("endpoint_id")))
        for item in (responses if isinstance(responses, list) else [])
        if isinstance(item, Mapping) and (name := first_text(item.get("provider_name"))) is not None
    )
    created = first_text(data.get("created_at"))
    return Generation(
        id=gen_id,
        model=model,
        provider_name=provider,
        created_at=_instant(created) if created else None,
        finish_reason=first_text(data.get("finish_reason")),
        tokens_prompt=whole_number(data.get("tokens_prompt")) or 0,
        tokens_completion=whole_number(data.get("tokens_completion")) or 0,
        total_cost_usd=finite_number(data.get("total_cost")) or 0.0,
        attempts=attempts,
    )


def _instant(text: str) -> float | None:
    """Unix seconds from an ISO 8601 / RFC 3339 time as the gateway writes it (``...Z`` or an offset)."""
    try:
        return parse_rfc3339(text, assume_utc=True)
    except ValueError:
        return None


def parse_endpoint(item: object) -> Endpoint | None:
    """One ``PublicEndpoint`` object → ``Endpoint``; None when it has no routing tag (cannot be pinned), or
    one no router could name: longer than 256 characters or holding a control character (the receiver
    refuses such a tag, and an alert carrying it would be lost with its whole notification).

    Tolerates nulls, stats given as a number or as ``{p50, ...}``, and numbers as decimal strings.
    Example: ``parse_endpoint({"tag": "parasail/fp8", "uptime_last_30m": {"p50": "99.5"}})
    .uptime_last_30m`` → ``99.5``.
    """
    if not isinstance(item, Mapping):
        return None
    tag = item.get("tag")
    if not isinstance(tag, str) or not tag.strip() or len(tag) > 256 or control_problem(tag) is not None:
        return None
    params = item.get("supported_parameters")
    return Endpoint(
        tag=tag.strip(),
        provider_name=escape_controls(first_text(item.get("provider_name")) or ""),
        quantization=first_text(item.get("quantization")),
        status=whole_number(item.get("status")),
        supported_parameters=frozenset(p for p in params if isinstance(p, str)) if isinstance(params, list)
        else frozenset(),
        max_completion_tokens=whole_number(item.get("max_completion_tokens")),
        uptime_last_30m=finite_number(item.get("uptime_last_30m")),
    )  # fmt: skip


def _shape(value: object) -> str:
    if isinstance(value, Mapping):
        return "object with keys " + ", ".join(sorted(str(k) for k in value)[:8])
    return type(value).__name__
