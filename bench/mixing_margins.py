# ruff: noqa: E501  (commands in the docstring)
"""Mixing near misses: every foreign sentence call the judge makes on clean text, whether or not it made the
reply fail, beside the foreign sentence calls of real mixing and switches.

Usage::

    .venv/bin/python bench/mixing_margins.py bench/results/*_replies.jsonl bench/results/*_paragraphs.jsonl \\
        --vocab /tmp/whisper/openai_whisper-20250625/whisper/assets/multilingual.tiktoken --split dev \\
        [--dump records.jsonl [--context]]

A reply fails as mixing on foreign sentence calls (``judge.py``); a clean reply with one such call that
did not fail is a near miss: one more sentence, a little more share or a surer call and it fails. Those
replies are the population unseen clean text fails from, and on dev there are many more of them than
failures. The judge sees the cases ``mixing_evidence.py`` reads (the evaluations' clean, mixing and switch
cases as ``pool.py`` picks them, and ``mixing_pressure.py``'s clean texts). For each foreign sentence it
records the evidence: weighted letters and words outside quotation marks, its share of the reply, both
models' confidence in the named language and what fastText leaves to the expected one, the share of its
words the expected language's lexicon does not know, the expected-over-named lexicon log-likelihood ratio
per word (``lexicon.preference``; none when the named language has no lexicon), whether the named language
is a close neighbour, the call's basis and strength. Prints per set the clean mixing and switch calls, the
clean near misses and the recall of the true cases; on dev (rules are decided there), the quantiles of each
measure for clean and true foreign sentences. ``--dump`` (dev only) writes every record for a closer look;
with ``--context``, each foreign sentence's place (alone on a line, in emphasis markup) and the calls on
its neighbours too (``mixing_gates.py`` reads them).
"""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

import mixing_pressure
from eval_sets import rows, set_name
from mixing_evidence import eval_cases
from vocabularies import pieces_argument

from exporter.language import detect as detect_module
from exporter.language import judge as judge_module
from exporter.language.detect import CLOSE, VARIETY_OF, unknown_words
from exporter.language.judge import Judge, Verdict, default_judge, is_titled
from exporter.language.lexicon import lexicon_or_none, preference
from exporter.language.locales import LOCALES, LocaleSpec
from exporter.language.repetition import MAX_JUDGED_CHARS
from exporter.language.scripts import CJK_SCRIPTS, LETTERS
from exporter.language.segment import (
    QUOTE_MARKS,
    Sentence,
    is_quoted,
    join_bracketed,
    mask_code,
    split_sentences,
    unquote,
    word_count,
)
from exporter.outcomes import Outcome, Reason

MEASURES = ("letters", "words", "share", "ft", "cld3", "ft_native", "unknown", "llr")


def sentence_records(
    judge: Judge, text: str, locale: str, evidence: dict[str, object]
) -> list[dict[str, object]]:
    """The evidence of each sentence the judge called foreign in ``text``."""
    spec = LOCALES[locale]
    expected = spec.language
    judged = unicodedata.normalize("NFC", text[:MAX_JUDGED_CHARS]).strip()
    total = 0.0
    out: list[dict[str, object]] = []
    masked = mask_code(judged) if CONTEXT else ""
    split = join_bracketed(masked, split_sentences(masked)) if CONTEXT else []
    starts = [p.start for p in split]
    for s in evidence.get("foreign", []) or []:  # type: ignore[attr-defined]
        sentence = judged[s["start"] : s["end"]]
        at = starts.index(s["start"]) if s["start"] in starts else -1
        call = judge.ensemble.call(sentence.strip(QUOTE_MARKS), spec)
        language = str(s["language"])
        models = s.get("models", {})
        ft = dict(models.get("fasttext", []))
        cld3 = models.get("cld3") or ["", 0.0]
        cjk = spec.scripts <= CJK_SCRIPTS
        unknown, counted = (0, 0) if cjk else unknown_words(sentence, expected)
        first, second = lexicon_or_none(expected), lexicon_or_none(language)
        llr = said = None
        llr_words = 0
        if first is not None and second is not None and not cjk:
            lean = preference(first.words(unquote(sentence)), first, second)
            llr, llr_words = (round(lean.per_word, 3) if lean.words else None), lean.words
            lower = [word for word in LETTERS.findall(unquote(sentence)) if word[0].islower()]
            said_lean = preference(first.folded(lower), first, second)
            said = round(said_lean.per_word, 3) if said_lean.words else None
        total += call.weight
        out.append({
            "language": language, "basis": s["basis"], "strong": call.strong, "sure": call.sure,
            "letters": call.weight, "words": word_count(unquote(sentence)),
            "ft": ft.get(language, 0.0), "ft_native": ft.get(expected, 0.0),
            "cld3": cld3[1] if cld3[0] == language or VARIETY_OF.get(cld3[0]) == language else 0.0,
            "unknown": round(unknown / counted, 3) if counted else None, "llr": llr,
            "llr_words": llr_words, "said": said,
            "close": language in CLOSE.get(expected, ()) or VARIETY_OF.get(language) == expected,
            "quoted": is_quoted(judged, s["start"], s["end"]), "titled": is_titled(unquote(sentence)),
            **(context(judge, judged, split, at, spec, language) if CONTEXT and at >= 0 else {}),
            "text": sentence[:160],
        })  # fmt: skip
    return out


CONTEXT = False  # --context: each foreign sentence's position and its neighbours' calls too


def context(
    judge: Judge, text: str, split: list[Sentence], at: int, spec: LocaleSpec, language: str
) -> dict[str, object]:
    """Where the foreign sentence ``split[at]`` of ``text`` stands, and the calls on its neighbours."""
    s = split[at]
    return {
        **position(text, s.start, s.end),
        "prev": neighbour(judge, split, at - 1, spec, language),
        "next": neighbour(judge, split, at + 1, spec, language),
    }


def position(text: str, start: int, end: int) -> dict[str, object]:
    """Where a sentence stands in its text: alone on its line (and the text has other lines), after a
    colon, wrapped in emphasis markup (``*``, ``_``)."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    own_line = not text[line_start:start].strip() and not text[end:line_end].strip()
    before = text[:start].rstrip()
    sentence = text[start:end]
    return {
        "own_line": own_line and "\n" in text.strip(),
        "colon": before.endswith(":"),
        "marked": sentence[:1] in "*_" and sentence.rstrip(".!?…")[-1:] in "*_",
    }


def neighbour(
    judge: Judge, split: list[Sentence], at: int, spec: LocaleSpec, language: str
) -> dict[str, object] | None:
    """The call on the sentence at ``at`` of ``split`` (None outside it), and what both models give the
    language named for its neighbour."""
    if at < 0 or at >= len(split):
        return None
    text = split[at].text.strip(QUOTE_MARKS)
    call = judge.ensemble.call(text, spec)
    ft = dict(judge.ensemble.fasttext(text))
    cld3 = judge.ensemble.cld3(text)
    return {
        "status": call.status, "language": call.language, "ft": round(ft.get(language, 0.0), 3),
        "cld3": cld3[0] == language or VARIETY_OF.get(cld3[0]) == language,
    }  # fmt: skip


def called_as(verdict: Verdict) -> str:
    """``mixing`` or ``switch`` when the verdict fails the text for one of them, else empty."""
    called = verdict.outcome is Outcome.FAIL and verdict.reason in (Reason.MIXING, Reason.SWITCH)
    return str(verdict.reason) if called else ""


# detect.py constants whose rule is one predicate: a text the predicate never answered True for is judged
# the same with the constant as it was, so only the others are judged twice.
GATES = {"SAID_LEAN": "_said_our_way"}
_fired: list[bool] = []


def _gate(name: str) -> None:
    """Wrap ``detect_module.name`` so that ``_fired`` records each True it answers."""
    inner = getattr(detect_module, name)

    def gated(*args: object) -> bool:
        answer = bool(inner(*args))
        if answer:
            _fired.append(True)
        return answer

    setattr(detect_module, name, gated)


def record(
    judge: Judge, case: dict[str, str], name: str, before: dict[str, float] | None = None
) -> dict[str, object]:
    _fired.clear()
    verdict = judge.judge(case["text"], case["locale"])
    called = called_as(verdict)
    ev = verdict.evidence
    if before:
        # The judgement with the constants as they were, where it can differ: on a text with a foreign
        # sentence (the constants of judge.py's mixing decision act on nothing else), or on which a
        # detect.py rule gated by one (``GATES``) fired; any other detect.py constant: every text.
        was = verdict
        call_rule = [key for key in before if not hasattr(judge_module, key)]
        if ev.get("foreign") or _fired or any(key not in GATES for key in call_rule):
            owner = {key: judge_module if hasattr(judge_module, key) else detect_module for key in before}
            kept = {key: getattr(owner[key], key) for key in before}
            try:
                for key, value in before.items():
                    setattr(owner[key], key, value)
                was = judge.judge(case["text"], case["locale"])
            finally:
                for key, value in kept.items():
                    setattr(owner[key], key, value)
        return {"set": name, "kind": case["kind"], "locale": case["locale"], "sub": case.get("sub", ""),
                "fail": verdict.outcome is Outcome.FAIL, "called": called,
                "was_fail": was.outcome is Outcome.FAIL, "was_called": called_as(was)}  # fmt: skip
    out: dict[str, object] = {
        "set": name, "kind": case["kind"], "locale": case["locale"], "sub": case.get("sub", ""),
        "fail": verdict.outcome is Outcome.FAIL,
        "called": called, "rule": str(ev.get("rule", "")),
        "foreign_share": ev.get("foreign_share", 0.0), "native_sentences": ev.get("native_sentences", 0),
    }  # fmt: skip
    if ev.get("foreign"):
        sentences = sentence_records(judge, case["text"], case["locale"], ev)
        letters = [float(str(s["letters"])) for s in sentences]
        judged_weight = sum(letters) / max(float(str(ev.get("foreign_share") or 1.0)), 1e-9)
        for s, w in zip(sentences, letters, strict=True):
            s["share"] = round(w / judged_weight, 3) if judged_weight else 0.0
        out["sentences"] = sentences
    return out


def quantiles(values: list[float]) -> str:
    values = sorted(values)
    if not values:
        return "-"
    return " ".join(f"{values[int(p * (len(values) - 1))]:g}" for p in (0.1, 0.25, 0.5, 0.75, 0.9))


def report(records: list[dict[str, object]], split: str) -> None:
    sets = sorted({str(r["set"]) for r in records})
    print(
        f"{'set':14} {'clean':>7} {'mixing':>6} {'switch':>6} {'near':>5} {'pressure':>8} {'mixing':>6} {'switch':>6} {'near':>5}"
        "  recall mixing / switch"
    )
    for name in sets:
        mine = [r for r in records if r["set"] == name]
        cells = []
        for pressure in (False, True):
            clean = [r for r in mine if r["kind"] not in ("mixing", "switch")
                     and str(r["kind"]).startswith("pressure") == pressure]  # fmt: skip
            calls = Counter(str(r["called"]) for r in clean if r["called"])
            near = sum(1 for r in clean if not r["called"] and r.get("sentences"))
            cells.append(f"{len(clean):7} {calls['mixing']:6} {calls['switch']:6} {near:5}")
        recall = []
        for kind in ("mixing", "switch"):
            true = [r for r in mine if r["kind"] == kind]
            recall.append(
                f"{sum(bool(r['fail']) for r in true) / len(true):.2%} of {len(true)}" if true else "-"
            )
        print(f"{name:14} {cells[0]} {cells[1]:>s}  {' / '.join(recall)}", flush=True)
    malay = [
        r for r in records if r["kind"] in ("mixing", "switch") and r["locale"] == "id" and r["sub"] == "ms"
    ]
    if malay:
        print(
            f"Malay in Indonesian (mixing and switch): {sum(bool(r['fail']) for r in malay)} of {len(malay)}"
        )
    if split != "dev":
        return
    groups: dict[str, list[dict[str, object]]] = {"clean near": [], "clean called": [], "true": []}
    for r in records:
        key = "true" if r["kind"] in ("mixing", "switch") else "clean called" if r["called"] else "clean near"
        if key == "true" and not r["fail"]:
            continue
        groups[key] += r.get("sentences", [])  # type: ignore[arg-type]
    print("foreign sentences, quantiles 10/25/50/75/90 %:")
    print(f"  {'':10} " + " | ".join(f"{g} ({len(v)})" for g, v in groups.items()))
    for m in MEASURES:
        cells = [quantiles([float(s[m]) for s in v if s[m] is not None]) for v in groups.values()]  # type: ignore[arg-type]
        print(f"  {m:10} " + " | ".join(f"{c:30}" for c in cells))
    for flag in ("close", "quoted", "titled", "sure", "strong"):
        print(
            f"  {flag:10} "
            + " | ".join(f"{sum(bool(s[flag]) for s in v) / max(1, len(v)):.2f}" for v in groups.values())
        )
    bases = {g: Counter(str(s["basis"]) for s in v) for g, v in groups.items()}
    print("  basis      " + " | ".join(str(dict(b.most_common(6))) for b in bases.values()))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument(
        "--vocab", type=pieces_argument, required=True, help="a tokenizer vocabulary (vocabularies.py)"
    )
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--dump", type=Path, help="write every record here (dev only)")
    parser.add_argument("--no-pressure", action="store_true", help="only the evaluations' cases")
    parser.add_argument(
        "--context",
        action="store_true",
        help="record each foreign sentence's position (own line, after a colon, in emphasis markup) and the "
        "calls on its neighbours",
    )
    parser.add_argument(
        "--before",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a judge.py or detect.py constant as it was: each text is judged both ways, counts printed for both",
    )
    args = parser.parse_intermixed_args()
    if args.dump and args.split != "dev":
        parser.error("--dump keeps texts: dev split only")
    judge = default_judge()
    global CONTEXT
    CONTEXT = args.context
    before = {key: float(value) for key, value in (item.split("=", 1) for item in args.before)}
    for key in before:
        if key in GATES:
            _gate(GATES[key])
    if before and args.dump:
        parser.error("--before counts only")
    records = []
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    for path in args.files:
        name = set_name(path)
        mine = [record(judge, c, name, before) for c in eval_cases(path, args.split, args.vocab)]
        if not args.no_pressure:
            mine += [
                record(judge, {**c, "kind": f"pressure {c['kind']}"}, name, before)
                for c in mixing_pressure.cases(rows(path, args.split), name, 0, 26)
            ]
        if dump is not None:
            dump.writelines(json.dumps(r, ensure_ascii=False) + "\n" for r in mine)
            dump.flush()
        records += mine
        print(f"# {name} done", file=sys.stderr, flush=True)
    if before:
        print("before (" + ", ".join(args.before) + "):")
        report([{**r, "fail": r["was_fail"], "called": r["was_called"]} for r in records], "counts")
        print("after:")
        report(records, "counts")
    else:
        report(records, args.split)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
