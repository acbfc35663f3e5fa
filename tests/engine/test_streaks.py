"""Streak rules of design.md §6, including the freeze rule and the clean-round definition."""

from __future__ import annotations

from exporter.contracts.base import ProbeResult
from exporter.engine.streaks import Streaks, advance
from exporter.outcomes import Outcome, Reason

M, P = "m/x", "prov/a"


def r(outcome: Outcome) -> ProbeResult:
    return ProbeResult(outcome, Reason.NONE)


def run(*rounds: dict[str, Outcome], weak: frozenset[tuple[str, str]] = frozenset()) -> Streaks:
    streaks = Streaks()
    for outcomes in rounds:
        streaks = advance(streaks, {(M, P): {c: r(o) for c, o in outcomes.items()}}, weak)
    return streaks


def test_fail_advances_and_pass_resets_the_failing_streak() -> None:
    s = run({"ttft": Outcome.FAIL}, {"ttft": Outcome.FAIL})
    assert s.failing[(M, P, "ttft")] == 2
    assert run({"ttft": Outcome.FAIL}, {"ttft": Outcome.PASS}).failing[(M, P, "ttft")] == 0


def test_transport_and_every_non_evidence_outcome_freeze_the_failing_streak() -> None:
    for frozen in (
        Outcome.TRANSPORT,
        Outcome.UNAVAILABLE,
        Outcome.CONFIG,
        Outcome.INCONCLUSIVE,
        Outcome.SKIPPED,
        Outcome.PIN_VIOLATION,
    ):
        s = run({"ttft": Outcome.FAIL}, {"ttft": frozen}, {"ttft": Outcome.FAIL})
        assert s.failing[(M, P, "ttft")] == 2, frozen
        s = run({"ttft": Outcome.FAIL}, {"ttft": frozen})
        assert s.failing[(M, P, "ttft")] == 1, frozen


def test_a_storm_never_advances_any_streak() -> None:
    s = run(*[{"ttft": Outcome.TRANSPORT, "refusal": Outcome.TRANSPORT}] * 5)
    assert s.failing[(M, P, "ttft")] == 0 and s.clean[(M, P)] == 0


def test_clean_round_needs_every_ran_contract_passing_skipped_aside() -> None:
    s = run({"ttft": Outcome.PASS, "structured": Outcome.SKIPPED}, {"ttft": Outcome.PASS})
    assert s.clean[(M, P)] == 2


def test_a_failure_resets_the_clean_streak_and_a_transport_freezes_it() -> None:
    s = run({"ttft": Outcome.PASS}, {"ttft": Outcome.PASS}, {"ttft": Outcome.FAIL, "refusal": Outcome.PASS})
    assert s.clean[(M, P)] == 0
    s = run({"ttft": Outcome.PASS}, {"ttft": Outcome.PASS, "refusal": Outcome.TRANSPORT})
    assert s.clean[(M, P)] == 1


def test_a_pass_of_a_weak_contract_is_not_evidence_of_health() -> None:
    s = run({"refusal": Outcome.PASS}, {"refusal": Outcome.PASS}, weak=frozenset({(M, "refusal")}))
    assert s.clean[(M, P)] == 0


def test_hosts_gone_from_the_round_lose_their_streaks() -> None:
    s = run({"ttft": Outcome.FAIL})
    s = advance(s, {(M, "prov/b"): {"ttft": r(Outcome.PASS)}})
    assert (M, P, "ttft") not in s.failing and (M, P) not in s.clean


def test_a_pass_of_a_weak_contract_does_not_clear_its_failing_streak() -> None:
    weak = frozenset({(M, "refusal")})
    streaks = advance(Streaks(), {(M, P): {"refusal": r(Outcome.FAIL)}})
    streaks = advance(streaks, {(M, P): {"refusal": r(Outcome.PASS)}}, weak)
    assert streaks.failing[(M, P, "refusal")] == 1
    streaks = advance(streaks, {(M, P): {"refusal": r(Outcome.PASS)}})
    assert streaks.failing[(M, P, "refusal")] == 0


def test_failing_since_is_the_start_of_the_round_the_streak_began_in_whatever_the_rounds_took() -> None:
    """Rounds that start 95 s apart at a 30 s interval: the streak's start is the first failing round's."""
    key = (M, P, "ttft")
    starts_and_outcomes = [
        (1000.0, Outcome.PASS),
        (1095.5, Outcome.FAIL),  # the streak begins here
        (1190.0, Outcome.TRANSPORT),  # frozen: the streak and its start stay
        (1285.0, Outcome.FAIL),
    ]
    streaks = Streaks()
    for started_at, outcome in starts_and_outcomes:
        streaks = advance(streaks, {(M, P): {"ttft": r(outcome)}}, started_at=started_at)
    assert streaks.failing[key] == 2 and streaks.failing_since[key] == 1095.5
    streaks = advance(streaks, {(M, P): {"ttft": r(Outcome.PASS)}}, started_at=1380.0)
    assert key not in streaks.failing_since  # no streak, no start
    streaks = advance(streaks, {(M, P): {"ttft": r(Outcome.FAIL)}}, started_at=1475.0)
    assert streaks.failing_since[key] == 1475.0  # a new streak, a new start
    assert advance(streaks, {}, started_at=1570.0).failing_since == {}  # a host gone from discovery
