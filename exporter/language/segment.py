"""Sentence splitting for every locale, CJK included, keeping character offsets for the evidence.

A sentence ends at ``.!?…`` (plus closing quotes or brackets) before whitespace, at ``。！？`` (Chinese and
Japanese write no space after them), or at a line break. Abbreviations may split a sentence in two; that
only makes the pieces shorter, and pieces too short to judge are simply not counted.

Example::

    >>> [s.text for s in split_sentences("Hola. ¿Qué tal?\\n你好。再见！")]
    ['Hola.', '¿Qué tal?', '你好。', '再见！']
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_END = re.compile(
    r"[.!?…]+[\"'”’»)\]*_]*(?=\s)"  # Latin/Cyrillic end of sentence before whitespace
    r"|[。！？．]+[」』”’）)\]*]*"  # CJK end of sentence, no space needed
    r"|\n+"  # a line break always ends a sentence
)


@dataclass(frozen=True, slots=True)
class Sentence:
    text: str
    start: int  # character offsets in the judged text
    end: int


def split_sentences(text: str) -> list[Sentence]:
    """Sentences with their offsets; whitespace-only pieces are dropped."""
    out: list[Sentence] = []
    start = 0
    for match in _END.finditer(text):
        _add(out, text, start, match.end())
        start = match.end()
    _add(out, text, start, len(text))
    return out


def _add(out: list[Sentence], text: str, start: int, end: int) -> None:
    piece = text[start:end]
    stripped = piece.strip()
    if stripped:
        offset = start + (len(piece) - len(piece.lstrip()))
        out.append(Sentence(stripped, offset, offset + len(stripped)))
