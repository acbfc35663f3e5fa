"""Timestamps from the future: a ``startsAt`` beyond the receiver's clock plus the skew allowance is judged
as starting now (audited in the decision's inputs), and a future time an older store remembered never
pins a route: later recoveries and failures are judged on real times."""

from __future__ import annotations

from exporter.receiver.decide import FUTURE_SKEW_SECONDS, decide_lift
from exporter.receiver.state import Decision, Kind, Mode, State
from exporter.timestamps import parse_rfc3339

from .helpers import DAY, T0, alert, apply_decisions, records
from .test_decide import POLICY, ROUTE, kinds, note, run

FAR = parse_rfc3339("9000-01-01T00:00:00Z")


def test_a_suspend_alert_from_the_future_is_judged_as_starting_now_and_audited() -> None:
    state, (d,) = run(State(), note(alert("a/1", starts_at=FAR)), T0)
    assert d.kind is Kind.SUSPEND and d.starts_at == T0
    assert "9000-01-01T00:00:00.000Z is later than the receiver's clock plus the 300 s" in str(
        d.inputs["starts_at_clamped"]
    )
    # a real recovery afterwards ends it (it is not "stale" against year 9000)
    state, (r,) = run(state, note(alert("a/1", action="recover", starts_at=T0 + 60)), T0 + 120)
    assert r.kind is Kind.RECOVER and ROUTE not in records(state).suspensions


def test_within_the_skew_allowance_a_start_is_kept_as_sent() -> None:
    ahead = T0 + FUTURE_SKEW_SECONDS - 1
    _, (d,) = run(State(), note(alert("a/1", starts_at=ahead)), T0)
    assert d.starts_at == ahead and "starts_at_clamped" not in d.inputs


def test_a_recovery_from_the_future_cannot_make_every_later_failure_stale() -> None:
    state, _ = run(State(), note(alert("a/1", action="recover", starts_at=FAR)), T0)
    assert records(state).recovered[ROUTE] == T0
    state, d = run(state, note(alert("a/1", starts_at=T0 + 60)), T0 + 120)
    assert kinds(d) == ["suspend"]


def test_a_future_time_an_older_store_remembered_does_not_pin_the_route() -> None:
    """The state a receiver without the allowance folded: the failing time of the route is year 9000."""
    old = Decision(
        seq=1, at=T0, kind=Kind.SUSPEND, reason="old", model=ROUTE[0], provider=ROUTE[1], mode=Mode.ENFORCE,
        rung=1, until=T0 + DAY, episode="e-old", starts_at=FAR, discovered=("a/1", "b/1", "c/1", "d/1"),
    )  # fmt: skip
    state = apply_decisions(State(), [old], POLICY.ladder)
    assert records(state).failing[ROUTE] == FAR
    lifted = decide_lift(state, *ROUTE, "bad clock", T0 + 60, POLICY)
    assert not isinstance(lifted, type(None)) and isinstance(lifted, tuple)
    state = lifted[0]
    # a clean round ends the lift's hold, then a new real failure suspends and a later recovery ends it
    state, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + 100)), T0 + 120)
    assert kinds(d) == ["recover"]
    state, d = run(state, note(alert("a/1", starts_at=T0 + 200)), T0 + 240)
    assert kinds(d) == ["escalate"]
    state, d = run(state, note(alert("a/1", action="recover", starts_at=T0 + 300)), T0 + 360)
    assert kinds(d) == ["recover"] and ROUTE not in records(state).suspensions
