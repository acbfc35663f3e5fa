"""The scheduled equality probe over a day of rounds, through the exporter's own code path.

A fleet of hosts answers from the generative model family of ``bench/equality_fleet.py`` (replies
sampled fresh for every request, so reference hosts are an exact null); one host serves a subtle
distortion. Each round, ``EqualityMonitor.after_round`` (``exporter/equality/monitor.py``) samples
``--per-round`` completions per host through a gateway that answers from the family, adds them to its
window and runs the always-valid sequential test (``exporter/equality/sequential.py``), on a clock that
advances one round interval per round. Reported: the round at which the distorted host is first flagged
(median over seeds, and the share of seeds that reach a flag within ``--rounds``), and the false flags of
reference hosts over null fleets for the whole day.

Usage::

    .venv/bin/python bench/equality_probe.py                      # 8 per round, 48 rounds, every variant
    .venv/bin/python bench/equality_probe.py --per-round 16 --seeds 4 --variants temp-1.2
"""

from __future__ import annotations

import argparse
import asyncio
import math
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runs as a script or with -m

from bench.equality_fleet import LOCALES, Family
from exporter.contracts.base import ProbeTarget
from exporter.equality.config import EqualityConfig
from exporter.equality.monitor import EqualityMonitor
from exporter.equality.prompts import EqualityPrompt
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint
from exporter.outcomes import Usage

MODEL = "family/reference"
ROUND_SECONDS = 1800.0
PROMPTS = tuple(  # two per locale: the probe's configuration asks for at least three prompts
    EqualityPrompt(id=f"{locale}-{n}", locale=locale, text=f"Write a short message ({locale}, {n}).")
    for locale in LOCALES
    for n in (1, 2)
)
TOKENS_PER_SAMPLE = 45  # a default prompt and a 24-token completion (docs/equality.md, cost per host)


class FamilyGateway:
    """Answers every pinned host from its variant of the family in the prompt's locale."""

    def __init__(self, family: Family, variants: dict[str, str], seed: int) -> None:
        self.family = family
        self.variants = variants
        self.rngs = {host: random.Random(f"{seed}/{host}") for host in variants}
        self.locales = {prompt.text: prompt.locale for prompt in PROMPTS}

    async def chat(self, request: ChatRequest) -> ChatResult:
        host = request.pin or ""
        locale = self.locales[str(request.messages[0]["content"])]
        text = self.family.reply(self.variants[host], locale, self.rngs[host])
        usage = Usage(20, max(1, len(text) // 4), 0.0)
        return ChatResult(status=200, content=text, finish_reason="stop", usage=usage)

    async def discover(self, model: str) -> list[Endpoint]:
        return []


def day(
    family: Family, variant: str, seed: int, per_round: int, rounds: int, hosts: int
) -> tuple[int | None, int]:
    """One fleet's day: the round the ``odd`` host was first flagged (None: never), and how many reference
    hosts were flagged at any round."""
    variants = {f"ref-{i:02}": "reference" for i in range(hosts - 1)} | {"odd": variant}
    gateway = FamilyGateway(family, variants, seed)
    now = [0.0]
    settings = EqualityConfig(enabled=True, samples_per_round=per_round, prompts=PROMPTS)
    monitor = EqualityMonitor(settings, clock=lambda: now[0])
    targets = [(ProbeTarget(MODEL, Endpoint(host, host)), gateway) for host in variants]
    first: int | None = None
    false: set[str] = set()
    for number in range(1, rounds + 1):
        verdicts = asyncio.run(monitor.after_round(targets, number))
        for result in verdicts.by_model[MODEL]:
            if result.outlier and result.provider == "odd" and variant != "reference":
                first = number if first is None else first
            elif result.outlier:
                false.add(result.provider)
        now[0] += ROUND_SECONDS
    return first, len(false)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--per-round", type=int, default=8, help="samples per host per round")
    parser.add_argument("--rounds", type=int, default=48, help="rounds (48 = a day of 30-minute rounds)")
    parser.add_argument("--hosts", type=int, default=12)
    parser.add_argument("--seeds", type=int, default=8, help="seeded fleets per distortion")
    parser.add_argument("--null-seeds", type=int, default=8, help="seeded reference-only fleets")
    parser.add_argument("--variants", default="temp-1.2,top-p,subst-20")
    args = parser.parse_args()
    started = time.perf_counter()
    family = Family.build()
    per_day = args.per_round * args.rounds
    print(
        f"# Scheduled probe: {args.hosts} hosts, {args.per_round} samples/host/round, {args.rounds} rounds "
        f"({per_day} samples, ~{per_day * TOKENS_PER_SAMPLE:,} tokens per host)\n"
    )
    print(
        "| distortion | flagged within the day | median round of the flag | round by which 80% were flagged "
        "| reference hosts flagged |"
    )
    print("|---|---:|---:|---:|---:|")
    for variant in [v for v in args.variants.split(",") if v]:
        flags, false = [], 0
        for seed in range(args.seeds):
            first, wrong = day(family, variant, seed, args.per_round, args.rounds, args.hosts)
            flags.append(first)
            false += wrong
            print(f"<!-- {variant} seed {seed}: flagged at round {first}, false {wrong} -->", flush=True)
        reached = sorted(f for f in flags if f is not None)
        # Seeds never flagged count as later than the day: the median is a round only if half reached it.
        ordered = [*reached, *[args.rounds + 1] * (len(flags) - len(reached))]
        middle = statistics.median_low(ordered)
        most = ordered[math.ceil(0.8 * len(ordered)) - 1] if ordered else args.rounds + 1

        def shown(round_: int) -> str:
            return f"{round_} ({round_ * args.per_round} samples)" if round_ <= args.rounds else "> day"

        cells = f"{len(reached)} of {len(flags)} | {shown(middle)} | {shown(most)}"
        print(f"| {variant} | {cells} | {false} |", flush=True)
    fleets = 0
    for seed in range(args.null_seeds):
        _, wrong = day(family, "reference", 1000 + seed, args.per_round, args.rounds, args.hosts)
        fleets += wrong > 0
    print(f"| none (reference-only fleets) | - | - | - | {fleets} of {args.null_seeds} fleets |")
    print(f"\n{time.perf_counter() - started:.0f} s in all.")


if __name__ == "__main__":
    main()
