"""Property tests over random histories of notifications, clock steps, lifts, incidents and restarts."""

from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exporter.receiver.decide import Refused
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.merge import excluded_hosts
from exporter.receiver.payloads import Notification, parse_notification
from exporter.receiver.service import ReceiverService
from exporter.receiver.state import SUSPENDING_KINDS, Decision, Kind, Mode, State
from tests.fuzz_profile import examples

from .helpers import DAY, T0, Clock, alert, apply_decisions, make_config, materialized, payload, records

HOSTS = ("a/1", "b/1", "c/1", "d/1", "e/1")
MODELS = ("m/x", "m/y")
BUILTIN = (BuiltinExclusion(model="m/y", provider="e/1", reason="control host"),)
LADDER = (DAY, 3 * DAY, 7 * DAY)
FADE = 14 * DAY
MINIMUM = 2

alerts_st = st.builds(
    lambda model, host, action, resolved, episode, discovered: alert(
        host,
        model=model,
        action=action,
        status="resolved" if resolved else "firing",
        starts_at=T0 - 3600 + episode * 7 * DAY,
        discovered=",".join(sorted(discovered)) if discovered is not None else None,
    ),
    st.sampled_from(MODELS),
    st.sampled_from(HOSTS),
    st.sampled_from(["suspend", "suspend", "suspend", "recover", None]),
    st.booleans(),
    st.integers(0, 3),
    st.none() | st.sets(st.sampled_from(HOSTS), min_size=1).map(lambda s: s | {"a/1"}),
)
ops_st = st.lists(
    st.one_of(
        st.tuples(st.just("notify"), st.lists(alerts_st, min_size=1, max_size=4)),
        st.tuples(st.just("advance"), st.sampled_from([60.0, 3600.0, DAY, 3 * DAY, 8 * DAY, 15 * DAY])),
        st.tuples(st.just("lift"), st.sampled_from(MODELS), st.sampled_from(HOSTS)),
        st.tuples(
            st.just("incident"), st.sampled_from(MODELS), st.sampled_from(HOSTS), st.sampled_from([None, DAY])
        ),
        st.tuples(st.just("remove_incident"), st.integers(0, 3)),
        st.tuples(st.just("restart")),
    ),
    min_size=1,
    max_size=30,
)


def decisive(state: State) -> tuple[Any, ...]:
    """What decides routing: everything but bookkeeping of when an episode was last seen."""
    every = records(state)
    episodes = {k: (e.closed_by, e.closed_at) for k, e in every.episodes.items()}
    return (every.suspensions, every.history, every.incidents, every.discovered, episodes)


@dataclass
class Reference:
    """An independent model of the ladder: each route's last offense (rung, end)."""

    last: dict[tuple[str, str], tuple[int, float]]

    def check(self, before: State, d: Decision) -> None:
        route = (d.model or "", d.provider or "")
        if d.kind in SUSPENDING_KINDS:
            prev = self.last.get(route)
            expected = prev[0] + 1 if prev is not None and d.at - prev[1] < FADE else 1
            assert d.rung == expected, (d, prev)
            assert d.until == d.at + LADDER[min(expected, len(LADDER)) - 1]
            assert before.suspension(route) is None
            self.last[route] = (expected, d.until)
        elif d.kind in (Kind.LIFT, Kind.RECOVER) and before.suspension(route) is not None:
            rung, end = self.last[route]
            self.last[route] = (rung, min(end, d.at))


def check_floor(state: State, d: Decision) -> None:
    """After any suspension or (unforced) incident the receiver decided where the model's hosts are known,
    the model keeps at least MINIMUM routable hosts."""
    known = state.part(d.model or "").discovered
    if d.kind in SUSPENDING_KINDS or (d.kind is Kind.INCIDENT_ADD and known is not None):
        assert d.model is not None and known is not None
        routable = known - excluded_hosts(d.model, BUILTIN, state.part(d.model), d.at)
        assert len(routable) >= MINIMUM, (d, routable)


def check_ignore_list(service: ReceiverService, now: float) -> None:
    state = service.state
    every = records(state)
    for model in MODELS:
        body = json.loads(service.ignore(model).body)
        expected = {b.provider for b in BUILTIN if b.model == model}
        expected |= {
            i.provider for i in every.incidents.values() if i.model == model and (i.until or 1e18) > now
        }
        expected |= {
            s.provider
            for s in every.suspensions.values()
            if s.model == model and s.mode is Mode.ENFORCE and s.until > now
        }
        assert set(body["ignore"]) == expected
        assert sorted(body["ignore"]) == body["ignore"]
        assert {e["provider"] for e in body["entries"]} == expected
        assert not any(
            e["layer"] == "suspension" and e["provider"] in _observe_only(state, model)
            for e in body["entries"]
        )


def _observe_only(state: State, model: str) -> set[str]:
    return {s.provider for s in state.part(model).suspensions.values() if s.mode is Mode.OBSERVE}


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=ops_st, mode=st.sampled_from([Mode.ENFORCE, Mode.OBSERVE]))
def test_random_histories_keep_every_invariant(ops: list[Any], mode: Mode) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        clock = Clock()
        config = make_config(Path(tmp), mode=mode, builtin=BUILTIN, min_routable_hosts=MINIMUM)
        service = ReceiverService(config, clock=clock, init=True)
        reference = Reference({})
        incident_ids: list[str] = []
        try:
            for op in ops:
                before = materialized(service.state)  # what the store holds before this op
                if op[0] == "notify":
                    notification = parse_notification(payload(*op[1]))
                    assert isinstance(notification, Notification)
                    decisions = list(service.notify(notification))
                    after_first = service.state
                    again = service.notify(notification)  # any notification delivered twice changes nothing
                    assert decisive(service.state) == decisive(after_first)
                    assert not any(d.kind in SUSPENDING_KINDS or d.kind is Kind.RECOVER for d in again)
                elif op[0] == "advance":
                    clock.advance(op[1])
                    decisions = list(service.sweep())
                elif op[0] == "lift":
                    result = service.lift(op[1], op[2], "test")
                    decisions = [] if isinstance(result, Refused) else list(result)
                elif op[0] == "incident":
                    until = None if op[3] is None else clock.now + op[3]
                    result = service.add_incident(op[1], op[2], "test", until)
                    if isinstance(result, Refused):  # only ever the capacity floor, and nothing changed
                        assert result.status == 409 and "floor" in result.message, result
                        assert service.state == before
                        decisions = []
                    else:
                        decisions = list(result)
                        incident_ids.append(
                            next(d.incident_id for d in result if d.kind is Kind.INCIDENT_ADD) or ""
                        )
                elif op[0] == "remove_incident":
                    target = incident_ids[op[1]] if op[1] < len(incident_ids) else "inc-none"
                    result = service.remove_incident(target, "test")
                    decisions = [] if isinstance(result, Refused) else list(result)
                else:
                    service.close()
                    service = ReceiverService(config, clock=clock)
                    assert service.state == before  # the reload is exactly the state before
                    decisions = []
                state = before
                for d in decisions:
                    reference.check(state, d)
                    state = apply_decisions(state, [d], config.policy().ladder)
                    check_floor(state, d)
                check_ignore_list(service, clock.now)
        finally:
            service.close()
