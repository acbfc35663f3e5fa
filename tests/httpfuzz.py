"""A seeded HTTP fuzzer for the canary's own services: hostile requests on every route, checked for 5xx and
for responses larger than the route's stated byte bound (issue 29).

Each service is a ``Target``: its ASGI app, its routes (method, path template with ``{param}`` parts, query
parameters, a sample JSON body), its tokens and the byte bound of each route's responses. ``fuzz`` sends
``count`` requests drawn by a seeded ``random.Random`` (so a failure is reproduced by its seed and index):
the route's method or another one, hostile path parameters and query values (Unicode digits, numbers past
2^63, control characters, bidi overrides, 5,000-character strings, malformed times and cursors, repeated
parameters), good, wrong and malformed bearer tokens, wrong content types, and bodies that are the
sample with one field replaced by a hostile value, a wrong type or deep nesting, or raw garbage. Requests go
in-process through ``httpx.ASGITransport``, so an exception the app does not handle is caught as a 500.

Example::

    report = asyncio.run(fuzz(target, count=1000, seed=29))
    assert not report.violations, report.violations[:5]
"""

from __future__ import annotations

import json
import random
import string
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from urllib.parse import quote

import httpx
from pydantic import JsonValue
from starlette.types import ASGIApp

ERROR_MAX_BYTES = 60 * 1024  # a 4xx body: the message and at most 100 problems of 512 characters
METHODS = ("GET", "POST", "DELETE", "PUT", "PATCH", "HEAD", "OPTIONS")

#: Values that broke, or could break, a parser: each is tried as a path part, query value and body field.
HOSTILE: tuple[str, ...] = (
    "", " ", "0", "-1", "1", "500", "501", "1000", "1001", "²", "١٠", "𝟗", "1e3", "0x10", "+5", " 5", "0005",
    str(2**63), str(2**64), "9" * 40, "NaN", "inf", "-inf", "null", "true",
    "\n", "a\nERROR forged", "\r\n", "\x00", "\x1b[31m", "\x7f", "\x85", "\u2028", "\u202e", "\u2066",
    "\ufeff",
    "a" * 5000, "é" * 2000, "🙂" * 300, "%", "%00", "../../etc/passwd", "m/x", "RC/Case2", "a/1", "b/1",
    "' OR 1=1 --", "<script>", "${jndi:x}", "2026-12-01T10:00:00Z", "9999-12-31T23:59:59Z",
    "0001-01-01T00:00:00Z", "1970-01-01T00:00:00+25:00", "2026-13-01T00:00:00Z", "1800000000",
    "MTAwMC4wOjk5OTk5OTk5OTk5OTk5OTk5OTk5", "MTAwMC4wOjE", "____", "inc-1", "inc-" + "9" * 30,
)  # fmt: skip
HOSTILE_JSON: tuple[JsonValue, ...] = (
    None, True, 0, -1, 2**63, 2**200, 1.5, 1e308, [], {}, [1, 2], {"a": "b"},
    "x" * 70_000, *[v for v in HOSTILE if isinstance(v, str)],
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Route:
    """One route: its methods, its path (``{name}`` parts are drawn), its query parameters, a valid body."""

    methods: tuple[str, ...]
    path: str
    params: tuple[str, ...] = ()
    body: Mapping[str, object] | None = None
    token: str | None = None  # the bearer token that authorises it


@dataclass(frozen=True, slots=True)
class Target:
    name: str
    app: ASGIApp
    routes: tuple[Route, ...]
    bound: Callable[[str, int], int]  # (path, status) -> the largest body the service states for it
    simulated: frozenset[int] = frozenset()  # 5xx statuses the service answers on purpose (the simulator's)


@dataclass(frozen=True, slots=True)
class Violation:
    index: int
    method: str
    url: str
    status: int
    size: int
    bound: int
    what: str


@dataclass(slots=True)
class FuzzReport:
    target: str
    seed: int
    sent: int = 0
    statuses: Counter[int] = field(default_factory=Counter)
    by_route: Counter[str] = field(default_factory=Counter)
    largest: int = 0
    violations: list[Violation] = field(default_factory=list)


def _text(rng: random.Random) -> str:
    """A random string: printable ASCII, or any code points outside the surrogates."""
    size = rng.choice((1, 3, 10, 60, 300))
    if rng.random() < 0.5:
        return "".join(rng.choice(string.printable) for _ in range(size))
    points = [rng.randrange(0x20, 0x2FFFF) for _ in range(size)]
    return "".join(chr(p) for p in points if not 0xD800 <= p <= 0xDFFF)


def _value(rng: random.Random) -> str:
    return str(rng.choice(HOSTILE)) if rng.random() < 0.75 else _text(rng)


def _path(rng: random.Random, template: str) -> str:
    out = []
    for part in template.split("/"):
        if part.startswith("{") and part.endswith("}"):
            out.append(quote(_value(rng), safe="") or "x")
        else:
            out.append(part)
    return "/".join(out)


def _query(rng: random.Random, params: Sequence[str]) -> list[tuple[str, str]]:
    names = [*params, "unknown", "limit", "cursor"] if params else ["x", "limit"]
    chosen = [(rng.choice(names), _value(rng)) for _ in range(rng.choice((0, 1, 1, 2, 3)))]
    if chosen and rng.random() < 0.1:
        chosen.append(chosen[0])  # a repeated parameter
    return chosen


class _Raw(bytes):
    """A body sent as these bytes (what ``json.dumps`` cannot write: nesting past the recursion limit)."""


def _mutated(rng: random.Random, body: Mapping[str, object]) -> object:
    roll = rng.random()
    if roll < 0.1:
        return body
    if roll < 0.2:
        depth = rng.choice((10, 100, 5000))
        return _Raw(b'{"deep": ' + b"[" * depth + b"1" + b"]" * depth + b"}")
    if roll < 0.3:
        return rng.choice(HOSTILE_JSON)
    changed = json.loads(json.dumps(body))
    _mutate_in(rng, changed)
    return changed


def _mutate_in(rng: random.Random, node: dict[str, object] | list[object]) -> None:
    """Replace one field somewhere in ``node`` (a dict or list) by a hostile value, or drop it."""
    while node:
        if isinstance(node, dict):
            key = rng.choice(list(node))
            child = node[key]
        else:
            index = rng.choice(range(len(node)))
            child = node[index]
        if isinstance(child, dict | list) and child and rng.random() < 0.7:
            node = child
            continue
        if isinstance(node, dict) and rng.random() < 0.15:
            del node[key]
        elif isinstance(node, dict):
            node[key] = rng.choice(HOSTILE_JSON)
        else:
            node[index] = rng.choice(HOSTILE_JSON)
        return


def _headers(rng: random.Random, route: Route) -> dict[bytes, bytes]:
    """Header values as bytes: a client may send any, UTF-8 included."""
    headers: dict[bytes, bytes] = {}
    roll = rng.random()
    if route.token is not None and roll < 0.6:
        headers[b"Authorization"] = f"Bearer {route.token}".encode()
    elif roll < 0.8:
        wrong = ("Bearer", "Bearer ", "Bearer wrong", "Basic eDp5", "bearer " + "x" * 5000, "Bearer \u00e9")
        headers[b"Authorization"] = rng.choice(wrong).encode()
    types = ("application/json",) * 6 + ("text/plain", "application/json; charset=latin1", "", "a/b")
    headers[b"Content-Type"] = rng.choice(types).encode()
    if rng.random() < 0.1:
        headers[b"If-None-Match"] = rng.choice(('"x"', "*", 'W/"a"', "a" * 3000, "\u00e9")).encode()
    return headers


def _body(rng: random.Random, route: Route, method: str) -> bytes | None:
    if method not in ("POST", "PUT", "PATCH", "DELETE"):
        return None
    if route.body is None or rng.random() < 0.15:
        return rng.choice((b"", b"{", b"\xff\xfe", b"[]" * 10, b'{"a": NaN}', b'"\\ud800"', b"1" * 5000))
    body = _mutated(rng, route.body)
    return body if isinstance(body, _Raw) else json.dumps(body, ensure_ascii=rng.random() < 0.5).encode()


async def fuzz(target: Target, count: int, seed: int) -> FuzzReport:
    """Send ``count`` requests to ``target`` (see the module docstring); every 5xx, unhandled exception or
    response over its bound is a ``Violation``."""
    rng = random.Random(f"{target.name}:{seed}")
    report = FuzzReport(target.name, seed)
    transport = httpx.ASGITransport(app=target.app)
    async with httpx.AsyncClient(transport=transport, base_url="http://fuzz.test", timeout=60) as client:
        for index in range(count):
            route = rng.choice(target.routes)
            method = rng.choice(route.methods) if rng.random() < 0.9 else rng.choice(METHODS)
            path = _path(rng, route.path) if rng.random() < 0.97 else "/" + quote(_text(rng))
            query = _query(rng, route.params)
            headers = _headers(rng, route)
            content = _body(rng, route, method)
            url = path + (
                "?" + "&".join(f"{quote(k)}={quote(v, safe='')}" for k, v in query) if query else ""
            )
            report.sent += 1
            report.by_route[f"{method} {route.path}"] += 1
            try:
                response = await client.request(method, url, headers=headers, content=content)
            except Exception as exc:
                report.statuses[500] += 1
                report.violations.append(Violation(index, method, url[:300], 500, 0, 0, repr(exc)[:300]))
                continue
            size, status = len(response.content), response.status_code
            report.statuses[status] += 1
            report.largest = max(report.largest, size)
            bound = target.bound(path, status)
            if status in target.simulated:
                continue
            if status >= 500 and status != 503:
                what = response.text[:300]
            elif status == 503 and "error" not in response.text and "status" not in response.text:
                what = "a 503 without a reason"
            elif size > bound:
                what = f"{size} bytes over the bound of {bound}"
            else:
                continue
            report.violations.append(Violation(index, method, url[:300], status, size, bound, what))
    return report
