"""Outliers are peeled one at a time, so distorted peers do not make healthy hosts look different."""

from __future__ import annotations

import random

import pytest

from exporter.equality.compare import compare_hosts
from exporter.equality.mmd import Sample, leave_one_out
from exporter.investigate.stats import holm

HEALTHY = ["The keeper waits by the door.", "The keeper sleeps in the hall.", "Night falls on the keep."]


def _fleet(seed: int) -> dict[str, list[Sample]]:
    rng = random.Random(seed)
    samples = {f"healthy-{i}": [Sample("p", rng.choice(HEALTHY)) for _ in range(30)] for i in range(6)}
    for i in range(3):
        samples[f"weak-{i}"] = [Sample("p", "Yes.") for _ in range(30)]
    return samples


def test_peeling_flags_every_distorted_host_and_no_healthy_one_where_leave_one_out_alone_does() -> None:
    samples = _fleet(4)
    plain = leave_one_out(samples, seed=1)
    plain_flags = {
        r.provider for r, p in zip(plain, holm([r.p_value for r in plain]), strict=True) if p < 0.01
    }
    assert any(host.startswith("healthy") for host in plain_flags)  # the contamination peeling exists for

    results = {r.provider: r for r in compare_hosts(samples, alpha=0.01, seed=1)}
    assert {h for h, r in results.items() if r.outlier} == {"weak-0", "weak-1", "weak-2"}
    assert sorted(r.step for r in results.values() if r.outlier) == [1, 2, 3]
    assert all(
        r.step == 4 and r.p_adjusted is not None for h, r in results.items() if h.startswith("healthy")
    )


def test_hosts_that_cannot_be_tested_are_reported_without_a_verdict() -> None:
    samples = {h: [Sample("p", t) for t in HEALTHY] for h in ("a", "b", "c")}
    samples["once"] = [Sample("p", "A single reply.")]
    results = {r.provider: r for r in compare_hosts(samples, permutations=100)}
    assert set(results) == {"a", "b", "c", "once"}
    assert results["once"].p_value is None and not results["once"].outlier and results["once"].samples == 1
    two = compare_hosts({h: [Sample("p", t) for t in HEALTHY] for h in ("a", "b")})
    assert [(r.provider, r.p_value) for r in two] == [("a", None), ("b", None)]  # below MIN_HOSTS


def test_alpha_must_be_a_probability() -> None:
    with pytest.raises(ValueError, match="alpha"):
        compare_hosts({}, alpha=1.0)
