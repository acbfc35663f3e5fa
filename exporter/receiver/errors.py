"""The receiver store's exceptions (one module so the journal reader and the SQLite store share them).

- ``StoreError``: the store cannot be opened; the message names the file, the entry and what is wrong.
  - ``StoreLocked``: another process holds the store's lock.
- ``StoreWriteError``: a write was not made durable; nothing was acknowledged, nothing changed (retryable).
"""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot be opened; the message says which file and entry, and what is wrong."""


class StoreLocked(StoreError):
    """Another process holds the store's lock."""


class StoreWriteError(Exception):
    """A write failed; nothing was acknowledged and the in-memory state did not change (retryable)."""
