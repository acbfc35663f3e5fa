"""Shared helpers for the gateway tests: fixture paths, stream splitting and the garbage bodies."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.outcomes import Reason

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gateway"


def read_stream(name: str) -> bytes:
    return (FIXTURES / "streams" / name).read_bytes()


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES


#: Bodies no gateway should send, and the reason each is classified as: the classifier and the client (whose
#: ``max_body_bytes`` the tests set to 4096) must agree, never raise, and let the status decide.
GARBAGE: list[tuple[int, bytes, Reason]] = [
    (200, b"<html><body>Welcome to nginx!</body></html>", Reason.MALFORMED_RESPONSE),
    (200, b'{"choices": [{"index": 0, "message": {"content": "Hel', Reason.MALFORMED_RESPONSE),
    (200, b'["not", "an", "object"]', Reason.MALFORMED_RESPONSE),
    (200, b'{"object": "chat.completion"}', Reason.MALFORMED_RESPONSE),
    (200, b"x" * 5000, Reason.MALFORMED_RESPONSE),  # over the client's max_body_bytes
    (502, b"<html><h1>502 Bad Gateway</h1></html>", Reason.SERVER_ERROR),
    (503, b"", Reason.SERVER_ERROR),
    (429, b"not json at all", Reason.RATE_LIMITED),
    (504, b'{"error": {"code": 504, "mess', Reason.TIMEOUT),
    (500, b"\xff\xfe\x00garbage", Reason.SERVER_ERROR),
    (500, b"[" * 100_000, Reason.SERVER_ERROR),
    (500, b'{"error": null}', Reason.SERVER_ERROR),
    (500, b"[1, 2, 3]", Reason.SERVER_ERROR),
    (302, b"", Reason.MALFORMED_RESPONSE),
]
