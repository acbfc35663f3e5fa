"""Text shortened for people (reports, notes, error details): the one way a string is cut to a width, and
the one way a reply is cut to an excerpt of bounded UTF-8 bytes (``bounded_excerpt``)."""

from __future__ import annotations

import re


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


#: Characters that forge or reorder a line where text is shown: C0 and C1 controls, DEL, the Unicode line and
#: paragraph separators, and the bidirectional marks, embeddings, overrides and isolates (Trojan Source); as
#: the body of a regular-expression class, written with escapes so Python and JSON Schema read it alike.
CONTROL_CLASS = r"\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069"
CONTROL_CHARACTERS = re.compile(f"[{CONTROL_CLASS}]")
#: JSON Schema patterns: text without control characters, and such text with something other than blanks.
NO_CONTROLS_PATTERN = f"^[^{CONTROL_CLASS}]*$"
LABEL_PATTERN = f"^[^{CONTROL_CLASS}]*[^\\s{CONTROL_CLASS}][^{CONTROL_CLASS}]*$"


def control_problem(text: str) -> str | None:
    """What makes ``text`` unfit for an identifier or a reason (a control character, named with its
    position), else None.

    >>> control_problem("deepinfra/fp8"), control_problem("a\\nb")
    (None, 'a control character (U+000A) at position 1 is not allowed')
    """
    found = CONTROL_CHARACTERS.search(text)
    if found is None:
        return None
    return f"a control character (U+{ord(found.group()):04X}) at position {found.start()} is not allowed"


def escape_controls(text: str) -> str:
    """``text`` with each control character (``CONTROL_CHARACTERS``) written as its escape, so a log line
    stays one line and reads in order.

    >>> escape_controls("ok\\nFAKE ERROR\\u202e")
    'ok\\\\nFAKE ERROR\\\\u202e'
    """
    return CONTROL_CHARACTERS.sub(_escape, text)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    named = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}
    return named.get(char) or (f"\\x{ord(char):02x}" if ord(char) < 0x100 else f"\\u{ord(char):04x}")
