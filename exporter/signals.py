"""Clean stops on SIGTERM and SIGINT for every long-running command (docker stop, systemd, Ctrl-C).

``stop_on_signals()`` wraps a command's run: the first SIGTERM or SIGINT raises ``StopSignal`` in the main
thread, the command's ``finally`` blocks close listeners and write snapshots, and the block ends normally, so
the process exits 0. While uvicorn serves in the main thread it holds both signals itself, shuts down
gracefully and then re-raises the signal; that re-raise lands here and stops the command the same way
(without this, a re-raised SIGTERM met the default handler and killed the process before its cleanup).
Further signals while stopping are logged and ignored, so cleanup is never cut short.

Example::

    with stop_on_signals():
        server.run(sockets=[sock])    # returns (or raises StopSignal, swallowed) on SIGTERM
    service.close()
"""

from __future__ import annotations

import contextlib
import logging
import signal
from collections.abc import Iterator
from types import FrameType

log = logging.getLogger("exporter.signals")
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)


class StopSignal(Exception):
    """A stop signal arrived; raised once, in the main thread."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals(also: tuple[signal.Signals, ...] = ()) -> Iterator[None]:
    """Turn the first SIGTERM/SIGINT (or one of ``also``) into ``StopSignal``; swallow it at the block's end.

    ``also`` adds signals that stop this command, e.g. SIGHUP for one that owns a terminal (the demo's live
    view: closing the terminal must still close the Prometheus and Alertmanager it started).
    """
    stopping = False

    def handler(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        if stopping:
            log.warning("%s while stopping: still closing down", signal.Signals(signum).name)
            return
        stopping = True
        raise StopSignal(signum)

    previous = {sig: signal.signal(sig, handler) for sig in (*STOP_SIGNALS, *also)}
    try:
        yield
    except StopSignal as stop:
        log.info("stopped on %s", stop)
    finally:
        for sig, old in previous.items():
            signal.signal(sig, old)
