"""The next-token test (pure): token keys, calibration on seeded null fleets, power, verdicts and limits."""

from __future__ import annotations

import math
import random

import pytest

from exporter.equality.compare import LIKE_PEERS, NO_VERDICT, NOT_ENOUGH_PEERS, NOT_TESTED, OUTLIER
from exporter.equality.logprobs import (
    NO_LOGPROBS,
    LogprobResult,
    NextToken,
    compare_next_tokens,
    next_token,
    token_key,
)

# Five prefixes' true next-token distributions (a model with some uncertainty at each).
TRUTH = [
    {"The": 0.4, "A": 0.25, "In": 0.15, "Once": 0.1, "It": 0.06, "We": 0.04},
    {"red": 0.5, "blue": 0.3, "green": 0.1, "black": 0.06, "white": 0.04},
    {"7": 0.45, "3": 0.2, "5": 0.15, "4": 0.1, "8": 0.06, "2": 0.04},
    {"apple": 0.35, "banana": 0.3, "mango": 0.15, "pear": 0.1, "kiwi": 0.1},
    {"walked": 0.3, "saw": 0.3, "froze": 0.2, "smiled": 0.15, "ran": 0.05},
]


def _distorted(dist: dict[str, float], temperature: float) -> dict[str, float]:
    weights = {t: p ** (1 / temperature) for t, p in dist.items()}
    total = sum(weights.values())
    return {t: w / total for t, w in weights.items()}


def _response(prefix: int, dist: dict[str, float], rng: random.Random, noise: float = 0.05) -> NextToken:
    noisy = {t: math.log(p) + rng.gauss(0, noise) for t, p in dist.items()}
    norm = math.log(sum(math.exp(v) for v in noisy.values()))
    ranked = sorted(noisy.items(), key=lambda item: -item[1])[:5]
    made = next_token(f"p{prefix}", [(t, v - norm) for t, v in ranked])
    assert made is not None
    return made


def _fleet(
    hosts: int, rng: random.Random, odd: float | None = None, repeats: int = 2
) -> dict[str, list[NextToken]]:
    fleet = {}
    for h in range(hosts):
        temperature = odd if (odd is not None and h == 0) else 1.0
        fleet[f"h{h:02}"] = [
            _response(k, _distorted(dist, temperature), rng)
            for k, dist in enumerate(TRUTH)
            for _ in range(repeats)
        ]
    return fleet


def _by_host(results: list[LogprobResult]) -> dict[str, LogprobResult]:
    return {r.provider: r for r in results}


def test_token_keys_ignore_tokenizer_whitespace_markers_and_the_normal_form() -> None:
    assert token_key("Ġthe") == token_key("▁the") == token_key(" the\n") == "the"
    assert token_key("Cafe\u0301") == "Café" and token_key("Ċ") == ""


def test_alternatives_of_one_text_are_added_and_impossible_ones_dropped() -> None:
    made = next_token(
        "p", [(" The", math.log(0.3)), ("The", math.log(0.2)), ("A", math.log(0.1)), ("x", 1.0)]
    )
    assert made is not None and made.top[0][0] == "The" and made.top[0][1] == pytest.approx(0.5)
    assert [t for t, _ in made.top] == ["The", "A"]  # a positive log-probability is no probability
    assert next_token("p", []) is None and next_token("p", [("a", float("nan"))]) is None


def test_reference_fleets_flag_no_host_and_p_values_are_calibrated_in_the_tails() -> None:
    flagged, p_values = 0, []
    for seed in range(40):
        results = compare_next_tokens(_fleet(8, random.Random(seed)), alpha=0.05, seed=seed)
        flagged += any(r.outlier for r in results)
        p_values += [r.p_value for r in results if r.p_value is not None]
        assert all(r.verdict in (LIKE_PEERS, OUTLIER) for r in results)
    assert flagged <= 5  # at most alpha of 40 fleets, with binomial room (expected 2)
    assert sum(p <= 0.1 for p in p_values) / len(p_values) < 0.16  # 320 p-values: uniform in the tail


def test_a_host_serving_another_temperature_is_the_one_outlier() -> None:
    for seed in range(3):
        results = _by_host(compare_next_tokens(_fleet(8, random.Random(seed), odd=1.4), seed=seed))
        odd = results.pop("h00")
        assert odd.verdict == OUTLIER and odd.p_adjusted is not None and odd.p_adjusted < 0.01
        assert odd.effect is not None and odd.effect > 0.05 and odd.within is not None and odd.within < 0.05
        assert not any(r.outlier for r in results.values())


def test_two_hosts_sharing_a_distortion_among_eight_are_both_peeled() -> None:
    rng = random.Random(7)
    fleet = _fleet(8, rng, odd=1.5)
    fleet["h01"] = _fleet(1, rng, odd=1.5)["h00"]
    results = _by_host(compare_next_tokens(fleet))
    assert {h for h, r in results.items() if r.outlier} == {"h00", "h01"}
    assert {results["h00"].step, results["h01"].step} == {1, 2}  # one at a time


def test_a_significant_difference_below_the_tolerance_is_not_a_flag() -> None:
    rng = random.Random(3)
    fleet = _fleet(8, rng, odd=1.02, repeats=40)  # a 2% temperature error, measured very precisely
    results = _by_host(compare_next_tokens(fleet, tolerance=0.01))
    assert results["h00"].effect is not None and 0 < results["h00"].effect < 0.01
    assert not results["h00"].outlier
    strict = _by_host(compare_next_tokens(fleet, tolerance=0.0))
    assert strict["h00"].outlier  # the same data, with no tolerance: it is measurably different


def test_hosts_without_logprobs_with_no_replies_and_too_few_peers_are_named() -> None:
    fleet = _fleet(5, random.Random(1))
    fleet["silent"], fleet["unlisted"] = [], []
    results = _by_host(compare_next_tokens(fleet, listed=[h for h in fleet if h != "unlisted"]))
    assert results["silent"].verdict == NOT_TESTED
    assert results["unlisted"].verdict == NO_LOGPROBS and results["unlisted"].distance is None
    small = _by_host(compare_next_tokens(_fleet(4, random.Random(1))))
    assert {r.verdict for r in small.values()} == {NOT_ENOUGH_PEERS}


def test_an_alpha_below_what_the_permutations_resolve_says_so_instead_of_like_its_peers() -> None:
    results = compare_next_tokens(_fleet(6, random.Random(2)), alpha=1e-6)
    assert {r.verdict for r in results} == {NO_VERDICT}
    # 1e-3 is resolved: hosts decided early (clearly like their peers) are said to be
    assert {r.verdict for r in compare_next_tokens(_fleet(6, random.Random(2)), alpha=1e-3)} == {LIKE_PEERS}
    with pytest.raises(ValueError, match="alpha"):
        compare_next_tokens(_fleet(6, random.Random(2)), alpha=0)


def test_a_host_listing_fewer_alternatives_is_compared_on_as_many_and_not_flagged_for_it() -> None:
    rng = random.Random(5)
    fleet = _fleet(8, rng, odd=1.4)
    fleet["h03"] = [NextToken(r.prefix, r.top[:3]) for r in fleet["h03"]]
    results = _by_host(compare_next_tokens(fleet))
    assert {h for h, r in results.items() if r.outlier} == {"h00"}


def test_the_verdicts_are_deterministic_for_a_seed() -> None:
    fleet = _fleet(6, random.Random(4), odd=1.3)
    assert compare_next_tokens(fleet, seed=11) == compare_next_tokens(fleet, seed=11)
