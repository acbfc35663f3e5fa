"""Which hosts of a model are distributional outliers among their peers? (pure; seeded)

Leave-one-out compares each host with the pooled others, so a distorted host also sits in every healthy host's
pool: with three distorted hosts of twelve, a healthy host's pool is a quarter distorted and, with enough
samples, the healthy host itself starts to look different. The comparison therefore **peels** outliers one
at a time, in the manner of Rosner's generalized ESD test for several outliers: test every remaining host
(leave-one-out MMD, Holm across the remaining hosts); if the most significant one is below ``alpha``, record
it as an outlier, remove it from everyone's pool, and test the rest again; stop when none is, or when fewer
than ``MIN_HOSTS`` remain. Under the global null (every host healthy) the first step alone decides, so the
chance of flagging any host is at most ``alpha`` (Holm). Each host reports the statistic of the step that
decided it.

Example::

    >>> from exporter.equality.mmd import Sample
    >>> healthy = [Sample("p", "The keeper waits."), Sample("p", "The keeper sleeps.")] * 2
    >>> hosts = {h: healthy for h in "abcdef"} | {"odd": [Sample("p", "Yes.")] * 4}
    >>> [(r.provider, r.outlier) for r in compare_hosts(hosts) if r.outlier]
    [('odd', True)]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass

from exporter.equality.mmd import DEFAULT_LENGTH, DEFAULT_PERMUTATIONS, HostEquality, Sample, leave_one_out
from exporter.stats import holm

MIN_HOSTS = 3  # below this a host's "peers" are one or two hosts: no pool to stand apart from


@dataclass(frozen=True, slots=True)
class EqualityResult:
    """One host's verdict. ``p_value``/``p_adjusted``/``mmd2`` are None when the host could not be tested
    (fewer than two completions of every prompt, or too few hosts)."""

    provider: str
    samples: int
    peer_samples: int
    mmd2: float | None
    p_value: float | None
    p_adjusted: float | None
    outlier: bool
    step: int  # the peeling step that decided it (1 = the first test over every host)


def compare_hosts(
    samples: Mapping[str, Sequence[Sample]],
    *,
    alpha: float = 0.01,
    length: int = DEFAULT_LENGTH,
    permutations: int = DEFAULT_PERMUTATIONS,
    seed: int = 0,
) -> list[EqualityResult]:
    """Every host of ``samples``, sorted by provider, with its outlier verdict at ``alpha``."""
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    remaining = {provider: list(drawn) for provider, drawn in samples.items()}
    decided: dict[str, EqualityResult] = {}
    step = 0
    while len(remaining) >= MIN_HOSTS:
        step += 1
        results = leave_one_out(remaining, length=length, permutations=permutations, seed=seed + step)
        if not results:
            break
        adjusted = holm([r.p_value for r in results])
        # The most significant host; permutation p-values saturate at 1/(B+1), so ties go to the larger MMD.
        best = min(range(len(results)), key=lambda i: (adjusted[i], -results[i].mmd2))
        if adjusted[best] >= alpha:
            for result, p_adjusted in zip(results, adjusted, strict=True):
                decided[result.provider] = _result(result, p_adjusted, False, step)
            break
        outlier = results[best]
        decided[outlier.provider] = _result(outlier, adjusted[best], True, step)
        del remaining[outlier.provider]
    for provider in [p for p in samples if p not in decided]:
        decided[provider] = EqualityResult(provider, len(samples[provider]), 0, None, None, None, False, step)
    return [decided[provider] for provider in sorted(decided)]


def _result(result: HostEquality, p_adjusted: float, outlier: bool, step: int) -> EqualityResult:
    return EqualityResult(**asdict(result), p_adjusted=p_adjusted, outlier=outlier, step=step)
