"""Whether the receiver can write its store now: the check behind ``/healthz`` and the start-up refusal.

SQLite opens a file it may not write read-only without a word, and a directory it may not write only
fails when it must create the WAL; either way the receiver would start "ok" and answer 503 to every
decision. ``write_problem`` asks the operating system what this process may do with the store's directory
and files (``os.access`` with the effective ids, so a read-only mount is seen even by root); it costs a
few ``stat`` calls, so ``/healthz`` asks it on every request.

Example::

    problem = write_problem(config.store_dir)
    if problem is not None:
        raise StoreError(problem)
"""

from __future__ import annotations

import os
from pathlib import Path

from exporter.receiver.store import FILE_NAME, LOCK_NAME, SIDE_FILES

#: The files the receiver writes in its store directory (SQLite's side files included).
STORE_FILES = (FILE_NAME, *(FILE_NAME + side for side in SIDE_FILES), LOCK_NAME)
_EFFECTIVE = os.access in os.supports_effective_ids  # judge as the process's effective user (setuid)


def write_problem(store_dir: Path) -> str | None:
    """Why this process cannot write the store in ``store_dir`` now, or None when it can."""
    who = f"uid {os.geteuid()}" if hasattr(os, "geteuid") else "this user"
    if not store_dir.is_dir():
        return f"the store directory {store_dir} is missing or not a directory"
    if not os.access(store_dir, os.W_OK | os.X_OK, effective_ids=_EFFECTIVE):
        return f"the store directory {store_dir} is not writable by this process ({who})"
    for name in STORE_FILES:
        path = store_dir / name
        if path.exists() and not os.access(path, os.W_OK, effective_ids=_EFFECTIVE):
            return f"{path} is not writable by this process ({who})"
    return None
