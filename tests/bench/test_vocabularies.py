"""The vocabulary readers of the corrupted-start generators (``bench/corpus/vocabularies.py``): the three
formats are told apart by content, and only pieces that continue a word are drawn."""

from __future__ import annotations

import argparse
import base64
import json
import random
import struct
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))

import judge_cases
from vocabularies import (
    Pieces,
    continuation_texts,
    pieces_argument,
    protobuf_fields,
    sentencepiece_pieces,
    vocabulary_format,
)

# token bytes; the expected continuation texts are "ly", "ation", "ного", "ます" (in this order)
TOKENS = [b"ly", b" the", b"ation", "ного".encode(), b"\xe3\x81", " Мир".encode(), "ます".encode(), b"\n"]
CONTINUED = ["ly", "ation", "ного", "ます"]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


def _delimited(field: int, payload: bytes) -> bytes:
    return _varint(field << 3 | 2) + _varint(len(payload)) + payload


def _sentencepiece(pieces: list[tuple[str, float, int | None]]) -> bytes:
    """A ModelProto of these (piece, score, type) with a trainer spec after them, as spm writes it."""
    model = b""
    for piece, score, kind in pieces:
        body = _delimited(1, piece.encode()) + _varint(2 << 3 | 5) + struct.pack("<f", score)
        if kind is not None:  # absent: NORMAL
            body += _varint(3 << 3) + _varint(kind)
        model += _delimited(1, body)
    return model + _delimited(2, _delimited(1, b"corpus.txt") + _varint(3 << 3) + _varint(32000))


SPM = [
    ("<unk>", 0.0, 2),
    ("<s>", 0.0, 3),
    ("<0xE3>", 0.0, 6),
    ("▁the", -1.0, None),
    ("ly", -2.5, None),
    ("▁Мир", -3.0, 1),
    ("ation", -4.0, 1),
    ("ного", -5.0, None),
    ("[INST]", 0.0, 4),
    ("ます", -6.0, 1),
]


def test_tiktoken(tmp_path: Path) -> None:
    path = tmp_path / "vocab.bin"  # the name says nothing: the content does
    path.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(TOKENS)))
    assert vocabulary_format(path.read_bytes()) == "tiktoken"
    assert list(continuation_texts(path)) == CONTINUED


def test_tekken_keeps_the_ranks_its_models_use(tmp_path: Path) -> None:
    path = tmp_path / "tekken.json"
    vocab = [
        {"rank": i, "token_bytes": base64.b64encode(t).decode()} for i, t in enumerate([*TOKENS, b"beyond"])
    ]
    config = {"default_vocab_size": 1000 + len(TOKENS), "default_num_special_tokens": 1000}
    path.write_text(json.dumps({"config": config, "vocab": vocab}))
    assert vocabulary_format(path.read_bytes()) == "tekken"
    assert list(continuation_texts(path)) == CONTINUED  # "beyond" is past the inner vocabulary


def test_sentencepiece_model(tmp_path: Path) -> None:
    data = _sentencepiece(SPM)
    read = list(sentencepiece_pieces(data))
    assert [(p, t) for p, _, t in read] == [(p, 1 if t is None else t) for p, _, t in SPM]
    assert [s for _, s, _ in read] == [s for _, s, _ in SPM]
    path = tmp_path / "tokenizer.model.v1"
    path.write_bytes(data)
    assert vocabulary_format(data) == "sentencepiece"
    # word starts (▁), control, unknown, user-defined and byte pieces are not continuations
    assert list(continuation_texts(path)) == CONTINUED


def test_protobuf_reader_rejects_groups() -> None:
    with pytest.raises(ValueError, match="wire type 3"):
        list(protobuf_fields(_varint(1 << 3 | 3)))


def test_pieces_by_script_in_every_format(tmp_path: Path) -> None:
    path = tmp_path / "spm.model"
    path.write_bytes(_sentencepiece([*SPM, ("λογ", -7.0, None), ("toolongpiece", -8.0, None)]))
    pieces = Pieces(path)
    assert (pieces.latin, pieces.cyrillic, pieces.cjk, pieces.other) == (
        ["ly", "ation"],
        ["ного"],
        ["ます"],
        ["λογ"],
    )
    rng = random.Random(5)
    drawn = {pieces.draw(rng) for _ in range(200)}
    assert {family for _, family in drawn} == {"latin", "latin_any", "cyrillic", "cjk", "other"}
    assert {piece for piece, _ in drawn} == {"ly", "ation", "ного", "ます", "λογ"}


def test_documentation_starts_draw_from_the_vocabulary(tmp_path: Path) -> None:
    path = tmp_path / "spm.model"
    path.write_bytes(_sentencepiece([*SPM, ("λογ", -7.0, None)]))
    pieces, text = Pieces(path), "Open the file. Then save it."
    made = [
        case
        for seed in range(40)
        for kind, sub, case in judge_cases.starts("en", text, [text], random.Random(seed), pieces)
        if kind == "leading_garbage" and sub.startswith("piece")
    ]
    assert made
    # every piece is one of the vocabulary's, in some case, never a tail of the donor text
    drawn = {"ly", "ation", "ного", "ます", "λογ"}
    assert all(case.lstrip("Ġ▁#").lower().startswith(tuple(drawn)) for case in made)


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"root:x:0:0:root:/root:/bin/bash\n", "Invalid base64"),  # text that is no vocabulary
        (b"", "no Latin continuation piece"),  # read, but nothing to draw from
        (b'{"vocab": []}', "config"),  # JSON without a Tekken config
        (None, "No such file"),
    ],
)
def test_vocab_argument_names_the_file_and_what_it_must_be(
    tmp_path: Path, content: bytes | None, says: str
) -> None:
    path = tmp_path / "vocab"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(argparse.ArgumentTypeError) as error:
        pieces_argument(str(path))
    assert str(error.value).startswith(f"{path}: not a readable tokenizer vocabulary")
    assert says in str(error.value)


def test_vocab_argument_reads_a_vocabulary(tmp_path: Path) -> None:
    path = tmp_path / "v.tiktoken"
    path.write_text("".join(f"{base64.b64encode(t).decode()} {rank}\n" for rank, t in enumerate(TOKENS)))
    assert pieces_argument(str(path)).latin == ["ly", "ation"]
