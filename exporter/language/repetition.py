"""Degenerate repetition in a free-text reply: a token, an n-gram or a sentence looping.

A sampling loop is the one thing a serving stack produces that people do not write: ``the the the ...``
two hundred times, one sentence ten times over, ``and then and then ...``. Refrains, lists and short
repeated interjections (``No, no, no!``, a chorus sung three times, ``- apples\\n- pears``) are what
people do write, so every signal needs many repeats covering much of the reply:

- **token loop**: a unit of 1-``MAX_PERIOD`` tokens (words; each Chinese/Japanese/Korean character is a
  token) repeated back to back ``LOOP_MIN_REPEATS`` times or more, covering ``LOOP_MIN_TOKENS`` tokens
  and ``LOOP_MIN_SHARE`` of the reply's tokens;
- **sentence loop**: one sentence (``SENTENCE_MIN_LETTERS`` letters or more, compared case- and
  space-folded) said ``SENTENCE_MIN_REPEATS`` times or more, the copies covering ``SENTENCE_MIN_SHARE``
  of the reply;
- **compression**: a reply of ``COMPRESS_MIN_BYTES`` or more whose zlib-compressed size is under
  ``COMPRESS_MAX_RATIO`` of its UTF-8 size (long loops the two checks above cannot see: a 40-word unit,
  no punctuation). Human prose of that size compresses to 35-60 %.

Everything is one pass or a fixed number of passes over at most ``MAX_JUDGED_CHARS`` characters (the rest
of a longer reply is not judged; the token-loop check reads the first ``MAX_LOOP_TOKENS`` tokens): linear in
the reply's length and bounded whatever its length.

Example::

    >>> find_repetition("the " * 200).kind
    'token_loop'
    >>> find_repetition("No, no, no! I will not go back there, not after what happened.") is None
    True
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from dataclasses import dataclass

from exporter.language.segment import split_sentences
from exporter.textkit import clip

MAX_JUDGED_CHARS = 8_192  # characters of a reply the judges read (the probes ask for ~600)
MAX_LOOP_TOKENS = 4_096  # tokens the token-loop check reads: a loop long enough to matter shows by then
MAX_PERIOD = 8  # longest repeated unit, in tokens, the token-loop check looks for
LOOP_MIN_REPEATS = 6  # back-to-back repeats of the unit
LOOP_MIN_TOKENS = 24  # ... covering at least this many tokens
LOOP_MIN_SHARE = 0.25  # ... and this share of the reply's tokens
SENTENCE_MIN_LETTERS = 12  # a sentence shorter than this ("Run!", "No.") may repeat freely
SENTENCE_MIN_REPEATS = 4  # one sentence said this many times
SENTENCE_MIN_SHARE = 0.4  # ... its copies covering this share of the reply's characters
COMPRESS_MIN_BYTES = 400  # replies shorter than this are not judged by compression
COMPRESS_MAX_RATIO = 0.12  # compressed / raw UTF-8 size under which the reply is a loop

# A token: a run of letters/digits/apostrophes, one CJK character, or one other visible character.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff]|[^\W_]+(?:['’][^\W_]+)*|[^\w\s]")
_LETTER = re.compile(r"[^\W\d_]")
_SAMPLE_CHARS = 60
_Run = tuple[int, int, int]  # (covered tokens, period, end index)


@dataclass(frozen=True, slots=True)
class Repetition:
    """What loops: ``kind`` is ``token_loop``, ``sentence_loop`` or ``compression``."""

    kind: str
    unit: str  # the repeated unit (cut to 60 characters)
    repeats: int  # how many times it occurs (compression: 0)
    share: float  # share of the reply it covers (compression: compressed / raw size)

    def as_evidence(self) -> dict[str, object]:
        return {"kind": self.kind, "unit": self.unit, "repeats": self.repeats, "share": round(self.share, 3)}

    def describe(self) -> str:
        if self.kind == "compression":
            return f"the reply compresses to {self.share:.0%} of its size: a loop"
        return f"{self.unit!r} repeated {self.repeats} times ({self.share:.0%} of the reply)"


def find_repetition(text: str) -> Repetition | None:
    """The degenerate loop in ``text``, or None when its repetition is within what people write."""
    text = text[:MAX_JUDGED_CHARS]
    return _token_loop(text) or _sentence_loop(text) or _compression(text)


def _token_loop(text: str) -> Repetition | None:
    tokens = _TOKEN.findall(text.casefold())[:MAX_LOOP_TOKENS]
    if len(tokens) < LOOP_MIN_TOKENS:
        return None
    best: _Run | None = None
    needed = max(LOOP_MIN_TOKENS, LOOP_MIN_SHARE * len(tokens))  # tokens a loop must cover
    for period in range(1, MAX_PERIOD + 1):
        # A run covering ``needed`` tokens is at least ``step`` tokens equal to the one ``period`` before,
        # so it holds one of every ``step``-th position: only those are compared (prose: a few per period),
        # and the run through an equal one is walked. Every run that can pass the thresholds is found, and
        # the longest of them is the longest overall whenever that one can pass.
        step = max(1, math.ceil(needed) - period)  # >= 1 whatever the constants: the walk always advances
        i = period + step - 1
        while i < len(tokens):
            if tokens[i] != tokens[i - period]:
                i += step
                continue
            start, end = i, i + 1
            while start > period and tokens[start - 1] == tokens[start - 1 - period]:
                start -= 1
            while end < len(tokens) and tokens[end] == tokens[end - period]:
                end += 1
            best = _longer(best, end - start, period, end)
            i = end + step  # tokens[end] differs: the next run starts after it
    if best is None:
        return None
    covered, period, end = best
    repeats = covered // period
    if repeats < LOOP_MIN_REPEATS or covered < LOOP_MIN_TOKENS or covered < LOOP_MIN_SHARE * len(tokens):
        return None
    unit = " ".join(tokens[end - period : end])
    return Repetition("token_loop", clip(unit, _SAMPLE_CHARS), repeats, covered / len(tokens))


def _sentence_loop(text: str) -> Repetition | None:
    sentences = split_sentences(text)
    if len(sentences) < SENTENCE_MIN_REPEATS:
        return None
    keys = [" ".join(s.text.casefold().split()) for s in sentences]  # case- and space-folded
    counts = Counter(keys)
    lengths = {key: len(s.text) for key, s in zip(keys, sentences, strict=True)}
    # Only sentences said often enough are measured (letters counted); the rest cannot loop.
    looping = [(n, key) for key, n in counts.items() if n >= SENTENCE_MIN_REPEATS]
    looping = [(n, key) for n, key in looping if len(_LETTER.findall(key)) >= SENTENCE_MIN_LETTERS]
    if not looping:
        return None
    repeats, key = max(looping, key=lambda item: item[0])
    share = repeats * lengths[key] / max(1, len(text.strip()))
    if share < SENTENCE_MIN_SHARE:
        return None
    return Repetition("sentence_loop", clip(key, _SAMPLE_CHARS), repeats, share)


def _compression(text: str) -> Repetition | None:
    raw = text.encode("utf-8", errors="replace")
    if len(raw) < COMPRESS_MIN_BYTES:
        return None
    ratio = len(zlib.compress(raw, 6)) / len(raw)
    if ratio >= COMPRESS_MAX_RATIO:
        return None
    return Repetition("compression", clip(text.strip(), _SAMPLE_CHARS), 0, ratio)


def _longer(best: _Run | None, run: int, period: int, end: int) -> _Run | None:
    """Keep the longest run; ``run`` counts tokens equal to the one ``period`` before, so the unit's first
    occurrence adds ``period`` tokens to what it covers."""
    if run < period:  # not even one full repeat of the unit
        return best
    covered = run + period
    if best is None or covered > best[0]:
        return (covered, period, end)
    return best
