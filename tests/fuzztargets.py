"""Every service of the canary as a fuzz target (``httpfuzz.Target``) over throw-away stores in a directory:
the exporter (with an evidence history of large records), the receiver (with a decision log of large-label
decisions), the routability service and the simulator's own API. Shared by the fuzz test and its bench.

Example::

    with fuzz_targets(Path(tmp)) as targets:
        for target in targets:
            report = asyncio.run(fuzz(target, 500, seed=1))
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

from exporter.commands.exporter_service import ExporterService
from exporter.configkit import Secret
from exporter.contracts.base import ProbeResult
from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.evidence.api import PARAMETERS
from exporter.evidence.store import PAGE_MAX_BYTES, EvidenceRecord, EvidenceStore
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason, Usage
from exporter.receiver.app import build_app as receiver_app
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.payloads import PayloadError, parse_notification
from exporter.receiver.service import DECISIONS_PAGE_MAX_BYTES, ReceiverService
from exporter.receiver.state import Mode
from exporter.routability.app import RoutabilityService
from exporter.routability.app import build_app as routability_app
from exporter.routability.job import ProbeCallback
from exporter.routability.model import ListedSignal, PassSummary, RoutabilityRow, Status
from exporter.routability.store import RoutabilityStore
from exporter.timestamps import format_rfc3339
from tests.httpfuzz import ERROR_MAX_BYTES, Route, Target

WEBHOOK, ADMIN, TRIGGER = "fuzz-webhook-token", "fuzz-admin-token", "fuzz-trigger-token"
#: A response whose size is the current state's (listings, /metrics, /v1/state): with these fixtures'
#: small state, far under this; the documented bounds of the paged routes are checked exactly.
STATE_MAX_BYTES = 1 << 20
PAGE_SLACK = 64 * 1024  # a page's envelope: cursor, link, counts


def _bound(paged: dict[str, int]) -> Callable[[str, int], int]:
    def bound(path: str, status: int) -> int:
        if status >= 400:
            return ERROR_MAX_BYTES
        return paged.get(path, STATE_MAX_BYTES)

    return bound


def _alert(
    provider: str, labels: dict[str, str] | None = None, action: str | None = "suspend"
) -> dict[str, object]:
    return {
        "status": "firing",
        "labels": {"alertname": "CanaryProviderFailing", "model": "m/x", "provider": provider,
                   **({"action": action} if action else {}), **(labels or {})},
        "annotations": {"discovered_providers": "a/1,b/1,c/1,d/1,e/1", "summary": "s"},
        "startsAt": format_rfc3339(time.time() - 600),
    }  # fmt: skip


def receiver_target(directory: Path, stack: contextlib.ExitStack) -> Target:
    config = ReceiverConfig(
        store_dir=directory / "receiver",
        webhook_token=Secret("env:FUZZ_WEBHOOK", WEBHOOK),
        admin_token=Secret("env:FUZZ_ADMIN", ADMIN),
        mode=Mode.ENFORCE,
        builtin=(BuiltinExclusion(model="m/x", provider="b/1", reason="control host"),),
    )
    service = stack.enter_context(ReceiverService(config, init=True))
    big = {f"k{i:02d}": "v" * 1000 for i in range(60)}
    for i in range(40):  # large-label decisions: 40 x 60 KB of decision log
        alerts = [_alert("a/1", {**big, "n": str(i)}, None)]
        notification = parse_notification({"version": "4", "alerts": alerts})
        if isinstance(notification, PayloadError):
            raise AssertionError(notification.problems)
        service.notify(notification)
    alert = {"version": "4", "alerts": [_alert("a/1")]}
    lift = {"model": "m/x", "provider": "a/1", "reason": "fixed"}
    incident = {"model": "m/x", "provider": "c/1", "reason": "outage", "until": "2099-01-01T00:00:00Z"}
    routes = (
        Route(("POST",), "/v1/alerts", (), alert, WEBHOOK),
        Route(("GET",), "/v1/ignore", ("model",)),
        Route(("GET",), "/v1/suspensions"),
        Route(("GET",), "/v1/incidents"),
        Route(("GET",), "/v1/decisions", ("since", "limit")),
        Route(("POST",), "/v1/admin/lift", (), lift, ADMIN),
        Route(("POST",), "/v1/admin/incidents", (), incident, ADMIN),
        Route(("DELETE",), "/v1/admin/incidents/{incident_id}", ("reason",), None, ADMIN),
        Route(("GET",), "/healthz"),
        Route(("GET",), "/metrics"),
        Route(("GET",), "/openapi.json"),
    )
    bound = _bound({"/v1/decisions": DECISIONS_PAGE_MAX_BYTES + PAGE_SLACK})
    return Target("receiver", receiver_app(service), routes, bound)


def exporter_target(directory: Path, stack: contextlib.ExitStack) -> Target:
    store = EvidenceStore(directory / "evidence.sqlite3")
    stack.callback(store.close)
    now = time.time()
    reply = ChatResult(finish_reason="stop", served_by="Alpha", generation_id="g1", usage=Usage(40, 99, 1e-4))
    spans: dict[str, object] = {"spans": ["x" * 190] * 40}
    result = ProbeResult(Outcome.FAIL, Reason.MIXING, "\x01" * 500, None, "pt-BR", spans, "é" * 600, reply)
    record = EvidenceRecord(now, 1, "m/x", "a/1", "language", 1, result)
    store.record([replace(record, at=now - i, round=i) for i in range(600)])
    service = ExporterService([], [], 1800.0, 1, evidence=store)
    routes = (
        Route(("GET",), "/v1/evidence", PARAMETERS),
        Route(("GET",), "/v1/state"),
        Route(("GET",), "/healthz"),
        Route(("GET",), "/metrics"),
    )  # fmt: skip
    return Target("exporter", service.app(), routes, _bound({"/v1/evidence": PAGE_MAX_BYTES + PAGE_SLACK}))


def routability_target(directory: Path, stack: contextlib.ExitStack) -> Target:
    store = stack.enter_context(RoutabilityStore(directory / "routability.sqlite3"))
    now = time.time()
    store.put(RoutabilityRow("a/b", Status.UNAVAILABLE, last_check=now, listed=ListedSignal(now, 1, 0)))

    async def one_pass(on_probe: ProbeCallback) -> PassSummary:
        return PassSummary(started_at=time.time(), finished_at=time.time(), probed=0, skipped=0)

    service = RoutabilityService(
        store, one_pass, trigger_token=TRIGGER, schedule=86400.0, recent_window=6 * 3600.0
    )
    routes = (
        Route(("GET", "POST"), "/v1/routability/run", ("wait",), None, TRIGGER),
        Route(("GET",), "/v1/routability"),
        Route(("GET",), "/v1/routability/{slug}"),
        Route(("GET",), "/metrics"),
        Route(("GET",), "/openapi.json"),
    )
    return Target("routability", routability_app(service), routes, _bound({}))


def simulator_target() -> Target:
    simulator = Simulator(load_fleet(DEFAULT_FLEET))
    chat = {
        "model": "moonshotai/kimi-k2-0905",
        "messages": [{"role": "user", "content": "hi"}],
        "max_tokens": 8,
        "provider": {"only": ["deepinfra/fp8"]},
    }
    routes = (
        Route(("GET",), "/api/v1/models"),
        Route(("GET",), "/api/v1/models/{author}/{slug}/endpoints"),
        Route(("GET",), "/api/v1/providers"),
        Route(("POST",), "/api/v1/chat/completions", (), chat),
        Route(("GET",), "/api/v1/generation", ("id",)),
        Route(("GET",), "/_sim/requests", ("model",)),
        Route(("POST",), "/_sim/providers/{author}/{slug}/{tag}", (), {"ttft": "1ms"}),
        Route(("POST",), "/_sim/outage", (), {"on": False}),
        Route(("GET",), "/_sim/fleet"),
    )
    # 502/503: the simulated gateway outage (POST /_sim/outage {"on": true}) answers them on purpose
    return Target("simulator", simulator.app, routes, _bound({}), frozenset({502, 503}))


@contextlib.contextmanager
def fuzz_targets(directory: Path) -> Iterator[list[Target]]:
    """The four services over fresh stores in ``directory`` (closed at the end)."""
    with contextlib.ExitStack() as stack:
        yield [
            exporter_target(directory, stack),
            receiver_target(directory, stack),
            routability_target(directory, stack),
            simulator_target(),
        ]
