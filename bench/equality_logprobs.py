"""Equality test on next-token probabilities: power against distortions of a model trained on real text,
and false positives over seeded null fleets with realistic nondeterminism.

The reference next-token distributions are the order-6 character models of ``bench/equality_fleet.py``
(trained at run time on gettext catalogues installed by Debian packages, English and German): a "token" is
a character, a prefix is a context the reference model itself wrote (the first characters of a seeded
reply, so the distributions are the ones a served model meets). Each response lists the top ``--top-k``
alternatives (default 5, what the exporter asks for) of the host's distribution after per-request
nondeterminism: independent Gaussian noise on every log-probability (``--noise``, default 0.05 nats),
renormalised. Hosts:

- ``reference``: the reference distribution;
- ``temp-1.2`` / ``temp-0.8``: reported at 1.2x / 0.8x temperature (a host whose logprobs reflect its
  sampler's temperature);
- ``top-k``: hard top-k (k = 5), the masked alternatives listed at -9999 as vLLM reports them;
- ``quant-0.1`` / ``quant-0.2`` / ``quant-0.3``: quantisation-like error: fixed Gaussian noise of that many
  nats on every log-probability, drawn once per host and prefix;
- ``jitter``: a healthy stack's own numerics: fixed noise of 0.02 nats (must not be flagged).

Usage::

    .venv/bin/python -m bench.equality_logprobs                          # power, shared, false positives
    .venv/bin/python -m bench.equality_logprobs --sections null --fleets 200
    .venv/bin/python -m bench.equality_logprobs --sections shared --variants temp-1.2,quant-0.2 --trials 10
    .venv/bin/python -m bench.equality_logprobs --quick                  # a smoke run
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # runs as a script or with -m

from bench.equality_fleet import LOCALES, Family, Generator
from bench.equality_power import upper_bound
from exporter.equality.compare import OUTLIER
from exporter.equality.logprob_sampling import DEFAULT_TOP_LOGPROBS
from exporter.equality.logprobs import LogprobResult, NextToken, compare_next_tokens, next_token

SEED = 20261206
REPEATS = 2
PROMPT_TOKENS = 20  # a short prefix prompt; max_tokens 1
VARIANTS = ("temp-1.2", "temp-0.8", "top-k", "quant-0.1", "quant-0.2", "quant-0.3", "jitter")
Distribution = list[tuple[str, float]]


def _probabilities(generator: Generator, context: str, temperature: float, top_k: int) -> Distribution:
    chars, cumulative = generator.distribution(context, temperature, top_k, 1.0)
    total, previous, out = cumulative[-1], 0.0, []
    for char, running in zip(chars, cumulative, strict=True):
        out.append((char, (running - previous) / total))
        previous = running
    return out


class Bench:
    """The reference model, its prefixes and each variant's true distribution per prefix."""

    def __init__(self, prefixes: int, seed: int, top_k: int) -> None:
        self.top_k = top_k
        family = Family.build()
        rng = random.Random(seed)
        self.generators = family.reference
        self.prefixes: list[tuple[str, str]] = []  # (locale, context)
        while len(self.prefixes) < prefixes:
            locale = LOCALES[len(self.prefixes) % len(LOCALES)]
            generator = self.generators[locale]
            text = generator.sample(rng)
            if len(text) < 12:
                continue
            cut = rng.randint(6, len(text) - 4)
            self.prefixes.append((locale, ("\x02" * 5 + text[:cut])[-5:]))

    def truth(self, variant: str, index: int) -> Distribution:
        locale, context = self.prefixes[index]
        generator = self.generators[locale]
        if variant.startswith("temp-"):
            return _probabilities(generator, context, float(variant.split("-")[1]), 0)
        if variant == "top-k":
            kept = _probabilities(generator, context, 1.0, 5)
            listed = {c for c, _ in kept}
            return kept + [(c, 0.0) for c, _ in _probabilities(generator, context, 1.0, 0) if c not in listed]
        return _probabilities(generator, context, 1.0, 0)


def _noisy(dist: Distribution, sigma: float, rng: random.Random) -> Distribution:
    """``dist`` with Gaussian noise of ``sigma`` nats on every positive log-probability, renormalised."""
    weights = [(c, p * math.exp(rng.gauss(0, sigma)) if p > 0 else 0.0) for c, p in dist]
    total = sum(w for _, w in weights)
    return [(c, w / total) for c, w in weights]


def _response(prefix: str, dist: Distribution, top_k: int) -> NextToken:
    ranked = sorted(dist, key=lambda item: -item[1])[:top_k]
    pairs = [(c, math.log(p) if p > 0 else -9999.0) for c, p in ranked]
    made = next_token(prefix, pairs)
    assert made is not None
    return made


def fleet(
    bench: Bench, hosts: dict[str, str], prefixes: int, noise: float, rng: random.Random
) -> dict[str, list[NextToken]]:
    """Every host's ``REPEATS`` responses at each of the first ``prefixes`` prefixes."""
    out: dict[str, list[NextToken]] = {}
    for host, variant in hosts.items():
        fixed = {"jitter": 0.02}.get(variant, float(variant[6:]) if variant.startswith("quant-") else 0.0)
        responses = []
        for index in range(prefixes):
            truth = bench.truth(variant, index)
            if fixed:
                truth = _noisy(truth, fixed, rng)  # drawn once per host and prefix: a systematic error
            responses += [
                _response(str(index), _noisy(truth, noise, rng), bench.top_k) for _ in range(REPEATS)
            ]
        out[host] = responses
    return out


def _hosts(reference: int, distorted: dict[str, str]) -> dict[str, str]:
    return {f"ref-{i:02}": "reference" for i in range(reference)} | distorted


def _flagged(results: list[LogprobResult]) -> Iterator[str]:
    return (r.provider for r in results if r.verdict == OUTLIER)


def _trial(
    bench: Bench, variant: str, size: int, trial: int, alpha: float, noise: float
) -> tuple[bool, int, float | None]:
    """One fleet of 11 reference hosts and ``odd``: (odd flagged, reference hosts flagged, odd's effect)."""
    rng = random.Random(f"{SEED}/{variant}/{size}/{trial}")
    results = compare_next_tokens(
        fleet(bench, _hosts(11, {"odd": variant}), size, noise, rng), alpha=alpha, seed=trial
    )
    flagged = set(_flagged(results))
    return "odd" in flagged, len(flagged - {"odd"}), next(r.effect for r in results if r.provider == "odd")


def power(
    bench: Bench, trials: int, sizes: list[int], alpha: float, noise: float, variants: list[str]
) -> None:
    print(f"## Power: 11 reference hosts + 1 distorted, top {bench.top_k}, alpha {alpha}, "
          f"{REPEATS} requests per prefix, {trials} trials per cell\n")  # fmt: skip
    columns = " | ".join(
        f"{s} prefixes ({s * REPEATS} req, {s * REPEATS * (PROMPT_TOKENS + 1)} tok)" for s in sizes
    )
    print(
        f"| distortion | {columns} | mean distance − median peer's at {sizes[-1]} | reference hosts flagged |"
    )
    print("|---|" + "---:|" * (len(sizes) + 2))
    for variant in variants:
        runs = {
            size: [_trial(bench, variant, size, t, alpha, noise) for t in range(trials)] for size in sizes
        }
        cells = [f"{sum(hit for hit, _, _ in runs[size]) / trials:.0%}" for size in sizes]
        wrong = sum(w for size in sizes for _, w, _ in runs[size])
        effects = [e for _, _, e in runs[sizes[-1]] if e is not None]
        effect = sum(effects) / len(effects) if effects else float("nan")
        print(f"| {variant} | {' | '.join(cells)} | {effect:+.3f} | {wrong} |", flush=True)
    print()


def null(bench: Bench, fleets: range, sizes: list[int], prefixes: int, alpha: float, noise: float) -> None:
    print(f"## False positives: reference-only fleets {fleets.start} to {fleets.stop - 1}, "
          f"{prefixes} prefixes x {REPEATS}, noise {noise} nats, alpha {alpha}\n")  # fmt: skip
    print(
        "| hosts | fleets | fleets with a host flagged | upper 95% | smallest adjusted p <= 0.05 "
        "| per-host p <= 0.05 | p <= 0.01 | p <= 0.001 | s/fleet |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for hosts in sizes:
        any_flag, near, ps, started = 0, 0, [], time.perf_counter()
        for index in fleets:
            rng = random.Random(f"{SEED}/null/{hosts}/{index}")
            results = compare_next_tokens(
                fleet(bench, _hosts(hosts, {}), prefixes, noise, rng), alpha=alpha, seed=index
            )
            any_flag += any(r.outlier for r in results)
            near += min(r.p_adjusted for r in results if r.step == 1 and r.p_adjusted is not None) <= 0.05
            ps += [r.p_value for r in results if r.step == 1 and r.p_value is not None]
            if (index + 1 - fleets.start) % 100 == 0:
                print(
                    f"<!-- {hosts} hosts: {index + 1 - fleets.start} fleets, {any_flag} flagged -->",
                    flush=True,
                )
        count = len(fleets)
        seconds = (time.perf_counter() - started) / count
        tails = " | ".join(f"{sum(p <= t for p in ps) / len(ps):.2%}" for t in (0.05, 0.01, 0.001))
        print(
            f"| {hosts} | {count} | {any_flag} ({any_flag / count:.2%}) | {upper_bound(any_flag, count):.2%} "
            f"| {near / count:.2%} | {tails} | {seconds:.2f} |",
            flush=True,
        )
    print()


def shared(bench: Bench, trials: int, prefixes: int, alpha: float, noise: float, variants: list[str]) -> None:
    print(f"## k of 12 hosts sharing one distortion, {prefixes} prefixes x {REPEATS}, {trials} trials per "
          "cell (share of the distorted hosts flagged; reference hosts flagged)\n")  # fmt: skip
    print("| distortion | k = 2 | k = 3 | k = 4 | 1 among 40 |")
    print("|---|---:|---:|---:|---:|")
    for variant in variants:
        cells = []
        for total, k in ((12, 2), (12, 3), (12, 4), (40, 1)):
            hits = wrong = 0
            for trial in range(trials):
                rng = random.Random(f"{SEED}/shared/{variant}/{total}/{k}/{trial}")
                hosts = _hosts(total - k, {f"odd-{i}": variant for i in range(k)})
                flagged = set(
                    _flagged(compare_next_tokens(fleet(bench, hosts, prefixes, noise, rng), alpha=alpha))
                )
                hits += sum(h.startswith("odd-") for h in flagged)
                wrong += sum(not h.startswith("odd-") for h in flagged)
            cells.append(f"{hits / (k * trials):.0%} ({wrong})")
        print(f"| {variant} | {' | '.join(cells)} |", flush=True)
    print()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--sections", default="power,null,shared", help="power, null, shared (comma-separated)"
    )
    parser.add_argument("--variants", default=",".join(VARIANTS))
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--sizes", default="4,8,16", help="prefixes per host (power)")
    parser.add_argument("--fleets", type=int, default=200)
    parser.add_argument("--first", type=int, default=0, help="null: the first fleet's seed index")
    parser.add_argument("--hosts", default="5,12,40", help="fleet sizes (null)")
    parser.add_argument("--prefixes", type=int, default=8, help="prefixes per host (null)")
    parser.add_argument("--noise", type=float, default=0.05, help="per-request nondeterminism, nats")
    parser.add_argument("--alpha", type=float, default=0.01)
    parser.add_argument("--top-k", type=int, default=DEFAULT_TOP_LOGPROBS, help="alternatives listed")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.trials, args.fleets, args.sizes = 3, 10, "4,8"
    sizes = [int(s) for s in args.sizes.split(",")]
    bench = Bench(max(max(sizes), args.prefixes), SEED, args.top_k)
    sections = args.sections.split(",")
    if "power" in sections:
        power(bench, args.trials, sizes, args.alpha, args.noise, args.variants.split(","))
    if "shared" in sections:
        shared(bench, args.trials, args.prefixes, args.alpha, args.noise, args.variants.split(","))
    if "null" in sections:
        null(
            bench,
            range(args.first, args.first + args.fleets),
            [int(h) for h in args.hosts.split(",")],
            args.prefixes,
            args.alpha,
            args.noise,
        )


if __name__ == "__main__":
    main()
