"""The floor's horizon: hosts that left a model's discovered list count for ``discovered_horizon`` after
they were last listed, then no longer; the remembered hosts survive a checkpoint round trip."""

from __future__ import annotations

from dataclasses import replace

from exporter.receiver.codec import state_from_json, state_to_json
from exporter.receiver.decide import known_hosts
from exporter.receiver.state import State

from .helpers import DAY, T0, alert
from .test_decide import POLICY, kinds, note, run

HOURS = 3600.0


def test_hosts_left_out_of_a_newer_list_count_within_the_horizon_only() -> None:
    policy = replace(POLICY, discovered_horizon=6 * HOURS)
    state, d = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1,d/1")), T0, policy)
    assert kinds(d) == ["suspend"]
    # a newer, shorter list: b/1 and c/1 are no longer in it, but were listed an hour ago
    state, d = run(state, note(alert("d/1", discovered="d/1,e/1")), T0 + HOURS, policy)
    assert known_hosts(state, "m/x", None, T0 + HOURS, policy.discovered_horizon) == frozenset(
        {"a/1", "b/1", "c/1", "d/1", "e/1"}
    )
    assert kinds(d) == ["suspend"]  # b/1, c/1, e/1 remain: 3 >= the floor of 2
    assert state.dropped_hosts["m/x"] == {"a/1": T0 + HOURS, "b/1": T0 + HOURS, "c/1": T0 + HOURS}
    # past the horizon they are forgotten by the floor: only e/1 would remain
    later = T0 + HOURS + 6 * HOURS + 1
    assert known_hosts(state, "m/x", None, later, policy.discovered_horizon) == frozenset({"d/1", "e/1"})
    state, d = run(state, note(alert("e/1", discovered="d/1,e/1")), later, policy)
    assert kinds(d) == ["floor_block"]
    # a host listed again leaves the remembered ones
    state, _ = run(state, note(alert("x/1", discovered="b/1,d/1,e/1")), later + 1, policy)
    assert "b/1" not in state.dropped_hosts["m/x"]


def test_a_zero_horizon_counts_the_newest_list_only() -> None:
    policy = replace(POLICY, discovered_horizon=0.0)
    state, _ = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1,d/1")), T0, policy)
    state, d = run(state, note(alert("d/1", discovered="d/1,e/1")), T0 + 1, policy)
    assert kinds(d) == ["floor_block"]  # e/1 alone would remain


def test_remembered_hosts_survive_a_checkpoint_and_older_checkpoints_load_without_them() -> None:
    state, _ = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1")), T0)
    state, _ = run(state, note(alert("z/1", discovered="c/1,z/1,y/1")), T0 + DAY)
    document = state_to_json(state, T0 + DAY)
    assert state_from_json(document).dropped_hosts == state.dropped_hosts
    del document["dropped_hosts"]
    assert state_from_json(document).dropped_hosts == {}
