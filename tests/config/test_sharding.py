"""rounds.shard: stable ownership of models, check-config over one or several replica configs, and the
exporter probing only its shard and saying which shard it is."""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from prometheus_client.exposition import generate_latest

from exporter.commands.canary import main
from exporter.commands.exporter_service import ExporterService
from exporter.config import load_config
from exporter.configkit import ConfigError
from exporter.sharding import WHOLE, Replica, Shard, check_shard_set, owned_by, shard_of

SHARDS = Path(__file__).parent.parent / "fixtures" / "config" / "shards"
MODELS = ("moonshotai/kimi-k2-0905", "openai/gpt-oss-120b", "minimax/minimax-m2", "x-ai/grok-4-fast")


def test_every_model_has_exactly_one_owner_and_the_owners_split_a_large_list_evenly() -> None:
    slugs = [f"vendor/model-{i}" for i in range(3000)]
    for count in (1, 2, 3, 7):
        owners = owned_by(slugs, count)
        assert sorted(s for models in owners.values() for s in models) == sorted(slugs)
        for index in range(count):
            shard = Shard(index=index, count=count)
            assert [s for s in slugs if shard.owns(s)] == owners[index]
            assert abs(len(owners[index]) - len(slugs) / count) < 0.15 * len(slugs) / count  # within 15 %


def test_adding_a_shard_moves_only_the_models_the_new_shard_takes() -> None:
    slugs = [f"vendor/model-{i}" for i in range(3000)]
    before, after = owned_by(slugs, 4), owned_by(slugs, 5)
    moved = [s for index, models in before.items() for s in models if s not in after[index]]
    assert sorted(moved) == sorted(after[4]), "a model only ever moves to the new shard"
    assert len(moved) < 0.25 * len(slugs)


def test_ownership_is_the_same_in_another_python_process_with_another_hash_seed() -> None:
    code = "from exporter.sharding import shard_of; print([shard_of(f'v/m-{i}', 5) for i in range(50)])"
    other = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONHASHSEED": "12345", "PATH": ""},
        cwd=Path(__file__).resolve().parents[2],
    )
    assert other.stdout.strip() == str([shard_of(f"v/m-{i}", 5) for i in range(50)])
    # Pinned values: a change to the hash would silently reshuffle every deployment's shards.
    assert [shard_of(slug, 2) for slug in MODELS] == [0, 0, 1, 1]
    assert [shard_of(slug, 3) for slug in MODELS] == [0, 0, 2, 1]


def test_a_shard_config_loads_with_its_location() -> None:
    path = SHARDS / "shard-1-of-2.yaml"
    shard = load_config(path).rounds.shard
    assert (shard.index, shard.count, shard.where) == (1, 2, f"{path}:17")
    assert load_config(
        Path(__file__).parent.parent / "fixtures" / "config" / "valid_direct.yaml"
    ).rounds.shard == (Shard(index=0, count=1))


def test_an_index_outside_the_count_is_rejected_at_its_line() -> None:
    path = SHARDS / "index-too-big.yaml"
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f"{path}:17: rounds.shard.index: must be less than count (2): shards are numbered 0 to 1"
    ]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("{index: 0}", "3: rounds.shard.count: required key is missing (a whole number)"),
        ("{index: -1, count: 2}", "3: rounds.shard.index: must be at least 0 (got -1)"),
        ("{index: 0, count: 0}", "3: rounds.shard.count: must be at least 1 (got 0)"),
        (
            "{index: 0, count: 2, replicas: 2}",
            "3: rounds.shard.replicas: unknown key (known keys here: count, index)",
        ),
        (
            "{index: 1, count: 2}",
            "3: rounds.shard: shard 1 of 2 owns none of the 1 model(s) (they hash to shard(s) 0): this "
            "replica would probe nothing; lower count",
        ),
    ],
)
def test_bad_shard_settings_are_each_a_located_problem(tmp_path: Path, text: str, problem: str) -> None:
    path = tmp_path / "canary.yaml"
    path.write_text(
        f"rounds:\n  interval: 30m\n  shard: {text}\nmodels:\n  - slug: moonshotai/kimi-k2-0905\n"
        "    via_gateway: false\n    direct_hosts: [{name: a, base_url: 'http://127.0.0.1:1/v1'}]\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [f"{path}:{problem}"]


def run_check(capsys: pytest.CaptureFixture[str], *names: str) -> tuple[int, str, str]:
    code = main(["check-config", *(str(SHARDS / name) for name in names)])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_check_config_accepts_replicas_that_split_the_models_exactly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = run_check(capsys, "shard-0-of-2.yaml", "shard-1-of-2.yaml")
    assert (code, err) == (0, "")
    assert out == "2 replica configs: ok (shards 0 to 1 of 2, each model probed once)\n"


REJECTED = {
    "overlapping shards": (
        ["shard-0-of-2.yaml", "shard-1-of-2.yaml", "shard-1-of-2.yaml"],
        [
            "{shard-1-of-2.yaml}:17: rounds.shard.index: shard 1 of 2 is also {shard-1-of-2.yaml}:17 "
            "(overlapping shards: its models would be probed twice)",
        ],
    ),
    "missing shards": (
        ["shard-1-of-3.yaml", "shard-1-of-3.yaml"],
        [
            "{shard-1-of-3.yaml}:17: rounds.shard.index: shard 1 of 3 is also {shard-1-of-3.yaml}:17 "
            "(overlapping shards: its models would be probed twice)",
            "{shard-1-of-3.yaml}:17: rounds.shard: no file is shard 0, 2 of 3 (incomplete shards: "
            "minimax/minimax-m2, moonshotai/kimi-k2-0905, openai/gpt-oss-120b would never be probed)",
        ],
    ),
    "counts that differ": (
        ["shard-0-of-2.yaml", "shard-1-of-3.yaml"],
        [
            "{shard-1-of-3.yaml}:17: rounds.shard.count: 3 here but 2 in {shard-0-of-2.yaml}:17: every "
            "replica must have the same count, or models are probed twice or never",
        ],
    ),
    "a model its owner does not list": (
        ["shard-0-of-2.yaml", "shard-1-of-2-lacks-grok.yaml"],
        [
            "{shard-0-of-2.yaml}:17: models: x-ai/grok-4-fast belongs to shard 1 of 2, but "
            "{shard-1-of-2-lacks-grok.yaml} does not list it (it would never be probed): give every replica "
            "the same models",
        ],
    ),
}


@pytest.mark.parametrize("case", sorted(REJECTED))
def test_check_config_rejects_replica_sets_that_overlap_or_leave_models_out(
    case: str, capsys: pytest.CaptureFixture[str]
) -> None:
    files, expected = REJECTED[case]
    code, out, err = run_check(capsys, *files)
    located = [re.sub(r"\{([\w.-]+)\}", lambda m: str(SHARDS / m.group(1)), line) for line in expected]
    assert (code, out) == (1, "")
    assert err.splitlines() == [*located, f"{len(expected)} problem(s) in {len(files)} replica configs"]


def test_one_sharded_file_alone_is_one_valid_replica(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_check(capsys, "shard-0-of-2.yaml")
    assert code == 0 and "ok" in out, "the set is checked when several files are given"


def test_check_config_reports_a_replica_that_does_not_load(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run_check(capsys, "shard-0-of-2.yaml", "index-too-big.yaml")
    assert code == 1
    assert "index-too-big.yaml:17: rounds.shard.index: must be less than count (2)" in err


def test_the_pure_check_finds_nothing_wrong_with_an_empty_or_unsharded_set() -> None:
    assert check_shard_set([]) == []
    assert check_shard_set([Replica("a.yaml", WHOLE, MODELS)]) == []


@pytest.mark.parametrize(
    ("name", "owned"), [("shard-0-of-2.yaml", MODELS[:2]), ("shard-1-of-2.yaml", MODELS[2:])]
)
def test_the_exporter_probes_only_its_shard_and_exports_which_shard_it_is(
    name: str, owned: tuple[str, ...]
) -> None:
    config = load_config(SHARDS / name)

    async def build() -> tuple[tuple[str, ...], str]:
        async with AsyncExitStack() as stack:
            service = ExporterService.from_config(config, stack)
            return tuple(p.model for p in service.prober.plans), generate_latest(service.registry).decode()

    planned, text = asyncio.run(build())
    assert planned == owned
    index = config.rounds.shard.index
    assert f'canary_exporter_shard_info{{shard_count="2",shard_index="{index}"}} 1.0' in text
    assert "canary_exporter_shard_count 2.0" in text
