"""End to end in observe mode (the receiver's default): the same pipeline takes the same decisions, records
the would-be suspensions, and excludes nothing from routing."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from .stack import FLEETS, SUSPENDING, Stack

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODEL = "e2e/observe"
FAULTY = {"schema-breaker/fp8", "prude/fp8"}


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack]) -> Stack:
    return make_stack(FLEETS / "observe.yaml", mode="observe")


def test_observe_mode_records_two_would_be_suspensions_and_leaves_the_ignore_list_empty(stack: Stack) -> None:
    router = stack.router([MODEL])
    assert router.poll_once() == {MODEL: True}
    assert router.ignored(MODEL) == ()

    stack.wait_suspended(MODEL, FAULTY, what="both faulty hosts recorded as would-be suspensions")
    stack.wait_rounds(2)
    stack.settle()

    assert sorted(stack.decided(MODEL, SUSPENDING)) == [
        ("observe", "prude/fp8"),
        ("observe", "schema-breaker/fp8"),
    ]
    recorded = stack.suspensions(MODEL)
    assert {(s["provider"], s["mode"], s["rung"]) for s in recorded} == {
        ("prude/fp8", "observe", 1),
        ("schema-breaker/fp8", "observe", 1),
    }

    # Nothing is excluded: the router's list stays empty and requests go out unchanged.
    assert router.poll_once() == {MODEL: True}
    assert router.ignored(MODEL) == ()
    request = {"model": MODEL, "provider": {"ignore": ["already/out"]}}
    assert router.merge_ignore(request) == request

    # The would-be suspensions are visible to people (metrics and the informational alert, mode=observe).
    active = stack.query("canary_receiver_suspension_active == 1")
    assert {(labels["provider"], labels["mode"]) for labels, _ in active} == {
        ("prude/fp8", "observe"),
        ("schema-breaker/fp8", "observe"),
    }
    stack.wait_for(
        lambda: (
            {a["provider"] for a in stack.firing("CanaryProviderSuspended", model=MODEL, mode="observe")}
            == FAULTY
        ),
        what="CanaryProviderSuspended (mode=observe) firing for both",
    )
    assert stack.firing("CanaryProviderSuspended", mode="enforce") == []
