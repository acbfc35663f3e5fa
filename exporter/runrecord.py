"""The run record: where a local run's components actually listen, kept in its work directory.

A configuration may say ``listen: 127.0.0.1:0`` (any free port, as the demo's does), and a local run of a
user's configuration starts its receiver on a free loopback port whatever ``receiver.listen`` says: only the
running process knows the ports it got. ``canary demo`` (``scripts/run``) writes ``canary-run.json`` into its
work directory (where its ``admin.token``, and for the simulator run its ``canary.yaml``, are), and the
commands that talk to a running component (``canary admin``, ``canary trace``) look for it:

- beside the ``--config`` file they are given (the demo's generated ``canary.yaml``);
- in the directory of the ``--token-file`` they are given (``WORKDIR/admin.token``);
- for a user's configuration run from elsewhere (``canary demo --config canary.yaml``, the real-key run), in
  a per-user index keyed by the configuration's absolute path (``$XDG_STATE_HOME/canary/runs/``, default
  ``~/.local/state/canary/runs/``), which holds a copy of the record;
- given none of these, the newest run's record (``latest.json`` in that index), so ``canary admin
  suspensions`` in a second terminal reaches the demo ``scripts/run`` started.

The file is JSON, written atomically (a temporary file, fsync, rename)::

    {"written_at": UNIX, "pid": PID, "urls": {"receiver": URL, "exporter": URL, "prometheus": URL,
     "alertmanager": URL, ...}, "paths": {"workdir": PATH, "config": PATH, ...}}

It is a hint, not state: a reader drops a record whose process has ended (``live``) and still checks that a
URL answers. Reads are bounded (64 KiB) and never raise on a missing or malformed file.

Example::

    write_run_record(workdir, {"receiver": "http://127.0.0.1:40123"}, {"config": config_path})
    record = read_run_record(workdir / "canary.yaml")   # {"urls": {...}, "paths": {...}, "pid": ..., ...}
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import TypedDict

RUN_RECORD = "canary-run.json"
LATEST = "latest.json"  # in the per-user index: the newest run's record, for commands given no lead at all
MAX_BYTES = 64 * 1024
INDEX_ENV = "XDG_STATE_HOME"


def index_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The per-user directory of run records keyed by configuration path."""
    env = os.environ if environ is None else environ
    base = env.get(INDEX_ENV, "").strip()
    root = Path(base) if base else Path(env.get("HOME", str(Path.home()))) / ".local" / "state"
    return root / "canary" / "runs"


def _index_path(config_path: Path, environ: Mapping[str, str] | None = None) -> Path:
    key = hashlib.sha256(str(config_path.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:32]
    return index_dir(environ) / f"{key}.json"


def _write_atomically(target: Path, text: str) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    with partial.open("w", encoding="utf-8") as sink:
        sink.write(text)
        sink.flush()
        os.fsync(sink.fileno())
    partial.replace(target)


def write_run_record(
    directory: Path,
    urls: Mapping[str, str],
    paths: Mapping[str, Path] | None = None,
    *,
    environ: Mapping[str, str] | None = None,
) -> Path:
    """Write (atomically) the run record of ``directory``; returns its path. When ``paths`` names a
    ``config`` outside ``directory``, the per-user index gets a copy keyed by that configuration."""
    record = {
        "written_at": time.time(),
        "pid": os.getpid(),
        "urls": dict(urls),
        "paths": {name: str(path) for name, path in (paths or {}).items()},
    }
    text = json.dumps(record, indent=2) + "\n"
    target = directory / RUN_RECORD
    _write_atomically(target, text)
    config = (paths or {}).get("config")
    with contextlib.suppress(OSError):  # the index is a convenience; the work dir's record stands
        if config is not None and Path(config).resolve().parent != directory.resolve():
            _write_atomically(_index_path(Path(config), environ), text)
        _write_atomically(index_dir(environ) / LATEST, text)
    return target


def remove_run_record(
    directory: Path, config: Path | None = None, *, environ: Mapping[str, str] | None = None
) -> None:
    """Remove the records a run wrote (at its clean end), only those written by this process."""
    targets = [directory / RUN_RECORD, index_dir(environ) / LATEST]
    if config is not None:
        targets.append(_index_path(config, environ))
    for target in targets:
        record = _read(target)
        if record is not None and record.get("pid") == os.getpid():
            with contextlib.suppress(OSError):
                target.unlink()


class RunRecord(TypedDict):
    """A run record as read back: only the fields of the expected types are kept."""

    urls: dict[str, str]  # service -> base URL
    paths: dict[str, str]  # what -> file
    pid: int | None
    source: str  # the file it was read from


def live(record: Mapping[str, object]) -> bool:
    """Whether the process that wrote ``record`` still runs (on this machine)."""
    pid = record.get("pid")
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's process: it exists
        return True
    return True


def _read(target: Path) -> RunRecord | None:
    try:
        with target.open("rb") as source:
            raw = source.read(MAX_BYTES + 1)
    except OSError:
        return None
    if len(raw) > MAX_BYTES:
        return None
    try:
        record = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(record, dict):
        return None
    urls, paths = record.get("urls"), record.get("paths")
    pid = record.get("pid")
    return {
        "urls": {k: v for k, v in urls.items() if isinstance(v, str)} if isinstance(urls, dict) else {},
        "paths": {k: v for k, v in paths.items() if isinstance(v, str)} if isinstance(paths, dict) else {},
        "pid": pid if isinstance(pid, int) and not isinstance(pid, bool) else None,
        "source": str(target),
    }


def read_latest_run_record(*, environ: Mapping[str, str] | None = None) -> RunRecord | None:
    """The newest local run's record (the per-user index's ``latest.json``), or None."""
    return _read(index_dir(environ) / LATEST)


def read_run_record_in(directory: Path) -> RunRecord | None:
    """The run record in ``directory``, or None when there is none or it is not one."""
    return _read(directory / RUN_RECORD)


def read_run_record(config_path: Path, *, environ: Mapping[str, str] | None = None) -> RunRecord | None:
    """The run record beside ``config_path``, else the per-user index's record of that configuration;
    None when there is none or it is not one."""
    return _read(config_path.resolve().parent / RUN_RECORD) or _read(_index_path(config_path, environ))


__all__ = [
    "RUN_RECORD",
    "RunRecord",
    "index_dir",
    "live",
    "read_latest_run_record",
    "read_run_record",
    "read_run_record_in",
    "remove_run_record",
    "write_run_record",
]
