"""Equality test: power against a generative model family built from real text, false positives on null
fleets (tails included), robustness to several distorted hosts, and the tokens a decision costs.

The family (``bench/equality_fleet.py``) is trained at run time on human text installed by Debian
packages; reference hosts sample the reference model, one host a distortion of it. Each fleet runs
``compare_hosts`` exactly as ``canary investigate --test equality`` does (the scheduled probe has its
own bench, ``bench/equality_probe.py``).

Usage::

    .venv/bin/python bench/equality_power.py                  # every section, fixed seed
    .venv/bin/python bench/equality_power.py --quick          # a few trials per point: a smoke run
    .venv/bin/python bench/equality_power.py --sections null  # one section (power, null, shared, among40,
                                                              # small, baseline)

The banks of replies are generated once and cached under ``bench/results/`` (never committed).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runs as a script or with -m

from bench.equality_fleet import LOCALES, VARIANTS, Banks, cached_banks
from bench.equality_mmd import leave_one_out
from exporter.equality.compare import EqualityResult, compare_hosts
from exporter.equality.sample import Sample, normalise
from exporter.stats import holm

SEED = 20261206
MAIN = ("weaker", "register", "top-k", "template")
SUBTLE = ("temp-1.2", "temp-0.8", "top-p", "subst-10", "subst-20", "subst-30")
HARMLESS = ("whitespace", "nfd")
Z80_12 = 4.2  # mean z at which a two-sided test at 0.01/12 (Holm's first step over 12 hosts) has 80% power


def _hosts(reference: int, distorted: dict[str, str]) -> dict[str, str]:
    return {f"ref-{i:02}": "reference" for i in range(reference)} | distorted


def _run(banks: Banks, hosts: dict[str, str], size: int, seed: int, alpha: float) -> list[EqualityResult]:
    return compare_hosts(banks.fleet(hosts, size, random.Random(seed)), alpha=alpha)


def power(
    banks: Banks, trials: int, sizes: list[int], alpha: float, per_sample: float, variants: list[str]
) -> None:
    print(f"## Power: 11 reference hosts + 1 distorted, alpha {alpha}, {trials} trials per point\n")
    columns = " | ".join(f"{s}/host ({s * per_sample:,.0f} tok)" for s in sizes)
    print(
        f"| distortion | {columns} | mean z at {sizes[-1]} | samples/host for 80% | reference hosts flagged |"
    )
    print("|---|" + "---:|" * (len(sizes) + 3))
    for variant in variants:
        cells, false, zs = [], 0, []
        for size in sizes:
            hits = 0
            for trial in range(trials):
                results = _run(banks, _hosts(11, {"odd": variant}), size, SEED + trial * 31 + size, alpha)
                odd = next(r for r in results if r.provider == "odd")
                hits += odd.outlier
                false += sum(r.outlier for r in results if r.provider != "odd")
                if size == sizes[-1] and odd.z is not None:
                    zs.append(abs(odd.z))
            cells.append(f"{hits / trials:.0%}")
        mean_z = statistics.mean(zs) if zs else 0.0
        needed = sizes[-1] * (Z80_12 / mean_z) ** 2 if mean_z > 0.5 else math.inf
        shown = "-" if variant in HARMLESS else (f"~{needed:,.0f}" if needed < 1e5 else "> 10,000")
        total = 11 * trials * len(sizes)
        print(f"| {variant} | " + " | ".join(cells) + f" | {mean_z:.1f} | {shown} | {false} of {total} |")
    print()


def null(banks: Banks, trials: int, fleets: list[tuple[int, int]], alpha: float) -> None:
    print(f"## False positives on reference-only fleets, alpha {alpha}, {trials} seeded fleets per row\n")
    print(
        "| hosts | samples/host | fleets with a host flagged | upper 95% | per-host p <= 0.01 | p <= 0.001 "
        "| CPU s/fleet |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for hosts, size in fleets:
        flagged, ps, cpu = 0, [], time.process_time()
        for trial in range(trials):
            results = _run(banks, _hosts(hosts, {}), size, SEED + 7 * trial + hosts, alpha)
            flagged += any(r.outlier for r in results)
            ps += [r.p_value for r in results if r.p_value is not None and r.step == 1]
            if (trial + 1) % 20 == 0:
                low, lower = sum(p <= 0.01 for p in ps), sum(p <= 0.001 for p in ps)
                done = (
                    f"{trial + 1} fleets, {flagged} flagged, p <= 0.01 / 0.001: {low} / {lower} of {len(ps)}"
                )
                print(f"<!-- {hosts}x{size}: {done} -->", flush=True)

        def share(level: float, ps: list[float] = ps) -> str:
            below = sum(p <= level for p in ps)
            return f"{below / len(ps):.2%} ({below} of {len(ps):,})"

        seconds = (time.process_time() - cpu) / trials
        print(f"| {hosts} | {size} | {flagged} of {trials} ({flagged / trials:.1%}) | "
              f"{upper_bound(flagged, trials):.1%} | {share(0.01)} | {share(0.001)} | {seconds:.2f} |",
              flush=True)  # fmt: skip
    print()


def upper_bound(successes: int, trials: int, confidence: float = 0.95) -> float:
    """The one-sided Clopper-Pearson upper bound of a binomial share (bisection on the exact tail)."""
    if successes >= trials:
        return 1.0
    low, high = successes / trials, 1.0
    for _ in range(60):
        mid = (low + high) / 2
        tail = sum(math.comb(trials, k) * mid**k * (1 - mid) ** (trials - k) for k in range(successes + 1))
        low, high = (mid, high) if tail > 1 - confidence else (low, mid)
    return high


def shared(
    banks: Banks, trials: int, sizes: list[int], alpha: float, variants: list[str], ks: list[int]
) -> None:
    print(f"## k of 12 hosts sharing one distortion, {trials} trials per cell: share of the k flagged\n")
    columns = " | ".join(f"k = {k}" for k in ks)
    print(f"| distortion | samples/host | {columns} | reference hosts flagged |")
    print("|---|---:|" + "---:|" * (len(ks) + 1))
    for variant in variants:
        for size in sizes:
            cells, false = [], 0
            for k in ks:
                found = 0
                for trial in range(trials):
                    odd = {f"odd-{i}": variant for i in range(k)}
                    results = _run(banks, _hosts(12 - k, odd), size, SEED + 101 * trial + k + size, alpha)
                    found += sum(r.outlier for r in results if r.provider.startswith("odd"))
                    false += sum(r.outlier for r in results if r.provider.startswith("ref"))
                cells.append(f"{found / (k * trials):.0%}")
                print(f"<!-- {variant} {size} k={k}: {found} of {k * trials}, {false} ref -->", flush=True)
            print(f"| {variant} | {size} | " + " | ".join(cells) + f" | {false} |", flush=True)
    print()


def among40(banks: Banks, trials: int, size: int, alpha: float, variants: list[str]) -> None:
    print(f"## One distorted host among 40, {size} samples/host, {trials} trials\n")
    print("| distortion | flagged | reference hosts flagged |")
    print("|---|---:|---:|")
    for variant in variants:
        hits = false = 0
        for trial in range(trials):
            results = _run(banks, _hosts(39, {"odd": variant}), size, SEED + 13 * trial, alpha)
            hits += any(r.outlier for r in results if r.provider == "odd")
            false += sum(r.outlier for r in results if r.provider != "odd")
        print(f"| {variant} | {hits} of {trials} | {false} |")
    print()


def small(banks: Banks, trials: int, size: int, alpha: float) -> None:
    print(f"## Small fleets, {size} samples/host, {trials} trials\n")
    print("| fleet | verdicts |")
    print("|---|---|")
    cases: dict[str, Callable[[], dict[str, str]]] = {
        "2 reference + 2 weaker": lambda: _hosts(2, {"odd-0": "weaker", "odd-1": "weaker"}),
        "4 reference + 1 weaker": lambda: _hosts(4, {"odd": "weaker"}),
    }
    for name, make in cases.items():
        verdicts: dict[str, int] = {}
        for trial in range(trials):
            for r in _run(banks, make(), size, SEED + trial, alpha):
                key = f"{'distorted' if r.provider.startswith('odd') else 'reference'}: {r.verdict}"
                verdicts[key] = verdicts.get(key, 0) + 1
        print(f"| {name} | " + "; ".join(f"{k} x{v}" for k, v in sorted(verdicts.items())) + " |")
    print()


def baseline(banks: Banks, trials: int, size: int, alpha: float) -> None:
    """The Hamming-kernel MMD (first 50 characters, 500 stratified permutations, Holm) on the same fleets."""
    print(f"## Baseline: Hamming MMD on the same fleets, {size} samples/host, {trials} trials\n")
    print("| distortion | surprise ranks (this test) | Hamming MMD |")
    print("|---|---:|---:|")
    for variant in (*MAIN, "temp-1.2", "top-p"):
        ours = theirs = 0
        for trial in range(trials):
            hosts = _hosts(11, {"odd": variant})
            seed = SEED + trial * 31 + size
            fleet = banks.fleet(hosts, size, random.Random(seed))
            ours += any(r.outlier for r in compare_hosts(fleet, alpha=alpha) if r.provider == "odd")
            normal = {h: [Sample(s.prompt, normalise(s.text)) for s in drawn] for h, drawn in fleet.items()}
            results = leave_one_out(normal, permutations=500, seed=seed)
            adjusted = holm([r.p_value for r in results])
            theirs += any(r.provider == "odd" and p < alpha for r, p in zip(results, adjusted, strict=True))
        print(f"| {variant} | {ours} of {trials} | {theirs} of {trials} |")
    print()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a few trials per point")
    parser.add_argument("--sections", default="power,null,shared,among40,small,baseline")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--trials", type=int, default=None, help="trials per power point (default 40)")
    parser.add_argument("--shared-k", default="1,2,3,4", help="shared: how many of 12 hosts share it")
    parser.add_argument("--null-fleets", default="5x40,12x20,40x10", help="null: hosts x samples/host")
    parser.add_argument("--among-size", type=int, default=40, help="among40: samples per host")
    parser.add_argument(
        "--reference-bank", type=int, default=800, help="reference replies per locale (40 hosts x 120: 2400)"
    )
    parser.add_argument("--null-count", type=int, default=None, help="null: fleets per row (default 400)")
    parser.add_argument("--sizes", default="20,60,120", help="samples per host, power section")
    parser.add_argument(
        "--variants", default=",".join((*MAIN, *SUBTLE, *HARMLESS)), help="power, shared, among40"
    )
    args = parser.parse_args()
    trials = args.trials or (4 if args.quick else 40)
    # Four hosts sharing a distortion at 120 samples each draw 240 replies per locale from its bank.
    bank_sizes = {
        "reference": args.reference_bank,
        **{v: 240 if v in MAIN else 120 for v in VARIANTS if v != "reference"},
    }
    started = time.perf_counter()
    banks = cached_banks(bank_sizes, SEED, Path(__file__).parent / "results")
    per_sample = banks.tokens_per_sample()
    print(f"# Equality test on a model family from real text ({', '.join(LOCALES)}); seed {SEED}\n")
    print(f"{per_sample:.0f} tokens per sample (prompt and completion)\n")
    sections = set(args.sections.split(","))
    variants = args.variants.split(",")
    if "power" in sections:
        sizes = [int(size) for size in args.sizes.split(",")]
        power(banks, trials, sizes, args.alpha, per_sample, variants)
    if "null" in sections:
        count = args.null_count or (20 if args.quick else 400)
        rows = [(int(h), int(n)) for h, n in (row.split("x") for row in args.null_fleets.split(","))]
        null(banks, count, rows, args.alpha)
    if "shared" in sections:
        sizes = [int(size) for size in args.sizes.split(",")]
        ks = [int(k) for k in args.shared_k.split(",")]
        shared(banks, max(2, trials // 2), sizes, args.alpha, [v for v in MAIN if v in variants], ks)
    if "among40" in sections:
        among40(banks, max(2, trials // 4), args.among_size, args.alpha, [v for v in MAIN if v in variants])
    if "small" in sections:
        small(banks, max(2, trials // 4), 60, args.alpha)
    if "baseline" in sections:
        baseline(banks, max(2, trials // 4), 60, args.alpha)
    print(f"{time.perf_counter() - started:.0f} s in all.")


if __name__ == "__main__":
    main()
