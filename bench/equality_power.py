"""Equality test (issue 17): power per distorted host against samples per host, false positives on healthy
fleets, and the tokens a decision costs.

The fleet is the simulator's reply model (``exporter.devtools.simulator.styles``) called in-process, so
thousands of trials take minutes: nine healthy hosts sharing one distribution plus a ``weaker``, a
``quantized`` and a ``template`` host, answering the default prompts (``exporter.equality.prompts``, six
prompts in six locales) round-robin. Each trial runs ``compare_hosts`` (leave-one-out MMD, Holm, outliers
peeled one at a time) exactly as ``canary investigate --test equality`` does.

Usage::

    .venv/bin/python bench/equality_power.py      # 100 trials per power point, 500 per null point
    .venv/bin/python bench/equality_power.py --trials 20 --null-trials 50 --sizes 12,24     # a quick look
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Mapping, Sequence

from exporter.devtools.simulator.locales import Texts, is_unspaced
from exporter.devtools.simulator.replies import estimate_tokens
from exporter.devtools.simulator.styles import Style, reply
from exporter.equality.compare import compare_hosts
from exporter.equality.mmd import DEFAULT_PERMUTATIONS, Sample
from exporter.equality.prompts import DEFAULT_PROMPTS

DISTORTED: tuple[Style, ...] = ("weaker", "quantized", "template")
MAX_TOKENS = 24  # what the probe asks for: 50 compared characters fit in it in every locale


def fleet(healthy: int, distorted: Sequence[Style]) -> dict[str, Style]:
    hosts: dict[str, Style] = {f"healthy-{i}": "healthy" for i in range(healthy)}
    hosts.update({style: style for style in distorted})
    return hosts


def sample_fleet(
    hosts: Mapping[str, Style], per_host: int, texts: Texts, rng: random.Random
) -> dict[str, list[Sample]]:
    samples: dict[str, list[Sample]] = {}
    for host, style in hosts.items():
        drawn = []
        for k in range(per_host):
            prompt = DEFAULT_PROMPTS[k % len(DEFAULT_PROMPTS)]
            sep = "" if is_unspaced(prompt.locale) else " "
            text = reply(prompt.text, texts.for_locale(prompt.locale), style, rng, sep=sep)
            drawn.append(Sample(prompt.id, text))
        samples[host] = drawn
    return samples


def flagged(samples: Mapping[str, Sequence[Sample]], alpha: float, permutations: int, seed: int) -> set[str]:
    results = compare_hosts(samples, alpha=alpha, permutations=permutations, seed=seed)
    return {r.provider for r in results if r.outlier}


def tokens_per_sample() -> float:
    """Prompt tokens (as the simulator counts them, with the chat overhead) plus the completion budget."""
    return statistics.mean(estimate_tokens(p.text) + 4 for p in DEFAULT_PROMPTS) + MAX_TOKENS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--null-trials", type=int, default=500, help="trials per all-healthy point")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--permutations", type=int, default=DEFAULT_PERMUTATIONS)
    parser.add_argument("--sizes", default="12,18,24,36,48,60", help="samples per host, comma-separated")
    args = parser.parse_args()
    texts = Texts.load()
    sizes = [int(s) for s in args.sizes.split(",")]
    per_sample = tokens_per_sample()
    started = time.perf_counter()

    print(f"## Power at alpha={args.alpha} (Holm over 12 hosts), {args.trials} seeded trials per point\n")
    print("| samples/host | tokens/host | weaker | quantized | template | healthy hosts flagged |")
    print("|---:|---:|---:|---:|---:|---:|")
    hosts = fleet(9, DISTORTED)
    for size in sizes:
        hits = dict.fromkeys(DISTORTED, 0)
        false = 0
        for trial in range(args.trials):
            rng = random.Random(trial * 7919 + size)
            found = flagged(sample_fleet(hosts, size, texts, rng), args.alpha, args.permutations, trial)
            for style in DISTORTED:
                hits[style] += style in found
            false += sum(1 for host in found if host.startswith("healthy"))
        cells = " | ".join(f"{hits[s] / args.trials:.0%}" for s in DISTORTED)
        print(f"| {size} | {size * per_sample:,.0f} | {cells} | {false} of {9 * args.trials} |")

    print(f"\n## False positives on all-healthy fleets (12 hosts), {args.null_trials} trials per point\n")
    print("| samples/host | trials with any host flagged | hosts flagged |")
    print("|---:|---:|---:|")
    healthy = fleet(12, ())
    for size in (sizes[0], sizes[len(sizes) // 2], sizes[-1]):
        any_flag = hosts_flagged = 0
        for trial in range(args.null_trials):
            rng = random.Random(10_000 + trial * 7919 + size)
            found = flagged(sample_fleet(healthy, size, texts, rng), args.alpha, args.permutations, trial)
            any_flag += bool(found)
            hosts_flagged += len(found)
        n = args.null_trials
        print(f"| {size} | {any_flag} of {n} ({any_flag / n:.1%}) | {hosts_flagged} of {12 * n} |")
    print(f"\n{per_sample:.0f} tokens per sample; {time.perf_counter() - started:.0f} s in all.")


if __name__ == "__main__":
    main()
