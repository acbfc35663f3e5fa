"""The one ETag helper: a strong ETag of a representation, and whether ``If-None-Match`` matches it."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable

# One entity tag of a list: optional weak prefix, then a quoted opaque tag (which may contain commas).
_ENTITY_TAG = re.compile(r'[\s,]*(?:W/)?("[^"]*")\s*(?:,|$)')  # empty list elements are allowed


def etag_matches(header: str | None, etag: str) -> bool:
    """True when ``If-None-Match: header`` matches ``etag`` (RFC 9110 §13.1.2: weak comparison).

    ``*`` matches any current representation; ``W/`` prefixes are ignored on both sides; a list matches
    when any member does; a malformed header (or a malformed member) matches nothing, so the client simply
    gets the full answer.

    Example::

        >>> etag_matches('W/"abc"', '"abc"'), etag_matches('"x", "abc"', 'W/"abc"'), etag_matches("*", '"a"')
        (True, True, True)
        >>> etag_matches('"abcd"', '"abc"'), etag_matches("abc", '"abc"'), etag_matches(None, '"abc"')
        (False, False, False)
    """
    if header is None:
        return False
    text = header.strip().strip(",").strip()
    if text == "*":
        return True
    wanted = etag.strip().removeprefix("W/")
    position = 0
    while position < len(text):
        match = _ENTITY_TAG.match(text, position)
        if match is None:
            return False  # not a list of entity tags
        if match.group(1) == wanted:
            return True
        position = match.end()
    return False


def etag_of(parts: Iterable[bytes]) -> str:
    """A strong, quoted ETag of the bytes of a representation (SHA-256, 128 bits as hex).

    >>> etag_of([b"{}"]) == etag_of([b"{", b"}"]), len(etag_of([]))
    (True, 34)
    """
    digest = hashlib.sha256()
    for part in parts:
        digest.update(part)
    return f'"{digest.hexdigest()[:32]}"'
