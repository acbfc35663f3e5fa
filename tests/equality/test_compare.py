"""The one-shot comparison: calibration, no floor, peeling, small fleets, formatting and NUL bytes."""

from __future__ import annotations

import random

import pytest

from exporter.equality.compare import (
    LIKE_PEERS,
    NO_VERDICT,
    NOT_ENOUGH_PEERS,
    NOT_TESTED,
    OUTLIER,
    compare_hosts,
    score,
)
from exporter.equality.compare import test_host as host_against  # not a test: pytest must not collect it
from exporter.equality.sample import Sample
from tests.equality.toy import fleet as toy_fleet
from tests.equality.toy import host


def test_false_positives_stay_at_alpha_on_seeded_null_fleets_tails_included() -> None:
    """Per-host p-values of healthy fleets: about 10% below 0.1 and 1% below 0.01 (binomial noise)."""
    below_10 = below_1 = total = fleets_flagged = 0
    for seed in range(40):
        results = compare_hosts(toy_fleet(seed, 8, 12), alpha=0.05)
        fleets_flagged += any(r.outlier for r in results)
        for r in results:
            assert r.p_value is not None
            total += 1
            below_10 += r.p_value <= 0.1
            below_1 += r.p_value <= 0.01
    assert total == 320
    assert 0.04 <= below_10 / total <= 0.15  # a valid test near 10%, a broken one far more (or none)
    assert below_1 <= 8  # 1% of 320 is 3.2; 8 has binomial probability below 1%
    assert fleets_flagged <= 6  # 5% of 40 fleets is 2; 6 has binomial probability below 2%


def test_healthy_hosts_left_out_of_the_reference_core_are_scored_like_the_cores_hosts() -> None:
    """Leave one host out: no host is its own scoring model, so leaving a healthy host out of the core
    does not make it look more surprising (a model fitted on the core with only the core's own replies
    left out one by one gave these hosts a mean z near 2)."""
    zs = []
    for seed in range(12):
        fleet = toy_fleet(seed, 10, 40)
        hosts = sorted(fleet)
        scored = score(fleet, reference=hosts[:6])
        for provider in hosts[6:]:
            test = host_against(scored, provider, hosts[:6])
            assert test is not None
            zs.append(test.whole.z)
    assert abs(sum(zs) / len(zs)) < 0.6  # 48 z's of a calibrated test: a mean beyond 4 standard errors


def test_a_host_among_30_is_flagged_even_at_a_tiny_alpha() -> None:
    """No resolution floor: with 30 hosts Holm multiplies by 30, and the p-value still goes below 1e-4/30."""
    fleet = toy_fleet(3, 29, 24, odd=1)
    for alpha in (0.01, 1e-4):
        results = {r.provider: r for r in compare_hosts(fleet, alpha=alpha)}
        assert results["odd-0"].outlier and results["odd-0"].p_adjusted is not None
        assert results["odd-0"].p_adjusted < alpha
        assert not any(r.outlier for h, r in results.items() if h != "odd-0")


def test_peeling_flags_a_third_of_the_fleet_sharing_one_distortion() -> None:
    results = {r.provider: r for r in compare_hosts(toy_fleet(5, 8, 80, odd=4))}
    assert {h for h, r in results.items() if r.outlier} == {f"odd-{i}" for i in range(4)}
    assert sorted(r.step for r in results.values() if r.outlier) == [1, 2, 3, 4]
    assert all(r.verdict == LIKE_PEERS for h, r in results.items() if h.startswith("healthy"))


def test_two_healthy_and_two_broken_hosts_have_not_enough_peers_rather_than_an_inverted_verdict() -> None:
    rng = random.Random(2)
    fleet = {"healthy-a": host(rng, 30), "healthy-b": host(rng, 30)}
    fleet |= {"broken-a": [Sample("pq"[k % 2], "Yes.") for k in range(30)]}
    fleet |= {"broken-b": [Sample("pq"[k % 2], "No.") for k in range(30)]}
    results = compare_hosts(fleet)
    assert {r.verdict for r in results} == {NOT_ENOUGH_PEERS}
    assert not any(r.outlier for r in results) and all(r.p_value is None for r in results)


def test_few_samples_say_no_verdict_instead_of_like_its_peers() -> None:
    fleet = toy_fleet(1, 5, 2)
    results = compare_hosts(fleet, alpha=1e-4)
    assert {r.verdict for r in results} == {NO_VERDICT}
    fleet["silent"] = []
    assert {r.provider: r.verdict for r in compare_hosts(fleet)}["silent"] == NOT_TESTED


def test_whitespace_and_unicode_form_are_not_a_distribution_difference_but_are_reported() -> None:
    fleet = toy_fleet(7, 9, 30)
    rng = random.Random(8)
    fleet["spacey"] = [Sample(s.prompt, rng.choice((" ", "\n")) + s.text + "\n") for s in host(rng, 30)]
    fleet["nfd"] = [Sample("p", "Café au lait e\u0301te\u0301.")] * 0 + host(rng, 30)
    fleet["nfd"][0] = Sample("p", "Cafe\u0301 keeper.")
    results = {r.provider: r for r in compare_hosts(fleet)}
    assert not any(r.outlier for r in results.values())
    assert results["spacey"].formatting == 1.0 and results["spacey"].formatting_p is not None
    assert results["spacey"].formatting_p < 0.01
    assert results["healthy-00"].formatting == 0.0


def test_a_host_emitting_nul_bytes_is_an_outlier_not_a_match_for_padding() -> None:
    fleet = {
        f"short-{i}": [Sample("p", "Yes."), Sample("p", "No."), Sample("p", "Maybe.")] * 6 for i in range(6)
    }
    fleet["nul"] = [Sample("p", "\x00" * 40)] * 18
    results = {r.provider: r for r in compare_hosts(fleet)}
    assert results["nul"].verdict == OUTLIER
    assert not any(r.outlier for h, r in results.items() if h != "nul")


def test_alpha_must_be_a_probability() -> None:
    with pytest.raises(ValueError, match="alpha"):
        compare_hosts({}, alpha=1.0)


def test_the_table_fits_80_columns_and_shows_the_outliers_completions_beside_the_peers() -> None:
    from exporter.equality.config import EqualityConfig
    from exporter.equality.report import build, to_json, to_markdown, to_table
    from exporter.equality.sampling import HostSamples

    fleet = toy_fleet(4, 6, 30, odd=2)
    hosts = [HostSamples(p, s) for p, s in fleet.items()]
    # a healthy host of its own (byte-identical replies on two hosts are a cache, not a sampled model)
    long_name = "a-very-long-provider-name/with-a-quantization-tag"
    hosts.append(HostSamples(long_name, host(random.Random(9), 30)))
    report = build(
        "moonshotai/kimi-k2-0905-a-long-model-slug",
        hosts,
        samples=30,
        alpha=0.01,
        settings=EqualityConfig(),
    )
    table = to_table(report)
    assert max(map(len, table.splitlines())) <= 80
    assert "odd-0 wrote:" in table and "its peers wrote:" in table and "OUTLIER" in table
    document = to_json(report)
    assert {r["provider"] for r in document["results"] if r["outlier"]} == {"odd-0", "odd-1"}
    keys = "provider samples peer_samples z effect p_value p_adjusted outlier verdict step formatting"
    keys += " formatting_p excluded default_temperature examples peer_examples"
    assert [list(r) for r in document["results"]] == [keys.split()] * len(hosts)
    assert all(set(e) == {"prompt", "text"} for r in document["results"] for e in r["examples"])
    assert "**outlier**" in to_markdown(report)
