"""Secrets a local run generates (``{env: NAME, generate: true}``) and check-config on the shipped example."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.commands.canary import main
from exporter.config import generate_local_secrets, load_config

EXAMPLE = Path(__file__).resolve().parents[2] / "config" / "openrouter.example.yaml"
RECEIVER_TOKENS = ("CANARY_WEBHOOK_TOKEN", "CANARY_ADMIN_TOKEN")


@pytest.fixture
def only_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-test")
    for name in RECEIVER_TOKENS:
        monkeypatch.delenv(name, raising=False)


def test_check_config_passes_on_the_example_with_only_the_key(
    only_the_key: None, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check-config", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    for name in RECEIVER_TOKENS:
        assert f"environment variable {name} is not set: a local run" in out
    assert out.rstrip().endswith("sections: gateway, receiver)")


def test_check_config_names_the_missing_key(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)
    assert main(["check-config", str(EXAMPLE)]) == 1
    err = capsys.readouterr().err
    assert "gateway.api_key: environment variable OPENROUTER_API_KEY is not set or empty" in err
    assert "1 problem(s)" in err  # the generated receiver tokens are not problems


def test_a_standalone_component_still_needs_a_generatable_secret_set(only_the_key: None) -> None:
    with pytest.raises(Exception, match="CANARY_WEBHOOK_TOKEN is not set or empty \\(generate: true makes"):
        load_config(EXAMPLE)


def test_a_local_run_generates_only_the_unset_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    environ = {"CANARY_ADMIN_TOKEN": "given-admin"}
    assert generate_local_secrets(EXAMPLE, environ) == ["CANARY_WEBHOOK_TOKEN"]
    assert environ["CANARY_ADMIN_TOKEN"] == "given-admin"
    assert len(environ["CANARY_WEBHOOK_TOKEN"]) >= 32
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-or-v1-test")
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    config = load_config(EXAMPLE)
    assert config.receiver.webhook_token.value == environ["CANARY_WEBHOOK_TOKEN"]


def test_generate_applies_to_env_secrets_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "c.yaml"
    path.write_text("gateway: {api_key: {file: key, generate: true}}\nmodels: [{slug: a/b}]\n")
    assert main(["check-config", str(path)]) == 1
    assert "1: gateway.api_key: generate: true applies to {env: NAME} secrets only" in capsys.readouterr().err
