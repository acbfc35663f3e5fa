# ruff: noqa: E501  (commands in the docstring)
"""Clean-opener evaluation of the corrupted-start check: every sentence of a clean reply could open one.

Usage::

    .venv/bin/python bench/start_openers.py bench/results/fiction_replies.jsonl \\
        bench/results/gimp_paragraphs.jsonl [--split dev] [--show] [--limit 40] [--locale fr]

Any eval file of either shape works as input: the fiction builders' rows (``*_replies.jsonl``: ``locale``,
``source``, ``keys``, ``lines``, ``text``) and the documentation builders' paragraphs
(``*_paragraphs.jsonl``: ``locale``, ``source``, ``text``). For every row of one of the 17 locales in the
chosen split (``split_of`` of its source, as the evaluations split them), the text from each of its
openers onward is judged as a reply:

- ``first``: the text itself (its start is what the other evaluations judge);
- ``paragraph``: the first visible character after a line break (a regenerated paragraph, a list item);
- ``sentence``: every other sentence start, cut where the product's segmenter ends a sentence
  (``sentence_spans``: an abbreviation or a lowercase continuation does not start one).

An opener is judged when the text from it carries enough letters for the judge to judge it
(``MIN_REPLY_LETTERS``, weighted as the judge weighs them): it fails when ``find_corrupted_start`` finds
garbage and the judge, asked about the same text, fails it as ``leading_garbage`` (the judge's earlier
findings, encoding, come first). Every opener is real, clean, human-written text, so every failure is a
false fail. Prints the false-fail rate per set, per kind of opener, per locale and per kind of garbage;
``--show`` prints each failure (the garbage found and the opener's first characters).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
import unicodedata
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from eval_sets import rows, set_name
from sentence_spans import sentence_spans

from exporter.language.judge import MAX_JUDGED_CHARS, MIN_REPLY_LETTERS, default_judge
from exporter.language.scripts import script_counts, weight
from exporter.language.start import find_corrupted_start

KINDS = ("first", "paragraph", "sentence")
_LINE_START = re.compile(r"\n\s*(?=\S)")
# What ends a sentence for good, closers behind it allowed: after anything else (an ellipsis ending a menu
# label, a bracket) the segmenter's cut may fall inside the writer's sentence.
_FINAL = re.compile(r"(?<!\.)[.!?。！？．][\"'”’»」』)）\]]*$")  # (an ellipsis "..." is not final)
_CLOSERS = frozenset(",;:!?)]}。、，．；：！？）］｝】」』》〉”’…")
_TRAILING_OFF = re.compile(r"(?:\.\.\.|…)[\"'”’»]*$")  # a sentence trailing off, possibly to go on
_FIRST_LETTER = re.compile(r"[^\W\d_]")
# A word and the closer of a quotation: the quotation's last word (``…AGAIN. STOP" This is…``); a straight
# quote glued to the word before it and spaced from the next closes.
_WORD_THEN_CLOSER = re.compile(r"[^\W\d_]+[.!?…]*(?:\"(?=\s|[^\w\s])|[”」』])")
# Particles no word begins with (Japanese を, Korean 을 를 는): after a quotation or a bracket that a
# question or an exclamation ends (``「…ありますか?」 を見てください``, ``질문(그리고 답!)을 드립니다``) the
# writer's sentence goes on.
_PARTICLE = re.compile(r"[を을를는]")
_ENDED_INSIDE = re.compile(r"[.!?。！？][」』)）\"”’]+$")
# An abbreviation the segmenter ends a sentence at: one with inner full stops behind a bracket or a quote
# (``(e.g.``, ``(z.B.``; ``sentence_spans`` merges it bare), or a Latin title without a vowel (``Dr.``,
# ``Mr.``, ``Mk.``) before a name.
_ABBREVIATION = re.compile(r"[(\[\"'“‘«„]+(?:[^\W\d_]{1,3}\.){2,}|[A-Z][b-df-hj-np-tv-xz]{1,2}\.")
# An end mark alone in brackets or quotes, naming itself (``ピリオド (.)``, ``感嘆符 (!)``, ``` `?' ```,
# ``‘.’``, ``"."``): the segmenter ends a sentence there, the writer's goes on (``…(.) を用いる…``).
_NAMED_MARK = re.compile(r"[(（\"'“‘`「][.!?。！？][)）\"'”’」]$")


def continues(text: str, previous_end: int, start: int) -> bool:
    """Whether the segmenter's cut before ``start`` falls inside a writer's sentence, so that no reply could
    open there: the piece opens with closing punctuation (a quote's closer the segmenter left behind its
    end mark: ``…dijo. » Y``, ``"Hi." " she``; a full stop after an ellipsis; a slash between two
    questions, ``…activada? / ¿Por qué…``) or with the last word of a quotation and its closer (``…TO
    WORK AGAIN. STOP" This is…``); after an end mark alone in brackets or quotes, which names the mark
    (``ピリオド (.) を用いる…``, ``구두점(.)을 붙여…``); with a particle no word begins with after a
    quotation or a bracket an end mark closes (``「…ありますか?」 を見てください``); after an abbreviation
    behind a bracket (``(e.g. " for inches)``) or a title without a vowel (``said Dr. Melissus…``); with a
    lowercase word after a sentence that trails off (``Mi hermano... ¿secuestrado?``); or with a letter of
    a caseless script after a piece that no end mark closes (``보정…을 눌러``, ``その他... をクリック``)."""
    first = text[start]
    if first in _CLOSERS or (first in "./" and not text[start + 1 : start + 2].isalnum()):
        return True
    before = text[:start]
    if _NAMED_MARK.search(text, 0, previous_end) or _WORD_THEN_CLOSER.match(text, start):
        return True
    tail = text[max(0, previous_end - 24) : previous_end].split()
    if tail and _ABBREVIATION.fullmatch(tail[-1]):
        return True
    if _PARTICLE.match(first) and _ENDED_INSIDE.search(text, 0, previous_end):
        return True
    if first == '"':
        return before.count('"') % 2 == 1  # straight quotes alternate: an odd number before, this one closes
    if first == "»":
        return before.count("«") > before.count("»")  # (German opens with »: only after an open «)
    previous = text[max(0, previous_end - 8) : previous_end]
    letter = m.group() if (m := _FIRST_LETTER.search(text, start, start + 4)) else ""
    if letter.islower() and _TRAILING_OFF.search(previous):
        return True  # "Mi hermano... ¿secuestrado?", "Número2, 3, ... – opcional."
    caseless = first.isalpha() and not first.isupper() and not first.islower()
    return caseless and _FINAL.search(previous) is None


def openers(text: str) -> Iterator[tuple[str, int]]:
    """(kind, offset) of every place the text could open a reply, in order, each offset once: the start,
    every line's first visible character, every sentence start where a writer starts one."""
    seen: dict[int, str] = {0: "first"}
    for m in _LINE_START.finditer(text):
        seen.setdefault(m.end(), "paragraph")
    previous_end = 0
    for start, end in sentence_spans(text):
        if start and not continues(text, previous_end, start):
            seen.setdefault(start, "sentence")
        previous_end = end
    for at in sorted(seen):
        yield seen[at], at


def judgeable(text: str) -> bool:
    """Whether the judge judges ``text`` at all (enough weighted letters; fewer is ``too_short``)."""
    return weight(script_counts(text)) >= MIN_REPLY_LETTERS


def rate(c: Counter[str]) -> str:
    n = c["judged"]
    return f"{n:8}  false-fail {c['fail'] / n:.3%}  ({c['fail']})" if n else f"{n:8}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", help="eval files (*_replies.jsonl or *_paragraphs.jsonl)")
    parser.add_argument("--split", choices=["dev", "test", "all"], default="dev")
    parser.add_argument("--locale", default="", help="only this locale")
    parser.add_argument("--show", action="store_true", help="print every failure")
    parser.add_argument("--limit", type=int, default=200, help="failures printed at most")
    args = parser.parse_args()
    judge = default_judge()
    tally: dict[str, Counter[str]] = {}
    shown, started, replies = 0, time.perf_counter(), 0

    def count(key: str, outcome: str) -> None:
        tally.setdefault(key, Counter())[outcome] += 1

    for path in args.files:
        name = set_name(path)
        for row in rows(path, args.split):
            locale = str(row["locale"])
            if args.locale and locale != args.locale:
                continue
            replies += 1
            text = unicodedata.normalize("NFC", str(row["text"]))
            for kind, at in openers(text):
                reply = text[at : at + MAX_JUDGED_CHARS].strip()
                if not judgeable(reply):
                    continue
                found = find_corrupted_start(reply, locale)
                failed = found is not None and str(judge.judge(reply, locale).reason) == "leading_garbage"
                outcomes = ["judged", "fail"] if failed else ["judged"]
                for outcome in outcomes:
                    for key in (
                        "all",
                        f"set {name}",
                        f"kind {kind}",
                        f"locale {locale}",
                        f"set {name} {kind}",
                    ):
                        count(key, outcome)
                if failed and found is not None:
                    count(f"garbage {found.kind}", "fail")
                    count(f"garbage {found.kind}", "judged")
                    if args.show and shown < args.limit:
                        shown += 1
                        before = text[max(0, at - 50) : at]
                        print(
                            f"--- {name} {locale} {kind} {found.kind} {found.prefix!r}: {before!r} | {reply[:160]!r}"
                        )
    elapsed = time.perf_counter() - started
    print(
        f"{replies} replies, {tally.get('all', Counter())['judged']} openers in {elapsed:.1f} s, split={args.split}"
    )
    for key in sorted(tally, key=lambda k: (k.split()[0] != "all", k)):
        if key.startswith("garbage"):
            print(f"{key:34} {tally[key]['fail']:8} fails")
        else:
            print(f"{key:34} {rate(tally[key])}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
