"""The exporter's series per host stay bounded at steady state: at most 20 per host whatever the number of
rounds, with the language contract's locale rotating (docs/metrics.md, "Series per host")."""

from __future__ import annotations

import time
from collections import Counter

from prometheus_client import CollectorRegistry
from prometheus_client.exposition import generate_latest

from exporter.contracts.base import ProbeResult
from exporter.engine.metrics import SnapshotCollector
from exporter.engine.rounds import RoundReport
from exporter.engine.snapshot import Snapshot, accumulate
from exporter.gateway.types import ChatResult, Endpoint
from exporter.language.locales import LOCALES
from exporter.outcomes import Outcome, Reason, Usage

MODEL = "acme/model-1"
HOSTS = 30
MAX_SERIES_PER_HOST = 20


def round_report(number: int, failing: frozenset[str] = frozenset()) -> RoundReport:
    locales = sorted(LOCALES)
    endpoints = tuple(
        Endpoint(f"h{i:02d}/fp8", f"H{i:02d}", "fp8", status=0, uptime_last_30m=99.5) for i in range(HOSTS)
    )
    results = {}
    for i, e in enumerate(endpoints):
        bad = e.tag in failing
        results[(MODEL, e.tag)] = {
            "ttft": ProbeResult(
                Outcome.PASS, ttft_seconds=0.4 + i / 100, reply=ChatResult(usage=Usage(30, 10, 1e-5))
            ),
            "refusal": ProbeResult(Outcome.PASS, reply=ChatResult(usage=Usage(40, 50, 1e-5))),
            "structured": ProbeResult(Outcome.PASS, reply=ChatResult(usage=Usage(40, 50, 1e-5))),
            "language": ProbeResult(
                Outcome.FAIL if bad else Outcome.PASS,
                Reason.MIXING if bad else Reason.NONE,
                reply=ChatResult(usage=Usage(40, 120, 1e-5)),
                locale=locales[(number + i) % len(locales)],
            ),
        }
    return RoundReport(number, time.time(), 1.0, {MODEL: endpoints}, {}, results)


def series_by_host(snap: Snapshot) -> Counter[str]:
    registry = CollectorRegistry()
    registry.register(SnapshotCollector(lambda: snap))
    per_host: Counter[str] = Counter()
    for line in generate_latest(registry).decode().splitlines():
        if not line.startswith("#") and 'provider="' in line:
            per_host[line.split('provider="', 1)[1].split('"', 1)[0]] += 1
    return per_host


def test_a_host_has_at_most_20_series_and_the_locale_rotation_adds_none() -> None:
    snap = Snapshot(interval_seconds=1800.0)
    counts = []
    for number in range(1, len(LOCALES) + 3):  # every locale at least once per host
        snap = accumulate(snap, round_report(number))
        counts.append(series_by_host(snap))
    assert set(counts[-1]) == {f"h{i:02d}/fp8" for i in range(HOSTS)}
    assert max(counts[-1].values()) <= MAX_SERIES_PER_HOST
    assert counts[0] == counts[-1]  # steady state: no series per round, locale or observation


def test_a_failing_locale_is_counted_per_locale_and_only_failures_are() -> None:
    snap = Snapshot(interval_seconds=1800.0)
    for number in range(1, 4):
        snap = accumulate(snap, round_report(number, failing=frozenset({"h00/fp8"})))
    assert {k[2] for k in snap.locale_counts} == {sorted(LOCALES)[n % len(LOCALES)] for n in range(1, 4)}
    assert {(k[1], k[3], k[4]) for k in snap.locale_counts} == {("h00/fp8", "fail", "mixing")}
    assert series_by_host(snap)["h00/fp8"] <= MAX_SERIES_PER_HOST + 3 + 1  # + 3 locales, + a failure reason
