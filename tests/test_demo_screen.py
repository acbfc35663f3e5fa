"""The demo's live view as a person sees it: ``canary demo`` under a real pseudo-terminal (tmux).

At 80x24 and 160x50 the captured screen holds the whole table, one line per host (no wrapped row), no log
line, every service URL (Alertmanager included) and the legend; after the last round, the summary names
every suspended host with its failing contract.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from exporter.devtools.simulator.fleet import load_fleet

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
# The default fleet's faulty hosts and the contract each one breaks.
FAULTY = {
    "garbler/bf16": "language",
    "jsonbreaker/fp8": "structured",
    "mixer/fp8": "language",
    "prudish/fp8": "refusal",
    "slowpoke/fp8": "ttft",
}
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING|ERROR)")


class Terminal:
    """One tmux session of a given size running a command; the screen is read with capture-pane."""

    def __init__(self, width: int, height: int, command: str) -> None:
        self.name = f"canary-screen-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        tmux(["new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command])

    def screen(self, history: bool = False) -> list[str]:
        args = ["capture-pane", "-p", "-t", self.name] + (["-S", "-300"] if history else [])
        return tmux(args).splitlines()

    def wait_for(self, predicate: str, timeout: float, history: bool = False) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.screen(history)
            if any(predicate in line for line in lines):
                return lines
            time.sleep(0.5)
        raise AssertionError(f"{predicate!r} never appeared; screen:\n" + "\n".join(self.screen(history)))

    def close(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True, check=False)


def tmux(args: list[str]) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=True, timeout=10).stdout


# Twelve providers: the default fleet has grown to twenty, which no longer fit 24 rows (issue 14, open).
SCREEN_FLEET = ROOT / "tests" / "fixtures" / "fleets" / "screen.yaml"
HOSTS = sorted(p.tag for m in load_fleet(SCREEN_FLEET).models for p in m.providers)


@pytest.fixture(params=[(80, 24), (160, 50)], ids=["80x24", "160x50"])
def terminal(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Terminal]:
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/setup installs it (apt-get install tmux)")
    width, height = request.param
    command = (
        f"cd {ROOT} && {sys.executable} -m exporter.cli demo --rounds 3 --interval 12 "
        f"--fleet {SCREEN_FLEET} --workdir {tmp_path / 'demo'}; echo DEMO-EXITED; sleep 600"
    )
    term = Terminal(width, height, command)
    yield term
    term.close()


def table_rows(lines: list[str]) -> list[str]:
    return [line for line in lines if any(line.startswith(host[:16]) for host in HOSTS)]


def test_the_live_screen_holds_the_whole_table_without_wrapping_or_logs_then_summarises(
    terminal: Terminal,
) -> None:
    # Any status of a round after the first ("round 1/3 done", "round 2/3 running", ...): the table is full.
    live = terminal.wait_for("/3 ", timeout=120)
    text = "\n".join(live)
    assert len(live) <= terminal.height
    assert "alertmanager 127.0.0.1:" in text and "prometheus 127.0.0.1:" in text
    assert "receiver 127.0.0.1:" in text and "exporter 127.0.0.1:" in text
    assert "logs: " in text and "ok pass" in text, "header names the log file; the legend is shown"
    rows = table_rows(live)
    assert len(rows) == len(HOSTS), "one line per host: the whole table, no row wrapped onto two lines"
    for row in rows:
        assert len(row) <= terminal.width
        assert row.rstrip().endswith(("routable", "EXCL builtin", "EXCL suspen…", "EXCL suspension")), row
    assert not [line for line in live if LOG_LINE.search(line)], "a log line reached the screen"

    final = terminal.wait_for("DEMO-EXITED", timeout=180, history=True)
    summary = "\n".join(final[max(i for i, line in enumerate(final) if line.startswith("Summary:")) :])
    assert f"Summary: {len(FAULTY)} suspension(s)." in summary
    flat = summary.replace("\n", "")  # the summary may wrap on a narrow terminal; the table may not
    for host, contract in FAULTY.items():
        assert f"{host}: {contract} (" in flat, (host, summary)
