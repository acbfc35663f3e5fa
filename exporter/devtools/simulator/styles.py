"""Reply *distributions* for open-ended prompts: what the equality test compares (pure; the RNG is passed in).

Real hosts of one model differ in distribution, not only in faults: a host that serves a weaker model writes
plainer, shorter and flatter replies; a quantized one shifts the probabilities a little; a wrong chat template
leaks the role header or opens differently. Healthy hosts sample from one shared distribution.

The shared ("model") distribution is stable per prompt: the prompt's text seeds which of the locale's
sentences the model prefers (a Zipf law over a prompt-specific order), and each reply is two sentences drawn
from it. A style changes that distribution, never the prompt:

- ``weaker``: a flat (uniform) choice among a few of the locale's sentences, one clause only;
- ``quantized``: the same preference order, a flatter law (``QUANTIZED_EXPONENT``): a small shift;
- ``template``: the shared distribution, but most replies start with a leaked ``assistant`` role header.

``first_tokens`` is the same distribution seen one token at a time: the probability of each possible first
token of a reply (what a host lists as ``top_logprobs`` when asked), so a style shows in the logprobs
exactly as it shows in the sampled text.

Example::

    >>> import random
    >>> bank = ("The tide is high.", "She laughs.", "Rain again.", "He waits.")
    >>> reply("Tell me about the sea.", bank, "healthy", random.Random(3)) in {
    ...     a + " " + b for a in bank for b in bank}
    True
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Sequence
from typing import Literal

Style = Literal["healthy", "weaker", "quantized", "template"]
STYLES: tuple[Style, ...] = ("healthy", "weaker", "quantized", "template")

HEALTHY_EXPONENT = 1.3  # how strongly the model prefers its top sentences for a prompt
QUANTIZED_EXPONENT = 1.0  # a quantized host: the same order, a flatter law
WEAKER_CHOICES = 3  # a weaker model knows few ways to answer, and picks among them evenly
TEMPLATE_LEAK_RATE = 0.7  # share of replies that start with the leaked role header
TEMPLATE_HEADER = "assistant\n\n"


def _order(prompt: str, bank: Sequence[str]) -> list[str]:
    """The model's preference order of ``bank`` for this prompt (stable across processes)."""
    seed = int.from_bytes(hashlib.sha256(prompt.encode("utf-8")).digest()[:8], "big")
    order = list(bank)
    random.Random(seed).shuffle(order)  # noqa: S311 - simulation, not security
    return order


def _zipf(order: Sequence[str], exponent: float, temperature: float, rng: random.Random) -> str:
    """A draw from a Zipf law over ``order``; temperature 0 takes the top choice (greedy decoding)."""
    if temperature <= 0:
        return order[0]
    sharpness = exponent / temperature
    return rng.choices(order, weights=[1 / (rank + 1) ** sharpness for rank in range(len(order))])[0]


def _clause(sentence: str) -> str:
    """The sentence's first clause, closed with a full stop (a weaker model stops early)."""
    for mark in (",", "，", "、", ";"):
        head, found, _ = sentence.partition(mark)
        if found and head.strip():
            return head.strip() + ("。" if mark in "，、" else ".")
    return sentence


def _first_token(text: str, unspaced: bool) -> str:
    """A reply's first token: its first word (first character where words are not spaced)."""
    stripped = text.lstrip()
    return stripped[:1] if unspaced else (stripped.split(maxsplit=1) or [""])[0]


def first_tokens(
    prompt: str, bank: Sequence[str], style: Style, *, temperature: float = 1.0, unspaced: bool = False
) -> list[tuple[str, float]]:
    """The probability of each first token of a reply to ``prompt`` in ``style``, most likely first.

    >>> first_tokens("Name a fruit.", ("Apples fall.", "Apples rot.", "Pears wait."), "weaker")
    [('Apples', 0.6666666666666666), ('Pears', 0.3333333333333333)]
    """
    if not bank:
        raise ValueError("the sentence bank is empty")
    order = _order(prompt, bank)
    weights: dict[str, float] = {}
    if style == "weaker":
        choices = order[-WEAKER_CHOICES:]
        for sentence in choices:
            token = _first_token(_clause(sentence), unspaced)
            weights[token] = weights.get(token, 0.0) + 1 / len(choices)
    else:
        sharpness = (QUANTIZED_EXPONENT if style == "quantized" else HEALTHY_EXPONENT) / max(
            temperature, 0.05
        )
        raw = [1 / (rank + 1) ** sharpness for rank in range(len(order))]
        total = sum(raw)
        for sentence, weight in zip(order, raw, strict=True):
            token = _first_token(sentence, unspaced)
            weights[token] = weights.get(token, 0.0) + weight / total
        if style == "template":
            weights = {t: w * (1 - TEMPLATE_LEAK_RATE) for t, w in weights.items()}
            head = _first_token(TEMPLATE_HEADER, False)
            weights[head] = weights.get(head, 0.0) + TEMPLATE_LEAK_RATE
    return sorted(weights.items(), key=lambda item: (-item[1], item[0]))


def reply(
    prompt: str,
    bank: Sequence[str],
    style: Style,
    rng: random.Random,
    *,
    temperature: float = 1.0,
    sep: str = " ",
) -> str:
    """One reply to ``prompt`` in ``style`` at ``temperature``: sentences of ``bank`` joined by ``sep``."""
    if not bank:
        raise ValueError("the sentence bank is empty")
    order = _order(prompt, bank)
    if style == "weaker":
        choices = order[-WEAKER_CHOICES:]
        return _clause(choices[0] if temperature <= 0 else rng.choice(choices))
    exponent = QUANTIZED_EXPONENT if style == "quantized" else HEALTHY_EXPONENT
    text = sep.join(_zipf(order, exponent, temperature, rng) for _ in range(2))
    if style == "template" and rng.random() < TEMPLATE_LEAK_RATE:
        return TEMPLATE_HEADER + text
    return text
