# ruff: noqa: E501  (commands in the docstring)
"""Mixing pressure: clean text the judge must not call mixing or a switch, in more shapes than the evals hold.

Usage::

    .venv/bin/python bench/mixing_pressure.py bench/results/*_replies.jsonl \\
        bench/results/*_paragraphs.jsonl --split dev [--show KIND] [--per-locale N]

For every reply of the chosen split of each file (the split rule of the evals: a reply is in its
source's split, ``judge_cases.split_of``) the language judge sees three kinds of clean text:

- ``reply``: the reply itself;
- ``paragraph``: each of its paragraphs as a reply on its own (blank-line separated; a fiction reply
  is a run of translated messages, ``lines``, each one a paragraph); none when the reply is one;
- ``joined``: the reply, a blank line and another reply of the same set and locale from a different
  source (both native, so the joined text is clean too).

A text counts as a false fail only when the judge fails it as ``mixing`` or ``switch``; the other
reasons are other evaluations' business. Prints the false-fail per set and kind, then per locale and
kind (the locales with a failure). ``--show KINDS`` (dev only) prints each false fail of those kinds with
the sentences the judge called foreign, the language it named and what both models said. Both file
shapes are read: the fiction builders' rows (``lines``) and the documentation builders' paragraphs.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from eval_sets import rows, set_name

from exporter.language.judge import Verdict, default_judge
from exporter.language.locales import LOCALES
from exporter.outcomes import Outcome, Reason

KINDS = ("reply", "paragraph", "joined")
COUNTED = frozenset({Reason.MIXING, Reason.SWITCH})


def paragraphs(row: dict[str, object]) -> list[str]:
    """The reply's paragraphs: blank-line separated, or the messages a fiction reply is made of."""
    text = str(row["text"])
    parts = [p.strip() for p in text.split("\n\n") if p.strip()]
    if len(parts) == 1 and isinstance(lines := row.get("lines"), list) and len(lines) > 1:
        parts = [str(line).strip() for line in lines if str(line).strip()]
    return parts if len(parts) > 1 else []


def cases(
    replies: Iterable[dict[str, object]], name: str, per_locale: int, seed: int
) -> Iterator[dict[str, str]]:
    """The pressure cases of one file's rows of a split (``eval_sets.rows``): dicts of set, kind, locale,
    source, text."""
    rng = random.Random(seed)
    by_locale: dict[str, list[dict[str, object]]] = defaultdict(list)
    for r in replies:
        by_locale[str(r["locale"])].append(r)
    for locale in LOCALES:
        items = sorted(by_locale.get(locale, []), key=lambda r: (str(r["source"]), str(r["text"])))
        rng.shuffle(items)
        items = items[:per_locale] if per_locale else items
        for i, r in enumerate(items):
            source, text = str(r["source"]), str(r["text"]).strip()
            base = {"set": name, "locale": locale, "source": source}
            yield {**base, "kind": "reply", "text": text}
            for part in paragraphs(r):
                yield {**base, "kind": "paragraph", "text": part}
            # The partner: the next reply (in the shuffled order) from another source, if any.
            for j in range(1, len(items)):
                other = items[(i + j) % len(items)]
                if str(other["source"]) != source:
                    yield {**base, "kind": "joined", "text": f"{text}\n\n{str(other['text']).strip()}"}
                    break


def evidence_lines(verdict: Verdict) -> list[str]:
    """What the judge saw: each sentence it called foreign, its language and both models' answers."""
    ev = verdict.evidence
    out = []
    for s in ev.get("foreign", []) or []:  # type: ignore[attr-defined]
        models = json.dumps(s.get("models", {}), ensure_ascii=False)
        out.append(f"    [{s['language']} by {s['basis']}] {s['text']!r} {models}")
    for key in ("whole_reply", "pooled"):
        if key in ev:
            out.append(f"    {key}: {json.dumps(ev[key], ensure_ascii=False)}")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--per-locale", type=int, default=0, help="replies per set and locale (0: all)")
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument(
        "--show", default="", help="print the false fails of these kinds: comma-separated or all (dev only)"
    )
    parser.add_argument("--limit", type=int, default=50)
    parser.add_argument("--locale", default="")
    args = parser.parse_args()
    if args.show and args.split != "dev":
        parser.error("--show reads texts: dev split only")
    show = set(KINDS) if args.show == "all" else set(filter(None, args.show.split(",")))
    judge, shown, started = default_judge(), 0, time.perf_counter()
    tally: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    per_locale: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    for path in args.files:
        for c in cases(rows(path, args.split), set_name(path), args.per_locale, args.seed):
            if args.locale and c["locale"] != args.locale:
                continue
            verdict = judge.judge(c["text"], c["locale"])
            failed = verdict.outcome is Outcome.FAIL and verdict.reason in COUNTED
            outcome = f"fail:{verdict.reason}" if failed else "ok"
            for key in ((c["set"], c["kind"]), ("ALL", c["kind"])):
                tally[key][outcome] += 1
            per_locale[(c["locale"], c["kind"])][outcome] += 1
            if failed and c["kind"] in show and shown < args.limit:
                shown += 1
                print(
                    f"--- {c['set']} {c['kind']} {c['locale']} {c['source']} -> {verdict.reason}: {verdict.detail}"
                )
                print(f"    {c['text'][:400]!r}")
                print("\n".join(evidence_lines(verdict)))
    print(f"split={args.split} in {time.perf_counter() - started:.0f} s")
    print(f"{'set':12} {'kind':10} {'texts':>7} {'mixing':>7} {'switch':>7} {'false-fail':>10}")
    for (name, kind), c in sorted(tally.items(), key=lambda kv: (kv[0][0] == "ALL", kv[0])):
        print(_row(f"{name:12} {kind:10}", c))
    print("per locale (locales with a false fail):")
    for (locale, kind), c in sorted(per_locale.items()):
        if c["ok"] != sum(c.values()):
            print(_row(f"{locale:12} {kind:10}", c))
    return 0


def _row(label: str, c: Counter[str]) -> str:
    n = sum(c.values())
    mixing, switch = c[f"fail:{Reason.MIXING}"], c[f"fail:{Reason.SWITCH}"]
    return f"{label} {n:7} {mixing:7} {switch:7} {(mixing + switch) / max(n, 1):10.3%}"


if __name__ == "__main__":
    raise SystemExit(main())
