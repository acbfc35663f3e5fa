"""Every ``canary`` command the README, the runbook and the ``--help`` examples show runs as written.

The commands are extracted from the documents themselves (fenced shell blocks, inline code spans) and from
every subcommand's ``--help`` epilog. Each one that is a command (not a synopsis such as
``canary demo [--rounds N --json]``) must parse; the ones that can run against a local stack run against the
``canary demo`` this test starts (simulator, exporter, receiver, Prometheus and Alertmanager on loopback), in
a scratch directory (through bash when the line is a pipeline or redirects, else through ``canary``'s own
``main``), and must exit as documented. The placeholders the documents use for "your file, model, provider"
(``canary.yaml``, ``FILE``, ``M``/``MODEL``, ``P``/``PROVIDER``, ``WORKDIR``, ``/run/secrets/canary-admin``,
``inc-3``) are replaced with the running demo's; nothing else is changed. Commands that cannot run here are in
``SKIPPED`` with the reason.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

from exporter.admin.why import with_limit
from exporter.commands.canary import build_parser

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = (ROOT / "README.md", ROOT / "docs" / "runbook.md")
MODEL = "moonshotai/kimi-k2-0905"  # the demo's model (and the examples')
# Hosts the default fleet breaks every round: suspended by the time the commands run.
SUSPENDED_P = "slowpoke/fp8"  # stands for P
SUSPENDED_PROVIDER = "jsonbreaker/fp8"  # stands for PROVIDER
SUSPENDED_P2 = "mixer/fp8"  # stands for P2, "another suspension of the model"
SYNOPSIS = re.compile(r"[\[\]|…]|\.\.\.|\bN\b|\bID\b|\bHOST:PORT\b|\bSINCE\b|\bJ\b|\bURL\b|\bDIR\b|\bL\b")

# Commands that do not run here, by their start, with why. Each is still parsed.
SKIPPED = {
    "canary demo --config config/openrouter.example.yaml": "needs a real OPENROUTER_API_KEY and the internet",
    "canary demo --rounds 3 --json": "a second whole stack (~40 s); tests/e2e run it",
    "canary demo": "a second whole stack that runs until stopped; tests/test_demo_screen.py drives it",
    "canary exporter": "a service that runs until stopped; tests/test_clean_stops.py starts and stops it",
    "canary receiver": "a service that runs until stopped (and the demo's store is locked by the demo's own)",
    "canary simulator": "a service that runs until stopped; tests/simulator start it",
    "canary routability --config canary.yaml  ": "",  # placeholder, replaced below
    "canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --samples": (
        "hundreds of pinned requests (minutes against the simulator's slow hosts); tests/investigate run it "
        "on a small fleet"
    ),
    "canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --contracts": "as above",
    "canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --test equality": (
        "hundreds of open-ended samples per host; tests/equality run it"
    ),
    "canary investigate --config FILE --model M --samples": "as above",
    "canary investigate --config FILE --model M --test equality": "as above",
    "canary trace": (
        "needs a generation id a user reported (the examples' are made up); tests/investigate/test_trace.py "
        "covers its sources and exit codes"
    ),
    "canary check-config shard-0.yaml shard-1.yaml": "the user's replica files (tests/config)",
    "canary rules render --config rules.yaml": "the user's parameter file (tests/rules render from one)",
    "canary admin --config config/openrouter.example.yaml": (
        "needs the real-key run of that configuration (OPENROUTER_API_KEY); tests/admin cover the per-user "
        "run index it reads"
    ),
}
SKIPPED.pop("canary routability --config canary.yaml  ")
# The routability service (no --once, no status) runs until stopped.
SERVICE = re.compile(r"^canary routability --config \S+\s*$")

# Inline code spans that name a command in prose (a table cell, a sentence), not a line to type.
MENTIONS = {
    "canary rules render": "the README's architecture table names the generator",
}

# Documented exits other than 0: (exit code, what the output says), with the document's reason.
EXPECTED = {
    # deepinfra/fp8 is a healthy host of the demo: "404: no such suspension" exits 1 (runbook, admin CLI).
    f"canary admin lift {MODEL} deepinfra/fp8": (1, "404"),
}


@dataclass(frozen=True)
class Documented:
    source: str  # the file, or "canary X --help"
    text: str  # the command line as written (continuations joined, comment dropped)
    # An inline code span in prose: a command when it parses, else a mention of one ("`canary admin
    # --token-file`", "`canary investigate`"), which must still name a real command.
    inline: bool = False


def _strip_comment(line: str) -> str:
    """The line without a trailing ``# comment`` (a ``#`` inside quotes stays)."""
    out, quote = [], ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            break
        out.append(ch)
    return "".join(out).strip()


def _commands_in_block(lines: list[str]) -> Iterator[str]:
    joined: list[str] = []
    for raw in lines:
        line = raw.strip()
        if joined:
            joined.append(line)
        elif re.match(r"^(?:[^#]*\|\s*)?canary\s", line):
            joined = [line]
        else:
            continue
        if joined[-1].endswith("\\"):
            joined[-1] = joined[-1][:-1].strip()
            continue
        yield _strip_comment(" ".join(joined))
        joined = []


def documented_commands() -> list[Documented]:
    found: list[Documented] = []
    for path in DOCUMENTS:
        text = path.read_text(encoding="utf-8")
        name = str(path.relative_to(ROOT))
        blocks, prose, inside = [], [], False
        for line in text.splitlines():
            if line.lstrip().startswith("```"):
                inside = not inside
                blocks.append([]) if inside else None
            elif inside:
                blocks[-1].append(line)
            else:
                prose.append(line)
        for block in blocks:
            found += [Documented(name, c) for c in _commands_in_block(block)]
        spans = re.findall(r"`(canary [^`]+)`", "\n".join(prose))
        found += [Documented(name, " ".join(m.split()), inline=True) for m in spans]

    def walk(parser: argparse.ArgumentParser, path: list[str]) -> Iterator[Documented]:
        lines = (parser.epilog or "").splitlines()
        yield from (Documented(f"{' '.join(path)} --help", c) for c in _commands_in_block(lines))
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for sub, child in action.choices.items():
                    yield from walk(child, [*path, sub])

    found += list(walk(build_parser(), ["canary"]))
    return found


def is_synopsis(command: str) -> bool:
    """A grammar line (``canary demo [--rounds N]``, ``canary admin incident add|remove|list``), not a
    command: it shows the forms, it is not one to type."""
    command = command[command.index("canary ") :]  # what feeds it (``echo ... |``) is no grammar
    return bool(SYNOPSIS.search(command)) or "--reason ..." in command


def skip_reason(command: str) -> str | None:
    if SERVICE.match(command):
        return "the routability service runs until stopped; tests/routability start it"
    starts = [prefix for prefix in SKIPPED if command == prefix or command.startswith(prefix + " ")]
    return SKIPPED[max(starts, key=len)] if starts else None


def test_the_extraction_finds_the_documented_commands() -> None:
    commands = {d.text for d in documented_commands()}
    assert "canary admin --token-file WORKDIR/admin.token suspensions" in commands  # runbook, README
    assert "canary admin --config canary.yaml suspensions" in commands  # admin --help
    assert f"canary admin why {MODEL} deepinfra/fp8" in commands
    assert "echo 'ción Hola, ¿qué tal?' | canary judge-language --locale es" in commands  # a pipeline
    assert any(
        c.startswith("canary rules render") and "--exporter-job llm-canary" in c and "--output-dir" in c
        for c in commands
    )
    assert is_synopsis("canary demo [--rounds N --json] [--mode observe] [--config FILE]")
    assert not is_synopsis('canary admin incident add M P --reason "provider outage" --until 6h')


# -- the stack --------------------------------------------------------------------------------------------


@dataclass
class Stack:
    workdir: Path
    scratch: Path
    receiver: str
    env: dict[str, str]


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    workdir = tmp_path_factory.mktemp("demo")
    scratch = tmp_path_factory.mktemp("scratch")
    env = {
        **os.environ,
        "XDG_STATE_HOME": str(tmp_path_factory.mktemp("state")),
        "CANARY_DEMO_GATEWAY_KEY": "demo-key-for-tests",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "OPENROUTER_API_KEY": "sk-or-not-a-real-key",  # check-config of the example needs only its presence
    }
    env.pop("CANARY_RECEIVER_URL", None)
    env.pop("CANARY_ADMIN_TOKEN", None)
    log = (workdir / "demo.stderr").open("w")
    demo = subprocess.Popen(
        [sys.executable, "-m", "exporter.launcher", "demo", "--workdir", str(workdir), "--interval", "1"],
        stdout=subprocess.DEVNULL, stderr=log, env=env, cwd=scratch,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while not (workdir / "canary-run.json").exists():
            assert demo.poll() is None, (workdir / "demo.stderr").read_text()[-3000:]
            assert time.monotonic() < deadline, "the demo did not start in 60 s"
            time.sleep(0.3)
        receiver = json.loads((workdir / "canary-run.json").read_text())["urls"]["receiver"]
        wanted = {SUSPENDED_P, SUSPENDED_PROVIDER}
        deadline = time.monotonic() + 120
        while True:
            document = httpx.get(f"{receiver}/v1/suspensions", timeout=5).json()
            if wanted <= {s["provider"] for s in document["suspensions"]}:
                break
            assert time.monotonic() < deadline, f"{wanted} not suspended in 120 s: {document}"
            time.sleep(1)
        # The documented setup step: export CANARY_ADMIN_TOKEN=$(cat /run/secrets/canary-admin)
        env["CANARY_ADMIN_TOKEN"] = (workdir / "admin.token").read_text().strip()
        (scratch / "config").symlink_to(ROOT / "config")  # the documents run from the repository's root
        (scratch / "reply.txt").write_text("Olá! Como posso ajudar você hoje? Estou aqui para responder.\n")
        (scratch / "replies.jsonl").write_text(
            json.dumps({"text": "Hola, ¿qué tal estás hoy?", "locale": "es"}) + "\n"
        )
        yield Stack(workdir, scratch, receiver, env)
    finally:
        demo.terminate()
        demo.wait(30)
        log.close()


def substituted(command: str, stack: Stack) -> str:
    """The command with the documents' stand-ins for "your file, model, provider, work dir" as the demo's."""
    words = []
    for word in command.split(" "):
        word = {"M": MODEL, "MODEL": MODEL, "P": SUSPENDED_P, "PROVIDER": SUSPENDED_PROVIDER}.get(word, word)
        word = {"P2": SUSPENDED_P2}.get(word, word)
        word = {
            "FILE": str(stack.workdir / "canary.yaml"),
            "canary.yaml": str(stack.workdir / "canary.yaml"),
        }.get(word, word)
        words.append(word)
    text = " ".join(words)
    text = text.replace("WORKDIR/", f"{stack.workdir}/").replace(
        "/run/secrets/canary-admin", f"{stack.workdir}/admin.token"
    )
    if "inc-3" in text:  # the id the documents use for "an incident": the newest one in force
        incidents = httpx.get(f"{stack.receiver}/v1/incidents", timeout=5).json()["incidents"]
        assert incidents, f"no incident to remove for {command!r} (an add example must come first)"
        text = text.replace("inc-3", incidents[-1]["id"])
    return text


def _names_a_command(parser: argparse.ArgumentParser, argv: list[str]) -> bool:
    """Whether ``argv`` starts with a real (sub)command: ``investigate``, ``admin --token-file``."""
    words = [w for w in argv if not w.startswith("-")]
    if not words:
        return False
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction) and words[0] in action.choices:
            return True
    return False


def _argv(command: str) -> list[str]:
    """The arguments after ``canary`` in a shell line (what pipes into it and a redirection dropped)."""
    words = shlex.split(command)
    words = words[words.index("canary") + 1 :]
    return words[: words.index(">")] if ">" in words else words


def _run(
    command: str, stack: Stack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str]:
    """Exit code and output of one command line: through bash when it has a pipe or a redirection, else
    through ``canary``'s own ``main`` in this process (the same parser and code, without a second of
    interpreter start-up per command), in the scratch directory with the stack's environment."""
    if re.search(r"[|>]", command.replace("\\|", "")):
        done = subprocess.run(
            ["bash", "-c", command], cwd=stack.scratch, env=stack.env, capture_output=True, text=True,
            timeout=120, check=False,
        )  # fmt: skip
        return done.returncode, done.stdout + done.stderr
    from exporter.commands.canary import main

    with monkeypatch.context() as patched:
        patched.chdir(stack.scratch)
        for name, value in stack.env.items():
            if os.environ.get(name) != value:
                patched.setenv(name, value)
        try:
            code = main(_argv(command))
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 1
    out, err = capsys.readouterr()
    return code, out + err


def test_every_documented_command_parses_and_the_runnable_ones_exit_as_documented(
    stack: Stack, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    parser = build_parser()
    problems: list[str] = []
    lifted: set[tuple[str, str]] = set()  # (model, provider) a documented lift already lifted
    ran = skipped = 0
    for doc in documented_commands():
        if is_synopsis(doc.text):
            continue
        command = substituted(doc.text, stack)
        try:
            parser.parse_args(_argv(command))
        except SystemExit:
            if doc.inline and _names_a_command(parser, _argv(command)):
                continue  # a mention of a command in prose, not one to type
            problems.append(f"{doc.source}: does not parse: {doc.text}")
            continue
        if doc.inline and doc.text in MENTIONS:
            continue
        if skip_reason(doc.text) is not None:
            skipped += 1
            continue
        returned, output = _run(command, stack, capsys, monkeypatch)
        ran += 1
        code, said = next(
            (v for k, v in EXPECTED.items() if doc.text == k or doc.text.startswith(k + " ")), (0, "")
        )
        lift = re.match(r"canary admin lift (\S+) (\S+)", command)
        if lift and lift.groups() in lifted:  # several documents lift the same stand-in host: the first did
            code, said = 1, "no current suspension"
        elif lift and returned == 0:
            lifted.add((lift[1], lift[2]))
        if returned != code or said not in output:
            problems.append(
                f"{doc.source}: {doc.text}\n  ran: {command}\n  exit {returned} (documented {code})\n"
                f"  {output[-600:]}"
            )
    assert problems == [], "\n".join(problems)
    assert ran >= 20 and skipped >= 5, (ran, skipped)


def test_the_evidence_link_of_a_live_suspension_covers_every_failing_round(stack: Stack) -> None:
    """The demo runs at a 1 s interval and its rounds take far longer: the suspend alert's evidence link still
    starts at the round the failing streak began in, so for a host the default fleet breaks in every round
    the link holds a failing attempt of every round that has one."""
    always_failing = {"clipper/fp8", "demure/bf16", "garbler/bf16", "jsonbreaker/fp8", "legacy/fp8",
                      "looper/fp8", "mixer/fp8", "prudish/fp8", "slowpoke/fp8"}  # fmt: skip
    suspensions = httpx.get(f"{stack.receiver}/v1/suspensions", timeout=5).json()["suspensions"]
    linked = [
        s for s in suspensions if s["provider"] in always_failing and "since=" in (s["evidence_url"] or "")
    ]
    assert linked, suspensions
    for suspension in linked:
        link = suspension["evidence_url"]
        route = {"model": suspension["model"], "provider": suspension["provider"], "outcome": "fail"}
        every = httpx.get(link.split("?")[0], params={**route, "limit": "500"}, timeout=5).json()["records"]
        window = httpx.get(with_limit(link, 500), timeout=5).json()["records"]  # the link's own query
        assert {r["round"] for r in window} == {r["round"] for r in every}, link
