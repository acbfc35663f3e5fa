"""The routing rule: skip a model only when it was recently and explicitly unavailable."""

from __future__ import annotations

from exporter.routability.model import RoutabilityRow, Status

DEFAULT_RECENT_WINDOW = 6 * 3600.0


def should_skip(row: RoutabilityRow | None, now: float, recent_window: float = DEFAULT_RECENT_WINDOW) -> bool:
    """True only when the last probe (within ``recent_window`` seconds) said the model is absent.

    ``degraded`` (rate limits, outages, auth trouble) and ``unknown`` never skip, and neither does an
    ``unavailable`` observation older than the window: the router then tries the model again.

    Example::

        >>> from exporter.routability.model import RoutabilityRow, Status
        >>> gone = RoutabilityRow("a/b", Status.UNAVAILABLE, last_check=100.0)
        >>> should_skip(gone, now=200.0, recent_window=3600)
        True
        >>> should_skip(RoutabilityRow("a/b", Status.DEGRADED, last_check=100.0), 200.0, 3600)
        False
    """
    if row is None or row.status is not Status.UNAVAILABLE or row.last_check is None:
        return False
    # A check from the future (clock skew) beyond a minute is not trusted.
    return -60.0 <= now - row.last_check <= recent_window
