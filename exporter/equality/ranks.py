"""Is one host's score distribution shifted against its peers'? A rank-sum test stratified by prompt (pure).

Each reply has a score (its surprise under the pool, ``exporter.equality.ngram``). Within each prompt the
host's replies and its peers' are ranked together (mid-ranks for ties); the statistic is van Elteren's
weighted sum of the host's rank sums::

    W = sum_s (R_s - m_s (N_s + 1) / 2) / (N_s + 1)

with ``m_s`` the host's replies of prompt ``s``, ``N_s`` all replies of it and ``R_s`` the host's rank sum.
Under the null the labels are exchangeable within each prompt, so ``W`` is a sum of independent,
symmetric, bounded terms with the exact variance below (tie-corrected), and ``z = W / sd`` is close to
normal; its true tails are lighter than the normal's (bounded terms), so the two-sided normal p-value is
conservative where it matters, at every alpha, with no resolution floor. ``bench/equality_power.py``
measures the tails on null fleets.

Both directions count: a host sampling hotter, or a weaker or different model, ranks high (more
surprising); a colder or truncated one ranks low.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class RankSum:
    """One host against a group of peers. ``effect`` is the host's mean score minus its peers' on the same
    prompts (bits per character; positive: more surprising), ``z_max`` the largest ``|z|`` these counts
    allow (the host holding all the extreme ranks)."""

    samples: int
    peer_samples: int
    w: float
    variance: float
    effect: float
    z_max: float

    @property
    def z(self) -> float:
        return self.w / math.sqrt(self.variance) if self.variance > 0 else 0.0

    @property
    def p_value(self) -> float:
        return two_sided(self.z)

    @property
    def p_min(self) -> float:
        """The smallest p-value these sample counts can give."""
        return two_sided(self.z_max)


def two_sided(z: float) -> float:
    return math.erfc(abs(z) / math.sqrt(2))


def rank_sum(host: Mapping[str, Sequence[float]], peers: Mapping[str, Sequence[float]]) -> RankSum | None:
    """``host``'s scores against ``peers``' (both keyed by prompt); None when no prompt has both."""
    w = variance = spread = 0.0
    effect_sum = 0.0
    samples = peer_samples = 0
    for prompt in sorted(host.keys() & peers.keys()):
        mine, theirs = host[prompt], peers[prompt]
        m, n = len(mine), len(theirs)
        if not m or not n:
            continue
        big_n = m + n
        ranks, ties = _midranks([*mine, *theirs])
        weight = 1 / (big_n + 1)
        w += weight * (sum(ranks[:m]) - m * (big_n + 1) / 2)
        variance += weight**2 * m * n / 12 * ((big_n + 1) - ties / (big_n * (big_n - 1)))
        spread += weight * m * n / 2
        effect_sum += m * (sum(mine) / m - sum(theirs) / n)
        samples += m
        peer_samples += n
    if not samples or variance <= 0:
        return None
    return RankSum(samples, peer_samples, w, variance, effect_sum / samples, spread / math.sqrt(variance))


def _midranks(values: Sequence[float]) -> tuple[list[float], float]:
    """Mid-ranks (1-based) of ``values`` in their order, and the tie term sum(t^3 - t) over tied groups."""
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    ties = 0.0
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        rank = (i + j) / 2 + 1
        for k in range(i, j + 1):
            ranks[order[k]] = rank
        t = j - i + 1
        ties += t**3 - t
        i = j + 1
    return ranks, ties
