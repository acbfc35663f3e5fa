"""The comparison: counts against the pooled others, Holm per contract, non-evidence left out, examples."""

from __future__ import annotations

import doctest

import pytest

import exporter.stats
from exporter.investigate.compare import Sample, compare
from exporter.stats import fisher_greater, holm

HOSTS = ["bad/fp8", "ok-a/fp8", "ok-b/fp8", "ok-c/fp8"]


def _samples(provider: str, contract: str, fails: int, passes: int, **others: int) -> list[Sample]:
    out = [
        Sample(provider, contract, "fail", "leading_garbage", f"ción reply {i}", tokens=10)
        for i in range(fails)
    ]
    out += [Sample(provider, contract, "pass", tokens=10) for _ in range(passes)]
    for outcome, count in others.items():
        out += [Sample(provider, contract, outcome, "rate_limited", tokens=1) for _ in range(count)]
    return out


def test_the_docstring_examples_hold() -> None:
    assert doctest.testmod(exporter.stats).failed == 0


def test_a_host_failing_19_of_20_against_none_is_the_only_outlier() -> None:
    samples = _samples("bad/fp8", "language", 19, 1)
    for host in HOSTS[1:]:
        samples += _samples(host, "language", 0, 20)
    result = compare("m", samples, providers=HOSTS, contracts=["language"], samples_per_host=20, alpha=0.01)
    bad = result.results[0]
    assert (bad.provider, bad.failed, bad.judged, bad.rest_failed, bad.rest_judged) == (
        "bad/fp8",
        19,
        20,
        0,
        60,
    )
    assert bad.p_value == fisher_greater(19, 20, 0, 60)
    assert bad.p_adjusted == pytest.approx(4 * bad.p_value)  # the smallest of four tested hosts
    assert bad.outlier and bad.p_adjusted < 0.001
    assert [r.provider for r in result.outliers] == ["bad/fp8"]
    assert len(bad.examples) == 3 and bad.examples[0] == "leading_garbage: ción reply 0"
    assert all(not r.examples for r in result.results[1:])
    assert result.tokens == 80 * 10
    assert bad.reasons == (("leading_garbage", 19),)


def test_non_evidence_is_excluded_from_judged_and_counted() -> None:
    samples = _samples("bad/fp8", "ttft", 2, 3, transport=4, inconclusive=1)
    samples += _samples("ok-a/fp8", "ttft", 0, 5)
    result = compare("m", samples, providers=HOSTS[:2], contracts=["ttft"], samples_per_host=10)
    bad = next(r for r in result.results if r.provider == "bad/fp8")
    assert (bad.failed, bad.judged, bad.excluded) == (2, 5, 5)
    assert dict(bad.excluded_by_outcome) == {"inconclusive": 1, "transport": 4}


def test_holm_runs_per_contract_over_hosts_with_evidence_only() -> None:
    samples = _samples("bad/fp8", "refusal", 6, 4) + _samples("ok-a/fp8", "refusal", 0, 10)
    samples += _samples("ok-b/fp8", "refusal", 0, 0, transport=10)  # nothing judged: not a test
    samples += _samples("bad/fp8", "structured", 0, 10) + _samples("ok-a/fp8", "structured", 5, 5)
    result = compare(
        "m", samples, providers=HOSTS[:3], contracts=["refusal", "structured"], samples_per_host=10
    )
    refusal = {r.provider: r for r in result.results if r.contract == "refusal"}
    raw = [fisher_greater(6, 10, 0, 10), fisher_greater(0, 10, 6, 10)]
    assert refusal["bad/fp8"].p_adjusted == pytest.approx(holm(raw)[0])
    assert refusal["ok-b/fp8"].judged == 0 and refusal["ok-b/fp8"].p_adjusted == 1.0
    assert not refusal["ok-b/fp8"].outlier
    structured = {r.provider: r for r in result.results if r.contract == "structured"}
    assert structured["ok-a/fp8"].failed == 5 and structured["bad/fp8"].failed == 0
    assert [r.contract for r in result.results] == ["refusal"] * 3 + ["structured"] * 3


def test_equal_failure_rates_flag_nobody() -> None:
    samples = [s for host in HOSTS for s in _samples(host, "language", 3, 17)]
    result = compare("m", samples, providers=HOSTS, contracts=["language"], samples_per_host=20)
    assert result.outliers == ()
    assert all(r.p_value > 0.3 for r in result.results)


def test_samples_of_hosts_and_contracts_not_asked_for_are_ignored() -> None:
    samples = _samples("bad/fp8", "language", 20, 0) + _samples("ok-a/fp8", "language", 0, 20)
    samples += _samples("other/x", "language", 20, 0) + _samples("bad/fp8", "ttft", 20, 0)
    result = compare("m", samples, providers=HOSTS[:2], contracts=["language"], samples_per_host=20)
    assert {(r.provider, r.contract) for r in result.results} == {
        ("bad/fp8", "language"),
        ("ok-a/fp8", "language"),
    }
    assert result.results[0].rest_judged == 20
    assert result.tokens == 400


@pytest.mark.parametrize("alpha", [0.0, 1.0, -0.1, 2.0])
def test_alpha_outside_the_open_unit_interval_is_rejected(alpha: float) -> None:
    with pytest.raises(ValueError, match="alpha"):
        compare("m", [], providers=HOSTS, contracts=["language"], samples_per_host=1, alpha=alpha)
