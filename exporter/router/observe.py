"""The router's httpx transport: merges the ignore list, journals who served each request, and tees the
reply to the live judges, without delaying a byte (design.md §9).

Install it in one line, with the official ``openai`` SDK or plain httpx::

    observer = Observer(journal=Journal(Path("journal.sqlite3")), lists=ignore_lists)
    client = openai.OpenAI(base_url="https://openrouter.ai/api/v1", api_key=key,
                           http_client=canary_http_client(observer))
    client.chat.completions.create(model=..., messages=..., stream=True,
                                   extra_headers={"X-Canary-User": user_id, "X-Canary-Locale": "pt-BR"})

What happens per ``POST …/chat/completions`` (other requests pass through untouched):

1. on the caller's thread, before sending: the JSON body is read for the model, ``stream``, ``user`` and
   ``response_format``; when an ``IgnoreListClient`` is given its list is merged into ``provider.ignore``
   (in-memory, never a network wait); the ``X-Canary-*`` headers (user, conversation, locale) are removed,
   so they never leave the process; with ``route_metadata=True`` the request asks the gateway to name the
   serving endpoint (``X-OpenRouter-Metadata: enabled``), so the journal and the live counters know the
   route's tag (``deepinfra/turbo``), not only its display name (``DeepInfra``, shared by several tags);
2. the response's byte stream is wrapped: each chunk goes to the caller as it arrives; the wrapper keeps a
   reference to it with its arrival time (up to ``max_reply_bytes`` per reply), nothing more;
3. when the stream ends (read to its end or closed), the reply goes on a bounded queue; a background
   thread decodes it (the gateway client's own SSE decoder and chunk accumulator), writes the journal
   record (``Served``) and hands the reply to the live judges when they are installed. A full queue drops
   the reply and counts it (``stats``): the request itself is never failed nor slowed.

Content (the prompt, the reply) stays in memory only until judged, and is never logged, stored or exported.
"""

from __future__ import annotations

import contextlib
import json
import logging
import queue
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

import httpx

from exporter.gateway.chunks import ChunkAccumulator
from exporter.gateway.sse import SSEDecoder, SSEKind
from exporter.lifecycle import StartStop
from exporter.router.client import IgnoreListClient, merge_ignore_tags
from exporter.router.journal import Journal, Served

log = logging.getLogger("canary.router.observe")

USER_HEADER = "x-canary-user"
CONVERSATION_HEADER = "x-canary-conversation"
LOCALE_HEADER = "x-canary-locale"
METADATA_HEADER = "x-openrouter-metadata"  # asks OpenRouter to name the serving endpoint's tag
_OWN_HEADERS = (USER_HEADER, CONVERSATION_HEADER, LOCALE_HEADER)
DEFAULT_QUEUE_SIZE = 2_000
DEFAULT_MAX_REPLY_BYTES = 1024 * 1024
DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024  # a larger request body is sent untouched, not parsed
_DROP_LOG_EVERY = 1000
_YIELD_EVERY = 16  # events decoded between two hand-overs of the GIL (about 0.3 ms of work)


@dataclass(frozen=True, slots=True)
class Reply:
    """One served reply as the live judges see it (content in memory only; never logged or stored)."""

    model: str
    provider: str  # the selected endpoint's tag when known, else the display name
    content: str
    finish_reason: str | None
    ttft_seconds: float | None
    locale: str | None  # what the product declared for this request (X-Canary-Locale)
    schema: Mapping[str, object] | None  # the json_schema the request asked for, if any
    status: int
    error: bool  # the gateway reported an error (HTTP status or an error chunk): a transport outcome
    complete: bool  # the whole reply was seen (not cut by max_reply_bytes, not abandoned)


class ReplySink(Protocol):
    """Where replies go to be judged (``exporter.router.live.LiveJudges``): ``offer`` never blocks."""

    def offer(self, reply: Reply) -> bool: ...


@dataclass(slots=True)
class _Pending:
    """What is known of one request while its reply streams (filled on the caller's thread)."""

    model: str
    ignore: tuple[str, ...]
    stream: bool
    user_key: str | None
    conversation_key: str | None
    locale: str | None
    schema: Mapping[str, object] | None
    at: float  # unix time sent
    sent: float  # monotonic time sent
    status: int | None = None
    chunks: list[tuple[float, bytes]] = field(default_factory=list)
    size: int = 0
    cut: bool = False
    ended: float | None = None


@dataclass(frozen=True, slots=True)
class ObserverStats:
    observed: int  # replies processed by the background thread
    dropped: int  # replies not processed: the queue was full
    cut: int  # replies longer than max_reply_bytes (journaled, not judged)
    unparsed: int  # chat requests whose body could not be read (sent untouched, not journaled)


class Observer(StartStop):
    """Shared by every transport of a process: the background thread, the journal and the live sink
    (``with observer:`` starts and stops them)."""

    def __init__(
        self,
        journal: Journal | None = None,
        *,
        lists: IgnoreListClient | None = None,
        live: ReplySink | None = None,
        queue_size: int = DEFAULT_QUEUE_SIZE,
        max_reply_bytes: int = DEFAULT_MAX_REPLY_BYTES,
        route_metadata: bool = False,
        clock: Callable[[], float] = time.time,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.journal = journal
        self.lists = lists
        self.live = live
        self.max_reply_bytes = max_reply_bytes
        self.route_metadata = route_metadata
        self._clock = clock
        self._monotonic = monotonic
        self._queue: queue.Queue[_Pending | None] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()
        self._observed = self._dropped = self._cut = self._unparsed = 0
        self._thread: threading.Thread | None = None

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self) -> None:
        """Start the background thread (and the journal's)."""
        if self.journal is not None:
            self.journal.start()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="canary-observer", daemon=True)
            self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        thread, self._thread = self._thread, None
        if thread is not None:
            with contextlib.suppress(queue.Full):
                self._queue.put(None, timeout=timeout)
            thread.join(timeout)
        if self.journal is not None:
            self.journal.stop(timeout)

    def flush(self, timeout: float = 5.0) -> None:
        """Wait until every reply ended so far is processed and journaled (tests, orderly stops)."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.005)
        live_flush = getattr(self.live, "flush", None)  # judges in a process journal what they decode
        if live_flush is not None:
            live_flush(max(0.0, deadline - time.monotonic()))
        if self.journal is not None:
            self.journal.flush(max(0.0, deadline - time.monotonic()))

    def stats(self) -> ObserverStats:
        with self._lock:
            return ObserverStats(self._observed, self._dropped, self._cut, self._unparsed)

    # -- the caller's thread ----------------------------------------------------------------------------
    def prepare(self, request: httpx.Request) -> tuple[httpx.Request, _Pending | None]:
        """The request to send (ignore list merged, own headers removed) and what to observe of it."""
        if request.method != "POST" or not request.url.path.endswith("/chat/completions"):
            return request, None
        own = {name: request.headers.get(name) for name in _OWN_HEADERS}
        try:
            content = request.content
        except httpx.RequestNotRead:  # a streamed upload: not ours to buffer
            content = b""
        body = _json_object(content) if 0 < len(content) <= DEFAULT_MAX_BODY_BYTES else None
        model = body.get("model") if body is not None else None
        if body is None or not isinstance(model, str):
            with self._lock:
                self._unparsed += 1
            return _rewrite(request, None), None
        sent_body = body
        if self.lists is not None:
            sent_body = merge_ignore_tags(body, self.lists.ignored(model))
        provider = sent_body.get("provider")
        ignore = provider.get("ignore") if isinstance(provider, Mapping) else None
        journal = self.journal
        user = own[USER_HEADER] or (user_field if isinstance(user_field := body.get("user"), str) else None)
        pending = _Pending(
            model=model,
            ignore=tuple(t for t in ignore if isinstance(t, str)) if isinstance(ignore, list) else (),
            stream=body.get("stream") is True,
            user_key=journal.key(user) if journal is not None else None,
            conversation_key=journal.key(own[CONVERSATION_HEADER]) if journal is not None else None,
            locale=own[LOCALE_HEADER],
            schema=_schema(body.get("response_format")),
            at=self._clock(),
            sent=self._monotonic(),
        )
        request = _rewrite(request, sent_body if sent_body is not body else None)
        if self.route_metadata and METADATA_HEADER not in request.headers:
            request.headers[METADATA_HEADER] = "enabled"
        return request, pending

    def tap(self, pending: _Pending, chunk: bytes) -> None:
        """One chunk of the reply, as it reaches the caller (a reference and a time stamp; no parsing)."""
        if pending.cut:
            return
        pending.size += len(chunk)
        if pending.size > self.max_reply_bytes:
            pending.cut = True
            pending.chunks.clear()
            return
        pending.chunks.append((self._monotonic(), chunk))

    def end(self, pending: _Pending, status: int | None) -> None:
        """The reply ended (or no response came: ``status`` None): hand it to the background thread."""
        if pending.ended is not None:
            return
        pending.ended = self._monotonic()
        pending.status = status
        try:
            self._queue.put_nowait(pending)
        except queue.Full:
            with self._lock:
                self._dropped += 1
                dropped = self._dropped
            if dropped % _DROP_LOG_EVERY == 1:
                log.warning("router observer queue full: %d replies not journaled so far", dropped)

    # -- the background thread --------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            pending = self._queue.get()
            try:
                if pending is None:
                    return
                self._process(pending)
            except Exception:  # a bug here must never stop the thread; no content is in the message
                log.exception("router observer failed on one reply (model %s)", pending and pending.model)
            finally:
                self._queue.task_done()

    def _process(self, pending: _Pending) -> None:
        with self._lock:
            self._observed += 1
            self._cut += pending.cut
        journal_put = self.journal.put if self.journal is not None else _discard
        # Judges in their own process decode the reply there too: less work under this process's GIL.
        remote = getattr(self.live, "offer_pending", None)
        if remote is not None and remote(pending, journal_put):
            return
        served, reply = finish(pending)
        journal_put(served)
        if self.live is not None and reply is not None:
            self.live.offer(reply)


def _discard(_: Served) -> bool:
    return False


def finish(pending: _Pending) -> tuple[Served, Reply | None]:
    """A finished reply's journal record and, when a response came, the reply for the live judges."""
    acc, ttft = read_reply(pending)
    endpoint = acc.route.endpoint if acc.route is not None else None
    served = Served(
        at=pending.at,
        model=pending.model,
        ignore=pending.ignore,
        provider=acc.provider,
        endpoint=endpoint,
        generation_id=acc.generation_id,
        ttft_seconds=ttft,
        duration_seconds=None if pending.ended is None else pending.ended - pending.sent,
        finish_reason=acc.finish_reason,
        status=pending.status,
        user_key=pending.user_key,
        conversation_key=pending.conversation_key,
        stream=pending.stream,
    )
    if pending.status is None:
        return served, None
    reply = Reply(
        model=pending.model,
        provider=endpoint or acc.provider or "unknown",
        content="" if pending.cut else acc.content,
        finish_reason=acc.finish_reason,
        ttft_seconds=ttft,
        locale=pending.locale,
        schema=pending.schema,
        status=pending.status,
        error=pending.status >= 400 or acc.error is not None,
        complete=not pending.cut and (acc.finished or not pending.stream),
    )
    return served, reply


def read_reply(pending: _Pending) -> tuple[ChunkAccumulator, float | None]:
    """Decode a finished reply's chunks (SSE or one JSON body); the accumulator and the TTFT (the arrival
    of the chunk that carried the first visible token, minus the send time; streams only)."""
    acc = ChunkAccumulator()
    ttft: float | None = None
    if pending.stream:
        decoder = SSEDecoder()
        events = 0
        for arrived, chunk in pending.chunks:
            for event in decoder.feed(chunk):
                if _feed(event.kind, event.data, acc) and ttft is None:
                    ttft = max(0.0, arrived - pending.sent)
                events += 1
                if events % _YIELD_EVERY == 0:
                    time.sleep(0)  # hand the GIL to a waiting request thread: it never waits long for us
        for event in decoder.flush():
            _feed(event.kind, event.data, acc)
    else:
        whole = _json_object(b"".join(c for _, c in pending.chunks))
        if whole is not None:
            acc.feed(whole)
    pending.chunks.clear()
    return acc, ttft


def _feed(kind: SSEKind, data: str, acc: ChunkAccumulator) -> bool:
    if kind is not SSEKind.EVENT:
        return False
    if data.strip() == "[DONE]":
        acc.done = True
        return False
    chunk = _json_object(data)
    return acc.feed(chunk) if chunk is not None else False


def _json_object(raw: bytes | str) -> dict[str, object] | None:
    try:
        value = json.loads(raw)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def _schema(response_format: object) -> Mapping[str, object] | None:
    if not isinstance(response_format, Mapping) or response_format.get("type") != "json_schema":
        return None
    spec = response_format.get("json_schema")
    schema = spec.get("schema") if isinstance(spec, Mapping) else None
    return schema if isinstance(schema, Mapping) else None


def _rewrite(request: httpx.Request, body: dict[str, object] | None) -> httpx.Request:
    """``request`` without the X-Canary-* headers (removed in place) and, when given, with ``body``
    (re-encoded) as a new request's body."""
    for name in _OWN_HEADERS:
        if name in request.headers:
            del request.headers[name]
    if body is None:
        return request
    content = json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()
    headers = request.headers.copy()
    headers["Content-Length"] = str(len(content))
    return httpx.Request(
        request.method, request.url, headers=headers, stream=httpx.ByteStream(content),
        extensions=request.extensions,
    )  # fmt: skip


def _already_read(response: httpx.Response, observer: Observer, pending: _Pending) -> bool:
    """A response the inner transport returned with its body already read (an in-memory transport) is
    observed at once; a network response (not read yet) is observed as it streams."""
    try:
        content = response.content
    except httpx.ResponseNotRead:
        return False
    observer.tap(pending, content)
    observer.end(pending, response.status_code)
    return True


class _TapStream(httpx.SyncByteStream):
    def __init__(self, inner: httpx.SyncByteStream, observer: Observer, pending: _Pending, status: int):
        self._inner, self._observer, self._pending, self._status = inner, observer, pending, status

    def __iter__(self) -> Iterator[bytes]:
        for chunk in self._inner:
            self._observer.tap(self._pending, chunk)  # its arrival time and a reference: no parsing
            yield chunk
        self._observer.end(self._pending, self._status)

    def close(self) -> None:
        try:
            self._inner.close()
        finally:
            self._observer.end(self._pending, self._status)


class _AsyncTapStream(httpx.AsyncByteStream):
    def __init__(self, inner: httpx.AsyncByteStream, observer: Observer, pending: _Pending, status: int):
        self._inner, self._observer, self._pending, self._status = inner, observer, pending, status

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for chunk in self._inner:
            self._observer.tap(self._pending, chunk)
            yield chunk
        self._observer.end(self._pending, self._status)

    async def aclose(self) -> None:
        try:
            await self._inner.aclose()
        finally:
            self._observer.end(self._pending, self._status)


class CanaryTransport(httpx.BaseTransport):
    """An httpx transport around ``inner`` (default ``httpx.HTTPTransport()``) that the observer watches."""

    def __init__(self, observer: Observer, inner: httpx.BaseTransport | None = None) -> None:
        self.observer = observer
        self.inner = inner if inner is not None else httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        request, pending = self.observer.prepare(request)
        if pending is None:
            return self.inner.handle_request(request)
        try:
            response = self.inner.handle_request(request)
        except BaseException:
            self.observer.end(pending, None)
            raise
        if _already_read(response, self.observer, pending):
            return response
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _TapStream(response.stream, self.observer, pending, response.status_code)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncCanaryTransport(httpx.AsyncBaseTransport):
    """``CanaryTransport`` for ``httpx.AsyncClient`` (and ``openai.AsyncOpenAI``)."""

    def __init__(self, observer: Observer, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.observer = observer
        self.inner = inner if inner is not None else httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        request, pending = self.observer.prepare(request)
        if pending is None:
            return await self.inner.handle_async_request(request)
        try:
            response = await self.inner.handle_async_request(request)
        except BaseException:
            self.observer.end(pending, None)
            raise
        if _already_read(response, self.observer, pending):
            return response
        assert isinstance(response.stream, httpx.AsyncByteStream)
        response.stream = _AsyncTapStream(response.stream, self.observer, pending, response.status_code)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


def canary_http_client(observer: Observer, **kwargs: Any) -> httpx.Client:
    """An ``httpx.Client`` whose requests the observer watches (``http_client=`` of ``openai.OpenAI``);
    ``transport=`` in ``kwargs`` is the inner transport, the other arguments are httpx's."""
    inner = kwargs.pop("transport", None)
    kwargs.setdefault("timeout", httpx.Timeout(600.0, connect=5.0))
    observer.start()
    return httpx.Client(transport=CanaryTransport(observer, inner), **kwargs)


def canary_async_http_client(observer: Observer, **kwargs: Any) -> httpx.AsyncClient:
    """``canary_http_client`` for ``openai.AsyncOpenAI`` / ``httpx.AsyncClient``."""
    inner = kwargs.pop("transport", None)
    kwargs.setdefault("timeout", httpx.Timeout(600.0, connect=5.0))
    observer.start()
    return httpx.AsyncClient(transport=AsyncCanaryTransport(observer, inner), **kwargs)
