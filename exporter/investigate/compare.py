"""The pinned comparison (pure): each host's failures on a contract against the pooled other hosts.

Input is a flat list of ``Sample`` values (one judged attempt each, sent now or read from the evidence
history); output is a ``Comparison``: per (contract, host) the failed/judged counts, the pooled rest's, a
one-sided Fisher exact p-value, its Holm adjustment across the contract's hosts, and the outlier verdict.
Only ``pass`` and ``fail`` are evidence; every other outcome (transport, inconclusive, skipped, ...) is left
out of ``judged`` and counted in ``excluded``. A host with nothing judged on a contract is reported but is
not a test, so it does not enlarge the Holm family.

Example::

    samples = [Sample("garbler/bf16", "language", "fail", "leading_garbage", "ción La..."), ...]
    comparison = compare("m", samples, providers=["garbler/bf16", "deepinfra/fp8"], contracts=["language"],
                         samples_per_host=20, alpha=0.01)
    [(r.provider, r.outlier) for r in comparison.results]
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from exporter.equality.compare import check_alpha
from exporter.outcomes import Outcome
from exporter.stats import fisher_greater, holm
from exporter.textkit import clip

DEFAULT_ALPHA = 0.01
MAX_EXAMPLES = 3  # failing excerpts listed per outlier
EXAMPLE_CHARS = 160  # one example's length in the report (the store keeps up to 1 KiB)


@dataclass(frozen=True, slots=True)
class Sample:
    """One judged attempt on one host: what the comparison counts."""

    provider: str
    contract: str
    outcome: str  # an Outcome value
    reason: str = ""
    excerpt: str = ""  # the reply's start and offending span, or the judge's detail
    locale: str | None = None
    tokens: int = 0
    cost_usd: float = 0.0

    @property
    def is_evidence(self) -> bool:
        return self.outcome in (Outcome.PASS, Outcome.FAIL)

    @property
    def failed(self) -> bool:
        return self.outcome == Outcome.FAIL


@dataclass(frozen=True, slots=True)
class HostResult:
    """One host on one contract against the pooled other hosts."""

    provider: str
    contract: str
    failed: int
    judged: int
    rest_failed: int
    rest_judged: int
    p_value: float
    p_adjusted: float
    outlier: bool
    examples: tuple[str, ...] = ()
    excluded: int = 0  # samples that were not evidence (transport, inconclusive, ...)
    excluded_by_outcome: tuple[tuple[str, int], ...] = ()
    reasons: tuple[tuple[str, int], ...] = ()  # why the failures failed, most common first


@dataclass(frozen=True, slots=True)
class Comparison:
    """The whole report as values; ``source`` is ``live`` (sent now) or ``history`` (the evidence store)."""

    model: str
    samples: int  # asked per host and contract (live) or the most found for one (history)
    alpha: float
    results: tuple[HostResult, ...]
    tokens: int
    cost_usd: float
    source: str = "live"
    locale: str | None = None
    since: float | None = None  # history only: the start of the window (unix seconds)
    notes: tuple[str, ...] = field(default_factory=tuple)

    @property
    def outliers(self) -> tuple[HostResult, ...]:
        return tuple(r for r in self.results if r.outlier)


def compare(
    model: str,
    samples: Iterable[Sample],
    *,
    providers: Sequence[str],
    contracts: Sequence[str],
    samples_per_host: int,
    alpha: float = DEFAULT_ALPHA,
    source: str = "live",
    locale: str | None = None,
    since: float | None = None,
    notes: Sequence[str] = (),
) -> Comparison:
    """Compare every host in ``providers`` with the pooled others, per contract in ``contracts``.

    Samples of hosts or contracts not named are ignored. Results are ordered by contract (as given), then
    by adjusted p-value, then by provider.
    """
    check_alpha(alpha)
    wanted_hosts, wanted_contracts = set(providers), set(contracts)
    by_route: dict[tuple[str, str], list[Sample]] = {}
    tokens, cost = 0, 0.0
    for sample in samples:
        if sample.provider not in wanted_hosts or sample.contract not in wanted_contracts:
            continue
        by_route.setdefault((sample.contract, sample.provider), []).append(sample)
        tokens += sample.tokens
        cost += sample.cost_usd
    results: list[HostResult] = []
    for contract in contracts:
        counts = {p: _count(by_route.get((contract, p), [])) for p in providers}
        total_failed = sum(c[0] for c in counts.values())
        total_judged = sum(c[1] for c in counts.values())
        tested = [p for p in providers if counts[p][1] > 0]
        raw = {
            p: fisher_greater(
                counts[p][0], counts[p][1], total_failed - counts[p][0], total_judged - counts[p][1]
            )
            for p in tested
        }
        adjusted = dict(zip(tested, holm([raw[p] for p in tested]), strict=True))
        rows = []
        for provider in providers:
            route = by_route.get((contract, provider), [])
            failed, judged = counts[provider]
            p_adjusted = adjusted.get(provider, 1.0)
            outlier = p_adjusted < alpha
            excluded = Counter(s.outcome for s in route if not s.is_evidence)
            rows.append(
                HostResult(
                    provider=provider,
                    contract=contract,
                    failed=failed,
                    judged=judged,
                    rest_failed=total_failed - failed,
                    rest_judged=total_judged - judged,
                    p_value=raw.get(provider, 1.0),
                    p_adjusted=p_adjusted,
                    outlier=outlier,
                    examples=_examples(route) if outlier else (),
                    excluded=sum(excluded.values()),
                    excluded_by_outcome=tuple(sorted(excluded.items())),
                    reasons=tuple(Counter(s.reason for s in route if s.failed).most_common()),
                )
            )
        rows.sort(key=lambda r: (r.p_adjusted, r.p_value, r.provider))
        results.extend(rows)
    return Comparison(
        model=model,
        samples=samples_per_host,
        alpha=alpha,
        results=tuple(results),
        tokens=tokens,
        cost_usd=cost,
        source=source,
        locale=locale,
        since=since,
        notes=tuple(notes),
    )


def _count(route: Sequence[Sample]) -> tuple[int, int]:
    return sum(1 for s in route if s.failed), sum(1 for s in route if s.is_evidence)


def _examples(route: Sequence[Sample]) -> tuple[str, ...]:
    """A few distinct failing excerpts, shortened for a report (reason first, so they read alone)."""
    seen: list[str] = []
    for sample in route:
        if not sample.failed:
            continue
        text = clip(sample.excerpt, EXAMPLE_CHARS, flat=True)
        line = f"{sample.reason}: {text}" if sample.reason else text
        if line not in seen:
            seen.append(line)
        if len(seen) == MAX_EXAMPLES:
            break
    return tuple(seen)
