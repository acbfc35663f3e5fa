# ruff: noqa: E501  (commands in the docstring)
"""Clean false-fail per set, raw and on the cases a judge-independent audit leaves clean (corpus/audit.py).

Usage::

    PYTHONPATH=. .venv/bin/python bench/clean_audit.py dev \\
        --vocab /tmp/whisper/openai_whisper-20250625/whisper/assets/multilingual.tiktoken [SETS...]
    PYTHONPATH=. .venv/bin/python bench/clean_audit.py dev --vocab FILE --audit-only --show-audited games rpg

The clean cases are the ones the evaluations draw: fiction_eval's (``*_replies.jsonl``: 3000 replies per
locale, seed 26) and judges_eval's (``*_paragraphs.jsonl``: 5000 paragraphs per locale, seed 11). A case
fails when the judge or the reply screen fails it, as in those evaluations. The audit reads each case's
source units (a reply's translated messages, a paragraph) and never the verdict. Per set it prints: clean
cases, cases the audit takes out (by finding), failures raw and failures on the audited-clean cases, each
by reason. ``--show-audited`` and ``--show-failures`` print texts, for the dev split only: the test split
is scored, never read.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import fiction_eval
import judges_eval
from audit import Finding, audit_units
from eval_sets import RESULTS, eval_files, is_fiction, set_name
from fiction_cases import split_of
from vocabularies import Pieces, pieces_argument

from exporter.contracts.reply_checks import screen
from exporter.language.judge import Judge, default_judge

FICTION_PER_LOCALE, FICTION_SEED = 3000, 26  # fiction_eval's draw
DOCS_PER_LOCALE, DOCS_SEED = 5000, 11  # judges_eval's draw


@dataclass(frozen=True, slots=True)
class Case:
    locale: str
    text: str  # what the judge reads
    units: tuple[str, ...]  # the source's own units: a reply's messages, or the paragraph


@dataclass(slots=True)
class Tally:
    cases: int = 0
    audited_out: Counter[str] = field(default_factory=Counter)  # by the first finding's kind
    failed: Counter[str] = field(default_factory=Counter)  # raw, by reason
    failed_clean: Counter[str] = field(default_factory=Counter)  # on audited-clean cases, by reason

    def line(self, name: str, register: str) -> str:
        out, raw, kept = (
            sum(self.audited_out.values()),
            sum(self.failed.values()),
            sum(self.failed_clean.values()),
        )
        clean = self.cases - out
        return (f"{name:12} {register:8} cases {self.cases:6}  audited out {out:4} {dict(self.audited_out)}\n"
                f"{'':21} raw {raw:4} / {self.cases:6} ({raw / max(1, self.cases):.2%}) {dict(self.failed)}\n"
                f"{'':21} audited-clean {kept:4} / {clean:6} ({kept / max(1, clean):.2%}) {dict(self.failed_clean)}")  # fmt: skip


def fiction_cases(path: Path, split: str, pieces: Pieces) -> Iterator[Case]:
    """fiction_eval's clean cases of ``split``, each with the messages its reply was joined from."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    lines = {(str(r["locale"]), str(r["text"])): tuple(r["lines"]) for r in rows}
    for c in fiction_eval.cases(rows, FICTION_PER_LOCALE, pieces, FICTION_SEED):
        if c["kind"] == "clean" and c["split"] == split:
            yield Case(c["locale"], c["text"], lines[c["locale"], c["text"]])


def paragraph_cases(path: Path, split: str) -> Iterator[Case]:
    """judges_eval's clean cases of ``split``: the sampled paragraphs themselves."""
    rows = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    for r in judges_eval.sample(rows, DOCS_PER_LOCALE, DOCS_SEED):
        if split_of(r["source"]) == split:
            yield Case(r["locale"], r["text"], (r["text"],))


def failure(judge: Judge, case: Case, fiction: bool) -> str | None:
    """Why the judge or the reply screen fails ``case``, or None (as fiction_eval and judges_eval count)."""
    found = screen(case.text, "stop") if fiction else screen(case.text, "stop", truncation=False)
    if found is not None:
        return f"screen:{found.reason}"
    verdict = judge.judge(case.text, case.locale)
    return str(verdict.reason) if str(verdict.outcome) == "fail" else None


def show(label: str, case: Case, detail: str) -> None:
    print(f"  {label} {case.locale} {detail} {case.text[:400]!r}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", choices=["dev", "test"])
    parser.add_argument(
        "sets", nargs="*", help="set names (games, gimp, ...); default: every set in --results"
    )
    parser.add_argument(
        "--results", type=Path, default=RESULTS, help="folder of *_replies.jsonl and *_paragraphs.jsonl"
    )
    parser.add_argument("--vocab", type=pieces_argument, required=True,
                        help="the tokenizer vocabulary fiction_eval draws its cases with (it sets the clean draw)")  # fmt: skip
    parser.add_argument("--audit-only", action="store_true", help="count the audit's findings, run no judge")
    parser.add_argument("--show-audited", action="store_true", help="print every finding (dev only)")
    parser.add_argument(
        "--show-failures", action="store_true", help="print failures on audited-clean cases (dev only)"
    )
    args = parser.parse_intermixed_args()  # the sets may follow the options, as the usage writes them
    if args.split == "test" and (args.show_audited or args.show_failures):
        parser.error("the test split is scored, never read: --show-* works on dev only")
    judge = None if args.audit_only else default_judge()
    totals: dict[str, Tally] = {"fiction": Tally(), "doc": Tally()}
    for path in eval_files(args.results):
        fiction, name = is_fiction(path), set_name(path)
        if args.sets and name not in args.sets:
            continue
        register = "fiction" if fiction else "doc"
        tally = Tally()
        cases = fiction_cases(path, args.split, args.vocab) if fiction else paragraph_cases(path, args.split)
        for case in cases:
            tally.cases += 1
            findings: list[Finding] = audit_units(case.units, case.locale)
            if findings:
                tally.audited_out[findings[0].kind] += 1
                if args.show_audited:
                    for f in findings:
                        show(f"AUDIT {f.kind}", case, f"{f.detail} {f.text[:200]!r}")
            if judge is None:
                continue
            reason = failure(judge, case, fiction)
            if reason is not None:
                tally.failed[reason] += 1
                if not findings:
                    tally.failed_clean[reason] += 1
                    if args.show_failures:
                        show(f"FAIL {reason}", case, "")
        print(tally.line(name, register), flush=True)
        total = totals[register]
        total.cases += tally.cases
        total.audited_out.update(tally.audited_out)
        total.failed.update(tally.failed)
        total.failed_clean.update(tally.failed_clean)
    for register, total in totals.items():
        if total.cases:
            print(total.line("ALL", register))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
