"""The receiver's JSON documents as listings for a terminal (pure: documents in, text out).

A listing fits its width (80 columns by default): one line of short columns per item (identifiers shrink
with an ellipsis, never wrap), then the item's reason on one indented line, cut with an ellipsis. The failing
contract is a column of its own, so a suspension says which contract and why without the free text.

Example::

    print(render(suspensions_table(client.suspensions()), width=80))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from exporter.textkit import clip

DETAIL_INDENT = "  "
GAP = "  "
# Columns that give up width first when a line is too wide (long identifiers), in this order.
SHRINKABLE = ("model", "reason", "provider", "contract", "id")
MIN_SHRUNK = 8


@dataclass(frozen=True, slots=True)
class Listing:
    """Rows of short cells under ``headers``, each with an optional one-line ``detail`` (the reason)."""

    title: str
    headers: tuple[str, ...]
    rows: Sequence[tuple[tuple[str, ...], str]] = ()
    note: str = ""  # a line after the rows (what is not shown, what to do next)


def printable(text: str) -> str:
    """``text`` on one line with every control character shown as U+FFFD (a reason or an identifier never
    moves the cursor or colours the terminal)."""
    return "".join(ch if ch.isprintable() else " " if ch.isspace() else "\ufffd" for ch in text)


def _widths(headers: Sequence[str], rows: Sequence[Sequence[str]], width: int) -> list[int]:
    widths = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(headers)]
    excess = sum(widths) + len(GAP) * (len(widths) - 1) - width
    for name in SHRINKABLE:
        if excess <= 0:
            break
        if name in headers:
            i = headers.index(name)
            cut = min(excess, max(0, widths[i] - max(MIN_SHRUNK, len(name))))
            widths[i] -= cut
            excess -= cut
    return widths


def render(listing: Listing, width: int = 80, colour: bool = False) -> str:
    """The listing as text at most ``width`` columns wide (what a terminal of that width shows)."""
    rows = [tuple(printable(c) for c in cells) for cells, _ in listing.rows]
    widths = _widths(listing.headers, rows, width)

    def line(cells: Sequence[str]) -> str:
        return GAP.join(clip(c, w, flat=True).ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip()

    header = line(listing.headers)
    out = [clip(printable(listing.title), width), f"\x1b[1m{header}\x1b[0m" if colour else header]
    for cells, (_, detail) in zip(rows, listing.rows, strict=True):
        out.append(clip(line(cells), width))
        if detail:
            out.append(DETAIL_INDENT + clip(printable(detail), width - len(DETAIL_INDENT)))
    if listing.note:
        out.append(clip(printable(listing.note), width))
    return "\n".join(out) + "\n"


def _one_model(listing: Listing) -> Listing:
    """With every row about one model, that model goes in the title and its column goes (more room for
    the provider and the reason at 80 columns)."""
    if "model" not in listing.headers or not listing.rows:
        return listing
    i = listing.headers.index("model")
    models = {cells[i] for cells, _ in listing.rows}
    if len(models) != 1 or "-" in models:
        return listing

    def drop(cells: tuple[str, ...]) -> tuple[str, ...]:
        return cells[:i] + cells[i + 1 :]

    rows = [(drop(cells), detail) for cells, detail in listing.rows]
    title = f"{next(iter(models))}: {listing.title}"
    return Listing(title, drop(listing.headers), rows, listing.note)


def short_time(value: object) -> str:
    """``2026-12-01T10:00:00Z`` as ``12-01 10:00Z`` (the year and seconds rarely matter to an operator)."""
    text = str(value or "-")
    if len(text) >= 17 and text[4] == "-" and text[10] == "T":
        return f"{text[5:10]} {text[11:16]}Z"
    return text


def _joined(value: object) -> str:
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value) or "-"
    return str(value) if value not in (None, "") else "-"


def explanation(item: Mapping[str, Any]) -> Mapping[str, Any]:
    """The failing contracts, reasons and evidence link of a suspension or a decision (which nests them)."""
    nested = item.get("explanation")
    return nested if isinstance(nested, Mapping) else item


def contracts_of(item: Mapping[str, Any]) -> str:
    return _joined(explanation(item).get("failing_contracts") or "-")


def reason_of(item: Mapping[str, Any]) -> str:
    """The machine reasons (``ttft=slow_first_token``) first, then the free text."""
    reasons = explanation(item).get("failing_reasons") or []
    machine = "; ".join(str(r) for r in reasons) if isinstance(reasons, list) else ""
    text = str(item.get("reason") or "")
    return f"{machine} · {text}" if machine and text else machine or text


def suspensions_table(document: Mapping[str, Any]) -> Listing:
    items = list(document.get("suspensions", []))
    rows = [
        (
            (
                str(s.get("model", "")),
                str(s.get("provider", "")),
                str(s.get("mode", "")),
                str(s.get("rung", "")),
                short_time(s.get("until")),
                contracts_of(s),
            ),
            reason_of(s),
        )
        for s in items
    ]
    holds = list(document.get("holds", []))
    note = (
        f"{len(holds)} lift(s) holding until a clean round: canary admin decisions --kind lift"
        if holds
        else ""
    )
    title = f"suspensions ({len(rows)}; receiver in {document.get('mode', '?')} mode)"
    return _one_model(Listing(title, ("model", "provider", "mode", "rung", "until", "contract"), rows, note))


def incidents_table(document: Mapping[str, Any]) -> Listing:
    items = list(document.get("incidents", []))
    rows = [
        (
            (
                str(i.get("id", "")),
                str(i.get("model", "")),
                str(i.get("provider", "")),
                short_time(i.get("until")),
            ),
            str(i.get("reason", "")),
        )
        for i in items
    ]
    return _one_model(Listing(f"incidents ({len(rows)})", ("id", "model", "provider", "until"), rows))


def decision_row(d: Mapping[str, Any]) -> tuple[tuple[str, ...], str]:
    cells = (
        str(d.get("seq", "-")),
        short_time(d.get("time")),
        str(d.get("kind", "-")),
        str(d.get("model") or "-"),  # a decision's entry leaves out what it does not concern
        str(d.get("provider") or "-"),
        contracts_of(d),
    )
    return cells, reason_of(d)


def decisions_table(decisions: Iterable[Mapping[str, Any]], title: str = "decisions") -> Listing:
    rows = [decision_row(d) for d in decisions]
    headers = ("seq", "time", "kind", "model", "provider", "contract")
    return _one_model(Listing(f"{title} ({len(rows)})", headers, rows))


__all__ = [
    "Listing",
    "decision_row",
    "decisions_table",
    "explanation",
    "incidents_table",
    "printable",
    "reason_of",
    "render",
    "short_time",
    "suspensions_table",
]
