"""The store's state tables: the current state, one row per model, and the digest that proves them.

``parts`` holds one row per model that the state mentions: ``body``, the model's ``Part`` as compact JSON
(``part_to_json``), and three columns derived from it that the receiver looks rows up by (indexed):
``due`` (``Part.due``: what the clock expires), ``forget`` and ``faded`` (``Part.forget`` and
``Part.faded``: what the hourly prune forgets). ``incident_models`` maps each current incident's id to its
model (an administrator names an incident by id alone). A decision rewrites the rows of the models it
changed, in the same transaction as the decision itself (``write_parts``), so the tables always hold the
state at the head of the log.

The digest proves the tables whole: the sum, modulo 2^256, of the SHA-256 of every row (``row_hash``)
and of the head's ``pruned_at``. A commit updates it with the rows it removes and adds; ``table_digest``
recomputes it with one streaming scan. A flipped, deleted or added row (or a changed ``pruned_at``) makes
the two differ; a multiset sum is order-free, so a scan needs no sort and a commit costs its own rows.

Example::

    digest = write_parts(db, [("m/x", part)], digest)        # inside the decision's transaction
    assert table_digest(db, pruned_at) == digest
"""

from __future__ import annotations

import hashlib
import json
import math
import sqlite3
import threading
from collections.abc import Iterable, Iterator
from types import MappingProxyType
from typing import Any

from exporter.receiver.ladder import Offense
from exporter.receiver.state import EMPTY_PART, Episode, Hold, Incident, Mode, Part, Suspension

__all__ = [
    "SCHEMA",
    "Tables",
    "digest_bytes",
    "part_from_json",
    "part_to_json",
    "replace_parts",
    "row_hash",
    "table_digest",
    "write_parts",
]

SCHEMA = (
    "CREATE TABLE parts (model TEXT PRIMARY KEY, body TEXT NOT NULL, due REAL, forget REAL, faded REAL)",
    "CREATE INDEX parts_due ON parts (due) WHERE due IS NOT NULL",
    "CREATE INDEX parts_forget ON parts (forget) WHERE forget IS NOT NULL",
    "CREATE INDEX parts_faded ON parts (faded) WHERE faded IS NOT NULL",
    "CREATE TABLE incident_models (id TEXT PRIMARY KEY, model TEXT NOT NULL)",
)
TABLES = frozenset({"parts", "incident_models"})
_MODULUS = 1 << 256
_NEVER = -1e308  # ``faded`` of a route whose history is empty: prunable at once


def row_hash(table: str, *values: str | float | None) -> int:
    """The SHA-256 of one row (its table, then each value length-prefixed: no two rows share an
    encoding), as an integer."""
    h = hashlib.sha256(table.encode())
    for value in values:
        text = "N" if value is None else value if isinstance(value, str) else repr(float(value))
        raw = text.encode("utf-8", "surrogatepass")
        h.update(len(raw).to_bytes(4, "big"))
        h.update(raw)
    return int.from_bytes(h.digest(), "big")


def digest_bytes(digest: int) -> bytes:
    return digest.to_bytes(32, "big")


def _time(value: float) -> float | None:
    """A derived time as stored: None for never; an empty history's -inf as the least finite value."""
    return None if value == math.inf else _NEVER if value == -math.inf else value


def _row(model: str, part: Part) -> tuple[str, str, float | None, float | None, float | None]:
    return model, part_to_json(part), _time(part.due), _time(part.forget), _time(part.faded)


def pruned_at_hash(pruned_at: float) -> int:
    return row_hash("pruned_at", pruned_at)


def write_parts(db: sqlite3.Connection, parts: Iterable[tuple[str, Part]], digest: int) -> int:
    """Replace the rows of each model of ``parts`` (an empty part removes them) and return ``digest``
    updated by the rows removed and added. Call inside the transaction that writes the decisions."""
    for model, part in parts:
        old = db.execute(
            "SELECT model, body, due, forget, faded FROM parts WHERE model = ?", (model,)
        ).fetchone()
        if old is not None:
            digest -= row_hash("parts", *old)
        for incident_id, owner in db.execute(
            "SELECT id, model FROM incident_models WHERE model = ?", (model,)
        ).fetchall():
            digest -= row_hash("incident_models", incident_id, owner)
        db.execute("DELETE FROM incident_models WHERE model = ?", (model,))
        if part.empty:
            db.execute("DELETE FROM parts WHERE model = ?", (model,))
            continue
        row = _row(model, part)
        db.execute(
            "INSERT OR REPLACE INTO parts (model, body, due, forget, faded) VALUES (?, ?, ?, ?, ?)", row
        )
        digest += row_hash("parts", *row)
        for incident_id in part.incidents:
            db.execute(
                "INSERT OR REPLACE INTO incident_models (id, model) VALUES (?, ?)", (incident_id, model)
            )
            digest += row_hash("incident_models", incident_id, model)
    return digest % _MODULUS


def replace_parts(db: sqlite3.Connection, parts: Iterable[tuple[str, Part]], pruned_at: float) -> int:
    """Replace every row by those of ``parts`` (a rebuild); the digest of the result."""
    db.execute("DELETE FROM parts")
    db.execute("DELETE FROM incident_models")
    return write_parts(db, parts, pruned_at_hash(pruned_at))


def table_digest(db: sqlite3.Connection, pruned_at: float) -> int:
    """The digest of the rows as stored, by one streaming scan (memory holds one row at a time)."""
    digest = pruned_at_hash(pruned_at)
    for row in db.execute("SELECT model, body, due, forget, faded FROM parts"):
        digest += row_hash("parts", *row)
    for row in db.execute("SELECT id, model FROM incident_models"):
        digest += row_hash("incident_models", *row)
    return digest % _MODULUS


class Tables:
    """The tables as a ``state.Source``: what a state backed by the store reads, on a connection of its
    own (``db``, shared by the threads that read under one lock). ``ValueError`` names a row that cannot
    be read."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db
        self._lock = threading.Lock()
        self._closed = False

    def _rows(self, sql: str, args: tuple[object, ...] = ()) -> list[Any]:
        with self._lock:
            if self._closed:
                raise RuntimeError("the store is closed: a state read from it can no longer read its parts")
            return self._db.execute(sql, args).fetchall()

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
        rows = self._rows("SELECT model FROM incident_models WHERE id = ?", (incident_id,))
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
        holds=MappingProxyType({p: Hold(since, until, why) for p, since, until, why in doc.get("o", ())}),
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
