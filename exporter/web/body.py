"""The one bounded JSON body reader: a request body within a byte limit, decoded strictly.

Every refusal is a ``Rejected`` carrying the status, an error code, a message and ``path: what`` problems:
413 as soon as more than the limit arrives (never buffered), 415 unless ``Content-Type: application/json``,
400 for invalid UTF-8/JSON, ``NaN``/``Infinity``, integers beyond Python's 4300-digit limit, nesting too
deep, lone surrogate escapes (cannot be stored as UTF-8), and a client that hung up mid-body (quietly).
"""

from __future__ import annotations

import json
import math
import re
from typing import NoReturn

from pydantic import JsonValue
from starlette.requests import ClientDisconnect, Request

from exporter.textkit import clip

MAX_PROBLEM_CHARS = 512
MAX_PROBLEMS = 100


class Rejected(Exception):
    """A request refused with a 4xx: ``status``, ``error`` code, ``message``, ``problems``."""

    def __init__(self, status: int, error: str, message: str, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.status, self.error, self.message, self.problems = status, error, message, problems or []

    def body(self) -> dict[str, JsonValue]:
        """The error body; the message and each problem at most ``MAX_PROBLEM_CHARS`` (an echoed input is
        cut), at most ``MAX_PROBLEMS`` problems."""
        out: dict[str, JsonValue] = {"error": self.error, "message": clip(self.message, MAX_PROBLEM_CHARS)}
        if self.problems:
            shown = [clip(p, MAX_PROBLEM_CHARS) for p in self.problems[:MAX_PROBLEMS]]
            if len(self.problems) > MAX_PROBLEMS:
                shown.append(f"... and {len(self.problems) - MAX_PROBLEMS} more problems")
            out["problems"] = [*shown]
        return out


async def read_json(request: Request, limit: int) -> JsonValue:
    """The decoded JSON body of ``request`` (at most ``limit`` bytes), or ``Rejected``.

    Only ``application/json`` bodies are read (415 otherwise)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/json":
        raise Rejected(
            415,
            "unsupported_media_type",
            f"Content-Type must be application/json, got {media or 'none'!r}",
            ["<headers>.content-type: expected application/json"],
        )
    return decode_json(await read_bounded(request, limit))


async def read_bounded(request: Request, limit: int) -> bytes:
    """The body of ``request``, at most ``limit`` bytes, refused (413) as soon as more arrive: never buffered
    beyond the limit, whatever ``Content-Length`` says. A client that hangs up mid-body gets a quiet 400
    nobody reads (never a traceback)."""
    declared = request.headers.get("content-length")
    if declared is not None:
        if uint(declared) is None:
            raise Rejected(400, "bad_request", f"invalid Content-Length header {declared!r}")
        if int(declared) > limit:
            raise Rejected(413, "too_large", f"body of {declared} bytes exceeds the limit of {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise Rejected(413, "too_large", f"body exceeds the limit of {limit} bytes")
            chunks.append(chunk)
    except ClientDisconnect:
        message = "the client hung up before the body was complete"
        raise Rejected(400, "client_disconnected", message) from None
    return b"".join(chunks)


def decode_json(body: bytes) -> JsonValue:
    """Strict JSON from bytes (see the module docstring), or ``Rejected``."""
    if not body.strip():
        raise Rejected(400, "bad_request", "empty body: expected a JSON object", ["<body>: empty"])
    try:
        data: JsonValue = json.loads(body.decode("utf-8"), parse_constant=_no_constant, parse_float=_finite)
    except _NotFinite as exc:
        raise Rejected(
            400, "bad_request", "body has a number that is not finite", [f"<body>: {exc}"]
        ) from None
    except UnicodeDecodeError as exc:
        raise Rejected(
            400, "bad_request", "body is not UTF-8", [f"<body>: byte {exc.start}: not UTF-8"]
        ) from None
    except json.JSONDecodeError as exc:
        problem = f"<body>: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        raise Rejected(400, "bad_request", "body is not valid JSON (truncated?)", [problem]) from None
    except RecursionError:
        raise Rejected(
            400, "bad_request", "body is nested too deeply", ["<body>: nested too deeply"]
        ) from None
    except ValueError as exc:  # e.g. an integer of more than 4300 digits (int max_str_digits)
        raise Rejected(400, "bad_request", "body has a number too large", [f"<body>: {exc}"]) from None
    if _SURROGATE_ESCAPE.search(body) and (where := _unencodable(data)) is not None:
        problem = f"{where}: a lone surrogate escape (\\ud800-\\udfff) is not a character; cannot be stored"
        raise Rejected(400, "bad_request", "body has a string that is not valid Unicode", [problem])
    return data


class _NotFinite(ValueError):
    pass


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(f"{text[:40]} is not a finite number")
    return value


def _no_constant(name: str) -> NoReturn:
    raise _NotFinite(f"{name} is not a finite number (JSON has no NaN or Infinity)")


_SURROGATE_ESCAPE = re.compile(rb"\\[uU][dD][89abcdefABCDEF]")
_SURROGATE = re.compile("[\ud800-\udfff]")  # what UTF-8 cannot encode


def _unencodable(data: JsonValue) -> str | None:
    """The path of the first string (key or value) that cannot be encoded as UTF-8, else None."""
    stack: list[tuple[str, JsonValue]] = [("<body>", data)]
    while stack:
        where, value = stack.pop()
        if isinstance(value, str):
            if _SURROGATE.search(value):
                return where
        elif isinstance(value, dict):
            for key, item in value.items():
                path = f"{where}.{key}" if where != "<body>" else str(key)
                if _SURROGATE.search(key):
                    return f"{where} (a key)"
                stack.append((path, item))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item) for i, item in enumerate(value))
    return None


def uint(text: str) -> int | None:
    """A plain decimal of at most 18 ASCII digits, else None."""
    return int(text) if re.fullmatch(r"[0-9]{1,18}", text) else None
