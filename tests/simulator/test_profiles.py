"""Fault decisions: exact rates over any window, eligibility per request kind, reproducibility."""

from __future__ import annotations

import random
import time
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from exporter.devtools.simulator.fleet import (
    Errors,
    FaultProfile,
    LeadingGarbage,
    Refusal,
    SchemaFault,
)
from exporter.devtools.simulator.profiles import Kind, fires, phase, plan_request, request_rng
from exporter.devtools.simulator.state import FleetState

from .conftest import fleet_of


@given(
    rate=st.floats(min_value=0, max_value=1),
    start=st.integers(min_value=0, max_value=10_000),
    window=st.integers(min_value=1, max_value=500),
    offset=st.floats(min_value=0, max_value=0.999999),
)
def test_any_window_gets_floor_or_ceil_of_rate_times_length(
    rate: float, start: int, window: int, offset: float
) -> None:
    count = sum(fires(rate, n, offset) for n in range(start, start + window))
    # The count telescopes to floor((start + window) * rate + offset) - floor(start * rate + offset), within 1
    # of rate * window; the float product itself may round across an integer (1/3 * 15), hence the margin.
    assert rate * window - 1 - 1e-9 < count < rate * window + 1 + 1e-9


def test_ninety_five_percent_is_nineteen_of_every_twenty() -> None:
    for offset in (0.0, 0.37, 0.99):
        assert [sum(fires(0.95, n, offset) for n in range(k, k + 20)) for k in range(0, 100, 20)] == [19] * 5


def test_phases_differ_per_provider_and_replay() -> None:
    assert phase(1, "m", "a/x", "errors") == phase(1, "m", "a/x", "errors")
    assert phase(1, "m", "a/x", "errors") != phase(1, "m", "b/x", "errors")
    body = {"messages": [{"role": "user", "content": "hi"}]}
    assert request_rng(1, "m", "a/x", 3, body).random() == request_rng(1, "m", "a/x", 3, body).random()
    assert request_rng(1, "m", "a/x", 3, body).random() != request_rng(1, "m", "a/x", 4, body).random()


def test_faults_apply_only_to_the_requests_they_concern() -> None:
    schema = FaultProfile(schema=SchemaFault(rate=1.0), leading_garbage=LeadingGarbage(rate=1.0))
    structured = plan_request(schema, Kind.STRUCTURED, None, "x", {}, {}, random.Random(0))
    prose = plan_request(schema, Kind.ROLEPLAY, None, "x", {}, {}, random.Random(0))
    assert structured.schema_fault == "invalid_json" and not structured.leading_garbage
    assert prose.schema_fault is None and prose.leading_garbage
    assert "schema" in structured.consumed and "schema" not in prose.consumed

    refusing = FaultProfile(refusal=Refusal(rate=1.0, style="text_en", match="(?i)duel"))
    assert plan_request(refusing, Kind.ROLEPLAY, None, "The DUEL begins", {}, {}, random.Random(0)).refusal
    calm = plan_request(refusing, Kind.ROLEPLAY, None, "Tea time", {}, {}, random.Random(0))
    assert calm.refusal is None and "refusal" not in calm.consumed


def test_a_pre_stream_error_decides_nothing_else() -> None:
    profile = FaultProfile(errors=Errors(rate=1.0, statuses=(529,)), leading_garbage=LeadingGarbage(rate=1.0))
    plan = plan_request(profile, Kind.ROLEPLAY, None, "x", {}, {}, random.Random(0))
    assert plan.error_status == 529
    assert not plan.leading_garbage and plan.consumed == {"timeout", "errors"}


def test_a_degenerate_rate_of_one_half_loops_every_other_prose_reply(tmp_path: Path) -> None:
    fleet = fleet_of(
        tmp_path,
        "models:\n  - id: a/b\n    providers:\n      - tag: x/fp8\n"
        "        profile: {degenerate: {rate: 0.5}}\n",
    )
    state = FleetState(fleet, time.time, 10)
    model = state.models["a/b"]
    body = {"messages": [{"role": "user", "content": "Tell me a story about the harbour."}]}
    plans = [state.plan(model, model.providers[0], body)[1].degenerate for _ in range(8)]
    assert plans.count("repetition") == 4
