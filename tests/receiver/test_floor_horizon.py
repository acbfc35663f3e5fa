"""The floor's horizon: a host that joins a model's discovered list after its first one counts for the
floor only once listed for ``discovered_horizon`` without a break, so one bogus or shrinking list cannot
swap suspended hosts for names nobody routes to; the joining times survive the store's tables."""

from __future__ import annotations

from dataclasses import replace

from exporter.receiver.decide import known_hosts
from exporter.receiver.state import State
from exporter.receiver.tables import part_from_json, part_to_json

from .helpers import T0, alert, records
from .test_decide import POLICY, kinds, note, run

HOURS = 3600.0
POLICY_6H = replace(POLICY, discovered_horizon=6 * HOURS)


def test_a_bogus_list_cannot_let_suspended_hosts_fall_out_of_the_count() -> None:
    """a/1 and b/1 suspended among a..d; then a list naming c/1, d/1 and two made-up hosts arrives."""
    state, d = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1,d/1")), T0, POLICY_6H)
    state, d2 = run(state, note(alert("b/1", discovered="a/1,b/1,c/1,d/1")), T0 + 1, POLICY_6H)
    assert kinds(d + d2) == ["suspend", "suspend"]
    bogus = "c/1,d/1,x/1,y/1"
    state, d = run(state, note(alert("c/1", discovered=bogus)), T0 + HOURS, POLICY_6H)
    # counted: c/1 and d/1 only (x/1, y/1 joined just now): excluding c/1 leaves d/1 alone
    assert kinds(d) == ["floor_block"]
    assert known_hosts(state, "m/x", None, T0 + HOURS, POLICY_6H.discovered_horizon) == {"c/1", "d/1"}
    # once listed for the whole horizon without a break, the new hosts count
    later = T0 + 7 * HOURS + 1
    assert known_hosts(state, "m/x", None, later, POLICY_6H.discovered_horizon) == {
        "c/1",
        "d/1",
        "x/1",
        "y/1",
    }
    state, d = run(state, note(alert("c/1", discovered=bogus)), later, POLICY_6H)
    assert kinds(d) == ["suspend"]


def test_a_host_that_leaves_and_comes_back_starts_its_horizon_again() -> None:
    state, _ = run(State(), note(alert("z/1", action="recover", discovered="a/1,b/1,c/1")), T0, POLICY_6H)
    state, _ = run(
        state, note(alert("z/1", action="recover", discovered="a/1,b/1,c/1,d/1")), T0 + 1, POLICY_6H
    )
    state, _ = run(state, note(alert("z/1", action="recover", discovered="a/1,b/1")), T0 + 2, POLICY_6H)
    assert "m/x" not in records(state).joined_hosts  # d/1 left: forgotten
    state, _ = run(
        state, note(alert("z/1", action="recover", discovered="a/1,b/1,d/1")), T0 + 8 * HOURS, POLICY_6H
    )
    assert records(state).joined_hosts["m/x"] == {"d/1": T0 + 8 * HOURS}
    assert known_hosts(state, "m/x", None, T0 + 9 * HOURS, POLICY_6H.discovered_horizon) == {"a/1", "b/1"}


def test_the_first_list_counts_at_once_and_a_zero_horizon_counts_the_newest_list() -> None:
    state, d = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1")), T0, POLICY_6H)
    assert kinds(d) == ["suspend"]
    zero = replace(POLICY, discovered_horizon=0.0)
    state, d = run(state, note(alert("d/1", discovered="b/1,c/1,d/1,e/1")), T0 + 1, zero)
    assert kinds(d) == ["suspend"]


def test_joining_times_survive_the_stores_row() -> None:
    state, _ = run(State(), note(alert("a/1", discovered="a/1,b/1,c/1")), T0)
    state, _ = run(state, note(alert("z/1", discovered="a/1,b/1,c/1,z/1")), T0 + 60)
    assert records(state).joined_hosts == {"m/x": {"z/1": T0 + 60}}
    assert part_from_json("m/x", part_to_json(state.part("m/x"))).joined == {"z/1": T0 + 60}
