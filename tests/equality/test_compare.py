"""Outliers are peeled one at a time, so distorted peers do not make healthy hosts look different."""

from __future__ import annotations

import random

import pytest

from exporter.equality.compare import compare_hosts
from exporter.equality.mmd import Sample, leave_one_out
from exporter.stats import holm

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


def test_the_table_fits_80_columns_and_shows_the_outliers_completions_beside_the_peers() -> None:
    from exporter.equality.report import build, to_json, to_markdown, to_table
    from exporter.equality.sampling import EqualitySettings, HostSamples

    hosts = [HostSamples(p, s) for p, s in _fleet(4).items()]
    hosts.append(HostSamples("a-very-long-provider-name/with-a-quantization-tag", _fleet(5)["healthy-0"]))
    report_model = "moonshotai/kimi-k2-0905-a-long-model-slug"
    report = build(report_model, hosts, samples=30, alpha=0.01, settings=EqualitySettings())
    table = to_table(report)
    assert max(map(len, table.splitlines())) <= 80
    assert "weak-0 wrote:" in table and "its peers wrote:" in table and "OUTLIER" in table
    document = to_json(report)
    assert {r["provider"] for r in document["results"] if r["outlier"]} == {"weak-0", "weak-1", "weak-2"}
    keys = "provider samples peer_samples mmd2 p_value p_adjusted outlier step excluded default_temperature"
    keys += " examples peer_examples"
    assert [list(r) for r in document["results"]] == [keys.split()] * len(hosts)
    assert all(set(e) == {"prompt", "text"} for r in document["results"] for e in r["examples"])
    assert "**outlier**" in to_markdown(report)
