"""The capacity floor: a suspension may never leave a model with fewer routable hosts than the minimum.

Routable hosts are the discovered hosts minus those excluded by any layer (built-in, incident, and every
current suspension, observe-only ones included, so observe mode computes the floor as if enforcing). When
the receiver has never been told which hosts a model has, it cannot prove the floor holds, so it blocks.
"""

from __future__ import annotations

from dataclasses import dataclass

from exporter.receiver.tags import uncovered


@dataclass(frozen=True, slots=True)
class FloorVerdict:
    allowed: bool
    reason: str
    routable_after: tuple[str, ...] = ()


def check_floor(
    candidate: str, discovered: frozenset[str] | None, excluded: frozenset[str], minimum: int
) -> FloorVerdict:
    """Whether excluding ``candidate`` keeps at least ``minimum`` routable hosts (canonical tags; a base
    slug excludes its variants, as the gateway matches them).

    >>> check_floor("c", frozenset("abc"), frozenset(), 2).allowed
    True
    >>> check_floor("c", frozenset("abc"), frozenset("a"), 2).reason
    'excluding c would leave 1 routable host (b), fewer than the floor of 2'
    """
    if discovered is None:
        return FloorVerdict(
            False,
            "the model's discovered hosts are unknown (no discovered_providers annotation received yet), "
            "so the floor cannot be proven to hold",
        )
    after = uncovered(discovered, (*excluded, candidate))  # base slugs exclude their variants
    if len(after) < minimum:
        noun = "host" if len(after) == 1 else "hosts"
        listed = ", ".join(after) or "none"
        return FloorVerdict(
            False,
            f"excluding {candidate} would leave {len(after)} routable {noun} ({listed}), "
            f"fewer than the floor of {minimum}",
            after,
        )
    return FloorVerdict(True, f"{len(after)} routable hosts remain (floor {minimum})", after)
