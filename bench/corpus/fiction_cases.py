# ruff: noqa: E501  (generator tables)
"""Cases of the fiction evaluation (``bench/fiction_eval.py``), generated from clean replies of real
human-translated fiction (``build_fiction_corpus.py``) and a real tokenizer vocabulary.

- **corrupted starts**: a piece of a real tokenizer vocabulary (``vocabularies.py``: Whisper's
  ``multilingual.tiktoken``, Mistral's Tekken JSON or a SentencePiece model): a *continuation* token (one
  a word is cut into: no leading space or ``▁``), letters only, in any script; glued to the reply,
  spaced (``ally The keeper``) or on its own line, and in front of every legitimate opener (a dialogue
  dash, quotes, ``*``, ``¿``, ``「``, a name and a dash, an interjection);
- **legitimate starts** on the same replies (must pass): a name, a dash and a capitalised word
  (``Мирон — Стрілець…``), a sentence opening with a conjunction (``ですが、…``, ``But the…``), a closed
  quoted term (``'검은 숲'에서…``), a foreign surname opening a sentence (``Müller stał…``), a Latin command
  name opening a CJK paragraph, quoted dialogue, an interjection;
- **dialogue in another language** (must fail): the reply's sentences as narration, each followed by a
  quoted line of a partner language (``judge_cases.foreign_dialogue``);
- **switch and mixing** with partner languages inside and outside the 17 (ca/gl in es, gl in pt-BR, af in
  nl, bg in ru, ms in id, cs/sk in pl, …), from the same catalogues' translations;
- **encoding**: UTF-8 read as cp1252/latin-1/cp1251 and as each legacy CJK codec (Big5 for zh-Hant among
  them), and a control (must pass): a CJK word inside a Latin-script reply (``…elle dit *谢谢* et…``).

Split dev/test by the source catalogue (a campaign), never by case; fixed seed.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Iterator

from judge_cases import leaves_trace
from sentence_spans import resplice, sentence_spans, sentences
from vocabularies import Pieces

CJK = frozenset({"ja", "ko", "zh-Hans", "zh-Hant"})
# Partner languages per locale: neighbours (inside and outside the 17) first, drawn half of the time.
NEIGHBOURS = {
    "en": ["nl", "de", "af", "sv", "da"], "es": ["ca", "gl", "pt-BR", "it", "pt"], "pt-BR": ["gl", "es", "it", "ca"],
    "fr": ["ca", "it", "es", "ro"], "de": ["nl", "da", "sv", "af"], "it": ["es", "ca", "ro", "fr"],
    "nl": ["af", "de", "en", "da"], "pl": ["cs", "sk", "uk", "ru"], "ru": ["bg", "uk", "mk", "sr"],
    "uk": ["ru", "bg", "mk", "sr"], "tr": ["az", "fi", "hu"], "id": ["ms"], "vi": ["id", "en"],
    "ja": ["zh-Hans", "zh-Hant", "ko"], "ko": ["ja", "zh-Hans"], "zh-Hans": ["zh-Hant", "ja"],
    "zh-Hant": ["zh-Hans", "ja"],
}  # fmt: skip
OTHERS = ["en", "es", "pt-BR", "fr", "de", "it", "nl", "pl", "ru", "uk", "tr", "ja", "ko", "zh-Hans", "zh-Hant",
          "id", "vi", "ca", "gl", "cs", "sk", "bg", "sv", "da", "fi", "hu", "ro", "el", "et", "lt", "sr"]  # fmt: skip
NAMES = {"latin": ["Konrad", "Delfador", "Li'sar", "Kalenz", "Marta", "Tomasz", "Elena"],
         "cyrillic": ["Мирон", "Конрад", "Олена", "Дельфадор"]}  # fmt: skip
SURNAMES = [
    "Müller",
    "Nowak",
    "García",
    "Dubois",
    "Rossi",
    "Jansen",
    "Yılmaz",
    "Nguyễn",
    "Kowalski",
    "Schröder",
]
CYRILLIC_SURNAMES = ["Шевченко", "Иванов", "Коваленко"]
COMMANDS = ["git", "rsync", "grep", "sudo", "Python", "Docker", "Wesnoth"]
CONJUNCTIONS = {
    "en": "But ", "es": "Pero ", "pt-BR": "Mas ", "fr": "Mais ", "de": "Aber ", "it": "Ma ", "nl": "Maar ",
    "pl": "Ale ", "ru": "Но ", "uk": "Але ", "tr": "Ama ", "id": "Tapi ", "vi": "Nhưng ", "ja": "ですが、",
    "ko": "하지만 ", "zh-Hans": "但是，", "zh-Hant": "但是，",
}  # fmt: skip
INTERJECTIONS = {
    "en": "Oh, ", "es": "Ay, ", "pt-BR": "Olha, ", "fr": "Oh, ", "de": "Ach, ", "it": "Beh, ", "nl": "Nou, ",
    "pl": "Och, ", "ru": "Ох, ", "uk": "Ой, ", "tr": "Peki, ", "id": "Wah, ", "vi": "Ồ, ", "ja": "ああ、",
    "ko": "아, ", "zh-Hans": "唉，", "zh-Hant": "唉，",
}  # fmt: skip
QUOTES = {"fr": ("« ", " »"), "de": ("„", "“"), "ja": ("「", "」"), "zh-Hant": ("「", "」"), "zh-Hans": ("“", "”"),
          "ru": ("«", "»"), "uk": ("«", "»"), "pl": ("„", "”"), "ko": ("“", "”")}  # fmt: skip
CJK_WORDS = ["谢谢", "你好", "ありがとう", "안녕", "先生", "さようなら"]
LEGACY_CJK = ["gb18030", "big5", "cp949", "cp932", "euc_jp"]


def split_of(source: str) -> str:
    """dev or test, by the source catalogue (a campaign)."""
    return "dev" if int(hashlib.sha256(source.encode()).hexdigest(), 16) % 2 == 0 else "test"


def join(parts: list[str], locale: str) -> str:
    return ("" if locale in CJK else " ").join(parts)


def _quote(locale: str, text: str) -> str:
    """The reply's first sentence as closed dialogue."""
    start, end = (sentence_spans(text) or [(0, len(text))])[0]
    q = QUOTES.get(locale, ("“", "”"))
    return text[:start] + q[0] + text[start:end] + q[1] + text[end:]


_GERMAN_LOWER = frozenset(
    [
        "der",
        "die",
        "das",
        "ein",
        "eine",
        "er",
        "sie",
        "es",
        "wir",
        "ihr",
        "ich",
        "du",
        "wenn",
        "mein",
        "meine",
        "dein",
        "sein",
        "ihr",
        "habt",
        "hat",
        "ist",
        "sind",
        "wird",
        "werden",
        "wie",
        "was",
        "wo",
        "warum",
        "nein",
        "ja",
        "nun",
        "so",
        "aber",
        "und",
        "doch",
        "dann",
        "da",
        "dort",
        "hier",
    ]
)


def _lower_first(text: str, locale: str) -> str:
    if locale == "de" and text.split(" ", 1)[0].casefold() not in _GERMAN_LOWER:
        return text  # German capitalises nouns; the reply's first word may be one
    return text[:1].lower() + text[1:]


def starts(locale: str, text: str, pieces: Pieces, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """(kind, sub, text): four corrupted starts and the legitimate starts of one reply."""
    cyrillic = locale in ("ru", "uk")
    names = NAMES["cyrillic" if cyrillic else "latin"]
    openers = {
        "bare": lambda: text,
        "dash": lambda: "— " + text,
        "quote": lambda: _quote(locale, text),
        "star": lambda: "*" + text,
        "inverted": lambda: "¿" + text,
        "corner": lambda: "「" + text,
        "name": lambda: rng.choice(names) + " — " + text,
        "interjection": lambda: (
            INTERJECTIONS[locale] + (text if locale in CJK else _lower_first(text, locale))
        ),
    }
    for _ in range(4):
        piece, family = pieces.draw(rng)
        sep_name, sep = rng.choice([("glued", ""), ("spaced", " "), ("spaced", " "), ("newline", "\n")])
        opener = rng.choice(list(openers))
        yield "leading_garbage", f"{family}/{sep_name}/{opener}", piece + sep + openers[opener]()
    # legitimate starts
    if locale not in CJK and text[:1].isalpha():
        yield "legit_start", "name_dash", rng.choice(names) + " — " + text
        surname = rng.choice(CYRILLIC_SURNAMES if cyrillic else SURNAMES)
        yield "legit_start", "surname", surname + " " + _lower_first(text, locale)
    # a command or quotation marks around a reply that opens with a quotation mark or a dash would make no
    # legitimate start
    opens_with_letter = text[:1].isalpha()
    if locale in CJK:
        # a command or product name opening the paragraph: "grep 命令…", "Docker …", "rsync는 …"
        command = rng.choice(COMMANDS)
        noun = {"ja": " コマンドは、", "ko": " 명령은 ", "zh-Hans": " 命令：", "zh-Hant": " 命令："}[locale]
        if opens_with_letter:
            yield "legit_start", "command", command + (noun if command.islower() else " ") + text
    conj = CONJUNCTIONS[locale]
    yield "legit_start", "conjunction", conj + (text if locale in CJK else _lower_first(text, locale))
    yield "legit_start", "interjection", openers["interjection"]()
    if opens_with_letter and len(re.findall(r"[^\W\d_]", (sentences(text) or [text])[0])) >= 3:
        yield "legit_start", "dialogue", _quote(locale, text)
    words = text.split()
    if locale in CJK:
        if locale == "ko":  # a quoted word, then its particle: "'검은 숲'에서"
            word, _, rest = text.partition(" ")
            if len(word) >= 3:
                yield "legit_start", "quoted_term", "'" + word[:-1] + "'" + word[-1] + " " + rest
        else:
            n = rng.randint(2, 4)
            yield "legit_start", "quoted_term", "「" + text[:n] + "」" + text[n:]
    elif len(words) > 3:
        q = ("'", "'") if rng.random() < 0.5 else ('"', '"')
        if words[0][:1].isalpha():  # quotes around an opening quote or dash would make no legitimate start
            term = re.match(r"\s*\S+\s+\S+", text)  # the first two words, with the space between them
            assert term is not None
            yield "legit_start", "quoted_term", q[0] + term.group() + q[1] + text[term.end() :]


def encodings(locale: str, text: str, rng: random.Random) -> Iterator[tuple[str, str, str]]:
    """Mojibake (classic and legacy CJK) that must fail, where it leaves a trace (``leaves_trace``), and a CJK
    word in Latin text that must pass."""
    codec = "big5" if locale == "zh-Hant" and rng.random() < 0.5 else rng.choice(LEGACY_CJK)
    errors = rng.choice(["replace", "ignore"])
    start = 0 if rng.random() < 0.5 else rng.randrange(len(text) // 2)
    bad = text[:start] + text[start:].encode("utf-8").decode(codec, errors=errors)
    if leaves_trace(text, bad):
        yield "encoding", f"{codec}/{errors}", bad
    classic = "cp1251" if locale in ("ru", "uk") else rng.choice(["cp1252", "latin-1"])
    try:
        bad = text.encode("utf-8").decode(classic, errors="replace")
    except LookupError:
        bad = text
    if bad != text and locale not in ("en",):
        yield "encoding", classic, bad
    if locale not in CJK:
        words = text.split(" ")
        at = rng.randrange(1, max(2, len(words) - 1))
        word = rng.choice(CJK_WORDS)
        mark = rng.choice(["*", "«", ""])
        close = {"*": "*", "«": "»", "": ""}[mark]
        yield "cjk_word", "", " ".join([*words[:at], mark + word + close, *words[at:]])


def languages(
    locale: str,
    keys: list[str],
    source: str,
    partner_texts: dict[str, dict[tuple[str, str], str]],
    rng: random.Random,
) -> tuple[str, list[str]] | None:
    """A partner language and its translation of the same messages (None when it has none of them)."""
    pool = NEIGHBOURS[locale] if rng.random() < 0.5 else [x for x in OTHERS if x != locale]
    for _ in range(6):
        partner = rng.choice(pool)
        found = partner_texts.get(partner, {})
        lines = [found[(source, k)] for k in keys if (source, k) in found]
        if not lines and found and partner in ("ms", "af"):
            # Malay (and most Afrikaans) come from other packages' catalogues: no parallel lines
            pool_lines = sorted(found.values())
            lines = [rng.choice(pool_lines) for _ in range(max(3, len(keys)))]
        if lines:
            return partner, lines
    return None


def foreign_lines(
    locale: str, row: dict[str, object], partner_texts: dict[str, dict[tuple[str, str], str]]
) -> list[str]:
    """A partner language's translation of the reply's messages, joined (``languages``, with a generator
    of its own seeded by the reply: the evaluation's other cases stay as they were); [] when none."""
    rng = random.Random(hashlib.sha256(str(row["text"]).encode()).digest())
    keys = list(row["keys"])  # type: ignore[call-overload]
    got = languages(locale, keys, str(row["source"]), partner_texts, rng)
    return [join(got[1], got[0])] if got is not None else []


def switch_and_mixing(
    locale: str,
    row: dict[str, object],
    partner_texts: dict[str, dict[tuple[str, str], str]],
    rng: random.Random,
) -> Iterator[tuple[str, str, str]]:
    keys = list(row["keys"])  # type: ignore[call-overload]
    source = str(row["source"])
    text = str(row["text"])
    if (got := languages(locale, keys, source, partner_texts, rng)) is not None:
        partner, lines = got
        yield "switch", f"{partner}", join(lines, partner)
    own = sentence_spans(text)
    if len(own) >= 3 and (got := languages(locale, keys, source, partner_texts, rng)) is not None:
        partner, lines = got
        donor = sentences(join(lines, partner))
        k = min(max(1, round(len(own) * rng.uniform(0.3, 0.5))), len(donor), len(own) - 1)
        if k >= 1:
            slots = sorted(rng.sample(range(len(own)), k))
            mixed = dict(zip(slots, rng.sample(donor, k), strict=True))
            yield "mixing", f"{partner}", resplice(text, own, mixed)
