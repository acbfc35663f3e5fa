"""Fixtures: simulators on loopback (fresh per test, so seeded fault counts are exact) and SSE parsing."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from exporter.devtools.simulator.fleet import DEFAULT_FLEET, Fleet, load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from exporter.language.locales import LOCALES
from exporter.language.segment import split_sentences

FLEETS = Path(__file__).parent / "fleets"
FAULTS_MODEL = "test/faults"
KIMI = "moonshotai/kimi-k2-0905"

MakeSim = Callable[..., SimulatorServer]


def fleet_of(tmp_path: Path, text: str, environ: dict[str, str] | None = None) -> Fleet:
    """The fleet file ``text`` written in ``tmp_path``, loaded as ``canary simulator --fleet`` loads it."""
    path = tmp_path / "fleet.yaml"
    path.write_text(text, encoding="utf-8")
    return load_fleet(path, environ=environ)


def sentences_of(text: str) -> list[str]:
    """The sentences of a reply, split as the language judge splits them."""
    return [s.text for s in split_sentences(text)]


# The simulator requires a key, as OpenRouter does; fleets without an ``api_key`` accept any key.
AUTH = {"Authorization": "Bearer sk-or-v1-test"}


@pytest.fixture
def make_sim() -> Iterator[MakeSim]:
    servers: list[SimulatorServer] = []

    def make(path: Path = DEFAULT_FLEET, environ: dict[str, str] | None = None) -> SimulatorServer:
        server = SimulatorServer(load_fleet(path, environ=environ))
        server.start()
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.stop()


@pytest.fixture
def faults(make_sim: MakeSim) -> SimulatorServer:
    return make_sim(FLEETS / "faults.yaml")


@pytest.fixture
def kimi(make_sim: MakeSim) -> SimulatorServer:
    return make_sim(DEFAULT_FLEET)


def chat(
    sim: SimulatorServer,
    pin: str | None,
    model: str = FAULTS_MODEL,
    user: str = "Continue the story.",
    locale: str | None = None,
    timeout: float = 10.0,
    headers: dict[str, str] | None = None,
    **extra: Any,
) -> httpx.Response:
    """POST a chat completion pinned to ``pin`` with fallbacks off (the canary's way), with a key unless
    ``headers`` are given (``{}``: no key at all)."""
    messages = [
        {"role": "system", "content": "You are Ana, an innkeeper in a role-play. Stay in character."},
        {"role": "user", "content": user},
    ]
    if locale is not None:  # the canary's own prompt for the locale: its text is all that tells the locale
        messages = list(LOCALES[locale].prompts[0].messages())
    body: dict[str, Any] = {
        "model": model,
        "messages": messages,
        "max_tokens": 400,
        **extra,
    }
    if pin is not None:
        body.setdefault("provider", {"only": [pin], "allow_fallbacks": False, "require_parameters": True})
    # verify=False: plain HTTP on loopback, and it spares loading the CA bundle (~40 ms) per request.
    url = f"{sim.base_url}/chat/completions"
    headers = AUTH if headers is None else headers
    return httpx.post(url, json=body, timeout=timeout, headers=headers, verify=False)


def sse_events(text: str) -> list[str | dict[str, Any]]:
    """The stream as a list: comment lines as strings (``": ..."``), ``"[DONE]"``, data events as dicts."""
    events: list[str | dict[str, Any]] = []
    for block in text.split("\n\n"):
        if not block.strip():
            continue
        for line in block.split("\n"):
            if line.startswith(":"):
                events.append(line)
            elif line.startswith("data: "):
                payload = line[len("data: ") :]
                events.append("[DONE]" if payload == "[DONE]" else json.loads(payload))
    return events


def content_of(events: list[str | dict[str, Any]]) -> str:
    return "".join(
        e["choices"][0]["delta"].get("content") or ""
        for e in events
        if isinstance(e, dict) and e.get("choices")
    )
