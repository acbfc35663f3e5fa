# ruff: noqa: E501  (generator tables)
"""Issue 11's evaluation: a corruption GENERATOR applied to real clean text, and legitimate starts.

Input: clean paragraphs of real human-written text, one JSON line each ``{"locale", "source", "text"}``
(``build_language_corpus.py --clean-out``: human translations shipped in Debian packages). Nothing here is
fitted to those texts; every corrupted start is made the way serving stacks make them:

- **subword pieces of neighbouring tokens**: the tail (1-5 characters) of a word taken from another
  paragraph of any locale and script (``ción``, ``ment``, ``ного``, ``니다``, ``ます``, ``ark``), in its
  case, lower, UPPER or Title case; optionally behind a BPE/SentencePiece marker (``Ġ``, ``▁``, ``##``);
- **punctuation runs** (``.,``, ``;;``, ``),``, ``」。``) and **unclosed or doubled openers** (``" ``,
  ``""``, ``_``, ``«.``);
- **glued, spaced or newline-separated** from the text, and **in front of every legitimate opener**
  (``ing *The…``, ``ment —Quédate…``, ``s «Bonjour»``).

The negative class is legitimate starts on the same texts: dialogue (the first sentence in quotes with
its closer), emphasis (``*sighs* ``, ``**Note:**``), informal interjections (``ok.``, ``sure!``,
``hmm…``, ``oh, Mark!`` and their counterparts), a code block, a list, a lowercase command name that the
reply goes on to use. Plus encoding cases for the legacy CJK codecs, bidi controls and private-use
characters, code blocks and quoted foreign dialogue (must pass), dialogue in another language (must
fail: ``foreign_dialogue``), and repetition loops.

Cases are split dev/test by a hash of the source file, like ``build_language_corpus.py``.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterator

from sentence_spans import insert_before, resplice, sentence_spans, sentences
from vocabularies import Pieces

CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}
_WORD = re.compile(r"[^\W\d_]{4,}")
MARKERS = ["", "", "", "Ġ", "▁", "##"]
SEPARATORS = ["", " ", "\n"]
PUNCT_RUNS = [".,", ";;", "),", ",.", ":;", "」。", "、", ".;", ",,", ")", "].", "!,"]
BAD_OPENERS = ['" ', "' ", '""', "_", "«.", '".', "*.", "¿,", "((", "„„"]
LEGIT_OPENERS = ["", "", "*", "— ", "«", '"', "„", "“", "¿", "(", "- ", "「"]
INTERJECTIONS = {
    "en": ["ok. ", "sure! ", "hmm… ", "oh, Mark! ", "well, ", "yes. "],
    "es": ["bueno, ", "vale. ", "oye, ", "ay, Marta! "], "pt-BR": ["olha, ", "nossa! ", "opa, "],
    "fr": ["bon, ", "oh, Marc ! ", "euh… "], "de": ["na ja, ", "ach, ", "ok. "], "it": ["beh, ", "ecco, ", "mah… "],
    "nl": ["nou, ", "hè, "], "pl": ["no, ", "och, "], "ru": ["ну, ", "ох, "], "uk": ["ну, ", "ой, "],
    "tr": ["peki, ", "tamam. "], "id": ["iya, ", "wah, "], "vi": ["ừ, ", "à, "],
    "ja": ["ok. ", "hmm… "], "ko": ["ok. "], "zh-Hans": ["ok. "], "zh-Hant": ["ok. "],
}  # fmt: skip
EMPHASIS = ["*sighs* ", "*smiles* ", "**Note:** ", "_Whispering_ ", "*The wind howls.* "]
COMMANDS = ["rsync", "grep", "tar", "sudo", "curl", "git", "ssh", "make"]
CODE_COMMENT = "```bash\n# copy the files, then check the result\nrsync -av src/ dst/\n```\n"
CJK_CODECS = ["gb18030", "big5", "cp949", "cp932", "euc_jp"]


def split_of(source: str) -> str:
    return "dev" if int(hashlib.sha256(source.encode()).hexdigest(), 16) % 2 == 0 else "test"


def _case(piece: str, rng: random.Random) -> str:
    return rng.choice([piece, piece, piece.lower(), piece.upper(), piece.title()])


def _piece(donors: list[str], rng: random.Random) -> str:
    """The tail of a word from another paragraph: what a tokenizer leaves when it cuts the word."""
    for _ in range(20):
        words = _WORD.findall(rng.choice(donors))
        if words:
            word = rng.choice(words)
            return word[-rng.randint(1, min(5, len(word) - 1)) :]
    return "ing"


def starts(
    locale: str, text: str, donors: list[str], rng: random.Random, pieces: Pieces | None = None
) -> Iterator[tuple[str, str, str]]:
    """(kind, sub, text) corrupted and legitimate starts for one clean paragraph; the pieces are word tails
    of ``donors``, or continuation tokens of a real vocabulary when ``pieces`` is given."""
    # corrupted: a generated prefix, then possibly a legitimate opener, then the text
    for _ in range(3):
        choice = rng.random()
        if choice < 0.6:
            piece = pieces.draw(rng)[0] if pieces is not None else _piece(donors, rng)
            prefix, sub = rng.choice(MARKERS) + _case(piece, rng), "piece"
        elif choice < 0.8:
            prefix, sub = rng.choice(PUNCT_RUNS), "punct"
        else:
            prefix, sub = rng.choice(BAD_OPENERS), "opener"
        opener = rng.choice(LEGIT_OPENERS) if sub != "opener" else ""
        sep = rng.choice(SEPARATORS) if sub != "opener" else ""
        body = text
        if opener in ("«", '"', "„", "“", "「"):
            closer = {"«": "»", '"': '"', "„": "“", "“": "”", "「": "」"}[opener]
            end = (sentence_spans(text) or [(0, len(text))])[0][1]
            body = text[:end] + closer + text[end:]
        yield "leading_garbage", sub + ("+opener" if opener else ""), prefix + sep + opener + body
    # legitimate
    spans = sentence_spans(text)
    if len(spans) >= 2:
        q = {"fr": ("« ", " »"), "de": ("„", "“"), "ja": ("「", "」"), "zh-Hant": ("「", "」"),
             "ru": ("«", "»"), "uk": ("«", "»"), "pl": ("„", "”")}.get(locale, ('"', '"'))  # fmt: skip
        (start, end) = spans[0]
        yield "legit_start", "dialogue", text[:start] + q[0] + text[start:end] + q[1] + text[end:]
    yield "legit_start", "emphasis", rng.choice(EMPHASIS) + text
    yield "legit_start", "interjection", rng.choice(INTERJECTIONS[locale]) + text
    yield "legit_start", "code", CODE_COMMENT + text
    yield "legit_start", "list", "1. " + text
    command = rng.choice(COMMANDS)
    yield "legit_start", "command", f"{command} " + text + f" ({command})"
    yield "legit_start", "command_once", f"{command} " + text  # a name the reply never uses again


# Quotation marks: a text that lost them where a word begins or ends is still a text a writer could have
# written (speech and titles set off by nothing). U+2019 is also the apostrophe (``leaves_trace``).
_QUOTATION_MARKS = frozenset("“”‘«»„‚‹›")


def leaves_trace(clean: str, bad: str) -> bool:
    """Whether ``bad``, a misread copy of ``clean``, differs from it in anything a reader could see without
    the original. A lossy decoder (``errors="ignore"``) deletes the characters it cannot read; where
    they were only quotation marks next to a space, a line's edge or punctuation (``“Sky over Macedonia”``
    -> ``Sky over Macedonia``), an opening ``‘`` or a closing ``’`` (one that closes an open ``‘``, or
    follows a plural's ``s``: ``Hipparchus’ catalog`` -> ``Hipparchus catalog``), the copy is well formed
    text that no judge, human or machine, can tell from a clean one. Anything else is a trace: a
    character that was not there, a word glued to its neighbour (``Nature’s`` -> ``Natures``), an
    elision's mark deleted after a letter (``ha’ been`` -> ``ha been``), two spaces where a word or dash
    stood, a line that begins or ends with a space."""
    if len(bad) >= len(clean):
        return bad != clean
    j, opened = 0, 0
    for i, ch in enumerate(clean):
        if j < len(bad) and bad[j] == ch:
            j += 1
            if ch == "‘":
                opened += 1
            elif ch == "’" and opened and not clean[i + 1 : i + 2].isalpha():
                opened -= 1
            continue
        left, right = bad[j - 1 : j] or "\n", bad[j : j + 1] or "\n"
        if (left.isalnum() and right.isalnum()) or (left.isspace() and right.isspace()):
            return True
        if ch == "‘":
            opened += 1
        elif ch == "’":
            if opened:
                opened -= 1
            elif clean[i - 1 : i] not in ("s", "S") and clean[i - 1 : i].isalpha():
                return True  # an elision's mark (``o’``, ``goin’``): the word left is no word
        elif ch not in _QUOTATION_MARKS:
            return True
    return j < len(bad)


def encodings(text: str, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """A legacy CJK codec's reading of the paragraph whole or from mid-text on (when it leaves a trace:
    ``leaves_trace``), a bidi control and a private-use character inserted."""
    codec = rng.choice(CJK_CODECS)
    errors = rng.choice(["replace", "ignore"])
    whole = rng.random() < 0.5
    start, end = (0, len(text)) if whole else (rng.randrange(len(text) // 2), len(text))
    bad = text[:start] + text[start:end].encode("utf-8").decode(codec, errors=errors) + text[end:]
    if leaves_trace(text, bad):
        yield "encoding", f"{codec}/{errors}", bad
    at = rng.randrange(len(text))
    yield "encoding", "bidi", text[:at] + rng.choice(["\u202e", "\u202d", "\u2066", "\u202b"]) + text[at:]
    yield "encoding", "private_use", text[:at] + chr(rng.randrange(0xE000, 0xF8FF)) + text[at:]


def dialogue_and_code(
    locale: str, text: str, foreign: str, rng: random.Random
) -> Iterator[tuple[str, str, str]]:
    """Must pass: one quoted foreign sentence in a 3-5-sentence reply; a code block with English comments."""
    own = sentence_spans(text)
    if 2 <= len(own) <= 4:
        line = (sentences(foreign) or [foreign])[0]
        if 20 <= len(line) <= 200:
            q = ("「", "」") if locale in CJK else ("“", "”")
            at = rng.randrange(1, len(own))
            yield "quoted_dialogue", "", insert_before(text, own, at, q[0] + line + q[1])
    code = ("```python\n# read the configuration file and print every section name in order\n"
            "for section in config.sections():\n    print(section)  # one per line\n```\n")  # fmt: skip
    # the code block between the two halves of the paragraph (after it when it is one sentence)
    half = max(1, len(own) // 2)
    head, tail = (text[: own[half - 1][1]], text[own[half][0] :]) if half < len(own) else (text, "")
    yield "code_block", "", head + "\n\n" + code + "\n" + tail


def foreign_dialogue(locale: str, text: str, donors: list[str]) -> Iterator[tuple[str, str, str]]:
    """Must fail: the paragraph's sentences as narration, each of the first two to four followed by a
    sentence of one of ``donors`` (text in another language) in quotes (“…” or 「…」, as in
    ``dialogue_and_code``): characters who speak that language. Drawn with a generator of its own, seeded
    by the paragraph, so adding these cases leaves every other case of an evaluation as it was."""
    own = sentence_spans(text)
    if len(own) < 2 or not donors:
        return
    rng = random.Random(hashlib.sha256(text.encode()).digest())
    lines = [line for line in sentences(rng.choice(donors)) if 20 <= len(line) <= 200]
    k = min(len(own), len(lines), 4)
    if k >= 2:
        q, gap = (("「", "」"), "") if locale in CJK else (("“", "”"), " ")
        picked = rng.sample(lines, k)
        replace = {i: text[slice(*own[i])] + gap + q[0] + picked[i] + q[1] for i in range(k)}
        yield "foreign_dialogue", "", resplice(text, own, replace)


def repetitions(text: str, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    sents = sentences(text) or [text]
    words = text.split()
    yield "repetition", "token", text + " " + " ".join([rng.choice(words)] * 200)
    yield "repetition", "sentence", " ".join([rng.choice(sents)] * 10)
    gram = " ".join(words[:3])
    yield "repetition", "ngram", sents[0] + " " + " ".join([gram] * 40)


MUST_PASS = frozenset({"clean", "legit_start", "quoted_dialogue", "code_block"})


def figure(kind: str, c: Counter[str]) -> str:
    """The acceptance figure of one case kind (``"clean"``, ``"encoding big5/ignore"``): false-fail for
    what must pass, fails among short replies (must be none), recall for what must fail."""
    n = c["fail"] + c["pass"] + c["inconclusive"]
    base = kind.split()[0]
    if base in MUST_PASS:
        return f"false-fail {c['fail'] / n:.2%}"
    if base == "short":
        return f"fails {c['fail']} (must be 0)"
    return f"recall {c['fail'] / n:.2%}"


def tallies() -> tuple[dict[str, Counter[str]], dict[tuple[str, str], Counter[str]]]:
    """Outcome counts per kind (and sub-kind), and per (kind, locale)."""
    return defaultdict(Counter), defaultdict(Counter)


def record(
    tally: dict[str, Counter[str]],
    per_locale: dict[tuple[str, str], Counter[str]],
    kind: str,
    locale: str,
    outcome: str,
) -> None:
    """Counts one case's ``outcome`` under its kind, its family (the kind's first word) and its locale."""
    family = kind.split()[0]
    for key in (kind, family):
        tally[key][outcome] += 1
    per_locale[(family, locale)][outcome] += 1


def print_recall_table(
    tally: dict[str, Counter[str]],
    per_locale: dict[tuple[str, str], Counter[str]],
    families: tuple[str, str, str],
    locales: tuple[str, ...],
    width: int,
) -> None:
    """Per kind its count and fail share (recall, or false-fail for the ``families[2]`` controls), then per
    locale the fail share of each of the three families (must-fail, must-fail, controls)."""
    for key in sorted(tally):
        c = tally[key]
        n = c["fail"] + c["pass"]
        figure = "false-fail" if key.startswith(families[2]) else "recall"
        share = c["fail"] / max(1, n)
        print(f"  {key:{width}} {n:6}  {figure} {share:.2%} ({c['pass' if figure == 'recall' else 'fail']})")
    print(f"per locale: {families[0]} recall / {families[1]} recall / {families[2]} false-fail")
    for locale in locales:
        print(f"  {locale:8} " + "  ".join(_share_cell(per_locale[(f, locale)]) for f in families))


def _share_cell(c: Counter[str]) -> str:
    n = c["fail"] + c["pass"]
    return f"{c['fail'] / n:7.2%} /{n:5}" if n else f"{'-':>14}"


def print_per_locale(per_locale: dict[tuple[str, str], Counter[str]]) -> None:
    """The fail share of every case kind, per locale, one line per kind."""
    print("\nper locale (fail share):")
    for kind in sorted({k for k, _ in per_locale}):
        cells = [
            f"{loc}:{c['fail'] / max(1, sum(c.values())):.1%}"
            for (k, loc), c in sorted(per_locale.items())
            if k == kind
        ]
        print(f"  {kind:16} " + " ".join(cells))
