"""Models sharded across exporter replicas by configuration (``rounds.shard: {index, count}``, design.md §12).

Every replica reads the same list of models and probes only the models its shard owns. Ownership is
rendezvous (highest-random-weight) hashing of the model slug over SHA-256: each model goes to the shard
whose ``sha256(f"{shard}\\0{slug}")`` is largest. SHA-256 of UTF-8 bytes is the same in every Python
process and version on every machine (unlike ``hash()``, which ``PYTHONHASHSEED`` salts per process), so
replicas agree without talking to each other. Rendezvous hashing rather than ``hash % count``: going from
``count`` to ``count + 1`` shards moves only the models the new shard wins (about one in ``count + 1``),
not almost all of them, so a resize resets few streaks (a moved model restarts at zero, which errs towards
not suspending).

``check_shard_set`` checks the configs of all replicas together (``canary check-config a.yaml b.yaml``):
counts that disagree, an index claimed twice (models probed twice), a missing index or a model that no
replica owns (models never probed) are each a ``FILE:LINE`` problem.

Example::

    shard = Shard(index=1, count=3)
    owned = [slug for slug in slugs if shard.owns(slug)]
    shard_of("moonshotai/kimi-k2-0905", 3)   # the same number in every process
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import ClassVar

from prometheus_client import CollectorRegistry, Gauge, Info
from pydantic import Field, model_validator

from exporter.configkit import ConfigModel, Int, invalid, key

#: The most replicas one model list is split across (a bound on every input size).
MAX_SHARDS = 256


class Shard(ConfigModel):
    """Which part of the model list one exporter replica probes (``rounds.shard``); ``WHOLE`` is all of it."""

    internal: ClassVar[frozenset[str]] = frozenset({"where"})

    count: Int = key(meaning="how many replicas share the models", ge=1, le=MAX_SHARDS)
    index: Int = key(meaning="this replica's shard, 0 to count - 1", ge=0, le=MAX_SHARDS - 1)
    #: Where ``rounds.shard`` is in its file (``FILE:LINE``), for errors that involve several files.
    where: str = Field(default="", exclude=True)

    @model_validator(mode="after")
    def _index_below_count(self) -> Shard:
        if self.index >= self.count:
            raise invalid(
                f"must be less than count ({self.count}): shards are numbered 0 to {self.count - 1}", "index"
            )
        return self

    def owns(self, slug: str) -> bool:
        """Whether this replica probes the model ``slug``."""
        return self.count <= 1 or shard_of(slug, self.count) == self.index


WHOLE = Shard(index=0, count=1)


def shard_of(slug: str, count: int) -> int:
    """The shard (``0 <= shard < count``) that owns ``slug``: the same answer in every process.

    Example::

        >>> shard_of("moonshotai/kimi-k2-0905", 1)
        0
    """
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    return max(range(count), key=lambda shard: _weight(shard, slug))


def _weight(shard: int, slug: str) -> int:
    digest = hashlib.sha256(f"{shard}\0{slug}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def owned_by(slugs: Iterable[str], count: int) -> dict[int, list[str]]:
    """Every shard index of ``count`` with the slugs it owns (empty lists included), in input order."""
    out: dict[int, list[str]] = {index: [] for index in range(count)}
    for slug in slugs:
        out[shard_of(slug, count)].append(slug)
    return out


@dataclass(frozen=True, slots=True)
class Replica:
    """One replica's config as the cross-file check needs it."""

    source: str  # the config file
    shard: Shard
    models: tuple[str, ...]


def check_shard_set(replicas: Sequence[Replica]) -> list[str]:
    """Problems of a set of replica configs meant to split one model list; ``[]`` when it is complete.

    Example::

        check_shard_set([Replica("a.yaml", Shard(index=0, count=2, where="a.yaml:9"), ("x/a", "x/b")),
                         Replica("b.yaml", Shard(index=0, count=2, where="b.yaml:9"), ("x/a", "x/b"))])
        # ['b.yaml:9: rounds.shard.index: shard 0 of 2 is also a.yaml:9 (overlapping shards: ...)', ...]
    """
    if not replicas:
        return []
    problems: list[str] = []
    first = replicas[0]
    count = first.shard.count
    for replica in replicas[1:]:
        if replica.shard.count != count:
            problems.append(
                f"{_where(replica)}: rounds.shard.count: {replica.shard.count} here but {count} in "
                f"{_where(first)}: every replica must have the same count, or models are probed twice "
                "or never"
            )
    if problems:
        return problems
    by_index: dict[int, Replica] = {}
    for replica in replicas:
        other = by_index.setdefault(replica.shard.index, replica)
        if other is not replica:
            problems.append(
                f"{_where(replica)}: rounds.shard.index: shard {replica.shard.index} of {count} is also "
                f"{_where(other)} (overlapping shards: its models would be probed twice)"
            )
    missing = [index for index in range(count) if index not in by_index]
    if missing:
        listed = sorted({slug for replica in replicas for slug in replica.models})
        lost = [slug for slug in listed if shard_of(slug, count) in missing]
        shown = ", ".join(lost[:5]) + (f" and {len(lost) - 5} more" if len(lost) > 5 else "")
        problems.append(
            f"{_where(first)}: rounds.shard: no file is shard {', '.join(map(str, missing))} of {count} "
            f"(incomplete shards: {shown or 'its models'} would never be probed)"
        )
    reported: set[str] = set()
    for replica in replicas:
        for slug in replica.models:
            owner = by_index.get(shard_of(slug, count))
            if owner is not None and slug not in owner.models and slug not in reported:
                reported.add(slug)
                problems.append(
                    f"{_where(replica)}: models: {slug} belongs to shard {owner.shard.index} of {count}, "
                    f"but {owner.source} does not list it (it would never be probed): give every replica "
                    "the same models"
                )
    return problems


def _where(replica: Replica) -> str:
    return replica.shard.where or replica.source


def export_shard(shard: Shard, registry: CollectorRegistry) -> None:
    """Export which shard this replica is (into ``registry``), for the rules that spot a missing or
    misconfigured shard."""
    Info(
        "canary_exporter_shard",
        "The shard of the model list this exporter replica probes (rounds.shard; 0 of 1 when unsharded).",
        registry=registry,
    ).info({"shard_index": str(shard.index), "shard_count": str(shard.count)})
    Gauge(
        "canary_exporter_shard_count",
        "How many shards this replica's configuration splits the model list into (rounds.shard.count).",
        registry=registry,
    ).set(shard.count)


__all__ = [
    "MAX_SHARDS",
    "WHOLE",
    "Replica",
    "Shard",
    "check_shard_set",
    "export_shard",
    "owned_by",
    "shard_of",
]
