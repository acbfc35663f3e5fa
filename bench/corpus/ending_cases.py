"""Real replies cut, looped and ended legitimately by simple transforms: a check of the reply screen apart
from ``loop_cases.py``.

Usage::

    .venv/bin/python bench/corpus/ending_cases.py --vocab $V --split dev
    .venv/bin/python bench/corpus/ending_cases.py --vocab $V --split dev --show "cut tail" --limit 5

Reads every clean set under ``bench/results/`` (fiction, story, game dialogue; help, handbook, install and
documentation paragraphs; JSONL ``{"locale", "source", "text", "lines"?}``), keeps the 17 locales and the
split's sources (``judge_cases.split_of``) and builds from each reply, as it was written or laid out line by
line from its own dialogue lines, the cases below. Token budgets are counted with a real tokenizer: the
``.tiktoken`` vocabulary given (``--vocab``, byte-level BPE), so a budget "spent" is the count a serving
stack with that vocabulary would report.

Must fail: ``cut tail`` (the reply cut at a word boundary in its last sentence, finish ``stop``), ``cut
opening`` (a finished reply, then one to three words of another reply's sentence as a new paragraph),
``cut dialogue`` (a dialogue cut inside its last line), ``cut budget`` (finish ``length``, no token count,
the reply's real token count 5-45 % of ``max_tokens``), ``loop sentence`` (the last sentence said again
6-20 times), ``loop words`` (the last 3-10 words or CJK characters said again and again to the budget),
``loop pair`` (two sentences of the reply taking turns over its last third), ``loop drift`` (the last
sentence said again 8-14 times, a word left out of each copy in turn), ``loop dialogue`` (a dialogue's
last two lines said again and again).

Must pass: ``ctl reply`` (as written), ``ctl dialogue`` (its lines one per line, a short answer repeated
between them), ``ctl verse`` (its sentences broken at commas into lines without marks, a line coming
back after each stanza), ``ctl list`` (the reply, then its lines as list items without marks), ``ctl
closing`` (the reply, then a closing formula of its language: ``Fin``, ``Конец``, ``つづく``…), ``ctl
signoff`` (a letter's closing line and a name, or a dash and a name), ``ctl ellipsis``, ``ctl emoji``,
``ctl code``, ``ctl heading_first`` (a Markdown heading, then the reply), ``ctl budget_spent`` (finish
``length``, no token count, ``max_tokens`` the real count of the reply).
"""

from __future__ import annotations

import argparse
import base64
import functools
import itertools
import json
import random
import re
import sys
from collections import Counter, defaultdict
from collections.abc import Iterator
from pathlib import Path

import regex

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_sets import RESULTS
from judge_cases import print_recall_table, record, split_of

from exporter.contracts.reply_checks import screen
from exporter.language.judge import Verdict
from exporter.language.locales import DEFAULT_LOCALES

SETS = ("fiction_replies", "story_replies", "games_replies", "clean_paragraphs", "help_paragraphs",
        "handbook_paragraphs", "install_paragraphs")  # fmt: skip
EAST = frozenset({"ja", "ko", "zh-Hans", "zh-Hant"})
SENTENCE = re.compile(r"[^.!?…。！？]+[.!?…。！？]+[\"'”’»)」』]*\s*", re.S)
UNIT = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]|[^\s\u3040-\u30ff\u3400-\u9fff\uac00-\ud7a3]+")
# GPT-2 style pre-tokenizer of the byte-level BPE vocabularies
PRE = regex.compile(r"""'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+""")
CLOSINGS = {"en": "The End", "es": "Fin", "pt-BR": "Fim", "fr": "Fin", "de": "Ende", "it": "Fine",
            "nl": "Einde", "pl": "Koniec", "ru": "Конец", "uk": "Кінець", "tr": "Son", "id": "Tamat",
            "vi": "Hết", "ja": "つづく", "ko": "끝", "zh-Hans": "全文完", "zh-Hant": "全文完"}  # fmt: skip
SIGNOFFS = {"en": "Yours,", "es": "Un abrazo,", "pt-BR": "Abraços,", "fr": "Bien à vous,",
            "de": "Viele Grüße,", "it": "Un saluto,", "nl": "Groeten,", "pl": "Pozdrawiam,",
            "ru": "С уважением,", "uk": "З повагою,", "tr": "Sevgiler,", "id": "Salam,", "vi": "Thân,",
            "ja": "敬具", "ko": "그럼 이만,",
            "zh-Hans": "此致敬礼", "zh-Hant": "此致敬禮"}  # fmt: skip
NAMES = ("Mara", "Kalenz", "Elias Brand", "Delfador", "Ilse", "Tomasz", "Lin", "Hana Reyes")
ANSWERS = {"en": "No.", "es": "No.", "pt-BR": "Não.", "fr": "Non.", "de": "Nein.", "it": "No.", "nl": "Nee.",
           "pl": "Nie.", "ru": "Нет.", "uk": "Ні.", "tr": "Hayır.", "id": "Tidak.", "vi": "Không.",
           "ja": "はい。", "ko": "네.", "zh-Hans": "是。", "zh-Hant": "是。"}  # fmt: skip


class Tokenizer:
    """Counts the tokens of a byte-level BPE vocabulary (``.tiktoken``: base64 token and rank per line)."""

    def __init__(self, path: Path) -> None:
        self.ranks: dict[bytes, int] = {}
        for line in path.read_bytes().splitlines():
            token, rank = line.split()
            self.ranks[base64.b64decode(token)] = int(rank)

    @functools.lru_cache(maxsize=1 << 18)  # noqa: B019 - one instance per run
    def _piece(self, piece: bytes) -> int:
        if piece in self.ranks:
            return 1
        parts = [piece[i : i + 1] for i in range(len(piece))]
        while len(parts) > 1:
            merges = [(self.ranks.get(a + b), i) for i, (a, b) in enumerate(itertools.pairwise(parts))]
            ranked = [(rank, i) for rank, i in merges if rank is not None]
            if not ranked:
                break
            _, i = min(ranked)
            parts[i : i + 2] = [parts[i] + parts[i + 1]]
        return len(parts)

    def count(self, text: str) -> int:
        return sum(self._piece(piece.encode("utf-8")) for piece in PRE.findall(text))


def sentences(text: str) -> list[str]:
    return [s.strip() for s in SENTENCE.findall(text) if len(s.strip()) >= 6]


def glue(locale: str) -> str:
    return "" if locale in EAST else " "


def must_fail(locale: str, text: str, lines: list[str], other: str, tok: Tokenizer, rng: random.Random
              ) -> Iterator[tuple[str, str, str, int, int | None]]:  # fmt: skip
    """(kind, text, finish, max_tokens, completion_tokens) of each case that must fail."""
    sents = sentences(text) or [text]
    g = glue(locale)
    last = sents[-1]
    head = text[: text.rfind(last)] if last in text else ""
    units = UNIT.findall(last)
    if len(units) >= 4:
        keep = rng.randrange(1, len(units) - 1)
        cut = g.join(units[:keep]) if locale not in EAST else "".join(units[:keep])
        cut = cut.rstrip(" ,;:—-")
        if cut and (cut[-1].isalnum()):
            yield "cut tail", (head + cut).strip(), "stop", 400, None
    other_sents = sentences(other)
    if other_sents:
        words = UNIT.findall(rng.choice(other_sents))[: rng.randrange(1, 4)]
        opening = ("".join(words) if locale in EAST else " ".join(words)).rstrip(".!?…。！？,，、")
        if opening and opening[-1].isalnum():
            yield "cut opening", f"{text}\n\n{opening}", "stop", 400, None
    if len(lines) >= 3:
        said = lines[-1]
        chars = [i for i in range(2, len(said) - 1) if said[i].isalnum() and said[i - 1].isalnum()]
        if chars:
            yield "cut dialogue", "\n".join([*lines[:-1], said[: rng.choice(chars) + 1]]), "stop", 400, None
    spent = tok.count(text)
    share = rng.uniform(0.05, 0.45)
    yield "cut budget", text, "length", max(spent + 1, round(spent / share)), None
    budget = max(400, spent * 2)
    yield "loop sentence", text + g + g.join([last] * rng.randrange(6, 21)), "length", budget, budget
    n = rng.randrange(3, 11)
    tail = UNIT.findall(text)[-n:]
    unit = "".join(tail) if locale in EAST else " ".join(tail)
    loop = g.join([unit] * max(8, 600 // max(1, len(unit))))
    yield "loop words", text + g + loop, "length", budget, budget
    if len(sents) >= 2:
        a, b = rng.sample(sents, 2)
        turns = max(4, len(text) // (2 * (len(a) + len(b))) + 3)
        yield "loop pair", text + g + g.join([a, b] * turns), "length", budget, budget
    parts = UNIT.findall(last)
    if len(parts) >= 6:
        copies = []
        for i in range(rng.randrange(8, 15)):
            drop = i % len(parts)
            kept = parts[:drop] + parts[drop + 1 :]
            copies.append("".join(kept) if locale in EAST else " ".join(kept))
        yield "loop drift", text + g + g.join(copies), "length", budget, budget
    if len(lines) >= 3:
        yield "loop dialogue", "\n".join(lines + lines[-2:] * rng.randrange(5, 10)), "length", budget, budget


def must_pass(locale: str, text: str, lines: list[str], tok: Tokenizer, rng: random.Random
              ) -> Iterator[tuple[str, str, str, int, int | None]]:  # fmt: skip
    g = glue(locale)
    yield "ctl reply", text, "stop", 400, None
    if len(lines) >= 3:
        answer = ANSWERS[locale]
        talk = [item for line in lines[:6] for item in (line, answer)]
        yield "ctl dialogue", "\n".join(talk[:-1]), "stop", 400, None
    pieces = [p.strip() for p in re.split(r"[,.!?;:，、。！？；：]+", text) if 3 <= len(p.strip()) <= 70]
    if len(pieces) >= 6:
        refrain = pieces[0]
        stanzas = [pieces[i : i + 3] for i in range(1, min(len(pieces), 10), 3)]
        yield "ctl verse", "\n\n".join("\n".join([*s, refrain]) for s in stanzas), "stop", 400, None
    # a list whose items end without a mark: short items, none with a mark at its end
    items = [re.sub(r"[.!?…。！？\"”»)」』]+$", "", line.strip()) for line in (lines or sentences(text))]
    items = [item for item in items if item and len(item) <= 60 and item[-1].isalnum()][:5]
    if len(items) >= 2:
        yield "ctl list", text + "\n\n" + "\n".join(f"- {item}" for item in items), "stop", 400, None
    yield "ctl closing", f"{text}\n\n{CLOSINGS[locale]}", "stop", 400, None
    name = rng.choice(NAMES)
    signoff = rng.choice((f"{SIGNOFFS[locale]}\n{name}", f"— {name}"))
    yield "ctl signoff", f"{text}\n\n{signoff}", "stop", 400, None
    yield "ctl ellipsis", text.rstrip(".!?。！？") + rng.choice(("…", "...", "……")), "stop", 400, None
    yield "ctl emoji", text + g + rng.choice(("🙂", "✨", "🌙", "⚔️", "❤️")), "stop", 400, None
    yield "ctl code", text + "\n\n```\n$ ls -la\n```", "stop", 400, None
    first = UNIT.findall(text)[:3]
    heading = "".join(first) if locale in EAST else " ".join(first)
    yield "ctl heading_first", f"## {heading}\n\n{text}", "stop", 400, None
    spent = tok.count(text)
    yield "ctl budget_spent", text, "length", spent, None


def load(split: str) -> dict[str, list[tuple[str, tuple[str, ...]]]]:
    rows: dict[str, list[tuple[str, tuple[str, ...]]]] = defaultdict(list)
    for name in SETS:
        path = RESULTS / f"{name}.jsonl"
        if not path.exists():
            continue
        for line in path.read_text("utf-8").splitlines():
            row = json.loads(line)
            text = (row.get("text") or "").strip()
            wanted = row["locale"] in DEFAULT_LOCALES and split_of(row["source"]) == split
            # a paragraph that ends with a colon introduced a list the extraction left out
            if wanted and len(text) >= 80 and not text.endswith((":", "：")):
                lines = [x.strip() for x in row.get("lines") or [] if x.strip()]
                rows[row["locale"]].append((text, tuple(lines)))
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--vocab", type=Path, required=True, help="a .tiktoken vocabulary file")
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--per-locale", type=int, default=600)
    parser.add_argument("--seed", type=int, default=2616)
    parser.add_argument("--show", default="")
    parser.add_argument("--limit", type=int, default=10)
    args = parser.parse_args()
    tok = Tokenizer(args.vocab)
    rng = random.Random(args.seed)
    tally: dict[str, Counter[str]] = defaultdict(Counter)
    per_locale: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
    misses: list[tuple[str, Verdict | None, str]] = []
    total = 0
    for locale, rows in sorted(load(args.split).items()):
        rows = list(dict.fromkeys(rows))
        rng.shuffle(rows)
        rows = rows[: args.per_locale]
        for i, (text, lines) in enumerate(rows):
            other = rows[(i + 1) % len(rows)][0]
            cases = [(c, True) for c in must_fail(locale, text, list(lines), other, tok, rng)]
            cases += [(c, False) for c in must_pass(locale, text, list(lines), tok, rng)]
            for (kind, reply, finish, budget, spent), failing in cases:
                total += 1
                found = screen(reply, finish, max_tokens=budget, completion_tokens=spent)
                record(tally, per_locale, kind, locale, "fail" if found is not None else "pass")
                if args.show and kind.startswith(args.show) and (found is not None) != failing:
                    misses.append((f"{kind} {locale} {finish} {spent}/{budget}", found, reply))
    print(f"{total} cases, split={args.split}, replies per locale <= {args.per_locale}")
    print_recall_table(tally, per_locale, ("loop", "cut", "ctl"), DEFAULT_LOCALES, 20)
    for case, found, reply in misses[: args.limit]:  # the misjudged cases asked for, after the figures
        why = f" ({found.reason.value}: {found.detail[:90]})" if found else ""
        print(f"--- {case}{why}\n    {reply[-240:]!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
