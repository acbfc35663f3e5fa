"""The starts' tail-count test: exact under exchangeable labels, and powerful where a share of replies is
extreme (an echoed template) while a rank mean is diluted."""

from __future__ import annotations

import doctest
import random
from types import ModuleType

import pytest

from exporter.equality import compare, logprobs, ngram, sample, tails
from exporter.equality.compare import compare_hosts
from exporter.equality.ranks import rank_sum
from exporter.equality.sample import Sample
from exporter.equality.tails import convolve, hypergeometric, tail_count
from tests.equality.toy import fleet as toy_fleet


@pytest.mark.parametrize("module", [tails, ngram, sample, compare, logprobs], ids=lambda m: m.__name__)
def test_the_module_examples_hold(module: ModuleType) -> None:
    assert doctest.testmod(module).failed == 0


def test_the_null_laws_are_distributions_with_the_hypergeometric_mean() -> None:
    law = hypergeometric(50, 7, 12)
    assert abs(sum(law) - 1) < 1e-12
    assert abs(sum(k * p for k, p in enumerate(law)) - 12 * 7 / 50) < 1e-12
    both = convolve([law, hypergeometric(30, 3, 10)])
    assert abs(sum(both) - 1) < 1e-12 and len(both) == 8 + 4 - 1


def test_p_values_under_random_labels_are_valid_in_the_tails() -> None:
    """Labels dealt at random within each prompt: P(p <= a) <= a (exact tests are conservative), and not
    so conservative that the test is dead."""
    rng = random.Random(7)
    below_5 = below_1 = 0
    runs = 1500
    for _ in range(runs):
        host, peers = {}, {}
        for prompt in ("a", "b"):
            pool = [rng.gauss(0, 1) for _ in range(130)]
            host[prompt], peers[prompt] = pool[:30], pool[30:]
        test = tail_count(host, peers)
        assert test is not None
        below_5 += test.p_value <= 0.05
        below_1 += test.p_value <= 0.01
    assert 0.015 * runs <= below_5 <= 0.06 * runs  # 5% at most (binomial noise), and alive
    assert below_1 <= 0.016 * runs


def test_a_share_of_replies_beyond_every_peer_is_flagged_in_either_tail() -> None:
    """A template on 30% of the replies: the tail count flags it, more strongly than the rank sum."""
    rng = random.Random(3)
    peers = {p: [rng.gauss(0, 1) for _ in range(300)] for p in "ab"}
    host = {p: [rng.gauss(6, 0.1) if k % 10 < 3 else rng.gauss(0, 1) for k in range(30)] for p in "ab"}
    tail, ranks = tail_count(host, peers), rank_sum(host, peers)
    assert tail is not None and ranks is not None
    assert tail.p_value < 1e-6 and tail.z > 0 and tail.upper >= 18
    assert ranks.p_value > 3 * tail.p_value
    low = {p: [-v if k % 10 < 3 else v for k, v in enumerate(values)] for p, values in host.items()}
    lower = tail_count(low, peers)
    assert lower is not None and lower.p_value < 1e-5 and lower.z < 0  # a template the model knows: low


def test_a_host_like_its_peers_is_not_flagged_and_ties_count_whole() -> None:
    rng = random.Random(4)
    peers = {"a": [rng.gauss(0, 1) for _ in range(200)]}
    test = tail_count({"a": [rng.gauss(0, 1) for _ in range(40)]}, peers)
    assert test is not None and test.p_value > 0.05
    flat = tail_count({"a": [1.0] * 10}, {"a": [1.0] * 50})  # every score tied: every reply in both tails
    assert flat is not None and flat.p_value == 1.0
    assert tail_count({"a": [1.0]}, {"b": [1.0]}) is None


def test_four_of_twelve_hosts_echoing_a_template_on_a_third_of_their_replies_are_all_flagged() -> None:
    fleet = toy_fleet(11, 8, 40)
    rng = random.Random(11)
    for i in range(4):
        replies = toy_fleet(100 + i, 1, 40)["healthy-00"]
        fleet[f"echo-{i}"] = [
            Sample(s.prompt, "<|im_start|>assistant\n" + s.text if rng.random() < 0.3 else s.text)
            for s in replies
        ]
    flagged = {r.provider for r in compare_hosts(fleet) if r.outlier}
    assert flagged == {f"echo-{i}" for i in range(4)}
