"""Real tokenizer vocabularies for the corrupted starts of the evaluations: the *continuation* pieces (the
tokens a word is cut into: no leading space, no ``▁``) of a vocabulary file, letters only, by script.

Three formats, told apart by their content (a vocabulary's file name says little: ``tokenizer.model.v1``):

- **tiktoken** (``multilingual.tiktoken`` of ``openai-whisper``): one ``base64(token bytes) rank`` a line;
- **Tekken** (``tekken_240911.json`` of ``mistral-common``): a JSON object whose ``vocab`` lists
  ``{rank, token_bytes (base64), token_str}``; a model uses the ranks below ``default_vocab_size -
  default_num_special_tokens`` of its ``config`` (the special tokens take the first ids, not ranks);
- **SentencePiece** (``*.model``): a ``ModelProto`` protobuf, field 1 repeated ``SentencePiece {1: piece,
  2: score, 3: type}``; a piece opening with ``▁`` (U+2581) begins a word, and only ``NORMAL`` pieces (type
  1, the default) are text: the others are control, unknown, user-defined, unused and byte (``<0xE3>``)
  pieces.

Read with no dependency (the protobuf wire format by hand), so the evaluation needs only the file.
"""

from __future__ import annotations

import argparse
import base64
import json
import random
import struct
import unicodedata
from collections.abc import Iterator
from pathlib import Path

WORD_START = "\u2581"  # SentencePiece's "▁": the piece begins a word
_NORMAL = 1  # SentencePiece.Type.NORMAL, the default when the field is absent
MAX_LETTERS = 8


def _varint(data: bytes, at: int) -> tuple[int, int]:
    value, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        if byte < 0x80:
            return value, at
        shift += 7


def protobuf_fields(data: bytes) -> Iterator[tuple[int, int | bytes]]:
    """(field number, value) of one protobuf message: an int for varints, bytes for the other wire types
    (length-delimited, 32 and 64 bits). Raises ValueError on a wire type it does not know (groups)."""
    at = 0
    while at < len(data):
        key, at = _varint(data, at)
        field, wire = key >> 3, key & 7
        if wire == 0:
            value, at = _varint(data, at)
            yield field, value
        elif wire == 2:
            size, at = _varint(data, at)
            yield field, data[at : at + size]
            at += size
        elif wire in (1, 5):
            size = 8 if wire == 1 else 4
            yield field, data[at : at + size]
            at += size
        else:
            raise ValueError(f"protobuf wire type {wire} at byte {at}")


def sentencepiece_pieces(data: bytes) -> Iterator[tuple[str, float, int]]:
    """(piece, score, type) of a SentencePiece ``ModelProto``, in id order."""
    for field, value in protobuf_fields(data):
        if field != 1 or not isinstance(value, bytes):
            continue
        piece, score, kind = "", 0.0, _NORMAL
        for sub, v in protobuf_fields(value):
            if sub == 1 and isinstance(v, bytes):
                piece = v.decode("utf-8")
            elif sub == 2 and isinstance(v, bytes):
                score = struct.unpack("<f", v)[0]
            elif sub == 3 and isinstance(v, int):
                kind = v
        yield piece, score, kind


def tiktoken_tokens(data: bytes) -> Iterator[bytes]:
    """The token bytes of a ``.tiktoken`` file, in rank order."""
    for line in data.decode("ascii").splitlines():
        token, _, _ = line.partition(" ")
        if token:
            yield base64.b64decode(token)


def tekken_tokens(data: bytes) -> Iterator[bytes]:
    """The token bytes of a Tekken JSON file that its models use (ranks below the inner vocabulary size)."""
    model = json.loads(data)
    config = model["config"]
    inner = int(config.get("default_vocab_size", 1 << 62)) - int(config.get("default_num_special_tokens", 0))
    for entry in model["vocab"]:
        if int(entry["rank"]) < inner:
            yield base64.b64decode(entry["token_bytes"])


def vocabulary_format(data: bytes) -> str:
    """``tekken``, ``sentencepiece`` or ``tiktoken``, by content: JSON opens with ``{``, a ModelProto with the
    key of its field 1 (``0x0A``), a tiktoken file with base64 text."""
    head = data.lstrip()[:1]
    if head == b"{":
        return "tekken"
    if data[:1] == b"\x0a":
        return "sentencepiece"
    return "tiktoken"


def continuation_texts(path: Path) -> Iterator[str]:
    """Every token of the vocabulary at ``path`` that continues a word, as text: decoded tokens without a
    leading space (byte-level BPE) or ``▁`` (SentencePiece); tokens that are not whole UTF-8 are dropped."""
    data = path.read_bytes()
    kind = vocabulary_format(data)
    if kind == "sentencepiece":
        for piece, _, type_ in sentencepiece_pieces(data):
            if type_ == _NORMAL and piece and not piece.startswith(WORD_START):
                yield piece
        return
    for token in tekken_tokens(data) if kind == "tekken" else tiktoken_tokens(data):
        try:
            text = token.decode("utf-8")
        except UnicodeDecodeError:
            continue
        if text and not text[0].isspace():
            yield text


class Pieces:
    """Continuation tokens of a real vocabulary (any of the three formats), letters only, by script."""

    def __init__(self, path: Path) -> None:
        self.latin: list[str] = []
        self.cyrillic: list[str] = []
        self.cjk: list[str] = []
        self.other: list[str] = []
        for text in continuation_texts(path):
            if not text.isalpha() or len(text) > MAX_LETTERS:
                continue
            name = unicodedata.name(text[0], "")
            if name.startswith("LATIN"):
                self.latin.append(text)
            elif name.startswith("CYRILLIC"):
                self.cyrillic.append(text)
            elif name.startswith(("CJK", "HIRAGANA", "KATAKANA", "HANGUL")):
                self.cjk.append(text)
            else:
                self.other.append(text)
        if not self.latin:
            raise ValueError("no Latin continuation piece in it")

    def draw(self, rng: random.Random) -> tuple[str, str]:
        """(piece, its family): mostly Latin lowercase pieces, as most vocabularies' pieces are."""
        r = rng.random()
        if r < 0.55:
            return rng.choice(
                [p for p in (rng.choice(self.latin) for _ in range(20)) if p.islower()] or ["ly"]
            ), "latin"
        if r < 0.7:
            return rng.choice(self.latin), "latin_any"
        if r < 0.82:
            return rng.choice(self.cyrillic), "cyrillic"
        if r < 0.95:
            return rng.choice(self.cjk), "cjk"
        return rng.choice(self.other), "other"


def pieces_argument(value: str) -> Pieces:
    """``--vocab``'s argparse type: the pieces of the vocabulary at ``value``, or an error that names the file
    and says what it must be (argparse prints it with the usage and exits 2, no traceback)."""
    try:
        return Pieces(Path(value))
    except (OSError, ValueError, KeyError, IndexError, TypeError, struct.error) as error:
        raise argparse.ArgumentTypeError(
            f"{value}: not a readable tokenizer vocabulary (a .tiktoken file, a Tekken .json or a "
            f"SentencePiece model): {error}"
        ) from None
