"""A pinned request finds its endpoints through an index: the same endpoints, in the same order, as filtering
the whole listing with the gateway's matching rule, whatever the pin names."""

from __future__ import annotations

import time

from hypothesis import given
from hypothesis import strategies as st

from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.routing import matches
from exporter.devtools.simulator.state import MAX_GENERATIONS, FleetState

STATE = FleetState(load_fleet(DEFAULT_FLEET), time.time, MAX_GENERATIONS)
MODEL = STATE.models["moonshotai/kimi-k2-0905"]
TAGS = [p.tag for p in MODEL.providers]
ENTRIES = sorted({*TAGS, *(tag.partition("/")[0] for tag in TAGS), "nobody", "DeepInfra", "openai/priority"})


def _filtered(entries: tuple[str, ...]) -> list[str]:
    return [p.tag for p in STATE.listed(MODEL) if any(matches(e, p.tag) for e in entries)]


@given(st.lists(st.sampled_from(ENTRIES), max_size=4).map(tuple))
def test_the_index_selects_what_the_matching_rule_selects(entries: tuple[str, ...]) -> None:
    assert [p.tag for p in STATE.listed_among(MODEL, entries)] == _filtered(entries)


def test_a_base_slug_selects_its_variants_and_an_unknown_entry_selects_nothing() -> None:
    base = TAGS[0].partition("/")[0]
    assert [p.tag for p in STATE.listed_among(MODEL, (base,))] == _filtered((base,)) != []
    assert STATE.listed_among(MODEL, ("nobody/fp8", "NOBODY")) == []


def test_an_endpoint_that_left_the_listing_is_not_selected() -> None:
    state = FleetState(load_fleet(DEFAULT_FLEET), time.time, MAX_GENERATIONS)
    model = state.models["moonshotai/kimi-k2-0905"]
    tag = model.providers[0].tag
    assert [p.tag for p in state.listed_among(model, (tag,))] == [tag]
    state.patch(model.id, tag, {"disappear": {"listed": False}}, replace_all=False)
    assert state.listed_among(model, (tag,)) == []
