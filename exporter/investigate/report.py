"""The comparison as output: JSON (a public contract), an 80-column table, and Markdown for a ticket.

The JSON shape is fixed by issue 10; fields may be added, never renamed::

    {"model", "samples", "alpha",
     "results": [{"provider", "contract", "failed", "judged", "rest_failed", "rest_judged",
                  "p_value", "p_adjusted", "outlier", "examples": [...]}],
     "cost": {"tokens", "usd"}}

Added: per result ``excluded`` (samples that were not evidence), ``excluded_by_outcome`` and ``reasons``;
at the top ``source`` (``live`` or ``history``), ``locale`` and ``since``.
"""

from __future__ import annotations

import dataclasses
import textwrap

from pydantic import JsonValue

from exporter.investigate.compare import Comparison, HostResult
from exporter.textkit import clip
from exporter.timestamps import format_optional

WIDTH = 80


def to_json(comparison: Comparison) -> dict[str, JsonValue]:
    """The report as the JSON document ``canary investigate --json`` prints."""
    return {
        "model": comparison.model,
        "samples": comparison.samples,
        "alpha": comparison.alpha,
        "results": [_result_json(r) for r in comparison.results],
        "cost": {"tokens": comparison.tokens, "usd": round(comparison.cost_usd, 6)},
        "source": comparison.source,
        "locale": comparison.locale,
        "since": format_optional(comparison.since),
        "notes": list(comparison.notes),
    }


def _result_json(r: HostResult) -> JsonValue:
    """Every field of the result, in its order; the counted pairs as objects."""
    return dataclasses.asdict(r) | {
        "examples": list(r.examples),
        "excluded_by_outcome": dict(r.excluded_by_outcome),
        "reasons": dict(r.reasons),
    }


def _heading(c: Comparison) -> str:
    since = format_optional(c.since)
    where = "sent now" if c.source == "live" else f"from the evidence history since {since}"
    locale = f", locale {c.locale}" if c.locale else ""
    return (
        f"{c.model}: {c.samples} sample(s) per host and contract{locale}, {where}; "
        f"outlier when Holm-adjusted p < {c.alpha:g}"
    )


def _cost(c: Comparison) -> str:
    spent = "spent" if c.source == "live" else "spent by these samples then"
    return f"cost: {c.tokens} tokens, {c.cost_usd:.6f} USD {spent}"


def _p(value: float) -> str:
    return f"{value:.2g}" if value < 0.01 else f"{value:.3f}"


# contract, provider, failed/judged, rest, p, p adjusted, outlier, excluded: 80 columns in all.
_COLUMNS = (("contract", 11), ("provider", 21), ("failed", 10), ("rest", 10), ("p", 8), ("p adj", 8))


def to_table(comparison: Comparison) -> str:
    """The report as a plain-text table that fits 80 columns (long tags and excerpts are shortened)."""
    heading = textwrap.wrap(_heading(comparison), WIDTH, break_long_words=False, break_on_hyphens=False)
    lines = [clip(part, WIDTH) for part in heading]
    header = "".join(name.ljust(width) for name, width in _COLUMNS) + "outlier".ljust(8) + "excl"
    lines += ["", header, "-" * len(header)]
    for r in comparison.results:
        cells = (
            clip(r.contract, 10),
            clip(r.provider, 20),
            f"{r.failed}/{r.judged}",
            f"{r.rest_failed}/{r.rest_judged}",
            _p(r.p_value),
            _p(r.p_adjusted),
        )
        row = "".join(cell.ljust(width) for cell, (_, width) in zip(cells, _COLUMNS, strict=True))
        lines.append(row + ("YES" if r.outlier else "-").ljust(8) + str(r.excluded))
        lines.extend(clip(f"    {example}", WIDTH) for example in r.examples)
    if not comparison.results:
        lines.append("(nothing to compare)")
    lines += ["", *(clip(f"note: {n}", WIDTH) for n in comparison.notes), _cost(comparison)]
    return "\n".join(lines)


def to_markdown(comparison: Comparison) -> str:
    """The report as Markdown, ready to paste into an incident ticket."""
    c = comparison
    lines = [f"### Pinned comparison: `{c.model}`", "", _heading(c) + ".", ""]
    flagged = c.outliers
    if flagged:
        lines.append("**Outliers:** " + ", ".join(f"`{r.provider}` ({r.contract})" for r in flagged) + ".")
    else:
        lines.append("**No outlier:** no host fails a contract significantly more often than the others.")
    lines += [
        "",
        "| contract | provider | failed/judged | rest failed/judged | p | p adjusted | outlier | excluded |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in c.results:
        lines.append(
            f"| {r.contract} | `{r.provider}` | {r.failed}/{r.judged} | {r.rest_failed}/{r.rest_judged} "
            f"| {_p(r.p_value)} | {_p(r.p_adjusted)} | {'**yes**' if r.outlier else 'no'} | {r.excluded} |"
        )
    for r in flagged:
        lines += ["", f"Failing replies of `{r.provider}` on `{r.contract}`:", ""]
        lines += [f"- `{_code(example)}`" for example in r.examples]
    lines += ["", *(f"Note: {n}" for n in c.notes), "", _cost(c) + "."]
    return "\n".join(lines).replace("\n\n\n", "\n\n")


def _code(text: str) -> str:
    return text.replace("`", "'")
