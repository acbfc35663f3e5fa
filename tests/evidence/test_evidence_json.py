"""The evidence JSON is a contract: probe attempts judged by the real contracts, through the round, the store
and ``GET /v1/evidence`` (and the failures ``/v1/state`` shows), give exactly the bytes in
``tests/fixtures/evidence/`` — passes, fails with spans, a confirmed language fail and its attempts, a
mid-stream transport error and a pin violation. A change to these bytes breaks every reader of the history:
regenerate the files (run this module as a script) only for a deliberate, documented format change.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

from starlette.testclient import TestClient

from exporter.commands.exporter_service import ExporterService
from exporter.contracts.language import LanguageContract
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.engine.rounds import ModelPlan, Prober
from exporter.evidence.api import page_json
from exporter.evidence.store import EvidencePage, EvidenceStore
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.language.locales import LOCALES
from exporter.outcomes import Outcome, Reason, Usage

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
GOLDEN = FIXTURES / "evidence"
CLEAN: dict[str, str] = json.loads((FIXTURES / "language" / "clean_replies.json").read_text("utf-8"))
MODEL = "acme/model-1"
AT = 1796119200.0  # 2026-12-01T10:00:00Z
GOOD = '{"name": "Pim", "mood": "calm", "hit_points": 40, "items": []}'
BAD = '{"name": "Pim", "mood": "sleepy", "hit_points": 40, "items": []}'
_BY_SYSTEM = {p.system: code for code, spec in LOCALES.items() for p in spec.prompts}


class Gateway:
    """Four hosts: ``good`` answers well; ``bad`` is slow, breaks the schema and garbles its stories;
    ``broken`` fails mid-stream after naming itself; ``moved`` is served by another endpoint."""

    async def discover(self, model: str) -> list[Endpoint]:
        caps = frozenset({"structured_outputs"})
        names = ("good", "bad", "broken", "moved")
        return [Endpoint(f"{n}/fp8", n.title(), supported_parameters=caps) for n in names]

    async def chat(self, request: ChatRequest) -> ChatResult:
        host = (request.pin or "").split("/")[0]
        usage = Usage(20, 30, 0.002)
        if host == "broken":
            error = GatewayError(Outcome.TRANSPORT, Reason.MID_STREAM_ERROR, 200, "upstream error chunk")
            return ChatResult(error=error, status=200, content="Hal", served_by="Broken", usage=Usage(5, 1),
                              generation_id="gen-broken", finish_reason="error")  # fmt: skip
        moved = {"served_endpoint": "elsewhere/fp8"} if host == "moved" else {}
        common = {"finish_reason": "stop", "served_by": host.title(), "usage": usage, **moved}
        if request.stream:
            ttft = 2.5 if host == "bad" else 0.25
            return ChatResult(
                content="Welcome!", ttft_seconds=ttft, generation_id=f"gen-{host}-stream", **common
            )  # type: ignore[arg-type]
        if request.response_format is not None:
            return ChatResult(
                content=BAD if host == "bad" else GOOD, generation_id=f"gen-{host}-json", **common
            )  # type: ignore[arg-type]
        story = CLEAN[_BY_SYSTEM[request.messages[0]["content"]]]
        text = ", " + story if host == "bad" else story
        return ChatResult(content=text, generation_id=f"gen-{host}-story", **common)  # type: ignore[arg-type]


def outputs(directory: Path) -> dict[str, str]:
    """The bytes of ``/v1/evidence`` and ``/v1/state`` after two rounds, and of the first round's records
    as the API writes them before the store bounds them."""
    contracts = [TTFTContract(TTFTSettings(threshold=1.0)), StructuredContract(), LanguageContract()]
    plans = [ModelPlan(MODEL, Gateway())]  # type: ignore[arg-type]
    store = EvidenceStore(directory / "evidence.sqlite3", clock=lambda: AT + 60)
    svc = ExporterService(
        plans, contracts, 0.0, 4, evidence=store, wall_clock=lambda: AT, monotonic=lambda: 0.0
    )
    svc.prober = Prober(plans, contracts, 1, wall_clock=lambda: AT, monotonic=lambda: 0.0)
    direct = asyncio.run(svc.prober.run_round(1)).evidence
    asyncio.run(svc.run(rounds=2))
    with TestClient(svc.app()) as client:
        stored = client.get("/v1/evidence", params={"limit": "500"}).text
        state = client.get("/v1/state").json()
    failures = {
        f"{host}/{name}": probe.get("last_failure")
        for host, contracts_json in state["models"][MODEL]["providers"].items()
        for name, probe in sorted(contracts_json["contracts"].items())
    }
    store.close()
    body = page_json(EvidencePage(list(direct)), "/v1/evidence", {})
    return {
        "stored.json": stored,
        "direct.json": json.dumps(body, ensure_ascii=False, indent=1),
        "failures.json": json.dumps(failures, ensure_ascii=False, indent=1),
    }


def test_the_evidence_json_is_byte_identical_to_the_fixtures(tmp_path: Path) -> None:
    for name, text in outputs(tmp_path).items():
        assert text == (GOLDEN / name).read_text("utf-8"), name


def test_the_fixtures_hold_every_kind_of_attempt() -> None:
    records = json.loads((GOLDEN / "stored.json").read_text("utf-8"))["records"]
    kinds = {(r["contract"], r["outcome"], r["reason"], r["attempt"]) for r in records}
    assert ("language", "fail", "leading_garbage", 3) in kinds  # a confirmed fail's third attempt
    assert ("ttft", "transport", "mid_stream_error", 1) in kinds
    assert ("structured", "pin_violation", "wrong_provider", 1) in kinds
    assert ("ttft", "fail", "slow_first_token", 1) in kinds and ("ttft", "pass", "none", 1) in kinds


if __name__ == "__main__":  # regenerate the fixtures (a deliberate format change only)
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        for name, text in outputs(Path(tmp)).items():
            GOLDEN.mkdir(exist_ok=True)
            (GOLDEN / name).write_text(text, "utf-8")
