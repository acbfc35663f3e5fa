"""The one context manager of the project's servers and pollers: ``start`` on entering, ``stop`` on leaving.

Kept apart from ``serving`` so that a router importing only the ignore-list client does not import uvicorn.
"""

from __future__ import annotations

from types import TracebackType
from typing import Self


class StartStop:
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

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()
