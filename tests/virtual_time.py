"""An asyncio event loop on a virtual clock, for tests of code that keeps time on the loop (deadlines).

When nothing is ready, the loop does not wait for its next timer: its clock jumps there. A test of a 5 s
deadline takes no real time, and a busy machine cannot stretch a 0.2 s pause into a missed 0.3 s timeout, so
windows of virtual time are exact. Only for code whose I/O stays inside the loop (``httpx.MockTransport``,
in-process handlers); a real socket or another thread would see the jumps.

Example::

    result = run_virtual(client.chat(request))   # client built with clock=loop_clock
    assert result.ttft_seconds == pytest.approx(0.2)
"""

from __future__ import annotations

import asyncio
import selectors
import time
from collections.abc import Coroutine
from typing import Any, TypeVar

T = TypeVar("T")


class _JumpingSelector(selectors.DefaultSelector):  # type: ignore[misc,valid-type]
    """Polls without blocking; when nothing is ready and the loop would wait ``timeout``, moves the clock."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        ready: list[tuple[selectors.SelectorKey, int]] = super().select(0)
        if not ready and timeout is not None and timeout > 0:
            self.now += timeout
        elif not ready and timeout is None:  # no timer at all: only I/O can wake the loop
            ready = super().select(None)
        return ready


class VirtualTimeLoop(asyncio.SelectorEventLoop):
    """An event loop whose ``time()`` starts at 0 and advances only when the loop would otherwise sleep."""

    def __init__(self) -> None:
        self._jumping = _JumpingSelector()
        super().__init__(self._jumping)

    def time(self) -> float:
        return self._jumping.now


def run_virtual(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run`` on a ``VirtualTimeLoop``."""
    with asyncio.Runner(loop_factory=VirtualTimeLoop) as runner:
        return runner.run(coro)


def loop_clock() -> float:
    """The running loop's clock: a ``clock=`` for code under test that must keep the loop's (virtual) time."""
    return asyncio.get_running_loop().time()


class ManualClock:
    """A wall clock that only the test moves (``clock.now += 0.6``): for components that take ``clock=``,
    such as the simulator's generation log, whose 404 window is then exact on any machine."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now
