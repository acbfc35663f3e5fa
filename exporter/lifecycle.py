"""The project's two context managers: ``Closing`` (stores, clients: ``close`` on leaving the block) and
``StartStop`` (servers and pollers: ``start`` on entering, ``stop`` on leaving).

Kept apart from ``serving`` so that a router importing only the ignore-list client does not import uvicorn.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class Closing:
    """Subclasses define ``close``; ``with thing:`` closes it on leaving the block."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


class StartStop(Closing):
    """Subclasses define ``start`` and ``stop``; ``with thing:`` starts it, then ``close``s it."""

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def close(self) -> None:
        """What leaving the block does: ``stop``, and in a subclass whatever else it holds."""
        self.stop()

    def __enter__(self) -> Self:
        self.start()
        return self
