"""Failing and clean streaks (design.md §6): a pure function of the previous streaks and a round's results.

- Per (model, provider, contract): ``fail`` advances the failing streak, ``pass`` resets it (unless the
  contract is weak this round: such a pass is not evidence), every other outcome **freezes** it
  (transport errors never push a host towards suspension, and never clear it).
- Per (model, provider): a round is *clean* when no contract failed, at least one passed, and every
  contract that ran passed with a sound probe (a pass of a weak contract is not evidence). A clean round
  advances the clean streak, a failing one resets it, anything else freezes it (the same freeze rule: a
  storm between two clean rounds neither helps nor hurts a host's recovery).
- Hosts absent from the round (gone from discovery) are dropped, and so are their series.
- Per (model, provider, contract) with a failing streak: ``failing_since``, the wall-clock start of the round
  the streak began in (the evidence link's window starts there, whatever each round took).
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from dataclasses import dataclass, field
from types import MappingProxyType

from exporter.contracts.base import ProbeResult
from exporter.outcomes import Outcome

HostKey = tuple[str, str]  # (model, provider)
ContractKey = tuple[str, str, str]  # (model, provider, contract)
WeakKey = tuple[str, str]  # (model, contract)


@dataclass(frozen=True, slots=True)
class Streaks:
    failing: Mapping[ContractKey, int] = field(default_factory=lambda: MappingProxyType({}))
    clean: Mapping[HostKey, int] = field(default_factory=lambda: MappingProxyType({}))
    failing_since: Mapping[ContractKey, float] = field(default_factory=lambda: MappingProxyType({}))


def round_is_clean(model: str, results: Mapping[str, ProbeResult], weak: Set[WeakKey]) -> bool | None:
    """True (clean), False (a contract failed) or None (no verdict: freeze the clean streak)."""
    outcomes = {name: r.outcome for name, r in results.items() if r.outcome is not Outcome.SKIPPED}
    if any(o is Outcome.FAIL for o in outcomes.values()):
        return False
    if not outcomes:
        return None
    sound = all(o is Outcome.PASS and (model, name) not in weak for name, o in outcomes.items())
    return True if sound else None


def advance(
    previous: Streaks,
    results: Mapping[HostKey, Mapping[str, ProbeResult]],
    weak: Set[WeakKey] = frozenset(),
    started_at: float = 0.0,
) -> Streaks:
    """The streaks after one round that started at ``started_at`` (unix seconds). ``results`` has every host
    probed this round, by contract name."""
    failing: dict[ContractKey, int] = {}
    clean: dict[HostKey, int] = {}
    since: dict[ContractKey, float] = {}
    for (model, provider), by_contract in results.items():
        for contract, result in by_contract.items():
            key = (model, provider, contract)
            before = previous.failing.get(key, 0)
            if result.outcome is Outcome.FAIL:
                failing[key] = before + 1
                since[key] = previous.failing_since.get(key, started_at) if before else started_at
            elif result.outcome is Outcome.PASS and (model, contract) not in weak:
                failing[key] = 0
            else:  # non-evidence, or a pass of a weak contract (not evidence of health either)
                failing[key] = before
                if before and key in previous.failing_since:
                    since[key] = previous.failing_since[key]
        verdict = round_is_clean(model, by_contract, weak)
        before_clean = previous.clean.get((model, provider), 0)
        clean[(model, provider)] = before_clean if verdict is None else before_clean + 1 if verdict else 0
    return Streaks(MappingProxyType(failing), MappingProxyType(clean), MappingProxyType(since))
