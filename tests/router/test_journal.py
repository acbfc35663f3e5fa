"""The served-route journal and the router's transport: who served each request, bounded, off the hot path,
never content, and never a failed request because of the journal."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import openai
import pytest

from exporter.router import IgnoreListClient, Journal, Observer, Served, canary_http_client
from exporter.router.journal import (
    _INSERT,
    _row,
    find_generation,
    hash_key,
    load_secret,
    open_store,
    prune,
    read_served,
)
from exporter.router.live import LiveJudges
from exporter.router.observe import CanaryTransport, canary_async_http_client
from exporter.sqlitekit import connect

MODEL = "acme/roleplay-large"
MARKER = "ZQXJ-unique-reply-marker-7f3a"


def sse(*chunks: dict[str, object]) -> bytes:
    return b"".join(b"data: " + json.dumps(c).encode() + b"\n\n" for c in chunks) + b"data: [DONE]\n\n"


def chat_stream(
    text: str = f"Hello {MARKER} there.", provider: str = "DeepInfra", gen: str = "gen-1"
) -> bytes:
    return sse(
        {
            "id": gen,
            "provider": provider,
            "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}}],
        },
        {"id": gen, "provider": provider, "choices": [{"index": 0, "delta": {"content": text}}]},
        {"id": gen, "provider": provider, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]},
        {"id": gen, "choices": [], "usage": {"prompt_tokens": 3, "completion_tokens": 4}},
    )


class Gateway:
    """A MockTransport handler: a chat completion (streamed or not) and what it was sent."""

    def __init__(self) -> None:
        self.bodies: list[dict[str, object]] = []
        self.headers: list[httpx.Headers] = []

    def __call__(self, request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        self.bodies.append(body)
        self.headers.append(request.headers)
        if body.get("stream"):
            return httpx.Response(  # streamed, as a network transport returns it (not read yet)
                200, stream=httpx.ByteStream(chat_stream()), headers={"content-type": "text/event-stream"}
            )
        reply = {
            "id": "gen-2",
            "provider": "Parasail",
            "model": MODEL,
            "choices": [
                {"index": 0, "message": {"role": "assistant", "content": MARKER}, "finish_reason": "stop"}
            ],
        }
        return httpx.Response(200, json=reply)


@pytest.fixture
def journal(tmp_path: Path) -> Iterator[Journal]:
    j = Journal(tmp_path / "journal.sqlite3")
    yield j
    j.stop()


def lists_with(tags: list[str]) -> IgnoreListClient:
    def receiver(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"model": MODEL, "ignore": tags})

    lists = IgnoreListClient("http://r", [MODEL], transport=httpx.MockTransport(receiver))
    lists.poll_once()
    return lists


def test_a_streamed_request_is_journaled_with_who_served_it_and_the_ignore_list_sent(
    journal: Journal, tmp_path: Path
) -> None:
    gateway = Gateway()
    observer = Observer(journal, lists=lists_with(["bad/fp8"]))
    with canary_http_client(observer, transport=httpx.MockTransport(gateway)) as http:
        before = time.time()
        with http.stream(
            "POST",
            "http://gw/api/v1/chat/completions",
            json={"model": MODEL, "stream": True, "messages": [{"role": "user", "content": "hi"}]},
            headers={"X-Canary-User": "user-42", "X-Canary-Locale": "en"},
        ) as response:
            received = b"".join(response.iter_bytes())
    assert received == chat_stream()  # the caller's bytes are the gateway's, unchanged
    assert gateway.bodies[0]["provider"] == {"ignore": ["bad/fp8"]}
    assert not any(k.startswith("x-canary") for k in gateway.headers[0])  # our headers never leave
    observer.flush()
    (record,) = read_served(journal.path, since=before - 1, until=time.time() + 1)
    assert record.model == MODEL and record.ignore == ("bad/fp8",) and record.provider == "DeepInfra"
    assert record.generation_id == "gen-1" and record.finish_reason == "stop" and record.stream
    assert record.status == 200 and record.ttft_seconds is not None and record.ttft_seconds >= 0
    assert record.user_key == hash_key(journal.secret, "user-42") != "user-42"
    assert load_secret(journal.path, create=False) == journal.secret
    assert find_generation(journal.path, "gen-1") == record
    observer.stop()


def test_the_openai_sdk_installs_it_in_one_line_and_no_reply_text_reaches_journal_logs_or_metrics(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from prometheus_client import CollectorRegistry, generate_latest

    from exporter.router.metrics import RouterCollector

    caplog.set_level(logging.DEBUG)
    gateway = Gateway()
    journal = Journal(tmp_path / "journal.sqlite3")
    judges = LiveJudges().start()  # the reply is judged too: its counters must not carry it either
    observer = Observer(journal, lists=lists_with(["bad/fp8"]), live=judges)
    client = openai.OpenAI(
        base_url="http://gw/api/v1",
        api_key="k",
        http_client=canary_http_client(observer, transport=httpx.MockTransport(gateway)),
    )
    stream = client.chat.completions.create(
        model=MODEL,
        messages=[{"role": "user", "content": "hi"}],
        stream=True,
        extra_headers={"X-Canary-User": "user-7"},
        extra_body={"provider": {"ignore": ["mine/x"]}},
    )
    text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    assert MARKER in text
    reply = client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "hi"}])
    assert reply.choices[0].message.content == MARKER
    assert gateway.bodies[0]["provider"] == {"ignore": ["mine/x", "bad/fp8"]}
    observer.flush(timeout=120)  # the judging child loads its models first: slow on a loaded machine
    assert judges.judged() == 2
    records = read_served(journal.path, since=0, until=time.time() + 1)
    assert [(r.provider, r.generation_id, r.stream) for r in records] == [
        ("DeepInfra", "gen-1", True),
        ("Parasail", "gen-2", False),
    ]
    registry = CollectorRegistry()
    registry.register(RouterCollector(observer))
    metrics = generate_latest(registry).decode()
    assert "canary_router_journal_records_total" in metrics
    assert 'canary_router_live_outcomes_total{contract="reply",model="acme/roleplay-large"' in metrics
    observer.stop()
    judges.stop()
    stored = b"".join(p.read_bytes() for p in tmp_path.iterdir() if p.is_file())
    for where, text in (("journal", stored.decode("latin-1")), ("logs", caplog.text), ("metrics", metrics)):
        assert MARKER not in text, where


def test_the_async_client_journals_too(tmp_path: Path) -> None:
    import asyncio

    gateway = Gateway()

    async def handler(request: httpx.Request) -> httpx.Response:
        return gateway(request)

    observer = Observer(Journal(tmp_path / "journal.sqlite3"))

    async def go() -> bytes:
        async with canary_async_http_client(observer, transport=httpx.MockTransport(handler)) as http:
            body = {"model": MODEL, "stream": True, "messages": []}
            async with http.stream("POST", "http://gw/v1/chat/completions", json=body) as response:
                return b"".join([c async for c in response.aiter_bytes()])

    assert asyncio.run(go()) == chat_stream()
    observer.flush()
    assert observer.journal is not None
    (record,) = read_served(observer.journal.path, since=0, until=time.time() + 1)
    assert record.provider == "DeepInfra" and record.ttft_seconds is not None
    observer.stop()


def test_a_failing_journal_never_fails_a_request_and_is_counted(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the journal's directory should be")
    journal = Journal(blocked / "journal.sqlite3", secret=b"s")
    observer = Observer(journal)
    with canary_http_client(observer, transport=httpx.MockTransport(Gateway())) as http:
        for _ in range(3):
            r = http.post("http://gw/v1/chat/completions", json={"model": MODEL, "messages": []})
            assert r.status_code == 200 and r.json()["choices"][0]["message"]["content"] == MARKER
    observer.flush()
    stats = journal.stats()
    assert stats.written == 0 and stats.failed == 3 and not stats.healthy
    observer.stop()


def test_a_full_queue_drops_and_counts_instead_of_waiting(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "journal.sqlite3", queue_size=1)
    assert not journal.put(Served(at=1.0, model=MODEL))  # not started: dropped, counted
    journal._thread = object()  # type: ignore[assignment]  # "started", but no writer drains the queue
    assert journal.put(Served(at=1.0, model=MODEL))
    started = time.perf_counter()
    assert not journal.put(Served(at=2.0, model=MODEL))
    assert time.perf_counter() - started < 0.05
    assert journal.stats().dropped == 2


def test_a_transport_error_is_journaled_without_a_provider(journal: Journal) -> None:
    def down(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    observer = Observer(journal)
    with (
        canary_http_client(observer, transport=httpx.MockTransport(down)) as http,
        pytest.raises(httpx.ConnectError),
    ):
        http.post("http://gw/v1/chat/completions", json={"model": MODEL, "messages": []})
    observer.flush()
    (record,) = read_served(journal.path, since=0, until=time.time() + 1)
    assert record.status is None and record.provider is None
    observer.stop()


def test_other_requests_pass_through_untouched(journal: Journal) -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"data": []})

    transport = CanaryTransport(Observer(journal), httpx.MockTransport(handler))
    with httpx.Client(transport=transport) as http:
        assert http.get("http://gw/v1/models").json() == {"data": []}
    assert seen[0].url.path == "/v1/models"


def test_retention_and_the_size_cap_remove_the_oldest_records(tmp_path: Path) -> None:
    now = [1_800_000_000.0]
    journal = Journal(
        tmp_path / "j.sqlite3", retention_seconds=3600, max_bytes=256 * 1024, clock=lambda: now[0]
    )
    journal.start()
    for i in range(200):
        journal.put(Served(at=now[0] - 7200 + i, model=MODEL, provider="Old"))
    journal.flush()
    for i in range(6000):
        journal.put(
            Served(at=now[0] - 600 + i * 0.01, model=MODEL, provider="New", generation_id=f"gen-{i:06d}")
        )
    journal.flush()
    journal.stop()
    db = connect(tmp_path / "j.sqlite3")
    assert db.execute("SELECT count(*) FROM served").fetchone()[0] < 6000  # the journal pruned as it wrote
    prune(db, now[0] - 3600, 256 * 1024)
    assert db.execute("SELECT count(*) FROM served WHERE provider = 'Old'").fetchone()[0] == 0
    kept = db.execute("SELECT min(generation_id), count(*) FROM served").fetchone()
    pages, size = db.execute("PRAGMA page_count").fetchone()[0], db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    assert pages * size <= 256 * 1024
    assert 0 < kept[1] < 6000 and kept[0] > "gen-000000"  # the newest are kept, the oldest went first


def test_one_prune_brings_a_file_far_over_the_cap_under_it(tmp_path: Path) -> None:
    db = open_store(tmp_path / "j.sqlite3")
    now = 1_800_000_000.0
    db.executemany(
        _INSERT,
        [
            _row(Served(at=now - 600 + i * 0.01, model=MODEL, provider="New", generation_id=f"gen-{i:06d}"))
            for i in range(6000)
        ],
    )
    removed = prune(db, now - 3600, 256 * 1024)
    pages, size = db.execute("PRAGMA page_count").fetchone()[0], db.execute("PRAGMA page_size").fetchone()[0]
    kept = db.execute("SELECT min(generation_id), count(*) FROM served").fetchone()
    db.close()
    assert pages * size <= 256 * 1024  # freed pages go back to the file system, not one per call
    assert removed + kept[1] == 6000 and kept[1] > 1000  # only the excess went, the oldest first
    assert kept[0] == f"gen-{removed:06d}"


def test_a_damaged_journal_is_moved_aside_and_a_new_one_started(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    path.write_bytes(b"SQLite format 3\x00" + b"\x07" * 5000)
    journal = Journal(path, secret=b"s")
    journal.start()
    journal.put(Served(at=time.time(), model=MODEL, provider="P"))
    journal.flush()
    journal.stop()
    assert [r.provider for r in read_served(path, since=0, until=time.time() + 1)] == ["P"]
    assert any(p.name.startswith("journal.sqlite3.damaged-") for p in tmp_path.iterdir())


def test_identifiers_with_control_characters_are_escaped(journal: Journal) -> None:
    journal.start()
    journal.put(Served(at=time.time(), model=MODEL, provider="Évil\nProvider\x1b[31m\u202e"))
    journal.flush()
    (record,) = read_served(journal.path, since=0, until=time.time() + 1)
    assert record.provider == "Évil\\nProvider\\x1b[31m\\u202e"  # a bidi override too; other text kept
