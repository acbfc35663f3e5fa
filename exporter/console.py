"""Terminal rendering of the exporter's state: providers x contracts with outcome, streak and TTFT.

Pure: takes the bodies the exporter (``/v1/state``: ``StateBody``) and the receiver (``/v1/ignore``,
``/v1/suspensions``, its decisions) serve, returns text (``render_table``, for pipes and logs) or a rich
renderable (``live_view``, the demo's screen on a terminal: width-adaptive, never wrapping a row, with a
legend and a status line).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from exporter.engine.rounds import RoundProgress
from exporter.engine.state_body import ContractState, StateBody
from exporter.receiver.bodies import IgnoreList, SuspensionItem, Suspensions
from exporter.receiver.merge import IgnoreEntry
from exporter.receiver.state import Decision, Kind
from exporter.timestamps import format_rfc3339

if TYPE_CHECKING:  # rich is imported when a live view is drawn (pipes and logs never need it)
    from rich.console import Group
    from rich.table import Table

# Each outcome's rich style in the live view (the plain table is for pipes and logs: no colour).
_COLOURS = {
    "pass": "green",
    "fail": "bold red",
    "transport": "yellow",
    "skipped": "bright_black",
    "inconclusive": "cyan",
    "unavailable": "magenta",
    "config": "magenta",
    "pin_violation": "magenta",
}


# A host's routing state, as the receiver's documents tell it (``routing_states``), the most excluding first.
EXCLUDED = "excluded"
FLOOR_BLOCKED = "floor_blocked"
WOULD_BE = "would_be"
LIFTED = "lifted"
ROUTABLE = "routable"


@dataclass(frozen=True, slots=True)
class _Host:
    """One provider row of a model's table, as both views read it from the state JSON."""

    tag: str
    control: bool  # a known-filtering positive control
    results: Mapping[str, ContractState]  # contract name -> its result
    ttft: float | None
    clean: int
    excluded: IgnoreEntry | None  # its entry in the receiver's ignore list
    routing: str = ROUTABLE  # its routing state (``routing_states``): excluded, would-be, lifted, ...


#: The kinds of decision after which a route's earlier floor block no longer stands.
_UNBLOCKING = frozenset(
    {Kind.SUSPEND, Kind.ESCALATE, Kind.OBSERVE, Kind.PROMOTE, Kind.LIFT, Kind.RECOVER, Kind.EXPIRE}
)


def routing_states(
    ignore: Mapping[str, IgnoreList] | None,
    suspensions: Suspensions | None = None,
    decisions: Sequence[Decision] = (),
) -> dict[tuple[str, str], str]:
    """(model, provider) -> routing state, from the receiver's ``/v1/ignore`` documents (by model), its
    ``/v1/suspensions`` document and its recent ``/v1/decisions`` (oldest first). Hosts not named are
    routable.

    - ``excluded``: in the ignore list (a suspension in enforce mode, an incident, a built-in exclusion);
    - ``floor_blocked``: the route's newest suspending decision is a ``floor_block`` (the capacity floor kept
      it routable; a person must decide);
    - ``would_be``: an observe-mode suspension (recorded, still routable);
    - ``lifted``: a lift holds it routable until its next clean round.
    """
    states: dict[tuple[str, str], str] = {}
    for decision in decisions:  # the newest decision about a route says whether a block still stands
        route = (str(decision.model), str(decision.provider))
        if decision.kind is Kind.FLOOR_BLOCK:
            states[route] = FLOOR_BLOCKED
        elif decision.kind in _UNBLOCKING:
            states.pop(route, None)
    if suspensions is not None:
        for hold in suspensions.holds:
            states[(hold.model, hold.provider)] = LIFTED
        for item in suspensions.suspensions:
            if item.mode == "observe":
                states[(item.model, item.provider)] = WOULD_BE
    for model, document in (ignore or {}).items():
        for entry in document.entries:
            states[(model, entry.provider)] = EXCLUDED
    return states


def _hosts(
    state: StateBody,
    ignore: Mapping[str, IgnoreList] | None,
    model: str,
    routing: Mapping[tuple[str, str], str] | None = None,
) -> tuple[list[str], list[_Host]]:
    """The contracts (sorted) and the hosts (by tag) of one model."""
    providers = state.models[model].providers if model in state.models else {}
    listed = (ignore or {}).get(model)
    entries = {e.provider: e for e in listed.entries} if listed is not None else {}
    routes = routing if routing is not None else routing_states(ignore)
    hosts = []
    for tag, p in sorted(providers.items()):
        ttft = p.contracts["ttft"].ttft_seconds if "ttft" in p.contracts else None
        routed = routes.get((model, tag), ROUTABLE)
        control = p.role == "control"
        hosts.append(_Host(tag, control, p.contracts, ttft, p.clean_streak, entries.get(tag), routed))
    return sorted({c for p in providers.values() for c in p.contracts}), hosts


# ---------------------------------------------------------------- the live view (rich), for a terminal

# Column priority when the terminal is narrow: the lowest priority goes first; provider and routing stay.
_ABBREVIATIONS = {"structured": "struct", "language": "lang", "refusal": "refus"}
NARROW = 140  # below this width, cells use the short forms defined (once) here and explained in the legend
# A failing contract's reason in a narrow cell: at most four letters, one per reason, never two alike.
REASON_ABBREVIATIONS = {
    "slow_first_token": "slow",
    "no_content": "noct",
    "content_filter": "filt",
    "empty_reply": "empt",
    "refusal_error": "rerr",
    "refusal_pattern": "rpat",
    "invalid_json": "json",
    "schema_mismatch": "schm",
    "code_fenced": "fenc",
    "truncated": "cut",
    "switch": "swch",
    "mixing": "mix",
    "encoding": "enc",
    "leading_garbage": "garb",
    "too_short": "shrt",
    "ambiguous": "ambg",
    "refusal": "rfsl",
    "truncation": "trnc",
    "repetition": "rep",
    "wrong_provider": "wrgp",
    "not_advertised": "nadv",
    "platform_moderation": "pmod",
}
# A routing state's cell: (wide, narrow, style, its legend entry, None where the word says it all).
ROUTING_CELLS: dict[str, tuple[str, str, str, str | None]] = {
    FLOOR_BLOCKED: ("FLOOR-BLOCKED", "floor-blk", "bold yellow", "floor-blk: suspension refused by the "
                    "capacity floor, still routable (decide: canary admin why)"),
    WOULD_BE: ("would-be (observe)", "would-be", "yellow", "would-be: observe mode, would be suspended, "
               "still routable"),
    LIFTED: ("lifted", "lifted", "cyan", "lifted: lifted by hand, routable until a clean round"),
    ROUTABLE: ("routable", "routable", "green", None),
}  # fmt: skip
_LAYERS = {"suspension": "susp", "incident": "inc", "builtin": "bltn"}
LEGEND_OK = "ok pass"


def _short_cell(result: ContractState | None, control: bool, narrow: bool = False) -> tuple[str, str]:
    """(text, style) of one contract cell, abbreviated for the live view (more on a ``narrow`` one)."""
    if result is None:
        return "-", "bright_black"
    outcome, streak = str(result.outcome), result.failing_streak
    if control and outcome in ("fail", "pass"):
        if narrow:
            return ("refused", "green") if outcome == "fail" else ("PASSED!", "bold red")
        return ("refused ok", "green") if outcome == "fail" else ("PASSED:weak", "bold red")
    style = _COLOURS.get(outcome, "")
    if outcome == "pass":
        return "ok", style
    if outcome == "fail":
        reason = str(result.reason)
        if narrow:
            return f"F×{streak} {REASON_ABBREVIATIONS.get(reason, reason[:4])}", style
        return f"FAIL×{streak} {reason}", style
    short = {"transport": "trans", "unavailable": "unav", "inconclusive": "inconcl", "skipped": "skip"}
    return short.get(outcome, outcome) + (f" (×{streak})" if streak else ""), style


def _routing_cell(host: _Host, narrow: bool) -> tuple[str, str]:
    if host.excluded is not None:
        layer = str(host.excluded.layer)
        return f"EXCL {_LAYERS.get(layer, layer) if narrow else layer}", "bold red"
    wide, short, style, _ = ROUTING_CELLS.get(host.routing, ROUTING_CELLS[ROUTABLE])
    return (short if narrow else wide), style


def _row(host: _Host, contracts: Sequence[str], narrow: bool) -> list[tuple[str, str]]:
    """A host's cells (text, style): provider, each contract, TTFT, clean streak, routing."""
    return [
        (f"{host.tag} ctl" if host.control else host.tag, ""),
        *(_short_cell(host.results.get(c), host.control, narrow) for c in contracts),
        ("-" if host.ttft is None else f"{host.ttft:.2f}", ""),
        (str(host.clean), ""),
        _routing_cell(host, narrow),
    ]


def live_rows(
    state: StateBody,
    ignore: Mapping[str, IgnoreList] | None,
    model: str,
    routing: Mapping[tuple[str, str], str] | None = None,
    *,
    narrow: bool = False,
) -> tuple[list[str], list[list[tuple[str, str]]]]:
    """Header and rows (text, style) of one model's live table: provider, contracts, TTFT, clean, routing."""
    contracts, hosts = _hosts(state, ignore, model, routing)
    header = ["provider", *(_ABBREVIATIONS.get(c, c) for c in contracts), "ttft s", "clean", "routing"]
    return header, [_row(h, contracts, narrow) for h in hosts]


def render_table(
    state: StateBody,
    ignore: Mapping[str, IgnoreList] | None = None,
    routing: Mapping[tuple[str, str], str] | None = None,
) -> str:
    """A table per model in the live view's words (contracts named in full, an exclusion with its end), then
    the legend of what they show. ``ignore`` maps model -> the receiver's ``/v1/ignore`` body; ``routing`` is
    ``routing_states(...)`` (default: from ``ignore`` alone)."""
    lines = [f"round {state.round}  completed {state.completed_at}  ({state.duration_seconds} s)"]
    legend: list[str] = []
    for model, info in state.models.items():
        contracts, hosts = _hosts(state, ignore, model, routing)
        header = ["provider", *contracts, "ttft s", "clean", "routing"]
        rows = [_row(h, contracts, narrow=False) for h in hosts]
        legend += [item for item in legend_items(header, rows, range(len(header))) if item not in legend]
        table = [header, *([text for text, _ in row] for row in rows)]
        for cells, h in zip(table[1:], hosts, strict=True):
            cells[-1] += (
                f" until {format_rfc3339(h.excluded.until)}" if h.excluded and h.excluded.until else ""
            )
        widths = [max(len(cells[i]) for cells in table) for i in range(len(header))]
        lines += ["", model + (f"   weak probes: {', '.join(info.weak)}" if info.weak else "")]
        lines += ["  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)) for cells in table]
    return "\n".join([*lines, "", *legend])


def legend_items(
    header: Sequence[str], rows: Sequence[Sequence[tuple[str, str]]], keep: Sequence[int]
) -> list[str]:
    """The legend of what is on screen: only the shown columns' terms, states and abbreviations, each once."""
    shown = [header[i] for i in keep]
    cells = [row[i][0] for row in rows for i in keep]
    items = [LEGEND_OK]
    if any(c.startswith(("FAIL×", "F×")) for c in cells):
        items.append("F×N failed N rounds in a row (2 ask for suspension)")
    if any(c.startswith(("trans", "unav", "inconcl")) for c in cells):
        items.append("trans/unav/inconcl: no evidence, streak frozen")
    if any(" (×" in c for c in cells):
        items.append("(×N) frozen streak")
    if "clean" in shown:
        items.append("clean: clean rounds in a row (2 restore)")
    if any(row[0][0].endswith(" ctl") for row in rows):
        items.append("ctl: known-filtering control (refused: healthy; PASSED: the probe is weak)")
    used = {c.split(" ", 1)[1] for c in cells if c.startswith("F×") and " " in c}
    # each abbreviation its own item, so the packed legend wraps between them and never cuts one
    items += [f"{short}={reason}" for reason, short in REASON_ABBREVIATIONS.items() if short in used]
    routing = {row[-1][0] for row in rows}
    for wide, short, _, said in ROUTING_CELLS.values():
        if said is not None and (wide in routing or short in routing):
            items.append(said)
    layers = sorted({c.split(" ", 1)[1] for c in routing if c.startswith("EXCL ")})
    if layers:
        named = {v: k for k, v in _LAYERS.items()}
        items.append(
            "EXCL excluded from routing: " + ", ".join(f"{x}={named[x]}" if x in named else x for x in layers)
        )
    return items


def column_caps(columns: int, width: int) -> list[int]:
    """The widest each column may be at ``width``: generous on a wide terminal, abbreviated on 80 columns."""
    wide = width >= NARROW
    provider, contract, routing = (26, 24, 22) if wide else (18, 8, 9)
    return [provider, *([contract] * (columns - 4)), 6, 5, routing]


def fit_columns(header: list[str], rows: list[list[tuple[str, str]]], width: int) -> list[int]:
    """Indexes of the columns to show so that every row fits ``width`` (one line each, never wrapped).

    Cells are capped by :func:`column_caps` (and cut with an ellipsis); if the row is still too wide, columns
    are dropped by priority: the clean streak, then TTFT, then contracts from the right. The provider and
    routing columns always stay.

    Example::

        fit_columns(["provider", "ttft s", "clean", "routing"], [], 30)   # [0, 1, 2, 3]
    """
    caps = column_caps(len(header), width)
    keep = list(range(len(header)))
    drop_order = [len(header) - 2, len(header) - 3, *range(len(header) - 4, 0, -1)]

    def needed(columns: list[int]) -> int:
        widths = [min(caps[i], max([len(header[i]), *(len(r[i][0]) for r in rows)])) for i in columns]
        return sum(widths) + 2 * (len(columns) - 1)

    for index in drop_order:
        if needed(keep) <= width or len(keep) <= 2:
            break
        keep.remove(index)
    return keep


def pack_header(items: Sequence[str], width: int) -> list[str]:
    """``items`` joined with `` · `` into as few lines of at most ``width`` as possible (none is cut).

    Example::

        >>> pack_header(["a 1", "b 2", "c 3"], 9)
        ['a 1 · b 2', 'c 3']
    """
    lines: list[str] = []
    for item in items:
        if lines and len(lines[-1]) + 3 + len(item) <= width:
            lines[-1] += " · " + item
        else:
            lines.append(item)
    return lines


# Lines a model's piece of a page costs besides its rows: its title and the table's header.
PIECE_OVERHEAD = 2

Piece = tuple[int, int, int]  # (model index, first row, row after the last) shown on one page


def paginate(sizes: Sequence[int], rows_budget: int | None) -> list[list[Piece]]:
    """Pages of at most ``rows_budget`` lines holding every row of every model, in order, each row once.

    Each model's piece on a page costs :data:`PIECE_OVERHEAD` lines plus its rows; a model split across pages
    gets a piece (with its title) on each. Pages are balanced (20 rows, 15 per page: 10 and 10, not 15 and 5).
    ``None`` (no height, e.g. the final print into the scrollback) is one page with everything.

    Example::

        >>> paginate([20], 17)
        [[(0, 0, 10)], [(0, 10, 20)]]
    """
    if rows_budget is None:
        return [[(index, 0, size) for index, size in enumerate(sizes)]]
    budget = max(rows_budget, PIECE_OVERHEAD + 1)  # a screen too small for that is cropped, never looped

    def fill(cap: int) -> list[list[Piece]]:  # greedy, at most ``cap`` rows on a page
        pages: list[list[Piece]] = [[]]
        used = rows = 0
        for index, size in enumerate(sizes):
            start = 0
            while True:
                room = min(cap - rows, budget - used - PIECE_OVERHEAD)
                if room < min(1, size - start) and pages[-1]:
                    pages.append([])
                    used = rows = 0
                    continue
                take = min(size - start, max(room, 1))
                pages[-1].append((index, start, start + take))
                used, rows, start = used + PIECE_OVERHEAD + take, rows + take, start + take
                if start >= size:
                    break
        return pages

    cap = budget - PIECE_OVERHEAD
    widest = fill(cap)
    while cap > 1 and len(fill(cap - 1)) == len(widest):  # the smallest cap that needs no extra page
        cap -= 1
    return fill(cap)


def live_view(
    state: StateBody,
    ignore: Mapping[str, IgnoreList] | None,
    *,
    header: list[str],
    status: str,
    width: int,
    height: int | None = None,
    tick: int = 0,
    progress: tuple[int, int] | None = None,
    routing: Mapping[tuple[str, str], str] | None = None,
) -> Group:
    """The live screen as one rich renderable: service lines, the tables, the legend, the status line.

    Every table row is one line at ``width`` (columns dropped by :func:`fit_columns`, cells cut with an
    ellipsis) and the whole view fits ``height`` lines: when the hosts do not, they are split into pages
    (:func:`paginate`) and page ``tick % pages`` is shown, its first title saying "page 1/2" and every split
    model "hosts 1-10 of 20". ``progress`` (hosts done, total) draws a bar after the status. Log lines never
    appear here (the demo writes them to a file named in the header).

    Example::

        live_view(state, ignore, header=["exporter 127.0.0.1:9464"], status="round 1 done", width=80,
                  height=24, tick=int(time.monotonic() / 5), progress=(12, 20))
    """
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    def line(text: str, style: str = "") -> Text:
        return Text(text, style=style, no_wrap=True, overflow="ellipsis")

    head = [line(text) for text in pack_header(header, width)]
    models = list(state.models.items())
    narrow = width < NARROW
    tables = [live_rows(state, ignore, model, routing, narrow=narrow) for model, _ in models]
    shown = [fit_columns(columns, rows, width) for columns, rows in tables]  # the columns each table keeps
    terms: list[str] = []
    for (columns, rows), keep in zip(tables, shown, strict=True):  # every term once, in the order first met
        terms += [t for t in legend_items(columns, rows, keep) if t not in terms]
    legend = [line(text, "dim") for text in pack_header(terms or [LEGEND_OK], width)]
    budget = None if height is None else height - len(head) - len(legend) - 1  # 1: the status line
    pages = paginate([len(rows) for _, rows in tables], budget)
    number = tick % len(pages)
    parts: list[Text | Table] = [*head]
    for position, (index, start, stop) in enumerate(pages[number]):
        model, info = models[index]
        columns, rows = tables[index]
        title = f"{model}  round {state.round}"
        if len(pages) > 1 and position == 0:
            title += f"  page {number + 1}/{len(pages)}"
        if stop - start < len(rows):
            title += f"  hosts {start + 1}-{stop} of {len(rows)}"
        if info.weak:
            title += f"  weak: {', '.join(info.weak)}"
        parts.append(line(title, "bold"))
        keep = shown[index]
        caps = column_caps(len(columns), width)
        table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 1), header_style="bold")
        for column in keep:
            table.add_column(columns[column], no_wrap=True, overflow="ellipsis", max_width=caps[column])
        for row in rows[start:stop]:
            table.add_row(*(Text(row[i][0], style=row[i][1]) for i in keep))
        parts.append(table)
    parts.extend(legend)
    parts.append(status_line(status, width, progress))
    return Group(*parts)


def round_status(
    progress: RoundProgress | None, *, completed: int, rounds: int | None, took: float, wait: float
) -> tuple[str, tuple[int, int] | None]:
    """The live view's status text and the (hosts done, total) its bar shows, or ``None`` for no bar.

    ``progress`` is the engine's last event, ``completed`` the rounds whose results are on screen, ``rounds``
    the run's length (``None``: until stopped), ``took`` the last completed round's duration and ``wait`` the
    seconds until the next round is due (rounds start every interval; a round that overruns delays the next).

    Example::

        >>> round_status(RoundProgress(2, 7, 20), completed=1, rounds=3, took=3.2, wait=6.4)
        ('round 2/3 probing · next round in 6 s', (7, 20))
    """
    of = f"/{rounds}" if rounds is not None else ""
    if progress is None:
        return f"round 1{of} starting: discovering every host...", None
    counts = (progress.done, progress.total)
    last = rounds is not None and progress.number >= rounds
    if progress.number > completed:  # probing, or writing the round's results
        if progress.done == progress.total:
            return f"round {progress.number}{of}: every host probed, closing the round...", counts
        then = "last round" if last else f"next round in {wait:.0f} s" if wait > 0 else "next round after it"
        return f"round {progress.number}{of} probing · {then}", counts
    if last:
        return f"round {completed}{of} done in {took:.1f} s · waiting for the last decisions...", counts
    if wait <= 0:
        return f"round {completed + 1}{of} starting: discovering every host...", None
    return f"round {completed}{of} done in {took:.1f} s · next round in {wait:.0f} s", counts


PROGRESS_BAR_WIDTH = 20


def status_line(status: str, width: int, progress: tuple[int, int] | None) -> Table:
    """``status`` on one line; with ``progress`` (done, total) a bar and "done/total hosts" before it.

    The bar is dropped first when the line would not fit ``width``; the status text is cut last.
    """
    from rich.progress_bar import ProgressBar
    from rich.table import Table
    from rich.text import Text

    grid = Table.grid(padding=(0, 1))
    if progress is None or width < PROGRESS_BAR_WIDTH + len(status) + 16:
        count = f"{progress[0]}/{progress[1]} hosts · " if progress is not None else ""
        grid.add_column(no_wrap=True, overflow="ellipsis")
        grid.add_row(Text(count + status, style="bold"))
        return grid
    done, total = progress
    grid.add_column(width=PROGRESS_BAR_WIDTH)
    grid.add_column(no_wrap=True)
    grid.add_column(no_wrap=True, overflow="ellipsis")
    bar = ProgressBar(total=max(total, 1), completed=done, width=PROGRESS_BAR_WIDTH)
    grid.add_row(bar, Text(f"{done}/{total} hosts", style="bold"), Text(status, style="bold"))
    return grid


def suspension_summary(state: StateBody, suspensions: Sequence[SuspensionItem]) -> list[str]:
    """A line per model, then one per suspended host: failing contracts with their reasons, rung, until.

    Example::

        suspension_summary(state, client.suspensions().suspensions)
    """
    lines = []
    current = None
    for s in sorted(suspensions, key=lambda item: (item.model, item.provider)):
        if s.model != current:
            current = s.model
            lines.append(f"{current}:")
        model = state.models.get(s.model)
        host = model.providers.get(s.provider) if model is not None else None
        failing = [
            f"{name} ({r.reason})"
            for name, r in sorted(host.contracts.items() if host is not None else ())
            if r.outcome == "fail" or r.failing_streak > 0
        ]
        observe = " (observe: would-be)" if s.mode == "observe" else ""
        until = format_rfc3339(s.until)[:16].replace("T", " ")
        lines.append(
            f"  {s.provider}{observe}: {', '.join(failing) or 'no contract failing now'}"
            f" · rung {s.rung} · until {until}Z"
        )
    return lines
