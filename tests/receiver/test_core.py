"""The pure pieces: ladder and fade, capacity floor, three-layer merge."""

from __future__ import annotations

from types import MappingProxyType

from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.floor import check_floor
from exporter.receiver.ladder import Ladder, Offense
from exporter.receiver.merge import Layer, excluded_hosts, ignore_entries
from exporter.receiver.state import Incident, Mode, Suspension

from .helpers import DAY, state_of

LADDER = Ladder((1 * DAY, 3 * DAY, 7 * DAY), fade_after=14 * DAY)


def test_ladder_climbs_one_rung_per_offense_and_stays_on_the_last() -> None:
    history: list[Offense] = []
    now = 0.0
    rungs = []
    for _ in range(5):
        rung, duration = LADDER.next_rung(history, now)
        rungs.append((rung, duration / DAY))
        history.append(Offense(now, now + duration, rung, "e"))
        now += duration  # offends again right when the suspension ends
    assert rungs == [(1, 1), (2, 3), (3, 7), (4, 7), (5, 7)]


def test_history_fades_after_fourteen_clean_days_counted_from_the_end_of_the_suspension() -> None:
    history = [Offense(0.0, 7 * DAY, 3, "e")]
    assert LADDER.next_rung(history, 7 * DAY + 14 * DAY - 1) == (2, 3 * DAY)
    assert LADDER.next_rung(history, 7 * DAY + 14 * DAY) == (1, 1 * DAY)


def test_an_early_end_starts_the_clean_days_earlier() -> None:
    history = [Offense(0.0, 7 * DAY, 1, "e", ended_at=1 * DAY)]
    assert LADDER.level(history, 15 * DAY) == 0
    assert LADDER.level(history, 15 * DAY - 1) == 1


def test_floor_blocks_when_hosts_unknown_or_too_few_would_remain() -> None:
    assert not check_floor("a", None, frozenset(), 2).allowed
    assert check_floor("a", frozenset({"a", "b", "c"}), frozenset(), 2).allowed
    blocked = check_floor("a", frozenset({"a", "b", "c"}), frozenset({"c"}), 2)
    assert not blocked.allowed and blocked.routable_after == ("b",)


def test_merge_unions_layers_but_only_enforced_suspensions_reach_the_ignore_list() -> None:
    state = state_of(
        suspensions=MappingProxyType(
            {
                ("m", "s/1"): Suspension("m", "s/1", Mode.ENFORCE, 1, 0, 100, "e", "bad"),
                ("m", "o/1"): Suspension("m", "o/1", Mode.OBSERVE, 1, 0, 100, "e", "bad"),
                ("m", "old/1"): Suspension("m", "old/1", Mode.ENFORCE, 1, 0, 10, "e", "expired"),
            }
        ),
        incidents=MappingProxyType({"inc-1": Incident("inc-1", "m", "i/1", "outage", 0, None)}),
    )
    builtin = (
        BuiltinExclusion(model="m", provider="b/1", reason="control"),
        BuiltinExclusion(model="other", provider="z/1", reason="x"),
    )
    entries = ignore_entries("m", builtin, state.part("m"), now=50)
    assert [(e.provider, e.layer) for e in entries] == [
        ("b/1", Layer.BUILTIN),
        ("i/1", Layer.INCIDENT),
        ("s/1", Layer.SUSPENSION),
    ]
    assert excluded_hosts("m", builtin, state.part("m"), 50) == {"b/1", "i/1", "s/1", "o/1"}
