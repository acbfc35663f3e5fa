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


_TIMES = frozenset({"until", "time"})  # RFC 3339 values, shortened


def _cells(
    items: Iterable[Mapping[str, Any]], columns: tuple[str, ...], missing: str = ""
) -> list[tuple[str, ...]]:
    """One row of text per item: each column's value (a time shortened), ``missing`` where it is absent."""
    return [
        tuple(_short_time(item.get(c)) if c in _TIMES else str(item.get(c, missing)) for c in columns)
        for item in items
    ]


def suspensions_table(document: Mapping[str, Any]) -> Table:
    columns = ("model", "provider", "mode", "rung", "until", "reason")
    rows = _cells(document.get("suspensions", []), columns)
    return _table(f"suspensions ({len(rows)}; receiver in {document.get('mode', '?')} mode)", columns, rows)


def incidents_table(document: Mapping[str, Any]) -> Table:
    columns = ("id", "model", "provider", "until", "reason")
    rows = _cells(document.get("incidents", []), columns)
    return _table(f"incidents ({len(rows)})", columns, rows)


def decisions_table(decisions: Iterable[Mapping[str, Any]], title: str = "decisions") -> Table:
    columns = ("seq", "time", "kind", "model", "provider", "reason")
    rows = _cells(decisions, columns, missing="-")  # a decision's entry leaves out what it does not concern
    return _table(f"{title} ({len(rows)})", columns, rows)


def render(table: Table, width: int = 80, colour: bool = False) -> str:
    """The table as text at ``width`` columns (what a terminal of that width shows)."""
    buffer = io.StringIO()
    Console(
        file=buffer, width=width, force_terminal=colour, color_system="standard" if colour else None
    ).print(table)
    return buffer.getvalue()
