# ruff: noqa: E501  (commands in the docstring)
"""Trade curves of gates on sure foreign sentence calls, read from ``mixing_margins.py --dump --context``.

Usage::

    .venv/bin/python bench/mixing_margins.py bench/results/*_replies.jsonl --vocab $V --split dev \\
        --context --dump /tmp/records.jsonl
    .venv/bin/python bench/mixing_gates.py /tmp/records.jsonl [more dumps]

A gate is a predicate on one foreign sentence call; a call it accepts is taken as not sure (``Call.sure``
false): it can no longer make mixing alone (``judge.py``'s ``strong``, ``sure`` and ``seconded`` rules) nor
be the sure call ``MIXING_MIN_SURE`` asks of two or more. For each gate the tool counts, on clean text, the
sure calls it accepts and the mixing verdicts that would lose the rule they met; on the mixing cases, the
sure calls it accepts and the caught cases that would lose their rule, per set, with the recall that
leaves. The counts are bounds, not a judgement: a verdict that loses its rule may still be reached by the
whole-reply and pooled checks (``mixing_margins.py --before`` judges a constant both ways exactly), and a
switch (rule ``share``) does not ask for a sure call, so no switch is counted.

The gates are the general signals a foreign call can be weighed by besides its own models' confidence:

- ``llr``: the two languages' unigram models (``lexicon.preference``: Zipf frequencies, a word a list lacks
  at ``lexicon.ABSENT``, each word's term capped at ``lexicon.MAX_GAP``), per word, expected over named:
  a call whose words lean the named language's way by less than the bar (none when the named language
  has no list);
- ``llr x words``: the same over the whole sentence (per word times the words either list holds): the
  odds, in log10, of the named language over the expected one (3: a thousand to one);
- ``leans ours``: the words of a sentence in the reply's own script lean the expected language's way (the
  lexicons contradicting the models' call);
- ``said``: the same over the words written in lowercase only (verbs and function words; names and
  titles left out, as ``detect._said_our_way`` reads them);
- ``isolated``: neither neighbouring sentence is called foreign, fastText gives neither a tenth for the
  named language and CLD3 names it for neither (a lone foreign-looking sentence, not a passage),
  alone or with the other measures;
- position: the sentence alone on its line in a text of several lines, or wrapped in emphasis markup
  (``*…*``, ``_…_``); counted, with how many sentences of each group they apply to.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from pathlib import Path

Record = dict[str, object]
Sentence = dict[str, object]
Gate = Callable[[Sentence], bool]


def _neighbours(s: Sentence) -> list[dict[str, object]]:
    return [n for n in (s.get("prev"), s.get("next")) if isinstance(n, dict)]


def isolated(s: Sentence) -> bool:
    """Neither neighbour is called foreign or given the named language by either model."""
    return all(
        n["status"] != "foreign" and float(str(n["ft"])) < 0.1 and not n["cld3"] for n in _neighbours(s)
    )


SCRIPT_BASES = frozenset({"script", "hanzi", "alphabet"})  # calls the letters settle, not the words


def leans_ours(s: Sentence) -> bool:
    """A call of the models on a sentence in the reply's own script whose words lean the expected
    language's way, by 0.5 per word over two listed words or more: the lexicons contradict the models."""
    return (
        s["basis"] not in SCRIPT_BASES
        and s.get("llr") is not None
        and float(str(s["llr"])) >= 0.5
        and int(str(s["llr_words"])) >= 2
    )


def _at_least(key: str, bar: float) -> Gate:
    return lambda s: s.get(key) is not None and float(str(s[key])) >= bar


def _odds_below(bar: float) -> Gate:
    """The whole sentence's lean (per word times its words) gives the named language odds below 10^bar."""
    return lambda s: s.get("llr") is not None and float(str(s["llr"])) * int(str(s["llr_words"])) > -bar


def _both(first: Gate, second: Gate) -> Gate:
    return lambda s: first(s) and second(s)


def gates() -> dict[str, Gate]:
    out: dict[str, Gate] = {}
    for bar in (-1.5, -1.25, -1.0, -0.75, -0.5):
        out[f"llr >= {bar}"] = _at_least("llr", bar)
    for bar in (-1.25, -1.0, -0.75, -0.5):
        out[f"said >= {bar}"] = _at_least("said", bar)
    out["leans ours by 0.5, same script"] = leans_ours
    for odds in (3.0, 5.0, 8.0):
        out[f"llr x words > -{odds:g}"] = _odds_below(odds)
    out["isolated"] = isolated
    for bar in (-1.5, -1.25, -1.0, -0.75):
        out[f"isolated, llr >= {bar}"] = _both(isolated, _at_least("llr", bar))
    out["isolated, not strong"] = lambda s: isolated(s) and not s["strong"]
    out["isolated, fastText < 0.9"] = lambda s: isolated(s) and float(str(s["ft"])) < 0.9
    out["isolated, CLD3 < 0.9"] = lambda s: isolated(s) and float(str(s["cld3"])) < 0.9
    out["isolated, <= 6 words"] = lambda s: isolated(s) and int(str(s["words"])) <= 6
    out["own line"] = lambda s: bool(s.get("own_line"))
    out["emphasis markup"] = lambda s: bool(s.get("marked"))
    return out


def keeps_rule(record: Record, gate: Gate) -> bool:
    """Whether a mixing verdict keeps the rule it met with the calls ``gate`` accepts taken as not sure."""
    rule, sentences = record["rule"], record.get("sentences") or []
    assert isinstance(sentences, list)
    if rule in ("strong", "sure", "seconded"):
        return not gate(sentences[0])
    if rule == "sentences":
        # (a verdict whose calls, read again one by one, hold no sure one: the gate takes nothing from it)
        sure = [s for s in sentences if s["sure"]]
        return not sure or any(not gate(s) for s in sure)
    return True  # share (a switch), whole_reply, pooled, whole_text: no sure call asked


def records(paths: list[Path]) -> Iterator[Record]:
    for path in paths:
        with path.open(encoding="utf-8") as lines:
            for line in lines:
                yield json.loads(line)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dumps", nargs="+", type=Path, help="mixing_margins.py --dump --context files")
    args = parser.parse_args()
    table = gates()
    clean_calls: Counter[str] = Counter()
    clean_verdicts: Counter[str] = Counter()
    true_calls: Counter[str] = Counter()
    lost: defaultdict[str, Counter[str]] = defaultdict(Counter)
    applies: defaultdict[str, Counter[str]] = defaultdict(Counter)
    mixing: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    groups: Counter[str] = Counter()
    called = 0
    for r in records(args.dumps):
        true = r["kind"] in ("mixing", "switch")
        name = str(r["set"])
        if r["kind"] == "mixing":
            mixing[name] += 1
            caught[name] += bool(r["fail"])
        sentences = r.get("sentences") or []
        assert isinstance(sentences, list)
        if not sentences:
            continue
        group = "true" if true else "clean called" if r["called"] else "clean near"
        groups[group] += len(sentences)
        called += not true and r["called"] == "mixing"
        for label, gate in table.items():
            accepted = [s for s in sentences if gate(s)]
            applies[label][group] += len(accepted)
            sure = sum(1 for s in accepted if s["sure"])
            if true:
                true_calls[label] += sure
                if r["kind"] == "mixing" and r["called"] == "mixing" and not keeps_rule(r, gate):
                    lost[label][name] += 1
            else:
                clean_calls[label] += sure
                clean_verdicts[label] += r["called"] == "mixing" and not keeps_rule(r, gate)
    sets = sorted(mixing)
    print(
        f"foreign sentence calls: {dict(groups)}; clean texts failed as mixing: {called}\n"
        "dev mixing recall now: " + ", ".join(f"{n} {caught[n] / mixing[n]:.2%}" for n in sets)
    )
    print(
        f"\n{'gate':26} {'applies to (near / called / true)':>34} {'clean sure':>10} {'clean verdicts':>14} "
        f"{'true sure':>9} {'mixing cases':>12}  lowest recall left (upper bound on the loss)"
    )
    for label in table:
        a = applies[label]
        where = f"{a['clean near']} / {a['clean called']} / {a['true']}"
        left = {n: (caught[n] - lost[label][n]) / mixing[n] for n in sets if mixing[n]}
        worst = sorted(left.items(), key=lambda item: item[1])[:3]
        print(
            f"{label:26} {where:>34} {clean_calls[label]:10} {clean_verdicts[label]:14} {true_calls[label]:9} "
            f"{sum(lost[label].values()):12}  " + ", ".join(f"{n} {v:.2%}" for n, v in worst)
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
