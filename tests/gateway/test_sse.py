"""The SSE decoder: line endings, chunk boundaries anywhere, comments, fields, bounds, end of stream."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.gateway.sse import SSEDecoder, SSEEvent, SSEKind
from tests.fuzz_profile import examples

from .conftest import read_stream


def decode(chunks: list[bytes], **kwargs: object) -> list[SSEEvent]:
    decoder = SSEDecoder(**kwargs)  # type: ignore[arg-type]
    out: list[SSEEvent] = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    return out + decoder.flush()


def with_line_endings(stream: bytes, ending: bytes) -> bytes:
    return stream.replace(b"\n", ending)


REALISTIC = read_stream("openrouter_usage_after_finish.sse")


def test_a_realistic_stream_decodes_to_its_events_and_its_keep_alive_comments_are_skipped() -> None:
    assert REALISTIC.count(b": OPENROUTER PROCESSING") == 3
    events = decode([REALISTIC])
    assert [e.kind for e in events] == [SSEKind.EVENT] * 6
    assert '"content":"亚"' in events[1].data
    assert events[-1].data == "[DONE]"


def test_every_two_way_split_of_every_line_ending_gives_the_same_events() -> None:
    for ending in (b"\n", b"\r\n", b"\r"):
        stream = with_line_endings(REALISTIC, ending)
        expected = decode([stream])
        assert len(expected) == 6
        for cut in range(len(stream) + 1):
            assert decode([stream[:cut], stream[cut:]]) == expected, (ending, cut)


def test_byte_by_byte_feeding_splits_inside_utf8_characters_and_crlf() -> None:
    stream = with_line_endings(REALISTIC, b"\r\n")
    assert "亚".encode() in stream and "🏴‍☠️".encode() in stream  # multi-byte characters are present
    assert decode([stream[i : i + 1] for i in range(len(stream))]) == decode([stream])


@settings(max_examples=examples(150), deadline=None)
@given(
    cuts=st.lists(st.integers(min_value=0, max_value=len(REALISTIC) * 2), max_size=30),
    ending=st.sampled_from([b"\n", b"\r\n", b"\r"]),
)
def test_any_chunking_gives_the_same_events(cuts: list[int], ending: bytes) -> None:
    stream = with_line_endings(REALISTIC, ending)
    points = sorted({min(c, len(stream)) for c in cuts})
    chunks = [stream[a:b] for a, b in zip([0, *points], [*points, len(stream)], strict=True)]
    assert decode(chunks) == decode([stream])


def test_a_split_between_cr_and_lf_is_one_line_ending_not_two() -> None:
    # If "\r" then "\n" counted as two line ends, the blank line would dispatch "a" early and "b" alone.
    events = decode([b"data: a\r", b"\ndata: b\r", b"\n\r", b"\n"])
    assert [e.data for e in events] == ["a\nb"]


def test_multi_line_data_is_joined_with_newlines_and_other_fields_are_ignored() -> None:
    events = decode([b"event: update\nid: 42\nretry: 1500\ndata: first\ndata:second\ndata:  third\n\n"])
    assert events == [SSEEvent(SSEKind.EVENT, data="first\nsecond\n third")]


def test_blocks_without_data_and_unknown_fields_dispatch_nothing() -> None:
    assert decode([b"event: ping\n\nfoo: bar\n\nretry: soon\n\n"]) == []


def test_a_field_without_colon_is_a_field_with_empty_value() -> None:
    assert [e.data for e in decode([b"data\n\n"])] == [""]


def test_a_leading_bom_is_stripped_even_when_split() -> None:
    stream = "\ufeffdata: x\n\n".encode()
    assert [e.data for e in decode([stream[:1], stream[1:2], stream[2:]])] == ["x"]


def test_invalid_utf8_becomes_replacement_characters_not_an_exception() -> None:
    assert [e.data for e in decode([b"data: a\xff\xfeb\n\n"])] == ["a\ufffd\ufffdb"]


def test_flush_dispatches_an_event_missing_only_its_blank_line() -> None:
    events = decode([b'data: {"a":1}\n\ndata: [DONE]\n'])
    assert [e.data for e in events] == ['{"a":1}', "[DONE]"]


def test_flush_discards_a_line_the_stream_cut_short() -> None:
    events = decode([b'data: {"a":1}\n\ndata: {"choices": [{"del'])
    assert [(e.kind, e.data) for e in events] == [(SSEKind.EVENT, '{"a":1}')]


def test_an_oversized_line_is_reported_once_and_decoding_resumes() -> None:
    decoder = SSEDecoder(max_event_chars=100)
    out: list[SSEEvent] = []
    out += decoder.feed(b"data: ")
    for _ in range(1000):  # 100 kB of one line, fed in pieces: memory must stay bounded
        out += decoder.feed(b"x" * 100)
    out += decoder.feed(b"\n\ndata: next\n\n")
    out += decoder.flush()
    assert [e.kind for e in out] == [SSEKind.OVERSIZED, SSEKind.EVENT]
    assert out[1].data == "next"
    assert "over 100 characters" in out[0].text


def test_an_event_over_the_limit_across_many_lines_is_dropped_whole() -> None:
    lines = b"".join(b"data: " + b"y" * 30 + b"\n" for _ in range(10))
    out = decode([lines + b"\n" + b"data: ok\n\n"], max_event_chars=100)
    assert [e.kind for e in out] == [SSEKind.OVERSIZED, SSEKind.EVENT]
    assert out[1].data == "ok"


def test_an_oversized_line_in_one_chunk_is_reported_once() -> None:
    out = decode([b"data: " + b"z" * 500 + b"\n" + b"data: more\n\ndata: ok\n\n"], max_event_chars=100)
    assert [e.kind for e in out] == [SSEKind.OVERSIZED, SSEKind.EVENT]
    assert out[1].data == "ok"


def test_a_stream_ending_inside_an_oversized_line_reports_it_once() -> None:
    out = decode([b"data: " + b"z" * 500], max_event_chars=100)
    assert [e.kind for e in out] == [SSEKind.OVERSIZED]
