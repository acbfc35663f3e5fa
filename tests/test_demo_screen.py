"""The demo's live view as a person sees it: ``canary demo`` under a real pseudo-terminal (tmux).

On the default fleet (twenty-four hosts), at 80x24 and 160x50: every captured screen fits the terminal, one
line per host (no wrapped row), no log line, every service URL (Alertmanager included), the legend and the
round's progress (hosts done / total); at 80x24 the hosts rotate through pages ("page 1/3") that together show
every host exactly once, at 160x50 they fit one page. After the last round, the summary names every suspended
host with its failing contracts.
"""

from __future__ import annotations

import itertools
import re
import shlex
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
# The default fleet's faulty hosts and the contracts each one breaks in every round (so each is suspended).
FAULTY = {
    "clipper/fp8": {"language", "refusal"},
    "cutter/fp8": {"language"},
    "demure/bf16": {"refusal"},
    "garbler/bf16": {"language"},
    "jsonbreaker/fp8": {"structured"},
    "legacy/fp8": {"language"},
    "looper/fp8": {"language", "refusal"},
    "mixer/fp8": {"language"},
    "prudish/fp8": {"refusal"},
    "slowpoke/fp8": {"ttft"},
    "spacer/fp8": {"language"},
}
# Hosts that may or may not be suspended after three rounds (none on the default fleet: the language judge
# catches the cutter's and the spacer's tokenizer pieces on every reply).
SOMETIMES: dict[str, set[str]] = {}
# What a host's routing cell may say at 80 and 160 columns (enforce mode: excluded or routable).
ROUTING_WORDS = (
    "routable",
    "EXCL bltn",
    "EXCL susp",
    "EXCL builtin",
    "EXCL suspension",
    "floor-blk",
    "FLOOR-BLOCKED",
)
LOG_LINE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d+ (DEBUG|INFO|WARNING|ERROR)")


class Terminal:
    """One tmux session of a given size running a command; the screen is read with capture-pane.

    Each terminal has its own tmux server (``-L``), so no other tmux user's server or environment is shared.
    The command runs without ``LINES``/``COLUMNS``: GNU readline (which pytest imports) exports its guess,
    24x80, into this process's C environment (not ``os.environ``); rich would trust it over the real size.
    """

    def __init__(self, width: int, height: int, command: str) -> None:
        self.name = f"canary-screen-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        command = f"env -u LINES -u COLUMNS sh -c {shlex.quote(command)}"
        self.tmux(["new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height), command])

    def tmux(self, args: list[str]) -> str:
        command = ["tmux", "-L", self.name, *args]
        return subprocess.run(command, capture_output=True, text=True, check=True, timeout=10).stdout

    def screen(self, history: bool = False) -> list[str]:
        """The visible screen; with ``history`` also the scrollback, wrapped lines joined (-J)."""
        args = ["capture-pane", "-p", "-t", self.name] + (["-S", "-300", "-J"] if history else [])
        return self.tmux(args).splitlines()

    def wait_for(self, predicate: str, timeout: float, history: bool = False) -> list[str]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            lines = self.screen(history)
            if any(predicate in line for line in lines):
                return lines
            time.sleep(0.5)
        raise AssertionError(f"{predicate!r} never appeared; screen:\n" + "\n".join(self.screen(history)))

    def close(self) -> None:
        subprocess.run(["tmux", "-L", self.name, "kill-server"], capture_output=True, check=False)


HOSTS = sorted(p.tag for m in load_fleet(DEFAULT_FLEET).models for p in m.providers)


def demo(width: int, height: int, workdir: Path, *args: str) -> Terminal:
    """``canary demo ARGS`` on a fresh WIDTHxHEIGHT terminal; "DEMO-EXITED" shows once it has exited."""
    if shutil.which("tmux") is None:
        pytest.fail("tmux is not installed: scripts/setup installs it (apt-get install tmux)")
    command = (  # the shell outlives a Ctrl-C meant for the demo (a trap, unlike '', is not inherited)
        f"trap true INT; cd {ROOT} && {sys.executable} -m exporter.commands.canary demo --interval 12 "
        f"{' '.join(args)} "
        f"--workdir {workdir}; echo DEMO-EXITED; sleep 600"
    )
    return Terminal(width, height, command)


class Recording:
    """Every screen of one demo run, read in the background until the demo has exited (``final``: the whole
    scrollback then). Recording both terminals at once lets their demos run side by side, since each mostly
    waits for its rounds: about half the wall time of one after the other."""

    def __init__(self, terminal: Terminal, timeout: float) -> None:
        self.terminal = terminal
        self.screens: list[list[str]] = []
        self.final: list[str] = []
        self.failure: BaseException | None = None
        self._thread = threading.Thread(target=self._record, args=(timeout,), daemon=True)
        self._thread.start()

    def _record(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        try:
            while time.monotonic() < deadline:
                live = self.terminal.screen()
                if not self.screens or live != self.screens[-1]:
                    self.screens.append(live)
                history = self.terminal.screen(history=True)
                if any("DEMO-EXITED" in line for line in history):
                    self.final = history
                    return
                time.sleep(0.5)
        except BaseException as error:  # shown by ``wait`` in the test's thread
            self.failure = error

    def wait(self) -> None:
        self._thread.join()
        if self.failure is not None:
            raise self.failure
        last = "\n".join(self.screens[-1] if self.screens else [])
        assert self.final, f"the demo never exited; last screen:\n{last}"


SIZES = {"80x24": (80, 24), "160x50": (160, 50)}


@pytest.fixture(scope="module")
def recordings(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Recording]]:
    """``canary demo --rounds 3`` on an 80x24 and a 160x50 terminal, started together and recorded. Without
    the router's load (``--load 0``): two demos at 20 requests/s each would compete for the test machine's
    cores with the rounds whose timing this test reads (tests/router/test_live.py runs the load)."""
    terminals = {
        name: demo(width, height, tmp_path_factory.mktemp(f"demo-{name}"), "--rounds", "3", "--load", "0")
        for name, (width, height) in SIZES.items()
    }
    try:
        yield {name: Recording(term, timeout=360) for name, term in terminals.items()}
    finally:
        for term in terminals.values():
            term.close()


@pytest.fixture(params=sorted(SIZES, reverse=True))
def recording(request: pytest.FixtureRequest, recordings: dict[str, Recording]) -> Recording:
    return recordings[request.param]


def table_rows(lines: list[str]) -> list[str]:
    return [line for line in lines if any(line.startswith(host[:16]) for host in HOSTS)]


def host_of(row: str) -> str:
    (host,) = [h for h in HOSTS if row.startswith(h[:16])]
    return host


def check_screen(terminal: Terminal, live: list[str]) -> tuple[str | None, list[str]]:
    """What a person must see on every screen; returns the page ("1/2"; None: one page) and its hosts."""
    text = "\n".join(live)
    assert len(live) <= terminal.height
    assert all(len(line) <= terminal.width for line in live)
    assert "alertmanager 127.0.0.1:" in text and "prometheus 127.0.0.1:" in text, text
    assert "receiver 127.0.0.1:" in text and "exporter 127.0.0.1:" in text, text
    assert "logs: " in text and "ok pass" in text, "header names the log file; the legend is shown"
    assert not [line for line in live if LOG_LINE.search(line)], "a log line reached the screen"
    rows = table_rows(live)
    for row in rows:
        assert row.rstrip().endswith(ROUTING_WORDS), row
    hosts = [host_of(row) for row in rows]
    assert len(hosts) == len(set(hosts)), "a host shown twice on one page"
    pages = re.findall(r"page (\d+/\d+)", text)
    assert len(pages) <= 1, text
    return (pages[0] if pages else None), hosts


def test_the_live_screen_shows_every_host_without_wrapping_or_logs_then_summarises(
    recording: Recording,
) -> None:
    recording.wait()
    terminal = recording.terminal
    # Every live screen from the first round's status on ("round 1/3 probing", ...: the table is full) until
    # the demo prints its final state (every host on one page, into the scrollback) and the summary; the
    # pages turn every few seconds (exporter.demo.PAGE_SECONDS), so all of them show.
    live_screens = list(
        itertools.takewhile(
            lambda live: not any("final state" in line or line.startswith("Summary:") for line in live),
            itertools.dropwhile(lambda live: not any("/3 " in line for line in live), recording.screens),
        )
    )
    seen: dict[str | None, list[str]] = {}  # page -> the hosts it shows
    screens: dict[str | None, list[str]] = {}  # page -> its first screen, for the failure messages
    progress = ""  # a status line with the round's progress: hosts done / total
    for live in live_screens:
        if table_rows(live):  # not the instant between the last round and the summary
            page, hosts = check_screen(terminal, live)
            seen.setdefault(page, hosts)
            screens.setdefault(page, live)
        # (none between "round N done" and the next round's discovery: no round is in progress then)
        progress = progress or next((line for line in live if re.search(r"\b\d+/24 hosts\b", line)), "")
    shown = sorted(host for hosts in seen.values() for host in hosts)
    pages = "\n\n".join("\n".join(lines) for lines in screens.values())
    assert progress, f"the round's progress, hosts done / total, is shown:\n{pages}"
    assert shown == HOSTS, f"every host exactly once over the pages:\n{pages}"
    if terminal.height < 25:
        count = len(seen)
        assert count >= 2 and set(seen) == {f"{k}/{count}" for k in range(1, count + 1)}, (
            f"twenty-four hosts do not fit 24 lines: the pages rotate, each saying which\n{pages}"
        )
    else:
        assert set(seen) == {None}, f"at 160x50 the twenty-four hosts fit one page:\n{pages}"

    final = recording.final
    summary = final[max(i for i, line in enumerate(final) if line.startswith("Summary:")) :]
    named = dict(re.findall(r"^  (\S+): (.*?) · rung", "\n".join(summary), re.MULTILINE))
    assert summary[0] == f"Summary: {len(named)} suspension(s).", summary
    assert set(FAULTY) <= set(named) <= set(FAULTY) | set(SOMETIMES), summary
    for host, contracts in named.items():
        failing = set(re.findall(r"(\w+) \(", contracts))
        if host in FAULTY:
            assert failing == FAULTY[host], (host, summary)
        else:  # it may pass again in the last round while suspended
            assert failing <= SOMETIMES[host], (host, summary)


def listening(address: str) -> bool:
    host, _, port = address.rpartition(":")
    with socket.socket() as sock:
        return sock.connect_ex((host, int(port))) == 0


@pytest.mark.parametrize("stop", ["ctrl-c", "terminal closed"])
def test_ctrl_c_or_closing_the_terminal_mid_round_stops_prometheus_and_alertmanager_too(
    stop: str, tmp_path: Path
) -> None:
    term = demo(80, 24, tmp_path / "demo")
    try:
        header = "\n".join(term.wait_for("logs: ", timeout=90))
        started = re.findall(r"(?:prometheus|alertmanager) (127\.0\.0\.1:\d+)", header)
        assert len(started) == 2 and all(map(listening, started)), header
        term.wait_for("/24 hosts", timeout=90)  # a round is running
        if stop == "ctrl-c":
            term.tmux(["send-keys", "-t", term.name, "C-c"])
            final = term.wait_for("DEMO-EXITED", timeout=60, history=True)
            assert any(line.startswith("Summary: ") for line in final), "the summary after Ctrl-C"
        else:
            term.close()  # the terminal goes away: SIGHUP
        deadline = time.monotonic() + 30
        while any(map(listening, started)) and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not any(map(listening, started)), f"{started} still listening after {stop}"
        while demo_processes(tmp_path / "demo") and time.monotonic() < deadline:
            time.sleep(0.5)
        assert not demo_processes(tmp_path / "demo"), f"the demo process is still running after {stop}"
    finally:
        term.close()


def demo_processes(workdir: Path) -> list[int]:
    """The ``canary demo`` processes running with ``workdir`` (not the shell that started one)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                argv = (entry / "cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if b"exporter.commands.canary" in argv and str(workdir).encode() in argv:
                found.append(int(entry.name))
    return found
