"""The store's state tables: the current state, one row per model and one row per record, and the digest
that proves them.

``parts`` holds one row per model that the state mentions: ``body``, the model's ``Part`` as compact JSON
(``part_to_json``), and three columns derived from it that the receiver looks rows up by (indexed):
``due`` (``Part.due``: what the clock expires), ``forget`` and ``faded`` (``Part.forget`` and
``Part.faded``: what the hourly prune forgets). The record tables hold the same records one row each, so
whole-state reads (``figures`` for /metrics, ``routes_page`` for the listing) read columns and decode no
part: ``suspensions`` and ``holds`` by route, ``offenses`` by route and ``n`` (0 the newest, with ``ends``
and ``gap``, the time since the previous offense ended: the offense level is one grouped query), and
``incidents`` by id (an administrator names an incident by id alone). A decision rewrites every row of
the models it changed, in the same transaction as the decision itself (``write_parts``), so the tables
always hold the state at the head of the log.

Two digests prove the tables whole (``Digest``), each the sum, modulo 2^256, of the SHA-256 of rows
(their values as SQLite quotes them, ``_row_hash``): ``parts``, of every ``parts`` row and of the head's
``pruned_at`` (the state: proven before the receiver serves), and ``records``, of every row of the record
tables (derived from the parts: a large store proves them after start-up, and rebuilds them from the
parts when they differ, ``replace_records``). A commit updates both with the rows it removes and adds;
``parts_digest`` and ``records_digest`` recompute them with one streaming scan each. A flipped, deleted
or added row (or a changed ``pruned_at``) makes the two differ; a multiset sum is order-free, so a scan
needs no sort and a commit costs its own rows.

Example::

    digest = write_parts(db, [("m/x", part)], digest)        # inside the decision's transaction
    assert (parts_digest(db, pruned_at), records_digest(db)) == digest
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, NamedTuple

from exporter.receiver.ladder import Offense
from exporter.receiver.state import EMPTY_PART, Episode, Hold, Incident, Mode, Part, Route, Suspension

__all__ = [
    "SCHEMA",
    "Digest",
    "Tables",
    "digest_bytes",
    "part_from_json",
    "part_to_json",
    "parts_digest",
    "records_digest",
    "replace_parts",
    "replace_records",
    "write_parts",
]

SCHEMA = (
    "CREATE TABLE parts (model TEXT PRIMARY KEY, body TEXT NOT NULL, due REAL, forget REAL, faded REAL)",
    "CREATE INDEX parts_due ON parts (due) WHERE due IS NOT NULL",
    "CREATE INDEX parts_forget ON parts (forget) WHERE forget IS NOT NULL",
    "CREATE INDEX parts_faded ON parts (faded) WHERE faded IS NOT NULL",
    "CREATE TABLE incidents (id TEXT PRIMARY KEY, model TEXT NOT NULL, provider TEXT NOT NULL, "
    "reason TEXT NOT NULL, since REAL NOT NULL, until REAL)",
    "CREATE INDEX incidents_model ON incidents (model)",
    "CREATE TABLE suspensions (model TEXT NOT NULL, provider TEXT NOT NULL, mode TEXT NOT NULL, "
    "rung INTEGER NOT NULL, since REAL NOT NULL, until REAL NOT NULL, episode TEXT NOT NULL, "
    "reason TEXT NOT NULL, starts_at REAL, explanation TEXT NOT NULL, "
    "PRIMARY KEY (model, provider)) WITHOUT ROWID",
    "CREATE TABLE holds (model TEXT NOT NULL, provider TEXT NOT NULL, since REAL NOT NULL, until REAL, "
    "reason TEXT NOT NULL, PRIMARY KEY (model, provider)) WITHOUT ROWID",
    "CREATE TABLE offenses (model TEXT NOT NULL, provider TEXT NOT NULL, n INTEGER NOT NULL, "
    "at REAL NOT NULL, until REAL NOT NULL, rung INTEGER NOT NULL, episode TEXT NOT NULL, ended_at REAL, "
    "ends REAL NOT NULL, gap REAL, PRIMARY KEY (model, provider, n)) WITHOUT ROWID",
)
#: The tables a model's rows are in, with their columns (every one a model's rows, keyed by ``model`` first).
_COLUMNS = {
    "parts": ("model", "body", "due", "forget", "faded"),
    "incidents": ("model", "id", "provider", "reason", "since", "until"),
    "suspensions": (
        *("model", "provider", "mode", "rung", "since", "until"),
        *("episode", "reason", "starts_at", "explanation"),
    ),
    "holds": ("model", "provider", "since", "until", "reason"),
    "offenses": ("model", "provider", "n", "at", "until", "rung", "episode", "ended_at", "ends", "gap"),
}
TABLES = frozenset(_COLUMNS)
#: The tables derived from the parts, one row per record, under the ``records`` digest.
RECORD_TABLES = ("incidents", "suspensions", "holds", "offenses")
_SELECT = {t: f"SELECT {', '.join(c)} FROM {t}" for t, c in _COLUMNS.items()}  # noqa: S608
_MARKS = {t: ", ".join("?" * len(c)) for t, c in _COLUMNS.items()}
_INSERT = {t: f"INSERT INTO {t} ({', '.join(c)}) VALUES ({_MARKS[t]})" for t, c in _COLUMNS.items()}  # noqa: S608
_DELETE = {t: f"DELETE FROM {t}" for t in _COLUMNS}  # noqa: S608
_QUOTES = {t: " || ',' || ".join(f"quote({x})" for x in c) for t, c in _COLUMNS.items()}
_QUOTED = {t: f"SELECT {_QUOTES[t]} FROM {t}" for t in _COLUMNS}  # noqa: S608 - every row as one text
#: The tables of format 3, which a migration replaces.
FORMAT_3_TABLES = ("incident_models",)
_MODULUS = 1 << 256
_NEVER = -1e308  # ``faded`` of a route whose history is empty: prunable at once


def _row_hash(table: str, text: str) -> int:
    """The SHA-256 of one row as an integer: its table and its values as SQLite quotes them (``_QUOTED``:
    text quoted with its quotes doubled, REAL with every digit, NULL, BLOB in hex; no two rows share it)."""
    return int.from_bytes(hashlib.sha256(f"{table}:{text}".encode("utf-8", "surrogatepass")).digest(), "big")


def digest_bytes(digest: int) -> bytes:
    return digest.to_bytes(32, "big")


def _time(value: float) -> float | None:
    """A derived time as stored: None for never; an empty history's -inf as the least finite value."""
    return None if value == math.inf else _NEVER if value == -math.inf else value


Row = tuple[str | float | None, ...]


def _row(model: str, part: Part) -> Row:
    return model, part_to_json(part), _time(part.due), _time(part.forget), _time(part.faded)


def pruned_at_hash(pruned_at: float) -> int:
    return _row_hash("pruned_at", repr(float(pruned_at)))


def _model_rows(model: str, part: Part) -> dict[str, list[Row]]:
    """The rows of ``model`` per table (none for an empty part), in ``_COLUMNS`` order."""
    if part.empty:
        return {}
    offenses: list[Row] = []
    for provider, history in sorted(part.history.items()):
        for k, o in enumerate(history):  # n counts back from the newest (0): the chain is a prefix of n
            gap = o.at - history[k - 1].end if k else None
            n = len(history) - 1 - k
            offenses.append((model, provider, n, o.at, o.until, o.rung, o.episode, o.ended_at, o.end, gap))
    return {
        "parts": [_row(model, part)],
        "incidents": [(model, i.id, i.provider, i.reason, i.since, i.until) for i in part.incidents.values()],
        "suspensions": [
            (model, p, str(s.mode), s.rung, s.since, s.until, s.episode, s.reason, s.starts_at, _text(x))
            for p, s in part.suspensions.items()
            if (x := s.explanation) is not None
        ],
        "holds": [(model, p, h.since, h.until, h.reason) for p, h in part.holds.items()],
        "offenses": offenses,
    }


def _text(explanation: object) -> str:
    return json.dumps(explanation, ensure_ascii=False, separators=(",", ":"), sort_keys=True, default=dict)


def _explanation(text: str) -> Mapping[str, object]:
    return MappingProxyType(json.loads(text))


class Digest(NamedTuple):
    """The head's digests: of the parts and ``pruned_at`` (the state), and of the record tables."""

    parts: int
    records: int


def _rewrite(db: sqlite3.Connection, model: str, rows: dict[str, list[Row]], names: Iterable[str]) -> int:
    """Replace the rows of ``model`` in the tables ``names`` by ``rows``; what that adds to their digest."""
    change = 0
    for table in names:
        for (old,) in db.execute(_QUOTED[table] + " WHERE model = ?", (model,)):
            change -= _row_hash(table, old)
        db.execute(_DELETE[table] + " WHERE model = ?", (model,))
        if new_rows := rows.get(table):
            db.executemany(_INSERT[table], new_rows)
            for (new,) in db.execute(_QUOTED[table] + " WHERE model = ?", (model,)):  # as stored
                change += _row_hash(table, new)
    return change


def write_parts(db: sqlite3.Connection, parts: Iterable[tuple[str, Part]], digest: Digest) -> Digest:
    """Replace the rows of each model of ``parts`` in every table (an empty part removes them) and return
    ``digest`` updated by the rows removed and added. Call inside the decisions' transaction."""
    part_sum, record_sum = digest
    for model, part in parts:
        rows = _model_rows(model, part)
        part_sum += _rewrite(db, model, rows, ("parts",))
        record_sum += _rewrite(db, model, rows, RECORD_TABLES)
    return Digest(part_sum % _MODULUS, record_sum % _MODULUS)


def replace_parts(db: sqlite3.Connection, parts: Iterable[tuple[str, Part]], pruned_at: float) -> Digest:
    """Replace every row by those of ``parts`` (a rebuild); the digests of the result."""
    for delete in _DELETE.values():
        db.execute(delete)
    return write_parts(db, parts, Digest(pruned_at_hash(pruned_at), 0))


def replace_records(db: sqlite3.Connection) -> int:
    """Write the record tables anew from the ``parts`` rows (streamed); the ``records`` digest of the
    result. ``ValueError`` names a part that cannot be read."""
    for table in RECORD_TABLES:
        db.execute(_DELETE[table])
    digest = 0
    for model, body in db.execute("SELECT model, body FROM parts ORDER BY model"):
        digest += _rewrite(db, model, _model_rows(model, _decode(model, body)), RECORD_TABLES)
    return digest % _MODULUS


def _scan(db: sqlite3.Connection, names: Iterable[str], digest: int = 0) -> int:
    for table in names:
        for (text,) in db.execute(_QUOTED[table]):
            digest += _row_hash(table, text)
    return digest % _MODULUS


def parts_digest(db: sqlite3.Connection, pruned_at: float) -> int:
    """The ``parts`` digest of the rows as stored, by one streaming scan (memory holds one row at a time)."""
    return _scan(db, ("parts",), pruned_at_hash(pruned_at))


def records_digest(db: sqlite3.Connection) -> int:
    """The ``records`` digest of the record tables as stored, by one streaming scan."""
    return _scan(db, RECORD_TABLES)


_Fetched = list[Any]  # rows as sqlite3 returns them, typed by the method that reads them
_SPAN = " WHERE (model, provider) > (?, ?) AND (model, provider) <= (?, ?)"


@dataclass(frozen=True, slots=True)
class Figures:
    """The state's figures at one time, from the record columns (``Tables.figures``)."""

    suspended: list[tuple[str, str, str, int, float]]  # (model, provider, mode, rung, until), current
    offense_levels: list[tuple[str, str, int]]  # (model, provider, level), levels above 0
    incidents: list[tuple[str, str]]  # routes of the incidents in force, one per incident
    enforced: dict[str, int]  # model -> its current suspensions decided in enforce mode
    holds: list[tuple[str, str]]
    models: list[str]  # every model with a part, in order


@dataclass(frozen=True, slots=True)
class RoutesPage:
    """One page of routes (``Tables.routes_page``): their keys in order, and their records by route."""

    keys: list[Route]
    suspensions: dict[Route, Suspension]
    holds: dict[Route, Hold]
    offenses: dict[Route, list[Offense]]  # of the suspended routes, oldest first
    more: bool  # routes follow the page's last


class Tables:
    """The tables as a ``state.Source``: what a state backed by the store reads, on a connection of its
    own (``db``, shared by the threads that read under one lock). ``ValueError`` names a row that cannot
    be read."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._lock = threading.Lock()
        self._closed = False

    def _rows(self, sql: str, args: tuple[object, ...] = ()) -> _Fetched:
        with self._lock:
            self._check_open()
            return self._db.execute(sql, args).fetchall()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the store is closed: a state read from it can no longer read its parts")

    def _snapshot(self, queries: Sequence[tuple[str, tuple[object, ...]]]) -> list[_Fetched]:
        """The rows of each query, all read in one transaction (one committed state)."""
        with self._lock:
            self._check_open()
            self._db.execute("BEGIN")
            try:
                return [self._db.execute(sql, args).fetchall() for sql, args in queries]
            finally:
                self._db.execute("COMMIT")

    def figures(self, now: float, fade_after: float) -> Figures:
        """What ``/metrics`` shows at ``now``, read from the record columns in one transaction (no part
        is decoded): the offense level is the length of each route's chain (``Ladder.chain``), the
        offenses after its last gap of ``fade_after`` or more, 0 once its last offense ended
        ``fade_after`` before ``now``."""
        suspended, chains, enforced, incidents, holds, models = self._snapshot(
            [
                (
                    "SELECT model, provider, mode, rung, until FROM suspensions WHERE until > ? "
                    "ORDER BY model, provider",
                    (now,),
                ),
                (  # the chain: from the newest offense (n = 0) back to the newest gap of the fade or more
                    "SELECT model, provider, coalesce(min(CASE WHEN gap >= ? THEN n END), max(n)) + 1 "
                    "FROM offenses GROUP BY model, provider "
                    "HAVING ? - max(CASE WHEN n = 0 THEN ends END) < ?",
                    (fade_after, now, fade_after),
                ),
                (
                    "SELECT model, count(*) FROM suspensions WHERE until > ? AND mode = 'enforce' "
                    "GROUP BY model",
                    (now,),
                ),
                (
                    "SELECT model, provider FROM incidents WHERE until IS NULL OR until > ? "
                    "ORDER BY model, provider, id",
                    (now,),
                ),
                ("SELECT model, provider FROM holds ORDER BY model, provider", ()),
                ("SELECT model FROM parts ORDER BY model", ()),
            ]
        )
        return Figures(
            suspended=suspended,
            offense_levels=chains,
            incidents=incidents,
            enforced=dict(enforced),
            holds=holds,
            models=[m for (m,) in models],
        )

    def incidents(self) -> list[Incident]:
        """Every current incident, by route."""
        rows = self._rows(_SELECT["incidents"] + " ORDER BY model, provider, id")
        return [Incident(i, m, p, reason, since, until) for m, i, p, reason, since, until in rows]

    def routes_page(self, after: tuple[str, str] | None, limit: int) -> RoutesPage:
        """The suspensions and holds of the first ``limit`` routes after ``after`` that have either (in
        order of model then provider; ``None``: from the first), with each suspended route's offenses,
        read through the primary keys in one transaction: a page costs its own rows."""
        start = after or ("", "")
        (keys,) = self._snapshot(
            [
                (
                    "SELECT model, provider FROM suspensions WHERE (model, provider) > (?, ?) UNION "
                    "SELECT model, provider FROM holds WHERE (model, provider) > (?, ?) "
                    "ORDER BY 1, 2 LIMIT ?",
                    (*start, *start, limit + 1),
                )
            ]
        )
        more, keys = len(keys) > limit, keys[:limit]
        if not keys:
            return RoutesPage([], {}, {}, {}, more=False)
        span = (*start, *keys[-1])
        suspensions, holds, offenses = self._snapshot(
            [
                (_SELECT["suspensions"] + _SPAN + " ORDER BY model, provider", span),
                (_SELECT["holds"] + _SPAN, span),
                (
                    "SELECT o.model, o.provider, o.at, o.until, o.rung, o.episode, o.ended_at "
                    "FROM offenses o JOIN suspensions s ON s.model = o.model AND s.provider = o.provider "
                    "WHERE (s.model, s.provider) > (?, ?) AND (s.model, s.provider) <= (?, ?) "
                    "ORDER BY o.model, o.provider, o.n DESC",
                    span,
                ),
            ]
        )
        history: dict[Route, list[Offense]] = {}
        for m, p, *offense in offenses:
            history.setdefault((m, p), []).append(Offense(*offense))
        suspended = {
            (m, p): Suspension(m, p, Mode(mode), rung, since, until, ep, why, starts, _explanation(x))
            for m, p, mode, rung, since, until, ep, why, starts, x in suspensions
        }
        held = {(h[0], h[1]): Hold(*h) for h in holds}
        return RoutesPage([(m, p) for m, p in keys], suspended, held, history, more)

    def part(self, model: str) -> Part | None:
        rows = self._rows("SELECT body FROM parts WHERE model = ?", (model,))
        return _decode(model, rows[0][0]) if rows else None

    def parts(self) -> Iterator[tuple[str, Part]]:
        """Every row, in pages of 512 models by the primary key (the lock is held for one page at a time)."""
        page = self._rows("SELECT model, body FROM parts WHERE model >= '' ORDER BY model LIMIT 512")
        while page:
            for model, body in page:
                yield model, _decode(model, body)
            if len(page) < 512:
                return
            page = self._rows(
                "SELECT model, body FROM parts WHERE model > ? ORDER BY model LIMIT 512", (page[-1][0],)
            )

    def models(self) -> list[str]:
        return [m for (m,) in self._rows("SELECT model FROM parts")]

    def due_models(self, now: float) -> list[str]:
        return [m for (m,) in self._rows("SELECT model FROM parts WHERE due <= ?", (now,))]

    def prune_models(self, forget_before: float, faded_before: float) -> list[str]:
        return [
            m
            for (m,) in self._rows(
                "SELECT model FROM parts WHERE forget < ? UNION SELECT model FROM parts WHERE faded <= ?",
                (forget_before, faded_before),
            )
        ]

    def incident_model(self, incident_id: str) -> str | None:
        rows = self._rows("SELECT model FROM incidents WHERE id = ?", (incident_id,))
        return str(rows[0][0]) if rows else None

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()


def _decode(model: str, body: str) -> Part:
    try:
        return part_from_json(model, body)
    except (ValueError, TypeError, KeyError, IndexError, RecursionError) as exc:
        raise ValueError(
            f"parts: the row of model {model!r} cannot be read ({type(exc).__name__}: {exc})"
        ) from None


# -- the row body: a Part as compact JSON (lists by position; a record's model is the row's) -------------
def part_to_json(part: Part) -> str:
    doc: dict[str, object] = {
        "s": [
            [p, s.mode, s.rung, s.since, s.until, s.episode, s.reason, s.starts_at, dict(s.explanation)]
            for p, s in sorted(part.suspensions.items())
        ],
        "h": [
            [p, [[o.at, o.until, o.rung, o.episode, o.ended_at] for o in h]]
            for p, h in sorted(part.history.items())
        ],
        "o": [[p, h.since, h.until, h.reason] for p, h in sorted(part.holds.items())],
        "r": sorted(part.recovered.items()),
        "f": sorted(part.failing.items()),
        "i": [[k, i.provider, i.reason, i.since, i.until] for k, i in sorted(part.incidents.items())],
        "d": sorted(part.discovered) if part.discovered is not None else None,
        "j": sorted(part.joined.items()),
        "e": [
            [k, e.provider, e.first_seen, e.last_seen, e.closed_by, e.closed_at]
            for k, e in sorted(part.episodes.items())
        ],
        "x": sorted(part.resolved.items()),
    }
    kept = {k: v for k, v in doc.items() if v or (k == "d" and v is not None)}  # no hosts told is a fact
    return json.dumps(kept, ensure_ascii=False, separators=(",", ":"))


def part_from_json(model: str, body: str) -> Part:
    """The part of ``model`` from its row's body (a row the digest proved: built without checking each
    field; a malformed body raises ``ValueError`` or ``TypeError``)."""
    doc = json.loads(body)
    if not isinstance(doc, dict):
        raise ValueError("not a JSON object")
    if not doc:
        return EMPTY_PART
    d = doc.get("d")
    return Part(
        suspensions=MappingProxyType(
            {
                p: Suspension(model, p, Mode(mode), rung, since, until, ep, why, starts, MappingProxyType(x))
                for p, mode, rung, since, until, ep, why, starts, x in doc.get("s", ())
            }
        ),
        history=MappingProxyType({p: tuple(Offense(*o) for o in h) for p, h in doc.get("h", ())}),
        holds=MappingProxyType(
            {p: Hold(model, p, since, until, why) for p, since, until, why in doc.get("o", ())}
        ),
        recovered=MappingProxyType(dict(doc.get("r", ()))),
        failing=MappingProxyType(dict(doc.get("f", ()))),
        incidents=MappingProxyType(
            {k: Incident(k, model, p, why, since, until) for k, p, why, since, until in doc.get("i", ())}
        ),
        discovered=frozenset(d) if d is not None else None,
        joined=MappingProxyType(dict(doc.get("j", ()))),
        episodes=MappingProxyType({k: Episode(model, *e) for k, *e in doc.get("e", ())}),
        resolved=MappingProxyType(dict(doc.get("x", ()))),
    )
