"""The evidence store: one SQLite row per probe attempt, bounded in age and size; history, never state.

Layout: one file (plus SQLite's ``-wal``/``-shm``), WAL mode, schema version in ``PRAGMA user_version``.
``synchronous=NORMAL``: a power cut may lose the last transactions (one round's rows), never corrupt the file;
that is the right trade for a history that nothing decides from (streaks live in memory, decisions in the
receiver's fully-synced store), and it keeps each round's write to one WAL append without an fsync.

It never stops probing. Every failure to open, check or write is *counted* by kind
(``write_errors()``, exported as ``canary_evidence_write_errors_total{kind}``) and logged once per kind:

- ``damaged``: ``PRAGMA quick_check`` failed or the file is not a database; the file is moved aside to
  ``<path>.damaged-<unix time>`` and a fresh store starts (the old history stays for a human to look at);
- ``schema``: the file was written by a newer version (left untouched; the store stays closed);
- ``unavailable``: the store could not be opened (e.g. an unwritable directory); it is retried at most once a
  minute, and the records of the meantime are dropped and counted;
- ``full``, ``readonly``, ``io``, ``other``: a write failed (SQLite's error name decides the kind); that
  call's records are dropped.

Bounds: ``excerpt`` at most ``textkit.EXCERPT_MAX_BYTES`` (1 KiB UTF-8), ``detail`` ``DETAIL_MAX_CHARS``, the
judge's ``evidence`` at most ``EVIDENCE_JSON_MAX_BYTES`` of JSON (long strings and lists are cut first, then
the whole value is replaced by a marker). Keys that name credentials (``authorization``, ``api_key``,
``cookie``, ``secret``, ``password``) are dropped from evidence wherever they appear: no header or key is ever
stored.

Retention: rows older than ``retention_seconds`` are deleted in the same transaction as each write. Size:
``max_bytes`` bounds the database file's *used* pages, ``(page_count - freelist_count) * page_size`` (rows
and indexes; the WAL, at most about 4 MiB with SQLite's default auto-checkpoint, comes on top). Past it the
oldest rows are deleted down to 90 % of the cap and the freed pages are returned to the file system
(``auto_vacuum=INCREMENTAL``), so the file itself stays near the cap.

Example::

    store = EvidenceStore("evidence.sqlite3")
    result = judged(Outcome.PASS, Reason.NONE, "", ChatResult(content="Hello", served_by="DeepInfra"))
    store.record([EvidenceRecord(time.time(), 1, "m/x", "p", "ttft", attempt=1, result=result)])
    page = store.query(model="m/x", limit=10)     # newest first; page.next_cursor for the next page
"""

from __future__ import annotations

import base64
import binascii
import json
import logging
import math
import os
import re
import sqlite3
import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Unpack

from typing_extensions import TypedDict  # pydantic reads a typing.TypedDict only from Python 3.12

from exporter.contracts.base import ProbeResult
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason, Usage
from exporter.sqlitekit import (
    connect,
    create_schema,
    integrity_problem,
    return_freed_pages,
    stored_schema,
    transaction,
)
from exporter.textkit import bounded_excerpt

log = logging.getLogger("exporter.evidence")

SCHEMA_VERSION = 1
DEFAULT_RETENTION_SECONDS = 14 * 86400.0
DEFAULT_MAX_BYTES = 1 << 30  # 1 GiB: about 100 hosts for 14 days at the 30-minute cadence (docs/evidence.md)
MIN_MAX_BYTES = 64 * 1024  # below this the schema alone does not fit
DETAIL_MAX_CHARS = 500
EVIDENCE_JSON_MAX_BYTES = 8192
QUERY_MAX_LIMIT = 500
QUERY_DEFAULT_LIMIT = 100
PAGE_MAX_BYTES = 1 << 20  # a page's records as JSON; the page stops before it (docs/evidence.md)
LABEL_MAX_CHARS = 256  # model, provider, contract, locale, generation id, served_by, ...
MAX_ROW_ID = (1 << 63) - 1  # SQLite's largest rowid
REOPEN_AFTER_SECONDS = 60.0
ERROR_KINDS = ("damaged", "schema", "unavailable", "full", "readonly", "io", "other")
_CUT_STRING_CHARS = 200
_CUT_LIST_ITEMS = 20
_CREDENTIAL_KEY = re.compile(r"authorization|api[_-]?key|cookie|secret|password", re.IGNORECASE)

_SCHEMA = (
    """CREATE TABLE evidence (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        at REAL NOT NULL, round INTEGER NOT NULL, model TEXT NOT NULL, provider TEXT NOT NULL,
        contract TEXT NOT NULL, attempt INTEGER NOT NULL, locale TEXT, outcome TEXT NOT NULL,
        reason TEXT NOT NULL, detail TEXT NOT NULL, evidence TEXT NOT NULL, excerpt TEXT NOT NULL,
        finish_reason TEXT, ttft_seconds REAL, prompt_tokens INTEGER NOT NULL,
        completion_tokens INTEGER NOT NULL, cost_usd REAL NOT NULL, generation_id TEXT, served_by TEXT,
        source TEXT NOT NULL)""",
    "CREATE INDEX evidence_at ON evidence (at)",
    "CREATE INDEX evidence_route ON evidence (model, provider, at)",
    "CREATE INDEX evidence_outcome ON evidence (outcome, at)",  # fleet-wide "what failed lately"
)


@dataclass(frozen=True, slots=True)
class EvidenceRecord:
    """One probe attempt as kept in the history: the judged attempt and where and when it was sent (attempt
    1 is the probe, 2.. its confirmations). Read back, ``result.reply`` holds only usage and provenance."""

    at: float  # unix seconds
    round: int
    model: str
    provider: str
    contract: str
    attempt: int
    result: ProbeResult
    source: str = "round"


def attempt_records(
    result: ProbeResult,
    *,
    at: float,
    round_number: int,
    model: str,
    provider: str,
    contract: str,
    source: str = "round",
) -> list[EvidenceRecord]:
    """The records of one contract's probe of one host: attempt 1 is the probe, 2.. its confirmations.

    A ``skipped`` result sent nothing and has no record.

    >>> first = ProbeResult(Outcome.FAIL, Reason.MIXING, excerpt="Olá ... Hola")
    >>> decided = ProbeResult(Outcome.FAIL, Reason.MIXING, attempts=(first, first, first))
    >>> [r.attempt for r in attempt_records(decided, at=0, round_number=1, model="m/x", provider="p",
    ...                                      contract="language")]
    [1, 2, 3]
    """
    if result.outcome is Outcome.SKIPPED:
        return []
    attempts = enumerate(result.attempts or (result,), start=1)
    return [EvidenceRecord(at, round_number, model, provider, contract, n, a, source) for n, a in attempts]


class EvidenceJson(TypedDict):
    """A record as its table row and as ``GET /v1/evidence`` sends it, in column order: ``at`` in unix
    seconds, outcome and reason (text on the wire), the judge's structured ``evidence``, an ``excerpt`` of
    at most 1 KiB of UTF-8 (the reply's start and offending span), ``source`` "round" or "investigate"."""

    at: float
    round: int
    model: str
    provider: str
    contract: str
    attempt: int
    locale: str | None
    outcome: Outcome
    reason: Reason
    detail: str
    evidence: dict[str, object]
    excerpt: str
    finish_reason: str | None
    ttft_seconds: float | None
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    generation_id: str | None
    served_by: str | None
    source: str


def record_columns(r: EvidenceRecord) -> EvidenceJson:
    """The record as its table row and its JSON object (the store and the API edge)."""
    a, reply = r.result, r.result.reply
    return EvidenceJson(
        at=r.at, round=r.round, model=r.model, provider=r.provider, contract=r.contract, attempt=r.attempt,
        locale=a.locale, outcome=a.outcome, reason=a.reason, detail=a.detail, evidence=a.evidence,
        excerpt=a.excerpt, finish_reason=reply.finish_reason, ttft_seconds=a.ttft_seconds,
        prompt_tokens=a.usage.prompt_tokens, completion_tokens=a.usage.completion_tokens,
        cost_usd=a.usage.cost_usd, generation_id=reply.generation_id, served_by=reply.served_by,
        source=r.source,
    )  # fmt: skip


_COLUMNS = tuple(EvidenceJson.__annotations__)  # the table's columns, in this order
# SQL is built from the constant column list only; every value is a bound parameter.
_COLUMN_LIST = ", ".join(_COLUMNS)
_INSERT = f"INSERT INTO evidence ({_COLUMN_LIST}) VALUES ({', '.join('?' for _ in _COLUMNS)})"  # noqa: S608
_SELECT = f"SELECT id, {_COLUMN_LIST} FROM evidence"  # noqa: S608


class Query(TypedDict, total=False):
    """The filters of ``EvidenceStore.query`` (None or absent: any), its page size and the cursor of the
    page to go on from."""

    model: str | None
    provider: str | None
    contract: str | None
    outcome: str | None
    since: float | None
    until: float | None
    limit: int
    cursor: str | None


@dataclass(frozen=True, slots=True)
class EvidencePage:
    """One page of a query, newest first; ``next_cursor`` (None on the last page) asks for the next one."""

    records: list[EvidenceRecord]
    next_cursor: str | None = None


class InvalidQuery(ValueError):
    """A query argument is out of range or malformed; ``parameter`` names it."""

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(f"{parameter}: {message}")
        self.parameter = parameter


class EvidenceUnavailable(RuntimeError):
    """The store is not open (damaged, newer schema or unwritable location): nothing can be read now."""


def bounded_evidence(evidence: Mapping[str, object], max_bytes: int = EVIDENCE_JSON_MAX_BYTES) -> str:
    """The evidence as JSON of at most ``max_bytes``: credentials dropped, long values cut, else a marker."""
    for cut in (False, True):
        text = json.dumps(_clean(evidence, cut), ensure_ascii=False, default=str, separators=(",", ":"))
        if len(text.encode()) <= max_bytes:
            return text
    kept = sorted(str(k) for k in evidence if not _CREDENTIAL_KEY.search(str(k)))
    marker = {"truncated": True, "json_bytes": len(text.encode()), "keys": kept[:50]}
    return json.dumps(marker, ensure_ascii=False)[:max_bytes]


def _clean(value: object, cut: bool) -> object:
    """``value`` as JSON can hold it without credentials; with ``cut``, long strings and lists shortened."""
    if isinstance(value, Mapping):
        return {str(k): _clean(v, cut) for k, v in value.items() if not _CREDENTIAL_KEY.search(str(k))}
    if isinstance(value, list | tuple):
        return [_clean(v, cut) for v in (value[:_CUT_LIST_ITEMS] if cut else value)]
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if cut and isinstance(value, str) and len(value) > _CUT_STRING_CHARS:
        return value[:_CUT_STRING_CHARS] + "…"
    return value


def _error_kind(exc: BaseException) -> str:
    name = getattr(exc, "sqlite_errorname", "") or ""
    if name == "SQLITE_FULL":
        return "full"
    if name.startswith("SQLITE_READONLY") or name.startswith("SQLITE_CANTOPEN"):
        return "readonly"
    if name in ("SQLITE_CORRUPT", "SQLITE_NOTADB"):
        return "damaged"
    if name.startswith("SQLITE_IOERR") or isinstance(exc, OSError):
        return "io"
    return "other"


def _encode_cursor(at: float, row_id: int) -> str:
    return base64.urlsafe_b64encode(f"{at!r}:{row_id}".encode()).decode().rstrip("=")


def _decode_cursor(cursor: str) -> tuple[float, int]:
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        at, row_id = raw.split(":")
        if not re.fullmatch(r"[0-9]{1,19}", row_id):
            raise ValueError(row_id)
        value = (float(at), int(row_id))
    except (ValueError, binascii.Error, UnicodeDecodeError):
        raise InvalidQuery("cursor", "not a cursor returned by a previous page") from None
    if not math.isfinite(value[0]) or value[1] > MAX_ROW_ID:
        raise InvalidQuery("cursor", "not a cursor returned by a previous page")
    return value


@dataclass(slots=True)
class _Errors:
    counts: Counter[str] = field(default_factory=Counter)
    logged: set[str] = field(default_factory=set)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, kind: str, message: str, *args: object, dropped: int = 0) -> None:
        with self.lock:
            self.counts[kind] += 1
            first = kind not in self.logged
            self.logged.add(kind)
        if first:  # once per kind: a full disk must not flood the log every round
            log.error("evidence store error kind=%s dropped=%d " + message, kind, dropped, *args)


class EvidenceStore:
    """The evidence history. Thread-safe: one writer connection and one reader connection, each locked."""

    def __init__(
        self,
        path: str | Path,
        *,
        retention_seconds: float = DEFAULT_RETENTION_SECONDS,
        max_bytes: int = DEFAULT_MAX_BYTES,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Open (or create) the store at ``path``. Never raises: a store that cannot open counts the error and
        retries later (see the module docstring)."""
        self.path = Path(path)
        self.retention_seconds = retention_seconds
        self.max_bytes = max(MIN_MAX_BYTES, max_bytes)
        self._clock = clock
        self._errors = _Errors()
        self._write_lock = threading.Lock()
        self._read_lock = threading.Lock()
        self._writer: sqlite3.Connection | None = None
        self._reader: sqlite3.Connection | None = None
        self._schema_refused = False
        self._identity: tuple[int, int] | None = None  # (st_dev, st_ino) of the file the connections hold
        self._last_attempt = -math.inf
        self.records_written = 0
        with self._write_lock:
            self._connect()

    def write_errors(self) -> dict[str, int]:
        """Errors by kind since start (what ``canary_evidence_write_errors_total`` exports)."""
        with self._errors.lock:
            return dict(self._errors.counts)

    def _connect(self) -> None:
        self._last_attempt = self._clock()
        try:
            self._open_checked()
        except _Damaged as exc:
            self._errors.count("damaged", "path=%s problem=%s; moved aside, starting afresh", self.path, exc)
            self._move_aside()
            try:
                self._open_checked()
            except (_Damaged, sqlite3.Error, OSError) as again:
                self._errors.count("unavailable", "path=%s error=%r", self.path, again)
        except _NewerSchema as exc:
            self._schema_refused = True
            self._errors.count("schema", "path=%s %s; left untouched, no history is kept", self.path, exc)
        except (sqlite3.Error, OSError) as exc:
            self._errors.count("unavailable", "path=%s error=%r", self.path, exc)

    def _file_identity(self) -> tuple[int, int] | None:
        try:
            stat = os.stat(self.path)
        except OSError:
            return None
        return stat.st_dev, stat.st_ino

    def replaced(self) -> str | None:
        """Why the open connections no longer hold the file at ``path`` (deleted, or replaced by another
        file while running), else None. Writes to such a connection would go to an unlinked file."""
        if self._writer is None or self._identity is None:
            return None
        now = self._file_identity()
        if now is None:
            return f"the evidence file {self.path} was deleted while the exporter ran"
        if now != self._identity:
            return f"the evidence file {self.path} was replaced by another file while the exporter ran"
        return None

    def _drop_connections(self) -> None:
        """Close both connections (the caller holds the write lock)."""
        with self._read_lock:
            for conn in (self._writer, self._reader):
                if conn is not None:
                    conn.close()
            self._writer = self._reader = None
            self._identity = None

    def _open_checked(self) -> None:
        """Open both connections on the file at ``path``, checked (``_Damaged``, ``_NewerSchema``)."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        writer: sqlite3.Connection | None = None
        try:
            try:
                writer = connect(self.path, synchronous="NORMAL", incremental_vacuum=True)
                problem = integrity_problem(writer, quick=True)
            except sqlite3.DatabaseError as exc:
                if _error_kind(exc) == "damaged":
                    raise _Damaged(str(exc)) from exc
                raise
            if problem is not None:
                raise _Damaged(problem[:200])
            version, _ = stored_schema(writer)
            if version > SCHEMA_VERSION:
                raise _NewerSchema(f"schema version {version} is newer than this program's {SCHEMA_VERSION}")
            if version == 0:
                create_schema(writer, _SCHEMA, SCHEMA_VERSION)
            reader = sqlite3.connect(self.path, timeout=5.0, isolation_level=None, check_same_thread=False)
            reader.execute("PRAGMA query_only=1")
        except BaseException:
            if writer is not None:
                writer.close()
            raise
        self._writer, self._reader, self._identity = writer, reader, self._file_identity()

    def _move_aside(self) -> None:
        stamp = int(self._clock())
        for suffix in ("", "-wal", "-shm"):
            source = self.path.with_name(self.path.name + suffix)
            if source.exists():
                try:
                    source.rename(self.path.with_name(f"{self.path.name}.damaged-{stamp}{suffix}"))
                except OSError as exc:
                    self._errors.count("io", "cannot move %s aside: %r", source, exc)

    def close(self) -> None:
        """Close both connections (idempotent)."""
        with self._write_lock:
            self._drop_connections()

    # -- writing -------------------------------------------------------------------------------------------
    def record(self, records: Sequence[EvidenceRecord]) -> None:
        """Append ``records`` in one transaction and enforce retention and the size cap. Never raises for
        store trouble: the records are dropped and the error counted."""
        if not records:
            return
        rows = [_row(r) for r in records]
        with self._write_lock:
            if (gone := self.replaced()) is not None:  # never write (and count) into an unlinked file
                self._errors.count("unavailable", "%s; starting a new file", gone)
                self._drop_connections()
                self._connect()
            retry_due = self._clock() - self._last_attempt >= REOPEN_AFTER_SECONDS
            if self._writer is None and not self._schema_refused and retry_due:
                self._connect()
            conn = self._writer
            if conn is None:
                self._errors.count(
                    "unavailable", "path=%s the store is not open", self.path, dropped=len(rows)
                )
                return
            try:
                with transaction(conn):
                    conn.executemany(_INSERT, rows)
                    conn.execute(
                        "DELETE FROM evidence WHERE at < ?", (self._clock() - self.retention_seconds,)
                    )
                    pruned = self._enforce_size(conn)
                if pruned:
                    return_freed_pages(conn)
            except (sqlite3.Error, OSError) as exc:
                self._errors.count(_error_kind(exc), "path=%s error=%r", self.path, exc, dropped=len(rows))
                return
            self.records_written += len(rows)

    def _enforce_size(self, conn: sqlite3.Connection) -> bool:
        used = self._used_bytes(conn)
        if used <= self.max_bytes:
            return False
        for _ in range(8):  # each pass deletes the share of rows that should free the excess
            (count,) = conn.execute("SELECT COUNT(*) FROM evidence").fetchone()
            if count == 0 or used <= self.max_bytes * 0.9:
                break
            share = 1 - (self.max_bytes * 0.9) / used
            doomed = max(1, math.ceil(count * share))
            conn.execute(
                "DELETE FROM evidence WHERE id IN (SELECT id FROM evidence ORDER BY at, id LIMIT ?)",
                (doomed,),
            )
            used = self._used_bytes(conn)
        return True

    @staticmethod
    def _used_bytes(conn: sqlite3.Connection) -> int:
        pages, free, size = (
            conn.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count", "page_size")
        )
        return int((pages - free) * size)

    def used_bytes(self) -> int:
        """The database's used pages in bytes (what ``max_bytes`` bounds); 0 when closed."""
        with self._write_lock:
            return self._used_bytes(self._writer) if self._writer is not None else 0

    # -- reading -------------------------------------------------------------------------------------------
    def query(self, *, max_bytes: int = PAGE_MAX_BYTES, **query: Unpack[Query]) -> EvidencePage:
        """Records matching every given filter, newest first (``since`` inclusive, ``until`` exclusive):
        at most ``limit`` records and at most ``max_bytes`` of them as JSON (``record_json_bytes``; a page
        always holds one record). A page cut short by either bound has a ``next_cursor``.

        Raises ``InvalidQuery`` for a limit outside 1..QUERY_MAX_LIMIT or a foreign cursor, and
        ``EvidenceUnavailable`` when the store is not open, its file was deleted or replaced, or SQLite
        fails to read it.
        """
        given: dict[str, object] = dict(query)
        limit, cursor = query.get("limit", QUERY_DEFAULT_LIMIT), query.get("cursor")
        if not 1 <= limit <= QUERY_MAX_LIMIT:
            raise InvalidQuery("limit", f"expected 1 to {QUERY_MAX_LIMIT} (got {limit})")
        filters = {"model": "model = ?", "provider": "provider = ?", "contract": "contract = ?",
                   "outcome": "outcome = ?", "since": "at >= ?", "until": "at < ?"}  # fmt: skip
        where = [condition for key, condition in filters.items() if given.get(key) is not None]
        args = [given[key] for key in filters if given.get(key) is not None]
        if cursor is not None:
            at, row_id = _decode_cursor(cursor)
            where.append("(at < ? OR (at = ? AND id < ?))")
            args += [at, at, row_id]
        sql = _SELECT + (f" WHERE {' AND '.join(where)}" if where else "")
        sql += " ORDER BY at DESC, id DESC LIMIT ?"
        with self._read_lock:
            if self._reader is None:
                raise EvidenceUnavailable(f"the evidence store at {self.path} is not open (see the log)")
            if (gone := self.replaced()) is not None:
                raise EvidenceUnavailable(f"{gone}; a new one starts with the next round's records")
            records: list[EvidenceRecord] = []
            last: tuple[float, int] | None = None
            more = False
            size = 2  # the list's brackets
            try:
                rows = self._reader.execute(sql, [*args, limit + 1])
                for row in rows:  # streamed: never more than the page in memory
                    record = _record(row)
                    cost = record_json_bytes(record) + 1
                    if len(records) == limit or (records and size + cost > max_bytes):
                        more = True
                        break
                    records.append(record)
                    size += cost
                    last = (record.at, row[0])
                rows.close()
            except sqlite3.Error as exc:
                problem = f"the evidence store at {self.path} cannot be read: {exc}"
                raise EvidenceUnavailable(problem) from None
        next_cursor = _encode_cursor(*last) if more and last is not None else None
        return EvidencePage(records, next_cursor)


class _Damaged(Exception):
    pass


class _NewerSchema(Exception):
    pass


def record_json_bytes(record: EvidenceRecord) -> int:
    """The record's size as the API sends it (compact JSON, UTF-8)."""
    text = json.dumps(record_columns(record), ensure_ascii=False, default=str, separators=(",", ":"))
    return len(text.encode("utf-8", errors="replace"))


def _row(r: EvidenceRecord) -> tuple[object, ...]:
    """The record as its table row (column affinities make the numbers REAL or INTEGER), bounded: every text
    a label (model, provider, ...) of at most ``LABEL_MAX_CHARS`` but the three with bounds of their own."""
    values = {k: v[:LABEL_MAX_CHARS] if isinstance(v, str) else v for k, v in record_columns(r).items()}
    values["detail"] = r.result.detail[:DETAIL_MAX_CHARS]
    values["evidence"] = bounded_evidence(r.result.evidence)
    values["excerpt"] = bounded_excerpt(r.result.excerpt)
    return tuple(values.values())


def _record(row: Sequence[Any]) -> EvidenceRecord:
    """A row as the record it was written from: the judge's evidence parsed, outcome and reason typed (a
    value this program does not know, as a newer one may write, reads as ``inconclusive``/``none``)."""
    (_, at, round_, model, provider, contract, attempt, locale, outcome, reason, detail, evidence_json,
     excerpt, finish_reason, ttft, prompt_tokens, completion_tokens, cost_usd, generation_id, served_by,
     source) = row  # fmt: skip
    try:
        evidence = json.loads(evidence_json)
    except ValueError:
        evidence = {"unreadable": True}
    reply = ChatResult(finish_reason=finish_reason, generation_id=generation_id, served_by=served_by,
                       usage=Usage(prompt_tokens, completion_tokens, cost_usd))  # fmt: skip
    result = ProbeResult(
        next((o for o in Outcome if o == outcome), Outcome.INCONCLUSIVE),
        next((r for r in Reason if r == reason), Reason.NONE),
        detail, ttft, locale, evidence if isinstance(evidence, dict) else {"value": evidence}, excerpt, reply,
    )  # fmt: skip
    return EvidenceRecord(at, round_, model, provider, contract, attempt, result, source)
