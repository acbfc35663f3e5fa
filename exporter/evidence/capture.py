"""From judged probe results to evidence records (pure): one record per attempt, confirmations included."""

from __future__ import annotations

from exporter.evidence.store import EvidenceRecord
from exporter.outcomes import Outcome, ProbeResult


def attempt_records(
    result: ProbeResult,
    *,
    at: float,
    round_number: int,
    model: str,
    provider: str,
    contract: str,
    source: str = "round",
) -> list[EvidenceRecord]:
    """The records of one contract's probe of one host: attempt 1 is the probe, 2.. its confirmations.

    A ``skipped`` result sent nothing and has no record.

    >>> from exporter.outcomes import Reason
    >>> first = ProbeResult(Outcome.FAIL, Reason.MIXING, excerpt="Olá ... Hola")
    >>> decided = ProbeResult(Outcome.FAIL, Reason.MIXING, attempts=(first, first, first))
    >>> [r.attempt for r in attempt_records(decided, at=0, round_number=1, model="m/x", provider="p",
    ...                                      contract="language")]
    [1, 2, 3]
    """
    if result.outcome is Outcome.SKIPPED:
        return []
    return [
        EvidenceRecord(
            at=at,
            round=round_number,
            model=model,
            provider=provider,
            contract=contract,
            attempt=number,
            locale=attempt.locale,
            outcome=attempt.outcome,
            reason=attempt.reason,
            detail=attempt.detail,
            evidence=attempt.evidence,
            excerpt=attempt.excerpt,
            finish_reason=attempt.finish_reason,
            ttft_seconds=attempt.ttft_seconds,
            prompt_tokens=attempt.usage.prompt_tokens,
            completion_tokens=attempt.usage.completion_tokens,
            cost_usd=attempt.usage.cost_usd,
            generation_id=attempt.generation_id,
            served_by=attempt.served_by,
            source=source,
        )
        for number, attempt in enumerate(result.attempts or (result,), start=1)
    ]
