"""The receiver's JSON documents as rich tables (pure: documents in, ``Table`` or text out).

Tables fit an 80-column terminal: identifiers never wrap (they shrink with an ellipsis), free text folds.

Example::

    print(render(suspensions_table(client.suspensions()), width=80))
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

_FOLDED = frozenset({"model", "reason"})  # long free text: folds onto more lines; the rest never wraps


def _table(title: str, headers: tuple[str, ...], rows: Sequence[tuple[str, ...]]) -> Table:
    """Short identifiers (tags, modes, times) keep their full width; model and reason fold to fit."""
    table = Table(title=title, title_justify="left", pad_edge=False, show_edge=False)
    for i, name in enumerate(headers):
        if name in _FOLDED:
            table.add_column(name, overflow="fold", min_width=min(len(name) + 4, 12))
        else:
            widest = max([len(name), *(len(row[i]) for row in rows)])
            table.add_column(name, no_wrap=True, min_width=min(widest, 24))
    for row in rows:
        table.add_row(*row)
    return table


def _short_time(value: object) -> str:
    """``2026-12-01T10:00:00Z`` as ``12-01 10:00Z`` (the year and seconds rarely matter to an operator)."""
    text = str(value or "-")
    if len(text) >= 17 and text[4] == "-" and text[10] == "T":
        return f"{text[5:10]} {text[11:16]}Z"
    return text


def suspensions_table(document: Mapping[str, Any]) -> Table:
    rows = [
        (
            str(s.get("model", "")),
            str(s.get("provider", "")),
            str(s.get("mode", "")),
            str(s.get("rung", "")),
            _short_time(s.get("until")),
            str(s.get("reason", "")),
        )
        for s in document.get("suspensions", [])
    ]
    title = f"suspensions ({len(rows)}; receiver in {document.get('mode', '?')} mode)"
    return _table(title, ("model", "provider", "mode", "rung", "until", "reason"), rows)


def incidents_table(document: Mapping[str, Any]) -> Table:
    rows = [
        (
            str(i.get("id", "")),
            str(i.get("model", "")),
            str(i.get("provider", "")),
            _short_time(i.get("until")) if i.get("until") else "-",
            str(i.get("reason", "")),
        )
        for i in document.get("incidents", [])
    ]
    return _table(f"incidents ({len(rows)})", ("id", "model", "provider", "until", "reason"), rows)


def decisions_table(decisions: Iterable[Mapping[str, Any]], title: str = "decisions") -> Table:
    rows = [
        (
            str(d.get("seq", "")),
            _short_time(d.get("time")),
            str(d.get("kind", "")),
            str(d.get("model", "-")),
            str(d.get("provider", "-")),
            str(d.get("reason", "")),
        )
        for d in decisions
    ]
    return _table(f"{title} ({len(rows)})", ("seq", "time", "kind", "model", "provider", "reason"), rows)


def render(table: Table, width: int = 80, colour: bool = False) -> str:
    """The table as text at ``width`` columns (what a terminal of that width shows)."""
    buffer = io.StringIO()
    Console(
        file=buffer, width=width, force_terminal=colour, color_system="standard" if colour else None
    ).print(table)
    return buffer.getvalue()
