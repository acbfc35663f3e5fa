"""The decision function: ladder, re-suspension, idempotency, lifts, recovery, floor, observe mode."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from exporter.receiver.decide import (
    Policy,
    Refused,
    decide_expiry,
    decide_incident_add,
    decide_lift,
    decide_notification,
)
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.ladder import Ladder
from exporter.receiver.merge import excluded_hosts, ignore_entries
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.state import Decision, Kind, Mode, State

from .helpers import DAY, T0, alert, payload, records

POLICY = Policy(
    Mode.ENFORCE,
    Ladder((DAY, 3 * DAY, 7 * DAY), 14 * DAY),
    min_routable_hosts=2,
    builtin=(),
    discovered_horizon=DAY,
)


def note(*alerts: dict[str, Any]) -> Notification:
    n = parse_notification(payload(*alerts))
    assert isinstance(n, Notification)
    return n


def run(state: State, n: Notification, now: float, policy: Policy = POLICY) -> tuple[State, list[Decision]]:
    state, decisions = decide_notification(state, n, now, policy)
    return state, list(decisions)


def expiry(state: State, now: float, policy: Policy = POLICY) -> tuple[State, list[Decision]]:
    state, decisions = decide_expiry(state, now, policy)
    return state, list(decisions)


ROUTE = ("m/x", "a/1")


def kinds(decisions: list[Decision]) -> list[str]:
    return [str(d.kind) for d in decisions]


def test_first_offense_suspends_for_one_day_and_repeats_are_duplicates() -> None:
    state, d = run(State(), note(alert("a/1")), T0)
    assert kinds(d) == ["suspend"] and d[0].until == T0 + DAY and d[0].rung == 1
    state2, d2 = run(state, note(alert("a/1")), T0 + 600)
    assert kinds(d2) == ["duplicate"]
    assert records(state2).suspensions == records(state).suspensions


def test_still_failing_host_is_renewed_at_the_next_rung_the_moment_its_suspension_ends() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    # No repeat of the alert is needed: the episode was never resolved, so the sweep at the end renews it.
    state, d = expiry(state, T0 + DAY)
    assert kinds(d) == ["expire", "escalate"] and d[1].rung == 2 and d[1].until == T0 + DAY + 3 * DAY
    assert d[1].reason.startswith("renewed at rung 2 for 3d until ")
    assert "the route still failed when its rung-1 suspension ended" in d[1].reason
    assert records(state).suspensions[ROUTE].rung == 2 and d[1].source == "clock"
    state, d = run(state, note(alert("a/1")), T0 + DAY + 60)  # the repeat finds it suspended
    assert kinds(d) == ["duplicate"] and not d[0].journaled
    state, d = expiry(state, T0 + 4 * DAY + 1)
    assert kinds(d) == ["expire", "escalate"] and d[1].rung == 3 and d[1].until - d[1].at == 7 * DAY
    state, d = expiry(state, T0 + 11 * DAY + 1)
    assert kinds(d) == ["expire", "escalate"] and d[1].rung == 4 and d[1].until - d[1].at == 7 * DAY


def test_a_resolved_episode_expires_and_its_late_repeat_still_suspends_again() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = run(state, note(alert("a/1", status="resolved")), T0 + 3600)
    assert kinds(d) == ["ignored"] and d[0].journaled and ROUTE in records(state).suspensions  # never lifts
    state, d = expiry(state, T0 + DAY)
    assert kinds(d) == ["expire"] and not records(state).suspensions
    assert "still firing" not in d[0].reason
    # A repeat of that episode after all (a partition between Prometheus and Alertmanager ended): as before.
    state, d = run(state, note(alert("a/1")), T0 + DAY + 60)
    assert kinds(d) == ["escalate"] and d[0].rung == 2


def test_renewal_follows_any_still_firing_episode_of_the_route_such_as_a_second_replicas() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = run(state, note(alert("a/1", starts_at=T0 - 3000)), T0 + 60)  # replica 2, other startsAt
    assert kinds(d) == ["duplicate"] and d[0].journaled
    state, _ = run(state, note(alert("a/1", status="resolved")), T0 + 3600)  # replica 1's episode ends
    state, d = expiry(state, T0 + DAY)
    assert (
        kinds(d) == ["expire", "escalate"]
        and d[1].episode == note(alert("a/1", starts_at=T0 - 3000)).alerts[0].episode
    )
    state, _ = run(state, note(alert("a/1", starts_at=T0 - 3000, status="resolved")), T0 + DAY + 60)
    state, d = expiry(state, T0 + 4 * DAY)
    assert kinds(d) == ["expire"] and not records(state).suspensions


def test_a_resolution_delivered_before_its_firing_still_prevents_renewal() -> None:
    state, _ = run(State(), note(alert("a/1", status="resolved")), T0)  # one Alertmanager is behind
    state, d = run(state, note(alert("a/1")), T0 + 30)
    assert kinds(d) == ["suspend"]
    state, d = expiry(state, T0 + DAY + 30)
    assert kinds(d) == ["expire"] and not records(state).suspensions


def test_lifted_and_recovered_routes_are_not_renewed() -> None:
    state, _ = run(State(), note(alert("a/1"), alert("b/1")), T0)
    lifted = decide_lift(state, "m/x", "a/1", "false positive", T0 + 60, POLICY)
    assert not isinstance(lifted, Refused)
    state, _ = lifted
    state, d = run(state, note(alert("b/1", action="recover", starts_at=T0 + 100)), T0 + 120)
    assert kinds(d) == ["recover"]
    state, d = expiry(state, T0 + 2 * DAY)
    assert d == [] and not records(state).suspensions


def test_a_renewed_suspension_still_recovers_early_on_a_clean_round_that_began_before_it() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = expiry(state, T0 + DAY)  # renewed, although the route turned clean 10 minutes earlier
    assert kinds(d) == ["expire", "escalate"]
    state, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + DAY - 600)), T0 + DAY + 30)
    assert kinds(d) == ["recover"] and not records(state).suspensions


def test_renewal_obeys_the_floor_and_observe_mode() -> None:
    observe = replace(POLICY, mode=Mode.OBSERVE)
    state, _ = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1")), T0, observe)
    state, d = expiry(state, T0 + DAY, observe)
    assert kinds(d) == ["expire", "observe"] and d[1].rung == 2
    assert d[1].reason.startswith("would renew (observe mode) at rung 2")
    assert ignore_entries("m/x", (), state.part("m/x"), T0 + DAY) == ()
    # An administrator excluded b/1 meanwhile (forced); a/1's renewal would leave one host of three.
    added = decide_incident_add(state, "m/x", "b/1", "maintenance", None, T0 + DAY + 60, observe, True)
    assert not isinstance(added, Refused)
    state, d = expiry(added[0], T0 + 4 * DAY, observe)
    assert kinds(d) == ["expire", "floor_block"] and d[1].reason.startswith("not renewed at its end (rung 2)")
    assert ROUTE not in records(state).suspensions


def test_the_ladder_resets_after_fourteen_clean_days() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = run(state, note(alert("a/1", starts_at=T0 + 20 * DAY)), T0 + 16 * DAY)
    assert d[-1].kind is Kind.SUSPEND and d[-1].rung == 1


def test_resolved_never_lifts_and_a_lift_is_not_undone_by_the_same_episode() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = run(state, note(alert("a/1", status="resolved")), T0 + 60)
    assert kinds(d) == ["ignored"] and ("m/x", "a/1") in records(state).suspensions
    lifted = decide_lift(state, "m/x", "a/1", "false positive", T0 + 120, POLICY)
    assert not isinstance(lifted, Refused)
    state, d = lifted
    assert kinds(list(d)) == ["lift"] and not records(state).suspensions
    state, d = run(state, note(alert("a/1")), T0 + 180)  # the same still-firing episode
    assert kinds(d) == ["duplicate"] and not records(state).suspensions
    # A new startsAt (a second Prometheus replica, an outage that restarted the alert) does not undo the
    # lift either: it holds until the route has a clean round (was: suspended again at rung 2).
    state, d = run(state, note(alert("a/1", starts_at=T0 + 3600)), T0 + 3700)
    assert kinds(d) == ["duplicate"] and "held by the lift" in d[0].reason and not records(state).suspensions
    state, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + 4000)), T0 + 4100)
    assert kinds(d) == ["recover"] and not records(state).holds
    state, d = run(state, note(alert("a/1", starts_at=T0 + 5000)), T0 + 5100)  # fails again after it
    assert kinds(d) == ["escalate"]  # the lifted offense still counts


def test_early_recovery_restores_the_host_and_keeps_the_offense() -> None:
    state, _ = run(State(), note(alert("a/1")), T0)
    state, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + 600)), T0 + 700)
    assert kinds(d) == ["recover"] and not records(state).suspensions
    assert len(records(state).history[("m/x", "a/1")]) == 1
    state, d = run(state, note(alert("a/1")), T0 + 800)  # the failing episode was closed by recovery
    assert kinds(d) == ["duplicate"]
    _, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + 600)), T0 + 900)
    assert kinds(d) == ["duplicate"]


def test_floor_holds_within_one_batch() -> None:
    discovered = "a/1,b/1,c/1,d/1"
    n = note(*(alert(p, discovered=discovered) for p in ("a/1", "b/1", "c/1", "d/1")))
    state, d = run(State(), n, T0)
    assert kinds(d) == ["suspend", "suspend", "floor_block", "floor_block"]
    assert len(discovered.split(",")) - len(excluded_hosts("m/x", (), state.part("m/x"), T0)) == 2


def test_floor_counts_builtin_and_incident_layers_and_blocks_without_known_hosts() -> None:
    policy = replace(POLICY, builtin=(BuiltinExclusion(model="m/x", provider="b/1", reason="control"),))
    added = decide_incident_add(State(), "m/x", "c/1", "outage", None, T0, policy)
    assert not isinstance(added, Refused)
    state, _ = added
    _, d = run(state, note(alert("a/1")), T0, policy)
    assert kinds(d) == ["floor_block"]
    _, d = run(State(), note(alert("a/1", discovered=None)), T0)
    assert kinds(d) == ["floor_block"] and "unknown" in d[0].reason


def test_known_hosts_are_remembered_from_earlier_alerts() -> None:
    state, _ = run(State(), note(alert("z/1", action=None)), T0)  # no action: nothing remembered
    state, _ = run(state, note(alert("a/1", action="recover")), T0)
    # a failure that started after that recovery (an older one would be stale)
    state, d = run(state, note(alert("a/1", discovered=None, starts_at=T0 - 60)), T0)
    assert kinds(d) == ["suspend"]


def test_observe_mode_decides_the_same_but_excludes_nothing() -> None:
    policy = replace(POLICY, mode=Mode.OBSERVE)
    state, d = run(State(), note(alert("a/1"), alert("b/1"), alert("c/1")), T0, policy)
    assert kinds(d) == ["observe", "observe", "floor_block"]
    assert ignore_entries("m/x", (), state.part("m/x"), T0) == ()


def test_expiry_of_incidents_is_recorded() -> None:
    added = decide_incident_add(State(), "m/x", "c/1", "outage", T0 + 60, T0, POLICY)
    assert not isinstance(added, Refused)
    state, d = decide_expiry(added[0], T0 + 60, POLICY)
    assert kinds(list(d)) == ["expire"] and not records(state).incidents
    assert isinstance(decide_incident_add(State(), "m", "p", "r", T0, T0, POLICY), Refused)
    assert isinstance(decide_lift(State(), "m", "p", "r", T0, POLICY), Refused)


def test_recoveries_in_a_batch_are_judged_before_suspensions_so_a_redelivery_changes_nothing() -> None:
    state, _ = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1")), T0)
    batch = note(alert("b/1", discovered="a/1,b/1,c/1"), alert("a/1", action="recover", starts_at=T0 + 60))
    state, d = run(state, batch, T0 + 120)
    assert kinds(d) == ["recover", "suspend"]
    again, d = run(state, batch, T0 + 120)
    assert kinds(d) == ["duplicate", "duplicate"] and records(again).suspensions == records(state).suspensions
