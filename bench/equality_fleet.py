"""A generative model family built from real human text, for measuring the equality test (not shipped).

Per locale (en, de, es, fr; one prompt each), character n-gram language models are trained at run time on
text installed by Debian packages — gettext catalogues (``/usr/share/locale/<l>/LC_MESSAGES/*.mo``: English
message ids, human translations for the others) — and sampled like a serving stack samples a model: at the
request's temperature, optionally truncated. Nothing here was written by the project, and nothing is
committed: the text is read from the installed packages each run.

Hosts (``VARIANTS``):

- ``reference``: an order-6 model (five characters of context), interpolated Witten-Bell, temperature 1;
- ``temp-1.2`` / ``temp-0.8``: the reference at 1.2x / 0.8x the requested temperature;
- ``top-k``: hard top-k truncation (k = 5); ``top-p``: nucleus truncation at 0.9;
- ``weaker``: a lower-order model (order 3) of the same text;
- ``register``: the same order trained on another source in the same locale (manual pages, roff stripped);
- ``subst-10`` / ``subst-20`` / ``subst-30``: that share of requests answered by the weaker model;
- ``template``: 30% of replies start with an echoed chat-template header;
- harmless: ``whitespace`` (a leading space or newline on every reply), ``nfd`` (Unicode NFD).

Replies stop at an end-of-message symbol or at ``MAX_CHARS`` characters (a ``max_tokens`` of about 24).
"""

from __future__ import annotations

import bisect
import gettext
import gzip
import hashlib
import math
import random
import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from exporter.equality.sample import Sample

LOCALES = ("en", "de")
MAX_CHARS = 100
CHARS_PER_TOKEN = 4.0  # for the token estimate of a reply (the prompt adds PROMPT_TOKENS)
PROMPT_TOKENS = 20
END = "\x03"
_START = "\x02"
TEMPLATE = "<|im_start|>assistant\n"
VARIANTS = (
    "reference", "temp-1.2", "temp-0.8", "top-k", "top-p", "weaker", "register",
    "subst-10", "subst-20", "subst-30", "template", "whitespace", "nfd",
)  # fmt: skip
MAX_TRAIN_CHARS = 400_000


def _catalogue_texts(locale: str) -> list[str]:
    directory = Path(
        "/usr/share/locale/de/LC_MESSAGES" if locale == "en" else f"/usr/share/locale/{locale}/LC_MESSAGES"
    )
    found: list[str] = []
    for path in sorted(directory.glob("*.mo")):
        try:
            with path.open("rb") as handle:
                catalogue = gettext.GNUTranslations(handle)
        except (OSError, UnicodeDecodeError, ValueError):
            continue
        for msgid, msgstr in catalogue._catalog.items():  # type: ignore[attr-defined]
            if not isinstance(msgid, str) or not msgid:
                continue
            text = msgid if locale == "en" else msgstr
            if isinstance(text, str):
                found.append(text)
    return _clean(found)


def _man_texts(locale: str) -> list[str]:
    root = Path("/usr/share/man") if locale == "en" else Path(f"/usr/share/man/{locale}")
    found: list[str] = []
    for path in sorted(root.glob("man1/*.gz"))[:600]:
        try:
            raw = gzip.decompress(path.read_bytes()).decode("utf-8", "replace")
        except (OSError, EOFError):
            continue
        paragraph: list[str] = []
        for line in raw.splitlines():
            if line.startswith((".", "'")):
                if paragraph:
                    found.append(" ".join(paragraph))
                    paragraph = []
                continue
            paragraph.append(re.sub(r"\\f[BIRP]|\\\(..|\\[-&e]|\\.", "", line))
        if paragraph:
            found.append(" ".join(paragraph))
    return _clean(found)


def _clean(texts: list[str]) -> list[str]:
    kept = []
    for text in texts:
        text = re.sub(
            r"\s+", " ", re.sub(r"%[-+ #0-9.]*[a-zA-Z]|\{[^}]*\}|<[^>]*>|&[a-z]+;", "", text)
        ).strip()
        if len(text) >= 30 and sum(c.isalpha() for c in text) >= 0.7 * len(text.replace(" ", "")):
            kept.append(unicodedata.normalize("NFC", text))
    unique = sorted(set(kept), key=lambda t: hashlib.sha256(t.encode()).hexdigest())
    total, chosen = 0, []
    for text in unique:
        chosen.append(text)
        total += len(text) + 1
        if total > MAX_TRAIN_CHARS:
            break
    return chosen


@dataclass
class Generator:
    """An interpolated Witten-Bell character model over an alphabet, sampled with a temperature and an
    optional top-k / top-p truncation (distributions cached per context)."""

    order: int
    followers: dict[str, Counter[str]]
    alphabet: list[str]
    _cache: dict[tuple[str, float, int, float], tuple[list[str], list[float]]] = field(default_factory=dict)

    @classmethod
    def train(cls, texts: list[str], order: int) -> Generator:
        counts = Counter("".join(texts))
        alphabet = [*sorted(c for c, n in counts.items() if n >= 5), END]
        allowed = set(alphabet)
        pad = _START * (order - 1)
        joined = "".join(pad + "".join(c for c in text if c in allowed) + END for text in texts)
        followers: dict[str, Counter[str]] = {}
        for length in range(1, order + 1):
            starts = range(len(joined) - length + 1)
            grams = Counter(map(joined.__getitem__, map(slice, starts, range(length, len(joined) + 1))))
            for gram, count in grams.items():
                if gram[-1] != _START:
                    followers.setdefault(gram[:-1], Counter())[gram[-1]] += count
        return cls(order, followers, alphabet)

    def distribution(
        self, context: str, temperature: float, top_k: int, top_p: float
    ) -> tuple[list[str], list[float]]:
        key = (context, temperature, top_k, top_p)
        known = self._cache.get(key)
        if known is not None:
            return known
        unigram = self.followers[""]
        total = sum(unigram.values())
        index = {c: i for i, c in enumerate(self.alphabet)}
        # P_k(c) = a_k P_(k-1)(c) + seen_k(c) / (C_k + T_k), a_k = T_k / (C_k + T_k): one scaled unigram plus
        # the sparse counts of each level.
        levels = []
        for length in range(1, self.order):
            seen = self.followers.get(context[len(context) - length :])
            if not seen:
                break
            count, types = sum(seen.values()), len(seen)
            levels.append((seen, count + types, types / (count + types)))
        scale = math.prod(a for _, _, a in levels)
        probs = [scale * (unigram[c] + 1) / (total + len(self.alphabet)) for c in self.alphabet]
        above = scale
        for seen, denominator, a in levels:
            above /= a
            for c, n in seen.items():
                probs[index[c]] += above * n / denominator
        weights = probs if temperature == 1 else [p ** (1 / temperature) for p in probs]
        chars = list(self.alphabet)
        if top_k or top_p < 1:
            ranked = sorted(range(len(chars)), key=lambda i: -weights[i])
            if top_k:
                ranked = ranked[:top_k]
            if top_p < 1:
                norm, kept, mass = sum(weights[i] for i in ranked), [], 0.0
                for i in ranked:
                    kept.append(i)
                    mass += weights[i] / norm
                    if mass >= top_p:
                        break
                ranked = kept
            chars, weights = [chars[i] for i in ranked], [weights[i] for i in ranked]
        cumulative, running = [], 0.0
        for w in weights:
            running += w
            cumulative.append(running)
        if len(self._cache) > 400_000:
            self._cache.clear()
        self._cache[key] = (chars, cumulative)
        return chars, cumulative

    def sample(
        self,
        rng: random.Random,
        temperature: float = 1.0,
        top_k: int = 0,
        top_p: float = 1.0,
        prefix: str = "",
    ) -> str:
        context = (_START * (self.order - 1) + prefix)[-(self.order - 1) :] if self.order > 1 else ""
        out = list(prefix)
        while len(out) < MAX_CHARS:
            chars, cumulative = self.distribution(context, temperature, top_k, top_p)
            char = chars[bisect.bisect_right(cumulative, rng.random() * cumulative[-1])]
            if char == END:
                break
            out.append(char)
            if self.order > 1:
                context = (context + char)[1:]
        return "".join(out)


@dataclass
class Family:
    """Per locale: the reference, the weaker and the register-shifted generators."""

    reference: dict[str, Generator]
    weaker: dict[str, Generator]
    register: dict[str, Generator]

    @classmethod
    def build(cls) -> Family:
        reference, weaker, register = {}, {}, {}
        for locale in LOCALES:
            texts = _catalogue_texts(locale)
            reference[locale] = Generator.train(texts, 6)
            weaker[locale] = Generator.train(texts, 3)
            register[locale] = Generator.train(_man_texts(locale), 6)
        return cls(reference, weaker, register)

    def reply(self, variant: str, locale: str, rng: random.Random) -> str:
        ref = self.reference[locale]
        match variant:
            case "reference":
                return ref.sample(rng)
            case "temp-1.2":
                return ref.sample(rng, temperature=1.2)
            case "temp-0.8":
                return ref.sample(rng, temperature=0.8)
            case "top-k":
                return ref.sample(rng, top_k=5)
            case "top-p":
                return ref.sample(rng, top_p=0.9)
            case "weaker":
                return self.weaker[locale].sample(rng)
            case "register":
                return self.register[locale].sample(rng)
            case "subst-10" | "subst-20" | "subst-30":
                share = int(variant.rsplit("-", 1)[1]) / 100
                return self.weaker[locale].sample(rng) if rng.random() < share else ref.sample(rng)
            case "template":
                return (
                    TEMPLATE + ref.sample(rng)[: MAX_CHARS - len(TEMPLATE)]
                    if rng.random() < 0.3
                    else ref.sample(rng)
                )
            case "whitespace":
                return rng.choice((" ", "\n")) + ref.sample(rng)
            case "nfd":
                return unicodedata.normalize("NFD", ref.sample(rng))
        raise ValueError(f"unknown variant {variant!r}")


class Banks:
    """Pre-sampled replies per (variant, locale), drawn without replacement within a fleet, so every host of
    one fleet gets distinct replies and reference hosts are exchangeable (an exact null)."""

    def __init__(self, family: Family, sizes: dict[str, int], seed: int) -> None:
        rng = random.Random(seed)
        self.replies = {
            (variant, locale): [family.reply(variant, locale, rng) for _ in range(size)]
            for variant, size in sizes.items()
            for locale in LOCALES
        }

    def fleet(self, hosts: dict[str, str], per_host: int, rng: random.Random) -> dict[str, list[Sample]]:
        """``hosts`` maps a host to its variant; ``per_host`` replies each, locales round-robin."""
        drawn: dict[tuple[str, str], Iterator[str]] = {}
        need = Counter(variant for variant in hosts.values())
        per_locale = -(-per_host // len(LOCALES))
        for (variant, locale), bank in self.replies.items():
            if variant in need:
                if len(bank) < need[variant] * per_locale:
                    raise ValueError(
                        f"the {variant} bank holds {len(bank)} replies per locale, this fleet needs "
                        f"{need[variant] * per_locale}: fewer hosts or samples"
                    )
                drawn[variant, locale] = iter(rng.sample(bank, need[variant] * per_locale))
        fleet = {}
        for host, variant in hosts.items():
            fleet[host] = [
                Sample(LOCALES[k % len(LOCALES)], next(drawn[variant, LOCALES[k % len(LOCALES)]]))
                for k in range(per_host)
            ]
        return fleet

    def tokens_per_sample(self) -> float:
        texts = [t for (variant, _), bank in self.replies.items() if variant == "reference" for t in bank]
        return PROMPT_TOKENS + sum(len(t) for t in texts) / len(texts) / CHARS_PER_TOKEN


def entropy_bits(generator: Generator, rng: random.Random, samples: int = 50) -> float:
    """A rough per-character entropy of a generator (for the docs' description of the family)."""
    bits = count = 0.0
    for _ in range(samples):
        context = _START * (generator.order - 1)
        for _ in range(MAX_CHARS):
            chars, cumulative = generator.distribution(context, 1.0, 0, 1.0)
            total = cumulative[-1]
            previous = 0.0
            for c in cumulative:
                p = (c - previous) / total
                previous = c
                if p > 0:
                    bits -= p * math.log2(p)
            count += 1
            char = chars[bisect.bisect_right(cumulative, rng.random() * total)]
            if char == END:
                break
            context = (context + char)[1:]
    return bits / max(count, 1)


Sampler = Callable[[str, str, random.Random], str]


def cached_banks(sizes: dict[str, int], seed: int, directory: Path) -> Banks:
    """``Banks`` for ``sizes``, generated once per (sizes, seed) and kept under ``directory`` (a results
    directory that is never committed: the text comes from the installed packages)."""
    import pickle

    key = hashlib.sha256(
        repr((sorted(sizes.items()), seed, LOCALES, MAX_CHARS, MAX_TRAIN_CHARS)).encode()
    ).hexdigest()[:12]
    path = directory / f"equality_banks_{key}.pickle"
    if path.exists():
        with path.open("rb") as handle:
            banks = pickle.load(handle)
        assert isinstance(banks, Banks)
        return banks
    banks = Banks(Family.build(), sizes, seed)
    directory.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump(banks, handle)
    return banks
