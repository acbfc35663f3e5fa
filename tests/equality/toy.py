"""Toy fleets for the equality tests: healthy hosts draw words from one law, odd ones from another."""

from __future__ import annotations

import random

from exporter.equality.sample import Sample

WORDS = "the keeper waits by a door and sleeps in hall while night falls on old keep".split(" ")  # noqa: SIM905
WORDS += "ledger quorum vexing zephyr jolly wax fig hymn".split(" ")  # noqa: SIM905 - only odd hosts write these
WEIGHTS = [9, 6, 5, 3, 4, 3, 4, 2, 2, 2, 1, 3, 2, 2, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0]
ODD_WEIGHTS = [1] * 12 + [2] * 12  # another register: a flatter law, and words the healthy hosts never write


def reply(rng: random.Random, weights: list[int], words: int = 8) -> str:
    return " ".join(rng.choices(WORDS, weights, k=words)).capitalize() + "."


def host(rng: random.Random, count: int, weights: list[int] = WEIGHTS) -> list[Sample]:
    return [Sample("pq"[k % 2], reply(rng, weights)) for k in range(count)]


def fleet(seed: int, healthy: int, count: int, odd: int = 0) -> dict[str, list[Sample]]:
    rng = random.Random(seed)
    fleet = {f"healthy-{i:02}": host(rng, count) for i in range(healthy)}
    fleet |= {f"odd-{i}": host(rng, count, ODD_WEIGHTS) for i in range(odd)}
    return fleet
