"""Near misses of the encoding checker: clean texts whose score on a mojibake rule is close to its cut.

Usage::

    PYTHONPATH=. .venv/bin/python bench/encoding_margins.py dev                   # counts, every set
    PYTHONPATH=. .venv/bin/python bench/encoding_margins.py dev --show cjk --limit 20 story games
    PYTHONPATH=. .venv/bin/python bench/encoding_margins.py test                  # counts only

Texts are the ones ``enc_pressure`` reads: each reply or paragraph of the split and each of its lines.
Each rule of ``exporter/language/encoding.py`` is replayed with its cut loosened one step; a text that
passes the real checker but fails the loosened rule is a near miss of that rule, and ``--show RULE``
prints it (dev only: the test split is scored, never read) with what the loosened rule found:

- ``western``: cp1252/Latin-1 round trip; loosened: every decoded UTF-8 sequence counts, not only the
  plausible ones (``_plausible_western_reading``);
- ``cyrillic``: cp1251; loosened: one plausible decoded sequence anywhere is enough;
- ``single``: ``OTHER_SINGLE_BYTE_CODECS``; loosened: one decoded character, lowercase words too;
- ``cjk``: ``_cjk_mojibake``; loosened: coverage 0.5 instead of ``CJK_MIN_COVERAGE``, and any repair
  that is the reply's own letters;
- ``kanji``, ``big5``: ``_rare_kanji``; loosened: half the share of rare characters, one fewer of them;
- ``dropped``: ``_dropped_bytes``; loosened: the pair shares less 0.08, no distinct-character slack;
- ``lost``: ``_lost_characters``; loosened: one mark is enough, own words at 0.6.

Per set it prints, for each rule, texts read, real failures of the rule, and near misses.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "corpus"))

from eval_sets import eval_files, rows, set_name

from exporter.language import encoding as enc
from exporter.language.locales import LATIN_LOCALES, canonical_locale

RULES = ("western", "cyrillic", "single", "cjk", "kanji", "big5", "dropped", "lost")


@contextmanager
def patched(**values: object) -> Iterator[None]:
    """Module constants of ``encoding`` set to ``values`` for the block."""
    old = {k: getattr(enc, k) for k in values}
    for k, v in values.items():
        setattr(enc, k, v)
    try:
        yield
    finally:
        for k, v in old.items():
            setattr(enc, k, v)


def _show(found: enc.Corruption | None) -> str:
    if found is None:
        return ""
    return f"{found.codec} {found.sample!r} -> {found.repaired!r} x{found.count}"


class Rules:
    """Each rule real and loosened: name -> (real, loosened), each ``(text, locale) -> finding``."""

    def __init__(self) -> None:
        self.chk = chk = enc.EncodingChecker()
        western_loose = enc._codec("cp1252", 1, 1)
        cyr_loose = enc._codec("cp1251", 1, 1)

        def single(loose: bool) -> Callable[[str, str], enc.Corruption | None]:
            def run(text: str, loc: str) -> enc.Corruption | None:
                if not loose:
                    return chk._other_single_byte(text, loc)
                if text.isascii() or (mis := enc._misreading(loc)) is None:
                    return None
                for _, readers in mis.groups:
                    for codec, _checks in readers:
                        relaxed = enc._Codec(codec.name, enc._codec(codec.name, 1, 1).pair, 1, 1, 1)
                        if found := chk._mojibake(text, relaxed, mis.plausible):
                            return found
                return None

            return run

        def cjk(loose: bool) -> Callable[[str, str], enc.Corruption | None]:
            def run(text: str, loc: str) -> enc.Corruption | None:
                if not enc._DOUBLE_BYTE_READING.search(text, 0, enc.CJK_SCAN_CHARS):
                    return None
                if not loose:
                    return enc._cjk_mojibake(text, loc)
                with patched(CJK_MIN_COVERAGE=0.5, LOSSY_QUOTED_COVERAGE=0.35):
                    return enc._cjk_mojibake(text, loc)

            return run

        def kanji(big5: bool, loose: bool) -> Callable[[str, str], enc.Corruption | None]:
            classes = (chk._big5, chk._big5_rare, "big5") if big5 else (chk._kanji, chk._rare, "euc_jp")

            def run(text: str, loc: str) -> enc.Corruption | None:
                share = enc.RARE_KANJI_SHARE / (2 if loose else 1)
                distinct = enc.RARE_KANJI_DISTINCT - (1 if loose else 0)
                with patched(RARE_KANJI_SHARE=share, RARE_KANJI_DISTINCT=distinct):
                    return chk._rare_kanji(text, *classes)

            return run

        def dropped(loose: bool) -> Callable[[str, str], enc.Corruption | None]:
            def run(text: str, loc: str) -> enc.Corruption | None:
                if not enc._DOUBLE_BYTE_READING.search(text, 0, enc.CJK_SCAN_CHARS):
                    return None
                if not loose:
                    return enc._dropped_bytes(text[: enc.CJK_SCAN_CHARS])
                with patched(DROPPED_PAIR_SHARE=0.17, DROPPED_HANJA_SHARE=0.27, DROPPED_DISTINCT_SLACK=-1.0):
                    return enc._dropped_bytes(text[: enc.CJK_SCAN_CHARS])

            return run

        def lost(loose: bool) -> Callable[[str, str], enc.Corruption | None]:
            def run(text: str, loc: str) -> enc.Corruption | None:
                if loc not in LATIN_LOCALES:
                    return None
                if not loose:
                    return enc._lost_characters(text, loc)
                with patched(LOST_MARKS_MIN=1, LOST_OWN_WORDS=0.6):
                    return enc._lost_characters(text, loc)

            return run

        self.rules: dict[str, tuple[Callable[[str, str], enc.Corruption | None], ...]] = {
            "western": (
                lambda t, loc: chk._mojibake(t, chk._latin, enc._plausible_western_reading),
                lambda t, loc: chk._mojibake(t, western_loose, lambda ch: True),
            ),
            "cyrillic": (
                lambda t, loc: chk._mojibake(t, chk._cyrillic, enc._plausible_cyrillic_reading),
                lambda t, loc: chk._mojibake(t, cyr_loose, enc._plausible_cyrillic_reading, min_scattered=1),
            ),
            "single": (single(False), single(True)),
            "cjk": (cjk(False), cjk(True)),
            "kanji": (kanji(False, False), kanji(False, True)),
            "big5": (kanji(True, False), kanji(True, True)),
            "dropped": (dropped(False), dropped(True)),
            "lost": (lost(False), lost(True)),
        }


def texts(path: Path, split: str) -> Iterator[tuple[str, str]]:
    """(locale, text): each row and each of its non-empty lines."""
    for row in rows(path, split):
        if (loc := canonical_locale(str(row["locale"]))) is None:
            continue
        text = str(row["text"])
        yield loc, text
        lines = [p.strip() for p in text.split("\n") if p.strip()]
        if len(lines) > 1:
            for line in lines:
                yield loc, line


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("split", choices=("dev", "test"))
    ap.add_argument("sets", nargs="*", help="set names (default: all)")
    ap.add_argument("--show", choices=RULES, action="append", default=[])
    ap.add_argument("--limit", type=int, default=40, help="texts shown per rule and set")
    args = ap.parse_args()
    show = set(args.show) if args.split == "dev" else set()
    rules = Rules()
    whole = rules.chk.find
    total: dict[str, Counter[str]] = defaultdict(Counter)
    for path in eval_files():
        name = set_name(path)
        if args.sets and name not in args.sets:
            continue
        read, fails, near = 0, Counter[str](), Counter[str]()
        shown: Counter[str] = Counter()
        for loc, text in texts(path, args.split):
            read += 1
            failed = whole(text, loc)
            for rule, (real, loose) in rules.rules.items():
                if (found := real(text, loc)) is not None:
                    fails[rule] += 1
                    if rule in show and shown[rule] < args.limit:
                        shown[rule] += 1
                        at = found.offset
                        print(
                            f"  FAIL {rule} {name} {loc} {_show(found)}: {text[max(0, at - 80) : at + 80]!r}"
                        )
                elif failed is None and (found := loose(text, loc)) is not None:
                    near[rule] += 1
                    if rule in show and shown[rule] < args.limit:
                        shown[rule] += 1
                        at = found.offset
                        print(
                            f"  near {rule} {name} {loc} {_show(found)}: {text[max(0, at - 80) : at + 80]!r}"
                        )
        cells = "  ".join(f"{r} {fails[r]}/{near[r]}" for r in RULES if fails[r] or near[r])
        print(f"{name:12} {read:7} texts  fail/near: {cells}", flush=True)
        total["read"]["all"] += read
        total["fail"].update(fails)
        total["near"].update(near)
    cells = "  ".join(f"{r} {total['fail'][r]}/{total['near'][r]}" for r in RULES)
    print(f"{'ALL':12} {total['read']['all']:7} texts  fail/near: {cells}")


if __name__ == "__main__":
    main()
