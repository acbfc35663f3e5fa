# ruff: noqa: E501  (commands in the docstring)
"""How strong the evidence is behind the judge's mixing and switch calls on clean text, beside the calls it
makes on real mixing and switches, and what an evidence requirement would trade.

Usage::

    .venv/bin/python bench/mixing_evidence.py bench/results/*_replies.jsonl bench/results/*_paragraphs.jsonl \\
        --vocab /tmp/whisper/openai_whisper-20250625/whisper/assets/multilingual.tiktoken --split dev [--show]

For each set of the chosen split (dev: the rules are decided there; the texts are read only with
``--show``) the judge sees:

- **clean** text: the clean cases the evaluations pool (``fiction_eval.py``, 3,000 replies per locale, and
  ``judges_eval.py``, 5,000 paragraphs per locale) and ``mixing_pressure.py``'s replies, paragraphs and
  joined replies; a mixing or switch call on any of them is a false fail;
- **true** cases: the same evaluations' ``mixing`` and ``switch`` cases; any fail counts as caught.

For every mixing or switch call the evidence is taken apart: which requirement the call met
(``Verdict.evidence["rule"]``: ``sentences`` two or more foreign sentences, ``strong``/``sure``/``seconded``
one foreign sentence, ``share`` a switch; or ``whole_reply``, ``pooled``, ``whole_text``), and for a call on
one foreign sentence that sentence's weighted letters, words outside quotation marks, both models'
confidence in the named language, and the share of its words the expected language's lexicon does not
know. Prints the quantiles of each beside each other (clean false fails, true catches), then the trade
curve of requiring more of the one sentence: the clean false fails it would clear and each set's mixing
and switch recall after (a call cleared counts as missed; a reply cleared may still fail on a later
check, so recall is a lower bound and the clean count an upper one).
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import fiction_eval
import judges_eval
import mixing_pressure
from eval_sets import is_fiction, rows, set_name
from fiction_cases import Pieces
from vocabularies import pieces_argument

from exporter.language.detect import unknown_words
from exporter.language.judge import Judge, Verdict, default_judge
from exporter.language.locales import LOCALES
from exporter.language.repetition import MAX_JUDGED_CHARS
from exporter.language.scripts import CJK_SCRIPTS, script_counts, weight
from exporter.language.segment import unquote, word_count
from exporter.outcomes import Outcome, Reason

CLEAN = "(clean text)"
ONE_SENTENCE = frozenset({"strong", "sure", "seconded"})
MEASURES: dict[str, tuple[Callable[[dict[str, float]], float], tuple[float, ...]]] = {
    "letters": (lambda s: s["letters"], (25, 30, 35, 40, 50, 60)),
    "words": (lambda s: s["words"], (5, 6, 7, 8, 10)),
    "confidence": (lambda s: s["confidence"], (0.6, 0.7, 0.8, 0.9, 0.95)),
}


def eval_cases(path: Path, split: str, pieces: Pieces) -> Iterator[dict[str, str]]:
    """The clean, mixing and switch cases of the evaluation that reads this file, as pool.py picks them."""
    lines = [json.loads(line) for line in path.read_text("utf-8").splitlines() if line]
    if is_fiction(path):
        made = fiction_eval.cases(lines, 3000, pieces, 26)
    else:
        made = judges_eval.cases(judges_eval.sample(lines, 5000, 11), 11)
    for c in made:
        if c["split"] == split and c["kind"] in ("clean", "mixing", "switch"):
            yield c


def sentence_evidence(text: str, locale: str, verdict: Verdict) -> list[dict[str, float]]:
    """The evidence of each sentence the verdict called foreign."""
    expected = LOCALES[locale].language
    judged = unicodedata.normalize("NFC", text[:MAX_JUDGED_CHARS]).strip()
    out = []
    for s in verdict.evidence.get("foreign", []) or []:  # type: ignore[attr-defined]
        sentence = judged[s["start"] : s["end"]]
        models = s.get("models", {})
        ft = dict(models.get("fasttext", []))
        cld3 = models.get("cld3")
        confidence = ft.get(s["language"], 0.0)
        if cld3 is not None:
            confidence = min(confidence, cld3[1] if cld3[0] == s["language"] else 0.0)
        unknown, counted = (
            (0, 0) if LOCALES[locale].scripts <= CJK_SCRIPTS else unknown_words(sentence, expected)
        )
        out.append({"letters": weight(script_counts(sentence)), "words": word_count(unquote(sentence)),
                    "confidence": confidence, "unknown": unknown / counted if counted else 0.0})  # fmt: skip
    return out


def rule_of(verdict: Verdict) -> str:
    ev = verdict.evidence
    return str(ev.get("rule") or next((k for k in ("whole_reply", "pooled", "whole_text") if k in ev), "?"))


def judged(judge: Judge, case: dict[str, str], group: str, name: str, show: bool) -> dict[str, object]:
    verdict = judge.judge(case["text"], case["locale"])
    called = verdict.outcome is Outcome.FAIL and verdict.reason in (Reason.MIXING, Reason.SWITCH)
    record: dict[str, object] = {"group": group, "set": name, "kind": case["kind"],
                                 "fail": verdict.outcome is Outcome.FAIL, "called": called}  # fmt: skip
    if called:
        record["rule"] = rule_of(verdict)
        record["sentences"] = sentence_evidence(case["text"], case["locale"], verdict)
        if show and group == "clean":
            print(
                f"--- {name} {case['kind']} {case['locale']} {verdict.reason}/{record['rule']}: {verdict.detail}"
            )
            for s, e in zip(verdict.evidence.get("foreign", []) or [], record["sentences"], strict=True):  # type: ignore[call-overload]
                print(f"    {s['text']!r} {json.dumps(e)}")
    return record


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return "-"
    return " ".join(f"{values[int(p * (len(values) - 1))]:g}" for p in (0.1, 0.25, 0.5, 0.75))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--vocab",
        type=pieces_argument,
        required=True,
        help="a tokenizer vocabulary: .tiktoken, Tekken .json or SentencePiece model (vocabularies.py)",
    )
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--show", action="store_true", help="print each clean false fail (dev only)")
    args = parser.parse_args()
    if args.show and args.split != "dev":
        parser.error("--show reads texts: dev split only")
    judge, pieces = default_judge(), args.vocab
    records: list[dict[str, object]] = []
    for path in args.files:
        name = set_name(path)
        for c in eval_cases(path, args.split, pieces):
            records.append(judged(judge, c, "clean" if c["kind"] == "clean" else "true", name, args.show))
        for c in mixing_pressure.cases(rows(path, args.split), name, 0, 26):
            records.append(judged(judge, {**c, "kind": f"pressure {c['kind']}"}, "clean", name, args.show))
    report(records)
    return 0


def report(records: list[dict[str, object]]) -> None:
    called = [r for r in records if r["called"]]
    print("calls by requirement (clean false fails / true catches):")
    rules = Counter((str(r["rule"]), str(r["group"])) for r in called)
    for rule in sorted({rule for rule, _ in rules}):
        print(f"  {rule:12} {rules[(rule, 'clean')]:6} / {rules[(rule, 'true')]:6}")
    single = {g: [r["sentences"][0] for r in called if r["group"] == g and r["rule"] in ONE_SENTENCE]  # type: ignore[index]
              for g in ("clean", "true")}  # fmt: skip
    print("one foreign sentence, quantiles 10/25/50/75 % (clean false fails | true catches):")
    for key in ("letters", "words", "confidence", "unknown"):
        print(
            f"  {key:10} {quantiles([s[key] for s in single['clean']]):24} | {quantiles([s[key] for s in single['true']])}"
        )
    total: Counter[tuple[str, str]] = Counter()
    caught: Counter[tuple[str, str]] = Counter()
    for r in records:
        if r["group"] == "true":
            total[(str(r["set"]), str(r["kind"]))] += 1
            caught[(str(r["set"]), str(r["kind"]))] += bool(r["fail"])
    print(
        "recall now: " + " ".join(f"{s}/{k} {caught[(s, k)] / n:.1%}" for (s, k), n in sorted(total.items()))
    )
    print(
        "trade curve: a call on one foreign sentence needs at least T (clean cleared | recall after, where it moves)"
    )
    for measure, (value, thresholds) in MEASURES.items():
        for t in thresholds:
            cleared: Counter[tuple[str, str]] = Counter()
            for r in called:
                if r["rule"] in ONE_SENTENCE and value(r["sentences"][0]) < t:  # type: ignore[index]
                    cleared[
                        (str(r["set"]), str(r["kind"])) if r["group"] == "true" else (CLEAN, str(r["kind"]))
                    ] += 1
            clean = sum(n for (g, _), n in cleared.items() if g == CLEAN)
            moved = " ".join(
                f"{s}/{k} {(caught[(s, k)] - n) / total[(s, k)]:.1%}"
                for (s, k), n in sorted(cleared.items())
                if s != CLEAN
            )
            print(f"  {measure} >= {t:g}: clean {clean:3} | {moved}")


if __name__ == "__main__":
    raise SystemExit(main())
