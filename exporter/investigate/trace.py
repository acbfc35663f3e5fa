"""From a user's report to the route that served it, and that route's verdicts and exclusions at the time.

``canary trace`` answers "who served this, and what did the canary know about that host then?":

1. who served it: the gateway's generation record (``GET /generation?id=``) names the *display name* of
   the provider and the time; several routes may share a display name (``deepinfra/fp8`` and
   ``deepinfra/turbo`` are both "DeepInfra"), so the route is the one whose own probe carries that
   generation id in the evidence history if any, else the discovered routes with that display name (all of
   them, said to be ambiguous, unless ``--provider`` picks one). Without a generation id the route is
   ``--provider``, or every host of the model;
2. the route's verdicts in a window around the time (the evidence history);
3. its decisions (``/v1/decisions``), what excluded it at that moment (suspensions and incidents,
   reconstructed from the decisions), and whether it is in the ignore list now (``/v1/ignore``).

The reconstruction (``excluded_at``) and the route matching (``routes_for``) are pure; the shell reads the
receiver's public read API (no token needed) with bounded responses.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from exporter.evidence.store import EvidenceRecord
from exporter.gateway.types import Endpoint
from exporter.timestamps import format_optional

# Decision kinds (the receiver's ``Kind`` values) that start an exclusion window, and those that end one.
SUSPENDING = frozenset({"suspend", "escalate", "observe", "promote"})
ENDING = frozenset({"lift", "recover", "expire"})
EXCERPT_CHARS = 160
MAX_FAILURES_SHOWN = 10


@dataclass(frozen=True, slots=True)
class Route:
    """One candidate route of the traced request and why it was chosen."""

    provider: str
    provider_name: str
    matched_by: str  # "evidence" (our probe's generation id), "display_name", "--provider", "model"


def routes_for(
    endpoints: Sequence[Endpoint],
    *,
    provider_name: str | None,
    provider: str | None,
    own_probe: str | None,
) -> list[Route]:
    """The routes that may have served the request (see the module docstring for the order of proof)."""
    names = {e.tag: e.provider_name for e in endpoints}
    if own_probe is not None:
        return [Route(own_probe, names.get(own_probe, provider_name or ""), "evidence")]
    if provider is not None:
        return [Route(provider, names.get(provider, provider_name or ""), "--provider")]
    if provider_name is not None:
        wanted = provider_name.casefold()
        return [
            Route(e.tag, e.provider_name, "display_name")
            for e in endpoints
            if e.provider_name.casefold() == wanted
        ]
    return [Route(e.tag, e.provider_name, "model") for e in endpoints]


def excluded_at(
    decisions: Iterable[Mapping[str, Any]], model: str, provider: str, at: float
) -> list[dict[str, Any]]:
    """What excluded (or, in observe mode, would have excluded) the route at ``at``, from the decision log.

    A suspension counts from its decision until its ``until``, unless a lift, recovery or expiry of the route
    came first; an incident from its addition until its ``until`` or its removal.
    """
    route = [d for d in decisions if d.get("model") == model and d.get("provider") == provider]
    route.sort(key=lambda d: (float(d.get("at", 0.0)), int(d.get("seq", 0))))
    active: list[dict[str, Any]] = []
    for d in route:
        start, kind = float(d.get("at", 0.0)), d.get("kind")
        until = d.get("until")
        if start > at or kind not in SUSPENDING | {"incident_add"}:
            continue
        if isinstance(until, int | float) and until <= at:
            continue
        if kind == "incident_add":
            ended = any(
                e.get("kind") == "incident_remove"
                and e.get("incident_id") == d.get("incident_id")
                and start <= float(e.get("at", 0.0)) <= at
                for e in route
            )
        else:
            ended = any(
                e.get("kind") in ENDING | SUSPENDING and e is not d and start < float(e.get("at", 0.0)) <= at
                for e in route
            )  # a later suspending decision replaces this one (escalation, promotion)
        if not ended:
            active.append(
                {
                    "layer": "incident" if kind == "incident_add" else "suspension",
                    "kind": kind,
                    "since": d.get("time"),
                    "until": until,
                    "reason": d.get("reason", ""),
                    **({"mode": d["mode"]} if "mode" in d else {}),
                    **({"rung": d["rung"]} if "rung" in d else {}),
                    "seq": d.get("seq"),
                }
            )
    return active


def verdicts(records: Sequence[EvidenceRecord]) -> dict[str, Any]:
    """A route's verdicts in the window: outcomes per contract and the failing attempts, newest first."""
    by_contract: dict[str, Counter[str]] = {}
    for r in records:
        by_contract.setdefault(r.contract, Counter())[r.outcome] += 1
    failures = [r for r in records if r.outcome == "fail"][:MAX_FAILURES_SHOWN]
    return {
        "by_contract": {c: dict(sorted(counts.items())) for c, counts in sorted(by_contract.items())},
        "failures": [
            {
                "at": format_optional(r.at),
                "contract": r.contract,
                "attempt": r.attempt,
                "reason": r.reason,
                "locale": r.locale,
                "excerpt": " ".join(r.excerpt.split())[:EXCERPT_CHARS],
                "generation_id": r.generation_id,
                "source": r.source,
            }
            for r in failures
        ],
        "records": len(records),
    }


def route_report(
    route: Route, window: Sequence[EvidenceRecord], receiver: Mapping[str, Any], model: str, at: float
) -> dict[str, Any]:
    """One route's part of the trace: its verdicts in the ``window``, the receiver's decisions about it, what
    excluded it ``at`` the time, and whether it is suspended and ignored now (``receiver`` holds what could be
    read of ``decisions``, ``suspensions`` and the ``ignore`` list; None: the receiver could not say)."""
    decisions = receiver.get("decisions") or []
    ignore = receiver.get("ignore")

    def about_it(items: Iterable[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
        return [d for d in items if d.get("model") == model and d.get("provider") == route.provider]

    return {
        **asdict(route),  # provider, provider_name, matched_by
        "verdicts": verdicts([r for r in window if r.provider == route.provider]),
        "decisions": about_it(decisions),
        "excluded_then": excluded_at(decisions, model, route.provider, at),
        "suspended_now": next(iter(about_it(receiver.get("suspensions") or [])), None),
        "in_ignore_list_now": None if ignore is None else route.provider in ignore,
    }
