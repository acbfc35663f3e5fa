"""How close clean text comes to each repetition rule's threshold: the margin study of the reply screen.

Usage::

    .venv/bin/python bench/repetition_margins.py --split dev
    .venv/bin/python bench/repetition_margins.py --split dev --rule sentence --show 50
    .venv/bin/python bench/repetition_margins.py bench/results/libreoffice_paragraphs.jsonl --show 20

A split with no false fail still holds evidence: the clean texts that came closest to a rule's threshold
show which legitimate structures push its score up. For every text ``bench/screen_pressure.py`` screens
(its ``reply``, ``joined`` and ``run`` variants: the paragraph and sentence variants are suffixes of a
reply) this tool measures each rule of ``exporter/language/repetition.py`` before its guards, as a
**score**: the measure over its threshold, so that 1.0 or more is where the rule's test fires and only a
guard (a refrain, a template naming new items, a reply that says something new) keeps the text from
failing. The rules and their scores:

- ``token``: the longest back-to-back run of a unit, the tokens it covers over those a loop of its period
  must cover (runs under half of that are not looked for: 0);
- ``sentence``: a sentence said twice or more (its letters enough): the smaller of its copies over
  ``SENTENCE_MIN_REPEATS`` and their share of the window over ``SENTENCE_MIN_SHARE``; ``many``: its
  copies over ``SENTENCE_MANY``;
- ``cycle``: sentences taking turns at the end, the turns over ``CYCLE_MIN_REPEATS``;
- ``echo``: the largest share of repeated word pairs of a stretch at the end over ``ECHO_MIN_SHARE``;
- ``drift``: near-copies in a row at the end over ``DRIFT_MIN_COPIES``;
- ``compression``: ``COMPRESS_MAX_RATIO`` over the reply's ratio; ``tail``: the smaller of
  ``TAIL_MAX_RATIO`` over the last quarter's ratio and ``TAIL_HEAD_MAX_RATIO`` times the first quarter's
  over it.

It prints, per rule, the distribution of scores (how many texts reach 0.5, 0.75, 0.9, 1.0) and, for the
texts at 1.0 or more and those at 0.75 or more, which guard passes them (``none``: at 1.0 the text fails;
under it, it would fail once its score crossed) and how firmly: the guard's **strength**, its own measure
over its threshold (the characters said between a sentence's copies over what ``designed``, ``items`` or
``frame`` asks; a template's new words over ``ECHO_MIN_NEW`` or new combinations over
``ECHO_MIN_COMBINATIONS``; the near-copies naming something new over half of them; ``LEFT`` for a guard that
is a fact: a refrain, list items, a reply that left the copies), the best of the guards a rule has. A
strength under 1.0 is a text no guard passes; between 1.0 and 1.5, one a little less new content fails.
``--show N`` prints the N texts of highest score per rule (dev only) with that guard and strength.
"""

from __future__ import annotations

import argparse
import math
import sys
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from eval_sets import eval_files, is_fiction, set_name
from screen_pressure import cases, load

from exporter.language import repetition as rep
from exporter.language.segment import split_sentences
from exporter.language.truncation import LIST_ITEM

RULES = ("token", "sentence", "many", "cycle", "echo", "drift", "compression", "tail")
BANDS = (0.5, 0.75, 0.9, 1.0)
SCAN = 0.5  # token runs under this share of what a loop must cover are not looked for
GUARDED = 0.75  # scores from here on are asked whether a guard would pass the text, were it over 1.0
LEFT = 9.99  # the strength of a guard that is a fact, not a count (the reply left the copies, a refrain)
STRENGTHS = (1.0, 1.5, 2.0)  # guard strength bands of the texts at 1.0 or more


@dataclass(frozen=True, slots=True)
class Score:
    rule: str
    value: float
    guard: str  # what passed a text at 1.0 or more ("" when nothing did, or under 1.0)
    detail: str
    strength: float = 0.0  # the passing guard's measure over its threshold (1.0 or more passes; 0: none)


# The guards as measures: what each guard counts over the count it needs (1.0 or more: the guard passes),
# so that a text a guard passed by a hair shows as much as one a rule's score nearly failed.


def token_score(tokens: list[str], text: str = "") -> Score:
    """``_token_loop``'s walk, looking for runs covering ``SCAN`` of what a loop of the period must; from
    ``GUARDED`` on, whether the reply leaves the run (``rep._leaves``, as ``_token_loop`` asks it)."""
    count, best, turn_of_best, covered_best, end_best = len(tokens), 0.0, [""], 0, 0
    for period in range(1, rep.MAX_PERIOD + 1):
        repeats = rep.LOOP_MIN_REPEATS if period <= rep.SHORT_PERIOD else rep.LONG_MIN_REPEATS
        needed = max(rep.LOOP_MIN_TOKENS, repeats * period)
        target = needed * SCAN
        step = max(1, math.ceil(target) - period)
        if target > count:
            continue
        i = period + step - 1
        while i < count:
            if tokens[i] != tokens[i - period]:
                i += step
                continue
            start, end = rep.run_through(tokens, i, period)
            turn = tokens[end - period : end]
            if any(t[0].isalpha() for t in turn):
                covered = end - start + period
                if covered / needed > best:
                    best, turn_of_best, covered_best, end_best = covered / needed, turn, covered, end
            i = end + step
    guard = ""
    if best >= GUARDED and text:
        last = split_sentences(text)[-1].text
        final = count - len(rep.tokenize(last))
        if count - end_best >= covered_best and end_best <= final and rep._leaves(turn_of_best, last):
            guard = "left"
    return Score("token", best, guard, " ".join(turn_of_best)[:60], LEFT if guard else 0.0)


def sentence_scores(text: str) -> tuple[Score, Score, Score]:
    """``_sentence_loop``'s measures of its most repeated sentences, and ``_sentence_cycle``'s."""
    sentences = rep._continued(text, split_sentences(text))
    keys = [" ".join(s.text.casefold().split()) for s in sentences]
    counts = Counter(keys)
    end = len(text.rstrip())
    best = Score("sentence", 0.0, "", "")
    many = Score("many", 0.0, "", "")
    first_index: dict[str, int] = {}
    for index, key in enumerate(keys):
        first_index.setdefault(key, index)
    news = list(first_index.values())
    for key, n in counts.items():
        if n < 2 or len(rep._LETTER.findall(key)) < rep.SENTENCE_MIN_LETTERS:
            continue
        copies = [s for k, s in zip(keys, sentences, strict=True) if k == key]
        share = n * len(copies[0].text) / max(1, end - copies[0].start)
        value = min(n / rep.SENTENCE_MIN_REPEATS, share / rep.SENTENCE_MIN_SHARE)
        second = keys.index(key, first_index[key] + 1)
        refrain = max(news) > second and all(rep._own_line(text, c) for c in copies)
        designed = rep._new_between_copies(sentences, key) or rep._left_copies(text, sentences, copies, key)
        items = rep._new_between_copies(sentences, key, rep.ITEMS_MIN_NEW, every=True)
        frame = len(rep._words(key)) <= rep.FRAME_MAX_WORDS and "," not in key and "，" not in key
        framed = frame and rep._new_between_copies(sentences, key, rep.FRAME_MIN_NEW)
        detail = f"n={n} share={share:.2f} {key[:70]!r}"
        if value > best.value:
            unguarded = not (refrain or designed) and value >= GUARDED
            listed = unguarded and rep._list_items(sentences, key, counts)
            left = rep._left_copies(text, sentences, copies, key)
            guard = (
                "refrain" if refrain else "left" if left else "designed" if designed else
                "list-items" if listed else ""
            )  # fmt: skip
            strength = (
                LEFT
                if refrain or listed or left
                else rep.between_measure(sentences, key, rep.DESIGNED_MIN_NEW)
            )
            best = Score("sentence", value, guard if value >= GUARDED else "", detail, strength)
        if n / rep.SENTENCE_MANY > many.value:
            listed = rep._list_items(sentences, key, counts)
            guard = "items" if items else "frame" if framed else "list-items" if listed else ""
            strength = max(
                rep.between_measure(sentences, key, rep.ITEMS_MIN_NEW, every=True),
                rep.between_measure(sentences, key, rep.FRAME_MIN_NEW) if frame else 0.0,
                LEFT if listed else 0.0,
            )
            many = Score(
                "many", n / rep.SENTENCE_MANY, guard if n / rep.SENTENCE_MANY >= GUARDED else "", detail,
                strength,
            )  # fmt: skip
    cycle = Score("cycle", 0.0, "", "")
    for last in (len(keys), len(keys) - 1):
        for period in range(2, rep.CYCLE_MAX_SENTENCES + 1):
            if last < 2 * period:
                break
            j = last - 1 - period
            while j >= 0 and keys[j] == keys[j + period]:
                j -= 1
            repeats = (last - 1 - j) // period
            unit = keys[last - period : last]
            if len(rep._LETTER.findall("".join(unit))) >= rep.CYCLE_MIN_LETTERS:
                value = repeats / rep.CYCLE_MIN_REPEATS
                if value > cycle.value:
                    cycle = Score("cycle", value, "", f"x{repeats} {' / '.join(unit)[:70]!r}")
    return best, many, cycle


def echo_score(text: str, words: list[str]) -> Score:
    if len(words) < rep.ECHO_MIN_WORDS:
        return Score("echo", 0.0, "", "")
    seen: set[tuple[str, str]] = set()
    best, longest, top = 0.0, 0, 0
    for count, pair in enumerate(reversed(list(pairwise(words))), start=1):
        seen.add(pair)
        if count >= rep.ECHO_MIN_WORDS - 1:
            share = 1 - len(seen) / count
            if share > best:
                best, top = share, count
            longest = count if share >= rep.ECHO_MIN_SHARE else longest
    value = best / rep.ECHO_MIN_SHARE
    guard, strength = "", 0.0
    if value >= GUARDED:
        stretch = words[-(longest or top) - 1 :]
        half = len(stretch) // 2
        fresh = len(set(stretch[half:]) - set(stretch[:half])) / rep.ECHO_MIN_NEW
        strength = max(fresh, min(rep.says_new_measure(text, len(stretch)), LEFT))
        if fresh >= 1:
            guard = "new-words"
        elif rep._says_new(text, len(stretch)):
            guard = "says-new"
    return Score("echo", value, guard, f"{top + 1} words: {' '.join(words[-top - 1 :])[:80]!r}", strength)


def drift_score(text: str) -> Score:
    sentences = split_sentences(text)[-rep.DRIFT_MAX_COPIES :]
    if len(sentences) < 2:
        return Score("drift", 0.0, "", "")
    sets: dict[int, set[str]] = {}

    def tokens_of(index: int) -> set[str]:
        if index not in sets:
            sentence = sentences[index].text.casefold().rstrip(rep._END_MARKS)
            pieces = sentence.split()
            sets[index] = set() if LIST_ITEM.match(sentence) else set(pieces if len(pieces) > 2 else sentence)
        return sets[index]

    best = Score("drift", 0.0, "", "")
    for last in (len(sentences) - 1, len(sentences) - 2):
        first = last
        while first > 0 and rep._close(sentences[first - 1], sentences[first]):
            if not rep._alike(tokens_of(first - 1), tokens_of(first)):
                break
            first -= 1
        copies = last - first + 1
        if len(rep._LETTER.findall(sentences[last].text)) < rep.DRIFT_MIN_LETTERS:
            continue
        value = copies / rep.DRIFT_MIN_COPIES
        if value > best.value:
            guard, strength = "", 0.0
            if value >= GUARDED:
                listed = [rep._words(sentences[i].text) for i in range(first, last + 1)]
                left = rep._left(sentences)
                strength = max(min(rep.enumeration_measure(listed), LEFT), LEFT if left else 0.0)
                if rep._enumeration(listed):
                    guard = "enumeration"
                elif left:
                    guard = "left"
            best = Score("drift", value, guard, f"x{copies} {sentences[last].text[:70]!r}", strength)
    return best


def compression_scores(text: str) -> tuple[Score, Score]:
    raw = text.encode("utf-8", errors="replace")
    if len(raw) < rep.COMPRESS_MIN_BYTES:
        return Score("compression", 0.0, "", ""), Score("tail", 0.0, "", "")
    ratio = len(zlib.compress(raw, 6)) / len(raw)
    value = rep.COMPRESS_MAX_RATIO / ratio
    strength = rep.slots_measure(text, 0) if value >= GUARDED else 0.0
    guard = "fills-slots" if value >= GUARDED and rep._fills_slots(text, 0) else ""
    whole = Score("compression", value, guard, f"ratio {ratio:.3f} of {len(raw)} B", strength)
    tail = raw[-(len(raw) // 4) :]
    if len(tail) < rep.COMPRESS_MIN_BYTES:
        return whole, Score("tail", 0.0, "", "")
    tail_ratio = len(zlib.compress(tail, 6)) / len(tail)
    head = raw[: len(tail)]
    head_ratio = len(zlib.compress(head, 6)) / len(head)
    value = min(rep.TAIL_MAX_RATIO / tail_ratio, rep.TAIL_HEAD_MAX_RATIO * head_ratio / tail_ratio)
    guard, strength = "", 0.0
    if value >= GUARDED:
        sample = tail.decode("utf-8", errors="ignore")
        strength = rep.slots_measure(text, len(text) - len(sample))
        guard = "fills-slots" if rep._fills_slots(text, len(text) - len(sample)) else ""
    return whole, Score("tail", value, guard, f"tail {tail_ratio:.3f} head {head_ratio:.3f}", strength)


def scores(text: str) -> list[Score]:
    text = text[-rep.MAX_JUDGED_CHARS :]
    tokens = rep.tokenize(text)[-rep.MAX_LOOP_TOKENS :]
    words = rep._tail_words(tokens)
    return [token_score(tokens, text), *sentence_scores(text), echo_score(text, words), drift_score(text),
            *compression_scores(text)]  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="*", type=Path, help="eval JSONL files (default: every set)")
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--rule", choices=RULES, action="append", help="show only these rules")
    parser.add_argument("--show", type=int, default=0, help="print the N texts of highest score per rule")
    parser.add_argument("--variants", default="reply,joined,run")
    parser.add_argument("--chars", type=int, default=600, help="characters of each shown text")
    parser.add_argument("--unguarded", action="store_true", help="show only texts no guard would pass")
    args = parser.parse_args()
    if args.split == "test" and args.show:
        parser.error("--show reads texts: not on the test split")
    wanted = set(args.variants.split(","))
    bands: dict[str, Counter[str]] = defaultdict(Counter)
    top: dict[str, list[tuple[float, str, str, Score, str]]] = defaultdict(list)
    keep: Callable[[str], bool] = lambda rule: not args.rule or rule in args.rule  # noqa: E731
    for path in args.inputs or eval_files():
        name = set_name(path)
        for case in cases(load(path, args.split), truncation=is_fiction(path)):
            if case.variant not in wanted:
                continue
            for score in scores(case.text):
                counts = bands[score.rule]
                counts["texts"] += 1
                for band in BANDS:
                    counts[f">={band}"] += score.value >= band
                if score.value >= GUARDED:
                    over = "1.0+" if score.value >= 1 else "0.75+"
                    counts[f"guard {over} {score.guard or 'none'}"] += 1
                    # how firmly the texts near or over the threshold are passed: the guard's strength
                    firm = next((f"<{b}" for b in STRENGTHS if score.strength < b), f">={STRENGTHS[-1]}")
                    counts[f"strength {firm}"] += 1
                if (
                    args.show
                    and keep(score.rule)
                    and score.value >= 0.5
                    and not (args.unguarded and score.guard)
                ):
                    top[score.rule].append((score.value, name, case.variant, score, case.text))
                    top[score.rule].sort(key=lambda item: -item[0])
                    del top[score.rule][args.show :]
    for rule in RULES:
        if rule not in bands or not keep(rule):
            continue
        c = bands[rule]
        guards = ", ".join(f"{k[6:]} {v}" for k, v in sorted(c.items()) if k.startswith("guard "))
        strong = ", ".join(f"{k[9:]} {v}" for k, v in sorted(c.items()) if k.startswith("strength "))
        print(f"{rule:12} texts {c['texts']:7} " + " ".join(f">={b} {c[f'>={b}']:6}" for b in BANDS)
              + f"  guards: {guards}  strength: {strong}")  # fmt: skip
    for rule, items in top.items():
        print(f"\n=== {rule}: {len(items)} highest")
        for value, name, variant, score, text in items:
            print(f"--- {value:.2f} {name} {variant} guard={score.guard or '-'} strength={score.strength:.2f}"
                  f" {score.detail}")  # fmt: skip
            print(f"    {text[-args.chars :]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
