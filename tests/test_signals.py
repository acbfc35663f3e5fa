"""``stop_on_signals``: a stop signal ends the block cleanly, also when it lands inside a finalizer."""

from __future__ import annotations

import signal
import time
import weakref

from exporter.signals import stop_on_signals


class _Thing:
    pass


def _wait_to_be_stopped(seconds: float) -> float:
    """How long the block ran before a stop ended it (``seconds`` when none did)."""
    started = time.monotonic()
    with stop_on_signals():
        while time.monotonic() - started < seconds:
            time.sleep(0.01)
    return time.monotonic() - started


def test_a_stop_signal_ends_the_block_and_is_swallowed_at_its_end() -> None:
    started = time.monotonic()
    with stop_on_signals():
        signal.raise_signal(signal.SIGTERM)
        time.sleep(5)  # not reached: StopSignal is raised in this thread first
    assert time.monotonic() - started < 1


def test_a_stop_signal_that_lands_inside_a_finalizer_is_delivered_again() -> None:
    # Python runs the handler at the next bytecode, here inside a weakref callback, whose exceptions it
    # drops ("Exception ignored in: ..."); without a second delivery the block would run its 3 s.
    def callback(_ref: object) -> None:
        signal.raise_signal(signal.SIGTERM)
        sum(range(1000))  # the handler runs here

    started = time.monotonic()
    with stop_on_signals():
        thing = _Thing()
        ref = weakref.ref(thing, callback)
        del thing  # the callback runs now
        while time.monotonic() - started < 3:
            time.sleep(0.01)
    assert ref() is None
    assert time.monotonic() - started < 1.5
    assert _wait_to_be_stopped(0.2) >= 0.2  # the next block is not stopped by a stray second delivery
