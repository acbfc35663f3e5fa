"""The configuration models: a file spells keys as the reference does, never as the code names them."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.config import load_config
from exporter.configkit import ConfigError

MODEL = (
    "models: [{slug: a/b, via_gateway: false, direct_hosts: [{name: h, base_url: 'http://127.0.0.1:1'}]}]\n"
)


def problems(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "canary.yaml"
    path.write_text(MODEL + text)
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    return [p.removeprefix(f"{path}:") for p in caught.value.problems]


def test_a_field_name_is_not_a_key_of_the_file(tmp_path: Path) -> None:
    assert problems(tmp_path, "rounds: {interval_seconds: 5}\n") == [
        "2: rounds.interval_seconds: unknown key (known keys here: concurrency, interval, shard)"
    ]


def test_what_another_file_holds_cannot_be_written_inline(tmp_path: Path) -> None:
    text = "receiver: {store_dir: s, webhook_token: {env: HOME}, admin_token: {env: PATH}, builtin: []}\n"
    (problem,) = problems(tmp_path, text)
    assert problem.startswith(
        "2: receiver.builtin: unknown key (known keys here: admin_token, builtin_exclusions,"
    )


def test_a_null_value_means_the_default(tmp_path: Path) -> None:
    path = tmp_path / "canary.yaml"
    path.write_text(MODEL + "rounds: {interval: null, concurrency: 3}\nexporter:\n")
    config = load_config(path)
    assert (config.rounds.interval_seconds, config.rounds.concurrency) == (1800.0, 3)
    assert config.exporter.listen == "127.0.0.1:9464"


def test_problems_inside_a_secret_are_located_at_its_keys(tmp_path: Path) -> None:
    assert problems(tmp_path, "routability: {trigger_token: {env: '', colour: 1}}\n") == [
        "2: routability.trigger_token.env: expected a non-empty string (got '')",
        "2: routability.trigger_token.colour: unknown key (known keys here: env, file, generate)",
    ]


def test_every_problem_of_a_list_item_is_reported_with_its_line(tmp_path: Path) -> None:
    text = "equality:\n  prompts:\n    - {id: a, locale: en}\n    - {id: '', locale: en, text: t}\n"
    assert problems(tmp_path, text) == [
        "4: equality.prompts[0].text: required key is missing (the prompt's text)",
        "5: equality.prompts[1].id: expected a non-empty string (got '')",
    ]


def test_a_repeated_slug_is_reported_along_with_the_problems_of_the_models(tmp_path: Path) -> None:
    path = tmp_path / "canary.yaml"
    host = "direct_hosts: [{name: h, base_url: 'http://127.0.0.1:1'}]"
    path.write_text(
        f"models:\n  - {{slug: a/b, via_gateway: false, {host}}}\n  - {{slug: a/b, via_gateway: maybe}}\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert [p.removeprefix(f"{path}:") for p in caught.value.problems] == [
        "3: models[1].via_gateway: expected true or false (got 'maybe')",
        "3: models[1].slug: model a/b is listed twice (first as models[0])",
    ]


def test_check_config_notes_each_generated_secret_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from exporter.commands.canary import main

    monkeypatch.delenv("CANARY_TEST_GENERATED", raising=False)
    path = tmp_path / "canary.yaml"
    path.write_text(
        MODEL + "receiver: {store_dir: s, webhook_token: {env: CANARY_TEST_GENERATED, generate: true},\n"
        "           admin_token: {env: HOME}}\n"
    )
    assert main(["check-config", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.count("note: ") == 1 and "receiver.webhook_token: environment variable" in out


def test_a_repeated_direct_host_is_located_at_its_name(tmp_path: Path) -> None:
    path = tmp_path / "canary.yaml"
    host = "{name: h/x, base_url: 'http://127.0.0.1:1/v1'}"
    path.write_text(f"models:\n  - slug: c/d\n    via_gateway: false\n    direct_hosts: [{host}, {host}]\n")
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [
        f"{path}:4: models[0].direct_hosts[1].name: host h/x is listed twice for this model"
    ]
