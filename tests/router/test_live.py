"""Live verdicts: the probes' judges on real replies in the router's process, bounded, never content."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

from exporter.devtools.load import LoadGenerator
from exporter.outcomes import Outcome, Reason
from exporter.router.live import OTHER, LiveJudges
from exporter.router.observe import Reply
from tests.simulated import MODEL, default_fleet

SCHEMA = {"type": "object", "properties": {"hp": {"type": "integer"}}, "required": ["hp"]}
PT_MIXED = (
    "Olá! Eu estou muito feliz em te ver hoje, entre e sente-se perto do fogo. "
    "A noite está fria e a chuva não para de cair lá fora. "
    "¿Dónde está la biblioteca de la ciudad? Mi madre siempre me decía que la paciencia "
    "es la madre de la ciencia. Vou preparar um chá quente para nós dois."
)


def reply(content: str, **fields: object) -> Reply:
    values: dict[str, object] = {
        "model": "m/x", "provider": "p/1", "content": content, "finish_reason": "stop",
        "ttft_seconds": 0.2, "locale": None, "schema": None, "status": 200, "error": False, "complete": True,
    }  # fmt: skip
    values.update(fields)
    return Reply(**values)  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def judges() -> LiveJudges:
    return LiveJudges(ttft_threshold=1.0, process=False)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        (reply("", status=503, error=True), [("reply", Outcome.TRANSPORT, Reason.SERVER_ERROR)]),
        (reply("", status=504, error=True), [("reply", Outcome.TRANSPORT, Reason.TIMEOUT)]),
        (reply("", status=429, error=True), [("reply", Outcome.TRANSPORT, Reason.RATE_LIMITED)]),
        (reply("Hi", error=True), [("reply", Outcome.TRANSPORT, Reason.MID_STREAM_ERROR)]),  # an error chunk
        (
            reply("", ttft_seconds=None),
            [("ttft", Outcome.FAIL, Reason.NO_CONTENT), ("reply", Outcome.FAIL, Reason.EMPTY_REPLY)],
        ),
        (
            reply("Lo siento, pero no puedo continuar con esta escena.", ttft_seconds=2.0),
            [("ttft", Outcome.FAIL, Reason.SLOW_FIRST_TOKEN), ("reply", Outcome.FAIL, Reason.REFUSAL)],
        ),
        (
            reply(PT_MIXED, locale="pt-BR", ttft_seconds=None),
            [("reply", Outcome.PASS, Reason.NONE), ("language", Outcome.FAIL, Reason.MIXING)],
        ),
        (
            reply('{"hp": 3}', schema=SCHEMA),
            [("ttft", Outcome.PASS, Reason.NONE), ("structured", Outcome.PASS, Reason.NONE)],
        ),
        (
            reply('{"hp": "three"}', schema=SCHEMA, ttft_seconds=None),
            [("structured", Outcome.FAIL, Reason.SCHEMA_MISMATCH)],
        ),
        (reply("The story goes on and on", complete=False), []),  # cut or abandoned: not judged
        # a curt "No." declines a probe's request for a story; a real request may ask a yes-or-no question
        (reply("No.", ttft_seconds=None), [("reply", Outcome.PASS, Reason.NONE)]),
    ],
)
def test_the_probes_judges_apply_to_what_the_request_declared(
    judges: LiveJudges, given: Reply, expected: list[tuple[str, Outcome, Reason]]
) -> None:
    judges.start()
    assert judges.verdicts(given) == expected


def test_overload_drops_and_counts_instead_of_waiting() -> None:
    judges = LiveJudges(queue_size=1, process=False)
    assert not judges.offer(reply("x"))  # not started: dropped, counted
    judges._thread = object()  # type: ignore[assignment]  # "started", but nothing drains the queue
    assert judges.offer(reply("x"))
    started = time.perf_counter()
    assert not judges.offer(reply("x"))
    assert time.perf_counter() - started < 0.05 and judges.dropped() == 2


def test_labels_are_bounded(judges: LiveJudges) -> None:
    bounded = LiveJudges(max_models=1, max_providers=2, judge=judges._judge).start()
    for model, provider in [("m/x", "a"), ("m/x", "b"), ("m/x", "c"), ("m/y", "a")]:
        bounded.offer(reply("A fine reply that ends properly.", model=model, provider=provider))
    bounded.flush()
    bounded.stop()
    assert {(m, p) for m, p, *_ in bounded.counts()} == {
        ("m/x", "a"),
        ("m/x", "b"),
        ("m/x", OTHER),
        (OTHER, OTHER),
    }


@pytest.mark.slow
def test_at_twenty_requests_a_second_the_live_counters_single_out_the_corrupting_and_mixing_hosts(
    tmp_path: Path,
) -> None:
    """The acceptance run: the demo's load through the router client against the simulator, 40 s."""
    with default_fleet() as sim:
        load = LoadGenerator(sim.base_url, "k", MODEL, journal=tmp_path / "journal.sqlite3", rate=20)
        with load:
            time.sleep(40)
    assert load.sent >= 700 and load.judges.dropped() == 0, (load.sent, load.judges.dropped())
    fails, judged = Counter[str](), Counter[str]()
    for (_, provider, contract, outcome, _), n in load.judges.counts().items():
        if outcome in ("pass", "fail") and contract in ("language", "reply"):
            judged[provider] += n
            fails[provider] += n if outcome == "fail" else 0
    ratio = {p: fails[p] / judged[p] for p in judged if judged[p] >= 20}
    singled_out = {p for p, r in ratio.items() if r >= 0.1}
    corrupting_and_mixing = {"garbler/bf16", "legacy/fp8", "cutter/fp8", "mixer/fp8"}
    healthy = {"deepinfra/fp8", "deepinfra/turbo", "parasail/fp8", "novita/fp8", "templar/bf16", "quanta/fp4"}
    assert corrupting_and_mixing <= singled_out, json.dumps(ratio, indent=1)
    assert not healthy & singled_out, json.dumps(ratio, indent=1)
    assert {"looper/fp8", "clipper/fp8"} <= singled_out  # loops and stories cut short: the reply checks


def test_a_dead_judges_process_drops_the_judging_never_the_journal(tmp_path: Path) -> None:
    import httpx

    from exporter.router import Journal, Observer, canary_http_client
    from exporter.router.journal import read_served
    from tests.router.test_journal import MODEL as CHAT_MODEL
    from tests.router.test_journal import Gateway

    judges = LiveJudges().start()
    judges._child.kill()
    judges._child.join(10)
    observer = Observer(Journal(tmp_path / "journal.sqlite3"), live=judges)
    with canary_http_client(observer, transport=httpx.MockTransport(Gateway())) as http:
        for _ in range(2):
            assert http.post("http://gw/v1/chat/completions", json={"model": CHAT_MODEL}).status_code == 200
    observer.flush()
    assert observer.journal is not None
    assert len(read_served(observer.journal.path, since=0, until=time.time() + 1)) == 2
    assert judges.dropped() == 2
    observer.stop()
    judges.stop(timeout=1)


ROUTER = """
import sys, time
from exporter.router.live import LiveJudges
judges = LiveJudges().start()
print(judges._child.pid, flush=True)
time.sleep(120)
"""


def _children(pid: int) -> set[int]:
    """The live processes whose parent is ``pid`` (Linux's /proc); a zombie counts as ended."""
    found: set[int] = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def _running(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from Linux's /proc")
def test_a_router_killed_outright_takes_its_judging_process_with_it() -> None:
    with subprocess.Popen(
        [sys.executable, "-c", ROUTER], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    ) as router:
        helpers: set[int] = set()
        try:
            assert router.stdout is not None
            child = int(router.stdout.readline())
            helpers = _children(router.pid)
            assert child in helpers  # the judging process, and multiprocessing's resource tracker
            router.kill()  # SIGKILL: no end mark, no atexit
            router.wait(10)
            deadline = time.monotonic() + 30
            while any(_running(pid) for pid in helpers) and time.monotonic() < deadline:
                time.sleep(0.1)
            assert not [pid for pid in helpers if _running(pid)], "left running after the router was killed"
        finally:
            router.kill()
            for pid in filter(_running, helpers):  # a failed run leaves nothing behind
                with contextlib.suppress(OSError):
                    os.kill(pid, signal.SIGKILL)


class _Stop(Exception):
    pass


def test_a_stop_signal_while_the_judging_process_launches_waits_until_it_has_its_data(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from multiprocessing.context import SpawnProcess

    launch = SpawnProcess.start

    def interrupted(process: SpawnProcess) -> None:
        signal.raise_signal(signal.SIGTERM)  # as a `docker stop` arriving mid-launch
        launch(process)

    def stop(signum: int, frame: object) -> None:
        raise _Stop

    monkeypatch.setattr(SpawnProcess, "start", interrupted)
    previous = signal.signal(signal.SIGTERM, stop)
    judges = LiveJudges()
    try:
        with pytest.raises(_Stop):
            judges.start()  # the stop takes effect once the child is launched and the judges are started
        assert judges._child is not None
        judges.offer(reply("Hello there, traveller."))
        judges.flush(timeout=60)
        assert judges.judged() == 1  # the child got its start-up data and judges
    finally:
        signal.signal(signal.SIGTERM, previous)
        judges.stop(timeout=10)
