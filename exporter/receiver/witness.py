"""The store's witness: the last acknowledged decision, written outside the transaction that wrote it.

SQLite keeps committed transactions in ``receiver.sqlite3-wal`` until a checkpoint copies them into the
database file, and silently ignores every WAL frame after the first one whose checksum fails. A lost,
truncated or damaged WAL (or a database file copied without its WAL) therefore opens as a smaller store
that is consistent with itself: its ``head`` row and state tables were written in the same transactions as
the decisions. The witness is the independent record that proves the size: ``receiver.witness``, one JSON
line with the ``seq`` and ``chain`` hash of the last decision the receiver acknowledged, rewritten after
every commit (a temporary file, fsynced, renamed over the old one, the directory fsynced) and checked at
start-up. A store behind its witness, or whose decision at the witness's ``seq`` has another chain hash,
is refused.

The witness carries a SHA-256 ``digest`` of its other fields, so a damaged witness is told apart from a
store that fell behind.

Example::

    write_witness(directory, Witness(seq=12, chain=chain, origin="commit"))
    witness = read_witness(directory)   # None when there is no witness file
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["WITNESS_NAME", "Witness", "WitnessError", "fsync_path", "read_witness", "write_witness"]

WITNESS_NAME = "receiver.witness"
_FORMAT = 1
_MAX_BYTES = 4096


class WitnessError(Exception):
    """The witness file exists but cannot be read or fails its own digest; the message says why."""


@dataclass(frozen=True, slots=True)
class Witness:
    seq: int
    chain: bytes
    origin: str  # what wrote it: "commit", "new store (--init)", "restore from FILE", "adopted ..."

    def fields(self) -> dict[str, object]:
        return {"format": _FORMAT, "seq": self.seq, "chain": self.chain.hex(), "origin": self.origin}


def _digest(fields: dict[str, object]) -> str:
    text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read_witness(directory: Path) -> Witness | None:
    """The witness of the store in ``directory``; None when there is none; ``WitnessError`` if damaged."""
    path = directory / WITNESS_NAME
    try:
        with path.open("rb") as f:
            raw = f.read(_MAX_BYTES + 1)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise WitnessError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    try:
        if len(raw) > _MAX_BYTES:
            raise ValueError(f"longer than {_MAX_BYTES} bytes")
        data = json.loads(raw.decode("utf-8"))
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        digest = data.pop("digest", None)
        if data.get("format") != _FORMAT:
            raise ValueError(f"format {data.get('format')!r}, expected {_FORMAT}")
        seq, chain, origin = data["seq"], data["chain"], data["origin"]
        if type(seq) is not int or seq < 0 or not isinstance(chain, str) or not isinstance(origin, str):
            raise ValueError("seq, chain or origin has the wrong type")
        if digest != _digest(data):
            raise ValueError("its digest does not match its content")
        witness = Witness(seq, bytes.fromhex(chain), origin)
    except (ValueError, KeyError, UnicodeDecodeError, RecursionError) as exc:
        raise WitnessError(f"{path} is damaged ({exc})") from None
    if len(witness.chain) != 32:
        raise WitnessError(f"{path} is damaged (its chain is not a SHA-256 hash)")
    return witness


def write_witness(directory: Path, witness: Witness) -> None:
    """Replace the witness atomically and durably (write, fsync, rename, fsync the directory).

    Raises ``OSError`` when it cannot; the previous witness is then still in place."""
    fields = witness.fields()
    text = json.dumps({**fields, "digest": _digest(fields)}, sort_keys=True, ensure_ascii=False) + "\n"
    tmp = directory / (WITNESS_NAME + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, text.encode("utf-8"))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, directory / WITNESS_NAME)
    fsync_path(directory)


def fsync_path(path: Path) -> None:
    """fsync a file or a directory (after a rename in it) by its path."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
