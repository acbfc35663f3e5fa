"""The one bearer-token check: ``Authorization: Bearer <token>``, compared in constant time as bytes."""

from __future__ import annotations

import hmac


def token_bytes(token: str) -> bytes:
    """A configured token as the bytes a client sends (UTF-8; undecodable file bytes kept as they were)."""
    return token.encode("utf-8", "surrogateescape")


def bearer_ok(header: str | None, token: bytes) -> bool:
    """Whether ``header`` (the Authorization value) carries ``token``.

    Header values arrive decoded as Latin-1, so encoding back gives the bytes the client sent: a non-ASCII
    token (sent as UTF-8) compares as bytes, in constant time, never as str.

    >>> bearer_ok("Bearer s3cr\\u00c3\\u00a9t", token_bytes("s3cr\\u00e9t")), bearer_ok("Basic x", b"x")
    (True, False)
    """
    if not header:
        return False
    scheme, _, given = header.partition(" ")
    if scheme.lower() != "bearer" or not given.strip():
        return False
    return hmac.compare_digest(given.strip().encode("latin-1", "replace"), token)
