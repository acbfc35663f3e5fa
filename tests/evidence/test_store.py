"""The evidence store: round trip, paging, retention, the size cap, damage and unwritable locations."""

from __future__ import annotations

import base64
import dataclasses
import doctest
import importlib
import json
import logging
import os
import sqlite3
from pathlib import Path

import jsonschema
import pytest

from exporter.contracts.base import ProbeResult
from exporter.evidence.api import Page, page_json, parse_query
from exporter.evidence.store import (
    DETAIL_MAX_CHARS,
    EVIDENCE_JSON_MAX_BYTES,
    LABEL_MAX_CHARS,
    MIN_MAX_BYTES,
    EvidencePage,
    EvidenceRecord,
    EvidenceStore,
    EvidenceUnavailable,
    InvalidQuery,
    record_columns,
    record_json_bytes,
)
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason, Usage
from exporter.textkit import EXCERPT_MAX_BYTES

REPLY = ChatResult(
    finish_reason="stop", served_by="Alpha", generation_id="gen-1", usage=Usage(40, 120, 0.0001)
)
BASE = EvidenceRecord(1_000.0, 1, "acme/model-1", "alpha", "language", attempt=1, result=ProbeResult(
    Outcome.FAIL, Reason.MIXING, "2 sentence(s) in es within pt-BR", locale="pt-BR",
    evidence={"foreign": [{"start": 10, "end": 40, "language": "es"}]},
    excerpt="Olá, viajante. El viento arrancó las velas.", reply=REPLY,
))  # fmt: skip
BASE_JSON = {
    "at": 1000.0, "round": 1, "model": "acme/model-1", "provider": "alpha", "contract": "language",
    "attempt": 1, "locale": "pt-BR", "outcome": "fail", "reason": "mixing",
    "detail": "2 sentence(s) in es within pt-BR",
    "evidence": {"foreign": [{"start": 10, "end": 40, "language": "es"}]},
    "excerpt": "Olá, viajante. El viento arrancó las velas.", "finish_reason": "stop", "ttft_seconds": None,
    "prompt_tokens": 40, "completion_tokens": 120, "cost_usd": 0.0001, "generation_id": "gen-1",
    "served_by": "Alpha", "source": "round",
}  # fmt: skip


def rec(**changes: object) -> EvidenceRecord:
    """BASE with some of its record's fields (at, round, model, provider) and its result's changed."""
    own = {k: v for k, v in changes.items() if k in ("at", "round", "model", "provider")}
    result = dataclasses.replace(BASE.result, **{k: v for k, v in changes.items() if k not in own})  # type: ignore[arg-type]
    return dataclasses.replace(BASE, result=result, **own)  # type: ignore[arg-type]


class Clock:
    def __init__(self, now: float = 10_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("name", ["store", "api"])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"exporter.evidence.{name}")
    failures, _ = doctest.testmod(module)
    assert failures == 0


def test_a_record_reads_back_exactly_and_the_file_is_wal_with_a_schema_version(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3", clock=Clock(2_000))
    store.record([BASE])
    assert store.query().records == [BASE]
    store.close()
    conn = sqlite3.connect(tmp_path / "e.sqlite3")
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1


def test_queries_filter_and_page_newest_first_without_gaps_or_repeats(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3", clock=Clock(9_000))
    rows = [rec(at=1_000.0 + i // 2, round=i, provider="alpha" if i % 3 else "beta") for i in range(25)]
    store.record(rows)
    seen: list[EvidenceRecord] = []
    cursor = None
    while True:
        page = store.query(provider="alpha", limit=4, cursor=cursor)
        seen += page.records
        if page.next_cursor is None:
            break
        cursor = page.next_cursor
    expected = sorted((r for r in rows if r.provider == "alpha"), key=lambda r: (-r.at, -r.round))
    assert seen == expected
    assert [r.round for r in store.query(since=1_010.0, until=1_011.0).records] == [21, 20]
    assert store.query(outcome="pass").records == []


def test_retention_deletes_rows_older_than_the_window_on_the_next_write(tmp_path: Path) -> None:
    clock = Clock(100_000)
    store = EvidenceStore(tmp_path / "e.sqlite3", retention_seconds=3_600, clock=clock)
    store.record([rec(at=100_000 - 3_700), rec(at=100_000 - 100)])
    assert [r.at for r in store.query().records] == [100_000 - 100]


def test_the_size_cap_prunes_the_oldest_rows_and_keeps_the_file_near_the_cap(tmp_path: Path) -> None:
    cap = 256 * 1024
    store = EvidenceStore(tmp_path / "e.sqlite3", max_bytes=cap, clock=Clock(1e9))
    for batch in range(40):
        store.record([rec(at=1e9 - 1e6 + batch * 100 + i, excerpt="x" * 900) for i in range(50)])
    assert store.used_bytes() <= cap
    newest = store.query(limit=1).records[0]
    assert newest.at == 1e9 - 1e6 + 39 * 100 + 49
    kept = store.query(limit=500).records
    assert 50 < len(kept) < 2000  # pruned, but not emptied
    store.close()
    assert os.path.getsize(tmp_path / "e.sqlite3") <= cap * 1.2


def test_a_lower_cap_shrinks_the_file_itself_not_only_its_used_pages(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite3"
    store = EvidenceStore(path, max_bytes=256 * 1024, clock=Clock(1e9))
    for batch in range(20):
        store.record([rec(at=1e9 - 1e6 + batch * 100 + i, excerpt="x" * 900) for i in range(50)])
    store.close()
    assert os.path.getsize(path) > 200 * 1024
    store = EvidenceStore(path, max_bytes=MIN_MAX_BYTES, clock=Clock(1e9))
    store.record([rec(at=1e9 - 10, excerpt="x" * 900)])
    store.close()
    assert os.path.getsize(path) <= MIN_MAX_BYTES * 1.5  # the freed pages went back to the file system


def test_excerpt_detail_and_evidence_are_bounded_and_credentials_are_never_stored(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3", clock=Clock(2_000))
    huge = {
        "Authorization": "Bearer sk-secret",
        "nested": {"api_key": "sk-also", "sentences": ["s" * 5000] * 200},
    }
    store.record([rec(excerpt="é" * 5000, detail="d" * 5000, evidence=huge)])
    got = store.query().records[0]
    assert len(got.result.excerpt.encode()) <= EXCERPT_MAX_BYTES
    assert len(got.result.detail) <= 500
    raw = sqlite3.connect(tmp_path / "e.sqlite3").execute("SELECT evidence FROM evidence").fetchone()[0]
    assert len(raw.encode()) <= EVIDENCE_JSON_MAX_BYTES
    assert "sk-secret" not in raw and "sk-also" not in raw and "Authorization" not in raw


def test_bad_query_arguments_name_the_parameter(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3")
    with pytest.raises(InvalidQuery) as limit:
        store.query(limit=0)
    assert limit.value.parameter == "limit"
    with pytest.raises(InvalidQuery) as cursor:
        store.query(cursor="not-a-cursor!")
    assert cursor.value.parameter == "cursor"


def test_a_damaged_file_is_moved_aside_counted_and_replaced_by_a_fresh_store(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "e.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with caplog.at_level(logging.ERROR, "exporter.evidence"):
        store = EvidenceStore(path, clock=Clock(1234))
    assert store.write_errors() == {"damaged": 1}
    assert (tmp_path / "e.sqlite3.damaged-1234").read_bytes().startswith(b"this is not")
    store.record([BASE])
    assert store.query().records == [BASE]
    assert "kind=damaged" in caplog.text


def test_a_newer_schema_is_left_untouched_and_no_history_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.close()
    store = EvidenceStore(path)
    store.record([BASE])
    assert store.write_errors() == {"schema": 1, "unavailable": 1}
    with pytest.raises(EvidenceUnavailable):
        store.query()
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 99


def test_an_unwritable_location_counts_errors_logs_once_and_retries_later(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the store's directory should be")
    clock = Clock(0)
    with caplog.at_level(logging.ERROR, "exporter.evidence"):
        store = EvidenceStore(blocked / "e.sqlite3", clock=clock)
        for _ in range(5):
            store.record([BASE])
    assert store.write_errors() == {"unavailable": 6}
    assert caplog.text.count("kind=unavailable") == 1
    blocked.unlink()
    clock.now = 30
    store.record([BASE])
    assert store.write_errors() == {"unavailable": 7}  # not retried within a minute: dropped, counted
    clock.now = 61
    store.record([BASE])
    assert store.query().records == [BASE]


def test_a_page_body_is_its_model_and_links_the_next_page() -> None:
    body = page_json(EvidencePage([BASE], "c1"), "/v1/evidence", {"model": "acme/model-1", "cursor": "c0"})
    schema = Page.model_json_schema(mode="serialization")
    jsonschema.validate(body, schema)
    assert body["records"][0] == BASE_JSON
    assert (body["next_cursor"], body["next"]) == ("c1", "/v1/evidence?model=acme%2Fmodel-1&cursor=c1")
    assert page_json(EvidencePage([]), "/v1/evidence", {})["next"] is None
    with pytest.raises(jsonschema.ValidationError):  # the schema refuses what the API never sends
        jsonschema.validate({**body, "records": [{"at": "yesterday"}]}, schema)


def test_a_cursor_beyond_sqlites_rowids_and_a_non_ascii_limit_are_refused_by_name(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3", clock=Clock())
    store.record([BASE])
    for row_id in (str(2**63), "9" * 30, "١", "+1", "1_0"):
        cursor = base64.urlsafe_b64encode(f"1000.0:{row_id}".encode()).decode()
        with pytest.raises(InvalidQuery) as refused:
            store.query(cursor=cursor)
        assert refused.value.parameter == "cursor"
    largest = base64.urlsafe_b64encode(f"1000.0:{2**63 - 1}".encode()).decode()
    assert store.query(cursor=largest).records == [BASE]  # the largest rowid is still a cursor
    for limit in ("²", "١٠", "1e2", " 5", "0005"):
        with pytest.raises(InvalidQuery) as bad:
            parse_query({"limit": limit})
        assert bad.value.parameter == "limit"


def test_since_and_until_read_a_time_as_every_command_does_and_name_the_parameter_otherwise() -> None:
    query = parse_query({"since": "2026-12-01T10:00:00Z", "until": "1796119260.5"})
    assert (query["since"], query["until"]) == (1796119200.0, 1796119260.5)
    for value in ("yesterday", "-5", "1e9", "99999999999999", "2026-12-01T10:00:00"):  # no offset: refused
        with pytest.raises(InvalidQuery, match="RFC 3339 time such as") as bad:
            parse_query({"since": value})
        assert bad.value.parameter == "since"


def test_a_page_stops_at_its_byte_budget_and_its_cursor_continues_without_gaps(tmp_path: Path) -> None:
    store = EvidenceStore(tmp_path / "e.sqlite3", clock=Clock())
    big = "\x01" * DETAIL_MAX_CHARS  # JSON escapes each as 6 bytes: the largest detail a record can carry
    store.record([rec(at=1000.0 + i, round=i, detail=big, model="m" * 1000) for i in range(40)])
    one = record_json_bytes(store.query(limit=1).records[0])
    assert 3000 < one < 5000 and len(store.query(limit=1).records[0].model) == LABEL_MAX_CHARS
    budget = 10 * one + 20
    seen: list[int] = []
    cursor = None
    while True:
        page = store.query(limit=500, cursor=cursor, max_bytes=budget)
        records = [record_columns(r) for r in page.records]
        size = len(json.dumps(records, ensure_ascii=False, separators=(",", ":")).encode())
        assert len(page.records) == 10 and size <= budget
        seen += [r.round for r in page.records]
        if (cursor := page.next_cursor) is None:
            break
    assert seen == list(range(39, -1, -1))
    assert len(store.query(max_bytes=1).records) == 1  # a page always carries one record


def test_a_file_deleted_while_running_answers_unavailable_and_the_next_write_starts_a_new_file(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "e.sqlite3"
    store = EvidenceStore(path, clock=Clock())
    store.record([BASE])
    for suffix in ("", "-wal", "-shm"):
        path.with_name(path.name + suffix).unlink(missing_ok=True)
    with pytest.raises(EvidenceUnavailable, match="was deleted"):
        store.query()
    with caplog.at_level(logging.ERROR, "exporter.evidence"):
        store.record([rec(round=2)])
    assert path.exists() and store.records_written == 2
    assert store.write_errors() == {"unavailable": 1} and "was deleted" in caplog.text
    assert [r.round for r in store.query().records] == [2]
    assert [r[0] for r in sqlite3.connect(path).execute("SELECT round FROM evidence")] == [2]


def test_a_file_replaced_while_running_is_not_written_through_the_old_handle(tmp_path: Path) -> None:
    path = tmp_path / "e.sqlite3"
    store = EvidenceStore(path, clock=Clock())
    store.record([BASE])
    os.rename(path, tmp_path / "moved.sqlite3")
    EvidenceStore(path).close()  # another file now holds the path
    with pytest.raises(EvidenceUnavailable, match="replaced"):
        store.query()
    store.record([rec(round=7)])
    assert [r.round for r in store.query().records] == [7]
