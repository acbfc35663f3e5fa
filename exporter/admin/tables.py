"""The receiver's JSON documents as listings for a terminal (pure: documents in, text out).

A listing fits its width (80 columns by default): one line of short columns per item (identifiers shrink
with an ellipsis, never wrap), then the item's reason on one indented line, cut with an ellipsis. The failing
contract is a column of its own, so a suspension says which contract and why without the free text.

Example::

    print(render(suspensions_table(client.suspensions()), width=80))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from exporter.receiver.bodies import Incidents, SuspensionItem, Suspensions
from exporter.receiver.state import Decision
from exporter.textkit import clip
from exporter.timestamps import format_rfc3339

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


def short_time(at: float | None) -> str:
    """An instant as ``12-01 10:00Z`` (the year and seconds rarely matter to an operator); ``-`` for none."""
    return "-" if at is None else format_rfc3339(at)[5:16].replace("T", " ") + "Z"


def _joined(values: Sequence[object]) -> str:
    return ",".join(str(v) for v in values) or "-"


def failing(item: SuspensionItem | Decision) -> tuple[list[str], list[str], str | None]:
    """The failing contracts, their machine reasons and the evidence link of a suspension or a decision
    (the alert's explanation, which a decision nests)."""
    if isinstance(item, SuspensionItem):
        return item.failing_contracts, item.failing_reasons, item.evidence_url
    told = item.explanation
    contracts, reasons, link = (told.get(k) for k in ("failing_contracts", "failing_reasons", "evidence_url"))
    return (
        [str(c) for c in contracts] if isinstance(contracts, list) else [],
        [str(r) for r in reasons] if isinstance(reasons, list) else [],
        link if isinstance(link, str) and link else None,
    )


def contracts_of(item: SuspensionItem | Decision) -> str:
    return _joined(failing(item)[0])


def reason_of(item: SuspensionItem | Decision) -> str:
    """The machine reasons (``ttft=slow_first_token``) first, then the free text."""
    machine, text = "; ".join(failing(item)[1]), item.reason
    return f"{machine} · {text}" if machine and text else machine or text


def suspensions_table(document: Suspensions) -> Listing:
    rows = [
        ((s.model, s.provider, str(s.mode), str(s.rung), short_time(s.until), contracts_of(s)), reason_of(s))
        for s in document.suspensions
    ]
    holds = document.holds
    note = (
        f"{len(holds)} lift(s) holding until a clean round: canary admin decisions --kind lift"
        if holds
        else ""
    )
    title = f"suspensions ({len(rows)}; receiver in {document.mode} mode)"
    return _one_model(Listing(title, ("model", "provider", "mode", "rung", "until", "contract"), rows, note))


def incidents_table(document: Incidents) -> Listing:
    rows = [((i.id, i.model, i.provider, short_time(i.until)), i.reason) for i in document.incidents]
    return _one_model(Listing(f"incidents ({len(rows)})", ("id", "model", "provider", "until"), rows))


def decision_row(d: Decision) -> tuple[tuple[str, ...], str]:
    cells = (
        str(d.seq),
        short_time(d.at),
        str(d.kind),
        d.model or "-",  # a decision's entry leaves out what it does not concern
        d.provider or "-",
        contracts_of(d),
    )
    return cells, reason_of(d)


def decisions_table(decisions: Iterable[Decision], title: str = "decisions") -> Listing:
    rows = [decision_row(d) for d in decisions]
    headers = ("seq", "time", "kind", "model", "provider", "contract")
    return _one_model(Listing(f"{title} ({len(rows)})", headers, rows))


__all__ = [
    "Listing",
    "decision_row",
    "decisions_table",
    "failing",
    "incidents_table",
    "printable",
    "reason_of",
    "render",
    "short_time",
    "suspensions_table",
]
