"""Builds the language-judge evaluation corpus from human-translated Debian documentation (not shipped).

Sources, per locale, all real human translations installed from Debian packages:

* translated manual pages under ``/usr/share/man/<dir>`` (packages ``manpages-<lang>``, ``manpages-zh``,
  ``manpages-ja`` and the translations other packages ship), rendered with ``groff -Tutf8``;
* the Debian Reference in HTML (``debian-reference-<lang>``);
* gettext catalogues (``/usr/share/locale/<dir>/LC_MESSAGES/*.mo``) of installed packages (long
  messages only).

Clean paragraphs are filtered with a tiny stop-word / script check that is independent of the judge (so
untranslated English passages are dropped), then the failure cases are synthesised from them: whole switch,
code-mixing (30-60 % of sentences from another locale, close and far pairs), encoding corruption
(cp1252 / Latin-1 / cp1251 mojibake, U+FFFD, control characters), corrupted starts (stray punctuation, token
fragments), legitimate starts, and short replies.

Usage::

    apt-get install manpages-de manpages-fr ... debian-reference-de ...   # see docs/language.md
    .venv/bin/python bench/corpus/build_language_corpus.py --out bench/results/language_corpus.jsonl

Each output line is ``{"id", "split", "kind", "sub", "locale", "expect", "text"}``; ``split`` is ``dev``
or ``test`` by a hash of the source file, so thresholds tuned on ``dev`` are checked on unseen ``test`` files.
"""

from __future__ import annotations

import argparse
import gettext
import hashlib
import html.parser
import json
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sentence_spans import resplice, sentence_spans
from sentence_spans import sentences as sentence_texts

LOCALES = ["en", "es", "pt-BR", "fr", "de", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "zh-Hans",
           "zh-Hant", "id", "vi"]  # fmt: skip
MAN_DIRS = {
    "en": "", "es": "es", "pt-BR": "pt_BR", "fr": "fr", "de": "de", "it": "it", "nl": "nl", "pl": "pl",
    "ru": "ru", "uk": "uk", "tr": "tr", "ja": "ja", "ko": "ko", "zh-Hans": "zh_CN", "zh-Hant": "zh_TW",
    "id": "id", "vi": "vi",
}  # fmt: skip
REFERENCE = {"en": "en", "es": "es", "pt-BR": "pt", "fr": "fr", "de": "de", "it": "it", "ja": "ja",
             "zh-Hans": "zh-cn", "zh-Hant": "zh-tw", "id": "id"}  # fmt: skip
STOPWORDS = {
    "en": ["the", "and", "of", "to", "is", "that", "for", "are", "with", "this"],
    "es": ["de", "la", "que", "el", "en", "los", "las", "por", "una", "para", "es", "con"],
    "pt-BR": ["de", "que", "não", "uma", "os", "para", "com", "é", "do", "da", "em", "um"],
    "fr": ["le", "la", "les", "de", "des", "et", "est", "une", "que", "pour", "dans"],
    "de": ["der", "die", "und", "das", "ist", "nicht", "mit", "den", "ein", "eine", "wird"],
    "it": ["il", "di", "che", "è", "per", "una", "non", "gli", "della", "con", "sono"],
    "nl": ["de", "het", "een", "van", "en", "is", "niet", "dat", "voor", "wordt", "op"],
    "pl": ["i", "w", "się", "nie", "na", "jest", "z", "do", "że", "jak", "lub"],
    "tr": ["bir", "ve", "bu", "için", "ile", "olarak", "da", "de", "veya", "gibi"],
    "id": ["yang", "dan", "di", "untuk", "dengan", "ini", "tidak", "dari", "akan", "dapat"],
    "vi": ["của", "và", "là", "không", "các", "được", "cho", "một", "có", "này"],
    "ru": ["и", "в", "не", "на", "что", "с", "для", "это", "как", "или"],
    "uk": ["і", "в", "не", "на", "що", "з", "для", "це", "та", "або", "як"],
}
CLOSE = {"es": ["pt-BR", "it"], "pt-BR": ["es", "it"], "it": ["es", "fr"], "fr": ["it", "es"], "de": ["nl"],
         "nl": ["de", "en"], "en": ["nl", "fr"], "ru": ["uk"], "uk": ["ru", "pl"], "pl": ["uk"],
         "zh-Hans": ["zh-Hant", "ja"], "zh-Hant": ["zh-Hans", "ja"], "ja": ["zh-Hans"], "ko": ["ja"],
         "id": ["vi", "en"], "vi": ["id"], "tr": ["id", "en"]}  # fmt: skip
FRAGMENTS = {
    "latin": ["ing", "tion", "ción", "ção", "ung", "ment", "ness", "ed", "ly", "ata", "nya", "lar", "ów",
              "en",
              "ische", "zione", "ies", "ers", "ant", "ist", "ları", "ent", "és", "ità", "heid", "ować"],
    "cyrillic": ["ное", "ть", "ний", "ого", "ється", "ся", "ами", "ого", "ння", "ий"],
    "cjk": ["的", "了", "ます", "です", "を", "っ", "니다 ", "는 ", "를 ", "ing", "tion", "ное"],
}  # fmt: skip
STRAY = [".", ",", ";", ":", ")", "]", "}", "!", "?", "。", "、", "，", "）", "」", "》", "|", "/", "\\", "%",
         "&", "=", "”", "’", "^", ".,", ")\n", "\"ing "]  # fmt: skip
LEGIT = ["*", "**", "\"", "«", "“", "„", "— ", "– ", "- ", "¿", "¡", "「", "『", "（", "(", "1. ", "• ", "> ",
         "# ", "😊 ", "🙂", "✨ ", "...", "… ", "'", "_", "[", "~"]  # fmt: skip
CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}

_SENT = re.compile(r"(?<=[.!?。！？])\s+|(?<=[。！？])")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_WORD = re.compile(r"\w+", re.UNICODE)


def _simplified_only(ch: str) -> int:
    return int(_encodes(ch, "gb2312") and not _encodes(ch, "big5"))


def _traditional_only(ch: str) -> int:
    return int(_encodes(ch, "big5") and not _encodes(ch, "gb2312"))


def _encodes(ch: str, codec: str) -> bool:
    try:
        ch.encode(codec)
    except UnicodeEncodeError:
        return False
    return True


_LATIN_WORDS = re.compile(r"(?:[A-Za-z]+[ ,;:()'-]+){6,}")


def plausible(text: str, locale: str) -> bool:
    """An independent, crude check that a paragraph is in its locale (drops untranslated passages)."""
    if locale in CJK and _LATIN_WORDS.search(text):
        return False  # an untranslated English sentence left in the translation
    if locale != "en" and locale not in CJK and any(_englishish(s) for s in sentences(text)):
        return False
    if locale == "ja":
        return len(_KANA.findall(text)) >= 10
    if locale == "ko":
        return len(_HANGUL.findall(text)) >= 20 and not _KANA.search(text)
    if locale in ("zh-Hans", "zh-Hant"):
        han = _HAN.findall(text)
        if len(han) < 30 or _KANA.search(text) or _HANGUL.search(text):
            return False
        s = sum(_simplified_only(c) for c in han)
        t = sum(_traditional_only(c) for c in han)
        return s >= 2 and t == 0 if locale == "zh-Hans" else t >= 2 and s == 0
    words = [w.lower() for w in _WORD.findall(text)]
    own = sum(w in STOPWORDS[locale] for w in words)
    english = sum(w in STOPWORDS["en"] for w in words)
    distinct = len({w for w in words if w in STOPWORDS[locale]})
    if locale == "uk" and (not re.search("[іїє]", text) or re.search("[ыэъё]", text)):
        return False
    if locale == "ru" and re.search("[іїєґ]", text):
        return False
    if locale != "en" and english * 2 > own:
        return False
    letters = sum(c.isalpha() for c in text)
    return distinct >= 3 and own >= 4 and letters >= 0.75 * len(text.replace(" ", ""))


def _englishish(sentence: str) -> bool:
    words = [w.lower() for w in _WORD.findall(sentence)]
    english = sum(w in STOPWORDS["en"] for w in words)
    return len(words) >= 6 and english >= 2 and english * 8 >= len(words)


# -- extraction -------------------------------------------------------------------------------------------
def render_man(path: Path) -> str:
    cat = ["zcat", str(path)] if path.suffix == ".gz" else ["cat", str(path)]
    try:
        raw = subprocess.run(cat, capture_output=True, timeout=20, check=False).stdout
        out = subprocess.run(
            ["groff", "-k", "-Tutf8", "-mandoc", "-P-cbou", "-rLL=3000n"],
            input=raw,
            capture_output=True,
            timeout=20,
            check=False,
        ).stdout
    except subprocess.TimeoutExpired:
        return ""
    return out.decode("utf-8", errors="replace")


def man_paragraphs(text: str) -> Iterator[str]:
    """Body paragraphs; a change of indentation (a tag line and its description) starts a new one."""
    block: list[str] = []
    indent = -1
    for line in [*text.splitlines(), ""]:
        stripped = line.strip()
        this_indent = len(line) - len(line.lstrip(" "))
        if stripped and line.startswith(" ") and (not block or this_indent == indent):
            block.append(stripped)
            indent = this_indent
            continue
        if block:
            yield _untag(" ".join(block))
        block = [stripped] if stripped and line.startswith(" ") else []
        indent = this_indent


def _untag(paragraph: str) -> str:
    """Drop a man-page tag set on the same line as its description ("c      Un fichier ...")."""
    return re.sub(r"^\S{1,30}\s{3,}", "", paragraph)


class _Paragraphs(html.parser.HTMLParser):
    """The ``<p>`` paragraphs' text without code. A paragraph that opens with code is not kept: removing
    the code removed its first word, and what is left starts mid-sentence (Japanese ``<code>~/.bashrc</code>
    を編集…`` became ``を編集…``, a start no reply has)."""

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.skip = 0
        self.opens_with_code = False
        self.parts: list[str] = []
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "p":
            self.depth += 1
            self.parts = []
            self.opens_with_code = False
        elif tag in ("code", "pre", "literal", "tt"):
            self.skip += 1
            if self.depth and not "".join(self.parts).strip():
                self.opens_with_code = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "p" and self.depth:
            self.depth -= 1
            if not self.opens_with_code:
                self.found.append(re.sub(r"\s+", " ", "".join(self.parts)).strip())
        elif tag in ("code", "pre", "literal", "tt") and self.skip:
            self.skip -= 1

    def handle_data(self, data: str) -> None:
        if self.depth and not self.skip:
            self.parts.append(data)


def reference_paragraphs(path: Path) -> list[str]:
    parser = _Paragraphs()
    parser.feed(path.read_text(encoding="utf-8", errors="replace"))
    return parser.found


def mo_paragraphs(path: Path) -> list[str]:
    try:
        with path.open("rb") as fh:
            catalog = gettext.GNUTranslations(fh)._catalog  # type: ignore[attr-defined]
    except Exception:
        return []
    out = []
    for value in catalog.values():
        if isinstance(value, str) and len(value) >= 150:
            out.append(re.sub(r"\s+", " ", value).strip())
    return out


# What a person would not write as a reply, though the translation is real: a manual page's tag cut off its
# description ("verwendet Gerät als ...", "name The disk ..."), a command name or format string opening a
# paragraph ("passwd, Linux-PAM ...", "%P: warning ..."), and translations that carry mojibake themselves
# ("sesiÃ³n": the source file was double-encoded). Independent of the judge: a lowercase or punctuation
# first character, and a Latin-1 lead letter followed by a cp1252 continuation character.
_NOT_A_REPLY_START = re.compile(r"^(?:[a-zà-öø-ÿа-яёєіїґ]|[%,;:.)\]}|])")
_SOURCE_MOJIBAKE = re.compile(
    "[ÃÂ][\u0080-\u00bf\u0152\u0153\u0160\u0161\u0178\u017d\u017e\u2013-\u203a\u20ac\u2122]"
)


def reply_like(p: str) -> bool:
    """Whether a clean paragraph could open a reply a person writes (see ``_NOT_A_REPLY_START``)."""
    return not _NOT_A_REPLY_START.match(p) and not _SOURCE_MOJIBAKE.search(p)


def looks_like_prose(p: str) -> bool:
    if len(p) < 60 or p.startswith(("-", "/", "$", "#")):
        return False
    bad = sum(p.count(c) for c in "/=<>{}[]|_$%@\\`")
    return bad <= len(p) / 60


def collect(
    locale: str, per_locale_files: int, rng: random.Random, reply_filter: bool = True
) -> list[tuple[str, str]]:
    """(source, paragraph) pairs for one locale."""
    sources: list[tuple[str, list[str]]] = []
    mandir = Path("/usr/share/man") / MAN_DIRS[locale]
    pages = sorted(mandir.glob("man[1-8]/*"))
    rng.shuffle(pages)
    pages = pages[:per_locale_files]
    with ThreadPoolExecutor(4) as pool:
        for page, rendered in zip(pages, pool.map(render_man, pages), strict=True):
            sources.append((str(page), list(man_paragraphs(rendered))))
    if locale in REFERENCE:
        for f in sorted(Path("/usr/share/debian-reference").glob(f"*.{REFERENCE[locale]}.html")):
            sources.append((str(f), reference_paragraphs(f)))
    lc = MAN_DIRS[locale] or "en_GB"
    for f in sorted(Path("/usr/share/locale", lc, "LC_MESSAGES").glob("*.mo")):
        sources.append((str(f), mo_paragraphs(f)))
    return runs(sources, locale, reply_filter)


def runs(
    sources: list[tuple[str, list[str]]],
    locale: str,
    reply_filter: bool = True,
    in_locale: Callable[[str, str], bool] = plausible,
) -> list[tuple[str, str]]:
    """(source, paragraph) pairs: consecutive prose paragraphs of a source in its locale (``in_locale``)
    joined into runs of 200-700 characters, deduplicated, without the paragraphs no one writes as a reply."""
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    for source, paragraphs in sources:
        buf = ""
        for p in paragraphs:
            p = " ".join(p.split())
            if not looks_like_prose(p) or not in_locale(p, locale):
                if len(buf) >= 200:
                    out.append((source, buf))
                buf = ""
                continue
            buf = f"{buf} {p}".strip() if buf else p
            if len(buf) >= 400:
                out.append((source, _trim(buf, 700)))
                buf = ""
        if len(buf) >= 200:
            out.append((source, buf))
    unique = []
    for source, text in out:
        key = text[:80]
        if reply_filter and not reply_like(text):
            continue
        if key not in seen:
            seen.add(key)
            unique.append((source, text))
    return unique


def _trim(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    ends = [m.end() for m in re.finditer(r"[.!?。！？](\s|$)|[。！？]", cut)]
    return cut[: ends[-1]].strip() if ends and ends[-1] > limit // 3 else cut.rsplit(" ", 1)[0]


def sentences(text: str) -> list[str]:
    return [s for s in _SENT.split(text) if s.strip()]


# -- synthesis --------------------------------------------------------------------------------------------
def mojibake(text: str, codec: str, rng: random.Random) -> str:
    """UTF-8 bytes of (part of) the text decoded with the wrong codec."""
    whole = rng.random() < 0.5
    if whole:
        start, end = 0, len(text)
    else:
        start = rng.randrange(0, max(1, len(text) // 2))
        end = min(len(text), start + rng.randrange(40, 200))
    part = text[start:end].encode("utf-8").decode(codec, errors="replace")
    return text[:start] + part + text[end:]


def synthesise(clean: dict[str, list[tuple[str, str]]], seed: int) -> Iterator[dict[str, str]]:
    rng = random.Random(seed)
    n = 0

    def item(kind: str, sub: str, locale: str, expect: str, text: str, source: str) -> dict[str, str]:
        nonlocal n
        n += 1
        split = "dev" if int(hashlib.sha256(source.encode()).hexdigest(), 16) % 2 == 0 else "test"
        return {"id": f"{kind}-{n}", "split": split, "kind": kind, "sub": sub, "locale": locale,
                "expect": expect, "text": text}  # fmt: skip

    for locale, rows in clean.items():
        others = [x for x in LOCALES if x != locale and clean.get(x)]
        for source, text in rows:
            yield item("clean", "", locale, "pass", text, source)
            # whole switch: this text judged against another expected locale
            expected = rng.choice(CLOSE[locale] if rng.random() < 0.5 else others)
            if clean.get(expected):
                yield item("switch", f"{locale}->{expected}", expected, "fail", text, source)
            # mixing: 30-60 % of the expected locale's sentences replaced by another locale's
            own = sentence_spans(text)
            if len(own) >= 3:
                foreign_locale = rng.choice(CLOSE[locale] if rng.random() < 0.6 else others)
                if clean.get(foreign_locale):
                    donor = sentence_texts(rng.choice(clean[foreign_locale])[1])
                    k = max(1, round(len(own) * rng.uniform(0.3, 0.6)))
                    k = min(k, len(donor), len(own) - 1)
                    if k >= 1 and k / len(own) >= 0.3:
                        slots = sorted(rng.sample(range(len(own)), k))
                        mixed = dict(zip(slots, donor, strict=False))
                        yield item("mixing", f"{locale}+{foreign_locale}", locale, "fail",
                                   resplice(text, own, mixed), source)  # fmt: skip
            # encoding
            kind = rng.choice(["cp1252", "latin-1", "cp1251", "fffd", "control"])
            if kind in ("cp1252", "latin-1", "cp1251"):
                bad = mojibake(text, kind, rng)
            elif kind == "fffd":
                at = rng.randrange(len(text))
                bad = text[:at] + "\ufffd" * rng.choice([1, 1, 2, 3]) + text[at:]
            else:
                at = rng.randrange(len(text))
                bad = text[:at] + rng.choice(["\x00", "\x01", "\x07", "\x08", "\x1b", "\x7f", "\x85", "\x9d",
                                              "\x1f", "\x0b"]) + text[at:]  # fmt: skip
            if bad != text:
                yield item("encoding", kind, locale, "fail", bad, source)
            # corrupted start and legitimate start
            if rng.random() < 0.5:
                stray = rng.choice(STRAY)
                yield item("leading_garbage", "stray", locale, "fail", stray + rng.choice(["", " "]) + text,
                           source)  # fmt: skip
            else:
                family = "cjk" if locale in CJK else "cyrillic" if locale in ("ru", "uk") else "latin"
                frag = rng.choice(FRAGMENTS[family])
                yield item("leading_garbage", "fragment", locale, "fail",
                           frag + rng.choice(["", " ", "\n"]) + text, source)  # fmt: skip
            legit = rng.choice(LEGIT)
            yield item("legit_start", legit.strip() or legit, locale, "pass", legit + text, source)
            # short
            first = sentences(text)[0]
            short = first[: rng.choice([2, 5, 12, 20])] if locale in CJK else " ".join(first.split()[:3])
            yield item("short", "", locale, "not_fail", short, source)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="bench/results/language_corpus.jsonl")
    parser.add_argument("--files", type=int, default=400, help="manual pages sampled per locale")
    parser.add_argument("--per-locale", type=int, default=400, help="clean paragraphs kept per locale")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument(
        "--keep-non-replies",
        action="store_true",
        help="keep paragraphs no one writes as a reply (cut manual-page tags, format strings, mojibake)",
    )
    parser.add_argument(
        "--clean-out",
        help="also write every clean paragraph as {locale, source, text} JSON lines (bench/judges_eval.py)",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    clean: dict[str, list[tuple[str, str]]] = {}
    for locale in LOCALES:
        rows = collect(locale, args.files, rng, reply_filter=not args.keep_non_replies)
        if args.clean_out:
            with open(args.clean_out, "a" if locale != LOCALES[0] else "w", encoding="utf-8") as fh:
                for source, text in rows:
                    row = {"locale": locale, "source": source, "text": text}
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        rng.shuffle(rows)
        clean[locale] = rows[: args.per_locale]
        print(f"{locale:8} {len(rows):5} paragraphs, kept {len(clean[locale])}", file=sys.stderr)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    count = 0
    with out.open("w", encoding="utf-8") as fh:
        for row in synthesise(clean, args.seed):
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
            count += 1
    print(f"wrote {count} cases to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
