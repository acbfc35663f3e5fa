"""Every probe attempt becomes evidence: the store, /v1/evidence, /v1/state, the fail log line."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest
from prometheus_client.exposition import generate_latest
from starlette.responses import JSONResponse
from starlette.testclient import TestClient

from exporter.commands.exporter_service import ExporterService
from exporter.console import render_table
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.engine.rounds import ModelPlan
from exporter.engine.state_body import StateBody, state_body
from exporter.evidence.store import EvidenceStore
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint
from exporter.outcomes import Usage

MODEL = "acme/model-1"
GOOD = '{"name": "Pim", "mood": "calm", "hit_points": 40, "items": []}'
BAD = '{"name": "Pim", "mood": "sleepy", "hit_points": 40, "items": []}'


class Gateway:
    """Two hosts: ``good`` answers well, ``bad`` breaks the schema; both stream a quick greeting."""

    async def discover(self, model: str) -> list[Endpoint]:
        caps = frozenset({"structured_outputs"})
        return [
            Endpoint("good", "Good", supported_parameters=caps),
            Endpoint("bad", "Bad", supported_parameters=caps),
        ]

    async def chat(self, request: ChatRequest) -> ChatResult:
        served = (request.pin or "").title()
        usage = Usage(20, 30, 0.002)
        if request.stream:
            return ChatResult(content="Welcome!", ttft_seconds=0.25, finish_reason="stop", served_by=served,
                              usage=usage, generation_id=f"gen-{request.pin}-stream")  # fmt: skip
        content = BAD if request.pin == "bad" else GOOD
        return ChatResult(content=content, finish_reason="stop", served_by=served, usage=usage,
                          generation_id=f"gen-{request.pin}")  # fmt: skip


def service(tmp_path: Path, **kwargs: object) -> ExporterService:
    store = EvidenceStore(tmp_path / "evidence.sqlite3")
    contracts = [TTFTContract(TTFTSettings(threshold=1.0)), StructuredContract()]
    return ExporterService([ModelPlan(MODEL, Gateway())], contracts, 0.0, 4, evidence=store, **kwargs)  # type: ignore[arg-type]


def test_each_attempt_is_stored_with_usage_provenance_and_the_judges_reason(tmp_path: Path) -> None:
    svc = service(tmp_path)
    asyncio.run(svc.run(rounds=2))
    assert svc.evidence is not None
    page = svc.evidence.query(limit=500)
    assert len(page.records) == 8  # 2 rounds x 2 hosts x 2 contracts
    bad = svc.evidence.query(provider="bad", contract="structured").records[0]
    verdict, reply = bad.result, bad.result.reply
    assert (verdict.outcome, verdict.reason, bad.round, bad.attempt) == ("fail", "schema_mismatch", 2, 1)
    assert verdict.excerpt == BAD and reply.generation_id == "gen-bad" and reply.served_by == "Bad"
    assert verdict.usage == Usage(20, 30, 0.002)
    ttft = svc.evidence.query(provider="good", contract="ttft").records[0].result
    assert ttft.ttft_seconds == 0.25 and ttft.outcome == "pass"
    body = generate_latest(svc.registry).decode()
    assert "canary_evidence_records_total 8.0" in body
    assert 'canary_evidence_write_errors_total{kind="full"} 0.0' in body
    reason = 'canary_probe_last_failure_reason{contract="structured",model="acme/model-1",provider="bad",'
    assert reason + 'reason="schema_mismatch"} 1.0' in body
    assert body.count("canary_probe_last_failure_reason{") == 1  # passing contracts have no series


def test_a_judged_fail_is_logged_once_with_route_contract_reason_and_excerpt(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, "exporter.engine"):
        asyncio.run(service(tmp_path).run(rounds=1))
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("probe failed")]
    assert lines == [
        f"probe failed model={MODEL} provider=bad contract=structured reason=schema_mismatch attempts=1 "
        f"excerpt={BAD!r}"
    ]


def test_state_carries_the_latest_failure_per_contract(tmp_path: Path) -> None:
    svc = service(tmp_path)
    asyncio.run(svc.run(rounds=1))
    document = state_body(svc.snapshot).model_dump(mode="json")
    contracts = document["models"][MODEL]["providers"]["bad"]["contracts"]
    failure = contracts["structured"]["last_failure"]
    assert failure["reason"] == "schema_mismatch" and failure["round"] == 1 and failure["excerpt"] == BAD
    assert "last_failure" not in contracts["ttft"]


def test_state_as_served_is_the_body_the_console_reads(tmp_path: Path) -> None:
    svc = service(tmp_path)
    asyncio.run(svc.run(rounds=2))
    served = TestClient(svc.app()).get("/v1/state")
    body = StateBody.model_validate_json(served.content)
    assert body == state_body(svc.snapshot)
    assert JSONResponse(body.model_dump(mode="json")).body == served.content  # unset fields stay out
    assert '"completed_at":' in served.text and '"locale":' not in served.text
    bad = next(line for line in render_table(body).splitlines() if line.startswith("bad"))
    assert "FAIL×2 schema_mismatch" in bad


def test_the_evidence_endpoint_filters_pages_and_rejects_bad_parameters_by_name(tmp_path: Path) -> None:
    svc = service(tmp_path)
    asyncio.run(svc.run(rounds=3))
    client = TestClient(svc.app())
    first = client.get("/v1/evidence", params={"provider": "bad", "limit": "2"})
    assert first.status_code == 200
    body = first.json()
    assert [r["round"] for r in body["records"]] == [3, 3]
    rest = client.get(body["next"]).json()
    assert [r["round"] for r in rest["records"]] == [2, 2]
    fails = client.get("/v1/evidence", params={"outcome": "fail", "since": "1970-01-01T00:00:00Z"}).json()
    assert {(r["provider"], r["contract"]) for r in fails["records"]} == {("bad", "structured")}
    for params, name in [
        ({"limit": "0"}, "limit"),
        ({"limit": "501"}, "limit"),
        ({"limit": "²"}, "limit"),
        ({"cursor": "MTAwMC4wOjk5OTk5OTk5OTk5OTk5OTk5OTk5"}, "cursor"),  # row id 99999999999999999999
        ({"since": "yesterday"}, "since"),
        ({"until": "2026-12-01T10:00:00"}, "until"),
        ({"outcome": "broken"}, "outcome"),
        ({"cursor": "%%%"}, "cursor"),
        ({"provdier": "bad"}, "provdier"),
        ({"model": "x" * 300}, "model"),
    ]:
        response = client.get("/v1/evidence", params=params)
        assert response.status_code == 400, params
        assert response.json()["parameter"] == name and name in response.json()["error"]
    repeated = client.get("/v1/evidence?model=a&model=b")
    assert repeated.status_code == 400 and repeated.json()["parameter"] == "model"


def test_without_an_evidence_store_the_endpoint_says_how_to_enable_it() -> None:
    svc = ExporterService([], [], 1.0, 1)
    response = TestClient(svc.app()).get("/v1/evidence")
    assert response.status_code == 404 and "exporter.evidence" in response.json()["error"]


def test_the_external_url_is_exported_as_an_info_metric(tmp_path: Path) -> None:
    body = generate_latest(service(tmp_path, external_url="https://canary.example:9464").registry).decode()
    assert 'canary_exporter_external_url_info{url="https://canary.example:9464"} 1.0' in body
