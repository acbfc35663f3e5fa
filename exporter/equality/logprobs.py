"""The equality test on next-token probabilities: do a host's returned ``top_logprobs`` at fixed prefixes
match its peers'? (pure; deterministic for a given ``seed``)

Where an endpoint lists ``logprobs`` and ``top_logprobs``, each host is asked every prefix (a short prompt,
``max_tokens: 1``) ``repeats`` times, and its first generated position's top-K alternatives are compared
with its peers'. Probabilities carry far more information per request than sampled text does, so the
test needs a few dozen requests per host instead of hundreds.

- **Tokens**: a token is compared by its text, with the tokenizer's whitespace markers (``Ġ``, ``▁``,
  ``Ċ``) and surrounding whitespace removed and Unicode in NFC (``token_key``); alternatives that become
  the same text are added up. Two hosts of one model share a tokenizer, but not always its detokenised
  spelling of a leading space.
- **Distributions**: per prefix, every response is cut to the number of alternatives the shortest
  response listed (a host that lists 3 when asked for 5 is compared on 3, never penalised for it), then
  spread over the union of every response's tokens: a token a response did not list gets an equal share
  of its unlisted mass, at most its least likely listed token's probability; the rest is "other".
- **Statistic**: each host's mean distribution (over its repeats) is compared with the element-wise
  median of its peers' (leave the host out, renormalised) by total variation distance; the host's
  ``distance`` is its mean over prefixes. ``within`` is the mean distance between a host's own repeats:
  the nondeterminism real servers have (batching, kernels), shown beside it.
- **Calibration**: under the null (every host serves the same distribution, each response a draw of the
  same noise), the responses of a prefix are exchangeable between hosts. The host labels are permuted
  within each prefix; a host's ``p_value`` is the share of permutations in which its own distance reaches
  the observed one, its ``p_adjusted`` the share in which the largest distance of any host does
  (Westfall and Young's single-step max-T: the chance of flagging any host of a healthy fleet is at most
  ``alpha``, and ``B`` permutations resolve ``1 / B`` whatever the fleet size). ``B`` grows to about
  ``10 / alpha`` (at most ``MAX_PERMUTATIONS``) and stops early once even the most distant host is
  decided. With repeats, the within-host spread is what a host must exceed.
- **Tolerance**: a host is flagged only when its distance also exceeds the median peer's by at least
  ``tolerance`` (total variation, default ``TOLERANCE``): small numeric differences between healthy serving
  stacks (GPU kernels, batch order) are not a finding.
- **Peeling**, **verdicts** and ``MIN_PEERS`` are the text test's (``exporter.equality.compare``).

Example::

    >>> peer = [NextToken(p, (("The", 0.6), ("A", 0.3))) for p in "xyz"] * 2
    >>> odd = [NextToken(p, (("A", 0.7), ("The", 0.2))) for p in "xyz"] * 2
    >>> [(r.provider, r.verdict) for r in compare_next_tokens({h: peer for h in "abcde"} | {"odd": odd})][-1]
    ('odd', 'outlier')
"""

from __future__ import annotations

import math
import unicodedata
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from exporter.equality import compare as verdicts

NO_LOGPROBS = "not tested (no logprobs)"  # the endpoint does not list logprobs and top_logprobs
TOLERANCE = 0.01  # mean total variation beyond the median peer's that a flag needs
BATCH = 500  # permutations per batch
MAX_PERMUTATIONS = 20_000  # resolves alpha down to about 10 / MAX_PERMUTATIONS
STOP_EXCEEDANCES = 20  # once the most distant host is exceeded this often (max-T), no host is an outlier
_MARKERS = str.maketrans({"Ġ": " ", "▁": " ", "Ċ": "\n", "ĉ": "\t"})

Array = npt.NDArray[np.float64]


@dataclass(frozen=True, slots=True)
class NextToken:
    """One response at one prefix: the listed alternatives of the first generated position with their
    probabilities (not log), most likely first."""

    prefix: str  # the prefix's id
    top: tuple[tuple[str, float], ...]


def next_token(prefix: str, top: Sequence[tuple[str, float]]) -> NextToken | None:
    """A response from ``(token, logprob)`` pairs, alternatives of one text added up; None when empty."""
    merged: dict[str, float] = defaultdict(float)
    for token, logprob in top:
        if math.isfinite(logprob) and logprob <= 0:
            merged[token_key(token)] += math.exp(logprob)
    ranked = sorted(merged.items(), key=lambda item: (-item[1], item[0]))
    return NextToken(prefix, tuple(ranked)) if ranked and ranked[0][1] > 0 else None


def token_key(token: str) -> str:
    """A token as the test compares it: tokenizer whitespace markers and surrounding whitespace removed,
    NFC. ``token_key("Ġthe")`` and ``token_key(" the")`` are both ``"the"``."""
    return unicodedata.normalize("NFC", token.translate(_MARKERS)).strip()


@dataclass(frozen=True, slots=True)
class LogprobResult:
    """One host's verdict on next-token probabilities. ``distance``: mean total variation between its
    distributions and its peers' median (0 to 1); ``within``: mean distance between its own repeats;
    ``effect``: ``distance`` minus the median peer's. None when the host was not tested."""

    provider: str
    prefixes: int  # prefixes the host answered
    responses: int
    distance: float | None
    within: float | None
    effect: float | None
    p_value: float | None
    p_adjusted: float | None
    outlier: bool
    verdict: str
    step: int


@dataclass(frozen=True, slots=True)
class _Prefix:
    """One prefix's responses as distributions over a common support: ``rows`` (responses x tokens+1),
    ``counts`` per host (in the order of the hosts tested), rows grouped by host in that order."""

    rows: Array
    counts: tuple[int, ...]


def _support(responses: Sequence[NextToken]) -> Array:
    """The responses as rows over the union of their (cut) tokens plus "other" (see the module doc)."""
    cut = min(len(r.top) for r in responses)
    listed = [dict(r.top[:cut]) for r in responses]
    tokens = sorted({t for row in listed for t in row})
    rows = np.zeros((len(responses), len(tokens) + 1))
    for i, row in enumerate(listed):
        total = sum(row.values())
        scale = 1 / total if total > 1 else 1.0
        missing = [j for j, t in enumerate(tokens) if t not in row]
        rest = max(0.0, 1 - total * scale)
        floor = min(rest / (len(missing) + 1), min(row.values()) * scale)
        for j, t in enumerate(tokens):
            rows[i, j] = row[t] * scale if t in row else floor
        rows[i, -1] = rest - floor * len(missing)
    return rows


def _distances(means: Array) -> Array:
    """Total variation between each host's mean distribution and the element-wise median of the others',
    renormalised. ``means``: (..., hosts, tokens); returns (..., hosts)."""
    hosts = means.shape[-2]
    ordered = np.sort(means, axis=-2)
    rank = np.argsort(np.argsort(means, axis=-2, kind="stable"), axis=-2, kind="stable")
    others = hosts - 1

    def without(index: int) -> Array:  # the index-th smallest value once the host's own is left out
        return np.where(index < rank, ordered[..., [index], :], ordered[..., [index + 1], :])

    middle = others // 2
    median = without(middle) if others % 2 else (without(middle - 1) + without(middle)) / 2
    median = median / np.maximum(median.sum(axis=-1, keepdims=True), 1e-12)
    result: Array = 0.5 * np.abs(means - median).sum(axis=-1)
    return result


def _host_means(rows: Array, counts: Sequence[int]) -> Array:
    """Mean row per host; ``rows``: (..., responses, tokens) grouped by host."""
    starts = np.cumsum([0, *counts[:-1]])
    sums: Array = np.add.reduceat(rows, starts, axis=-2)
    means: Array = sums / np.asarray(counts, dtype=float)[:, None]
    return means


def _statistic(prefixes: Sequence[_Prefix], answered: Array) -> Array:
    """Each host's mean distance over the prefixes it answered. ``answered``: (prefixes, hosts) 0/1."""
    total = np.zeros(answered.shape[1])
    for k, prefix in enumerate(prefixes):
        mask = answered[k] > 0
        full = np.zeros(answered.shape[1])
        full[mask] = _distances(_host_means(prefix.rows, prefix.counts))
        total += full
    result: Array = total / np.maximum(answered.sum(axis=0), 1)
    return result


def _permuted(prefixes: Sequence[_Prefix], answered: Array, size: int, rng: np.random.Generator) -> Array:
    """``size`` draws of every host's statistic under permuted labels: (size, hosts)."""
    total = np.zeros((size, answered.shape[1]))
    for k, prefix in enumerate(prefixes):
        order = np.argsort(rng.random((size, len(prefix.rows))), axis=1)
        means = _host_means(prefix.rows[order], prefix.counts)
        total[:, answered[k] > 0] += _distances(means)
    result: Array = total / np.maximum(answered.sum(axis=0), 1)
    return result


def _within(prefixes: Sequence[_Prefix], answered: Array) -> Array:
    """Each host's mean total variation between its own repeats (NaN for a host with none)."""
    sums, counts = np.zeros(answered.shape[1]), np.zeros(answered.shape[1])
    for k, prefix in enumerate(prefixes):
        hosts = np.flatnonzero(answered[k] > 0)
        start = 0
        for host, count in zip(hosts, prefix.counts, strict=True):
            block = prefix.rows[start : start + count]
            start += count
            for i in range(count):
                for j in range(i + 1, count):
                    sums[host] += 0.5 * np.abs(block[i] - block[j]).sum()
                    counts[host] += 1
    result: Array = np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    return result


@dataclass(frozen=True, slots=True)
class _Tested:
    """One round of the test over ``hosts``: their statistics and permutation p-values."""

    hosts: list[str]
    distance: Array
    within: Array
    p_value: Array  # the host's own permutation p-value
    p_adjusted: Array  # Westfall-Young single-step max-T: against the largest distance of any host
    p_min: float  # the smallest p-value the planned permutations can give (early stops aside)
    answered: Array


def _test(
    responses: Mapping[str, Sequence[NextToken]], hosts: list[str], alpha: float, rng: np.random.Generator
) -> _Tested:
    by_prefix: dict[str, dict[str, list[NextToken]]] = defaultdict(lambda: defaultdict(list))
    for host in hosts:
        for response in responses[host]:
            by_prefix[response.prefix][host].append(response)
    prefixes: list[_Prefix] = []
    answered_rows: list[list[float]] = []
    for prefix in sorted(by_prefix):
        got = by_prefix[prefix]
        if len(got) < verdicts.MIN_HOSTS:
            continue  # too few hosts answered this prefix for a median of peers
        present = [h for h in hosts if h in got]
        ordered = [r for h in present for r in got[h]]
        prefixes.append(_Prefix(_support(ordered), tuple(len(got[h]) for h in present)))
        answered_rows.append([1.0 if h in got else 0.0 for h in hosts])
    answered = np.asarray(answered_rows).reshape(len(prefixes), len(hosts))
    observed = _statistic(prefixes, answered)
    own = np.zeros(len(hosts))  # permutations where the host's own distance reached its observed one
    top = np.zeros(len(hosts))  # permutations where the largest distance of any host reached it
    target = min(MAX_PERMUTATIONS, max(BATCH, math.ceil(10 / alpha)))
    done = 0
    while prefixes and done < target:
        null = _permuted(prefixes, answered, BATCH, rng)
        done += BATCH
        own += (null >= observed - 1e-12).sum(axis=0)
        top += (null.max(axis=1)[:, None] >= observed - 1e-12).sum(axis=0)
        if top.min() >= STOP_EXCEEDANCES:
            break  # even the most distant host is decided: not an outlier
    return _Tested(
        hosts, observed, _within(prefixes, answered), (1 + own) / (1 + done), (1 + top) / (1 + done),
        1 / (1 + target), answered,
    )  # fmt: skip


def compare_next_tokens(
    responses: Mapping[str, Sequence[NextToken]],
    *,
    alpha: float = 0.01,
    tolerance: float = TOLERANCE,
    seed: int = 0,
    listed: Sequence[str] | None = None,
) -> list[LogprobResult]:
    """Every host of ``responses`` (and of ``listed``, the hosts that list logprobs: any other host of
    ``responses`` is ``not tested (no logprobs)``), sorted by provider, with its verdict at ``alpha``."""
    verdicts.check_alpha(alpha)
    rng = np.random.default_rng(seed)
    decided: dict[str, LogprobResult] = {}
    capable = set(responses if listed is None else listed)

    def result(host: str, tested: _Tested | None, adjusted: float | None, verdict: str, step: int) -> None:
        drawn = responses.get(host, ())
        answered = len({r.prefix for r in drawn})
        if tested is None:
            decided[host] = LogprobResult(host, answered, len(drawn), None, None, None, None, None,
                                          False, verdict, step)  # fmt: skip
            return
        i = tested.hosts.index(host)
        others = np.delete(tested.distance, i)
        within = float(tested.within[i])
        decided[host] = LogprobResult(
            provider=host,
            prefixes=answered,
            responses=len(drawn),
            distance=float(tested.distance[i]),
            within=None if math.isnan(within) else within,
            effect=float(tested.distance[i] - np.median(others)),
            p_value=float(tested.p_value[i]),
            p_adjusted=adjusted,
            outlier=verdict == verdicts.OUTLIER,
            verdict=verdict,
            step=step,
        )

    remaining = sorted(h for h in capable if responses.get(h))
    step = 0
    while len(remaining) >= verdicts.MIN_HOSTS:
        step += 1
        tested = _test(responses, remaining, alpha, rng)
        if silent := [h for i, h in enumerate(remaining) if not tested.answered[:, i].any()]:
            remaining = [h for h in remaining if h not in silent]  # no prefix enough hosts answered
            continue
        adjusted = {h: float(tested.p_adjusted[i]) for i, h in enumerate(remaining)}
        effect = {h: float(tested.distance[i] - np.median(np.delete(tested.distance, i)))
                  for i, h in enumerate(remaining)}  # fmt: skip
        candidates = [h for h in remaining if effect[h] >= tolerance]
        best = min(candidates, key=lambda h: (adjusted[h], -effect[h]), default=None)
        if best is not None and adjusted[best] < alpha:
            result(best, tested, adjusted[best], verdicts.OUTLIER, step)
            remaining.remove(best)
            continue
        verdict = verdicts.LIKE_PEERS if tested.p_min < alpha else verdicts.NO_VERDICT
        for host in remaining:
            result(host, tested, adjusted[host], verdict, step)
        remaining = []
    for host in remaining:
        result(host, None, None, verdicts.NOT_ENOUGH_PEERS, step)
    for host in sorted(set(responses) | capable):
        if host not in decided:
            result(host, None, None, verdicts.NOT_TESTED if host in capable else NO_LOGPROBS, step)
    return [decided[host] for host in sorted(decided)]
