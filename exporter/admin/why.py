"""``canary admin why MODEL PROVIDER``: one host's routing state, the decisions about it, the failing replies
and the evidence link, on one 80×24 screen (pure: the documents in, text or JSON out).

The evidence link is the one the suspend alert carried (the suspension's ``evidence_url``), else the newest
decision's, else the exporter's ``/v1/evidence`` for the route's failing attempts when the exporter's URL is
known (``--exporter`` or the run record). The replies are that link's newest failing attempts.

Example::

    view = WhyView.build(model, provider, client.suspensions(), client.incidents(), decisions)
    print(render_why(view.with_evidence(link, records, error=None)))
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from pydantic import JsonValue, TypeAdapter

from exporter.admin.tables import contracts_of, decision_row, failing, printable, short_time
from exporter.receiver.bodies import DecisionRecord, Incidents, SuspensionItem, Suspensions
from exporter.receiver.codec import decision_from_json, decision_to_json
from exporter.receiver.state import Decision, Hold, Incident
from exporter.textkit import clip

#: A record of the exporter's ``/v1/evidence`` (the fields shown: at, contract, reason, detail, excerpt).
EvidenceJson = Mapping[str, JsonValue]

DECISIONS_SHOWN = 5
REPLIES_SHOWN = 3
_HOLD, _INCIDENTS = TypeAdapter(Hold | None), TypeAdapter(list[Incident])  # the JSON document's


def with_limit(url: str, limit: int) -> str:
    """``url`` with its ``limit`` query parameter set to ``limit`` (the evidence API pages newest first)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k != "limit"]
    return urlunsplit(parts._replace(query=urlencode([*query, ("limit", str(limit))])))


def exporter_evidence_link(exporter_url: str, model: str, provider: str) -> str:
    """The exporter's failing attempts of one route (every one it keeps, newest first)."""
    query = urlencode({"model": model, "provider": provider, "outcome": "fail"})
    return f"{exporter_url.rstrip('/')}/v1/evidence?{query}"


@dataclass(frozen=True, slots=True)
class WhyView:
    model: str
    provider: str
    mode: str  # the receiver's mode
    suspension: SuspensionItem | None
    hold: Hold | None
    incidents: list[Incident]
    decisions: list[Decision]  # about this route, oldest first
    evidence_link: str | None = None
    replies: Sequence[EvidenceJson] | None = None  # None: unknown (the exporter could not be read)
    evidence_error: str = ""
    notes: list[str] = field(default_factory=list)

    @classmethod
    def build(
        cls,
        model: str,
        provider: str,
        suspensions: Suspensions,
        incidents: Incidents,
        decisions: Sequence[DecisionRecord],
    ) -> WhyView:
        """The route's part of the receiver's listings and decisions (its records, as sent)."""

        def mine(item: SuspensionItem | Hold | Incident) -> bool:
            return item.model == model and item.provider == provider

        return cls(
            model=model,
            provider=provider,
            mode=str(suspensions.mode),
            suspension=next((s for s in suspensions.suspensions if mine(s)), None),
            hold=next((h for h in suspensions.holds if mine(h)), None),
            incidents=[i for i in incidents.incidents if mine(i)],
            decisions=[
                decision_from_json(d)
                for d in decisions
                if (d.get("model"), d.get("provider")) == (model, provider)
            ],
        )

    def recorded_link(self) -> str | None:
        """The evidence link the alert carried: the suspension's, else the newest decision's."""
        if self.suspension is not None and self.suspension.evidence_url:
            return self.suspension.evidence_url
        return next((url for d in reversed(self.decisions) if (url := failing(d)[2])), None)

    def with_evidence(
        self, link: str | None, replies: Sequence[EvidenceJson] | None, error: str = ""
    ) -> WhyView:
        return replace(self, evidence_link=link, replies=replies, evidence_error=error)

    def state(self) -> str:
        """The route's routing state in words, the most excluding first."""
        if self.incidents:
            first = self.incidents[0]
            return f"EXCLUDED by incident {first.id} until {short_time(first.until)}"
        if self.suspension is not None:
            s = self.suspension
            ends = f"rung {s.rung} until {short_time(s.until)}"
            if s.mode == "observe":
                return f"WOULD BE SUSPENDED (observe mode: still routable), {ends}"
            return f"SUSPENDED (excluded from routing), {ends}"
        if self.hold is not None:
            return "LIFTED (held routable until a clean round)"
        return "routable: no suspension, incident or lift"

    def document(self) -> dict[str, JsonValue]:
        return {
            "model": self.model,
            "provider": self.provider,
            "mode": self.mode,
            "state": self.state(),
            "suspension": self.suspension.model_dump(mode="json") if self.suspension else None,
            "hold": _HOLD.dump_python(self.hold, mode="json"),
            "incidents": _INCIDENTS.dump_python(self.incidents, mode="json"),
            "decisions": [decision_to_json(d) for d in self.decisions],
            "evidence_url": self.evidence_link,
            # null: unknown (evidence_error says why)
            "failing_replies": None if self.replies is None else [dict(r) for r in self.replies],
            "evidence_error": self.evidence_error or None,
        }


def _reply_lines(record: EvidenceJson, width: int) -> list[str]:
    at = record.get("at")
    when = datetime.fromtimestamp(at, UTC).strftime("%m-%d %H:%M:%SZ") if isinstance(at, int | float) else "?"
    head = f"{when}  {record.get('contract', '?')}  {record.get('reason', '?')}"
    if detail := str(record.get("detail") or ""):
        head += f": {detail}"
    excerpt = printable(str(record.get("excerpt") or ""))
    return [
        "  " + clip(printable(head), width - 2),
        "    " + clip(f"“{excerpt}”" if excerpt else "(no reply text)", width - 4),
    ]


def render_why(view: WhyView, width: int = 80) -> str:
    """The one-screen answer (at most 24 lines at 80 columns; the evidence link is never cut)."""
    lines = [clip(printable(f"{view.model} · {view.provider}"), width), clip(view.state(), width)]
    contract_source = view.suspension or (view.decisions[-1] if view.decisions else None)
    if contract_source is not None:
        contracts = contracts_of(contract_source)
        said = "; ".join(failing(contract_source)[1]) or "-"
        lines.append(clip(printable(f"contract: {contracts}   reason: {said}"), width))
    shown = view.decisions[-DECISIONS_SHOWN:]
    lines.append(f"decisions ({len(shown)} of {len(view.decisions)}, newest last)")
    for decision in shown:
        cells, reason = decision_row(decision)
        seq, time, kind, _, _, contract = cells
        lines.append("  " + clip(printable(f"{seq:>4} {time} {kind:<15} {contract}  {reason}"), width - 2))
    if not view.decisions:
        lines.append("  none about this host")
    if view.replies is None:
        lines.append(clip(printable(f"failing replies: unknown ({view.evidence_error})"), width))
    else:
        lines.append(f"failing replies ({min(len(view.replies), REPLIES_SHOWN)} newest)")
        for record in view.replies[:REPLIES_SHOWN]:
            lines.extend(_reply_lines(record, width))
        if not view.replies:
            lines.append("  none in the evidence store for this link")
    lines.append("evidence:")
    lines.append(
        view.evidence_link or "  unknown: no alert link; pass --exporter URL (or run from a work dir)"
    )
    lines.extend(clip(printable(note), width) for note in view.notes)
    return "\n".join(lines) + "\n"


__all__ = ["WhyView", "exporter_evidence_link", "render_why", "with_limit"]
