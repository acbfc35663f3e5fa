"""The chunk accumulator: first visible token, first finish reason, usage placement, errors, garbage."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.gateway.chunks import ChunkAccumulator, parse_usage
from exporter.gateway.sse import SSEDecoder, SSEKind
from exporter.outcomes import Usage
from tests.fuzz_profile import examples

from .conftest import read_stream


def feed_stream(name: str, **kwargs: bool) -> tuple[ChunkAccumulator, list[bool]]:
    """Decode a fixture stream; return the accumulator and, per data chunk, what ``feed`` returned."""
    acc = ChunkAccumulator(**kwargs)
    decoder = SSEDecoder()
    returned: list[bool] = []
    for event in decoder.feed(read_stream(name)) + decoder.flush():
        if event.kind is not SSEKind.EVENT:
            continue
        if event.data == "[DONE]":
            acc.done = True
        else:
            returned.append(acc.feed(json.loads(event.data)))
    return acc, returned


def chunk(delta: dict[str, Any] | None = None, finish: str | None = None, **top: Any) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": delta or {}, "finish_reason": finish}], **top}


def test_first_visible_token_skips_role_only_and_empty_content_chunks() -> None:
    acc, returned = feed_stream("openrouter_usage_after_finish.sse")
    # chunk 1 is role + content "", chunk 2 carries "亚"
    assert returned == [False, True, False, False, False]
    assert acc.content == "亚 ¿Qué tal? 🏴‍☠️ files."


def test_the_first_finish_reason_is_kept_when_the_usage_chunk_says_null_afterwards() -> None:
    acc, _ = feed_stream("openrouter_usage_after_finish.sse")
    assert acc.finish_reason == "stop"
    assert acc.usage == Usage(prompt_tokens=7007, completion_tokens=49, cost_usd=0.00123)
    assert acc.provider == "OpenAI"
    assert acc.generation_id == "gen-1739458867-kUKFjpDGCEBBvK6V46PX"
    assert acc.done and acc.finished and acc.error is None


def test_usage_in_a_chunk_with_empty_choices_and_no_done_marker() -> None:
    acc, _ = feed_stream("usage_empty_choices_no_done.sse")
    assert acc.finish_reason == "length"
    assert acc.usage == Usage(prompt_tokens=31, completion_tokens=8, cost_usd=0.0000315)
    assert not acc.done and acc.finished


def test_usage_on_the_finish_chunk() -> None:
    acc, _ = feed_stream("usage_on_finish_chunk.sse")
    assert acc.content == "Hola, marinero."
    assert acc.finish_reason == "stop"
    assert acc.usage == Usage(12, 4, 0.00001)


def test_reasoning_first_stream_counts_only_content_by_default() -> None:
    acc, returned = feed_stream("reasoning_first.sse")
    assert returned == [False, False, False, True, False]
    assert acc.reasoning == "The user wants a duel scene. Three sentences."
    assert acc.content == "Steel rings out."


def test_reasoning_can_count_as_the_first_token() -> None:
    _, returned = feed_stream("reasoning_first.sse", count_reasoning_as_first_token=True)
    assert returned == [False, True, False, False, False]


def test_whitespace_only_deltas_are_not_the_first_token_unless_configured() -> None:
    stream = [chunk({"content": "\n"}), chunk({"content": " \u200b\t"}), chunk({"content": " Hi"})]
    acc = ChunkAccumulator()
    assert [acc.feed(c) for c in stream] == [False, False, True]
    assert acc.content == "\n \u200b\t Hi"
    counting = ChunkAccumulator(count_whitespace_as_first_token=True)
    assert [counting.feed(c) for c in stream] == [True, False, False]


def test_whitespace_only_reasoning_is_not_the_first_token_either() -> None:
    acc = ChunkAccumulator(count_reasoning_as_first_token=True)
    assert [acc.feed(chunk({"reasoning": "  "})), acc.feed(chunk({"reasoning": "Hm"}))] == [False, True]


def test_a_mid_stream_error_with_an_int_code_is_recorded_with_the_partial_content() -> None:
    acc, _ = feed_stream("mid_stream_error_int_with_done.sse")
    assert acc.error is not None and acc.error["code"] == 429
    assert acc.finish_reason == "error"
    assert acc.content == "The blades"


def test_a_mid_stream_error_with_a_string_code_and_no_done() -> None:
    acc, _ = feed_stream("mid_stream_error_string_no_done.sse")
    assert acc.error is not None and acc.error["code"] == "server_error"
    assert not acc.done and acc.finished


def test_the_first_error_wins() -> None:
    acc = ChunkAccumulator()
    acc.feed({"error": {"code": 502, "message": "first"}, "choices": []})
    acc.feed({"error": {"code": 429, "message": "second"}, "choices": []})
    assert acc.error == {"code": 502, "message": "first"}


def test_a_truncated_stream_is_not_finished() -> None:
    acc = ChunkAccumulator()
    acc.feed(chunk({"role": "assistant", "content": ""}))
    acc.feed(chunk({"content": "Captain Voss lunges"}))
    assert not acc.finished and acc.content == "Captain Voss lunges"


def test_refusal_deltas_are_accumulated_and_do_not_count_as_visible() -> None:
    acc = ChunkAccumulator()
    assert acc.feed(chunk({"role": "assistant", "refusal": "I can't "})) is False
    assert acc.feed(chunk({"refusal": "help with that."}, finish="stop")) is False
    assert acc.refusal == "I can't help with that."
    assert acc.content == "" and not acc.saw_visible_token


def test_no_refusal_is_none_not_empty() -> None:
    acc = ChunkAccumulator()
    acc.feed(chunk({"content": "ok", "refusal": None}, finish="stop"))
    assert acc.refusal is None


def test_a_non_streamed_body_with_message_and_choice_level_error() -> None:
    acc = ChunkAccumulator()
    body = {
        "id": "gen-1",
        "provider": "Azure",
        "choices": [
            {
                "index": 0,
                "finish_reason": "error",
                "native_finish_reason": None,
                "message": {"role": "assistant", "content": "partial"},
                "error": {
                    "code": 502,
                    "message": "Provider returned error",
                    "metadata": {"error_type": "server"},
                },
            }
        ],
    }
    assert acc.feed(body) is True
    assert acc.content == "partial" and acc.finish_reason == "error"
    assert acc.error is not None and acc.error["code"] == 502


def test_only_choice_index_zero_is_read() -> None:
    acc = ChunkAccumulator()
    acc.feed(
        {"choices": [{"index": 1, "delta": {"content": "other"}}, {"index": 0, "delta": {"content": "me"}}]}
    )
    assert acc.content == "me"


def test_parse_usage_reads_cost_and_tolerates_junk() -> None:
    assert parse_usage({"prompt_tokens": 9, "completion_tokens": 10, "cost": 7.35e-06}) == Usage(
        9, 10, 7.35e-06
    )
    assert parse_usage({"prompt_tokens": "9", "completion_tokens": -3, "cost": "0.5"}) == Usage(0, 0, 0.5)
    assert parse_usage({"prompt_tokens": True, "cost": float("nan")}) == Usage(0, 0, 0.0)
    assert parse_usage(None) is None
    assert parse_usage([1, 2]) is None


leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=5)
part = st.dictionaries(st.sampled_from(["role", "content", "reasoning", "refusal"]), leaves, max_size=3)
choice = st.fixed_dictionaries(
    {},
    optional={
        "index": leaves,
        "delta": part | leaves,
        "message": part | leaves,
        "finish_reason": leaves,
        "native_finish_reason": leaves,
        "error": st.dictionaries(st.sampled_from(["code", "message"]), leaves) | leaves,
    },
)
garbage_chunk = st.fixed_dictionaries(
    {},
    optional={
        "id": leaves,
        "provider": leaves,
        "usage": st.dictionaries(st.sampled_from(["prompt_tokens", "completion_tokens", "cost"]), leaves)
        | leaves,
        "error": st.dictionaries(st.sampled_from(["code", "message"]), leaves) | leaves,
        "choices": st.lists(choice | leaves, max_size=2) | leaves,
    },
)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(garbage_chunk, max_size=5))
def test_garbage_chunks_never_raise(chunks: list[dict[str, Any]]) -> None:
    acc = ChunkAccumulator()
    visible = [acc.feed(c) for c in chunks]
    assert visible.count(True) <= 1
    assert isinstance(acc.content, str) and isinstance(acc.reasoning, str)


def test_a_later_non_null_finish_reason_does_not_replace_the_first() -> None:
    acc = ChunkAccumulator()
    acc.feed({"choices": [{"index": 0, "delta": {"content": "x"}, "finish_reason": "stop"}]})
    later = {"index": 0, "delta": {}, "finish_reason": "length", "native_finish_reason": "max"}
    acc.feed({"choices": [later]})
    assert acc.finish_reason == "stop"


def test_numbers_beyond_float_range_are_ignored_not_raised() -> None:
    huge = 10**400
    assert parse_usage({"prompt_tokens": float("inf"), "completion_tokens": huge, "cost": huge}) == Usage(
        0, huge, 0.0
    )
    assert parse_usage({"cost": "1e999"}) == Usage(0, 0, 0.0)
