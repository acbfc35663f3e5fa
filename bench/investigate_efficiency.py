"""Benchmark: investigate's sample efficiency, the smallest N that finds the corrupting host.

    .venv/bin/python bench/investigate_efficiency.py [--trials 100] [--max-n 40] [--healthy-fail 0,0.01,0.03]

For each N (samples per host on the language contract) it runs ``--trials`` seeded trials of the pinned
comparison over the simulator's default fleet and counts a trial a success when the corrupting host
(``garbler/bf16``) has Holm-adjusted p < 0.001 *and* no healthy host is an outlier at alpha 0.01. It prints,
per healthy false-fail rate, the smallest N with at least 95 % successes.

The hosts are *modelled from the fleet file*, not sent to the simulator: each host's probability of a
language ``fail`` is 1 - prod(1 - rate) over its language faults (leading garbage, encoding, drift,
mixing), and of a non-evidence outcome its error rate (429/5xx; excluded from judged). Samples are
independent Bernoulli draws. That is deliberately harsher than the simulator, whose rates are applied
evenly (exactly 19 of every 20), and closer to a real host. Healthy hosts also get a false-fail rate
(``--healthy-fail``): the judge is not perfect on real replies, and a pooled rest that fails sometimes
makes the corrupting host harder to separate. The live-control host (``strictguard/text``) is left out as
``canary investigate`` does. The counting and the statistics are the product's own
(``exporter.investigate.compare``); the time per comparison is printed as well.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from exporter.devtools.simulator.fleet import DEFAULT_FLEET, FaultProfile, load_fleet
from exporter.investigate.compare import Sample, compare

MODEL = "moonshotai/kimi-k2-0905"
CORRUPTING = "garbler/bf16"
CONTROL = "strictguard/text"
SUCCESSES_NEEDED = 0.95


def language_fail_rate(profile: FaultProfile) -> float:
    keep = 1.0
    for rate in (
        profile.leading_garbage.rate,
        profile.encoding.rate,
        profile.language.drift.rate,
        profile.language.mixing.rate,
    ):
        keep *= 1.0 - rate
    return 1.0 - keep


def hosts() -> dict[str, tuple[float, float]]:
    """tag -> (probability of a fail among judged, probability of a non-evidence outcome)."""
    fleet = load_fleet(DEFAULT_FLEET)
    model = next(m for m in fleet.models if m.id == MODEL)
    return {
        p.tag: (language_fail_rate(p.profile), p.profile.errors.rate)
        for p in model.providers
        if p.tag != CONTROL
    }


def trial(rng: random.Random, fleet: dict[str, tuple[float, float]], n: int, healthy_fail: float) -> bool:
    samples: list[Sample] = []
    for tag, (fail, error) in fleet.items():
        fail = fail if fail > 0 else healthy_fail
        for _ in range(n):
            if rng.random() < error:
                samples.append(Sample(tag, "language", "transport"))
            else:
                samples.append(Sample(tag, "language", "fail" if rng.random() < fail else "pass"))
    result = compare(MODEL, samples, providers=list(fleet), contracts=["language"], samples_per_host=n)
    by_host = {r.provider: r for r in result.results}
    healthy = [t for t, (fail, _) in fleet.items() if fail == 0]
    return by_host[CORRUPTING].p_adjusted < 0.001 and not any(by_host[t].outlier for t in healthy)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--max-n", type=int, default=40)
    parser.add_argument("--healthy-fail", default="0,0.01,0.03", help="comma-separated false-fail rates")
    parser.add_argument("--seed", type=int, default=20251201)
    args = parser.parse_args()
    fleet = hosts()
    print(
        f"{len(fleet)} hosts compared: "
        + ", ".join(f"{t} fail={f:.2f} err={e:.2f}" for t, (f, e) in fleet.items())
    )
    for healthy_fail in (float(x) for x in args.healthy_fail.split(",")):
        found = None
        timings: list[float] = []
        for n in range(1, args.max_n + 1):
            rng = random.Random(f"{args.seed}:{healthy_fail}:{n}")
            started = time.perf_counter()
            wins = sum(trial(rng, fleet, n, healthy_fail) for _ in range(args.trials))
            timings.append((time.perf_counter() - started) / args.trials)
            if wins >= SUCCESSES_NEEDED * args.trials:
                found = (n, wins)
                break
        median_ms = statistics.median(timings) * 1000
        if found is None:
            print(f"healthy false-fail {healthy_fail:.2f}: not reached by N={args.max_n}")
        else:
            print(
                f"healthy false-fail {healthy_fail:.2f}: smallest N = {found[0]} "
                f"({found[1]}/{args.trials} trials); median {median_ms:.2f} ms per trial"
            )


if __name__ == "__main__":
    main()
