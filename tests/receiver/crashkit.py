"""Real receiver processes to kill: a pre-imported fork server (``crash_zygote.py``) and ``kill`` (SIGKILL,
then wait until the process is gone so its store lock is released). Shared by the crash and WAL-damage
tests."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

from .helpers import WEBHOOK_TOKEN


class Zygote:
    """A pre-imported parent that forks real receiver processes (see crash_zygote.py)."""

    def __init__(self) -> None:
        env = {**os.environ, "CRASH_WEBHOOK": WEBHOOK_TOKEN, "CRASH_ADMIN": "admin-secret"}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("crash_zygote.py"))],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**env, "PYTHONPATH": str(Path(__file__).parents[2])},
        )
        self.lock = threading.Lock()

    def spawn(self, config: Path) -> tuple[int, str]:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        with self.lock:
            self.proc.stdin.write(f"{config}\n".encode())
            self.proc.stdin.flush()
            pid = int(self.proc.stdout.readline().split()[1])
            line = self.proc.stdout.readline().decode()
        if "listening on " not in line:
            raise AssertionError(f"receiver did not start: {line!r}")
        return pid, line.split("listening on ")[1].split()[0]

    def close(self) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=10)
        self.proc.stdout.close()


def kill(pid: int) -> None:
    os.kill(pid, signal.SIGKILL)
    while True:  # the zygote reaps it; wait until it is gone (its store lock is then released)
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.001)
