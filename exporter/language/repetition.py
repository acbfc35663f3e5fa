"""Degenerate repetition in a free-text reply: a token, an n-gram or a sentence looping.

A sampling loop is the one thing a serving stack produces that people do not write: ``the the the ...``
two hundred times, one sentence ten times over, ``and then and then ...``. Refrains, lists and short
repeated interjections (``No, no, no!``, a chorus sung three times, ``- apples\\n- pears``) are what
people do write, so every signal needs many repeats covering much of the reply:

- **token loop**: a unit of 1-``MAX_PERIOD`` tokens (words; each Chinese/Japanese/Korean character is a
  token) with a word in it, repeated back to back ``LOOP_MIN_REPEATS`` times or more (a unit longer than
  ``SHORT_PERIOD`` tokens: ``LONG_MIN_REPEATS`` times; a chorus is sung three times in a row at most) and
  covering ``LOOP_MIN_TOKENS`` tokens, wherever it is in the reply (a loop that fills the last quarter counts
  as much as one that fills the whole reply; a rule of ``-`` or ``=`` is decoration, not a loop), unless the
  reply leaves it (``_leaves``: as many tokens or more follow it, and the reply's last sentence, after it, is
  finished and says a word the unit does not: ``hubub, hubub, …`` said for effect, and the story goes on);
- **sentence loop**: one sentence (``SENTENCE_MIN_LETTERS`` letters or more, compared case- and
  space-folded) said ``SENTENCE_MIN_REPEATS`` times or more, the copies covering ``SENTENCE_MIN_SHARE``
  of the reply from the first copy on (the window the loop took over), unless it is a refrain (every
  copy a line of its own, and new lines said after the second copy: it comes back between new verses), a
  line said again for effect that the reply leaves (``_left_copies``, the token loop's test) or
  repeated after a different item each time (documentation: an instruction after each field, a menu path
  before each of its items; ``_new_between_copies``), or said ``SENTENCE_MANY`` times anywhere (unless
  every stretch between its copies is new and ``ITEMS_MIN_NEW`` times as long as they: said after each
  item of a list, an attribution after each quotation; or the stretches are the items of one list, each
  written on the template of the one before, most naming a new value: ``_list_items``);
- **flood**: ``FLOOD_MIN_MARKS`` marks in a row (``!!!!``, ``。。。。``, ``~~~~``, emoji) that are not a
  divider line (dashes, rules, a table's ``|---|``) or ``FLOOD_MIN_SPACE`` whitespace characters in a row
  in the last ``FLOOD_TAIL`` characters, or a word of ``FLOOD_MIN_WORD`` letters or more made of one 1-3
  letter unit (``hahaha…``, ``ㅋㅋㅋ…``);
- **near-copy loop** (``near_loop``): near-copies that run to the end of the reply (a phrase with a word
  dropped, doubled or swapped, a counter that changes, two or three sentences taking turns): in the
  stretch of the last ``ECHO_MIN_WORDS`` to ``ECHO_WINDOW`` words, ``ECHO_MIN_SHARE`` of the pairs of
  neighbouring words occur earlier in the stretch, unless the stretch keeps saying new things (a template
  naming new items or new pairings of them, a last finished sentence the copies never said: ``_says_new``);
- **compression**: a reply, or its last quarter, of ``COMPRESS_MIN_BYTES`` or more whose zlib-compressed
  size is under ``COMPRESS_MAX_RATIO`` (``TAIL_MAX_RATIO`` for the last quarter) of its UTF-8 size (long
  loops the checks above cannot see: a 40-word unit, no punctuation). Human prose of that size
  compresses to 35-60 %. The last quarter must also compress under ``TAIL_HEAD_MAX_RATIO`` of the first
  quarter's ratio (repetitive documentation is repetitive throughout; a loop is more so than what came
  before it), and the second half of what is judged (the reply, its last quarter) must bring fewer than
  ``ECHO_MIN_NEW`` words its first half lacks (a template names new values, a loop says nothing new).

A loop runs to the end of the reply (a sampler that falls into one rarely climbs out), so the judges read
the last ``MAX_JUDGED_CHARS`` characters of a longer reply, and the token-loop check its last
``MAX_LOOP_TOKENS`` tokens. Everything is one pass or a fixed number of passes over them: linear in the
reply's length and bounded whatever its length.

Example::

    >>> find_repetition("the " * 200).kind
    'token_loop'
    >>> find_repetition("No, no, no! I will not go back there, not after what happened.") is None
    True
"""

from __future__ import annotations

import math
import re
import unicodedata
import zlib
from collections import Counter
from dataclasses import dataclass
from itertools import accumulate, pairwise
from operator import itemgetter

from exporter.language.scripts import CJK_LETTERS
from exporter.language.segment import Sentence, split_sentences
from exporter.language.truncation import LIST_ITEM
from exporter.textkit import clip

MAX_JUDGED_CHARS = 8_192  # characters of a reply the judges read (the probes ask for ~600)
MAX_LOOP_TOKENS = 4_096  # tokens (the last ones) the token-loop check reads
MAX_PERIOD = 64  # longest repeated unit, in tokens, the token-loop check looks for (a 50-word sentence)
SHORT_PERIOD = 16  # units up to this many tokens (a phrase, a CJK clause) ...
LOOP_MIN_REPEATS = 6  # ... loop when repeated back to back this many times
LONG_MIN_REPEATS = 4  # longer units when repeated back to back this many times (a chorus: 3 at most)
LOOP_MIN_TOKENS = 24  # ... covering at least this many tokens
SENTENCE_MIN_LETTERS = 12  # a sentence shorter than this ("Run!", "No.") may repeat freely
DESIGNED_MIN_NEW = 0.5  # a sentence loop's copies with new words between, this share of theirs: no loop
FRAME_MAX_WORDS = 6  # a sentence of this many words or fewer, no comma in it (a label, a menu path) ...
FRAME_MIN_NEW = 1.0  # ... with this share of new words between its copies: a frame around new items, no loop
SENTENCE_MIN_REPEATS = 4  # one sentence said this many times
SENTENCE_MIN_SHARE = 0.4  # ... its copies covering this share of the reply from the first copy on
SENTENCE_MANY = 8  # or one sentence said this many times anywhere (a chorus is sung 3-6 times) ...
ITEMS_MIN_NEW = 3.0  # ... unless each stretch between copies is new, all of them this many times the copies
ITEM_MIN_SHARE = 0.5  # ... or the stretches are a list's items: each shares this share of its word pairs
DRIFT_MIN_COPIES = 6  # near-copies of one sentence at the end of the reply, this many in a row ...
DRIFT_MAX_COPIES = 64  # ... counted up to this many
DRIFT_MIN_SHARE = 0.75  # ... each sharing this share of its distinct words with the one before
DRIFT_MIN_TOKENS = 3  # ... and at least this many
DRIFT_MIN_LETTERS = 12  # ... of this many letters or more
DRIFT_MIN_PAIRS = 8  # ... read only when the tail repeats this many pairs of neighbouring words or more
DRIFT_MIN_CJK_PAIRS = 24  # ... or this many pairs of CJK characters
DRIFT_LENGTH_RATIO = 0.6  # ... and the shorter of each two at least this share of the longer's length
CYCLE_MAX_SENTENCES = 8  # sentences taking turns, up to this many ...
CYCLE_MIN_REPEATS = 4  # ... in the same order this many times back to back at the end of the reply
CYCLE_MIN_LETTERS = 24  # ... with this many letters among them
ECHO_WINDOW = 192  # words at the end of a reply the near-copy check reads ...
ECHO_MIN_WORDS = 32  # ... the shortest stretch of them it judges
ECHO_MIN_SHARE = 0.75  # ... a loop when this share of its word pairs occurred before in the window
ECHO_MIN_NEW = 3  # ... unless its second half brings this many words its first half lacks (a template)
ECHO_MIN_COMBINATIONS = 2  # ... or this many sentences late in it saying a new combination of words
SPELLING_MIN_LETTERS = 3  # a word this long one letter away from an earlier one: a misspelt copy of it
SPELLING_MAX_LETTERS = 40  # ... up to this long (longer words are compared as they are: bounded time)
FLOOD_MIN_MARKS = 32  # sentence or pause marks in a row (``!!!!``, ``。。。。``): a loop
FLOOD_MIN_SPACE = 64  # whitespace characters in a row (a flood of line breaks or spaces): a loop
FLOOD_MIN_WORD = 40  # a word this long made of one 1-3 letter unit over and over (``hahaha…``): a loop
FLOOD_TAIL = 256  # characters at the end of the reply searched for a run of marks or whitespace
COMPRESS_MIN_BYTES = 400  # replies (or last quarters) shorter than this are not judged by compression
COMPRESS_MAX_RATIO = 0.12  # compressed / raw UTF-8 size under which the reply is a loop
TAIL_MAX_RATIO = 0.2  # compressed / raw size under which the reply's last quarter is a loop ...
TAIL_HEAD_MAX_RATIO = 0.4  # ... and under this share of the ratio of its first quarter
LEAVE_MAX_WORDS = 64  # words of a reply's last sentence compared with a loop's unit (bounded time) ...
LEAVE_MAX_ASKED = 8  # ... for this many token runs at most per reply (the others are loops as they are)

# A token: a run of letters/digits/apostrophes, one CJK character, or one other visible character.
_WORD_OR_MARK = r"[^\W_]+(?:['’][^\W_]+)*|[^\w\s]"
_TOKEN = re.compile(f"[{CJK_LETTERS}]|{_WORD_OR_MARK}")
_HAS_CJK = re.compile(f"[{CJK_LETTERS}]")
_WORD_NOT_CJK = re.compile(f"[^\\W{CJK_LETTERS}]")  # a letter, digit or underscore outside the CJK blocks
_CJK_OR_OTHER = re.compile(f"[{CJK_LETTERS}]|[^{CJK_LETTERS}]+")  # a CJK character, or a run of others
_WORDS_OR_MARKS = re.compile(_WORD_OR_MARK)
_LETTER = re.compile(r"[^\W\d_]")
_APOSTROPHES = str.maketrans("", "", "'’")  # deleted: a word's apostrophes (``don't``)
_SAMPLE_CHARS = 60
_END_MARKS = ".!?…。！？"  # a near-copy may end with another mark
_FINISHED = re.compile(r"[.!?…。！？][\"'”’»)\]」』*]*\s*$")  # a sentence's end mark, closing marks after it
_ECHO_TAIL = ECHO_WINDOW * 4 // 3  # tokens first searched for the near-copy check's words
# Runs no writer types: sentence or pause marks, or whitespace, far beyond any emphasis or layout.
_FLOOD = re.compile(f"[^\\w\\s]{{{FLOOD_MIN_MARKS}}}|\\s{{{FLOOD_MIN_SPACE}}}")
_RUN = re.compile(r"[^\w\s]+|\s+")
_LONG_WORD = re.compile(f"[^\\W\\d_]{{{FLOOD_MIN_WORD},}}")
_Run = tuple[int, int, int]  # (covered tokens, period, end index)


@dataclass(frozen=True, slots=True)
class Repetition:
    """What loops: ``kind`` is ``token_loop``, ``sentence_loop``, ``flood``, ``near_loop`` or
    ``compression``."""

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
    text = text[-MAX_JUDGED_CHARS:]  # a loop runs to the end of the reply: its tail is where it shows
    tokens = tokenize(text)[-MAX_LOOP_TOKENS:]
    words = _tail_words(tokens)
    repeated = len(words) - 1 - len(set(pairwise(words))) if words else 0  # pairs said before in the tail
    return (_token_loop(text, tokens) or _flood(text) or _sentence_loop(text) or _echo(text, words, repeated)
            or _drift(text, words, repeated) or _compression(text))  # fmt: skip


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


def run_through(tokens: list[str], i: int, period: int) -> tuple[int, int]:
    """The run of tokens each equal to the one ``period`` before that holds position ``i`` (itself such a
    token): ``(start, end)``, ``tokens[start:end]`` the repeats after the unit's first occurrence."""
    count = len(tokens)
    start, end = i, i + 1
    while start > period and tokens[start - 1] == tokens[start - 1 - period]:
        start -= 1
    while end < count and tokens[end] == tokens[end - period]:
        end += 1
    return start, end


def _token_loop(text: str, tokens: list[str]) -> Repetition | None:
    count = len(tokens)  # asked in every step of the walks below: once (2 % of the screen and judge's time)
    if count < LOOP_MIN_TOKENS:
        return None
    best: _Run | None = None
    worded: list[int] | None = None
    final: tuple[int, str] | None = None  # where the reply's last sentence starts (a token index), its text
    asked = 0  # runs asked whether the reply leaves them
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
            start, end = run_through(tokens, i, period)
            covered = end - start + period  # the unit's first occurrence, then the tokens equal to it
            if covered >= needed and (best is None or best[0] < covered) and count - end >= covered:
                # an emphatic repeat followed by as much new text or more (``hubub, hubub, …`` and the
                # story goes on): is the reply's last sentence, after the run, a finished one saying
                # something the unit does not? (asked of ``LEAVE_MAX_ASKED`` runs at most: bounded time)
                if final is None:
                    last = split_sentences(text)[-1].text
                    final = (count - len(tokenize(last)), last)
                asked += 1
                if (
                    asked <= LEAVE_MAX_ASKED
                    and end <= final[0]
                    and _leaves(tokens[end - period : end], final[1])
                ):
                    covered = 0  # the reply left this run: no loop
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


def _flood(text: str) -> Repetition | None:
    """A run of marks (``!!!!``, ``。。。。``, ``~~~~``, emoji), of whitespace or of one syllable longer than
    anything people type, except a divider: a line of nothing but dashes, rules, bars and the like
    (``-----``, ``|---|---|``, ``═══``)."""
    # a flood runs to the end of the reply like any loop: the tail is searched
    tail = text[-FLOOD_TAIL:]
    chunks = tail.split()
    if (
        max(map(len, chunks), default=0) < FLOOD_MIN_MARKS
        and sum(map(len, chunks)) > len(tail) - FLOOD_MIN_SPACE
    ):
        return None  # no chunk long enough for a run of marks, too little whitespace for a run of it
    for chunk in chunks:  # one word made of a 1-3 letter unit over and over (``hahaha…``, ``ㅋㅋㅋ…``)
        for word in _LONG_WORD.findall(chunk.casefold()) if len(chunk) >= FLOOD_MIN_WORD else ():
            for period in (1, 2, 3):
                if word == word[:period] * (len(word) // period) + word[: len(word) % period]:
                    return Repetition("flood", word[:period], len(word) // period, len(word) / len(text))
    for found in _FLOOD.finditer(text, max(0, len(text) - FLOOD_TAIL)):
        run = _RUN.match(text, found.start())
        marks = run.group() if run is not None else found.group()
        if not marks.isspace() and _is_divider(text, found.start(), marks):
            continue
        return Repetition("flood", repr(marks[-1])[1:-1], len(marks), len(marks) / len(text))
    return None


def _is_divider(text: str, start: int, marks: str) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    line = text[line_start : len(text) if line_end < 0 else line_end]
    return not line.strip(" \t" + marks) and all(
        unicodedata.category(mark) in ("Pd", "Sm", "Pc") or mark in "*#·•:" or "\u2500" <= mark <= "\u257f"
        for mark in set(marks)
    )


def _tail_words(tokens: list[str]) -> list[str]:
    """The last ``ECHO_WINDOW`` words among the last ``3 * ECHO_WINDOW`` tokens: those of a shorter tail
    when it holds that many (CJK text, a word a character: half the filtering)."""
    words = list(filter(str.isalpha, tokens[-_ECHO_TAIL:]))
    if len(words) < ECHO_WINDOW and len(tokens) > _ECHO_TAIL:
        words = list(filter(str.isalpha, tokens[-3 * ECHO_WINDOW :]))
    return words[-ECHO_WINDOW:]


def _echo(text: str, words: list[str], repeated: int) -> Repetition | None:
    """Near-copies looping to the end of the reply: a phrase said again and again with a word dropped,
    doubled or swapped, a counter that changes (``Day 3 … Day 4 …``), two or three sentences taking turns.
    None of them repeats token for token, but in the stretch they fill at the end of the reply nearly every
    pair of neighbouring words has occurred before in that stretch: the last ``ECHO_MIN_WORDS`` words or
    more (up to ``ECHO_WINDOW``) in which ``ECHO_MIN_SHARE`` of the pairs are repeats (prose: a few per
    cent; a song with its chorus: under half; a chorus sung three times in a row: two thirds)."""
    if len(words) < ECHO_MIN_WORDS:
        return None
    # A stretch of n pairs with that share of repeats makes at least share * n of the window's pairs
    # repeats (``repeated``, of the last words ``words``): a window under that floor has no such stretch
    # (prose stops here, at C speed, listing none).
    if repeated < ECHO_MIN_SHARE * (ECHO_MIN_WORDS - 1):
        return None
    pairs = list(pairwise(words))
    seen: set[tuple[str, str]] = set()
    best, longest = 0.0, 0
    for count, pair in enumerate(reversed(pairs), start=1):  # the stretches ending at the reply's end
        seen.add(pair)
        if count >= ECHO_MIN_WORDS - 1:
            share = 1 - len(seen) / count
            best = max(best, share)
            longest = count if share >= ECHO_MIN_SHARE else longest
    if best < ECHO_MIN_SHARE:
        return None
    # A loop, once set in, says nothing new: the words of the stretch's second half are all in its first.
    # A template filling its slot (``Returns the width of the first derivative … of the second derivative
    # … of the integral``, ``a database of type LDAP … of type JDBC``) names a new item each time.
    stretch = words[-longest - 1 :]
    if len(set(stretch[len(stretch) // 2 :]) - set(stretch[: len(stretch) // 2])) >= ECHO_MIN_NEW:
        return None
    # Nor a table's template (``… brightness of the blue component. Zero means no change … of the green
    # component. Zero means …``, then the same for contrast) or a loop the reply has left: see ``_says_new``.
    if _says_new(text, len(stretch)):
        return None
    (first, second), repeats = Counter(pairs).most_common(1)[0]
    return Repetition("near_loop", f"{first} {second}", repeats, best)


def _says_new(text: str, count: int) -> bool:
    """``says_new_measure`` passes: the stretch says new things."""
    return says_new_measure(text, count) >= 1.0


def says_new_measure(text: str, count: int) -> float:
    """The guard of ``_says_new`` as a measure (1.0 or more passes; ``math.inf``: the reply left what it
    repeated). Whether the stretch of ``text``'s last ``count`` words (``_tail_words``'s) still says new
    things, sentence by sentence: a sentence is new when its set of words is no part of what any two
    neighbouring sentences said before it in the stretch. A loop's copies drop, double or swap the words of an
    earlier copy, change a number, move a sentence's end within its unit (their words are part of what one
    copy or two said) or misspell a word (``_Spellings``), and it runs to the end of the reply (its last
    sentence may be a copy the budget cut). A template fills its slot with another item, or another pairing of
    items, each time (``the contrast of the green component`` after ``the brightness of the green component``
    and ``the contrast of the blue component``): ``ECHO_MIN_COMBINATIONS`` new sentences or more in the
    stretch's last two thirds (a stretch of near-copies is 75 % repeated pairs of words: whatever the reply
    said before the loop, and the loop's first copy, fill its first quarter at most). And a reply whose last
    finished sentence is new has left whatever it repeated."""
    sentences = split_sentences(text)
    spans: list[tuple[int, list[str]]] = []  # (words from its start on, its words), last first
    after = 0
    for sentence in reversed(sentences):
        words = [token for token in tokenize(sentence.text) if token.isalpha()]
        after += len(words)
        spans.append((after, words))
        if after >= count:
            break
    if not spans:
        return 0.0
    finished = len(spans) - 1 - (not _FINISHED.search(sentences[-1].text))  # the last finished sentence
    spelled = _Spellings()
    said: set[frozenset[str]] = set()  # the words of each two neighbouring sentences so far in the stretch
    new = 0
    prior: frozenset[str] = frozenset()
    for index, (after, words) in enumerate(reversed(spans)):
        kept = frozenset(map(spelled.first, words))
        fresh = bool(said) and not (kept <= prior or any(kept <= earlier for earlier in said))
        if fresh and index == finished:
            return math.inf
        new += fresh and 3 * after <= 2 * count  # a new sentence in the stretch's last two thirds
        said.add(prior | kept)
        prior = kept
    return new / ECHO_MIN_COMBINATIONS


class _Spellings:
    """Each word as it was first spelled: a word of ``SPELLING_MIN_LETTERS`` to ``SPELLING_MAX_LETTERS``
    letters one letter away from an earlier one as long (a letter doubled, dropped, changed or swapped with
    its neighbour: ``Halldric``, ``Kia`` after ``Haldric``, ``Kai``) is that word, as sampling misspells a
    copy; a template's new item is another word."""

    def __init__(self) -> None:
        self.spelled: dict[str, str] = {}  # every word met -> its first spelling
        self.firsts: dict[str, str] = {}  # first spellings (long enough), and each with a letter left out

    def first(self, word: str) -> str:
        if (known := self.spelled.get(word)) is not None:
            return known
        known = word
        if SPELLING_MIN_LETTERS <= len(word) <= SPELLING_MAX_LETTERS:
            cuts = [word[:i] + word[i + 1 :] for i in range(len(word))]
            # one letter left out of it, or of both (a letter changed or swapped), is an earlier word or
            # that word with one letter left out
            found = [self.firsts[cut] for cut in cuts if cut in self.firsts]
            known = self.firsts.get(word) or (found[0] if found else word)
            if known == word:
                self.firsts.setdefault(word, word)
                for cut in cuts:
                    self.firsts.setdefault(cut, word)
        self.spelled[word] = known
        return known


def _sentence_loop(text: str) -> Repetition | None:
    sentences = split_sentences(text)
    if len(sentences) < SENTENCE_MIN_REPEATS:
        return None
    keys = [" ".join(s.text.casefold().split()) for s in sentences]  # case- and space-folded
    if len(keys) - len(set(keys)) < SENTENCE_MIN_REPEATS - 1:
        return None  # no sentence is said that often (a set is 6x cheaper than counting)
    # a menu path's continuations joined (fewer copies, never more): then the test above again
    if len(sentences := _continued(text, sentences)) < len(keys):
        keys = [" ".join(s.text.casefold().split()) for s in sentences]
        if len(keys) - len(set(keys)) < SENTENCE_MIN_REPEATS - 1:
            return None
    if (cycle := _sentence_cycle(keys)) is not None:
        return cycle
    counts = Counter(keys)
    # Only sentences said often enough are measured (letters counted); the rest cannot loop.
    looping = [(n, key) for key, n in counts.items() if n >= SENTENCE_MIN_REPEATS]
    looping = [(n, key) for n, key in looping if len(_LETTER.findall(key)) >= SENTENCE_MIN_LETTERS]
    if not looping:
        return None
    lengths = {key: len(s.text) for key, s in zip(keys, sentences, strict=True)}
    firsts: dict[str, int] = {}
    first_index: dict[str, int] = {}
    for index, (key, sentence) in enumerate(zip(keys, sentences, strict=True)):
        firsts.setdefault(key, sentence.start)
        first_index.setdefault(key, index)
    # where each sentence said for the first time stands: a refrain has new lines between its copies
    news = [index for key, index in first_index.items()]
    end = len(text.rstrip())
    found: Repetition | None = None
    for repeats, key in looping:
        # the window the loop took over: from its first copy to the end of the reply
        share = repeats * lengths[key] / max(1, end - firsts[key])
        second = keys.index(key, first_index[key] + 1)
        # a refrain is a line of its own that comes back between new lines (verses); a loop is absorbing:
        # after its second copy nothing new is said
        copies = [sentence for k, sentence in zip(keys, sentences, strict=True) if k == key]
        refrain = max(news) > second and all(_own_line(text, copy) for copy in copies)
        # designed repetition (a refrain, a sentence after a different item each time, a line said again
        # for effect that the reply goes on from) is no loop
        designed = (
            share < SENTENCE_MIN_SHARE or refrain or _new_between_copies(sentences, key)
            or _left_copies(text, sentences, copies, key)
        )  # fmt: skip
        # so is a sentence said after each item of one list, the items written on one template and naming
        # new values, however short they are beside it (``Sets the label width.``, ``… height.``): what
        # passes it said eight times passes it said four times (``_list_items``, asked once)
        listed: bool | None = None
        if not designed:
            designed = listed = _list_items(sentences, key, counts)
        # said SENTENCE_MANY times it loops wherever it is, unless it is a frame around new items: a label
        # of a few words, not a clause, and what is said between its copies, each time something else,
        # outweighs them (``Wählen Sie Extras – Optionen…`` before each page's name, ``Not used for
        # vendors.`` after each field); a multi-clause sentence said nine times among others is a loop
        frame = len(_words(key)) <= FRAME_MAX_WORDS and "," not in key and "，" not in key
        # and whatever its length it is said after (or before) items when every stretch between its copies
        # is new and the copies are under a quarter of what follows the first one (an attribution after each
        # quotation, ``True is returned if the function exists, otherwise false.`` after each function):
        # a sampler that keeps coming back to a sentence comes back more often, and soon repeats what lies
        # between its copies too
        items = _new_between_copies(sentences, key, ITEMS_MIN_NEW, every=True)
        many = repeats >= SENTENCE_MANY and not (
            items
            or (frame and _new_between_copies(sentences, key, FRAME_MIN_NEW))
            or (listed if listed is not None else _list_items(sentences, key, counts))
        )
        if (many or not designed) and (found is None or repeats > found.repeats):
            found = Repetition("sentence_loop", clip(key, _SAMPLE_CHARS), repeats, min(1.0, share))
    return found


def _sentence_cycle(keys: list[str]) -> Repetition | None:
    """Two to ``CYCLE_MAX_SENTENCES`` sentences (``CYCLE_MIN_LETTERS`` letters or more together) said in
    turn, the same order each time, ``CYCLE_MIN_REPEATS`` times or more back to back at the end of the reply
    (its last sentence may be a copy the budget cut): sentences taking turns, a dialogue's last lines said
    again and again. Each sentence covers only its share of the loop, which the share test above does not
    see; a chorus between verses or sung three times in a row does not turn this often."""
    count = len(keys)
    for end in (count, count - 1):
        for period in range(2, CYCLE_MAX_SENTENCES + 1):
            if end < CYCLE_MIN_REPEATS * period:
                break
            j = end - 1 - period  # walk back while each sentence equals the one a period later
            while j >= 0 and keys[j] == keys[j + period]:
                j -= 1
            repeats = (end - 1 - j) // period
            unit = keys[end - period : end]
            if repeats >= CYCLE_MIN_REPEATS and len(_LETTER.findall("".join(unit))) >= CYCLE_MIN_LETTERS:
                return Repetition("sentence_loop", clip(" / ".join(unit), _SAMPLE_CHARS), repeats,
                                  repeats * period / count)  # fmt: skip
    return None


def _drift(text: str, words: list[str], repeated: int) -> Repetition | None:
    """One sentence said again and again with the small changes sampling makes (a word dropped, doubled or
    swapped, the end mark changed), to the end of the reply: its last ``DRIFT_MIN_COPIES`` sentences or
    more (the very last may be a copy the budget cut), each about as long as the one before and sharing
    ``DRIFT_MIN_SHARE`` of its distinct words (CJK: characters) with it, ``DRIFT_MIN_LETTERS`` letters or
    more each. Prose does not say one thing six times over; a list's items (``- Step 3: open the sound
    panel``) may, and are not compared. Only a tail whose last ``words`` repeat ``repeated`` pairs of
    neighbours, ``DRIFT_MIN_PAIRS`` or more (``DRIFT_MIN_CJK_PAIRS`` of CJK characters), is read."""
    # copies repeat pairs of neighbouring words (CJK: characters, whose pairs prose repeats more often)
    if repeated < (DRIFT_MIN_CJK_PAIRS if words and _HAS_CJK.match(words[-1]) else DRIFT_MIN_PAIRS):
        return None
    sentences = split_sentences(text)[-DRIFT_MAX_COPIES:]
    if len(sentences) < DRIFT_MIN_COPIES:
        return None
    sets: dict[int, set[str]] = {}

    def tokens_of(index: int) -> set[str]:
        if index not in sets:
            sentence = sentences[index].text.casefold().rstrip(_END_MARKS)
            pieces = sentence.split()  # its words with their marks (CJK, unspaced: its characters)
            # a list item is no copy: a list's items may share all words but one
            sets[index] = set() if LIST_ITEM.match(sentence) else set(pieces if len(pieces) > 2 else sentence)
        return sets[index]

    # the very last sentence may be a copy the budget cut, or changed more than the others; a finished one
    # with a word none of the copies before it has (nor a misspelling of one) has left the loop, whether it
    # is a near-copy (a template's last item: ``… – Last page of the wizard.``) or not
    for last in (len(sentences) - 1, len(sentences) - 2):
        first = last
        while first > 0 and _close(sentences[first - 1], sentences[first]):
            if not _alike(tokens_of(first - 1), tokens_of(first)):
                break
            first -= 1
        copies = last - first + 1
        if (
            copies >= DRIFT_MIN_COPIES
            and len(_LETTER.findall(sentences[last].text)) >= DRIFT_MIN_LETTERS
            and not _enumeration([_words(sentences[index].text) for index in range(first, last + 1)])
            and not _left(sentences)
        ):
            unit = sentences[last].text
            return Repetition("near_loop", clip(unit, _SAMPLE_CHARS), copies, copies / len(sentences))
    return None


def _left(sentences: list[Sentence]) -> bool:
    """Whether the last of ``sentences`` is finished and has a word (in any spelling) that none of the
    ``DRIFT_MIN_COPIES - 1`` before it has and that is no piece of their words either (a space moved into
    or out of a word, ``,E ldaric`` after ``, Eldaric``, makes new words of old letters): the reply left
    the copies."""
    final, spelled = sentences[-1].text, _Spellings()
    if _FINISHED.search(final) is None:
        return False
    copies = sentences[-DRIFT_MIN_COPIES:-1]
    before = {spelled.first(word) for sentence in copies for word in _words(sentence.text)}
    fresh = set(map(spelled.first, _words(final))) - before
    if not fresh:
        return False
    letters = "".join("".join(sentence.text.casefold().split()) for sentence in copies)
    return any(word not in letters for word in fresh)


def _left_copies(text: str, sentences: list[Sentence], copies: list[Sentence], key: str) -> bool:
    """Whether the reply leaves the ``copies`` of sentence ``key``: its last sentence comes after them, as
    many tokens as the copies or more follow the last one, and ``_leaves`` holds."""
    if copies[-1] is sentences[-1]:
        return False
    unit = tokenize(key)
    after = len(tokenize(text[copies[-1].end :]))
    return after >= len(copies) * len(unit) and _leaves(unit, sentences[-1].text)


def _leaves(unit: list[str], final: str) -> bool:
    """Whether ``final``, the reply's last sentence, said after the last copy of a loop of ``unit`` (its
    tokens), shows the reply has left the loop: it is finished, and one of its words (the first
    ``LEAVE_MAX_WORDS``), in any spelling, is none of the unit's and no piece of their letters (a space moved,
    a letter dropped). The caller asks that as many tokens as the copies cover, or more, follow the last copy:
    an emphatic repeat (``No, no, no…``, ``Sch… Sch… Sch…``, a line said three or four times for effect) is
    followed by new text, while a sampler that falls into a loop rarely climbs out, and what it says after
    a loop it leaves, if anything, is short."""
    if _FINISHED.search(final) is None:
        return False
    spelled = _Spellings()
    known = {spelled.first(word) for word in _words(" ".join(unit))}
    letters = "".join(unit)
    return any(
        spelled.first(word) not in known and word not in letters for word in _words(final)[:LEAVE_MAX_WORDS]
    )


def _enumeration(copies: list[list[str]]) -> bool:
    """``enumeration_measure`` passes: the near-copies fill a template's slot."""
    return enumeration_measure(copies) >= 1.0


def enumeration_measure(copies: list[list[str]]) -> float:
    """The guard of ``_enumeration`` as a measure: the copies that name something new over half the copies
    after the first (1.0 or more passes). Whether the near-copies fill a template's slot (``Choose File - New
    - Labels - Format tab.``, then ``… - Options tab.``): half of them or more bring a word no earlier copy
    has, or put in the place where they differ from the copy before them other words than it has there, a
    filler no copy had there before (``… - Business Cards - Medium tab.``, then ``… - Business Cards -
    Business Cards tab.``: an item may be named with the template's own words). Sampling drifts by dropping,
    doubling and swapping the words it has, or misspelling one (``_Spellings``); documentation walks through
    menus, fields and positions, naming a new one each time (``_words``: a counter's ``Day 4`` brings no new
    word)."""
    spelled = _Spellings()
    words = [[spelled.first(word) for word in each] for each in copies]
    seen = set(words[0])
    fillers: set[tuple[str, ...]] = set()
    new = 0
    for before, each in pairwise(words):
        swapped = _substitution(before, each)
        fresh = swapped is not None and swapped[1] not in fillers
        if swapped is not None:
            fillers.update(swapped)
        new += fresh or not seen.issuperset(each)
        seen.update(each)
    return 2 * new / (len(copies) - 1) if len(copies) > 1 else math.inf


def _substitution(before: list[str], after: list[str]) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """Where two word sequences differ (their common opening and ending left out), what each has there,
    when both have words there, none in common and not the same letters: one item put in another's place.
    Sampling's changes (a word dropped, doubled or swapped with its neighbour, a space moved, two letters
    swapped) leave one side empty, share a word or keep the letters."""
    size = min(len(before), len(after))
    head = 0
    while head < size and before[head] == after[head]:
        head += 1
    tail = 0
    while tail < size - head and before[-1 - tail] == after[-1 - tail]:
        tail += 1
    old, new = tuple(before[head : len(before) - tail]), tuple(after[head : len(after) - tail])
    if not old or not new or set(old) & set(new) or sorted("".join(old)) == sorted("".join(new)):
        return None  # one side empty, a word in common, or the same letters spaced or ordered otherwise
    return old, new


def _close(first: Sentence, second: Sentence) -> bool:
    """Near-copies are about as long as each other (a word more or less): sentences that differ more in
    length are not compared word by word."""
    one, other = first.end - first.start, second.end - second.start
    return min(one, other) >= DRIFT_LENGTH_RATIO * max(one, other)


def _alike(first: set[str], second: set[str]) -> bool:
    shared = len(first & second)
    return shared >= DRIFT_MIN_SHARE * max(len(first), len(second)) and shared >= DRIFT_MIN_TOKENS


def _own_line(text: str, sentence: Sentence) -> bool:
    return text[sentence.start - 1 : sentence.start] in ("", "\n") and text[
        sentence.end : sentence.end + 1
    ] in ("", "\n")


def _new_between_copies(
    sentences: list[Sentence], key: str, min_new: float = DESIGNED_MIN_NEW, every: bool = False
) -> bool:
    """``between_measure`` passes: the copies of ``key`` alternate with new content."""
    return between_measure(sentences, key, min_new, every) >= 1.0


def between_measure(
    sentences: list[Sentence], key: str, min_new: float = DESIGNED_MIN_NEW, every: bool = False
) -> float:
    """The guard of ``_new_between_copies`` as a measure: the characters said between the copies over
    ``min_new`` times the copies' (1.0 or more passes; 0 when the stretches are not distinct enough). Whether
    the stretches between neighbouring copies of ``key`` all say something, most of them (``every``: all of
    them) something else and the last two different things, and that what is said after the first copy besides
    the copies is at least ``min_new`` times as many characters as the copies after the first (sentences
    compared by their words: a changed mark or a number that counts up is no difference; a piece of two copies
    glued without a space is two copies back to back). Designed repetition alternates with new content, a
    different item each time (an instruction repeated after each field, one menu path with a different last
    item; a table's rows may differ only in a number, ``Address line 1``, ``Address line 2``, among others
    that do not); a loop, once set in, says the same between its copies to the end, or little, or nothing
    (they run back to back, take turns with the same sentences, or differ only in a counter)."""
    said = _words(key)
    if not said:
        return 0.0  # no word to compare (``1st 2nd 3rd 4th``): the copies are judged as they are
    gaps: set[tuple[str, ...]] = set()
    between = 0  # stretches between neighbouring copies
    last: tuple[str, ...] | None = None  # the stretch before the last copy so far
    turns = False  # whether the last two stretches are the same
    gap: list[str] | None = None  # the words since the last copy (None before the first)
    new = copied = 0  # characters said between the copies; characters of the copies after the first
    for sentence in sentences:
        words, size = _words(sentence.text), len(sentence.text)
        repeats = len(words) // len(said)
        if not repeats or words != said * repeats:
            if gap is not None:
                gap += words
                new += size
            continue
        if repeats > 1 or gap == []:
            return 0.0  # copies back to back (glued without a space: one piece)
        if gap is not None:
            turns = tuple(gap) == last
            last = tuple(gap)
            gaps.add(last)
            between += 1
            copied += size
        gap = []
    distinct = len(gaps) == between if every else 2 * len(gaps) > between
    if not distinct or turns:
        return 0.0
    needed = min_new * copied
    return new / needed if needed > 0 else math.inf


def _list_items(sentences: list[Sentence], key: str, counts: Counter[str]) -> bool:
    """Whether the stretches between the copies of ``key`` are the items of one list: each says something
    (no copies back to back) and is written on the template of the one before (half the pairs of
    neighbouring words of the shorter of the two, ``ITEM_MIN_SHARE``, are the other's too: ``Displays the
    width of the label.``, ``Displays the height of the label.``), and half of them or more name a word no
    earlier stretch did, in any spelling (``_Spellings``; ``page height`` after ``height`` and ``page
    width`` pairs old values anew). Documentation says one sentence after each item of a list (``If you are
    defining a custom format, enter a value here.`` after each dimension of a label, ``If the paper size is
    modified, this dimension's default value is scaled accordingly.`` after each length), the items
    parallel and each naming its own value. A sampler that keeps coming back to a sentence says prose
    between its copies, not one template, or near-copies of one sentence with no new word (a word dropped,
    doubled or swapped). A sentence said more than once (``counts``, by its case- and space-folded text) is
    no part of an item: a unit of several sentences looping puts its other sentences between the copies of
    each one, alike by being copies."""
    said = _words(key)
    if not said:
        return False
    gaps: list[list[str]] = []
    gap: list[str] | None = None  # the words since the last copy (None before the first)
    for sentence in sentences:
        words = _words(sentence.text)
        if words == said:
            if gap is not None:
                gaps.append(gap)
            gap = []
        elif gap is not None and counts[" ".join(sentence.text.casefold().split())] < 2:
            gap += words
    spelled = _Spellings()
    seen: set[str] = set()
    before: set[tuple[str, str]] = set()
    new = 0  # items naming a word no earlier one did
    for index, each in enumerate(gaps):
        words = [spelled.first(word) for word in each]
        pairs = set(pairwise(words))
        if len(pairs) < 2:
            return False  # an item of one word or none
        if index and len(pairs & before) < ITEM_MIN_SHARE * min(len(pairs), len(before)):
            return False  # not written on the template of the item before it
        new += index > 0 and not seen.issuperset(words)
        seen.update(words)
        before = pairs
    return len(gaps) >= 2 and 2 * new >= len(gaps) - 1


def _continued(text: str, sentences: list[Sentence]) -> list[Sentence]:
    """``sentences`` with each piece that opens with a dash after an ellipsis joined to the one before:
    ``– Tab: Fonts.`` after ``Choose Tools – Options…`` continues a menu path (the dialog the entry opens),
    so each path with another last item is a sentence of its own, no copy of the others."""
    out: list[Sentence] = []
    for sentence in sentences:
        if out and unicodedata.category(sentence.text[0]) == "Pd" and out[-1].text.endswith("…"):
            first = out.pop()
            sentence = Sentence(text[first.start : sentence.end], first.start, sentence.end)
        out.append(sentence)
    return out


def _words(text: str) -> list[str]:
    """A sentence's words (``tokenize``'s tokens of letters, an apostrophe within; a CJK character is one):
    marks and numbers left out, a token holding a digit too (``Day 4``, ``v2``, ``4th`` count up)."""
    return [token for token in tokenize(text) if token.isalpha() or token.translate(_APOSTROPHES).isalpha()]


def _compression(text: str) -> Repetition | None:
    """A reply that compresses under ``COMPRESS_MAX_RATIO``, or whose last quarter compresses under
    ``TAIL_MAX_RATIO``: a loop of units too long for the checks above. Either way the stretch judged must
    say nothing new in its second half (``_fills_slots``: the whole reply's second half, the last
    quarter's): a reference whose every entry repeats one long template around a new name compresses as
    far as a loop, and names a new item in each entry. A loop's last quarter says again
    what it just said, so it also compresses much further than the reply's first quarter, written before
    the loop set in (``TAIL_HEAD_MAX_RATIO``; a loop over the whole reply is the first test's), while
    documentation repeating its phrasing (a function reference, one menu path after another) is as
    repetitive from its first line to its last."""
    raw = text.encode("utf-8", errors="replace")
    if len(raw) < COMPRESS_MIN_BYTES:
        return None
    size = len(zlib.compress(raw, 6))
    if size < COMPRESS_MAX_RATIO * len(raw) and not _fills_slots(text, 0):
        return Repetition("compression", clip(text.strip(), _SAMPLE_CHARS), 0, size / len(raw))
    tail = raw[-(len(raw) // 4) :]
    if len(tail) < COMPRESS_MIN_BYTES:
        return None
    ratio = len(zlib.compress(tail, 6)) / len(tail)
    if ratio >= TAIL_MAX_RATIO:
        return None
    head = raw[: len(tail)]
    if ratio >= TAIL_HEAD_MAX_RATIO * len(zlib.compress(head, 6)) / len(head):
        return None
    sample = tail.decode("utf-8", errors="ignore")  # a suffix of ``text``: a split character dropped
    if _fills_slots(text, len(text) - len(sample)):
        return None
    return Repetition("compression", clip(sample.strip(), _SAMPLE_CHARS), 0, ratio)


def _fills_slots(text: str, start: int) -> bool:
    """``slots_measure`` passes: the second half of ``text[start:]`` fills a template's slots."""
    return slots_measure(text, start) >= 1.0


def slots_measure(text: str, start: int) -> float:
    """The guard of ``_fills_slots`` as a measure: the larger of the second half's new words over
    ``ECHO_MIN_NEW`` and its new combinations over ``ECHO_MIN_COMBINATIONS`` (1.0 or more passes). Whether the
    second half of ``text[start:]`` (a reply or its last quarter compressing like a loop) says what its first
    half (from the start of the sentence it opens in) did not: ``ECHO_MIN_NEW`` words or more it lacks, in any
    spelling (``_Spellings``) and no piece of one of its words, or ``ECHO_MIN_COMBINATIONS`` sentences or more
    whose words are no part of what any two neighbouring sentences of the first half said. That is a template
    filling its slots with new values (one option's description after another's, ``… for the touchpad``, ``…
    for the trackball``) or pairing them anew (each quantity of a table with each colour). A loop that
    compresses this far holds a whole copy of its unit or more in each half: its second half's words and
    sentences are all in its first."""
    spelled = _Spellings()
    halves: tuple[list[frozenset[str]], list[frozenset[str]]] = ([], [])
    middle = (start + len(text)) // 2
    for sentence in split_sentences(text):
        if sentence.end > start:
            # a Latin word glued to CJK characters is one token (``posix形式の…``): each character apart
            units = [_CJK_OR_OTHER.findall(word) if _HAS_CJK.search(word) else [word] for word in
                     _words(sentence.text)]  # fmt: skip
            words = frozenset(spelled.first(unit) for each in units for unit in each)
            halves[sentence.start >= middle].append(words)
    first, second = halves
    known = frozenset().union(*first)
    letters = " ".join(known)
    # a word that is a piece of an earlier one (``ui``, ``id`` after ``uid``: a letter dropped from a word
    # too short for ``_Spellings``, a space moved) is no new word
    pieces = {word for word in frozenset().union(*second) - known if word in letters}
    second = [words - pieces for words in second]
    fresh = len(frozenset().union(*second) - known)
    said = [one | other for one, other in pairwise(first)] or first
    new = sum(1 for words in second if not any(words <= earlier for earlier in said))
    return max(fresh / ECHO_MIN_NEW, new / ECHO_MIN_COMBINATIONS)
