"""Fork server for the crash test: imports the receiver once, then forks one real receiver process per
``spawn`` line on stdin, so hundreds of SIGKILL trials do not each pay the interpreter start-up.

Each child prints ``child <pid>`` and then runs the real ``canary receiver`` command
(``exporter.commands.canary``), which prints ``canary receiver: listening on <url> ...``; a child that cannot
start prints ``exited <code>`` or ``raised <exception>`` instead, so the test fails at once rather than
waiting for a line that never comes.
"""

from __future__ import annotations

import os
import signal
import sys

from exporter.commands import canary
from exporter.receiver import app, service  # noqa: F401 - imported once, before any fork


def main() -> None:
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # children are reaped automatically
    for line in sys.stdin:
        config = line.strip()
        pid = os.fork()
        if pid == 0:
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            print(f"child {os.getpid()}", flush=True)
            try:
                code = canary.main(["receiver", "--config", config])  # the store exists: never --init
            except BaseException as exc:  # the test must read a line, never wait forever
                print(f"raised {exc!r}", flush=True)
                os._exit(70)
            # A receiver that returns never listened (its error went to stderr): say so, or the test would
            # wait for its "listening" line forever.
            print(f"exited {code}", flush=True)
            os._exit(code)


if __name__ == "__main__":
    main()
