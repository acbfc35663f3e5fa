"""The run record: where a local run's components actually listen, beside its configuration.

A configuration may say ``listen: 127.0.0.1:0`` (any free port, as the demo's does); only the running
process knows the port it got. ``canary demo`` writes ``canary-run.json`` into its work directory (where its
``canary.yaml`` is), and the read-only commands (``canary trace``) look for it beside the ``--config`` file
they are given, so they reach the receiver the run started.

The file is JSON: ``{"written_at": UNIX, "pid": PID, "urls": {"receiver": URL, ...}, "paths": {"journal":
PATH, ...}}``. It is a hint, not state: a reader checks that the URL answers.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

RUN_RECORD = "canary-run.json"
MAX_BYTES = 64 * 1024


def write_run_record(
    directory: Path, urls: Mapping[str, str], paths: Mapping[str, Path] | None = None
) -> Path:
    """Write (atomically) the run record of ``directory``; returns its path."""
    record = {
        "written_at": time.time(),
        "pid": os.getpid(),
        "urls": dict(urls),
        "paths": {name: str(path) for name, path in (paths or {}).items()},
    }
    target = directory / RUN_RECORD
    partial = target.with_suffix(".json.partial")
    partial.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    partial.replace(target)
    return target


def read_run_record(config_path: Path) -> dict[str, Any] | None:
    """The run record beside ``config_path``, or None when there is none or it is not one."""
    target = config_path.resolve().parent / RUN_RECORD
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
    return {
        "urls": {k: v for k, v in urls.items() if isinstance(v, str)} if isinstance(urls, dict) else {},
        "paths": {k: v for k, v in paths.items() if isinstance(v, str)} if isinstance(paths, dict) else {},
        "source": str(target),
    }
