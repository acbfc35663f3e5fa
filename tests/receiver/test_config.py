"""The receiver section of the config file, the built-in exclusions file, and the CLI's --help/--check."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from exporter.commands.receiver import load
from exporter.configkit import ConfigError, Problems, load_yaml, validate
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.exclusions import read_exclusions
from exporter.receiver.state import Mode

REPO = Path(__file__).parents[2]


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "canary.yaml"
    path.write_text(text)
    return path


def test_defaults_and_relative_paths(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WH", "w-token")
    monkeypatch.setenv("AD", "a-token")
    (tmp_path / "ex.yaml").write_text(
        "schema_version: 1\nexclusions:\n  - {model: m/x, provider: s/text, reason: control host}\n"
    )
    config = load(
        write(
            tmp_path,
            "other: {kept: for other readers}\nreceiver:\n  store_dir: ./store\n"
            "  webhook_token: {env: WH}\n  admin_token: {env: AD}\n  builtin_exclusions: ex.yaml\n",
        )
    )
    assert config.store_dir == (tmp_path / "store").resolve()
    assert (config.host, config.port, config.mode, config.min_routable_hosts) == (
        "127.0.0.1",
        9465,
        Mode.OBSERVE,
        2,
    )
    assert config.ladder == (86400.0, 3 * 86400.0, 7 * 86400.0) and config.fade_after == 14 * 86400.0
    assert config.max_body_bytes == 1024 * 1024
    assert [(b.model, b.provider, b.reason) for b in config.builtin] == [("m/x", "s/text", "control host")]
    assert "w-token" not in repr(config)


def test_every_problem_is_reported_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SAME", "same-token")
    path = write(
        tmp_path,
        "receiver:\n  listen: nowhere\n  mode: enforcing\n  webhook_token: {env: SAME}\n"
        "  admin_token: {env: SAME}\n  ladder: [1d, 2x]\n  fade_after: soon\n  colour: blue\n",
    )
    with pytest.raises(ConfigError) as err:
        load(path)
    text = str(err.value)
    for expected in (
        "canary.yaml:2: receiver.listen: expected HOST:PORT",
        "canary.yaml:3: receiver.mode: expected one of observe, enforce",
        "receiver.store_dir: required key is missing",
        "receiver.admin_token: must differ from webhook_token",
        "canary.yaml:6: receiver.ladder[1]: expected a duration",
        "canary.yaml:7: receiver.fade_after: expected a duration",
        "canary.yaml:8: receiver.colour: unknown key",
    ):
        assert expected in text, (expected, text)


def test_the_repository_exclusions_file_is_valid_and_gives_reasons() -> None:
    problems = Problems("config/builtin-exclusions.yaml")
    entries = read_exclusions(REPO / "config" / "builtin-exclusions.yaml", problems)
    problems.raise_if_any()
    assert entries and all(len(e.reason) > 20 for e in entries)


def test_an_invalid_exclusions_file_is_rejected_with_lines(tmp_path: Path) -> None:
    path = tmp_path / "ex.yaml"
    path.write_text(
        "schema_version: 1\nexclusions:\n  - {model: m, provider: p, reason: r}\n"
        "  - {model: m, provider: p, reason: r}\n"
        "  - {model: m, provider: q}\n"
    )
    problems = Problems(str(path))
    data = load_yaml("receiver:\n  store_dir: s\n", problems)
    validate(ReceiverConfig, data, problems, base_dir=tmp_path, at=("receiver",))
    text = "\n".join(problems.items)
    assert "receiver.webhook_token: required key is missing" in text
    problems2 = Problems(str(path))
    read_exclusions(path, problems2)
    assert any(":4: exclusions[1]: duplicate exclusion of p for m" in p for p in problems2.items)
    assert any(":5: exclusions[2].reason: required key is missing" in p for p in problems2.items)


def test_cli_help_has_an_example_and_check_validates(tmp_path: Path) -> None:
    run = [sys.executable, "-m", "exporter.commands.canary", "receiver"]
    out = subprocess.run([*run, "--help"], capture_output=True, text=True, check=True, cwd=REPO).stdout
    assert "canary receiver --config canary.yaml" in out
    bad = write(tmp_path, "receiver:\n  store_dir: s\n")
    result = subprocess.run([*run, "--config", str(bad), "--check"], capture_output=True, text=True, cwd=REPO)
    assert result.returncode == 2 and "receiver.webhook_token: required key is missing" in result.stderr


def test_non_ascii_tokens_are_compared_as_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WH", "jeton-é")
    monkeypatch.setenv("AD", "jeton-é")
    text = "receiver:\n  store_dir: ./s\n  webhook_token: {env: WH}\n  admin_token: {env: AD}\n"
    with pytest.raises(ConfigError, match="must differ from webhook_token"):  # was a TypeError
        load(write(tmp_path, text))
    monkeypatch.setenv("AD", "jeton-è")
    assert load(write(tmp_path, text)).admin_token.value == "jeton-è"


@pytest.mark.parametrize(
    ("ladder", "expected"),
    [
        ("[]", "6: receiver.ladder: expected a non-empty list of durations such as [1d, 3d, 7d]"),
        ("[1d, 0s]", "6: receiver.ladder[1]: must be more than 0 (got '0s')"),
        (
            "[3d, 1d]",
            "6: receiver.ladder: rungs must not get shorter (each offense is suspended at least as long)",
        ),
        ("1d", "6: receiver.ladder: expected a list, got str '1d'"),
    ],
)
def test_a_bad_ladder_is_one_located_problem(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ladder: str, expected: str
) -> None:
    monkeypatch.setenv("WH", "w-token")
    monkeypatch.setenv("AD", "a-token")
    path = write(
        tmp_path,
        "receiver:\n  store_dir: s\n  webhook_token: {env: WH}\n  admin_token: {env: AD}\n  mode: observe\n"
        f"  ladder: {ladder}\n",
    )
    with pytest.raises(ConfigError) as err:
        load(path)
    assert err.value.problems == [f"{path}:{expected}"]
