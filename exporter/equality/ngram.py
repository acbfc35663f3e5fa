"""A smoothed character n-gram model of a pool of replies, and each reply's surprise under it (pure).

The equality tests score every reply by how surprising it is to a model of a pool of replies, so that a
reply never explains itself: a pool of other hosts' replies (``exporter.equality.compare``, leave one
host out: ``fitted=False``), or one that holds the reply, whose own n-grams are then taken out of the
counts first (``exporter.equality.sequential``, leave one reply out).

The model is interpolated Witten-Bell over characters, orders 1 to ``order``::

    P(c | h) = (C(hc) + T(h) P(c | h')) / (C(h) + T(h))

with ``C`` the counts, ``T(h)`` the number of distinct characters seen after context ``h``, ``h'`` the
context without its first character, and an add-one unigram at the bottom. The reply's own counts are
taken out at the top order, where counts are small and a reply would otherwise explain itself; the lower
orders (large counts) are the pool's, computed once per distinct n-gram. The score is the mean
surprise in bits per character. A host sampling hotter, or a weaker or different model, writes replies
the pool finds more surprising; a host sampling colder or truncated (top-k, top-p) writes less
surprising ones; a host echoing a template writes replies the pool has seen before.

Cost: counting is linear in the pool's characters times ``order``, scoring linear in the reply's
characters (a few dictionary look-ups each).

    >>> pool = ["the cat sat", "the cat ran", "the dog sat", "zq xv jk"]
    >>> model = CharModel.fit(pool)
    >>> [round(model.surprise(text)[0], 1) for text in pool]
    [0.7, 1.9, 2.6, 5.9]
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

DEFAULT_ORDER = 5  # four characters of context: words in alphabetic scripts, two or three CJK characters
STABLE = (
    20  # a context seen this many times more often in the pool than in the reply: the pool's own estimate
)
START = (
    16  # characters of a reply's start scored on their own: echoed templates and stray prefixes live there
)
BOUNDARY = "\x02"  # the context before a reply's first character (``normalise`` removes control characters)


@dataclass(frozen=True, slots=True)
class CharModel:
    order: int
    grams: Counter[str]  # n-gram -> count, every length 1..order
    contexts: Counter[str]  # context (length 0..order-1) -> times it was followed by a character
    followers: Counter[str]  # context -> distinct characters seen after it
    alphabet: int  # distinct characters in the pool
    _lower: dict[str, float] = field(default_factory=dict)  # n-gram below the top order -> pool probability

    @classmethod
    def fit(cls, texts: Iterable[str], order: int = DEFAULT_ORDER) -> CharModel:
        """Count every n-gram (lengths 1..order) of ``texts``; each text starts after ``order - 1``
        boundary symbols, so no n-gram spans two texts."""
        if order < 1:
            raise ValueError(f"order must be at least 1, got {order}")
        pad = BOUNDARY * (order - 1)
        joined = "".join(pad + text for text in texts)
        grams: Counter[str] = Counter()
        for length in range(1, order + 1):
            starts = range(len(joined) - length + 1)
            grams.update(map(joined.__getitem__, map(slice, starts, range(length, len(joined) + 1))))
        for gram in [g for g in grams if g[-1] == BOUNDARY]:
            del grams[gram]
        contexts: Counter[str] = Counter()
        followers: Counter[str] = Counter()
        for gram, count in grams.items():
            contexts[gram[:-1]] += count
            followers[gram[:-1]] += 1
        alphabet = sum(1 for gram in grams if len(gram) == 1)
        return cls(order, grams, contexts, followers, alphabet)

    def _pool(self, gram: str) -> float:
        """P(last character | the rest of ``gram``) under the whole pool (memoised)."""
        known = self._lower.get(gram)
        if known is not None:
            return known
        if len(gram) == 1:
            p = (self.grams[gram] + 1) / (self.contexts[""] + self.alphabet + 1)
        else:
            lower = self._pool(gram[1:])
            context = gram[:-1]
            types = self.followers[context]
            p = (self.grams[gram] + types * lower) / (self.contexts[context] + types) if types else lower
        self._lower[gram] = p
        return p

    def surprise(self, text: str, *, fitted: bool = True) -> tuple[float, float]:
        """Mean bits per character of ``text``, and of its first ``START`` characters, under the pool
        without the text's own counts (leave one reply out) when it is one of the fitted replies, under the
        whole pool when it is not (``fitted=False``). The empty reply scores 0."""
        if not text:
            return 0.0, 0.0
        order = self.order
        padded = BOUNDARY * (order - 1) + text
        own: Counter[str] = Counter()
        for length in range(1, order + 1 if fitted else 1):
            own.update(
                map(padded.__getitem__, map(slice, range(len(padded) - length + 1), range(length, 10**9)))
            )
        own_contexts: Counter[str] = Counter()
        for gram, count in own.items():
            if gram[-1] != BOUNDARY:
                own_contexts[gram[:-1]] += count
        grams, contexts, followers, pool = self.grams, self.contexts, self.followers, self._pool
        unigram_total = contexts[""] - (len(text) if fitted else 0) + self.alphabet + 1
        bits = start_bits = 0.0
        for end in range(order, len(padded) + 1):
            if end == order + START:
                start_bits = bits
            # Down from the longest context to one the reply barely moves (or to a single character) ...
            chain = []
            start = end - order
            while start < end - 1:
                context = padded[start : end - 1]
                if contexts[context] >= STABLE * own_contexts[context] or not fitted:
                    break
                chain.append(padded[start:end])
                start += 1
            gram = padded[start:end]
            p = (grams[gram] - own[gram] + 1) / unigram_total if len(gram) == 1 else pool(gram)
            # ... then back up with the reply's own counts taken out.
            for gram in reversed(chain):
                context = gram[:-1]
                types = followers[context]
                p = (grams[gram] - own[gram] + types * p) / (
                    contexts[context] - own_contexts[context] + types
                )
            bits -= math.log2(p)
        if len(text) <= START:
            start_bits = bits
        return bits / len(text), start_bits / min(len(text), START)
