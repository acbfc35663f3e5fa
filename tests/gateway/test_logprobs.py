"""Next-token logprobs: the request fields, and what is read back (bounded, garbage skipped)."""

from __future__ import annotations

import math
from typing import Any

from exporter.gateway.chunks import (
    MAX_LOGPROB_POSITIONS,
    MAX_TOKEN_CHARS,
    MAX_TOP_LOGPROBS,
    ChunkAccumulator,
    parse_logprobs,
)
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import ChatRequest, TokenLogprob


def _entry(token: str, logprob: Any, top: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    return {"token": token, "logprob": logprob, "bytes": None, "top_logprobs": top or []}


def test_the_body_asks_for_logprobs_only_when_the_request_does() -> None:
    client = GatewayClient("https://gateway.invalid/api/v1", "k")
    request = ChatRequest("m", ({"role": "user", "content": "Hi"},), 1, pin="a/b", top_logprobs=5)
    body = client.build_chat_body(request)
    assert body["logprobs"] is True and body["top_logprobs"] == 5 and body["provider"]["only"] == ["a/b"]
    plain = client.build_chat_body(ChatRequest("m", ({"role": "user", "content": "Hi"},), 1))
    assert "logprobs" not in plain and "top_logprobs" not in plain


def test_a_non_streamed_choice_gives_each_position_with_its_alternatives() -> None:
    acc = ChunkAccumulator()
    top = [{"token": "The", "logprob": -0.2}, {"token": "A", "logprob": -1.9}]
    acc.feed({"choices": [{"index": 0, "message": {"content": "The"}, "logprobs": {"content": [
        _entry("The", -0.2, top)], "refusal": None}}]})  # fmt: skip
    assert acc.logprobs == [TokenLogprob("The", -0.2, (("The", -0.2), ("A", -1.9)))]


def test_streamed_positions_accumulate_across_chunks_and_null_logprobs_add_nothing() -> None:
    acc = ChunkAccumulator()
    for token in ("Once", " upon"):
        acc.feed({"choices": [{"index": 0, "delta": {"content": token},
                               "logprobs": {"content": [_entry(token, -0.5)]}}]})  # fmt: skip
    acc.feed({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop", "logprobs": None}]})
    assert [p.token for p in acc.logprobs] == ["Once", " upon"]


def test_what_is_kept_is_bounded_whatever_a_host_sends() -> None:
    long = "x" * 10_000
    top = [{"token": long, "logprob": -float(i)} for i in range(1000)]
    acc = ChunkAccumulator()
    for _ in range(3):
        acc.feed({"choices": [{"index": 0, "delta": {"content": "x"},
                               "logprobs": {"content": [_entry(long, -0.1, top)] * 100}}]})  # fmt: skip
    assert len(acc.logprobs) == MAX_LOGPROB_POSITIONS
    assert all(len(p.top) <= MAX_TOP_LOGPROBS for p in acc.logprobs)
    assert all(len(p.token) == MAX_TOKEN_CHARS and all(len(t) == MAX_TOKEN_CHARS for t, _ in p.top)
               for p in acc.logprobs)  # fmt: skip


def test_entries_of_the_wrong_shape_are_skipped_never_raised_on() -> None:
    garbage: list[object] = [
        None, 3, "x", {"token": 1, "logprob": -1.0}, {"token": "a", "logprob": "high"},
        {"token": "a", "logprob": True}, {"token": "a", "logprob": math.inf}, {"token": "a", "logprob": 0.5},
        {"token": "a", "logprob": -1.0, "top_logprobs": "nope"},
    ]  # fmt: skip
    parsed = parse_logprobs({"content": garbage})
    assert parsed == [TokenLogprob("a", -1.0, ())]
    assert parse_logprobs(None) == parse_logprobs({"content": "x"}) == parse_logprobs([1]) == []
    acc = ChunkAccumulator()
    acc.feed({"choices": [{"index": 0, "delta": {"content": "a"}, "logprobs": {"content": garbage}}]})
    assert acc.content == "a" and len(acc.logprobs) == 1
