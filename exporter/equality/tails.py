"""Does a share of one host's replies sit in a tail of its peers' scores? An exact count test (pure).

A template echoed at the start of some replies, or a stray prefix on a share of them, does not shift a
host's scores as a whole: it puts that share of its replies at one extreme (very surprising to a model
that never saw the prefix, very predictable to one that did) and leaves the rest alone. A rank mean
dilutes such a mixture; a count of the replies in the tail does not.

Within each prompt the host's replies and its peers' are pooled; the tail is every pooled score at or
beyond the pool's ``TAIL`` quantile (ties included, so the tail is a function of the pooled multiset
alone). Under the null the host's replies are a random subset of the pool (exchangeable labels), so its
count in a prompt's tail is hypergeometric, and the counts of the prompts are independent: their sum's
exact distribution is the convolution below. Each tail (upper, lower) gives a one-sided exact p-value;
the test's p-value is twice the smaller (Bonferroni). Exact p-values are discrete, hence conservative:
there is no resolution floor beyond what the counts allow (``p_min``).

    >>> peers = {"p": [float(v) for v in range(200)]}
    >>> mixed = {"p": [250.0] * 8 + [float(v) for v in range(3, 200, 17)]}  # 8 of 20 beyond every peer
    >>> test = tail_count(mixed, peers)
    >>> (test.upper, test.lower, f"{test.p_value:.0e}", test.z > 0)
    (8, 1, '3e-07', True)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

TAIL = 0.05  # the share of the pooled scores of a prompt counted as each tail


@dataclass(frozen=True, slots=True)
class TailCount:
    """One host's replies in the upper and lower tails of the pooled scores, against their null law.
    ``effect`` is the host's excess share of replies in the more significant tail (0 to 1)."""

    samples: int
    peer_samples: int
    upper: int
    lower: int
    p_upper: float
    p_lower: float
    z: float
    effect: float
    p_min: float

    @property
    def p_value(self) -> float:
        return min(1.0, 2 * min(self.p_upper, self.p_lower))


def tail_count(host: Mapping[str, Sequence[float]], peers: Mapping[str, Sequence[float]]) -> TailCount | None:
    """``host``'s scores against ``peers``' (both keyed by prompt); None when no prompt has both."""
    upper_laws: list[list[float]] = []
    lower_laws: list[list[float]] = []
    upper = lower = samples = peer_samples = 0
    for prompt in sorted(host.keys() & peers.keys()):
        mine, theirs = host[prompt], peers[prompt]
        if not mine or not theirs:
            continue
        pooled = sorted([*mine, *theirs])
        size = max(1, math.ceil(TAIL * len(pooled)))
        high, low = pooled[-size], pooled[size - 1]
        upper += sum(v >= high for v in mine)
        lower += sum(v <= low for v in mine)
        upper_laws.append(hypergeometric(len(pooled), sum(v >= high for v in pooled), len(mine)))
        lower_laws.append(hypergeometric(len(pooled), sum(v <= low for v in pooled), len(mine)))
        samples += len(mine)
        peer_samples += len(theirs)
    if not samples:
        return None
    up_law, low_law = convolve(upper_laws), convolve(lower_laws)
    p_upper, p_lower = sum(up_law[upper:]), sum(low_law[lower:])
    z_up, z_low = _standardised(up_law, upper), _standardised(low_law, lower)
    use_upper = p_upper <= p_lower
    expected = _mean(up_law) if use_upper else _mean(low_law)
    return TailCount(
        samples=samples,
        peer_samples=peer_samples,
        upper=upper,
        lower=lower,
        p_upper=min(1.0, p_upper),
        p_lower=min(1.0, p_lower),
        z=z_up if use_upper else -z_low,
        effect=((upper if use_upper else lower) - expected) / samples,
        p_min=min(1.0, 2 * min(up_law[-1], low_law[-1])),
    )


def hypergeometric(total: int, marked: int, drawn: int) -> list[float]:
    """P(k of ``drawn`` draws without replacement from ``total`` items, ``marked`` of them marked) for
    k = 0 .. min(drawn, marked)."""
    whole = math.comb(total, drawn)
    return [
        math.comb(marked, k) * math.comb(total - marked, drawn - k) / whole
        for k in range(min(drawn, marked) + 1)
    ]


def convolve(laws: Sequence[Sequence[float]]) -> list[float]:
    """The law of a sum of independent counts, each given by its probabilities from 0 up."""
    law = [1.0]
    for other in laws:
        out = [0.0] * (len(law) + len(other) - 1)
        for i, a in enumerate(law):
            if a:
                for j, b in enumerate(other):
                    out[i + j] += a * b
        law = out
    return law


def _mean(law: Sequence[float]) -> float:
    return sum(k * p for k, p in enumerate(law))


def _standardised(law: Sequence[float], observed: int) -> float:
    mean = _mean(law)
    sd = math.sqrt(max(sum((k - mean) ** 2 * p for k, p in enumerate(law)), 0.0))
    return (observed - mean) / sd if sd > 0 else 0.0
