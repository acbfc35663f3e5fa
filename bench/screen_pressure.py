"""Pressure on the reply screen from clean text: every way a real reply of the eval sets could open or go on.

Usage::

    .venv/bin/python bench/screen_pressure.py --split dev
    .venv/bin/python bench/screen_pressure.py --split dev --show refusal --limit 30
    .venv/bin/python bench/screen_pressure.py bench/results/libreoffice_paragraphs.jsonl --show repetition

A clean reply fails the screen (``exporter/contracts/reply_checks.py``) on a refusal phrase only when that
phrase falls near its start, and on repetition mostly when it is long; the eval sets' replies are a few
hundred characters each and start where their source does, so few of their sentences are ever read as an
opener and few of their paragraphs ever follow one another. This tool makes more openers and longer
replies out of the same real text. From each reply of the split (the eval sets' split rule:
``judge_cases.split_of`` of its source; the 17 locales; a documentation paragraph opening with ``""`` is
extraction debris, left out as ``judges_eval.py`` does) it screens:

- ``reply``: the reply itself;
- ``paragraph``: the reply from each of its paragraph starts on (a fiction reply's messages, its ``lines``;
  a line break in any reply);
- ``sentence``: the reply from each of its sentence starts on, cut where the product's segmenter splits
  (``bench/corpus/sentence_spans.py``): every character's line then meets the refusal window as an opener
  would;
- ``joined``: the reply, a blank line and the next reply of the same set, locale and split in the file's
  order (most often the next paragraph of the same page or campaign): a longer reply made of real
  paragraphs, where designed repetition (documentation steps, table rows, a refrain) meets the loop checks;
- ``run``: consecutive replies of the same set, locale and split in the file's order (neighbouring pages of
  a manual, the lines of one campaign or dialogue tree) joined by blank lines into one reply of 2, 4 or 8 KB
  (``RUN_TARGETS``, in turn; cut twice at other places, each reply is in two runs): the long replies whose
  designed repetition (option after option, function after function, the same template with other values) a
  pair is too short to show.

Each text is screened once (duplicates dropped), as the evals screen a clean reply: finish ``stop``,
truncation judged on the fiction sets (``*_replies.jsonl``) and not on the documentation sets
(``*_paragraphs.jsonl``, whose paragraphs end where the extraction cut them). Prints, per set, the texts
screened and the false-fails by variant and reason, then per locale and reason; ``--show REASON`` prints the
failing texts with what the screen found; ``--variant`` screens only one variant.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from eval_sets import eval_files, is_fiction, rows, set_name
from sentence_spans import sentence_spans

from exporter.contracts.reply_checks import screen

VARIANTS = ("reply", "paragraph", "sentence", "joined", "run")
JOINER = "\n\n"
RUN_TARGETS = (2_048, 4_096, 8_192)  # characters a run reaches before it ends, in turn
RUN_MIN_REPLIES = 3  # a run of fewer replies is a reply or a joined pair


@dataclass(frozen=True, slots=True)
class Reply:
    set: str
    locale: str
    text: str
    paragraphs: tuple[int, ...]  # offsets in ``text`` where a paragraph starts (0 included)


@dataclass(frozen=True, slots=True)
class Case:
    set: str
    locale: str
    variant: str
    text: str
    truncation: bool


def paragraph_starts(text: str, lines: list[str] | None) -> tuple[int, ...]:
    """Where the paragraphs of ``text`` start: after each line break, and at each of ``lines`` (a fiction
    reply is its messages joined) found in order."""
    starts = {0}
    at = 0
    for line in lines or ():
        found = text.find(line, at) if line else -1
        if found >= 0:
            starts.add(found)
            at = found + len(line)
    starts.update(i + 1 for i, c in enumerate(text) if c == "\n" and i + 1 < len(text))
    return tuple(sorted(s for s in starts if text[s:].strip()))


def load(path: Path, split: str) -> list[Reply]:
    """The replies of ``path`` in ``split``, in the file's order (the eval sets' split and filters)."""
    name, out = set_name(path), []
    for row in rows(path, split):
        text = str(row["text"])
        lines = [str(x) for x in row["lines"]] if isinstance(row.get("lines"), list) else None
        out.append(Reply(name, str(row["locale"]), text, paragraph_starts(text, lines)))
    return out


def variants(reply: Reply, following: Reply | None) -> Iterator[tuple[str, str]]:
    """(variant, text) of every text ``reply`` lends (``following``: the next reply of its set and locale)."""
    text = reply.text
    yield "reply", text
    paragraphs = set(reply.paragraphs) - {0}
    for start in sorted(paragraphs):
        yield "paragraph", text[start:]
    for start, _ in sentence_spans(text):
        if start > 0 and start not in paragraphs:
            yield "sentence", text[start:]
    if following is not None:
        yield "joined", text.rstrip() + JOINER + following.text.lstrip()


def runs(replies: list[Reply]) -> Iterator[Reply]:
    """``replies`` (one set) cut, per locale in the file's order, into runs of consecutive replies, each
    run ending once it reaches the next of ``RUN_TARGETS`` characters (the last one: whatever is left), and
    joined into one long reply when it holds ``RUN_MIN_REPLIES`` or more. Cut twice, the targets taken in
    turn from the first and from the last: each reply is in two runs, cut at other places."""
    by_locale: dict[str, list[Reply]] = defaultdict(list)
    for reply in replies:
        by_locale[reply.locale].append(reply)
    for first in (0, len(RUN_TARGETS) - 1):
        for items in by_locale.values():
            turn, run, size = first, list[Reply](), 0
            for index, reply in enumerate(items):
                run.append(reply)
                size += len(reply.text)
                if size < RUN_TARGETS[turn % len(RUN_TARGETS)] and index < len(items) - 1:
                    continue
                if len(run) >= RUN_MIN_REPLIES:
                    text = JOINER.join(each.text.strip() for each in run)
                    yield Reply(reply.set, reply.locale, text, (0,))
                turn += 1
                run, size = [], 0


def cases(replies: list[Reply], truncation: bool) -> Iterator[Case]:
    """Every case of ``replies`` (one set), each text once."""
    nexts: dict[str, Reply] = {}
    following: dict[int, Reply | None] = {}
    for index in range(len(replies) - 1, -1, -1):  # the next reply of each one's locale, in file order
        reply = replies[index]
        following[index] = nexts.get(reply.locale)
        nexts[reply.locale] = reply
    seen: set[str] = set()
    for index, reply in enumerate(replies):
        for variant, text in variants(reply, following[index]):
            if text not in seen:
                seen.add(text)
                yield Case(reply.set, reply.locale, variant, text, truncation)
    for run in runs(replies):
        if run.text not in seen:
            seen.add(run.text)
            yield Case(run.set, run.locale, "run", run.text, truncation)


def judge(case: Case) -> tuple[str, str] | None:
    """(reason, what was found) when the screen fails ``case``, else None."""
    found = screen(case.text, "stop", truncation=case.truncation)
    if found is None:
        return None
    return str(found.reason), json.dumps(found.evidence, ensure_ascii=False)[:160]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "inputs", nargs="*", type=Path, help="eval JSONL files (default: every set under bench/results)"
    )
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument(
        "--show", nargs="?", const="", help="print the failing texts (whose reason starts with this)"
    )
    parser.add_argument("--variant", default="", choices=("", *VARIANTS), help="screen only this variant")
    parser.add_argument("--limit", type=int, default=25)
    args = parser.parse_args()
    inputs = args.inputs or eval_files()
    if args.split == "test" and args.show is not None:
        parser.error("--show reads failing texts: not on the test split")
    by_set: dict[str, Counter[str]] = defaultdict(Counter)
    by_locale: dict[str, Counter[str]] = defaultdict(Counter)
    shown, started, total = 0, time.process_time(), 0
    for path in inputs:
        name, fiction = set_name(path), is_fiction(path)
        replies = load(path, args.split)
        by_set[name]["replies"] = len(replies)
        for case in cases(replies, truncation=fiction):
            if args.variant and case.variant != args.variant:
                continue
            total += 1
            by_set[name][case.variant] += 1
            if (failed := judge(case)) is None:
                continue
            reason, found = failed
            by_set[name][f"fail {case.variant} {reason}"] += 1
            by_set[name]["fail"] += 1
            by_locale[case.locale][reason] += 1
            if args.show is not None and reason.startswith(args.show) and shown < args.limit:
                shown += 1
                print(f"--- {name} {case.locale} {case.variant} {reason} {found}")
                print(f"    {case.text[:400]!r}")
    elapsed = time.process_time() - started
    print(f"{total} texts screened in {elapsed:.0f} CPU s, split={args.split}")
    print(
        f"{'set':12} {'replies':>7} "
        + " ".join(f"{v:>9}" for v in VARIANTS)
        + "  fail  false-fail  by variant/reason"
    )
    grand: Counter[str] = Counter()
    for name, c in by_set.items():
        n = sum(c[v] for v in VARIANTS)
        grand.update(c)
        details = ", ".join(f"{k[5:]} {v}" for k, v in sorted(c.items()) if k.startswith("fail "))
        print(f"{name:12} {c['replies']:7} " + " ".join(f"{c[v]:9}" for v in VARIANTS)
              + f"  {c['fail']:4}  {c['fail'] / max(1, n):9.3%}  {details}")  # fmt: skip
    n = sum(grand[v] for v in VARIANTS)
    print(f"{'all':12} {grand['replies']:7} " + " ".join(f"{grand[v]:9}" for v in VARIANTS)
          + f"  {grand['fail']:4}  {grand['fail'] / max(1, n):9.3%}")  # fmt: skip
    reasons: Counter[str] = Counter()
    for k, v in grand.items():
        if k.startswith("fail "):
            reasons[k.split()[-1]] += v
    print("by reason: " + ", ".join(f"{k} {v}" for k, v in reasons.most_common()))
    print("by locale: " + "; ".join(
        f"{loc} " + ", ".join(f"{r} {v}" for r, v in c.most_common()) for loc, c in sorted(by_locale.items())
    ))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
