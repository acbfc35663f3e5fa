"""Baseline for bench/equality_power.py: a leave-one-out MMD test under a Hamming kernel (pure, seeded).

This is the baseline the equality test's statistic is measured against (``--sections baseline``), not
what the canary runs (``exporter.equality.compare``). The caller normalises the replies
(``exporter.equality.sample.normalise``), so no reply contains the padding symbol.

The test follows *Model Equality Testing: Which Model Is This API Serving?* (Gao, Liang, Guestrin, ICLR 2025):
completions of the same prompts are compared with the Maximum Mean Discrepancy under a Hamming kernel on their
first ``length`` characters. Two things differ from the paper, because a gateway has no trusted reference:

- **Peers, not a reference.** Each host is compared with the pooled completions of every *other* host of the
  model (leave-one-out). When fourteen hosts serve one model and one differs, the odd one out stands apart.
- **Prompt-restricted kernel, stratified permutations.** The kernel is 0 between completions of different
  prompts, and the null distribution is built by reshuffling the host/peer labels *within each prompt*,
  keeping each prompt's counts. A host that answered one prompt more often than its peers cannot look
  different for that reason alone.

The kernel is ``k(x, y) = (1/L) * #{i < L : x'[i] == y'[i]}`` where ``x'`` is ``x`` cut or padded (with a
symbol no text contains) to ``L`` characters. It is an inner product of one-hot (position, character)
features, hence positive definite; padding matches padding, so a host that writes shorter replies differs in
length as well as in wording. Characters rather than tokens: the canary sees text, and serving stacks
detokenise alike.

The estimator is the unbiased MMD² over same-prompt pairs::

    MMD² = S_hh / P_hh + S_pp / P_pp - 2 S_hp / P_hp

with ``S`` the kernel sums over host-host (i != j), peer-peer (i != j) and host-peer pairs of the same
prompt and ``P`` their pair counts. Under the null it is centred on 0; a different host makes it positive.

Cost: one Gram matrix per prompt over every host's completions (shared by all hosts), then per permutation
only the host-host block is summed (``S_hp`` and ``S_pp`` follow from the row sums and the total), so a
permutation costs O(sum of m_s²) for m_s host samples of prompt s. Hosts with the same per-prompt counts
share one null distribution.

Example::

    >>> healthy = [Sample("p", "The keeper waits."), Sample("p", "The keeper sleeps.")] * 2
    >>> samples = {host: healthy for host in "abcde"} | {"f": [Sample("p", "Yes.")] * 4}
    >>> [r.provider for r in leave_one_out(samples, permutations=500, seed=1) if r.p_value < 0.01]
    ['f']
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from operator import eq

from exporter.equality.sample import Sample

DEFAULT_LENGTH = 50  # characters compared; bench/equality_power.py measures power against it
DEFAULT_PERMUTATIONS = 2000  # resolves p down to 1/2001, below 0.01 after Holm over ~20 hosts
_PAD = "\x00"  # a symbol no completion contains: padding matches only padding


@dataclass(frozen=True, slots=True)
class HostEquality:
    """One host against its pooled peers."""

    provider: str
    samples: int  # this host's completions that entered the test
    peer_samples: int
    mmd2: float  # the unbiased statistic (may be slightly negative under the null)
    p_value: float  # permutation p-value, (1 + #{null >= observed}) / (1 + permutations)


def hamming_kernel(a: str, b: str, length: int = DEFAULT_LENGTH) -> float:
    """The share of the first ``length`` positions where ``a`` and ``b`` agree (padding included)."""
    agree: int = sum(map(eq, _window(a, length), _window(b, length)))
    return agree / length


def _window(text: str, length: int) -> str:
    return text[:length].ljust(length, _PAD)


@dataclass(frozen=True, slots=True)
class _Stratum:
    """All completions of one prompt: the off-diagonal Gram matrix, its row sums and total."""

    owners: tuple[str, ...]
    gram: tuple[tuple[float, ...], ...]
    rows: tuple[float, ...]
    total: float

    @classmethod
    def build(cls, owned: Sequence[tuple[str, str]], length: int) -> _Stratum:
        windows = [_window(text, length) for _, text in owned]  # once each, not once per pair
        n = len(windows)
        gram = [[0.0] * n for _ in range(n)]
        for i in range(n):
            for j in range(i + 1, n):
                gram[i][j] = gram[j][i] = hamming_kernel(windows[i], windows[j], length)
        rows = tuple(sum(row) for row in gram)
        return cls(tuple(owner for owner, _ in owned), tuple(map(tuple, gram)), rows, sum(rows))

    def sums(self, members: Sequence[int]) -> tuple[float, float, float]:
        """(S_hh, S_hp, S_pp) when ``members`` are the host's completions and the rest are peers."""
        hh = sum(self.gram[i][j] for i in members for j in members)
        hp = sum(self.rows[i] for i in members) - hh
        return hh, hp, self.total - hh - 2 * hp


def _statistic(
    parts: Sequence[tuple[float, float, float]], counts: Sequence[tuple[int, int]]
) -> float | None:
    p_hh = sum(m * (m - 1) for m, _ in counts)
    p_pp = sum(n * (n - 1) for _, n in counts)
    p_hp = sum(m * n for m, n in counts)
    if not (p_hh and p_pp and p_hp):
        return None
    s_hh = sum(p[0] for p in parts)
    s_hp = sum(p[1] for p in parts)
    s_pp = sum(p[2] for p in parts)
    return s_hh / p_hh + s_pp / p_pp - 2 * s_hp / p_hp


def leave_one_out(
    samples: Mapping[str, Sequence[Sample]],
    *,
    length: int = DEFAULT_LENGTH,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
) -> list[HostEquality]:
    """Each host's MMD² against the pooled others and its stratified permutation p-value, sorted by provider.

    A host is left out of the result when the statistic is undefined for it (fewer than two completions of any
    shared prompt, or no peers); it still counts as a peer for the others. Deterministic for a given ``seed``.
    """
    if length < 1 or permutations < 1:
        raise ValueError("length and permutations must be at least 1")
    by_prompt: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for provider in sorted(samples):
        for sample in samples[provider]:
            by_prompt[sample.prompt].append((provider, sample.text))
    strata = [_Stratum.build(by_prompt[prompt], length) for prompt in sorted(by_prompt)]
    rng = random.Random(seed)
    nulls: dict[tuple[int, ...], list[float]] = {}
    results: list[HostEquality] = []
    for provider in sorted(samples):
        members = [[i for i, owner in enumerate(s.owners) if owner == provider] for s in strata]
        counts = [(len(m), len(s.owners) - len(m)) for m, s in zip(members, strata, strict=True)]
        observed = _statistic([s.sums(m) for s, m in zip(strata, members, strict=True)], counts)
        if observed is None:
            continue
        profile = tuple(m for m, _ in counts)
        null = nulls.get(profile)
        if null is None:
            null = nulls[profile] = _null_distribution(strata, counts, permutations, rng)
        exceed = sum(value >= observed - 1e-12 for value in null)
        results.append(
            HostEquality(
                provider=provider,
                samples=sum(m for m, _ in counts),
                peer_samples=sum(n for _, n in counts),
                mmd2=observed,
                p_value=(1 + exceed) / (1 + len(null)),
            )
        )
    return results


def _null_distribution(
    strata: Sequence[_Stratum], counts: Sequence[tuple[int, int]], permutations: int, rng: random.Random
) -> list[float]:
    """The statistic under ``permutations`` label shuffles within each prompt, keeping its counts."""
    null: list[float] = []
    ranges = [range(len(s.owners)) for s in strata]
    for _ in range(permutations):
        parts = [s.sums(rng.sample(r, m)) for s, r, (m, _) in zip(strata, ranges, counts, strict=True)]
        value = _statistic(parts, counts)
        assert value is not None  # the counts are the observed ones, which were defined
        null.append(value)
    return null
