"""Live verdicts (opt-in, the ``router-judges`` extra): the probes' judges on the product's real replies,
in the router's process, off the hot path; counts per model, provider, contract, outcome and reason.

The router's transport (``exporter.router.observe``) offers each finished reply; ``offer`` puts it on a
bounded queue and returns at once (a full queue drops the reply and counts it). The judging runs in a child
process by default (``process=True``): judging a reply holds Python's GIL for milliseconds, which in the
router's own process would delay its requests' threads; in the child it uses another core and the router's
threads never wait for it. The reply crosses to the child through an OS pipe, in memory. ``process=False``
judges in a thread of the router's process instead (tests, single-core hosts). The judges are the probes':

- ``ttft`` (streamed replies): ``TTFTContract.judge`` with the configured threshold;
- ``reply`` (every reply): an empty reply fails ``empty_reply``; a refusal phrase, a story cut short
  mid-sentence or a loop fail ``refusal``, ``truncation`` or ``repetition`` (``reply_checks.screen``);
- ``language`` (when the product declared the request's locale, ``X-Canary-Locale``): the language and
  encoding judge (``exporter.language.judge``);
- ``structured`` (when the request asked for a ``json_schema``): bare, complete JSON valid against the
  request's own schema (``structured.judge_json``).

A reply the gateway answered with an error (an HTTP error or an error chunk) is counted once as
``reply``/``transport`` and judged no further: a transport error says nothing about a host's replies.

Content never leaves this module: the counters carry only the closed label values above, the reply is
dropped once judged, and nothing is logged about it. Labels are bounded: at most ``max_models`` models
and ``max_providers`` providers per model; the rest count under ``other``.

Example::

    judges = LiveJudges()
    observer = Observer(journal, lists=lists, live=judges.start())
    REGISTRY.register(RouterCollector(observer))
"""

from __future__ import annotations

import contextlib
import json
import logging
import multiprocessing
import multiprocessing.connection
import os
import queue
import signal
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError

from exporter.contracts.reply_checks import screen
from exporter.contracts.structured import judge_json
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.gateway.classify import status_class
from exporter.gateway.types import ChatResult
from exporter.language.judge import Judge, default_judge
from exporter.language.locales import canonical_locale
from exporter.outcomes import Outcome, Reason
from exporter.router.journal import Served
from exporter.router.observe import Reply, finish
from exporter.signals import STOP_SIGNALS

if TYPE_CHECKING:
    from multiprocessing.process import BaseProcess
    from multiprocessing.queues import Queue as ProcessQueue

# What the judging process sends back per reply: its journal record (a reply it decoded itself), the
# model and provider (None: no response came, nothing judged) and the verdicts (None: judging failed).
Judged = tuple[Served | None, str | None, str | None, list[tuple[str, str, str]] | None]

log = logging.getLogger("canary.router.live")

DEFAULT_QUEUE_SIZE = 1_000
MAX_MODELS = 50
MAX_PROVIDERS = 64
OTHER = "other"
_VALIDATORS = 64  # compiled request schemas kept (least recently used first out)
Key = tuple[str, str, str, str, str]


class LiveJudges:
    """Judges offered replies in a background thread; ``counts()`` is what the metrics export."""

    def __init__(
        self,
        *,
        ttft_threshold: float = TTFTSettings().threshold,
        queue_size: int = DEFAULT_QUEUE_SIZE,
        max_models: int = MAX_MODELS,
        max_providers: int = MAX_PROVIDERS,
        judge: Judge | None = None,
        process: bool = True,
    ) -> None:
        self._process = process and judge is None
        self._ttft_threshold = ttft_threshold
        self._queue_size = queue_size
        self._ttft = TTFTContract(TTFTSettings(threshold=ttft_threshold))
        self._judge = judge
        self._queue: queue.Queue[Reply | None] = queue.Queue(maxsize=queue_size)
        self._lock = threading.Lock()
        self._counts: Counter[Key] = Counter()
        self._dropped = 0
        self._judged = 0
        self._max_models, self._max_providers = max_models, max_providers
        self._providers: dict[str, set[str]] = {}
        self._validators: OrderedDict[str, Draft202012Validator | None] = OrderedDict()
        self._thread: threading.Thread | None = None
        self._child: BaseProcess | None = None  # the judging process
        self._inbox: ProcessQueue[object] | None = None  # replies (or finished chunks) to the child
        self._outbox: ProcessQueue[Judged | None] | None = None  # verdicts back
        self._accepted = 0
        self._on_served: Callable[[Served], object] | None = None

    # -- the observer's thread -------------------------------------------------------------------------
    def offer(self, reply: Reply) -> bool:
        """Queue ``reply`` for judging; False (counted) when the queue is full or the judges are stopped."""
        if self._thread is None or (self._process and (self._inbox is None or not self._child_alive())):
            self._drop()
            return False
        try:
            (self._inbox if self._inbox is not None else self._queue).put_nowait(reply)
        except queue.Full:
            self._drop()
            return False
        with self._lock:
            self._accepted += 1
        return True

    def offer_pending(self, pending: object, on_served: Callable[[Served], object]) -> bool:
        """In process mode, the whole finished reply (its chunks) goes to the child, which decodes it too and
        sends back its journal record (``on_served`` gets it) with the verdicts; False (nothing taken) in
        thread mode or when the queue is full: the observer then decodes and journals it itself."""
        if self._inbox is None or self._thread is None or not self._child_alive():
            return False  # a dead judges' process must not take the journal's records with it
        self._on_served = on_served
        try:
            self._inbox.put_nowait(("pending", pending))
        except queue.Full:
            return False
        with self._lock:
            self._accepted += 1
        return True

    def _child_alive(self) -> bool:
        child = self._child
        if child is None or child.is_alive():
            return True
        log.error("the live judges' process exited (code %s): replies are no longer judged", child.exitcode)
        self._child, self._inbox = None, None  # from now on offers are dropped and counted
        return False

    def _drop(self) -> None:
        with self._lock:
            self._dropped += 1

    # -- reads ------------------------------------------------------------------------------------------
    def counts(self) -> dict[Key, int]:
        """Judged outcomes so far by (model, provider, contract, outcome, reason)."""
        with self._lock:
            return dict(self._counts)

    def dropped(self) -> int:
        with self._lock:
            return self._dropped

    def judged(self) -> int:
        with self._lock:
            return self._judged

    def queued(self) -> int:
        with self._lock:
            return max(0, self._accepted - self._judged)

    # -- life cycle -------------------------------------------------------------------------------------
    def start(self) -> LiveJudges:
        if self._thread is not None:
            return self
        with _stop_signals_deferred():  # a stop signal meanwhile: once the child has its data
            if self._process:
                context = multiprocessing.get_context("spawn")  # no fork of a threaded process
                self._inbox, self._outbox = context.Queue(maxsize=self._queue_size), context.Queue()
                # An orderly stop hands the child every reply before its end mark (``stop``). When the child
                # is gone instead (the terminal closed: SIGHUP reaches the whole process group), what the
                # feeder thread still holds can never be read, and joining it at exit would hang this process.
                self._inbox.cancel_join_thread()
                self._child = context.Process(
                    target=serve, args=(self._inbox, self._outbox, self._ttft_threshold),
                    name="canary-live-judges", daemon=True,
                )  # fmt: skip
                # Stopping the child is this process's job: a terminal's Ctrl-C goes to the whole
                # foreground process group, and must not interrupt the child mid-import (a traceback on the
                # product's terminal, a stop that waits on it). It starts with SIGINT blocked and ignores
                # it (``serve``).
                blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
                try:
                    self._child.start()
                finally:
                    signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
                self._thread = threading.Thread(
                    target=self._collect, args=(self._outbox,), name="canary-live-verdicts", daemon=True
                )
            else:
                if self._judge is None:
                    self._judge = default_judge()  # loads the language models once (~0.1 s)
                self._thread = threading.Thread(target=self._run, name="canary-live-judges", daemon=True)
            self._thread.start()
        return self

    def stop(self, timeout: float = 5.0) -> None:
        thread, self._thread = self._thread, None
        if thread is None:
            return
        with contextlib.suppress(queue.Full):
            (self._inbox if self._inbox is not None else self._queue).put(None, timeout=timeout)
        thread.join(timeout)
        if self._child is not None:
            self._child.join(timeout)
            if self._child.is_alive():
                self._child.terminate()
            self._child = None

    def flush(self, timeout: float = 10.0) -> None:
        """Wait until every reply accepted so far is judged (tests, orderly stops)."""
        deadline = time.monotonic() + timeout
        while self.queued() and time.monotonic() < deadline:
            time.sleep(0.005)

    def _collect(self, outbox: ProcessQueue[Judged | None]) -> None:
        """The parent's side of the child: its verdicts into the counters (labels bounded here)."""
        while (item := outbox.get()) is not None:
            served, model, provider, verdicts = item
            if served is not None and self._on_served is not None:
                self._on_served(served)
            if model is None or provider is None:  # no response came: journaled, nothing to judge
                with self._lock:
                    self._judged += 1
                continue
            self._count(model, provider, verdicts)

    # -- the judging thread -----------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            reply = self._queue.get()
            try:
                if reply is None:
                    return
                self._count(reply.model, reply.provider, self.verdicts(reply))
            except Exception:  # never the reply in the message: only where it came from
                log.exception("live judge failed on a reply of %s from %s", reply and reply.model,
                              reply and reply.provider)  # fmt: skip
            finally:
                self._queue.task_done()

    def _count(self, model: str, provider: str, verdicts: Sequence[tuple[str, str, str]] | None) -> None:
        model, provider = self._labels(model, provider)
        with self._lock:
            self._judged += 1
            for contract, outcome, reason in verdicts or ():
                self._counts[(model, provider, contract, str(outcome), str(reason))] += 1

    def _labels(self, model: str, provider: str) -> tuple[str, str]:
        seen = self._providers.get(model)
        if seen is None:
            if len(self._providers) >= self._max_models:
                return OTHER, OTHER
            seen = self._providers[model] = set()
        if provider not in seen:
            if len(seen) >= self._max_providers:
                return model, OTHER
            seen.add(provider)
        return model, provider

    def verdicts(self, reply: Reply) -> list[tuple[str, Outcome, Reason]]:
        """The (contract, outcome, reason) of each judge that applies to ``reply`` (pure, but for caches)."""
        if reply.error:  # an HTTP error's reason as the probes classify its status; 2xx: an error chunk
            reason = status_class(reply.status)[1] if reply.status >= 400 else Reason.MID_STREAM_ERROR
            return [("reply", Outcome.TRANSPORT, reason)]
        if not reply.complete:
            return []  # cut by the size limit or abandoned by the caller: not the host's whole reply
        result = ChatResult(
            status=reply.status,
            content=reply.content,
            finish_reason=reply.finish_reason,
            ttft_seconds=reply.ttft_seconds,
        )
        out: list[tuple[str, Outcome, Reason]] = []
        if reply.ttft_seconds is not None or (reply.content == "" and reply.finish_reason is not None):
            ttft = self._ttft.judge(result)
            out.append(("ttft", ttft.outcome, ttft.reason))
        if reply.schema is not None:
            validator = self._validator(reply.schema)
            if validator is not None:
                structured = judge_json(result, validator)
                out.append(("structured", structured.outcome, structured.reason))
            return out  # JSON is not prose: no refusal, truncation or language reading
        if not reply.content.strip():
            out.append(("reply", Outcome.FAIL, Reason.EMPTY_REPLY))
            return out
        finding = screen(reply.content, reply.finish_reason, curt=False)  # "No." may answer a real question
        out.append(
            ("reply", Outcome.FAIL, finding.reason) if finding else ("reply", Outcome.PASS, Reason.NONE)
        )
        locale = canonical_locale(reply.locale) if reply.locale else None
        if locale is not None and self._judge is not None:
            verdict = self._judge.judge(reply.content, locale)
            out.append(("language", verdict.outcome, verdict.reason))
        return out

    def _validator(self, schema: Mapping[str, object]) -> Draft202012Validator | None:
        key = json.dumps(schema, sort_keys=True, default=str)[:100_000]
        if key in self._validators:
            self._validators.move_to_end(key)
            return self._validators[key]
        try:
            Draft202012Validator.check_schema(schema)
            validator: Draft202012Validator | None = Draft202012Validator(schema)
        except SchemaError:
            validator = None  # the product's schema is invalid: nothing to judge against
        self._validators[key] = validator
        if len(self._validators) > _VALIDATORS:
            self._validators.popitem(last=False)
        return validator


@contextlib.contextmanager
def _stop_signals_deferred() -> Iterator[None]:
    """A stop signal (SIGTERM, SIGINT) that arrives inside the block takes effect when the block ends. A
    command's stop handler raises in the main thread wherever it is (``exporter.signals``); raised between
    spawning the judging process and writing it its start-up data, it would leave the child reading an
    empty pipe (a traceback in the product's log). Off the main thread no handler runs: nothing to defer."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    pending: list[int] = []
    previous = {sig: signal.signal(sig, lambda n, _frame: pending.append(n)) for sig in STOP_SIGNALS}
    previous = {sig: handler if handler is not None else signal.SIG_DFL for sig, handler in previous.items()}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        for signum in dict.fromkeys(pending):
            signal.raise_signal(signum)  # now the command's own handler stops it


def serve(inbox: ProcessQueue[object], outbox: ProcessQueue[Judged | None], ttft_threshold: float) -> None:
    """The judging process: replies in, (model, provider, verdicts) out, until a None. A reply whose judging
    fails is sent back with None verdicts (counted as judged, nothing else), its text never in a message."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a pending Ctrl-C (blocked since the start) is dropped
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(
            target=_exit_with, args=(parent.sentinel,), name="canary-parent-watch", daemon=True
        ).start()
    judges = LiveJudges(ttft_threshold=ttft_threshold, process=False, judge=default_judge())
    while True:
        item = inbox.get()
        if item is None:
            outbox.put(None)
            return
        served: Served | None = None
        if isinstance(item, tuple):  # ("pending", a finished reply's chunks): decode it here as well
            served, reply = finish(item[1])
        else:
            reply = item if isinstance(item, Reply) else None
        verdicts: list[tuple[str, str, str]] | None = None
        if reply is not None:
            try:
                verdicts = [(c, str(o), str(r)) for c, o, r in judges.verdicts(reply)]
            except Exception:
                log.exception("live judge failed on a reply of %s from %s", reply.model, reply.provider)
        model, provider = (reply.model, reply.provider) if reply is not None else (None, None)
        outbox.put((served, model, provider, verdicts))


def _exit_with(parent_sentinel: int) -> None:
    """The judging process ends with the router's: a router killed outright (SIGKILL, the OOM killer) never
    sends the end mark, and its child would wait for replies forever, holding the judges' memory and
    multiprocessing's resource tracker. The sentinel becomes readable when the parent is gone."""
    multiprocessing.connection.wait([parent_sentinel])
    os._exit(0)  # nothing to hand back: the only reader of the verdicts is dead
