"""The equality report (pure): each host's verdict with its completions beside its peers', and the cost.

JSON shape (``canary investigate --test equality --json``)::

    {"model", "test": "equality", "samples", "alpha", "order", "temperature", "prompts": [id, ...],
     "results": [{"provider", "samples", "peer_samples", "z", "effect", "p_value", "p_adjusted", "outlier",
                  "verdict", "step", "formatting", "formatting_p", "excluded", "default_temperature",
                  "examples": [{"prompt", "text"}], "peer_examples": [{"prompt", "text"}]}],
     "logprobs": {"prefixes": [id, ...], "repeats", "top_logprobs", "tolerance",
                  "results": [{"provider", "prefixes", "responses", "excluded", "distance", "within",
                               "effect", "p_value", "p_adjusted", "outlier", "verdict", "step"}]},
     "notes": [...], "cost": {"tokens", "usd"}}

``logprobs`` is the second test, on the next-token probabilities of the hosts that list ``logprobs`` and
``top_logprobs`` (``exporter.equality.logprobs``); the text table shows it as a second line per host.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from exporter.equality import compare as verdicts
from exporter.equality.compare import EqualityResult, compare_hosts
from exporter.equality.config import EqualityConfig
from exporter.equality.logprob_sampling import (
    DEFAULT_PREFIXES,
    DEFAULT_REPEATS,
    DEFAULT_TOP_LOGPROBS,
    HostNextTokens,
)
from exporter.equality.logprobs import NO_LOGPROBS, TOLERANCE, LogprobResult, compare_next_tokens
from exporter.equality.ngram import DEFAULT_ORDER
from exporter.equality.sample import Sample
from exporter.equality.sampling import HostSamples
from exporter.outcomes import Usage
from exporter.textkit import clip

_TOKENS_LEGEND = (
    "next tokens: the host's next-token probabilities (top_logprobs at fixed prefixes);\n"
    "effect: their total variation from its peers' median, beyond the median peer's"
)
MAX_EXAMPLES = 3  # completions shown per host, and as many of its peers' for the same prompts
EXAMPLE_CHARS = 70


@dataclass(frozen=True, slots=True)
class EqualityRow:
    result: EqualityResult
    excluded: int
    default_temperature: bool
    examples: tuple[Sample, ...]
    peer_examples: tuple[Sample, ...]


@dataclass(frozen=True, slots=True)
class NextTokenRow:
    result: LogprobResult
    excluded: int


@dataclass(frozen=True, slots=True)
class EqualityReport:
    model: str
    samples: int  # asked per host
    alpha: float
    settings: EqualityConfig
    rows: tuple[EqualityRow, ...]
    cost: Usage
    notes: tuple[str, ...] = ()
    next_tokens: tuple[NextTokenRow, ...] = ()  # the logprobs test, by provider (empty: not run)

    @property
    def outliers(self) -> tuple[EqualityRow, ...]:
        return tuple(r for r in self.rows if r.result.outlier)


def build(
    model: str,
    hosts: Sequence[HostSamples],
    *,
    samples: int,
    alpha: float,
    settings: EqualityConfig,
    next_tokens: Sequence[HostNextTokens] = (),
) -> EqualityReport:
    """Compare the hosts (and their next-token probabilities, where ``next_tokens`` were collected) and
    assemble the report (deterministic)."""
    by_host = {h.provider: h for h in hosts}
    results = compare_hosts({h.provider: h.samples for h in hosts}, alpha=alpha)
    rows = []
    for result in results:
        own = tuple(by_host[result.provider].samples[:MAX_EXAMPLES])
        peers = tuple(_peer_example(hosts, result.provider, s.prompt, i) for i, s in enumerate(own))
        host = by_host[result.provider]
        rows.append(
            EqualityRow(result, host.excluded, host.default_temperature, own, tuple(p for p in peers if p))
        )
    cost = sum((h.usage for h in hosts), Usage()) + sum((h.usage for h in next_tokens), Usage())
    notes: list[str] = []
    if any(h.default_temperature for h in hosts):
        notes.append("some hosts do not list temperature and sampled at their own default (see the results)")
    formats = [r for r in results if r.formatting_p is not None and r.formatting_p < alpha]
    if formats:
        listed = ", ".join(f"{r.provider} ({r.formatting:.0%} of replies)" for r in formats)
        notes.append(
            f"formatting (surrounding whitespace, Unicode form) differs from the peers' at {listed}; "
            "it is removed before the test and is not a distribution difference"
        )
    if any(r.verdict not in (verdicts.OUTLIER, verdicts.LIKE_PEERS) for r in results):
        notes.append(
            f"'{verdicts.NO_VERDICT}': even the most extreme ranks could not reach alpha with these samples "
            f"(ask for more with --samples); '{verdicts.NOT_ENOUGH_PEERS}': fewer than {verdicts.MIN_PEERS} "
            "other hosts"
        )
    tokens = _next_tokens(next_tokens, alpha)
    if any(r.result.verdict == NO_LOGPROBS for r in tokens):
        notes.append("'not tested (no logprobs)': the endpoint does not list logprobs and top_logprobs")
    return EqualityReport(model, samples, alpha, settings, tuple(rows), cost, tuple(notes), tokens)


def _next_tokens(hosts: Sequence[HostNextTokens], alpha: float) -> tuple[NextTokenRow, ...]:
    if not hosts:
        return ()
    results = compare_next_tokens(
        {h.provider: h.responses for h in hosts}, alpha=alpha, listed=[h.provider for h in hosts if h.listed]
    )
    excluded = {h.provider: h.excluded for h in hosts}
    return tuple(NextTokenRow(r, excluded[r.provider]) for r in results)


def _peer_example(hosts: Sequence[HostSamples], provider: str, prompt: str, index: int) -> Sample | None:
    """The ``index``-th peer completion of ``prompt``, taking each peer in turn (a spread, not one host)."""
    pool = [s for h in hosts if h.provider != provider for s in h.samples if s.prompt == prompt]
    return pool[(index * 7) % len(pool)] if pool else None


def to_json(report: EqualityReport) -> dict[str, Any]:
    return {
        "model": report.model,
        "test": "equality",
        "samples": report.samples,
        "alpha": report.alpha,
        "order": DEFAULT_ORDER,
        "temperature": report.settings.temperature,
        "prompts": [p.id for p in report.settings.prompts],
        "results": [_row_json(row) for row in report.rows],
        "logprobs": _next_tokens_json(report) if report.next_tokens else None,
        "notes": list(report.notes),
        "cost": {
            "tokens": report.cost.prompt_tokens + report.cost.completion_tokens,
            "usd": round(report.cost.cost_usd, 6),
        },
    }


def _row_json(row: EqualityRow) -> dict[str, Any]:
    """Every field of the result, in its order (floats rounded), then the row's own."""
    r = row.result
    return asdict(r) | {
        "z": _round(r.z, 3),
        "effect": _round(r.effect, 4),
        "formatting": round(r.formatting, 4),
        "excluded": row.excluded,
        "default_temperature": row.default_temperature,
        "examples": [asdict(s) for s in row.examples],
        "peer_examples": [asdict(s) for s in row.peer_examples],
    }


def _next_tokens_json(report: EqualityReport) -> dict[str, object]:
    def row(r: NextTokenRow) -> dict[str, object]:
        rounded = {k: _round(getattr(r.result, k), 4) for k in ("distance", "within", "effect")}
        return asdict(r.result) | rounded | {"excluded": r.excluded}

    return {
        "prefixes": [p.id for p in DEFAULT_PREFIXES],
        "repeats": DEFAULT_REPEATS,
        "top_logprobs": DEFAULT_TOP_LOGPROBS,
        "tolerance": TOLERANCE,
        "results": [row(r) for r in report.next_tokens],
    }


def _round(value: float | None, digits: int) -> float | None:
    return None if value is None else round(value, digits)


def _p(value: float | None) -> str:
    return "-" if value is None else f"{value:.2g}" if value < 0.001 else f"{value:.3f}"


def _example_line(sample: Sample, width: int = 80) -> str:
    head = f"  [{sample.prompt}] "
    return head + clip(sample.text, max(20, width - len(head)), flat=True)


def _heading(report: EqualityReport) -> str:
    return (
        f"equality test: {report.model}\n{report.samples} samples per host over "
        f"{len(report.settings.prompts)} prompts, alpha {report.alpha}"
    )


def _cost(report: EqualityReport) -> str:
    tokens = report.cost.prompt_tokens + report.cost.completion_tokens
    return f"cost: {tokens:,} tokens, ${report.cost.cost_usd:.4f}"


def _cells(r: EqualityResult | LogprobResult, outlier: str) -> tuple[str, str, str, str]:
    """The effect, p, p adjusted and verdict cells of one row (``outlier``: the word for a flagged host);
    a next-token row's effect is its total variation beyond the median peer's."""
    verdict = outlier if r.outlier else r.verdict
    return "-" if r.effect is None else f"{r.effect:+.3f}", _p(r.p_value), _p(r.p_adjusted), verdict


def to_table(report: EqualityReport) -> str:
    """A plain table that fits 80 columns, then each outlier's completions beside its peers'."""
    lines = [_heading(report), ""]
    lines.append(f"{'provider':<24} {'n':>4} {'effect':>7} {'p':>7} {'p adj':>7}  verdict")
    tokens = {r.result.provider: r.result for r in report.next_tokens}
    for row in report.rows:
        effect, p, p_adjusted, verdict = _cells(row.result, "OUTLIER")
        name = clip(row.result.provider, 24, flat=True)
        lines.append(f"{name:<24} {row.result.samples:>4} {effect:>7} {p:>7} {p_adjusted:>7}  {verdict}")
        if (next_token := tokens.get(row.result.provider)) is not None:
            effect, p, p_adjusted, verdict = _cells(next_token, "OUTLIER")
            n = next_token.responses
            lines.append(f"{'  next tokens':<24} {n:>4} {effect:>7} {p:>7} {p_adjusted:>7}  {verdict}")
    for row in report.outliers:
        lines += ["", f"{row.result.provider} wrote:"]
        lines += [_example_line(s) for s in row.examples]
        lines.append("its peers wrote:")
        lines += [_example_line(s) for s in row.peer_examples]
    if report.next_tokens:
        lines += ["", _TOKENS_LEGEND]
    lines += ["", *(f"note: {n}" for n in report.notes), _cost(report)]
    return "\n".join(lines)


def to_markdown(report: EqualityReport) -> str:
    """The report for an incident ticket."""
    title = _heading(report).replace("\n", ": ", 1)
    lines = [f"### {title}", "", "| provider | n | effect (bits/char) | p | p adjusted | verdict |"]
    lines.append("|---|---:|---:|---:|---:|---|")
    tokens = {r.result.provider: r.result for r in report.next_tokens}
    for row in report.rows:
        cells = " | ".join(_cells(row.result, "**outlier**"))
        lines.append(f"| `{row.result.provider}` | {row.result.samples} | {cells} |")
        if (next_token := tokens.get(row.result.provider)) is not None:
            cells = " | ".join(_cells(next_token, "**outlier**"))
            lines.append(f"| ↳ next tokens | {next_token.responses} | {cells} |")
    for row in report.outliers:
        lines += ["", f"`{row.result.provider}` wrote:", ""]
        lines += [f"- `{s.prompt}`: {clip(s.text, EXAMPLE_CHARS, flat=True)}" for s in row.examples]
        lines += ["", "its peers wrote:", ""]
        lines += [f"- `{s.prompt}`: {clip(s.text, EXAMPLE_CHARS, flat=True)}" for s in row.peer_examples]
    lines += ["", *(f"_{n}_" for n in report.notes), "", _cost(report)]
    lines += [
        "",
        "A flag means this host's completions are distributed differently from its peers' (their "
        "surprise under models of the other hosts' replies ranks apart); a reason to look, not proof.",
    ]
    if report.next_tokens:
        lines += ["", _TOKENS_LEGEND]
    return "\n".join(lines)
