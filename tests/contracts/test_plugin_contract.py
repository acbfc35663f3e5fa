"""Adding a contract is one module plus one registry entry: a test-only contract runs like the shipped ones.

``KeepsGoingContract`` below is the whole module; ``PLUGGED`` is its one registry entry. Nothing in the
engine, the snapshot, the metrics or the HTTP surface is told about it, yet on the simulator's default fleet
it fails the filtering host two rounds running, passes the healthy ones, freezes on the 429/5xx storm, is
exported in every probe family and kept in the evidence history.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from prometheus_client.exposition import generate_latest

from exporter.commands.exporter_service import ExporterService
from exporter.config import load_config
from exporter.configkit import Int, key
from exporter.contracts import CONTRACTS, base, registry  # base: the whole API a contract module needs
from exporter.contracts.base import ProbeResult
from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, Fleet, load_fleet
from exporter.devtools.simulator.server import SimulatorServer
from exporter.engine.state_body import state_body
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason
from tests.simulated import default_fleet

MODEL = "moonshotai/kimi-k2-0905"


class KeepsGoingSettings(base.ContractSettings):
    max_tokens: Int = key(64, "the scene's budget", ge=8, le=512)

    def build(self) -> KeepsGoingContract:
        return KeepsGoingContract(self)


@dataclass(frozen=True, slots=True)
class KeepsGoingContract(base.Contract):
    """The scene must go on: a content filter or an empty reply is a ``fail``."""

    settings: KeepsGoingSettings = field(default_factory=KeepsGoingSettings)

    name = "keeps_going"
    Settings = KeepsGoingSettings

    async def sample(self, ctx: base.ProbeContext) -> ProbeResult:
        messages = ({"role": "user", "content": "The duel goes on: one more exchange of cutlass blows."},)
        result = await ctx.gateway.chat(ctx.request(messages, self.settings.max_tokens))
        return base.unjudgeable(result, ctx.target) or base.spent_on_reasoning(result) or self.judge(result)

    def judge(self, result: ChatResult) -> ProbeResult:
        if result.finish_reason == "content_filter":
            return base.judged(Outcome.FAIL, Reason.CONTENT_FILTER, "filtered", result)
        if not result.content.strip():
            return base.judged(Outcome.FAIL, Reason.EMPTY_REPLY, "empty", result)
        return base.judged(Outcome.PASS, Reason.NONE, "went on", result)

    def weak_controls(self) -> list[str]:
        return base.not_rejected({"filtered": ChatResult(finish_reason="content_filter")}, self.judge)


PLUGGED = registry((*CONTRACTS, KeepsGoingContract))  # the one registry entry


def test_a_contract_from_outside_the_package_runs_exports_and_keeps_evidence(tmp_path: Path) -> None:
    with default_fleet() as sim:  # its slow host at a healthy pace: this contract judges content
        (tmp_path / "key").write_text("sk-test")
        (tmp_path / "canary.yaml").write_text(
            f"""
gateway: {{base_url: "{sim.base_url}", api_key: {{file: key}}, timeout: 20s}}
models: [{{slug: {MODEL}}}]
rounds: {{interval: 50ms}}
contracts:
  ttft: {{enabled: false}}
  refusal: {{enabled: false}}
  structured: {{enabled: false}}
  language: {{enabled: false}}
  keeps_going: {{max_tokens: 48}}
exporter: {{evidence: {{path: history/evidence.sqlite3}}}}
""",
            encoding="utf-8",
        )
        config = load_config(tmp_path / "canary.yaml", registry=PLUGGED)
        assert [c.name for c in config.contracts] == ["keeps_going"]

        async def two_rounds() -> tuple[ExporterService, list[str]]:
            async with AsyncExitStack() as stack:
                service = ExporterService.from_config(config, stack)
                await service.run(rounds=2)
                assert service.evidence is not None
                fails = service.evidence.query(contract="keeps_going", outcome="fail").records
                return service, [r.provider for r in fails]

        service, failed = asyncio.run(two_rounds())
    snap = service.snapshot
    failing = {k[1]: v for k, v in snap.streaks.failing.items() if k[2] == "keeps_going"}
    assert failing["prudish/fp8"] == 2
    assert failing["deepinfra/fp8"] == 0 and failing["stormy/fp8"] == 0
    assert snap.streaks.clean[(MODEL, "deepinfra/fp8")] == 2
    results = snap.last_results()
    assert results[(MODEL, "stormy/fp8")]["keeps_going"].outcome is Outcome.TRANSPORT
    body = generate_latest(service.registry).decode()
    assert (
        'canary_probe_failing_streak{contract="keeps_going",model="moonshotai/kimi-k2-0905",'
        'provider="prudish/fp8"} 2.0' in body
    )
    assert 'canary_probe_weak{contract="keeps_going",model="moonshotai/kimi-k2-0905"} 0.0' in body
    document = state_body(snap).model_dump(mode="json")
    state = document["models"][MODEL]["providers"]["prudish/fp8"]["contracts"]["keeps_going"]
    assert state["outcome"] == "fail" and state["last_failure"]["reason"] == "content_filter"
    assert failed == ["prudish/fp8", "prudish/fp8"]
    assert (tmp_path / "history" / "evidence.sqlite3").exists()  # relative to the config file


def test_a_weak_plugged_contract_is_reported_weak() -> None:
    @dataclass(frozen=True, slots=True)
    class Blind(KeepsGoingContract):
        def judge(self, result: ChatResult) -> ProbeResult:
            return base.judged(Outcome.PASS, Reason.NONE, "sees nothing", result)

    assert Blind().weak_controls() == ["filtered"]


# A contract that asks for something particular: the simulator cannot guess it, so the contract declares
# how a healthy host answers (``healthy_reply``) and the simulator, which is told nothing else, answers so.
CODE_PROMPT = "Reply with this check code and nothing else: "
CODE = "CANARY-7F3A-19"


class EchoCodeSettings(base.ContractSettings):
    def build(self) -> EchoCodeContract:
        return EchoCodeContract()


@dataclass(frozen=True, slots=True)
class EchoCodeContract(base.Contract):
    """The host must repeat a check code exactly (a toy contract: one module and one registry entry)."""

    name = "echo_code"
    Settings = EchoCodeSettings

    async def sample(self, ctx: base.ProbeContext) -> ProbeResult:
        messages = ({"role": "user", "content": CODE_PROMPT + CODE},)
        result = await ctx.gateway.chat(ctx.request(messages, 32))
        if (unjudged := base.unjudgeable(result, ctx.target)) is not None:
            return unjudged
        if result.content.strip() != CODE:
            return base.judged(Outcome.FAIL, Reason.SCHEMA_MISMATCH, "not the code", result)
        return base.judged(Outcome.PASS, Reason.NONE, "the code", result)

    @classmethod
    def healthy_reply(cls, request: Mapping[str, Any]) -> str | None:
        messages = request.get("messages") or []
        text = messages[-1].get("content", "") if messages and isinstance(messages[-1], dict) else ""
        return (
            text.removeprefix(CODE_PROMPT) if isinstance(text, str) and text.startswith(CODE_PROMPT) else None
        )


WITH_ECHO = registry((*CONTRACTS, EchoCodeContract))  # the toy's one registry entry


def _echo_outcomes(tmp_path: Path, simulator: Simulator) -> dict[str, Outcome]:
    (tmp_path / "key").write_text("sk-test")
    with SimulatorServer(simulator) as sim:
        (tmp_path / "canary.yaml").write_text(
            f"""
gateway: {{base_url: "{sim.base_url}", api_key: {{file: key}}, timeout: 20s}}
models: [{{slug: {MODEL}}}]
contracts:
  ttft: {{enabled: false}}
  refusal: {{enabled: false}}
  structured: {{enabled: false}}
  language: {{enabled: false}}
""",
            encoding="utf-8",
        )
        config = load_config(tmp_path / "canary.yaml", registry=WITH_ECHO)
        assert [c.name for c in config.contracts] == ["echo_code"]

        async def one_round() -> ExporterService:
            async with AsyncExitStack() as stack:
                service = ExporterService.from_config(config, stack)
                await service.run(rounds=1)
                return service

        results = asyncio.run(one_round()).snapshot.last_results()
    return {provider: by[EchoCodeContract.name].outcome for (_, provider), by in results.items()}


# Hosts of the default fleet whose faults reach any request whatever it asks (errors, time-outs, refusals,
# a slow first token aside): every other host is healthy for a contract the simulator was never told of.
def _healthy_for_any_request(fleet: Fleet) -> set[str]:
    model = next(m for m in fleet.models if m.id == MODEL)
    return {
        p.tag
        for p in model.providers
        if p.profile.errors.rate == 0
        and p.profile.timeout.rate == 0
        and p.profile.refusal.rate == 0
        and p.profile.disappear.listed
    }


def test_a_toy_contract_passes_every_healthy_simulated_host_because_it_declares_the_healthy_reply(
    tmp_path: Path,
) -> None:
    fleet = load_fleet(DEFAULT_FLEET)
    healthy = _healthy_for_any_request(fleet)
    assert len(healthy) >= 10
    outcomes = _echo_outcomes(tmp_path, Simulator(fleet, contracts=tuple(WITH_ECHO.values())))
    assert {tag: outcomes[tag] for tag in healthy} == dict.fromkeys(healthy, Outcome.PASS)


def test_without_the_declaration_the_simulator_cannot_answer_the_toy(tmp_path: Path) -> None:
    # The control: a simulator that does not know the toy writes role-play prose, and every host fails it.
    fleet = load_fleet(DEFAULT_FLEET)
    outcomes = _echo_outcomes(tmp_path, Simulator(fleet, contracts=CONTRACTS))
    assert {outcomes[tag] for tag in _healthy_for_any_request(fleet)} == {Outcome.FAIL}
