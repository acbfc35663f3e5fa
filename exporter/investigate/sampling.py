"""Sending the comparison's samples (the I/O shell): N pinned single attempts per host per contract.

Everything is the engine's: the model plans and gateway client (``build_plans``: one client, the same
pinning), ``ProbeTarget``/``ProbeContext``, and each contract's ``sample(ctx)`` (one request judged once, with
the same judge as the rounds, no confirmations). Requests go out sequentially per host and concurrently
across hosts under one bound (``rounds.concurrency``), interleaving the contracts so a host that changes
midway is seen by all of them. Each sample gets a fresh probe memory, so samples are independent (a
round's "same locale again after a fail" rule would make them dependent); ``round_number`` is the sample
number, so locale-rotating contracts rotate unless ``locale`` pins one.

``resolve`` does every check that needs the gateway's endpoint list (one discovery request, no chat) and
raises ``BadInput`` naming the argument; ``collect`` sends nothing until it is called.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from exporter.contracts.base import Contract, ProbeContext, ProbeTarget
from exporter.engine.rounds import Gateway, ModelPlan, run_contract
from exporter.equality.sampling import across_hosts
from exporter.evidence.store import EvidenceRecord, attempt_records
from exporter.gateway.types import Endpoint, GatewayError
from exporter.investigate.compare import Sample
from exporter.outcomes import Outcome

log = logging.getLogger("exporter.investigate")

SOURCE = "investigate"  # the evidence history's ``source`` of these samples
ROUND = 0  # investigate samples belong to no round


class BadInput(ValueError):
    """An argument the comparison cannot run with: ``BadInput("--providers", "what is wrong")``."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}")


def require_known(parameter: str, wanted: Sequence[str], known: Sequence[str], what: str) -> None:
    """Raise ``BadInput`` naming every entry of ``wanted`` not in ``known`` (and listing what is)."""
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise BadInput(
            parameter, f"{', '.join(map(repr, unknown))} {what} (known: {', '.join(sorted(known)) or 'none'})"
        )


@dataclass(frozen=True, slots=True)
class Work:
    """What ``collect`` sends: these targets (each with its gateway), these contracts, ``samples`` times."""

    model: str
    targets: tuple[tuple[ProbeTarget, Gateway], ...]
    contracts: tuple[Contract, ...]
    samples: int
    locale: str | None = None
    left_out: tuple[str, ...] = ()  # live positive controls not compared (known bad by configuration)

    @property
    def providers(self) -> list[str]:
        return [target.provider for target, _ in self.targets]

    @property
    def requests(self) -> int:
        """An upper bound on the chat requests ``collect`` sends (skipped pairs send none)."""
        return len(self.targets) * len(self.contracts) * self.samples


async def resolve(
    plans: Sequence[ModelPlan],
    contracts: Sequence[Contract],
    *,
    providers: Sequence[str] | None,
    samples: int,
    locale: str | None,
) -> Work:
    """Discover the model's hosts (every route of it: the gateway and direct hosts) and check ``providers``
    against them; raises ``BadInput``. Discovery is the only request: no chat is sent.

    Live positive controls of a chosen contract (e.g. known-filtering hosts) are left out unless named in
    ``providers``: they are known bad, and pooled with the others they would hide a real outlier.
    """
    model = plans[0].model
    found: dict[str, tuple[ModelPlan, Endpoint]] = {}
    for plan in plans:
        listed = await plan.gateway.discover(plan.model)
        if isinstance(listed, GatewayError):
            if listed.outcome is Outcome.UNAVAILABLE:
                raise BadInput("--model", f"the gateway does not serve {model!r}: {listed.detail}")
            raise BadInput("--model", f"could not list the hosts of {model!r}: {listed.detail}")
        for endpoint in listed:
            found.setdefault(endpoint.tag, (plan, endpoint))
    if not found:
        raise BadInput("--model", f"the gateway lists no hosts for {model!r}")
    if providers:
        require_known("--providers", providers, list(found), f"not among the hosts of {model}")
        chosen = list(dict.fromkeys(providers))
    else:
        chosen = list(found)
    targets: list[tuple[ProbeTarget, Gateway]] = []
    left_out: list[str] = []
    for tag in chosen:
        plan, endpoint = found[tag]
        target = plan.target(endpoint)
        if not providers and any(c.live_control(target) for c in contracts):
            left_out.append(tag)
        else:
            targets.append((target, plan.gateway))
    if len(targets) < 2:
        raise BadInput(
            "--providers", f"a comparison needs at least two hosts, got {', '.join(chosen) or 'none'}"
        )
    return Work(model, tuple(targets), tuple(contracts), samples, locale, tuple(left_out))


async def collect(
    work: Work,
    *,
    concurrency: int,
    on_sample: Callable[[], None] = lambda: None,
    record: Callable[[Sequence[EvidenceRecord]], None] | None = None,
) -> list[Sample]:
    """Send every sample of ``work`` and return them judged; ``record`` receives each host's evidence
    records in one call (the evidence store, when one is configured), off the event loop."""

    async def host(target: ProbeTarget, gateway: Gateway) -> list[Sample]:
        out: list[Sample] = []
        records: list[EvidenceRecord] = []
        for number in range(1, work.samples + 1):
            for contract in work.contracts:
                ctx = ProbeContext(target, gateway, number, {}, locale=work.locale)
                result, at = await run_contract(contract, ctx, once=True), time.time()
                on_sample()
                kept = attempt_records(
                    result, at=at, round_number=ROUND, model=work.model, provider=target.provider,
                    contract=contract.name, source=SOURCE,
                )  # fmt: skip
                records += kept
                # One attempt (a sample confirms nothing), read as the history is; a skipped pair has no
                # record (nothing was sent), and the comparison counts it as excluded.
                skipped = Sample(target.provider, contract.name, result.outcome.value, result.reason.value)
                out.append(from_record(kept[0]) if kept else skipped)
        if record is not None and records:
            await asyncio.to_thread(record, records)
        return out

    per_host = await across_hosts(work.targets, concurrency, host)
    return [sample for samples in per_host for sample in samples]


def from_record(record: EvidenceRecord) -> Sample:
    """The comparison's view of one attempt: kept in the evidence history, or just sent."""
    a = record.result
    return Sample(
        provider=record.provider,
        contract=record.contract,
        outcome=a.outcome,
        reason=a.reason,
        excerpt=a.excerpt or a.detail,
        locale=a.locale,
        tokens=a.usage.prompt_tokens + a.usage.completion_tokens,
        cost_usd=a.usage.cost_usd,
    )
