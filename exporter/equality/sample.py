"""One completion of one prompt, and what the equality test normalises away before comparing (pure).

The test asks whether hosts sample the same *model*; whitespace around a reply and the Unicode normal form
are serving details (a detokeniser's leading space, a template's trailing newline, NFD from one stack), not
the model. ``normalise`` removes them, and ``formatting`` says whether it had to, so the report can count
formatting differences per host on their own (a Fisher test), never as a distribution shift.

Control characters other than tab and newline (NUL included) become U+FFFD, so no reply can contain the
boundary symbols the n-gram scorer pads its contexts with.

    >>> normalise(" Caf\u0065\u0301\\n")
    'Café'
    >>> formatting(" Café"), formatting("Café")
    (True, False)
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
REPLACEMENT = "\ufffd"


@dataclass(frozen=True, slots=True)
class Sample:
    """One completion of one prompt."""

    prompt: str  # the prompt's id (the stratum)
    text: str


def normalise(text: str) -> str:
    """``text`` as the test compares it: NFC, surrounding whitespace stripped, control characters replaced."""
    return _CONTROL.sub(REPLACEMENT, unicodedata.normalize("NFC", text).strip())


def formatting(text: str) -> bool:
    """True when ``text`` has surrounding whitespace or is not in NFC (what ``normalise`` removes)."""
    return unicodedata.normalize("NFC", text).strip() != text
