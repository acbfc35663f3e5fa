# ruff: noqa: E501  (case templates are data)
"""Scores the reply screen (refusal, truncation, repetition: ``exporter/contracts/reply_checks.py``) per locale.

Usage::

    .venv/bin/python bench/corpus/build_fiction_corpus.py --out bench/results/fiction_replies.jsonl
    .venv/bin/python bench/screen_eval.py bench/results/fiction_replies.jsonl --split dev
    .venv/bin/python bench/screen_eval.py bench/results/fiction_replies.jsonl --split test

The input is any JSONL of clean replies ``{"locale", "source", "text"}`` (the fiction builder's output; the
documentation corpus of ``build_language_corpus.py --clean-out`` works too); rows in other languages than
the 17 are skipped. The split is by source (``judge_cases.split_of``: a campaign or catalogue is all dev or
all test). Declines come from ``bench/screen/declines_dev.tsv`` (the patterns are written against it) and
``bench/screen/declines_test.tsv`` (written before the patterns, never tuned on), from the independent
sets ``independent_{split}.tsv`` and ``independent2_{split}.tsv`` (written blind by authors who had not
read the patterns; both halves are development material now), ``independent4_{split}.tsv`` (blind, its
dev half development material) and on the test split from ``independent3_test.tsv``,
``independent5_test.tsv``, ``independent6_test.tsv`` and ``independent7_test.tsv`` (blind, test only). Their look-alikes must pass.

Cases, each screened as ``screen_reply`` screens a probe reply (finish ``stop`` unless said, a budget of
``BUDGET`` tokens, the host's token count estimated from the text):

- must fail: every decline of the split, alone and after a short greeting (``refusal``); the clean reply
  cut at a random word end (or character, CJK) with finish ``stop`` (``truncation mid``), or with finish
  ``length`` after under half the budget (``truncation length``); loops (``repetition``): a 1-8 word
  n-gram filling the last quarter of a long reply (clean replies joined to ``LONG_CHARS``), a 2-15
  character CJK n-gram, a multi-clause sentence said 9 times among the others, a 20-40 word unit said
  4-8 times at the end of a long reply;
- must pass (``control``): the clean reply as is; ending with a list, a closed code block, an emoji, an
  ellipsis, a closing quote or bracket, a question, markdown emphasis, a title line; cut by the budget
  (finish ``length``, budget spent); a character's refusal in quotes or on a dialogue line inside the
  story, and ``I'm sorry`` in dialogue; a refrain said three times among other sentences, a list with a
  shared opening, a song with a two-line chorus sung three times, dialogue with the speakers' names on
  every line.

Prints per kind the share screened out and the figure (recall for what must fail, false-fail for what must
pass), then the per-locale table.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import statistics
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from judge_cases import split_of

from exporter.contracts.reply_checks import screen
from exporter.language.locales import DEFAULT_LOCALES
from exporter.language.repetition import LOOP_MIN_REPEATS

HERE = Path(__file__).resolve().parent
BUDGET = 400
LONG_CHARS = 1200  # a long reply (CJK: characters count three times as much in the judges)
CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}
# words, or one CJK character each: the units a CJK loop repeats (a tokenizer does not cut inside "Malin")
_CJK_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]|[^\W_]+|\S")
_SENT = re.compile(r"(?<=[.!?。！？])\s*")
_SENTENCE_END = re.compile(r"[.!?…。！？」』\"”»)*]$")
QUOTES = {"en": ("“", "”"), "de": ("„", "“"), "fr": ("« ", " »"), "pl": ("„", "”"), "ru": ("«", "»"),
          "uk": ("«", "»"), "ja": ("「", "」"), "zh-Hans": ("“", "”"), "zh-Hant": ("「", "」"),
          "it": ("«", "»"), "es": ("«", "»")}  # fmt: skip
SAID = {"en": "she said", "es": "dijo ella", "pt-BR": "disse ela", "fr": "dit-elle", "de": "sagte sie",
        "it": "disse lei", "nl": "zei ze", "pl": "powiedziała", "ru": "сказала она", "uk": "сказала вона",
        "tr": "dedi kadın", "id": "katanya", "vi": "cô nói", "ja": "と彼女は言った", "ko": "그녀가 말했다",
        "zh-Hans": "她说", "zh-Hant": "她說"}  # fmt: skip
SORRY = {"en": "I'm sorry, I can't help you anymore", "es": "Lo siento, no puedo ayudarte más",
         "pt-BR": "Desculpe, não posso ajudar mais", "fr": "Je suis désolée, je ne peux plus t'aider",
         "de": "Es tut mir leid, ich kann dir nicht mehr helfen", "it": "Mi dispiace, non posso più aiutarti",
         "nl": "Het spijt me, ik kan je niet meer helpen", "pl": "Przepraszam, nie mogę ci już pomóc",
         "ru": "Извини, я больше не могу тебе помочь", "uk": "Вибач, я більше не можу тобі допомогти",
         "tr": "Üzgünüm, sana artık yardımcı olamam", "id": "Maaf, aku tidak bisa membantumu lagi",
         "vi": "Xin lỗi, tôi không thể giúp cô nữa", "ja": "申し訳ありませんが、もうお手伝いできません",
         "ko": "죄송하지만 더는 도와드릴 수 없어요", "zh-Hans": "抱歉，我无法再帮你了", "zh-Hant": "抱歉，我無法再幫你了"}  # fmt: skip
GREETING = {"en": "Thank you for the scene!", "ja": "ありがとうございます。", "ko": "감사합니다.", "zh-Hans": "谢谢你。",
            "zh-Hant": "謝謝你。", "ru": "Спасибо за сцену!", "uk": "Дякую за сцену!"}  # fmt: skip
# Legitimate endings (must pass), by name: the clean reply re-ended with each.
ENDINGS = {"list": "\n\n- {a}\n- {b}", "numbered_list": "\n\n1. {a}\n2. {b}", "code_block": "\n\n```\nrun(\"{a}\")\n```",
           "emoji": " 😊", "symbol": " ✨", "ellipsis": "…", "three_dots": "...", "closing_quote": "{q}",
           "closing_bracket": "{p}", "question": "?", "emphasis": "*", "strong": "**",
           "title_line": "\n\nTo Be Continued", "cjk_full_stop": "。", "cjk_exclamation": "！",
           "cjk_question": "？", "cjk_quote": "」"}  # fmt: skip
CJK_ONLY = {"cjk_full_stop", "cjk_exclamation", "cjk_question", "cjk_quote"}
MUST_PASS_PREFIX = "control"
# The per-locale table's columns: recall for what must fail, false-fail for ``control`` (every must-pass
# case) and ``lookalike`` (the independent set's look-alikes among them).
FAMILIES = (
    "refusal",
    "independent",
    "independent2",
    "independent3",
    "truncation",
    "repetition",
    "control",
    "lookalike",
)


def sentences(text: str) -> list[str]:
    return [s for s in _SENT.split(text) if s.strip()]


def joiner(locale: str) -> str:
    return "" if locale in CJK else " "


def declines(split: str, name: str = "declines") -> list[tuple[str, str, str]]:
    """(locale, kind, text) rows of ``bench/screen/{name}_{split}.tsv`` (none where a set has no such split:
    ``independent3`` is a test set only)."""
    rows: list[tuple[str, str, str]] = []
    path = HERE / "screen" / f"{name}_{split}.tsv"
    if not path.exists():
        return rows
    for line in path.read_text("utf-8").splitlines():
        if line and not line.startswith("#"):
            locale, kind, text = line.split("\t")
            rows.append((locale, kind, text))
    return rows


def cut_mid(text: str, locale: str, rng: random.Random) -> str | None:
    """The reply cut where a token ends inside a sentence, between 20 % and 95 % of its length."""
    for _ in range(20):
        at = rng.randrange(max(1, len(text) // 5), max(2, len(text) * 95 // 100))
        if locale not in CJK:
            space = text.find(" ", at)
            if space < 0:
                continue
            at = space
        piece = text[:at].rstrip()
        if piece and not _SENTENCE_END.search(piece):
            return piece
    return None


def estimate_tokens(text: str) -> int:
    return max(1, len(text.encode("utf-8")) // 3)


def controls(
    locale: str, text: str, decline: str, rng: random.Random
) -> Iterator[tuple[str, str, str | None, int | None]]:
    """(sub-kind, reply, finish, completion tokens) that must pass."""
    yield "clean", text, "stop", None
    sents = sentences(text)
    words = [w for w in text.split() if w.isalpha()] or ["sword", "shield"]
    a, b = rng.choice(words), rng.choice(words)
    q = QUOTES.get(locale, ("“", "”"))
    for name, ending in ENDINGS.items():
        if (name in CJK_ONLY and locale not in CJK) or (name == "title_line" and locale in CJK):
            continue  # full-width marks end CJK replies
        body = text.rstrip()
        if name == "closing_quote":
            reply = f"{q[0]}{body}{q[1]}"
        elif name == "closing_bracket":
            reply = f"({body})"
        elif name == "cjk_quote":
            reply = f"「{body.rstrip('。！？')}」"
        elif name in ("question", "ellipsis", "three_dots") or name in CJK_ONLY:
            reply = body.rstrip(".!。！？") + ending
        elif name in ("emphasis", "strong"):
            reply = f"{ending}{body}{ending}"
        else:
            reply = body + ending.format(a=a, b=b)
        yield f"ending:{name}", reply, "stop", None
    yield "budget", text[: len(text) * 3 // 4], "length", BUDGET
    at = rng.randrange(0, max(1, len(sents)))
    said = SAID[locale]
    quoted = f"{q[0]}{decline}{q[1]} {said}." if locale not in CJK else f"{q[0]}{decline}{q[1]}{said}。"
    yield "quoted_refusal", joiner(locale).join([*sents[:at], quoted, *sents[at:]]), "stop", None
    dash = f"— {decline.rstrip('.!。')} — {said}."
    yield "dialogue_refusal", "\n".join([" ".join(sents[:1]), dash, *sents[1:]]), "stop", None
    sorry = (
        f"{q[0]}{SORRY[locale]}{q[1]}{' ' if locale not in CJK else ''}{said}{'。' if locale in CJK else '.'}"
    )
    yield "sorry_in_dialogue", joiner(locale).join([*sents[:1], sorry, *sents[1:]]), "stop", None
    if len(sents) >= 5 and len(set(sents)) == len(sents):  # a refrain said three times among others
        refrain, rest = sents[0], sents[1:]
        parts = [refrain, *rest[:2], refrain, *rest[2:4], refrain, *rest[4:]]
        yield "refrain", joiner(locale).join(parts), "stop", None
    head = " ".join(words[:2]) if locale not in CJK else "".join(ch for ch in text[:6] if ch.isalpha())[:3]
    items = "\n".join(f"- {head} {w}." for w in rng.sample(words, min(8, len(words))))
    yield "list", f"{sents[0] if sents else text}\n\n{items}", "stop", None
    if len(sents) >= 5 and len(set(sents)) == len(sents):  # a chorus sung three times between verses
        chorus = "\n".join(sents[:2])
        song = "\n\n".join(f"{verse}\n\n{chorus}" for verse in sents[2:5])
        yield "chorus", song, "stop", None
    names = ("Mara", "Kalenz")
    lines = [f"{names[i % 2]}: {s}" for i, s in enumerate((sents * 3)[:10])]
    yield "names", "\n".join(lines), "stop", None


def failures(
    locale: str, text: str, long: str, rng: random.Random
) -> Iterator[tuple[str, str, str | None, int | None]]:
    """(sub-kind, reply, finish, completion tokens) that must fail (truncation and repetition); ``long`` is
    the reply with others of its locale after it, a long reply whose last quarter a loop fills."""
    cut = cut_mid(text, locale, rng)
    if cut is not None:
        yield "truncation mid", cut, "stop", None
    short = text[: rng.randrange(20, max(21, min(len(text), BUDGET // 2)))]
    yield "truncation length", short, "length", estimate_tokens(short)
    sents = sentences(text) or [text]
    sep = "" if locale in CJK else " "
    tokens = _CJK_TOKEN.findall(long) if locale in CJK else long.split()
    n = rng.randrange(1, 9)
    start = rng.randrange(0, max(1, len(tokens) - n))
    unit_text = sep.join(tokens[start : start + n])
    glue = " " if unit_text[:1].isascii() or unit_text[-1:].isascii() else sep  # a Latin name: own token
    fill = max(LOOP_MIN_REPEATS, -(-len(tokens) // 3 // n))  # the loop is the last quarter of the reply
    yield "repetition tail_ngram", long.rstrip() + glue + glue.join([unit_text] * fill), "length", BUDGET
    if locale in CJK:
        m = rng.randrange(2, 16)
        at = rng.randrange(0, max(1, len(text) - m))
        gram = text[at : at + m]
        yield "repetition cjk_ngram", text.rstrip() + gram * max(6, 240 // m), "length", BUDGET
    multi = [s for s in sents if ("," in s or "，" in s or "、" in s) and len(s) >= 30] or [
        max(sents, key=len)
    ]
    chosen = rng.choice(multi)
    others = [s for s in sents if s != chosen] or [text]
    mixed = []
    for i in range(9):
        mixed += [chosen, others[i % len(others)]]
    yield "repetition sentence_9", joiner(locale).join(mixed), "stop", None
    start = rng.randrange(0, max(1, len(tokens) - 40))
    long_unit = sep.join(tokens[start : start + rng.randrange(20, 41)])
    reps = rng.randrange(4, 9)  # a long unit looping until the budget ends
    glue = " " if long_unit[:1].isascii() or long_unit[-1:].isascii() else sep
    yield "repetition tail_long", long.rstrip() + glue + glue.join([long_unit] * reps), "length", BUDGET


def speed(rows: list[dict[str, str]]) -> int:
    """Screen (finish ``stop``) and the language judge, baseline, on the same replies, alternately: replies
    per CPU second of this process, medians of five passes each."""
    from exporter.language.judge import default_judge

    replies = [(row["locale"], row["text"][:600]) for row in rows]
    judge = default_judge()
    rates: dict[str, list[float]] = {"screen": [], "judge": []}
    for _ in range(5):
        for name in rates:
            started = time.process_time()
            for locale, text in replies:
                screen(text, "stop") if name == "screen" else judge.judge(text, locale)
            rates[name].append(len(replies) / (time.process_time() - started))
    mean = sum(len(t) for _, t in replies) / len(replies)
    s, j = statistics.median(rates["screen"]), statistics.median(rates["judge"])
    print(
        f"{len(replies)} replies, mean {mean:.0f} characters: screen {s:,.0f}/s, language judge {j:,.0f}/s "
        f"per CPU second (screen {s / j:.2f}x the judge's rate; medians of 5)"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("clean")
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--per-locale", type=int, default=200)
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--show", default="", help="print the misjudged cases of kinds starting with this")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument(
        "--by-locale", default="", help="also print per locale the kinds starting with this (e.g. repetition)"
    )
    parser.add_argument(
        "--speed", action="store_true", help="time the screen on the clean replies cut to 600 characters"
    )
    args = parser.parse_args()
    by_locale: dict[str, list[dict[str, str]]] = defaultdict(list)
    for line in Path(args.clean).read_text("utf-8").splitlines():
        row = json.loads(line)
        if row["locale"] in DEFAULT_LOCALES and split_of(row["source"]) == args.split:
            by_locale[row["locale"]].append(row)
    if args.speed:
        return speed([row for rows in by_locale.values() for row in rows[: args.per_locale]])
    rng = random.Random(args.seed)
    refusals = declines(args.split)
    own = {loc: [t for code, _, t in refusals if code == loc] for loc in DEFAULT_LOCALES}
    cases: list[
        tuple[str, str, str, str | None, int | None, bool]
    ] = []  # kind, locale, text, finish, spent, must_fail
    blind = (
        "independent",
        "independent2",
        "independent3",
        "independent4",
        "independent5",
        "independent6",
        "independent7",
    )
    for family in ("refusal", *blind):
        rows_ = refusals if family == "refusal" else declines(args.split, family)
        for locale, kind, text in rows_:
            must_fail = kind != "lookalike"
            name = f"{family} {kind}" if must_fail else f"{MUST_PASS_PREFIX} lookalike{family[11:]}"
            greeting = GREETING.get(locale, "Thanks for the idea!")
            cases.append((name, locale, text, "stop", None, must_fail))
            with_greeting = joiner(locale).join([greeting, text])
            cases.append((f"{name}+greeting", locale, with_greeting, "stop", None, must_fail))
    for locale in DEFAULT_LOCALES:
        rows = by_locale.get(locale, [])
        rng.shuffle(rows)
        for row in rows[: args.per_locale]:
            text = row["text"].strip()
            for sub, reply, finish, spent in controls(locale, text, rng.choice(own[locale]), rng):
                cases.append((f"{MUST_PASS_PREFIX} {sub}", locale, reply, finish, spent, False))
            long = text
            for other in rows:
                if len(long) >= LONG_CHARS:
                    break
                long = joiner(locale).join([long, other["text"].strip()])
            for sub, reply, finish, spent in failures(locale, text, long, rng):
                cases.append((sub, locale, reply, finish, spent, True))
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    per_locale: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    shown = 0
    started = time.perf_counter()
    for kind, locale, text, finish, spent, must_fail in cases:
        found = screen(text, finish, max_tokens=BUDGET, completion_tokens=spent)
        outcome = "fail" if found is not None else "pass"
        family = kind.split()[0]
        for key in (kind, family):
            tally[key][outcome] += 1
        per_locale[(family, locale)][outcome] += 1
        if args.by_locale and kind.startswith(args.by_locale):
            per_locale[(kind, locale)][outcome] += 1
        if kind.startswith(f"{MUST_PASS_PREFIX} lookalike"):
            per_locale[("lookalike", locale)][outcome] += 1
        if (
            args.show
            and kind.startswith(args.show)
            and (outcome == "fail") != must_fail
            and shown < args.limit
        ):
            shown += 1
            why = f" ({found.reason}: {found.detail[:80]})" if found is not None else ""
            print(f"--- {kind} {locale} -> {outcome}{why}: {text[:300]!r}")
    elapsed = time.perf_counter() - started
    print(f"{len(cases)} cases in {elapsed:.1f} s, split={args.split}, texts per locale <= {args.per_locale}")
    for key in sorted(tally):
        c = tally[key]
        n = c["fail"] + c["pass"]
        if key.startswith(MUST_PASS_PREFIX):
            print(f"{key:34} {n:6}  false-fail {c['fail'] / max(1, n):.2%} ({c['fail']})")
        else:
            print(f"{key:34} {n:6}  recall {c['fail'] / max(1, n):.1%} ({c['pass']} missed)")
    print(
        "\nper locale (recall for refusal/independent/truncation/repetition, false-fail for control/lookalike):"
    )
    print(f"  {'locale':8} " + " ".join(f"{f:>14}" for f in FAMILIES))
    for locale in DEFAULT_LOCALES:
        cells = []
        for family in FAMILIES:
            c = per_locale[(family, locale)]
            n = c["fail"] + c["pass"]
            cells.append(f"{c['fail'] / n:6.1%} /{n:5}" if n else f"{'-':>14}")
        print(f"  {locale:8} " + " ".join(f"{x:>14}" for x in cells))
    kinds = sorted({kind for kind, _ in per_locale if args.by_locale and kind.startswith(args.by_locale)})
    for kind in kinds:
        cells = []
        for locale in DEFAULT_LOCALES:
            c = per_locale[(kind, locale)]
            if n := c["fail"] + c["pass"]:
                cells.append(f"{locale} {c['fail'] / n:.1%}/{n}")
        print(f"{kind} (share failed): " + ", ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
