"""Near misses of the refusal screen: clean dev texts holding a refusal-like phrase that pass, and why.

Usage::

    .venv/bin/python bench/refusal_margin.py                       # every dev set and pressure variant
    .venv/bin/python bench/refusal_margin.py --show quoted --limit 20
    .venv/bin/python bench/refusal_margin.py bench/results/rpg_replies.jsonl --family composed

The screen (``exporter/contracts/refusal_patterns.py``) finds a phrase, then lets it pass when the host is not
the one speaking. This tool replays that decision on every text ``bench/screen_pressure.py`` makes from
the dev split (the reply, each paragraph and sentence start, a joined pair, a run) and names, for each
phrase family (``hard``, ``soft`` constructions, ``composed`` declines, ``counter`` offers), the first
reading that let a matching phrase pass:

- ``quoted``: the phrase stands only in quoted speech or on a dialogue line;
- ``late``: a soft or composed phrase whose sentence starts after the lead (a decline opens the reply);
- ``reported``: a reporting clause follows it in its sentence (a character's line);
- ``thing``: a decline verb whose object is a thing of the story (``_DECLINED_THING``);
- ``steer``: a steer to another subject followed by a story's length of text without a question;
- ``story-after``: nothing of the request named from the phrase's sentence on, and a story's length of text
  after it without a question (``_story_after``, asked of every family);
- ``after-story``: a soft or composed decline after a question or the story, nothing of the request named up
  to its sentence's end (``_after_the_story``);
- ``no-me``: a composed core without the locale's first person; ``no-task``: nor a task word;
- ``not-own``: after other text, a plain core that governs no task word of its own (``_opens``);
- ``other-act``: a negated modal whose infinitive is another act (``_MODAL_INFINITIVE``);
- ``no-offer``: a counter-offer's exclusion without an offer opening the reply;
- ``named``: the phrase's sentence ends on a name or title after a comma, someone addressed
  (``_addressed_by_name``, asked of every family).

A text that fails is counted as ``fail``; one with no phrase at all is not counted. The readings a near miss
depends on are the ones an unseen variant of the same fiction structure can slip past: the texts shown
(``--show READING``, dev only) are the structures to keep passing. Prints, per set register (fiction,
documentation), the counts per family and reading, then per variant.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_sets import eval_files, is_fiction, set_name
from screen_pressure import cases, load

from exporter.contracts import refusal_patterns as rp


def _composed_reading(lowered: str, cased: str, codes: tuple[str, ...], end: int) -> str | None:
    """Why the composed declines of ``codes`` let ``lowered[:end]`` pass (a core matched), or None when no
    core matched or one declined (``rp._composed`` with its reasons; ``cased``: the text with its case)."""
    union, each = rp._COMPOSED_BY_CODES[codes]
    lead = rp._lead(end)
    reading = None
    for core in union.finditer(lowered, 0, end):
        first, last = rp._sentence(lowered, core.start(), core.end())
        if first > lead:
            return reading or "late"
        following = min(end, rp._sentence(lowered, last + 1, last + 1)[1] if last < len(lowered) else last)
        for code, (me, core_re, topic_re, strong_re, object_re) in zip(codes, each, strict=True):
            own = rp._own_core(lowered, code, core_re, first, last)
            if own is None:
                continue
            if me is not None and not me.search(lowered, first, last):
                reading = reading or "no-me"
                continue
            reach = following if last - own.end() <= rp.NEXT_TASK_MAX_TAIL else last
            topic = topic_re.search(lowered, first, reach)
            if topic is not None and topic.start() == own.start():
                topic = topic_re.search(lowered, own.end(), reach)
            if topic is None:
                if strong_re.search(lowered, first, last):
                    topic = object_re.search(lowered, first, last)
                if topic is None:
                    reading = reading or "no-task"
                    continue
            elif not rp._opens(lowered, first) and not strong_re.search(lowered, first, last):
                topic = rp._object(lowered, own, first, last, topic_re)
                if topic is None:
                    reading = "not-own" if reading in (None, "no-task", "no-me") else reading
                    continue
            if rp._reported(lowered, own.start(), own.end()):
                reading = "reported"
                continue
            if rp._after_the_story(lowered, first, last, codes):
                reading = "after-story"
                continue
            if rp._governs_another_act(lowered, code, own, first, last, topic_re):
                reading = "other-act"
                continue
            start, stop = min(own.start(), topic.start()), max(own.end(), topic.end())
            if rp._story_after(lowered, start, stop, codes):
                return "story-after"  # _composed returns this span; the story after it lets it pass
            if rp._addressed_by_name(cased, lowered, start, stop):
                return "named"
            return None
    return reading


def _phrase_reading(
    lowered: str, cased: str, pattern: re.Pattern[str], opens: int, codes: tuple[str, ...], soft: bool
) -> str | None:
    """Why the first match of a hard or soft ``pattern`` passes (None: no match, or it fails)."""
    m = pattern.search(lowered, 0, len(lowered))
    if m is None:
        return None
    if rp._sentence(lowered, m.start(), m.end())[0] > opens:
        return "late"
    if rp._reported(lowered, m.start(), m.end()):
        return "reported"
    if rp._declines_a_thing(lowered, m.start(), m.end(), rp._TOPICS_BY_CODES[codes]):
        return "thing"
    if rp._steer_then_story(lowered, m.start(), m.end(), codes is rp._GROUPS["cjk"]):
        return "steer"
    if rp._story_after(lowered, m.start(), m.end(), codes):
        return "story-after"
    if soft and rp._after_the_story(lowered, *rp._sentence(lowered, m.start(), m.end()), codes):
        return "after-story"
    if rp._addressed_by_name(cased, lowered, m.start(), m.end()):
        return "named"
    return None


def readings(text: str) -> dict[str, str]:
    """Per phrase family with a matching phrase in ``text``'s window, the reading that let it pass."""
    window = text[: rp.REFUSAL_WINDOW_CHARS]
    raw = window.lower()
    blanked = rp.unquoted(window) if rp._QUOTED.search(window) else window
    blank = blanked.lower() if blanked is not window else raw
    cased_raw, cased_blank = rp._cased(window, raw), rp._cased(blanked, blank)
    out: dict[str, str] = {}
    for trigger, hard, soft, end, codes in rp._BY_SCRIPT:
        if not trigger.search(raw, 0, end) or not rp._ANY_BY_CODES[codes].search(raw, 0, end):
            continue
        lead = rp._lead(end)
        for family, pattern, opens in (("hard", hard, end), ("soft", soft, lead)):
            if pattern.search(raw, 0, end) is None:
                continue
            if pattern.search(blank, 0, end) is None:
                out.setdefault(family, "quoted")
                continue
            reading = _phrase_reading(blank[:end], cased_blank[:end], pattern, opens, codes, family == "soft")
            if reading is not None:
                out.setdefault(family, reading)
        composed_raw = _composed_reading(raw, cased_raw, codes, end)
        composed = _composed_reading(blank, cased_blank, codes, end) if blank is not raw else composed_raw
        if composed is None and rp._composed(raw, codes, end) and not rp._composed(blank, codes, end):
            out.setdefault("composed", "quoted")
        elif composed is not None:
            out.setdefault("composed", composed)
        if rp._WITHOUT_BY_CODES[codes].search(blank, 0, end) and not rp._counter_offer(blank, codes, end):
            out.setdefault("counter", "no-offer")
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("inputs", nargs="*", type=Path, help="eval JSONL files (default: every set)")
    parser.add_argument("--show", help="print the dev texts let pass by this reading")
    parser.add_argument("--family", default="", help="only this family (hard, soft, composed, counter)")
    parser.add_argument("--limit", type=int, default=25)
    parser.add_argument("--dump", type=Path, help="write each near miss and fail as a JSON line")
    args = parser.parse_args()
    dump = args.dump.open("w", encoding="utf-8") if args.dump else None
    counts: dict[str, Counter[str]] = {"fiction": Counter(), "documentation": Counter()}
    by_variant: Counter[str] = Counter()
    shown = 0
    for path in args.inputs or eval_files():
        register = "fiction" if is_fiction(path) else "documentation"
        for case in cases(load(path, "dev"), truncation=False):
            found = readings(case.text)
            if args.family:
                found = {k: v for k, v in found.items() if k == args.family}
            if not found:
                continue
            failed = rp.find_refusal(case.text)
            if dump is not None:
                record = {
                    "set": set_name(path),
                    "locale": case.locale,
                    "variant": case.variant,
                    "fail": failed,
                }
                dump.write(
                    json.dumps({**record, "readings": found, "text": case.text[:400]}, ensure_ascii=False)
                )
                dump.write("\n")
            if failed is not None:
                counts[register]["fail"] += 1
                continue
            for family, reading in found.items():
                counts[register][f"{family} {reading}"] += 1
                by_variant[f"{case.variant} {reading}"] += 1
                if args.show == reading and shown < args.limit:
                    shown += 1
                    print(f"--- {set_name(path)} {case.locale} {case.variant} {family}:{reading}")
                    print(f"    {case.text[:300]!r}")
    for register, c in counts.items():
        print(f"{register}: " + ", ".join(f"{k} {v}" for k, v in sorted(c.items())))
    print("by variant: " + ", ".join(f"{k} {v}" for k, v in sorted(by_variant.items())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
