"""The leave-one-out MMD test: kernel, estimator (against a brute-force one), calibration, stratification."""

from __future__ import annotations

import random
from itertools import product

import pytest

from exporter.equality.mmd import Sample, hamming_kernel, leave_one_out


def test_hamming_kernel_counts_agreeing_positions_and_padding() -> None:
    assert hamming_kernel("abc", "abd", 3) == pytest.approx(2 / 3)
    assert hamming_kernel("ab", "ab", 4) == 1.0  # padding matches padding
    assert hamming_kernel("ab", "abc", 4) == pytest.approx(3 / 4)
    assert hamming_kernel("xyz-and-more", "xyz", 3) == 1.0  # only the first L characters count
    assert hamming_kernel("", "abc", 3) == 0.0


def _brute_force_mmd2(host: list[Sample], peers: list[Sample], length: int) -> float:
    """The same-prompt unbiased MMD², written from its definition with explicit pair loops."""

    def sums(a: list[Sample], b: list[Sample], same: bool) -> tuple[float, int]:
        total, pairs = 0.0, 0
        for (i, x), (j, y) in product(enumerate(a), enumerate(b)):
            if (same and i == j) or x.prompt != y.prompt:
                continue
            total += hamming_kernel(x.text, y.text, length)
            pairs += 1
        return total, pairs

    (hh, n_hh), (pp, n_pp), (hp, n_hp) = (
        sums(host, host, True),
        sums(peers, peers, True),
        sums(host, peers, False),
    )
    return hh / n_hh + pp / n_pp - 2 * hp / n_hp


def test_statistic_equals_the_brute_force_definition() -> None:
    rng = random.Random(7)
    words = ["The keeper waits.", "The keeper sleeps.", "Rain.", "A storm comes in from the west."]
    samples = {
        host: [Sample(rng.choice("pq"), rng.choice(words)) for _ in range(9)] for host in ("a", "b", "c", "d")
    }
    for result in leave_one_out(samples, length=12, permutations=10):
        peers = [s for host, ss in samples.items() if host != result.provider for s in ss]
        assert result.mmd2 == pytest.approx(_brute_force_mmd2(list(samples[result.provider]), peers, 12))
        assert result.samples == 9 and result.peer_samples == 27


def test_a_host_with_another_distribution_is_the_only_small_p_value() -> None:
    healthy = ["The keeper waits by the door.", "The keeper sleeps in the hall.", "Night falls on the keep."]
    rng = random.Random(1)
    samples = {f"h{i}": [Sample("p", rng.choice(healthy)) for _ in range(12)] for i in range(8)}
    samples["odd"] = [Sample("p", "Sure! Here is a story: once upon a time.") for _ in range(12)]
    results = {r.provider: r.p_value for r in leave_one_out(samples, permutations=500, seed=3)}
    assert results["odd"] == pytest.approx(1 / 501)
    assert min(p for host, p in results.items() if host != "odd") > 0.01


def test_p_values_are_calibrated_when_every_host_samples_one_distribution() -> None:
    texts = ["The keeper waits.", "The keeper sleeps.", "Night falls.", "A bell rings twice.", "Rain."]
    weights = [5, 3, 2, 1, 1]
    below = total = 0
    for seed in range(60):
        rng = random.Random(seed)
        samples = {
            f"h{i}": [Sample(str(k % 2), rng.choices(texts, weights)[0]) for k in range(10)] for i in range(6)
        }
        for result in leave_one_out(samples, permutations=199, seed=seed):
            total += 1
            below += result.p_value <= 0.1
    assert total == 360
    assert below / total <= 0.15  # a valid test rejects about 10% at 0.1; a broken one far more


def test_permutations_are_stratified_by_prompt() -> None:
    """A host that asked one prompt more often than its peers, with the same answers per prompt, is fine.

    Each prompt has its own answers: pooled across prompts the skewed host looks different, and the same
    samples put in one stratum (a kernel across prompts, unstratified permutations) are flagged.
    """
    answers = {
        "p": ["Alpha one.", "Alpha two."],
        "q": [
            "Nothing stirs in the cold northern keep tonight.",
            "Nothing stirs in the keep; the bells are silent.",
        ],
    }

    def p_value_of_skewed(stratified: bool) -> float:
        rng = random.Random(5)

        def draw(prompts: str) -> list[Sample]:
            return [Sample(p if stratified else "one", rng.choice(answers[p])) for p in prompts]

        samples = {f"h{i}": draw("pq" * 6) for i in range(6)}
        samples["skewed"] = draw("p" * 12 + "q" * 2)
        return {r.provider: r.p_value for r in leave_one_out(samples, permutations=500, seed=2)}["skewed"]

    assert p_value_of_skewed(stratified=True) > 0.2
    assert p_value_of_skewed(stratified=False) < 0.05


def test_deterministic_for_a_seed_and_hosts_without_pairs_are_left_out() -> None:
    samples = {h: [Sample("p", t) for t in ("ab", "ac", "ad")] for h in ("a", "b", "c")}
    samples["single"] = [Sample("p", "zz")]
    first = leave_one_out(samples, permutations=50, seed=9)
    assert first == leave_one_out(samples, permutations=50, seed=9)
    assert [r.provider for r in first] == ["a", "b", "c"]


def test_rejects_a_window_or_permutation_count_below_one() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        leave_one_out({}, length=0)
