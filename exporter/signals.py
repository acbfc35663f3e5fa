"""Clean stops on SIGTERM, SIGINT and SIGHUP for every long-running command (docker stop, systemd, Ctrl-C,
a closed terminal or a ``kill -HUP`` meant as "reload").

``stop_on_signals()`` wraps a command's run: the first SIGTERM or SIGINT raises ``StopSignal`` in the main
thread, the command's ``finally`` blocks close listeners and write snapshots, and the block ends normally, so
the process exits 0. While uvicorn serves in the main thread it holds both signals itself, shuts down
gracefully and then re-raises the signal; that re-raise lands here and stops the command the same way
(without this, a re-raised SIGTERM met the default handler and killed the process before its cleanup).
Further signals while stopping are logged and ignored, so cleanup is never cut short. A stop raised while
the main thread runs a finalizer (a weakref callback, ``__del__``), where Python drops exceptions, is sent
again a moment later instead of being lost.

SIGHUP (whose default action kills the process without any cleanup) is sent on as SIGTERM, so it takes
exactly SIGTERM's path, uvicorn's graceful shutdown included; no command reloads its configuration on it.
A command that owns a terminal can name SIGHUP in ``also`` to see it as itself (``StopSignal.signum``).

Example::

    with stop_on_signals():
        server.run(sockets=[sock])    # returns (or raises StopSignal, swallowed) on SIGTERM
    service.close()
"""

from __future__ import annotations

import contextlib
import logging
import signal
import sys
import threading
from collections.abc import Iterator
from types import FrameType

log = logging.getLogger("exporter.signals")
STOP_SIGNALS = (signal.SIGTERM, signal.SIGINT)
REDELIVERY_DELAY_S = 0.05  # a stop raised inside a finalizer (and dropped there) is sent again after this


class StopSignal(Exception):
    """A stop signal arrived; raised once, in the main thread."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals(also: tuple[signal.Signals, ...] = ()) -> Iterator[None]:
    """Turn the first SIGTERM/SIGINT (or one of ``also``) into ``StopSignal``, SIGHUP into SIGTERM; swallow
    the stop at the block's end.

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

    def as_sigterm(signum: int, frame: FrameType | None) -> None:
        log.info("%s: stopping as on SIGTERM", signal.Signals(signum).name)
        signal.raise_signal(signal.SIGTERM)  # whoever holds SIGTERM now (uvicorn, or handler) stops

    hook = sys.unraisablehook

    def swallowed(unraisable: sys.UnraisableHookArgs) -> None:
        # Python runs a signal handler between any two bytecodes, also inside a weakref callback or a
        # __del__, whose exceptions it reports here and drops: the stop would be lost and every later
        # signal ignored as "while stopping". Deliver it again from outside, a moment later, when the main
        # thread has left the finalizer.
        nonlocal stopping
        if not isinstance(stop := unraisable.exc_value, StopSignal):
            hook(unraisable)
            return
        log.info("%s arrived inside a finalizer: delivered again", stop)
        stopping = False
        threading.Timer(REDELIVERY_DELAY_S, signal.raise_signal, (stop.signum,)).start()

    handlers = {signal.SIGHUP: as_sigterm, **dict.fromkeys((*STOP_SIGNALS, *also), handler)}
    previous = {sig: signal.signal(sig, action) for sig, action in handlers.items()}
    sys.unraisablehook = swallowed
    try:
        yield
    except StopSignal as stop:
        log.info("stopped on %s", stop)
    finally:
        sys.unraisablehook = hook
        for sig, old in previous.items():
            signal.signal(sig, old)
