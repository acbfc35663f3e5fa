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

With ``--user`` the router's served-route journal (``exporter.router.journal``) says which route(s) served
that user's requests in the window (``served_routes``); a display name that several tags share is listed
as ambiguous, every candidate named, never guessed.

A source that could not be read is *unknown*, never "no": a route report's fields that depend on it are
None and its ``unknown`` mapping says why (``route_report``).

The reconstruction (``excluded_at``), the route matching (``routes_for``, ``served_routes``) and the model
name resolution (``resolve_model``, ``suggest_models``) are pure; the shell (``exporter.commands.trace``)
reads the journal, the evidence history, the gateway and the receiver's public read API.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass

from pydantic import JsonValue

from exporter.evidence.store import EvidenceRecord
from exporter.gateway.types import Endpoint
from exporter.receiver.state import Kind
from exporter.timestamps import format_optional

# Decision kinds that start an exclusion window, and those that end one.
SUSPENDING = frozenset({Kind.SUSPEND, Kind.ESCALATE, Kind.OBSERVE, Kind.PROMOTE})
ENDING = frozenset({Kind.LIFT, Kind.RECOVER, Kind.EXPIRE})
EXCERPT_CHARS = 160
MAX_FAILURES_SHOWN = 10


@dataclass(frozen=True, slots=True)
class Route:
    """One candidate route of the traced request and why it was chosen."""

    provider: str
    provider_name: str
    # "evidence" (our probe's generation id), "display_name", "--provider", "model", "journal" (the tag
    # the gateway named), "journal_display_name" (the one tag of that name), "journal_ambiguous" (one of
    # several tags of that name), "journal_unmapped" (a display name no known tag has: tag unknown)
    matched_by: str
    requests: int = 0  # requests of the traced user this route served in the window (journal only)


_DATED = re.compile(r"(?P<base>.+)-(?P<date>20[0-9]{6})")


def resolve_model(name: str, known: Iterable[str]) -> str | None:
    """The known model ``name`` means: itself, the model of a dated permaslug (``acme/x-20260915`` is
    ``acme/x``), or the same slug in another case; None when none.

    >>> resolve_model("acme/roleplay-large-20260915", ["acme/roleplay-large"])
    'acme/roleplay-large'
    """
    slugs = list(dict.fromkeys(known))
    if name in slugs:
        return name
    dated = _DATED.fullmatch(name)
    if dated is not None and dated["base"] in slugs:
        return dated["base"]
    folded = {s.casefold(): s for s in slugs}
    return folded.get(name.casefold())


def suggest_models(name: str, known: Iterable[str], limit: int = 3) -> list[str]:
    """Known slugs a short or misspelt ``name`` may mean (``kimi-k2`` -> ``moonshotai/kimi-k2-0905``).

    >>> suggest_models("kimi-k2", ["moonshotai/kimi-k2-0905", "acme/other"])
    ['moonshotai/kimi-k2-0905']
    """
    slugs = list(dict.fromkeys(known))
    short = name.rpartition("/")[2].casefold()
    hits = [s for s in slugs if short and short in s.rpartition("/")[2].casefold()]
    if not hits:
        hits = difflib.get_close_matches(name, slugs, n=limit, cutoff=0.6)
    return hits[:limit]


def served_routes(served: Iterable[tuple[str | None, str | None]], names: Mapping[str, str]) -> list[Route]:
    """The routes that served the journal's requests, from each request's (endpoint tag, display name);
    ``names`` maps known tags to their display names (from the gateway's listing or the evidence history).

    A request whose tag the gateway named is that route; a display name with one tag is that tag; a display
    name that several tags share gives each of them, ``journal_ambiguous``; a display name no known tag has
    stays a display name, ``journal_unmapped`` (its tag, so its verdicts and exclusions, unknown).
    """
    by_name: dict[str, list[str]] = {}
    for known_tag, known_name in names.items():
        by_name.setdefault(known_name.casefold(), []).append(known_tag)
    counts: Counter[tuple[str, str, str]] = Counter()
    for tag, display in served:
        if tag:
            counts[(tag, names.get(tag, display or ""), "journal")] += 1
            continue
        if not display:
            continue
        tags = sorted(by_name.get(display.casefold(), []))
        if not tags:
            counts[(display, display, "journal_unmapped")] += 1
        for t in tags:
            counts[(t, display, "journal_display_name" if len(tags) == 1 else "journal_ambiguous")] += 1
    return [Route(p, n, how, k) for (p, n, how), k in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


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


Json = dict[str, JsonValue]


def _number(value: JsonValue) -> float:
    return float(value) if isinstance(value, int | float) else 0.0


def excluded_at(decisions: Iterable[JsonValue], model: str, provider: str, at: float) -> list[JsonValue]:
    """What excluded (or, in observe mode, would have excluded) the route at ``at``, from the decision log.

    A suspension counts from its decision until its ``until``, unless a lift, recovery or expiry of the route
    came first; an incident from its addition until its ``until`` or its removal.
    """
    route = [
        d
        for d in decisions
        if isinstance(d, dict) and (d.get("model"), d.get("provider")) == (model, provider)
    ]
    route.sort(key=lambda d: (_number(d.get("at")), _number(d.get("seq"))))
    active: list[JsonValue] = []
    for d in route:
        start, kind = _number(d.get("at")), d.get("kind")
        until = d.get("until")
        if start > at or kind not in SUSPENDING | {Kind.INCIDENT_ADD}:
            continue
        if isinstance(until, int | float) and until <= at:
            continue
        if kind == Kind.INCIDENT_ADD:
            ended = any(
                e.get("kind") == Kind.INCIDENT_REMOVE
                and e.get("incident_id") == d.get("incident_id")
                and start <= _number(e.get("at")) <= at
                for e in route
            )
        else:
            ended = any(
                e.get("kind") in ENDING | SUSPENDING and e is not d and start < _number(e.get("at")) <= at
                for e in route
            )  # a later suspending decision replaces this one (escalation, promotion)
        if not ended:
            active.append(
                {
                    "layer": "incident" if kind == Kind.INCIDENT_ADD else "suspension",
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


def verdicts(records: Sequence[EvidenceRecord]) -> Json:
    """A route's verdicts in the window: outcomes per contract and the failing attempts, newest first."""
    by_contract: dict[str, Counter[str]] = {}
    for r in records:
        by_contract.setdefault(r.contract, Counter())[r.result.outcome] += 1
    failures = [r for r in records if r.result.outcome == "fail"][:MAX_FAILURES_SHOWN]
    return {
        "by_contract": {c: dict(sorted(counts.items())) for c, counts in sorted(by_contract.items())},
        "failures": [
            {
                "at": format_optional(r.at),
                "contract": r.contract,
                "attempt": r.attempt,
                "reason": r.result.reason,
                "locale": r.result.locale,
                "excerpt": " ".join(r.result.excerpt.split())[:EXCERPT_CHARS],
                "generation_id": r.result.reply.generation_id,
                "source": r.source,
            }
            for r in failures
        ],
        "records": len(records),
    }


def route_report(
    route: Route,
    window: Sequence[EvidenceRecord] | None,
    receiver: Mapping[str, JsonValue] | None,
    model: str,
    at: float,
    unknown: Mapping[str, str] | None = None,
) -> Json:
    """One route's part of the trace: its verdicts in the ``window``, the receiver's decisions about it, what
    excluded it ``at`` the time, and whether it is suspended and ignored now.

    ``receiver`` holds what could be read of ``decisions``, ``suspensions`` and the ``ignore`` list (a key
    missing: that read failed); ``window`` is None when the evidence history could not be read. ``unknown``
    says why a source could not be read (``{"receiver": "...", "evidence": "..."}``); every field that
    depends on it is then None, and the report's own ``unknown`` maps each such field to the reason.
    """
    why = dict(unknown or {})
    reads = receiver or {}
    unmapped = route.matched_by == "journal_unmapped"
    tag_unknown = f"the journal names the display name {route.provider_name!r}, which no known tag has"
    fields_unknown: dict[str, str] = {}

    def read(name: str) -> list[JsonValue] | None:
        if unmapped:
            fields_unknown[name] = tag_unknown
            return None
        if not isinstance(found := reads.get(name), list):
            fields_unknown[name] = why.get("receiver") or f"the receiver's {name} could not be read"
            return None
        return found

    def about_it(items: list[JsonValue]) -> list[JsonValue]:
        return [
            d
            for d in items
            if isinstance(d, dict) and (d.get("model"), d.get("provider")) == (model, route.provider)
        ]

    decisions, suspensions, ignore = read("decisions"), read("suspensions"), read("ignore")
    report: Json = {
        **asdict(route),  # provider, provider_name, matched_by, requests
        "verdicts": None,
        "decisions": None if decisions is None else about_it(decisions),
        "excluded_then": None if decisions is None else excluded_at(decisions, model, route.provider, at),
        "suspended_now": None if suspensions is None else next(iter(about_it(suspensions)), None),
        "in_ignore_list_now": None if ignore is None else route.provider in ignore,
    }
    said: Json = {}
    for name, source in (("decisions", "decisions"), ("excluded_then", "decisions"),
                         ("suspended_now", "suspensions"), ("in_ignore_list_now", "ignore")):  # fmt: skip
        if source in fields_unknown:
            said[name] = fields_unknown[source]
    if unmapped:
        said["verdicts"] = tag_unknown
    elif window is None:
        said["verdicts"] = why.get("evidence") or "no evidence history"
    else:
        report["verdicts"] = verdicts([r for r in window if r.provider == route.provider])
    report["unknown"] = said
    return report
