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
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from exporter.admin.tables import contracts_of, decision_row, explanation, printable, short_time
from exporter.textkit import clip

DECISIONS_SHOWN = 5
REPLIES_SHOWN = 3


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
    suspension: Mapping[str, Any] | None
    hold: Mapping[str, Any] | None
    incidents: list[Mapping[str, Any]]
    decisions: list[Mapping[str, Any]]  # about this route, oldest first
    evidence_link: str | None = None
    replies: Sequence[Mapping[str, Any]] | None = None  # None: unknown (the exporter could not be read)
    evidence_error: str = ""
    notes: list[str] = field(default_factory=list)

    @classmethod
    def build(
        cls,
        model: str,
        provider: str,
        suspensions: Mapping[str, Any],
        incidents: Mapping[str, Any],
        decisions: Sequence[Mapping[str, Any]],
    ) -> WhyView:
        def mine(item: Mapping[str, Any]) -> bool:
            return item.get("model") == model and item.get("provider") == provider

        return cls(
            model=model,
            provider=provider,
            mode=str(suspensions.get("mode", "?")),
            suspension=next((s for s in suspensions.get("suspensions", []) if mine(s)), None),
            hold=next((h for h in suspensions.get("holds", []) if mine(h)), None),
            incidents=[i for i in incidents.get("incidents", []) if mine(i)],
            decisions=[d for d in decisions if mine(d)],
        )

    def recorded_link(self) -> str | None:
        """The evidence link the alert carried: the suspension's, else the newest decision's."""
        if self.suspension is not None and self.suspension.get("evidence_url"):
            return str(self.suspension["evidence_url"])
        for decision in reversed(self.decisions):
            if url := explanation(decision).get("evidence_url"):
                return str(url)
        return None

    def with_evidence(
        self, link: str | None, replies: Sequence[Mapping[str, Any]] | None, error: str = ""
    ) -> WhyView:
        return replace(self, evidence_link=link, replies=replies, evidence_error=error)

    def state(self) -> str:
        """The route's routing state in words, the most excluding first."""
        if self.incidents:
            first = self.incidents[0]
            return f"EXCLUDED by incident {first.get('id')} until {short_time(first.get('until'))}"
        if self.suspension is not None:
            s = self.suspension
            ends = f"rung {s.get('rung')} until {short_time(s.get('until'))}"
            if s.get("mode") == "observe":
                return f"WOULD BE SUSPENDED (observe mode: still routable), {ends}"
            return f"SUSPENDED (excluded from routing), {ends}"
        if self.hold is not None:
            return "LIFTED (held routable until a clean round)"
        return "routable: no suspension, incident or lift"

    def document(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "provider": self.provider,
            "mode": self.mode,
            "state": self.state(),
            "suspension": self.suspension,
            "hold": self.hold,
            "incidents": self.incidents,
            "decisions": self.decisions,
            "evidence_url": self.evidence_link,
            "failing_replies": self.replies,  # null: unknown (evidence_error says why)
            "evidence_error": self.evidence_error or None,
        }


def _reply_lines(record: Mapping[str, Any], width: int) -> list[str]:
    at = record.get("at")
    when = (
        datetime.fromtimestamp(at, UTC).strftime("%m-%d %H:%M:%SZ") if isinstance(at, (int, float)) else "?"
    )
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
        reasons = explanation(contract_source).get("failing_reasons") or []
        said = "; ".join(str(r) for r in reasons) if isinstance(reasons, list) and reasons else "-"
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
