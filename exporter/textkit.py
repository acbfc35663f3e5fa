"""Text shortened for people (reports, notes, error details): the one way a string is cut to a width."""

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
