"""One routability pass: list the catalogue, then probe every target sequentially, paced, one row at a time.

Targets are the gateway's active chat models (filtered), the configured extra models and direct routes, and,
when a gateway is configured, every model that already has a row (listed or not: a delisted model is asked
again, so it gets an honest status instead of keeping its last one). A target listed on the gateway is probed
there; otherwise through its direct route; otherwise through the gateway if there is one; otherwise it is
skipped (counted, and shown as ``unknown`` if it was never observed). Every request of a pass (catalogue,
endpoint listing, completion) waits for the shared ``Pacer``: the gateway never sees a burst above the pace.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from urllib.parse import quote

from exporter.configkit import is_number
from exporter.gateway.config import GatewayConfig
from exporter.routability.catalogue import CatalogueModel, catalogue_models, listed_signal
from exporter.routability.classify import classify_network, classify_reply, missing_key
from exporter.routability.config import DirectRoute, RoutabilityConfig
from exporter.routability.model import (
    PassSummary,
    RoutabilityRow,
    Source,
    Status,
    Verdict,
    note_listed,
    observe,
)
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpReply, JsonTransport

log = logging.getLogger("exporter.routability")

PROBE_PROMPT = "Reply with OK."
_CATALOGUE_META = "catalogue"
LAST_PASS_META = "last_pass"
BACKOFF_BASE_SECONDS = 2.0
BACKOFF_MAX_SECONDS = 300.0


class Pacer:
    """Spaces request starts at least ``pace`` seconds apart (monotonic clock; shared across passes).

    Example::

        pacer = Pacer(2.0)
        await pacer.wait()   # immediately
        await pacer.wait()   # two seconds later
    """

    def __init__(
        self,
        pace: float,
        *,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.pace = pace
        self._clock = clock
        self._sleep = sleep
        self._next: float | None = None
        self._backoff = 0.0

    async def wait(self) -> None:
        now = self._clock()
        while self._next is not None and now < self._next:
            await self._sleep(self._next - now)
            now = self._clock()
        self._next = now + self.pace

    def back_off(self, reply: HttpReply) -> float:
        """After a 429: hold the next request for the reply's ``Retry-After``, else an exponential backoff
        (2 s doubling per consecutive 429, at most 5 min); any other reply resets it. Returns the hold."""
        if reply.status != 429:
            self._backoff = 0.0
            return 0.0
        self._backoff = min(max(self._backoff * 2, BACKOFF_BASE_SECONDS), BACKOFF_MAX_SECONDS)
        hold = min(reply.retry_after, BACKOFF_MAX_SECONDS) if reply.retry_after is not None else self._backoff
        earliest = self._clock() + hold
        self._next = earliest if self._next is None else max(self._next, earliest)
        log.info("routability rate limited: holding the next request %.1fs", hold)
        return hold


ProbeCallback = Callable[[str, Source, Verdict], None]


async def run_pass(
    store: RoutabilityStore,
    transport: JsonTransport,
    gateway: GatewayConfig | None,
    settings: RoutabilityConfig,
    *,
    pacer: Pacer | None = None,
    wall_clock: Callable[[], float] = time.time,
    on_probe: ProbeCallback | None = None,
) -> PassSummary:
    """Run one full pass and return its aggregate counts; every observation is stored as it is made.

    Example::

        gateway = GatewayConfig(base_url=url, api_key=key)
        summary = await run_pass(store, HttpxTransport(), gateway, RoutabilityConfig())
        summary.results   # {"healthy": 480, "degraded": 15, "unavailable": 5}
    """
    pacer = pacer or Pacer(settings.pace)
    started = wall_clock()
    listed = await _list_catalogue(store, transport, gateway, settings, pacer, wall_clock)
    catalogue = {m.slug: m for m in (listed if listed is not None else _stored_catalogue(store))}
    # With a gateway, rows already known are probed again even when no longer active (e.g. now expired) or
    # no longer listed at all (delisting is how models are removed): the execution endpoint then says so
    # explicitly, and a router learns that a model it may still use has gone instead of keeping yesterday's
    # ``healthy``. Without a gateway there is nothing to ask about them, and they are left as they are.
    known = set(store.rows()) if gateway is not None else set()
    active = {slug for slug, m in catalogue.items() if m.active}
    targets = sorted(active | known | set(settings.models) | set(settings.direct_routes))

    results: dict[str, int] = {}
    probed = skipped = 0
    tokens, cost = (0, 0), 0.0
    for slug in targets:
        row = store.get(slug) or RoutabilityRow(slug)
        listed_now = slug in catalogue
        if gateway is not None and (listed_now or slug not in settings.direct_routes):
            # Listed, or not listed and no direct route: the gateway's execution endpoint gives the answer
            # (an unlisted model is probed without reasoning parameters, since none are listed for it).
            source = Source.GATEWAY
            if settings.listed_signal:
                row = await _refresh_listed(row, transport, gateway, pacer, wall_clock)
            model = catalogue[slug] if listed_now else CatalogueModel(slug, reasoning=False, active=False)
            effort = settings.reasoning_effort if model.reasoning else None
            verdict, reply = await _probe(gateway, slug, effort, settings.max_tokens, transport, pacer)
        elif slug in settings.direct_routes:
            source = Source.DIRECT
            route = settings.direct_routes[slug]
            effort = route.reasoning_effort
            verdict, reply = await _probe(
                route, route.model or slug, effort, settings.max_tokens, transport, pacer
            )
        else:
            skipped += 1
            if row.status is Status.UNKNOWN and row.note != SKIPPED_NOTE:
                store.put(replace(row, note=SKIPPED_NOTE))
            log.info("routability target skipped model=%s", slug)
            continue
        probed += 1
        spent = spend(reply)
        tokens = (tokens[0] + spent[0], tokens[1] + spent[1])
        cost += spent[2]
        results[verdict.status.value] = results.get(verdict.status.value, 0) + 1
        store.put(observe(row, verdict, source, wall_clock()))
        log.info(
            "routability probe model=%s source=%s status=%s reason=%s http_status=%s note=%r",
            slug, source.value, verdict.status.value, verdict.reason.value, verdict.http_status, verdict.note,
        )  # fmt: skip
        if on_probe is not None:
            on_probe(slug, source, verdict)

    summary = PassSummary(
        started, wall_clock(), probed, skipped, results, listed is not None, tokens[0], tokens[1], cost
    )
    store.set_meta(LAST_PASS_META, json.dumps(summary.to_json()))
    return summary


async def _list_catalogue(
    store: RoutabilityStore,
    transport: JsonTransport,
    gateway: GatewayConfig | None,
    settings: RoutabilityConfig,
    pacer: Pacer,
    wall_clock: Callable[[], float],
) -> list[CatalogueModel] | None:
    """Every model listed now (stored for the next pass), or None if the listing failed."""
    if gateway is None:
        return []
    await pacer.wait()
    reply = await transport.request("GET", f"{gateway.base_url.rstrip('/')}/models", gateway.api_key)
    pacer.back_off(reply)
    listed = None
    if reply.status == 200:
        listed = catalogue_models(reply.body, wall_clock(), settings.catalogue_filter)
    if listed is None:
        log.warning(
            "routability catalogue listing failed; reusing the last one status=%s failure=%s detail=%r",
            reply.status, reply.failure, reply.detail,
        )  # fmt: skip
        return None
    store.set_meta(_CATALOGUE_META, json.dumps([[m.slug, m.reasoning, m.active] for m in listed]))
    return listed


def last_pass(store: RoutabilityStore) -> dict[str, object] | None:
    """The aggregate counts of the last completed pass, as stored (None before the first pass)."""
    text = store.meta(LAST_PASS_META)
    if text is None:
        return None
    value = json.loads(text)
    return value if isinstance(value, dict) else None


def last_pass_finished(store: RoutabilityStore) -> float | None:
    """When the last completed pass finished (None before the first pass): what the schedule counts from."""
    finished = (last_pass(store) or {}).get("finished_at")
    return float(finished) if isinstance(finished, int | float) else None


def probe_body(model: str, max_tokens: int, reasoning: dict[str, object] | None) -> dict[str, object]:
    """The minimal completion: "Reply with OK." with a small max_tokens (16 by default, never 1: reasoning
    models fail on 1) and, where supported, a low reasoning effort so the budget is not spent thinking.

    Example::

        >>> probe_body("a/b", 16, None)["messages"]
        [{'role': 'user', 'content': 'Reply with OK.'}]
    """
    body: dict[str, object] = {
        "model": model,
        "messages": [{"role": "user", "content": PROBE_PROMPT}],
        "max_tokens": max_tokens,
        "temperature": 0,
        "stream": False,
    }
    if reasoning:
        body.update(reasoning)
    return body


async def _probe(
    to: GatewayConfig | DirectRoute,
    model: str,
    effort: str | None,
    max_tokens: int,
    transport: JsonTransport,
    pacer: Pacer,
) -> tuple[Verdict, HttpReply | None]:
    """One paced minimal completion of ``model`` at ``to`` (the gateway or a direct route), classified.
    ``effort`` is asked as OpenRouter's ``reasoning`` object there, else as ``reasoning_effort``."""
    source = Source.GATEWAY if isinstance(to, GatewayConfig) else Source.DIRECT
    if isinstance(to, GatewayConfig) and to.api_key is None:
        return missing_key(), None
    reasoning: dict[str, object] | None = None
    if effort:
        openrouter = isinstance(to, GatewayConfig) and to.kind == "openrouter"
        reasoning = {"reasoning": {"effort": effort}} if openrouter else {"reasoning_effort": effort}
    await pacer.wait()
    body = probe_body(model, max_tokens, reasoning)
    reply = await transport.request("POST", f"{to.base_url.rstrip('/')}/chat/completions", to.api_key, body)
    pacer.back_off(reply)
    if reply.status is None:  # no HTTP reply at all
        return classify_network(reply.failure or "network", reply.detail), reply
    return classify_reply(reply.status, reply.body, source), reply


async def _refresh_listed(
    row: RoutabilityRow,
    transport: JsonTransport,
    gateway: GatewayConfig,
    pacer: Pacer,
    wall_clock: Callable[[], float],
) -> RoutabilityRow:
    await pacer.wait()
    url = f"{gateway.base_url.rstrip('/')}/models/{quote(row.slug, safe='/:')}/endpoints"
    reply = await transport.request("GET", url, gateway.api_key)
    pacer.back_off(reply)
    signal = listed_signal(reply.body, wall_clock()) if reply.status == 200 else None
    return note_listed(row, signal) if signal is not None else row  # a failed listing keeps the last one


def spend(reply: HttpReply | None) -> tuple[int, int, float]:
    """(prompt tokens, completion tokens, cost in USD) a completion reply reports in ``usage`` (zeros when
    it reports none: errors are usually free, zero-completion insurance).

    >>> spend(HttpReply(200, {"usage": {"prompt_tokens": 9, "completion_tokens": 2, "cost": 0.00001}}))
    (9, 2, 1e-05)
    """
    body = reply.body if reply is not None else None
    usage = body.get("usage") if isinstance(body, dict) else None
    if not isinstance(usage, dict):
        return 0, 0, 0.0

    def number(key: str) -> float:  # a count or a cost: finite and not negative, else nothing was reported
        return float(value) if is_number(value := usage.get(key)) and value >= 0 else 0.0

    return int(number("prompt_tokens")), int(number("completion_tokens")), number("cost")


SKIPPED_NOTE = "skipped: no gateway and no direct route configured"


def _stored_catalogue(store: RoutabilityStore) -> list[CatalogueModel]:
    text = store.meta(_CATALOGUE_META)
    if text is None:
        return []
    try:
        items = json.loads(text)
        return [CatalogueModel(str(i[0]), bool(i[1]), bool(i[2]) if len(i) > 2 else True) for i in items]
    except (ValueError, TypeError, IndexError, KeyError):
        log.warning("routability stored catalogue is unreadable; treating it as empty")
        return []
