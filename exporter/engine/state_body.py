"""``GET /v1/state``: the exporter's last round as one typed body, built here and read back by the console.

Per model and provider, each contract's outcome, reason, failing streak and (bounded) detail; a failing
contract's newest failing attempt in short (the full record is in ``/v1/evidence``). Fields that are
unset are left out (``None`` is never sent for them), except ``completed_at`` and ``duration_seconds``,
which are null before the first round.

Example::

    body = state_body(snapshot)                      # what the exporter serves
    body.models["m/x"].providers["a/fp8"].contracts[contract].outcome
    StateBody.model_validate_json(response.content)  # what a reader gets back
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from exporter.engine.snapshot import Snapshot
from exporter.evidence.store import DETAIL_MAX_CHARS, EvidenceRecord
from exporter.outcomes import Outcome, Reason
from exporter.timestamps import format_optional
from exporter.web.models import Body

STATE_EXCERPT_CHARS = 200

#: An optional field sent only when set.
_OPTIONAL = Field(default=None, exclude_if=lambda value: value is None)


class Failure(Body):
    """The newest failing attempt of a contract, in short."""

    at: str | None
    round: int
    attempt: int
    reason: str
    detail: str
    excerpt: str
    locale: str | None = _OPTIONAL
    generation_id: str | None = _OPTIONAL


class ContractState(Body):
    outcome: Outcome
    reason: Reason
    failing_streak: int
    detail: str
    ttft_seconds: float | None = _OPTIONAL
    locale: str | None = _OPTIONAL
    last_failure: Failure | None = _OPTIONAL


class ProviderState(Body):
    provider_name: str
    role: Literal["control", "probe"]  # control: a known-filtering positive control
    contracts: dict[str, ContractState]
    clean_streak: int


class ModelState(Body):
    providers: dict[str, ProviderState]
    weak: dict[str, list[str]]  # contract -> why its probe is weak
    discovery_failed: bool
    discovery_error: str | None = _OPTIONAL


class StateBody(Body):
    round: int
    completed_at: str | None
    duration_seconds: float | None
    models: dict[str, ModelState]


def _failure(record: EvidenceRecord) -> Failure:
    return Failure(
        at=format_optional(record.at, "seconds"),
        round=record.round,
        attempt=record.attempt,
        reason=str((a := record.result).reason),
        detail=a.detail[:STATE_EXCERPT_CHARS],
        excerpt=a.excerpt[:STATE_EXCERPT_CHARS],
        locale=a.locale or None,
        generation_id=a.reply.generation_id or None,
    )


def state_body(snap: Snapshot) -> StateBody:
    """The last round of ``snap``: per model and provider, each contract's outcome, reason and streak."""
    report = snap.last_round
    models: dict[str, ModelState] = {}
    for model, endpoints in sorted(snap.endpoints.items()):
        providers: dict[str, ProviderState] = {}
        for e in endpoints:
            key = (model, e.tag)
            results = report.results.get(key) if report else None
            control = report.controls.get(key) if report else None
            contracts: dict[str, ContractState] = {}
            for name, r in sorted((results or control or {}).items()):
                failure = snap.last_failures.get((model, e.tag, name))
                contracts[name] = ContractState(
                    outcome=r.outcome,
                    reason=r.reason,
                    failing_streak=snap.streaks.failing.get((model, e.tag, name), 0),
                    detail=r.detail[:DETAIL_MAX_CHARS],  # the evidence store's bound
                    ttft_seconds=round(r.ttft_seconds, 4) if r.ttft_seconds is not None else None,
                    locale=r.locale or None,
                    last_failure=_failure(failure) if failure is not None else None,
                )
            providers[e.tag] = ProviderState(
                provider_name=e.provider_name,
                role="control" if control is not None else "probe",
                contracts=contracts,
                clean_streak=snap.streaks.clean.get(key, 0),
            )
        weak = report.weak if report else {}
        errors = report.discovery_errors if report else {}
        models[model] = ModelState(
            providers=providers,
            weak={c: list(why) for (m, c), why in sorted(weak.items()) if m == model},
            discovery_failed=model in errors,
            discovery_error=errors.get(model) or None,
        )
    return StateBody(
        round=snap.rounds_total,
        completed_at=format_optional(snap.completed_at, "seconds"),
        duration_seconds=round(report.duration_seconds, 3) if report else None,
        models=models,
    )
