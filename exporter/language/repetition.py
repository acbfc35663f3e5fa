"""Degenerate repetition in a free-text reply: a token, an n-gram or a sentence looping.

A sampling loop is the one thing a serving stack produces that people do not write: ``the the the ...``
two hundred times, one sentence ten times over, ``and then and then ...``. Refrains, lists and short
repeated interjections (``No, no, no!``, a chorus sung three times, ``- apples\\n- pears``) are what
people do write, so every signal needs many repeats covering much of the reply:

- **token loop**: a unit of 1-``MAX_PERIOD`` tokens (words; each Chinese/Japanese/Korean character is a
  token) with a word in it, repeated back to back ``LOOP_MIN_REPEATS`` times or more (a unit longer than
  ``SHORT_PERIOD`` tokens: ``LONG_MIN_REPEATS`` times; a chorus is sung three times in a row at most) and
  covering ``LOOP_MIN_TOKENS`` tokens, wherever it is in the reply (a loop that fills the last quarter counts
  as much as one that fills the whole reply; a rule of ``-`` or ``=`` is decoration, not a loop);
- **sentence loop**: one sentence (``SENTENCE_MIN_LETTERS`` letters or more, compared case- and
  space-folded) said ``SENTENCE_MIN_REPEATS`` times or more, the copies covering ``SENTENCE_MIN_SHARE``
  of the reply from the first copy on (the window the loop took over), or said ``SENTENCE_MANY`` times
  anywhere;
- **compression**: a reply, or its last quarter, of ``COMPRESS_MIN_BYTES`` or more whose zlib-compressed
  size is under ``COMPRESS_MAX_RATIO`` (``TAIL_MAX_RATIO`` for the last quarter) of its UTF-8 size (long
  loops the two checks above cannot see: a 40-word unit, no punctuation). Human prose of that size
  compresses to 35-60 %.

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
from itertools import accumulate
from operator import itemgetter

from exporter.language.segment import split_sentences
from exporter.textkit import clip

MAX_JUDGED_CHARS = 8_192  # characters of a reply the judges read (the probes ask for ~600)
MAX_LOOP_TOKENS = 4_096  # tokens the token-loop check reads: a loop long enough to matter shows by then
MAX_PERIOD = 64  # longest repeated unit, in tokens, the token-loop check looks for (a 50-word sentence)
SHORT_PERIOD = 16  # units up to this many tokens (a phrase, a CJK clause) ...
LOOP_MIN_REPEATS = 6  # ... loop when repeated back to back this many times
LONG_MIN_REPEATS = 4  # longer units when repeated back to back this many times (a chorus: 3 at most)
LOOP_MIN_TOKENS = 24  # ... covering at least this many tokens
SENTENCE_MIN_LETTERS = 12  # a sentence shorter than this ("Run!", "No.") may repeat freely
SENTENCE_MIN_REPEATS = 4  # one sentence said this many times
SENTENCE_MIN_SHARE = 0.4  # ... its copies covering this share of the reply from the first copy on
SENTENCE_MANY = 8  # or one sentence said this many times anywhere (a chorus is sung 3-6 times)
COMPRESS_MIN_BYTES = 400  # replies (or last quarters) shorter than this are not judged by compression
COMPRESS_MAX_RATIO = 0.12  # compressed / raw UTF-8 size under which the reply is a loop
TAIL_MAX_RATIO = 0.2  # ... and under which the reply's last quarter is one

# A token: a run of letters/digits/apostrophes, one CJK character, or one other visible character.
_CJK = "\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3\uf900-\ufaff"
_WORD_OR_MARK = r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]"
_TOKEN = re.compile(f"[{_CJK}]|{_WORD_OR_MARK}")
_HAS_CJK = re.compile(f"[{_CJK}]")
_WORD_NOT_CJK = re.compile(f"[^\\W{_CJK}]")  # a letter, digit or underscore outside the CJK blocks
_WORDS_OR_MARKS = re.compile(_WORD_OR_MARK)
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


def _plan(period: int) -> tuple[int, int, int]:
    """A period's tokens covered by a loop (``needed``) and the stride of the walk that finds one."""
    repeats_needed = LOOP_MIN_REPEATS if period <= SHORT_PERIOD else LONG_MIN_REPEATS
    needed = max(LOOP_MIN_TOKENS, repeats_needed * period)  # tokens a loop of this period covers
    step = max(1, math.ceil(needed) - period)  # >= 1 whatever the constants: the walk always advances
    return period, needed, step


_PLAN = tuple(_plan(period) for period in range(1, MAX_PERIOD + 1))


def find_repetition(text: str) -> Repetition | None:
    """The degenerate loop in ``text``, or None when its repetition is within what people write."""
    text = text[:MAX_JUDGED_CHARS]
    return _token_loop(text) or _sentence_loop(text) or _compression(text)


def tokenize(text: str) -> list[str]:
    """``text``'s tokens, casefolded: ``_TOKEN.findall(text.casefold())``, in half the time.

    No token spans whitespace (``str.split`` and the pattern's ``\\s`` are the same test), so the tokens
    are those of each whitespace-separated chunk in turn. Without a CJK character the pattern's first
    branch never matches, and a chunk of letters and digits only (``str.isalnum``, which is the pattern's
    ``[^\\W_]``) is one token whole; with one, a chunk with no letter, digit or underscore outside the CJK
    blocks is one token per character. Only the other chunks are searched."""
    folded = text.casefold()
    out: list[str] = []
    if _HAS_CJK.search(folded):
        for chunk in folded.split():
            if _WORD_NOT_CJK.search(chunk):
                out += _TOKEN.findall(chunk)
            else:
                out += chunk  # CJK characters and marks only: a token each
        return out
    for chunk in folded.split():
        if chunk.isalnum():
            out.append(chunk)
        else:
            out += _WORDS_OR_MARKS.findall(chunk)
    return out


def _token_loop(text: str) -> Repetition | None:
    tokens = tokenize(text)[:MAX_LOOP_TOKENS]
    count = len(tokens)  # asked in every step of the walks below: once (2 % of the screen and judge's time)
    if count < LOOP_MIN_TOKENS:
        return None
    best: _Run | None = None
    worded: list[int] | None = None
    for period, needed, step in _PLAN:
        # A run covering ``needed`` tokens is at least ``step`` tokens equal to the one ``period`` before,
        # so it holds one of every ``step``-th position: only those are compared (prose: a few per period),
        # and the run through an equal one is walked. Every run that passes the thresholds is found, and
        # the longest of them is kept.
        if needed > count:
            continue  # no loop of this period fits in the reply
        i = period + step - 1
        while i < count:
            # inside a run every ``period`` tokens are a turn of its unit: a unit with no word (a rule of
            # dashes, an ellipsis) is skipped without walking it
            if tokens[i] != tokens[i - period]:
                i += step
                continue
            if not tokens[i][0].isalpha():  # is there a word among this turn's tokens?
                if worded is None:  # words before each token, counted at the first such question
                    worded = list(accumulate(map(str.isalpha, map(itemgetter(0), tokens)), initial=0))
                if worded[i] == worded[i - period]:
                    i += step
                    continue
            start, end = i, i + 1
            while start > period and tokens[start - 1] == tokens[start - 1 - period]:
                start -= 1
            while end < count and tokens[end] == tokens[end - period]:
                end += 1
            covered = end - start + period  # the unit's first occurrence, then the tokens equal to it
            if covered >= needed:
                best = best if best is not None and best[0] >= covered else (covered, period, end)
            i = end + step  # tokens[end] differs: the next run starts after it
        if best is not None and best[0] >= count:
            break  # a loop over every token: a longer period can only tie
    if best is None:
        return None
    covered, period, end = best
    repeats = covered // period
    unit = " ".join(tokens[end - period : end])
    return Repetition("token_loop", clip(unit, _SAMPLE_CHARS), repeats, covered / count)


def _sentence_loop(text: str) -> Repetition | None:
    sentences = split_sentences(text)
    if len(sentences) < SENTENCE_MIN_REPEATS:
        return None
    keys = [" ".join(s.text.casefold().split()) for s in sentences]  # case- and space-folded
    if len(keys) - len(set(keys)) < SENTENCE_MIN_REPEATS - 1:
        return None  # no sentence is said that often (a set is 6x cheaper than counting)
    counts = Counter(keys)
    # Only sentences said often enough are measured (letters counted); the rest cannot loop.
    looping = [(n, key) for key, n in counts.items() if n >= SENTENCE_MIN_REPEATS]
    looping = [(n, key) for n, key in looping if len(_LETTER.findall(key)) >= SENTENCE_MIN_LETTERS]
    if not looping:
        return None
    lengths = {key: len(s.text) for key, s in zip(keys, sentences, strict=True)}
    firsts: dict[str, int] = {}
    for key, sentence in zip(keys, sentences, strict=True):
        firsts.setdefault(key, sentence.start)
    end = len(text.rstrip())
    found: Repetition | None = None
    for repeats, key in looping:
        # the window the loop took over: from its first copy to the end of the reply
        share = repeats * lengths[key] / max(1, end - firsts[key])
        if (share >= SENTENCE_MIN_SHARE or repeats >= SENTENCE_MANY) and (
            found is None or repeats > found.repeats
        ):
            found = Repetition("sentence_loop", clip(key, _SAMPLE_CHARS), repeats, min(1.0, share))
    return found


def _compression(text: str) -> Repetition | None:
    raw = text.encode("utf-8", errors="replace")
    if len(raw) < COMPRESS_MIN_BYTES:
        return None
    ratio = len(zlib.compress(raw, 6)) / len(raw)
    if ratio < COMPRESS_MAX_RATIO:
        return Repetition("compression", clip(text.strip(), _SAMPLE_CHARS), 0, ratio)
    tail = raw[-(len(raw) // 4) :]
    if len(tail) < COMPRESS_MIN_BYTES:
        return None
    ratio = len(zlib.compress(tail, 6)) / len(tail)
    if ratio >= TAIL_MAX_RATIO:
        return None
    sample = tail.decode("utf-8", errors="ignore").strip()
    return Repetition("compression", clip(sample, _SAMPLE_CHARS), 0, ratio)
