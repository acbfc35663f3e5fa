"""The escalation ladder and its fade: which rung the next offense gets (pure, clock passed in).

Offenses form a *chain* while each one starts less than ``fade_after`` after the previous one ended (its
suspension's end, or the earlier lift or recovery). Once ``fade_after`` passes after the last offense
ended with no new one (design.md §8: "14 clean days"), the chain fades and the ladder starts again at the
first rung. The offense level is the length of the chain that still counts.

Example::

    ladder = Ladder(rungs=(86400.0, 3 * 86400.0, 7 * 86400.0), fade_after=14 * 86400.0)
    ladder.next_rung(history=(), now=0.0)      # (1, 86400.0)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Offense:
    """One suspension in a route's history (observe-only ones included)."""

    at: float
    until: float
    rung: int
    episode: str
    ended_at: float | None = None  # set when a lift or an early recovery ended it before ``until``

    @property
    def end(self) -> float:
        return self.until if self.ended_at is None else min(self.ended_at, self.until)


@dataclass(frozen=True, slots=True)
class Ladder:
    """Suspension durations per rung (seconds; the last rung repeats) and the fade window."""

    rungs: tuple[float, ...]
    fade_after: float

    def chain(self, history: Sequence[Offense], now: float) -> tuple[Offense, ...]:
        """The offenses that still count at ``now`` (oldest first); empty once the history faded.

        >>> lad = Ladder((10.0, 30.0), fade_after=100.0)
        >>> len(lad.chain([Offense(0, 10, 1, "a"), Offense(50, 80, 2, "b")], now=150))
        2
        >>> len(lad.chain([Offense(0, 10, 1, "a"), Offense(50, 80, 2, "b")], now=180))
        0
        """
        if not history or now - history[-1].end >= self.fade_after:
            return ()
        start = len(history) - 1
        while start > 0 and history[start].at - history[start - 1].end < self.fade_after:
            start -= 1
        return tuple(history[start:])

    def level(self, history: Sequence[Offense], now: float) -> int:
        """How many offenses count towards the next rung."""
        return len(self.chain(history, now))

    def next_rung(self, history: Sequence[Offense], now: float) -> tuple[int, float]:
        """(rung number starting at 1, duration in seconds) for an offense at ``now``.

        >>> Ladder((10.0, 30.0), fade_after=100.0).next_rung([Offense(0, 10, 1, "a")], now=20)
        (2, 30.0)
        """
        rung = self.level(history, now) + 1
        return rung, self.rungs[min(rung, len(self.rungs)) - 1]
