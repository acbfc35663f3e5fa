"""Configuration loading: every invalid file is reported with every problem, located, and exactly worded."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.commands.canary import main
from exporter.config import load_config, load_probing_config
from exporter.configkit import ConfigError, parse_duration

FIXTURES = Path(__file__).parent.parent / "fixtures" / "config"

EXPECTED = {
    "unknown_key.yaml": [
        "7: rounds.intervall: unknown key (known keys here: concurrency, interval, shard)",
        "8: colour: unknown key (known keys here: contracts, equality, exporter, gateway, models, receiver, "
        "rounds, routability)",
    ],
    "many_problems.yaml": [
        "2: gateway.base_url: expected an http(s) URL such as https://openrouter.ai/api/v1 (got 'not-a-url')",
        "3: gateway.api_key: a secret must be {env: NAME} or {file: PATH}; it is never written inline",
        "5: models[0].slug: expected a model slug such as moonshotai/kimi-k2-0905 (got 'no-slash')",
        "7: models[1].known_filtering: expected a list of non-empty strings (got 'guard')",
        "9: rounds.interval: expected a duration such as 10s, 30m or 1d (got 'soon')",
        "10: rounds.concurrency: must be at least 1 (got 0)",
        "13: contracts.ttft.threshold: expected a duration such as 10s, 30m or 1d (got '-1s')",
        "14: contracts.ttft.treshold: unknown key (known keys here: count_reasoning, count_whitespace, "
        "enabled, max_tokens, threshold)",
        "16: exporter.listen: expected HOST:PORT such as 127.0.0.1:9464 (got 9464)",
    ],
    "missing_env.yaml": [
        "2: gateway.api_key: environment variable CANARY_TEST_SURELY_UNSET_KEY is not set or empty",
    ],
    "syntax_error.yaml": ["4: <top>: invalid YAML: expected ',' or ']', but got ':'"],
    "duplicate_key.yaml": ["7: <top>: invalid YAML: duplicate key 'rounds'"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_invalid_config_reports_every_problem_exactly(name: str) -> None:
    path = FIXTURES / name
    with pytest.raises(ConfigError) as caught:
        load_config(path)
    assert caught.value.problems == [f"{path}:{line}" for line in EXPECTED[name]]


def test_a_file_without_models_is_valid_but_cannot_be_probed() -> None:
    path = FIXTURES / "no_models.yaml"
    assert load_config(path).models == ()
    with pytest.raises(ConfigError) as caught:
        load_probing_config(path)
    assert caught.value.problems == [f"{path}: models: no models configured; the probe needs at least one"]


def test_an_inline_secret_is_never_echoed_in_errors() -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(FIXTURES / "many_problems.yaml")
    assert "sk-or-v1" not in str(caught.value)


def test_a_valid_direct_host_config_loads_into_typed_values() -> None:
    config = load_config(FIXTURES / "valid_direct.yaml")
    model = config.models[0]
    assert model.via_gateway is False and config.gateway is None
    assert [h.name for h in model.direct_hosts] == ["vllm-a", "sglang-b"]
    assert model.direct_hosts[0].model_id == "Kimi-K2-Instruct"
    assert config.rounds.interval_seconds == 600.0 and config.rounds.concurrency == 4
    assert [c.name for c in config.contracts][:2] == ["ttft", "refusal"]
    assert "structured" not in [c.name for c in config.contracts]


def test_secrets_come_from_the_environment_or_a_file_and_are_not_in_repr(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key_file = tmp_path / "key"
    key_file.write_text("sk-file-secret\n")
    monkeypatch.setenv("CANARY_TEST_KEY", "sk-env-secret")
    for source in ("{env: CANARY_TEST_KEY}", f"{{file: {key_file}}}"):
        cfg = tmp_path / "c.yaml"
        cfg.write_text(f"gateway:\n  api_key: {source}\nmodels:\n  - slug: a/b\n")
        config = load_config(cfg)
        assert config.gateway is not None and config.gateway.api_key is not None
        assert config.gateway.api_key.value.startswith("sk-")
        assert config.gateway.api_key.value not in repr(config)


@pytest.mark.parametrize(
    ("text", "seconds"),
    [("250ms", 0.25), ("10s", 10), ("30m", 1800), ("1d", 86400), (5, 5.0), ("1.5h", 5400)],
)
def test_durations(text: object, seconds: float) -> None:
    assert parse_duration(text) == seconds


def test_check_config_prints_every_problem_and_exits_non_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", str(FIXTURES / "unknown_key.yaml")]) == 1
    err = capsys.readouterr().err
    assert "rounds.intervall: unknown key" in err and "colour: unknown key" in err and "2 problem(s)" in err


def test_check_config_accepts_a_valid_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check-config", str(FIXTURES / "valid_direct.yaml")]) == 0
    assert "ok (1 model(s)" in capsys.readouterr().out


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "canary.yaml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "models: [{slug: a/b}]\nexporter: {listen: '127.0.0.1:99999'}\n",
            "exporter.listen: expected HOST:PORT such as 127.0.0.1:9464 (got '127.0.0.1:99999')",
        ),
        (
            "gateway: {base_url: 'http://[::1/api/v1', api_key: {env: HOME}}\nmodels: [{slug: a/b}]\n",
            "gateway.base_url: expected an http(s) URL such as https://openrouter.ai/api/v1",
        ),
        (
            "gateway: {api_key: {env: HOME}}\nmodels: [{slug: a/b, require: [structured_output]}]\n",
            "models[0].require[0]: expected one of structured_outputs (got 'structured_output')",
        ),
        (
            "gateway: {api_key: {env: HOME}}\nmodels: [{slug: a/b, known_filtering: [Strict Guard]}]\n",
            "2: models[0].known_filtering[0]: expected a lowercase provider tag such as my-vllm or "
            "deepinfra/fp8 (got 'Strict Guard')",
        ),
        (
            "gateway: {api_key: {env: HOME}, timeout: 5s}\nmodels: [{slug: a/b}]\n",
            "contracts: ttft.threshold (10s) must be shorter than gateway.timeout (5s)",
        ),
    ],
)
def test_values_that_would_fail_at_run_time_are_rejected_up_front(
    tmp_path: Path, text: str, expected: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    assert any(expected in problem for problem in caught.value.problems), caught.value.problems


def test_the_probing_commands_do_not_need_the_receivers_secrets(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "gateway: {api_key: {env: HOME}}\nmodels: [{slug: a/b}]\n"
        "receiver: {store_dir: s, webhook_token: {env: CANARY_TEST_UNSET_1},\n"
        "           admin_token: {env: CANARY_TEST_UNSET_2}}\n",
    )
    assert load_probing_config(path).receiver is None
    with pytest.raises(ConfigError, match="CANARY_TEST_UNSET_1"):
        load_config(path)  # check-config still checks everything


def test_a_relative_secret_file_resolves_against_the_config_files_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "key.txt").write_text("sk-relative\n")
    path = write(tmp_path, "gateway: {api_key: {file: key.txt}}\nmodels: [{slug: a/b}]\n")
    monkeypatch.chdir("/")
    config = load_config(path)
    assert config.gateway is not None and config.gateway.api_key is not None
    assert config.gateway.api_key.value == "sk-relative"


def test_the_evidence_section_resolves_its_path_and_defaults_and_is_absent_by_default(tmp_path: Path) -> None:
    absent = load_config(write(tmp_path, "models: [{slug: a/b, via_gateway: false, direct_hosts: "
                                          "[{name: h, base_url: 'http://127.0.0.1:1'}]}]\n"))  # fmt: skip
    assert absent.exporter.evidence is None and absent.exporter.external_url is None
    text = (
        "models: [{slug: a/b, via_gateway: false, direct_hosts: [{name: h, base_url: 'http://127.0.0.1:1'}]}]\n"
        "exporter: {external_url: 'https://canary.example.com/', evidence: {path: history/e.sqlite3}}\n"
    )
    config = load_config(write(tmp_path, text))
    assert config.exporter.external_url == "https://canary.example.com"
    evidence = config.exporter.evidence
    assert evidence is not None
    assert evidence.path == tmp_path.resolve() / "history" / "e.sqlite3"
    assert (evidence.retention_seconds, evidence.max_bytes) == (14 * 86400, 1 << 30)


def test_bad_evidence_settings_are_each_reported_with_their_path(tmp_path: Path) -> None:
    text = (
        "models: [{slug: a/b, via_gateway: false, direct_hosts: [{name: h, base_url: 'http://127.0.0.1:1'}]}]\n"
        "exporter: {external_url: canary, evidence: {retention: 10m, max_bytes: 100, sise: 1}}\n"
    )
    with pytest.raises(ConfigError) as caught:
        load_config(write(tmp_path, text))
    problems = "\n".join(caught.value.problems)
    for expected in (
        "exporter.external_url: expected an http(s) URL",
        "exporter.evidence.path: required key is missing",
        "exporter.evidence.retention:",
        "exporter.evidence.max_bytes:",
        "exporter.evidence.sise",
    ):
        assert expected in problems, problems
