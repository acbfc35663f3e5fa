"""Near misses of the corrupted-start check on clean openers: which of its excuses keeps a legitimate opener
from failing.

Usage::

    PYTHONPATH=. .venv/bin/python bench/start_margins.py [--split dev] [--show EXCUSE] [--limit 30] [SETS...]

Every opener of every clean text in the split (as ``bench/start_openers.py`` finds them: the text's start,
every paragraph's and every sentence's) is judged by ``find_corrupted_start`` as it is, then once with each
of its excuses taken away (``EXCUSES``: the helper answers "no"): an opener that passes with the excuse and
fails without it is a near miss that excuse saves. Prints, per excuse, how many openers it alone saves, by
register (fiction, docs) and by the kind of their first token (``opener_kind``: a name, a word of the
locale's lexicon, a command or code identifier, a number, a quote, markup, a list marker, an abbreviation,
an interjection, CJK); and how many openers fail as they are (without asking the judge: the judge fails
most of them, ``start_openers.py`` counts those it does). ``--show EXCUSE`` prints the near misses that
excuse saves (dev only: the test split is scored, its texts never read).

The openers are read once and kept in ``/tmp`` (``--cache``), as reading them is most of the run's time.
"""

from __future__ import annotations

import argparse
import pickle
import re
import sys
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from eval_sets import eval_files, is_fiction, rows, set_name
from start_openers import judgeable, openers

from exporter.language import start
from exporter.language.judge import MAX_JUDGED_CHARS
from exporter.language.lexicon import lexicon_or_none
from exporter.language.scripts import CJK_SCRIPTS, LETTERS, script_of

# The helpers of ``start`` that excuse a first token (a word, a name, a command, a label...): each returns
# True when the token is legitimate. Taken away one at a time, they answer False.
EXCUSES = (
    "_recurs",
    "_declined_again",
    "_is_word",
    "_interjection",
    "_in_lexicon",
    "_in_common",
    "_long_word",
    "_german_name",
    "_label",
    "_sentence_tail",
    "_opening_aside",
    "_quoted_name",
    "_quoted_term",
    "_closed_term",
    "_named_again",
    "_headword",
    "_capitals_headline",
    "_parenthetical",
    "_glued_gloss",
    "_glossed_capitals",
    "_expansion_follows",
    "_abbreviation",
    "_command_like",
    "_list_item",
    "_name_pair",
    "_broken_off",
    "_drawn_out",
    "_mostly_alphabetic",
    "_backslash_command",
    "_spaced_term",
    "_spaced_word",
    "_term_again",
    "_element_label",
    "_word_by_word",
    "_glued_words",
    "_loanword_sentence",
    "_spelled_out",
)
# The excuses that ask the reply's lexicon whether the first token is a word: an opener one of them alone
# saves is listed by the token's frequency rank (``RANK_BANDS``), as one near the cut is a near miss.
LEXICON_EXCUSES = frozenset({"_is_word", "_in_lexicon", "_in_common", "_spaced_word", "_long_word"})
RANK_BANDS = ((200, "<200"), (1_000, "200-1k"), (5_000, "1k-5k"), (30_000, "5k-30k"))
_CODE = re.compile(r"[A-Za-z]+(?:[_./:]|[a-z][A-Z])[A-Za-z0-9_./:]*")
_LIST = re.compile(r"(?:[-*•–—]|\d+[.)])\s")
_MARKUP = frozenset("<>[]{}\\|#=`^$%@&+/")
_QUOTES = frozenset("\"'“‘„«»‹「『”’")


def opener_kind(text: str, locale: str) -> str:
    """What the opener starts with, roughly: the kind of its first token."""
    first = text[:1]
    if _LIST.match(text):
        return "list marker"
    if first.isdigit():
        return "number"
    if first in _QUOTES:
        return "quote"
    if first in _MARKUP:
        return "markup"
    if not first.isalpha():
        return "other mark"
    if script_of(first) in CJK_SCRIPTS:
        return "cjk"
    if (code := _CODE.match(text)) and not LETTERS.fullmatch(code.group()):
        return "code identifier"
    token = m.group() if (m := LETTERS.match(text)) else first
    if start._interjection(token, locale):
        return "interjection"
    lex = lexicon_or_none(locale)
    if token.isupper() and len(token) > 1:
        return "abbreviation or capitals"
    known = lex is not None and lex.is_word(token)
    if token[:1].isupper():
        return "capitalised word" if known else "capitalised non-word (name)"
    if token.isascii() and not known:
        return "lowercase non-word (command)"
    return "lowercase word" if known else "lowercase non-word"


def rank_band(text: str, locale: str) -> str:
    """The frequency band of the opener's first run of letters in the reply's lexicon (``RANK_BANDS``;
    ``unlisted`` beyond the 30,000 words, ``no lexicon`` without one)."""
    if (lex := lexicon_or_none(locale)) is None or (m := LETTERS.search(text)) is None:
        return "no lexicon"
    rank = lex.ranks.get(lex.fold(m.group()))
    if rank is None and lex.simplify is not None:
        rank = lex.ranks.get(m.group().translate(lex.simplify))
    if rank is None:
        return "unlisted"
    return next(band for bound, band in RANK_BANDS if rank < bound)


def collect(files: list[Path], split: str) -> list[tuple[str, str, str, str]]:
    """(set, register, locale, opener text) of every judgeable opener."""
    out = []
    for path in files:
        name, register = set_name(path), "fiction" if is_fiction(path) else "docs"
        for row in rows(path, split):
            locale = str(row["locale"])
            text = unicodedata.normalize("NFC", str(row["text"]))
            for _, at in openers(text):
                reply = text[at : at + MAX_JUDGED_CHARS].strip()
                if judgeable(reply):
                    out.append((name, register, locale, reply))
    return out


def recording(name: str, said_yes: set[str]) -> Callable[[], None]:
    """Record in ``said_yes`` each time the excuse ``name`` answers yes; returns what puts it back."""
    original = getattr(start, name)

    def recorded(*args: object, **kwargs: object) -> object:
        answer = original(*args, **kwargs)
        if answer:
            said_yes.add(name)
        return answer

    setattr(start, name, recorded)
    return lambda: setattr(start, name, original)


def without(name: str) -> Callable[[], None]:
    """Take the excuse ``name`` away (it answers False); returns what puts it back."""
    original = getattr(start, name)
    setattr(start, name, lambda *args, **kwargs: False)
    return lambda: setattr(start, name, original)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="*", help="set names (default: every set)")
    parser.add_argument("--split", choices=["dev", "test"], default="dev")
    parser.add_argument("--show", default="", help="print the near misses this excuse saves (dev only)")
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--cache", default="/tmp/start_margins_{split}.pickle")
    parser.add_argument(
        "--ranks",
        action="store_true",
        help="also count the openers a lexicon excuse alone saves by rank band",
    )
    args = parser.parse_args()
    if args.show and args.split != "dev":
        parser.error("--show reads the dev split only")
    files = [f for f in eval_files() if not args.sets or set_name(f) in args.sets]
    cache = Path(args.cache.format(split=args.split) + ("." + ".".join(args.sets) if args.sets else ""))
    if cache.exists():
        items = pickle.loads(cache.read_bytes())
    else:
        items = collect(files, args.split)
        cache.write_bytes(pickle.dumps(items))
    # One pass with every excuse recording when it says yes; each excuse is then taken away only for the
    # openers it said yes to (the others cannot change).
    said_yes: list[set[str]] = []
    current: set[str] = set()
    restores = [recording(excuse, current) for excuse in EXCUSES]
    base = []
    try:
        for _, _, locale, text in items:
            current.clear()
            base.append(start.find_corrupted_start(text, locale) is None)
            said_yes.append(set(current))
    finally:
        for restore in restores:
            restore()
    fails: Counter[str] = Counter(reg for (_, reg, _, _), ok in zip(items, base, strict=True) if not ok)
    print(f"{len(items)} openers, split={args.split}; failing as they are: {dict(fails)}")
    shown = 0
    bands: Counter[tuple[str, str, str]] = Counter()  # (register, excuse, band) of lexicon-saved near misses
    for excuse in EXCUSES:
        restore = without(excuse)
        try:
            saved: Counter[tuple[str, str]] = Counter()
            for (name, register, locale, text), ok, yes in zip(items, base, said_yes, strict=True):
                if not ok or excuse not in yes or start.find_corrupted_start(text, locale) is None:
                    continue
                saved[(register, opener_kind(text, locale))] += 1
                if args.ranks and excuse in LEXICON_EXCUSES:
                    bands[(register, excuse, rank_band(text, locale))] += 1
                if excuse == args.show and shown < args.limit:
                    shown += 1
                    print(f"--- {name} {locale} {opener_kind(text, locale)}: {text[:140]!r}")
        finally:
            restore()
        total = sum(saved.values())
        if total:
            kinds = ", ".join(f"{reg} {kind} {n}" for (reg, kind), n in saved.most_common())
            print(f"{excuse:22} {total:6}  {kinds}")
    if args.ranks:
        print("first token's rank band, openers a lexicon excuse alone saves:")
        for register in ("docs", "fiction"):
            for excuse in sorted(LEXICON_EXCUSES):
                row = {
                    band: n
                    for (reg, exc, band), n in sorted(bands.items())
                    if (reg, exc) == (register, excuse)
                }
                if row:
                    print(f"  {register:8} {excuse:14} {row}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
