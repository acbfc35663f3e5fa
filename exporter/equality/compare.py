"""Which hosts of a model are distributional outliers among their peers? (pure; deterministic)

Every reply is normalised (``exporter.equality.sample``), scored by its surprise under a character n-gram
model (``exporter.equality.ngram``) of a **reference core** of hosts, never of its own host's replies, and
each host's scores are compared with the core's other hosts', prompt by prompt: the whole replies' by a
rank sum (``exporter.equality.ranks``), the replies' starts by their count in the tails
(``exporter.equality.tails``); Holm's correction runs across the hosts.

The core is robust to several hosts sharing one distortion: it starts as the medoid peer group (the
hosts whose replies are, in median, closest to the other hosts' by cross-surprise), leaving out the
``MOST_OUT`` share farthest from the fleet's middle; every host is tested against it, a core host that
ranks beyond ``TRIM_Z`` of the others leaves it (up to ``TRIM_STEPS`` times), and a host left out that
ranks within ``TRIM_Z`` joins it before the final test. Hosts that share a distortion are then neither
each other's scoring model nor each other's reference.

Outliers are **peeled** one at a time, in the manner of Rosner's generalized ESD test: if the most
significant host (smallest adjusted p, then largest ``|z|``) is below ``alpha``, it is recorded as an
outlier, its replies leave the fleet, the core is chosen again and the rest are tested again; stop when
none is. The chance of flagging any host of a healthy fleet is measured at or below ``alpha`` at 5, 12
and 40 hosts (``bench/equality_power.py``, docs/equality.md).

Verdicts: ``outlier``; ``like its peers``; ``no verdict at this sample size`` (even the most extreme ranks
these counts allow could not fall below ``alpha`` after Holm: more samples are needed, not a pass);
``not enough peers`` (fewer than ``MIN_PEERS`` other hosts remain: a pool of two or three hosts, some of
them possibly broken, is no reference); ``not tested`` (no completion).

Formatting (surrounding whitespace, Unicode normal form) is removed before the test and counted on its
own: ``formatting`` is the host's share of replies that needed it, ``formatting_p`` a Fisher exact test
(two-sided, Holm across hosts) against its peers'.

Example::

    >>> from exporter.equality.sample import Sample
    >>> healthy = [Sample("p", "The keeper waits."), Sample("p", "The keeper sleeps.")] * 8
    >>> hosts = {h: healthy for h in "abcdef"} | {"odd": [Sample("p", "Yes, sure.")] * 16}
    >>> [(r.provider, r.verdict) for r in compare_hosts(hosts) if r.outlier]
    [('odd', 'outlier')]
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from statistics import median
from typing import Protocol

from exporter.equality.ngram import CharModel
from exporter.equality.ranks import RankSum, rank_sum
from exporter.equality.sample import Sample, formatting, normalise
from exporter.equality.tails import tail_count
from exporter.stats import fisher_greater, holm

MIN_PEERS = 4  # fewer other hosts than this are no reference: a broken pair could outvote a healthy one
MIN_HOSTS = MIN_PEERS + 1

OUTLIER = "outlier"
LIKE_PEERS = "like its peers"
NO_VERDICT = "no verdict at this sample size"
NOT_ENOUGH_PEERS = "not enough peers"
NOT_TESTED = "not tested"
MOST_OUT = 0.4  # share of the hosts farthest from the fleet's middle left out of the first reference core
TRIM_Z = 2.0  # a host left out joins the core when it ranks within this |z| of it
TRIM_STEPS = 2  # times a core host ranking beyond TRIM_Z of the others leaves the core and it is tested again


@dataclass(frozen=True, slots=True)
class EqualityResult:
    """One host's verdict. ``z``/``effect``/``p_value``/``p_adjusted`` are None when the host was not tested
    (no completion, or not enough peers). ``effect``: the host's mean surprise minus its peers', in bits
    per character (positive: its replies are less like the pool's)."""

    provider: str
    samples: int
    peer_samples: int
    z: float | None
    effect: float | None
    p_value: float | None
    p_adjusted: float | None
    outlier: bool
    verdict: str
    step: int  # the peeling step that decided it (1 = the first test over every host)
    formatting: float  # share of the host's replies with surrounding whitespace or a non-NFC form
    formatting_p: float | None  # Holm-adjusted Fisher p-value of that share against its peers'


class Measured(Protocol):
    """What a verdict reports of its test: a one-shot rank sum or a probe's accumulated evidence."""

    @property
    def peer_samples(self) -> int: ...
    @property
    def z(self) -> float: ...
    @property
    def effect(self) -> float: ...
    @property
    def p_value(self) -> float: ...
    @property
    def p_min(self) -> float: ...


def make_result(
    provider: str,
    samples: int,
    measured: Measured | None,
    p_adjusted: float | None,
    verdict: str,
    step: int,
    formatting: tuple[float, float | None],
) -> EqualityResult:
    """One host's result (``formatting``: its share of formatted replies and that share's adjusted p)."""
    return EqualityResult(
        provider=provider,
        samples=samples,
        peer_samples=0 if measured is None else measured.peer_samples,
        z=None if measured is None else measured.z,
        effect=None if measured is None else measured.effect,
        p_value=None if measured is None else measured.p_value,
        p_adjusted=p_adjusted,
        outlier=verdict == OUTLIER,
        verdict=verdict,
        step=step,
        formatting=formatting[0],
        formatting_p=formatting[1],
    )


def check_alpha(alpha: float) -> float:
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must lie strictly between 0 and 1, got {alpha!r}")
    return alpha


def score(samples: Mapping[str, Sequence[Sample]], reference: Collection[str] | None = None) -> Scores:
    """Every host's replies' surprise, per host and prompt, under models of the ``reference`` hosts'
    replies (default: every host's; at least two).

    Leave one host out: a host of the reference is scored by a model of the *other* reference hosts'
    replies, so no host is ever its own scoring model (a distorted host inside the reference would
    otherwise teach the model its own distortion and look ordinary). A host outside the reference is
    scored by the same models, its replies dealt over them in turn from a place fixed by the host's
    name (never by the replies' content), so every reply is scored by a model of all but one
    reference host: the scores stay exchangeable under the null, and a host left out of the reference is
    not made to look different by being left out.
    """
    core = sorted(set(samples if reference is None else reference))
    if len(core) < 2:
        raise ValueError(f"the reference needs at least two hosts, got {len(core)}")
    texts = {provider: [(s.prompt, normalise(s.text)) for s in drawn] for provider, drawn in samples.items()}
    models = {left: CharModel.fit([text for p in core if p != left for _, text in texts[p]]) for left in core}
    whole: dict[str, dict[str, list[float]]] = {provider: {} for provider in samples}
    start: dict[str, dict[str, list[float]]] = {provider: {} for provider in samples}
    for provider, replies in texts.items():
        first = random.Random(provider).randrange(len(core))  # noqa: S311 - a fixed deal, not a secret
        seen: dict[str, int] = defaultdict(int)
        for prompt, text in replies:
            left = provider if provider in models else core[(first + seen[prompt]) % len(core)]
            seen[prompt] += 1
            reply, beginning = models[left].surprise(text, fitted=False)
            whole[provider].setdefault(prompt, []).append(reply)
            start[provider].setdefault(prompt, []).append(beginning)
    return Scores(whole, start)


def fleet_distances(samples: Mapping[str, Sequence[Sample]]) -> dict[str, float]:
    """Each host's median distance to the other hosts: how far it sits from the fleet's middle.

    ``H(a | b)`` is the mean surprise of ``a``'s replies under a character model of ``b``'s replies alone;
    its excess ``e(a, b)`` is ``H(a | b)`` less the median of ``H(a | .)`` over every model, so a host
    whose replies are easy to predict under any model (a truncated sampler's) is not close to everyone.
    The distance of two hosts is ``|e(a, b)| + |e(b, a)|``. Hosts sharing a distortion are close to each
    other and far from the rest; the median over the peers is the distance to the majority as long as
    the distorted hosts are fewer than half.
    """
    hosts = sorted(samples)
    texts = {p: [normalise(s.text) for s in samples[p]] for p in hosts}
    models = {p: CharModel.fit(texts[p]) for p in hosts}
    cross = {
        (a, b): sum(models[b].surprise(text, fitted=False)[0] for text in texts[a]) / max(len(texts[a]), 1)
        for a in hosts
        for b in hosts
        if a != b
    }
    own = {a: median(cross[a, b] for b in hosts if b != a) for a in hosts}
    excess = {(a, b): abs(value - own[a]) for (a, b), value in cross.items()}
    return {a: median(excess[a, b] + excess[b, a] for b in hosts if b != a) for a in hosts}


def robust_tests(
    samples: Mapping[str, Sequence[Sample]],
    hosts: Sequence[str],
    distances: Mapping[str, float],
) -> dict[str, Combined | None]:
    """Every host of ``hosts`` tested against a reference core of them (the core's other hosts).

    The core starts as the medoid peer group: the hosts closest to the fleet's middle (``distances``),
    leaving out the ``MOST_OUT`` share farthest from it (never fewer than ``MIN_HOSTS`` kept). Every host
    is scored under models fitted on the core (``score``) and compared with the core's other hosts. A
    core host whose ``|z|`` exceeds ``TRIM_Z`` leaves the core and the test runs again (at most
    ``TRIM_STEPS`` times, the core never below ``MIN_HOSTS``): a distorted host that the distances placed
    in the core would otherwise teach the other hosts' model its distortion and hide the hosts sharing
    it. Then a host left out whose ``|z|`` is within ``TRIM_Z`` joins the core, and if any did, the test
    runs again on the larger core (once). Hosts sharing a distortion are neither each other's scoring
    model nor each other's reference, so a third of a fleet serving one weaker model does not hide it.
    """
    most_out = max(0, min(int(len(hosts) * MOST_OUT), len(hosts) - MIN_HOSTS))
    central = sorted(hosts, key=lambda p: (distances[p], p))
    core = central[: len(hosts) - most_out]
    tests = _against_core(samples, hosts, core)
    for _ in range(TRIM_STEPS):
        kept = [p for p in core if _within(tests[p])]
        if len(kept) == len(core):
            break
        if len(kept) < MIN_HOSTS:
            kept = sorted(core, key=lambda p: (_distance_z(tests[p]), p))[:MIN_HOSTS]
        core = kept
        tests = _against_core(samples, hosts, core)
    joined = [p for p in hosts if p not in core and _within(tests[p])]
    return _against_core(samples, hosts, [*core, *joined]) if joined else tests


def _against_core(
    samples: Mapping[str, Sequence[Sample]], hosts: Sequence[str], core: Sequence[str]
) -> dict[str, Combined | None]:
    scored = score({p: samples[p] for p in hosts}, core)
    return {p: test_host(scored, p, [q for q in core if q != p]) for p in hosts}


def _distance_z(test: Combined | None) -> float:
    return float("inf") if test is None else abs(test.z)


def _within(test: Combined | None) -> bool:
    return test is not None and abs(test.z) <= TRIM_Z


@dataclass(frozen=True, slots=True)
class Scores:
    """Each reply's surprise per host and prompt: over the whole reply, and over its first characters."""

    whole: dict[str, dict[str, list[float]]]
    start: dict[str, dict[str, list[float]]]


@dataclass(frozen=True, slots=True)
class Combined:
    """A host's two tests (whole replies, starts), Bonferroni-combined: ``p_value`` is twice the smaller
    p-value (capped at 1), ``z`` the statistic of the test that gave it, ``effect`` the whole replies'
    (bits per character)."""

    whole: Measured
    start: Measured

    @property
    def peer_samples(self) -> int:
        return self.whole.peer_samples

    @property
    def z(self) -> float:
        return self.whole.z if self.whole.p_value <= self.start.p_value else self.start.z

    @property
    def effect(self) -> float:
        return self.whole.effect

    @property
    def p_value(self) -> float:
        return min(1.0, 2 * min(self.whole.p_value, self.start.p_value))

    @property
    def p_min(self) -> float:
        return min(1.0, 2 * min(self.whole.p_min, self.start.p_min))


def test_host(scores: Scores, provider: str, peers: Sequence[str]) -> Combined | None:
    """``provider`` against ``peers``: the whole replies' rank sum, the starts' tail counts; None when no
    prompt has both."""
    whole = against_peers(scores.whole, provider, peers)
    start = tail_count(scores.start[provider], _pooled(scores.start, peers))
    return None if whole is None or start is None else Combined(whole, start)


def against_peers(
    scored: Mapping[str, Mapping[str, Sequence[float]]], provider: str, peers: Sequence[str]
) -> RankSum | None:
    """``provider``'s scores ranked against the pooled scores of ``peers``, prompt by prompt."""
    return rank_sum(scored[provider], _pooled(scored, peers))


def _pooled(
    scored: Mapping[str, Mapping[str, Sequence[float]]], peers: Sequence[str]
) -> dict[str, list[float]]:
    pooled: dict[str, list[float]] = defaultdict(list)
    for peer in peers:
        for prompt, values in scored[peer].items():
            pooled[prompt].extend(values)
    return pooled


def compare_hosts(samples: Mapping[str, Sequence[Sample]], *, alpha: float = 0.01) -> list[EqualityResult]:
    """Every host of ``samples``, sorted by provider, with its verdict at ``alpha``."""
    check_alpha(alpha)
    shares, formatting_p = formatting_shares(samples)
    decided: dict[str, EqualityResult] = {}

    def result(provider: str, test: Combined | None, adjusted: float | None, verdict: str, step: int) -> None:
        formats = (shares[provider], formatting_p[provider])
        decided[provider] = make_result(
            provider, len(samples[provider]), test, adjusted, verdict, step, formats
        )

    remaining = sorted(p for p, drawn in samples.items() if drawn)
    enough = len(remaining) >= MIN_HOSTS
    distances = fleet_distances({p: samples[p] for p in remaining}) if enough else {}
    step = 0
    while len(remaining) >= MIN_HOSTS:
        step += 1
        tests = robust_tests(samples, remaining, distances)
        tested = {p: found for p in remaining if (found := tests[p]) is not None}
        if not tested:
            break
        adjusted = dict(zip(tested, holm([t.p_value for t in tested.values()]), strict=True))
        best = min(tested, key=lambda p: (adjusted[p], -abs(tested[p].z)))
        if adjusted[best] < alpha:
            result(best, tests[best], adjusted[best], OUTLIER, step)
            remaining.remove(best)
            continue
        for provider in remaining:
            test = tests[provider]
            reachable = test is not None and test.p_min * len(tested) < alpha
            result(provider, test, adjusted.get(provider), LIKE_PEERS if reachable else NO_VERDICT, step)
        remaining = []
    for provider in remaining:
        result(provider, None, None, NOT_ENOUGH_PEERS, step)
    for provider in samples:
        if provider not in decided:
            result(provider, None, None, NOT_TESTED, step)
    return [decided[provider] for provider in sorted(decided)]


def formatting_shares(
    samples: Mapping[str, Sequence[Sample]],
) -> tuple[dict[str, float], dict[str, float | None]]:
    """Each host's share of replies with a formatting difference, and its Holm-adjusted two-sided Fisher
    p-value against the other hosts' share (None below ``MIN_HOSTS`` hosts with completions)."""
    counts = {p: (sum(formatting(s.text) for s in drawn), len(drawn)) for p, drawn in samples.items()}
    shares = {p: (k / n if n else 0.0) for p, (k, n) in counts.items()}
    tested = sorted(p for p, (_, n) in counts.items() if n)
    if len(tested) < MIN_HOSTS:
        return shares, dict.fromkeys(samples)
    total_k = sum(counts[p][0] for p in tested)
    total_n = sum(counts[p][1] for p in tested)
    raw = []
    for p in tested:
        k, n = counts[p]
        more = fisher_greater(k, n, total_k - k, total_n - n)
        fewer = fisher_greater(n - k, n, (total_n - n) - (total_k - k), total_n - n)
        raw.append(min(1.0, 2 * min(more, fewer)))
    adjusted: dict[str, float | None] = dict.fromkeys(samples)
    adjusted.update(zip(tested, holm(raw), strict=True))
    return shares, adjusted
