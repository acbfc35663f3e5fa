"""Exact statistics for the pinned comparison: a one-sided Fisher exact test and Holm's step-down correction.

Pure functions over counts, exact in integer arithmetic (``math.comb``): a 2x2 table of a few thousand
samples is summed exactly and only the final ratio is rounded to a float, so tiny p-values (1e-100 and
below, down to the smallest float) keep their magnitude instead of being swamped by rounding.

Example (Fisher's tea-tasting experiment: 3 of 4 cups guessed right against 1 of 4)::

    >>> round(fisher_greater(3, 4, 1, 4), 4)      # one-sided, "the host fails more often"
    0.2429
    >>> holm([0.01, 0.04, 0.03, 0.005])
    [0.03, 0.06, 0.06, 0.02]
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import comb

__all__ = ["fisher_greater", "holm"]


def fisher_greater(failed: int, judged: int, rest_failed: int, rest_judged: int) -> float:
    """One-sided Fisher exact p-value that this host's failure rate exceeds the pooled others'.

    The 2x2 table is ``[[failed, judged - failed], [rest_failed, rest_judged - rest_failed]]``; with the
    margins fixed, the host's failure count follows a hypergeometric law, and the p-value is the probability
    of ``failed`` or more failures landing on this host by chance. A host (or a rest) with nothing judged
    carries no evidence: 1.0.

    Example: 19 of 20 replies corrupted on one host against 0 of 49 on the others gives about 4.3e-16.
    """
    for name, value in (("failed", failed), ("judged", judged), ("rest_failed", rest_failed)):
        if value < 0:
            raise ValueError(f"{name} must not be negative, got {value}")
    if failed > judged or rest_failed > rest_judged:
        raise ValueError(
            f"failures exceed judged samples: {failed}/{judged} against {rest_failed}/{rest_judged}"
        )
    if judged == 0 or rest_judged == 0:
        return 1.0
    total = judged + rest_judged
    total_failed = failed + rest_failed
    total_passed = total - total_failed
    top = min(judged, total_failed)  # the most failures this host could hold
    tail = sum(comb(total_failed, k) * comb(total_passed, judged - k) for k in range(failed, top + 1))
    return float(min(Fraction(tail, comb(total, judged)), Fraction(1)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values, in the order given (controls the family-wise error rate).

    The ``i``-th smallest of ``m`` p-values is multiplied by ``m - i`` (``i`` from 0), capped at 1, and made
    monotone: an adjusted p-value is never smaller than that of a smaller raw p-value.
    """
    for p in p_values:
        if not 0.0 <= p <= 1.0:
            raise ValueError(f"p-values must lie in [0, 1], got {p!r}")
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
