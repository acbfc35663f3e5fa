"""Sentences of a clean paragraph as spans of its text, for the case generators.

A generator that quotes a paragraph's first sentence, inserts a line between two sentences or swaps some
for another language's must produce text a model could write. So it never splits at every full stop and
re-joins the pieces with new spaces (that turns ``=WORKDAY.INTL(`` into ``=WORKDAY. INTL(`` and ``0.5``
into ``0. 5``): it splits where the product's segmenter does (``split_sentences``), keeps each sentence's
offsets, and rebuilds the text by slicing it, every original gap (space, line break or none) kept.

Where the segmenter splits after an abbreviation (``e.g.``, ``U.S.``, an initial) or before a lowercase
word, the two pieces are one sentence to a writer: they stay one span here, so no quote or inserted line
lands inside a sentence.

Example::

    >>> text = "Use =SUM.IF( with 0.5, e.g. for the U.S. Census. See https://x.org/a.b for more."
    >>> sentences(text)
    ['Use =SUM.IF( with 0.5, e.g. for the U.S. Census.', 'See https://x.org/a.b for more.']
    >>> insert_before(text, sentence_spans(text), 1, "“Hi.”")[-50:]
    'U.S. Census. “Hi.” See https://x.org/a.b for more.'
"""

from __future__ import annotations

import re

from exporter.language.segment import split_sentences

Span = tuple[int, int]
# A piece's last word that ends it without ending a sentence: an abbreviation with inner full stops
# ("e.g.", "U.S.", "z.B.", "т.е.") or a single letter (an initial: "J. R. R. Tolkien", "a. b.").
_ABBREVIATION = re.compile(r"(?:[^\W\d_]{1,3}\.){2,}|[^\W\d_]\.")


def _continues(text: str, previous: Span, start: int) -> bool:
    """Whether the segmenter's split before ``start`` falls inside one written sentence."""
    gap = text[previous[1] : start]
    if "\n" in gap:
        return False  # a line break ends a sentence
    last = text[previous[0] : previous[1]].rsplit(None, 1)[-1]
    return bool(_ABBREVIATION.fullmatch(last)) or text[start].islower()


def sentence_spans(text: str) -> list[Span]:
    """(start, end) of every sentence, stripped, in order."""
    spans: list[Span] = []
    for sentence in split_sentences(text):
        if spans and _continues(text, spans[-1], sentence.start):
            spans[-1] = (spans[-1][0], sentence.end)
        else:
            spans.append((sentence.start, sentence.end))
    return spans


def sentences(text: str) -> list[str]:
    """The text of every sentence (slices of ``text``)."""
    return [text[start:end] for start, end in sentence_spans(text)]


def resplice(text: str, spans: list[Span], replace: dict[int, str]) -> str:
    """``text`` with the sentences numbered in ``replace`` replaced, everything between them kept."""
    out, at = [], 0
    for i, (start, end) in enumerate(spans):
        if i in replace:
            out += [text[at:start], replace[i]]
            at = end
    return "".join(out) + text[at:]


def insert_before(text: str, spans: list[Span], index: int, line: str) -> str:
    """``line`` inserted before sentence ``index`` (at least 1), separated from its neighbours by the
    gap that was between sentences ``index - 1`` and ``index``."""
    gap = text[spans[index - 1][1] : spans[index][0]]
    return resplice(text, spans, {index: line + gap + text[slice(*spans[index])]})
