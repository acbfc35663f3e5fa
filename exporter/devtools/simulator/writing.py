"""Responses the simulator writes over time: streams, slow completions and hangs, to absolute deadlines.

Everything about a served request is decided first (``Call``: route, plan, reply); the writers here only
send bytes at their instants. ``Timed`` is a raw ASGI response that runs a writer and stops it as soon as
the client disconnects; ``Writer`` sleeps to deadlines on the event loop clock, so the first content delta
of a stream leaves exactly ``ttft`` after the request arrived.

Example::

    return Timed(lambda w: write_stream(w, call, on_served))
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from starlette.responses import Response
from starlette.types import Message, Receive, Scope, Send

from exporter.devtools.simulator import wire
from exporter.devtools.simulator.fleet import Model, Provider
from exporter.devtools.simulator.profiles import Plan
from exporter.devtools.simulator.replies import Reply, Understood
from exporter.devtools.simulator.state import RequestRecord
from exporter.timestamps import format_rfc3339

_PIECE = re.compile(r"\s*\S+")
_PIECE_CHARS = 20
_DENSE_RUN = re.compile(r"[\u3000-\u30ff\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]{2,}")

# The last stretch before a deadline is spent yielding to the loop instead of in epoll (see sleep_until).
_SPIN_SECONDS = 0.0015


@dataclass(frozen=True, slots=True)
class Attempt:
    """A provider the gateway tried first and fell back from."""

    provider: Provider
    status: int
    latency_ms: int


@dataclass(frozen=True, slots=True)
class Call:
    """Everything decided about one successful chat request, before any byte is written."""

    gen_id: str
    model: Model
    provider: Provider
    understood: Understood
    plan: Plan
    reply: Reply
    rng: random.Random
    attempts: tuple[Attempt, ...]
    record: RequestRecord  # what GET /_sim/requests shows of this request; its arrival times
    metadata: bool = False  # the client sent X-OpenRouter-Metadata: enabled

    def chunk(
        self, delta: Mapping[str, object] | None, *finish: str | None, **extra: Any
    ) -> dict[str, object]:
        """A ``chat.completion.chunk`` of this call: ``wire.chunk`` with its id, model and provider."""
        return wire.chunk(
            self.gen_id, int(self.record.t), self.model.id, self.provider, delta, *finish, **extra
        )

    def router_metadata(self) -> dict[str, object]:
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


# Called once a reply was sent whole: (call, streamed, usage). The app keeps the generation record.
OnServed = Callable[[Call, bool, Mapping[str, object]], None]


def hang(
    t0: float, provider: Provider, stream: bool, model: str, created: int
) -> Callable[[Writer], Awaitable[None]]:
    """A request the provider never answers: a stalled stream, or a 524 after the hang."""
    stalled = provider.profile.timeout

    async def write(w: Writer) -> None:
        if stream and stalled.stage == "stream":
            await w.start(200, sse_headers(None))
            await w.send(wire.KEEPALIVE)
            role = wire.chunk("gen-stalled", created, model, provider, {"role": "assistant"})
            await w.send(wire.sse(role))
            await w.sleep_until(t0 + stalled.hang)
            return  # the stream just ends: no finish chunk, no [DONE]
        await w.sleep_until(t0 + stalled.hang)
        body, headers = wire.upstream_error(524, provider, model)
        await w.start(524, {"content-type": "application/json", **headers})
        await w.send(json.dumps(body).encode())

    return write


async def write_stream(w: Writer, call: Call, on_served: OnServed) -> None:
    profile, plan, reply, t0 = call.provider.profile, call.plan, call.reply, call.record.t_loop
    # Serialised before the deadlines, so sending is all that is left.
    events, first_content = stream_events(call)
    role = call.chunk({"role": "assistant", "content": ""})
    await w.start(200, sse_headers(call.gen_id))
    await w.send(wire.KEEPALIVE + wire.sse(role))
    keepalive = profile.keepalive
    next_keepalive = t0 + keepalive
    index = 0
    while index < len(events):
        next_keepalive = await w.wait_with_keepalive(t0 + events[index][0], next_keepalive, keepalive)
        # One write for every event already due: small writes cost a syscall each.
        due = w.now() - t0
        batch = [events[index][1]]
        index += 1
        while index < len(events) and events[index][0] <= due:
            batch.append(events[index][1])
            index += 1
        if index > first_content and call.record.first_token_loop is None:
            call.record.first_token_loop = w.now()
        await w.send(b"".join(batch))
    if plan.mid_stream_error:
        error = wire.mid_stream_error(call.provider, call.rng)
        tail = [wire.sse(call.chunk({"content": ""}, "error", "error", error=error))]
        if call.rng.random() < 0.5:
            tail.append(wire.DONE)
        await w.send(b"".join(tail))
        return
    finish = call.chunk({"role": "assistant", "content": ""}, reply.finish_reason, reply.native_finish_reason)
    usage = wire.usage(reply, call.understood.prompt_tokens, call.provider)
    usage_delta = None if call.rng.random() < 0.5 else {"role": "assistant", "content": ""}
    usage_event = call.chunk(usage_delta, usage=usage)
    if call.metadata:  # on the final chunk before [DONE], as the gateway sends it
        usage_event["openrouter_metadata"] = call.router_metadata()
    await w.send(wire.sse(finish) + wire.sse(usage_event) + wire.DONE)
    on_served(call, True, usage)


async def write_completion(w: Writer, call: Call, on_served: OnServed) -> None:
    plan, reply, t0 = call.plan, call.reply, call.record.t_loop
    parts = pieces(reply.content)
    done_at = t0 + plan.ttft + max(0, len(parts) - 1) * plan.inter_token
    keepalive = call.provider.profile.keepalive
    headers = {"content-type": "application/json", "x-generation-id": call.gen_id}
    if done_at - t0 > keepalive:
        # Slow answers start the body with newline heartbeats, as the gateway does.
        await w.start(200, headers)
        await w.wait_with_keepalive(done_at, t0 + keepalive, keepalive, beat=b"\n")
    else:
        await w.sleep_until(done_at)
        await w.start(200, headers)
    usage = wire.usage(reply, call.understood.prompt_tokens, call.provider)
    error = None
    if plan.mid_stream_error:
        error = wire.mid_stream_error(call.provider, call.rng)
        cut = max(1, int(len(parts) * 0.4))
        reply = replace(reply, content="".join(parts[:cut]))
    body = wire.completion(call.gen_id, int(call.record.t), call.model.id, call.provider, reply, usage, error)
    if call.metadata:
        body["openrouter_metadata"] = call.router_metadata()
    await w.send(json.dumps(body, ensure_ascii=False).encode())
    if error is None:
        on_served(call, False, usage)


def generation_record(
    call: Call, now: float, streamed: bool, usage: Mapping[str, object]
) -> dict[str, object]:
    """The body of ``GET /api/v1/generation?id=`` for a served call, as the gateway records it."""
    latency_ms = round((now - call.record.t) * 1000)
    responses = [_provider_response(a.provider, call.model, a.status, a.latency_ms) for a in call.attempts]
    responses.append(_provider_response(call.provider, call.model, 200, latency_ms))
    return {
        "id": call.gen_id,
        "upstream_id": f"up-{call.gen_id[4:]}",
        "total_cost": usage["cost"],
        "cache_discount": None,
        "upstream_inference_cost": usage["cost"],
        "created_at": format_rfc3339(call.record.t, "seconds"),
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


def _provider_response(provider: Provider, model: Model, status: int, latency_ms: int) -> dict[str, object]:
    return {
        "provider_name": provider.display_name,
        "status": status,
        "latency": latency_ms,
        "endpoint_id": f"ep-{provider.tag.replace('/', '-')}",
        "model_permaslug": model.id,
        "is_byok": False,
    }


def sse_headers(gen_id: str | None) -> dict[str, str]:
    headers = {"content-type": "text/event-stream", "cache-control": "no-cache", "x-accel-buffering": "no"}
    if gen_id is not None:
        headers["x-generation-id"] = gen_id
    return headers


def pieces(text: str) -> list[str]:
    """Stream pieces of a few tokens each, as hosts send them: words grouped up to 20 characters,
    CJK runs cut every 4 characters. Fewer, larger events keep 100 concurrent streams cheap.

    >>> pieces("The wind rose over the harbor tonight.")
    ['The wind rose over', ' the harbor tonight.']
    """
    words: list[str] = []
    for word in _PIECE.findall(text):
        if _DENSE_RUN.search(word):
            words.extend(word[i : i + 4] for i in range(0, len(word), 4))
        else:
            words.append(word)
    out: list[str] = []
    for word in words:
        if out and len(out[-1]) + len(word) <= _PIECE_CHARS and not _DENSE_RUN.search(word):
            out[-1] += word
        else:
            out.append(word)
    if text and not out:
        out = [text]
    elif out and text != "".join(out):
        out[-1] += text[len("".join(out)) :]  # trailing whitespace
    return out


def stream_events(call: Call) -> tuple[list[tuple[float, bytes]], int]:
    """(offset from arrival, SSE bytes) of every reasoning and content delta, in order; and the index of
    the first content delta."""
    plan, reply = call.plan, call.reply

    def event(delta: Mapping[str, object]) -> bytes:
        return wire.sse(call.chunk(delta))

    events: list[tuple[float, bytes]] = []
    reasoning = pieces(reply.reasoning)
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
    content = pieces(reply.content)
    if plan.mid_stream_error:
        content = content[: max(1, int(len(content) * 0.4))]
    for i, piece in enumerate(content):
        chunk = call.chunk(
            {"role": "assistant", "content": piece}, logprobs=wire.logprobs(reply) if i == 0 else None
        )
        events.append((plan.ttft + i * plan.inter_token, wire.sse(chunk)))
    return events, first_content


class Writer:
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

    async def wait_with_keepalive(
        self, deadline: float, next_keepalive: float, interval: float, beat: bytes = wire.KEEPALIVE
    ) -> float:
        """Sleep until ``deadline``, sending ``beat`` (by default an SSE comment) at each keep-alive time."""
        while next_keepalive < deadline:
            await self.sleep_until(next_keepalive)
            await self.send(beat)
            next_keepalive += interval
        await self.sleep_until(deadline)
        return next_keepalive


class Timed(Response):
    """A response written over time by a coroutine; it stops as soon as the client disconnects."""

    def __init__(self, write: Callable[[Writer], Awaitable[None]]) -> None:
        super().__init__()
        self._write = write

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        writer = Writer(send)
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
