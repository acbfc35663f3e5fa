"""``canary investigate --test equality`` through its CLI against the real simulator."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.devtools.simulator.server import SimulatorServer
from tests.investigate.conftest import KIMI, Run, as_json, chat_requests

HEALTHY = ("deepinfra/fp8", "deepinfra/turbo", "parasail/fp8", "novita/fp8", "garbler/bf16", "mixer/fp8")


def _argv(config: Path, *extra: str) -> list[str]:
    return ["investigate", "--config", str(config), "--model", KIMI, "--test", "equality", *extra]


@pytest.mark.parametrize(
    ("extra", "flag", "says"),
    [
        (["--samples", "6"], "--samples", "at least 12"),
        (["--contracts", "language"], "--contracts", "does not apply to --test equality"),
        (["--locale", "de"], "--locale", "does not apply to --test equality"),
        (["--from-history", "1h"], "--from-history", "samples now"),
        (["--providers", "deepinfra/fp8,novita/fp8,parasail/fp8"], "--providers", "at least 5 hosts"),
    ],
)
def test_bad_input_is_exit_2_naming_the_flag_and_nothing_is_sent(
    run: Run, config: Path, sim: SimulatorServer, extra: list[str], flag: str, says: str
) -> None:
    code, out, err = run(*_argv(config, *extra))
    assert code == 2 and flag in err and says in err, err
    assert out == "" and "Traceback" not in err and chat_requests(sim) == 0


@pytest.mark.slow
def test_the_weaker_model_host_is_the_outlier_and_no_healthy_host_is(
    run: Run, config: Path, sim: SimulatorServer
) -> None:
    hosts = ",".join((*HEALTHY, "weakling/int4", "templar/bf16"))
    code, out, _ = run(*_argv(config, "--providers", hosts, "--samples", "24", "--json"))
    assert code == 0
    report = as_json(out)
    assert report["test"] == "equality" and report["samples"] == 24 and report["alpha"] == 0.01
    results = {r["provider"]: r for r in report["results"]}
    assert results["weakling/int4"]["outlier"] and results["weakling/int4"]["p_adjusted"] < 0.01
    assert not any(results[h]["outlier"] for h in HEALTHY), report
    assert all(r["samples"] == 24 and r["excluded"] == 0 for r in results.values())
    assert results["weakling/int4"]["examples"] and results["weakling/int4"]["peer_examples"]
    assert report["cost"]["tokens"] > 0
    # the second test: every chosen host lists logprobs, so each was asked the 8 prefixes twice
    tokens = {r["provider"]: r for r in report["logprobs"]["results"]}
    assert tokens["weakling/int4"]["outlier"] and tokens["templar/bf16"]["outlier"]
    assert not any(tokens[h]["outlier"] for h in HEALTHY), report["logprobs"]
    assert all(r["responses"] == 16 and r["excluded"] == 0 for r in tokens.values())
    assert report["logprobs"]["top_logprobs"] == 5 and report["logprobs"]["repeats"] == 2
    assert chat_requests(sim) == 8 * 24 + 8 * 16


@pytest.mark.slow
def test_the_table_shows_a_next_token_line_per_host_and_says_which_hosts_list_no_logprobs(
    run: Run, config: Path, sim: SimulatorServer
) -> None:
    hosts = ",".join((*HEALTHY[:4], "quanta/fp4", "reasoner/bf16"))
    code, out, _ = run(*_argv(config, "--providers", hosts, "--samples", "12"))
    assert code == 0
    lines = out.splitlines()
    quanta = lines.index(next(line for line in lines if line.startswith("quanta/fp4")))
    assert lines[quanta + 1].startswith("  next tokens") and lines[quanta + 1].endswith("OUTLIER"), out
    reasoner = lines.index(next(line for line in lines if line.startswith("reasoner/bf16")))
    assert lines[reasoner + 1].endswith("not tested (no logprobs)"), out
    assert "the endpoint does not list logprobs and top_logprobs" in out
