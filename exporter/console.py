"""Terminal rendering of the state JSON: providers x contracts with outcome, streak and TTFT.

Pure: takes the JSON documents the exporter (``/v1/state``) and the receiver (``/v1/ignore``) serve, returns
text. Colour only when asked (the demo asks when stdout is a terminal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

_COLOURS = {
    "pass": "32",
    "fail": "31;1",
    "transport": "33",
    "skipped": "90",
    "inconclusive": "36",
    "unavailable": "35",
    "config": "35",
    "pin_violation": "35",
}


def _cell(result: Mapping[str, Any] | None, colour: bool, control: bool = False) -> str:
    if result is None:
        return "-"
    outcome = str(result["outcome"])
    text = outcome
    if control and outcome in ("fail", "pass"):
        # A positive control is healthy when it refuses; one that passes makes the probe weak.
        text, outcome = (
            ("refused (control ok)", "pass") if outcome == "fail" else ("PASSED: probe weak", "fail")
        )
    elif outcome == "fail":
        text = f"FAIL x{result['failing_streak']} {result['reason']}"
    elif result.get("failing_streak"):
        text = f"{outcome} (x{result['failing_streak']})"
    if colour and outcome in _COLOURS:
        return f"\x1b[{_COLOURS[outcome]}m{text}\x1b[0m"
    return text


def _width(text: str) -> int:
    visible, skipping = 0, False
    for ch in text:
        if ch == "\x1b":
            skipping = True
        elif skipping and ch == "m":
            skipping = False
        elif not skipping:
            visible += 1
    return visible


def render_table(
    state: Mapping[str, Any],
    ignore: Mapping[str, Mapping[str, Any]] | None = None,
    colour: bool = False,
) -> str:
    """A table per model. ``ignore`` maps model -> the receiver's ``/v1/ignore`` document."""
    lines = [
        f"round {state.get('round')}  completed {state.get('completed_at')}  "
        f"({state.get('duration_seconds')} s)"
    ]
    for model, info in state.get("models", {}).items():
        providers: Mapping[str, Any] = info.get("providers", {})
        contracts = sorted({c for p in providers.values() for c in p.get("contracts", {})})
        excluded: dict[str, str] = {}
        if ignore and model in ignore:
            for entry in ignore[model].get("entries", []):
                excluded[entry["provider"]] = f"{entry['layer']}" + (
                    f" until {entry['until']}" if entry.get("until") else ""
                )
        header = ["provider", *contracts, "ttft", "clean", "routing"]
        rows = [header]
        for tag, p in sorted(providers.items()):
            results = p.get("contracts", {})
            ttft = results.get("ttft", {}).get("ttft_seconds")
            name = f"{tag} (control)" if p.get("role") == "control" else tag
            rows.append(
                [
                    name,
                    *(_cell(results.get(c), colour, p.get("role") == "control") for c in contracts),
                    f"{ttft:.2f}s" if isinstance(ttft, int | float) else "-",
                    str(p.get("clean_streak", 0)),
                    f"EXCLUDED {excluded[tag]}" if tag in excluded else "routable",
                ]
            )
        widths = [max(_width(r[i]) for r in rows) for i in range(len(header))]
        weak = info.get("weak") or {}
        lines.append("")
        lines.append(f"{model}" + (f"   weak probes: {', '.join(weak)}" if weak else ""))
        for row in rows:
            lines.append(
                "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths, strict=True))
            )
    return "\n".join(lines)
