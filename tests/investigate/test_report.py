"""The report's three forms: the JSON contract, an 80-column table, Markdown for a ticket."""

from __future__ import annotations

import json

from exporter.investigate.compare import Comparison, Sample, compare
from exporter.investigate.report import to_json, to_markdown, to_table

LONG = "ción " + "una frase muy larga que no cabe " * 10


def _comparison() -> Comparison:
    samples = [
        Sample("garbler/bf16", "language", "fail", "leading_garbage", LONG, tokens=50, cost_usd=1e-4)
    ] * 19
    samples += [Sample("garbler/bf16", "language", "pass", tokens=50)]
    samples += [Sample("a-rather-long-provider-tag/with-variant", "language", "pass", tokens=50)] * 19
    samples += [Sample("a-rather-long-provider-tag/with-variant", "language", "transport")]
    samples += [Sample("deepinfra/fp8", "language", "pass", tokens=50)] * 20
    return compare(
        "moonshotai/kimi-k2-0905",
        samples,
        providers=["garbler/bf16", "deepinfra/fp8", "a-rather-long-provider-tag/with-variant"],
        contracts=["language"],
        samples_per_host=20,
        alpha=0.01,
        locale="es",
    )


def test_json_has_exactly_the_public_keys_and_round_trips() -> None:
    document = json.loads(json.dumps(to_json(_comparison())))
    assert {"model", "samples", "alpha", "results", "cost"} <= set(document)
    assert document["model"] == "moonshotai/kimi-k2-0905" and document["samples"] == 20
    assert set(document["cost"]) == {"tokens", "usd"}
    assert document["cost"]["tokens"] == 2950 and document["cost"]["usd"] == 0.0019
    first = document["results"][0]
    public = {"provider", "contract", "failed", "judged", "rest_failed", "rest_judged", "p_value",
              "p_adjusted", "outlier", "examples"}  # fmt: skip
    assert public <= set(first)
    assert first["provider"] == "garbler/bf16" and first["outlier"] is True
    assert first["examples"][0].startswith("leading_garbage: ción una frase")
    long_tag = next(r for r in document["results"] if r["provider"].startswith("a-rather"))
    assert long_tag["excluded"] == 1 and long_tag["excluded_by_outcome"] == {"transport": 1}


def test_table_fits_80_columns_and_ends_with_the_cost() -> None:
    table = to_table(_comparison())
    assert all(len(line) <= 80 for line in table.splitlines()), table
    assert "garbler/bf16" in table and "19/20" in table and "0/39" in table
    assert "a-rather-long-provi…" in table
    assert table.splitlines()[-1] == "cost: 2950 tokens, 0.001900 USD spent"
    outlier_row = next(line for line in table.splitlines() if line.startswith("language   garbler"))
    assert "YES" in outlier_row


def test_markdown_names_the_outlier_and_lists_its_failing_replies() -> None:
    markdown = to_markdown(_comparison())
    assert markdown.startswith("### Pinned comparison: `moonshotai/kimi-k2-0905`")
    assert "**Outliers:** `garbler/bf16` (language)." in markdown
    assert "| language | `garbler/bf16` | 19/20 | 0/39 |" in markdown
    assert "- `leading_garbage: ción una frase" in markdown
    assert markdown.rstrip().endswith("cost: 2950 tokens, 0.001900 USD spent.")


def test_markdown_says_so_when_nobody_is_an_outlier() -> None:
    samples = [Sample(h, "language", "pass") for h in ("a/x", "b/x") for _ in range(5)]
    comparison = compare("m", samples, providers=["a/x", "b/x"], contracts=["language"], samples_per_host=5)
    assert "**No outlier:**" in to_markdown(comparison)
    assert "(nothing to compare)" not in to_table(comparison)
