"""Text shortened for people (reports, notes, error details): the one way a string is cut to a width, and
the one way a reply is cut to an excerpt of bounded UTF-8 bytes (``bounded_excerpt``)."""

from __future__ import annotations


def clip(text: str, width: int, *, flat: bool = False) -> str:
    """``text`` in at most ``width`` characters, ending in "…" where it was cut; ``flat`` first collapses
    every run of whitespace (newlines included) to one space.

    >>> clip("abcdef", 4), clip("abc", 4), clip("a \\n b", 9, flat=True)
    ('abc…', 'abc', 'a b')
    """
    if flat:
        text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


EXCERPT_MAX_BYTES = 1024


def bounded_excerpt(
    text: str, span: tuple[int, int] | None = None, max_bytes: int = EXCERPT_MAX_BYTES
) -> str:
    """The start of ``text`` and, when given and not already in it, the offending ``span``, in ``max_bytes``
    of UTF-8 at most (cut on character boundaries).

    >>> bounded_excerpt("a" * 2000) == "a" * 1024
    True
    >>> bounded_excerpt("Hello. " + "x" * 3000 + " ¿BAD?", span=(3008, 3014), max_bytes=40)
    'Hello. xxxxxxxxxxxxxxxxxxxxxx … ¿BAD?'
    """
    if len(text.encode()) <= max_bytes:
        return text
    if span is None or span[0] >= len(text) or span[1] <= span[0]:
        return _cut(text, max_bytes)
    offending = _cut(text[span[0] : span[1]], max_bytes // 2)
    head_bytes = max_bytes - len(offending.encode()) - len(" … ".encode())
    head = _cut(text, head_bytes)
    if span[0] < len(head):  # the span starts inside the head: the head alone shows it
        return _cut(text, max_bytes)
    return f"{head} … {offending}"


def _cut(text: str, max_bytes: int) -> str:
    return text.encode()[: max(0, max_bytes)].decode("utf-8", errors="ignore")
