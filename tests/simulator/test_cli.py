"""``canary simulator``: listens where asked, prints the base URL, stops cleanly on SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import signal
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from exporter.configkit import ConfigError
from exporter.devtools.simulator.cli import command, register

LAUNCH = """
import argparse, sys
from exporter.devtools.simulator.cli import register
parser = argparse.ArgumentParser(prog="canary")
register(parser.add_subparsers())
args = parser.parse_args(sys.argv[1:])
sys.exit(args.func(args))
"""


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="canary")
    register(p.add_subparsers())
    return p


def test_a_bad_listen_address_is_refused_with_what_is_expected(capsys: pytest.CaptureFixture[str]) -> None:
    for bad in ("8088", "localhost", "host:port", "127.0.0.1:70000"):
        assert command(parser().parse_args(["simulator", "--listen", bad])) == 2
        assert f"--listen: expected HOST:PORT such as 127.0.0.1:9465, got '{bad}'" in capsys.readouterr().err


def test_defaults_and_help_example(capsys: pytest.CaptureFixture[str]) -> None:
    args = parser().parse_args(["simulator"])
    assert args.listen == "127.0.0.1:8088" and args.fleet.endswith("default.yaml")
    assert (
        "canary simulator --fleet"
        in parser()._subparsers._group_actions[0].choices["simulator"].format_help()
    )  # type: ignore[union-attr]


def test_a_bad_fleet_is_a_config_error(tmp_path: Path) -> None:
    bad = tmp_path / "fleet.yaml"
    bad.write_text("models: [{id: a/b, providers: [{tag: x/y, profile: {ttft: fast}}]}]\n")
    with pytest.raises(ConfigError, match="ttft"):
        command(parser().parse_args(["simulator", "--fleet", str(bad), "--listen", "127.0.0.1:0"]))
    assert command(parser().parse_args(["simulator", "--listen", "nowhere"])) == 2


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_serves_until_signalled(sig: signal.Signals) -> None:
    process = subprocess.Popen(
        [sys.executable, "-c", LAUNCH, "simulator", "--listen", "127.0.0.1:0"],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        base_url = line.rsplit(" ", 1)[-1].strip()
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/api/v1")
        listing = httpx.get(f"{base_url}/models/moonshotai/kimi-k2-0905/endpoints")
        assert listing.status_code == 200
        process.send_signal(sig)
        assert process.wait(timeout=10) in (0, -sig, 128 + sig)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
