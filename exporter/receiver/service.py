"""The receiver's stateful shell: serialises decisions, makes them durable, then publishes the new state.

One writer: every change goes through ``_transact`` under a thread lock (so concurrent deliveries, admin
calls and the expiry sweeper are judged one at a time, whichever event loop they come from), is committed
to the store (append + fsync) and only then becomes the served state. Readers (ignore list, listings,
metrics) read immutable values the last commit published, so they never wait for a writer.

Example::

    with ReceiverService(config) as service:
        decisions = service.notify(notification)        # blocking; the app calls it in a worker thread
        view = service.ignore("moonshotai/kimi-k2-0905")  # view.body, view.etag
"""

from __future__ import annotations

import base64
import logging
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

from pydantic import TypeAdapter

from exporter.lifecycle import Closing
from exporter.receiver import bodies
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.decide import (
    Policy,
    Refused,
    Result,
    decide_expiry,
    decide_incident_add,
    decide_incident_remove,
    decide_lift,
    decide_notification,
)
from exporter.receiver.health import write_problem
from exporter.receiver.merge import IgnoreEntry, Layer, ignore_entries
from exporter.receiver.metrics import Counters, MetricsSnapshot
from exporter.receiver.payloads import Notification
from exporter.receiver.recent import Recent
from exporter.receiver.state import Decision, Hold, Mode, Part, Route, State
from exporter.receiver.store import Store, StoreError, StoreWriteError
from exporter.receiver.tags import canonical_tag
from exporter.web.etag import etag_of

log = logging.getLogger("canary.receiver")
DECISIONS_PAGE_MAX_BYTES = 1 << 20  # a /v1/decisions page's entries (docs/receiver.md, "Bounds")
SUSPENSIONS_PAGE = 1000  # the largest (and default) page of /v1/suspensions, in routes
MAX_CURSOR_CHARS = 16384  # a /v1/suspensions cursor: a model and a provider (labels of <= 1024 characters)
DECISIONS_PAGE = 1000  # the largest page of /v1/decisions, in entries
SUSPENSIONS_PAGE_MAX_BYTES = 1 << 20  # a /v1/suspensions page's items
CURSOR_PATTERN = re.compile(r"(?:[A-Za-z0-9_-]{4})*(?:[A-Za-z0-9_-]{2,3})?")  # unpadded base64url
_ITEM: TypeAdapter[bodies.SuspensionItem | Hold] = TypeAdapter(bodies.SuspensionItem | Hold)  # a page's items


@dataclass(frozen=True, slots=True)
class IgnoreView:
    body: bytes
    etag: str  # strong, quoted


class ReceiverService(Closing):
    """Owns the store and the current state; ``close`` releases the store lock.

    Creating it locks, checks and loads the store named in ``config`` (``StoreError`` if it cannot be
    used) and starts proving a long log's history in the background (``verify_history``). ``init`` creates a
    new, empty store in an empty directory (the CLI's ``--init``; refused elsewhere); ``adopt`` accepts a
    store its witness does not prove (``--adopt-store``, audited); ``fault`` is a test seam called
    inside every write transaction (raise ``OSError`` to fail the write).
    """

    def __init__(
        self,
        config: ReceiverConfig,
        *,
        clock: Callable[[], float] = time.time,
        fault: Callable[[], None] | None = None,
        init: bool = False,
        adopt: bool = False,
    ) -> None:
        self.config = config
        self.policy: Policy = config.policy()
        self._store = Store(
            config.store_dir, ladder=self.policy.ladder, clock=clock, fault=fault, init=init, adopt=adopt
        )
        if (problem := write_problem(config.store_dir)) is not None:  # it would answer 503 to every write
            self._store.close()
            raise StoreError(f"{problem}: every decision would fail; fix the permissions or the mount")
        self.write_error: str | None = None  # the last write's failure, until a write succeeds
        for warning in self._store.loaded.warnings:
            log.error("store recovery: %s", warning)
        self._clock = clock
        self._lock = threading.Lock()
        self._counter_lock = threading.Lock()
        self._closed = False
        self.damaged: str | None = None  # set when the background verification finds damage
        self._state = self._store.loaded.state
        self._counters = Counters()
        self._recent = Recent()
        self._view_lock = threading.Lock()  # guards swapping and filling the published views
        self._views: dict[str, IgnoreView] = {}
        self._spellings: Mapping[str, frozenset[str]] = MappingProxyType({})  # canonical -> stored spellings
        self._generated_at = clock()
        self._published = self._state  # the state the served lists reflect (a moment behind a commit)
        self._publish(self._state, clock(), None)
        threading.Thread(target=self._verify, name="receiver-verify", daemon=True).start()

    def _verify(self) -> None:
        if self.verify_history() is None:  # a damaged store is not written to, not even to repair a table
            self.verify_records()

    def health_problem(self) -> tuple[bodies.HealthStatus, str] | None:
        """Why the receiver cannot decide now, as ``(status, message)`` for ``/healthz``, else None: a
        damaged store, a store directory or file this process may not write, or a last write that failed
        (a full disk; cleared by the next write that succeeds)."""
        if self.damaged is not None:
            return "damaged", self.damaged
        if (problem := write_problem(self.config.store_dir)) is not None:
            return "unwritable", problem
        if self.write_error is not None:
            return "unwritable", f"the last write failed: {self.write_error}"
        return None

    def verify_history(self) -> str | None:
        """Prove the part of a long log that start-up did not (``Store.verify_history``). A problem is
        logged at ERROR and makes the receiver refuse every write (503, Alertmanager retries) and report
        ``damaged`` on /healthz, while it keeps serving the state start-up proved."""
        problem = self._store.verify_history()
        if problem is not None:
            log.error("store verification failed, refusing writes: %s", problem)
            self.damaged = problem
        return problem

    def verify_records(self) -> str | None:
        """Prove the record tables that start-up did not (a long log: ``Store.records_sound``), serving
        reads meanwhile; when they differ from their digest, rebuild them from the parts under the writer's
        lock (``Store.rebuild_records``), logged at ERROR. The recovery (or the failure to write it), else
        None."""
        try:
            if self._store.records_sound():
                return None
        except sqlite3.Error as exc:  # the file itself: what verify_history reports
            log.error(
                "store verification: cannot read the record tables of %s: %s", self.config.store_dir, exc
            )
            return f"cannot read the record tables: {exc}"
        with self._lock:
            if self._closed:
                return None
            try:
                message = self._store.rebuild_records()
            except StoreWriteError as exc:
                message = f"the record tables differ from their digest and cannot be rebuilt: {exc}"
                self.write_error = str(exc)
        log.error("store recovery: %s", message)
        return message

    def close(self) -> None:
        with self._lock:
            if not self._closed:
                self._closed = True
                self._store.close()

    # -- writes (blocking: call from a worker thread in async code) -----------------------------------
    def _transact(self, step: Callable[[State, float], Result | Refused]) -> tuple[Decision, ...] | Refused:
        with self._lock:
            if self._closed:
                raise RuntimeError("the receiver service is closed")
            if self.damaged is not None:
                raise StoreWriteError(f"the store is damaged: {self.damaged}")
            now = self._clock()
            try:  # reads the parts of the models concerned from the store
                outcome = step(self._state, now)
            except sqlite3.Error as exc:
                self.write_error = f"cannot read {self.config.store_dir}: {exc}"
                raise StoreWriteError(self.write_error) from None
            if isinstance(outcome, Refused):
                return outcome
            state, decisions = outcome
            journaled = tuple(d for d in decisions if d.journaled)
            repeats = [(str(d.kind), d.model) for d in decisions if not d.journaled]
            if repeats:  # counted only: a repeat changes nothing, so it is neither journaled nor fsynced
                self._count(lambda c: c.count_decisions(repeats))
            if journaled:
                started = time.perf_counter()
                try:
                    state = self._store.commit(journaled, state)  # raises StoreWriteError: nothing changes
                except StoreWriteError as exc:
                    self.write_error = str(exc)
                    if exc.durable and exc.state is not None:  # in the log, unacknowledged: memory follows it
                        self._publish(exc.state, now, {d.model for d in journaled if d.model is not None})
                    raise
                self.write_error = None
                elapsed = time.perf_counter() - started
                # Durable now: adopt it before anything that could fail, so memory never falls behind the log.
                before, self._state = self._state, state
                try:
                    self._recent = self._recent.after(before, journaled, now)
                    self._count(
                        lambda c: c.count_decisions(
                            [(str(d.kind), d.model) for d in journaled]
                        ).observe_write(elapsed)
                    )
                    for d in journaled:
                        log.info("decision %s %s %s: %s", d.kind, d.model or "-", d.provider or "-", d.reason)
                except Exception:
                    log.exception(
                        "decisions up to %d are recorded but could not be counted or logged", state.seq
                    )
                self._publish(state, now, {d.model for d in journaled if d.model is not None})
            return decisions

    def notify(self, notification: Notification) -> tuple[Decision, ...]:
        result = self._transact(lambda s, now: decide_notification(s, notification, now, self.policy))
        assert not isinstance(result, Refused)
        return result

    def lift(
        self, model: str, provider: str, reason: str, until: float | None = None
    ) -> tuple[Decision, ...] | Refused:
        return self._transact(lambda s, now: decide_lift(s, model, provider, reason, now, self.policy, until))

    def add_incident(
        self, model: str, provider: str, reason: str, until: float | None, force: bool = False
    ) -> tuple[Decision, ...] | Refused:
        return self._transact(
            lambda s, now: decide_incident_add(s, model, provider, reason, until, now, self.policy, force)
        )

    def remove_incident(self, incident_id: str, reason: str) -> tuple[Decision, ...] | Refused:
        return self._transact(lambda s, now: decide_incident_remove(s, incident_id, reason, now, self.policy))

    def sweep(self) -> tuple[Decision, ...]:
        """Expire what is due (the app calls this every second)."""
        result = self._transact(lambda s, now: decide_expiry(s, now, self.policy))
        assert not isinstance(result, Refused)
        return result

    def count_webhook(self, result: str) -> None:
        self._count(lambda c: c.count_webhook(result))

    def _count(self, change: Callable[[Counters], Counters]) -> None:
        with self._counter_lock:
            self._counters = change(self._counters)

    # -- publishing -----------------------------------------------------------------------------------
    def _publish(self, state: State, now: float, touched: set[str] | None) -> None:
        """Serve ``state``; only the lists of ``touched`` models are rebuilt, so the others keep their ETag
        and a decision costs the same however many models the receiver knows. With ``touched`` None
        (start-up) no list is built: each is built when it is first asked for."""
        self._state = state
        if touched is None:
            known = state.models() | {b.model for b in self.policy.builtin}
            # A store written before model names were canonical may hold other spellings (``RC/Case2``):
            # each is served under its canonical name, merged with it. New decisions are canonical, so
            # this map is built once, at start-up (from the models' names: no part is read).
            legacy: dict[str, set[str]] = {}
            for spelled in known:
                if (canonical := canonical_tag(spelled)) != spelled:
                    legacy.setdefault(canonical, set()).add(spelled)
            self._spellings = MappingProxyType({m: frozenset(s) for m, s in legacy.items()})
            views: dict[str, IgnoreView] = {}
        else:
            with self._view_lock:
                views = dict(self._views)
            for model in sorted({canonical_tag(m) for m in touched}):
                try:
                    views[model] = self._view(model, self._entries(model, state, now), now)
                except Exception:
                    # Never serve a stale list for a model: drop it, ``ignore`` rebuilds it from the state.
                    log.exception("cannot build the ignore list of %s at decision %d", model, state.seq)
                    views.pop(model, None)
        with self._view_lock:
            self._generated_at = now
            self._views = views
            self._published = state

    def _entries(
        self, model: str, state: State, now: float, part: Part | None = None
    ) -> tuple[IgnoreEntry, ...]:
        """The served entries of ``model`` (``part``: its part, when the caller holds it)."""
        # Observe mode excludes nothing (design.md §8), even suspensions enforced before a restart.
        enforce = self.policy.mode is Mode.ENFORCE
        own = part if part is not None else state.part(model)
        entries = ignore_entries(model, self.policy.builtin, own, now, suspensions=enforce)
        for spelled in self._spellings.get(model, ()):  # an earlier version's spelling of the same model
            old = ignore_entries(spelled, self.policy.builtin, state.part(spelled), now, suspensions=enforce)
            entries = tuple(sorted({*entries, *old}, key=lambda e: (e.provider, list(Layer).index(e.layer))))
        return entries

    def _known(self, model: str, state: State) -> bool:
        """Whether the state or the built-in layer mentions ``model`` (or a spelling of it)."""
        return (
            not state.part(model).empty
            or model in self._spellings
            or any(b.model == model for b in self.policy.builtin)
        )

    def _view(self, model: str, entries: tuple[IgnoreEntry, ...], now: float) -> IgnoreView:
        document = bodies.IgnoreList(
            model=model,
            ignore=sorted({e.provider for e in entries}),
            entries=list(entries),
            generated_at=now,
        )
        body = document.model_dump_json().encode()
        return IgnoreView(body, etag_of([body]))

    # -- reads (never block on a writer) --------------------------------------------------------------
    @property
    def state(self) -> State:
        return self._state

    def ignore(self, model: str) -> IgnoreView:
        """The merged ignore list of ``model`` as served by ``GET /v1/ignore``."""
        with self._view_lock:
            state, at, views = self._published, self._generated_at, self._views
            view = views.get(model)
        if view is None:  # not built since start-up, or a model nothing mentions: from the state, kept
            view = self._view(model, self._entries(model, state, at), at)
            with self._view_lock:
                if self._views is views and self._known(model, state):  # never made-up names: bounded
                    views[model] = view
        return view

    def suspensions(self, after: Route | None = None, limit: int = SUSPENSIONS_PAGE) -> bodies.Suspensions:
        """The suspensions and holds of the first ``limit`` routes after ``after`` (by model, then
        provider), at most ``SUSPENSIONS_PAGE_MAX_BYTES`` of items; ``next_after`` is the cursor of the
        next page (None on the last). Read through the store's index: a page costs its own routes."""
        now, ladder = self._clock(), self.policy.ladder
        page = self._store.tables.routes_page(after, limit)
        items: list[bodies.SuspensionItem] = []
        holds: list[Hold] = []
        size, last = 0, None
        for route in page.keys:
            chosen: list[bodies.SuspensionItem | Hold] = []
            if (s := page.suspensions.get(route)) is not None:
                offenses = page.offenses.get(route, [])
                same = {k: getattr(s, k) for k in bodies.SuspensionItem.model_fields if hasattr(s, k)}
                chosen.append(
                    bodies.SuspensionItem(
                        **same,  # the suspension's own fields, as stored
                        failing_contracts=list(s.explanation.get("failing_contracts", [])),
                        failing_reasons=list(s.explanation.get("failing_reasons", [])),
                        evidence_url=s.explanation.get("evidence_url"),
                        offense_level=ladder.level(offenses, now),
                        offenses=[bodies.Offense.model_validate(o, from_attributes=True) for o in offenses],
                    )
                )
            if (h := page.holds.get(route)) is not None:  # lifts that hold until a clean round or their until
                chosen.append(h)
            size += sum(len(_ITEM.dump_json(item)) for item in chosen)
            if last is not None and size > SUSPENSIONS_PAGE_MAX_BYTES:
                break
            items += [i for i in chosen if isinstance(i, bodies.SuspensionItem)]
            holds += [i for i in chosen if isinstance(i, Hold)]
            last = route
        more = last is not None and (last != page.keys[-1] or page.more)
        return bodies.Suspensions(
            mode=self.policy.mode,
            generated_at=now,
            suspensions=items,
            holds=holds,
            next_after=route_cursor(last) if more and last is not None else None,
        )

    def incidents(self) -> bodies.Incidents:
        """The incidents in force, read from the store's incidents table (by model, provider, id)."""
        return bodies.Incidents(incidents=self._store.tables.incidents())

    def decisions(
        self, *, since_seq: int | None, since_time: float | None, limit: int
    ) -> bodies.DecisionsPage:
        """Decisions after a seq cursor or a time (oldest first), else the latest ``limit`` ones; at most
        ``DECISIONS_PAGE_MAX_BYTES`` of entries (``truncated`` when that ended the page first).

        Read from the store's log (the whole history, paged), never from memory, and only up to the last
        decision the served ignore lists reflect: a decision that can be read is in force in ``/v1/ignore``
        (a commit is durable a moment before its lists are published)."""
        with self._view_lock:
            published = self._published.seq
        chosen = self._store.read_decisions(
            after_seq=since_seq,
            since_time=since_time,
            limit=limit,
            max_bytes=DECISIONS_PAGE_MAX_BYTES,
            up_to_seq=published,
        )
        after = since_seq if since_seq is not None else published  # an empty page: from here again
        if since_seq is None and since_time is None:  # the latest: cut at the old end
            truncated = bool(chosen) and len(chosen) < limit and chosen[0]["seq"] > 1
        else:
            truncated = bool(chosen) and len(chosen) < limit and chosen[-1]["seq"] < published
        return bodies.DecisionsPage(
            decisions=chosen,
            next_since=chosen[-1]["seq"] if chosen else after,
            oldest_in_memory=1 if self._state.seq else None,  # kept for compatibility: all are stored
            truncated=truncated,
        )

    def metrics_snapshot(self) -> MetricsSnapshot:
        """The figures of ``/metrics``, read from the store's record columns in one transaction (no model's
        part is decoded, except those of a legacy spelling or a built-in exclusion)."""
        state, now = self._state, self._clock()
        figures = self._store.tables.figures(now, self.policy.ladder.fade_after)
        # The served layers as ``merge.ignore_entries`` counts them: incidents in force, and (enforce mode)
        # the current enforced suspensions.
        in_force = Counter(m for m, _ in figures.incidents)
        enforced = figures.enforced if self.policy.mode is Mode.ENFORCE else {}
        builtin, incident, suspension = str(Layer.BUILTIN), str(Layer.INCIDENT), str(Layer.SUSPENSION)
        counts: dict[str, tuple[tuple[str, int], ...]] = {}
        spelled: set[str] = {b.model for b in self.policy.builtin} | set(self._spellings)
        for model in figures.models:
            if canonical_tag(model) == model and model not in spelled:
                suspended = enforced.get(model, 0)
                counts[model] = ((builtin, 0), (incident, in_force[model]), (suspension, suspended))
            else:
                spelled.add(canonical_tag(model))
        for model in spelled:  # several spellings, or the built-in layer: merged by ``_entries``
            counts[model] = _layer_counts(self._entries(model, state, now))
        return MetricsSnapshot(
            mode=self.policy.mode,
            suspensions=tuple(figures.suspended),
            offense_levels=tuple(figures.offense_levels),
            incidents=tuple(sorted(set(figures.incidents))),
            ignored=tuple(
                (m, layer, n) for m, layer_counts in sorted(counts.items()) for layer, n in layer_counts
            ),
            counters=self._counters,
            holds=tuple(figures.holds),
            recent=self._recent.after(state, (), now),
        )


def route_cursor(route: Route) -> str:
    """The ``after`` cursor of a listing page that ends at ``route``: base64url (unpadded) of
    ``model``, a newline (never in a tag) and ``provider``."""
    return base64.urlsafe_b64encode("\n".join(route).encode()).decode().rstrip("=")


def route_from_cursor(cursor: str) -> Route | None:
    """The position a cursor names (any text of ``CURSOR_PATTERN`` names one: the routes after it); None
    when ``cursor`` is not base64url or longer than ``MAX_CURSOR_CHARS``."""
    if len(cursor) > MAX_CURSOR_CHARS or CURSOR_PATTERN.fullmatch(cursor) is None:
        return None
    text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode("utf-8", "replace")
    model, _, provider = text.partition("\n")
    return model, provider


def _layer_counts(entries: tuple[IgnoreEntry, ...]) -> tuple[tuple[str, int], ...]:
    return tuple((str(layer), sum(e.layer is layer for e in entries)) for layer in Layer)
