"""The launcher on loopback: real Prometheus and Alertmanager running the shipped rules, routes, inhibition.

One Prometheus and one Alertmanager serve the whole module (start-up costs ~6 s: Prometheus discovers its
Alertmanager only about 5 s after start). Each test replaces the static exposition it needs and first waits
for the previous test's alerts to clear.
"""

from __future__ import annotations

import random
import socket
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from exporter.devtools.pipeline import (
    AlertmanagerProcess,
    MissingBinaryError,
    PipelineError,
    PrometheusProcess,
    Timings,
    processes,
)
from exporter.devtools.pipeline.processes import _ephemeral_range, free_port

from .loopback import MetricsServer, WebhookSink

pytestmark = [pytest.mark.slow, pytest.mark.e2e]

TOKEN = "loopback-webhook-token"
RECEIVER_PATH = "/v1/alerts"
PEOPLE_PATH = "/people"
MODEL = "acme/chat-model"
OTHER_MODEL = "other/model"
PROVIDERS = {MODEL: ["gamma", "alpha", "delta", "beta/fp8"], OTHER_MODEL: ["p1", "p2", "p3", "p4"]}
CONTRACTS = ["ttft", "language"]


def exposition(streaks: dict[tuple[str, str, str], int]) -> str:
    """Exporter text for the fixed fleet; every (model, provider, contract) streak defaults to 0."""
    lines = [
        "# TYPE canary_probe_failing_streak gauge",
        *(
            f'canary_probe_failing_streak{{model="{model}",provider="{provider}",contract="{contract}"}} '
            f"{streaks.get((model, provider, contract), 0)}"
            for model, providers in PROVIDERS.items()
            for provider in providers
            for contract in CONTRACTS
        ),
        "# TYPE canary_endpoint_info gauge",
        *(
            f'canary_endpoint_info{{model="{model}",provider="{provider}",provider_name="{provider}",'
            f'quantization="fp8"}} 1'
            for model, providers in PROVIDERS.items()
            for provider in providers
        ),
        "# TYPE canary_round_interval_seconds gauge",
        "canary_round_interval_seconds 1800",
        "# TYPE canary_round_last_completed_timestamp_seconds gauge",
        f"canary_round_last_completed_timestamp_seconds {time.time():.3f}",
    ]
    return "\n".join(lines) + "\n"


@dataclass
class Pipeline:
    metrics: MetricsServer
    sink: WebhookSink
    am: AlertmanagerProcess
    prom: PrometheusProcess

    def set_streaks(self, streaks: dict[tuple[str, str, str], int]) -> None:
        self.metrics.serve(lambda: exposition(streaks))


def _wait(predicate: Callable[[], object], what: str, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture(scope="module")
def pipeline(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Pipeline]:
    work = tmp_path_factory.mktemp("pipeline")
    token_file = work / "webhook-token"
    token_file.write_text(TOKEN)
    metrics, sink = MetricsServer(), WebhookSink()
    metrics.serve(lambda: exposition({}))
    am = AlertmanagerProcess(
        work / "alertmanager",
        webhook_url=sink.url(RECEIVER_PATH),
        token_file=token_file,
        people_webhook_url=sink.url(PEOPLE_PATH),
        timings=Timings(),
    )
    # Both jobs scrape the same server: every series then exists twice (job="canary-exporter" and
    # job="canary-receiver"), which the rules must aggregate away.
    prom = PrometheusProcess(
        work / "prometheus",
        targets={
            "canary-exporter": metrics.address,
            "canary-receiver": metrics.address,
            "alertmanager": am.address,
        },
        alertmanagers=[am.address],
    )
    try:
        with am, prom:
            yield Pipeline(metrics, sink, am, prom)
    finally:
        metrics.close()
        sink.close()


# Active whatever the fleet does here: no exporter rounds (stale), and the always-firing heartbeat.
ALWAYS_ACTIVE = {"CanaryExporterStale", "CanaryWatchdog"}


@pytest.fixture
def fresh(pipeline: Pipeline) -> Pipeline:
    """The pipeline with a healthy fleet, no Canary* alert firing or active in Alertmanager, an empty sink."""
    pipeline.set_streaks({})
    _wait(
        lambda: (
            not pipeline.prom.query('ALERTS{alertname=~"CanaryProviderFailing|CanaryGlobalOutage"}')
            and not [a for a in pipeline.am.alerts() if a.labels["alertname"] not in ALWAYS_ACTIVE]
        ),
        "previous alerts to resolve",
    )
    for silence in pipeline.am.silences():
        if silence["status"]["state"] == "active":
            pipeline.am.delete_silence(silence["id"])
    pipeline.sink.clear()
    return pipeline


def test_a_host_failing_two_contracts_reaches_the_receiver_as_one_suspend_alert(fresh: Pipeline) -> None:
    fresh.set_streaks({(MODEL, "alpha", "ttft"): 2, (MODEL, "alpha", "language"): 3})

    (delivery, alert), *_ = fresh.sink.wait_firing(RECEIVER_PATH, provider="alpha")

    assert delivery.authorization == f"Bearer {TOKEN}"
    assert delivery.body["version"] == "4"
    assert delivery.body["receiver"] == "canary-receiver"
    assert alert["labels"] == {
        "alertname": "CanaryProviderFailing",
        "action": "suspend",
        "model": MODEL,
        "provider": "alpha",
        "severity": "warning",
    }
    assert alert["annotations"]["discovered_providers"] == "alpha,beta/fp8,delta,gamma"
    assert alert["annotations"]["failing_contracts"] == "language,ttft"
    assert alert["annotations"]["runbook_url"] == "docs/runbook.md#canaryproviderfailing"
    assert alert["generatorURL"].startswith(fresh.prom.url)
    # Two contracts and two scrape jobs still make a single alert.
    fingerprints = {a["fingerprint"] for _, a in fresh.sink.firing(RECEIVER_PATH)}
    assert len(fingerprints) == 1


def test_a_silence_mutes_one_provider_until_it_is_deleted(fresh: Pipeline) -> None:
    silence_id = fresh.am.add_silence({"provider": "beta/fp8"}, duration=600, comment="maintenance")
    fresh.set_streaks({(MODEL, "beta/fp8", "ttft"): 2, (MODEL, "delta", "ttft"): 2})

    # delta (not silenced) arriving proves delivery works; by then beta's alert is in Alertmanager too.
    fresh.sink.wait_firing(RECEIVER_PATH, provider="delta")
    _wait(lambda: fresh.am.alerts(filters={"provider": "beta/fp8"}), "beta's alert to reach Alertmanager")
    (beta,) = fresh.am.alerts(filters={"provider": "beta/fp8"})
    assert beta.state == "suppressed"
    assert beta.silenced_by == (silence_id,)
    time.sleep(2.0)  # two more group intervals
    assert fresh.sink.firing(RECEIVER_PATH, provider="beta/fp8") == []

    fresh.am.delete_silence(silence_id)
    fresh.sink.wait_firing(RECEIVER_PATH, provider="beta/fp8")


def test_the_global_outage_inhibits_suspend_alerts(fresh: Pipeline) -> None:
    # 6 of 8 pairs fail one round: the outage fires first (streak >= 1), then gamma reaches 2.
    failing = [
        (MODEL, "alpha"),
        (MODEL, "beta/fp8"),
        (MODEL, "delta"),
        (OTHER_MODEL, "p1"),
        (OTHER_MODEL, "p2"),
    ]
    streaks = {(model, provider, "ttft"): 1 for model, provider in failing}
    fresh.set_streaks({**streaks, (MODEL, "gamma", "ttft"): 1})
    (_, outage), *_ = fresh.sink.wait_firing(PEOPLE_PATH, alertname="CanaryGlobalOutage")
    assert outage["labels"] == {"alertname": "CanaryGlobalOutage", "severity": "critical", "cause": "failing"}

    fresh.set_streaks({**streaks, (MODEL, "gamma", "ttft"): 2})
    _wait(lambda: fresh.am.alerts(filters={"provider": "gamma"}), "gamma's alert to reach Alertmanager")
    (gamma,) = fresh.am.alerts(filters={"provider": "gamma"})
    assert gamma.labels["action"] == "suspend"
    assert gamma.state == "suppressed"
    assert gamma.inhibited_by
    time.sleep(2.0)
    assert fresh.sink.firing(RECEIVER_PATH) == []


def test_alertmanager_restarts_on_the_same_port_and_gets_the_firing_alert_again(fresh: Pipeline) -> None:
    fresh.set_streaks({(OTHER_MODEL, "p3", "language"): 2})
    fresh.sink.wait_firing(RECEIVER_PATH, provider="p3")

    fresh.am.restart()
    fresh.sink.clear()

    # Prometheus re-sends firing alerts every resend delay; the restarted Alertmanager delivers them again
    # (its notification log is on disk, so this is a repeat_interval-style re-delivery at the latest).
    fresh.sink.wait_firing(RECEIVER_PATH, provider="p3")
    assert "--- starting:" in fresh.am.log_tail(200)
    assert fresh.am.log_path.read_text().count("--- starting:") == 2


def test_a_missing_binary_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # no prometheus there
    with pytest.raises(MissingBinaryError, match="apt-get install prometheus prometheus-alertmanager"):
        PrometheusProcess(tmp_path, targets={})


def test_a_process_that_exits_at_start_is_reported_with_its_log(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "prometheus").symlink_to("/bin/false")  # found on PATH, exits 1 at once
    monkeypatch.setenv("PATH", str(tmp_path / "bin"))
    process = PrometheusProcess(tmp_path / "work", targets={}, ready_timeout=10)
    with pytest.raises(
        PipelineError, match=r"exited with 1 while waiting for /-/ready; log .*prometheus\.log"
    ):
        process.start()
    assert not process.running


def test_two_clustered_alertmanagers_share_their_silences(tmp_path: Path) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(TOKEN)
    first = AlertmanagerProcess(
        tmp_path / "am1", webhook_url="http://127.0.0.1:9/x", token_file=token_file, cluster=True
    )
    second = AlertmanagerProcess(
        tmp_path / "am2",
        webhook_url="http://127.0.0.1:9/x",
        token_file=token_file,
        cluster=True,
        peers=[first.cluster_address],
    )
    with first, second:
        silence_id = first.add_silence({"provider": "alpha"}, duration=60)
        _wait(lambda: any(s["id"] == silence_id for s in second.silences()), "the silence to reach the peer")
        second.delete_silence(silence_id)
        _wait(
            lambda: any(
                s["id"] == silence_id and s["status"]["state"] == "expired" for s in first.silences()
            ),
            "the expiry to reach the first member",
        )
    assert f"--cluster.peer={first.cluster_address}" in second.log_path.read_text()


def test_peers_without_clustering_are_refused(tmp_path: Path) -> None:
    with pytest.raises(PipelineError, match="pass cluster=True"):
        AlertmanagerProcess(
            tmp_path, webhook_url="http://x", token_file=tmp_path / "t", peers=["127.0.0.1:1"]
        )


def test_free_ports_lie_below_the_ephemeral_range_and_are_never_handed_out_twice() -> None:
    low, _high = _ephemeral_range()
    ports = [free_port() for _ in range(50)]
    assert len(set(ports)) == len(ports)
    assert all(10_000 <= port < low for port in ports)  # out of reach of outgoing connections' local ports
    for kind in (socket.SOCK_STREAM, socket.SOCK_DGRAM):  # free for TCP and UDP (gossip listens on both)
        with socket.socket(socket.AF_INET, kind) as sock:
            sock.bind(("127.0.0.1", ports[0]))


def test_a_port_someone_listens_on_is_not_handed_out(monkeypatch: pytest.MonkeyPatch) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as taken:
        taken.bind(("127.0.0.1", 0))
        busy = taken.getsockname()[1]
        choices = iter([busy, busy, busy + 1 if busy + 1 < 65536 else busy - 1])
        monkeypatch.setattr(random, "choice", lambda _seq: next(choices))
        monkeypatch.setattr(processes, "_ephemeral_range", lambda: (65_000, 65_535))
        assert free_port() != busy
