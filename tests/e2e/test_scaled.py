"""End to end, scaled out (design.md §12, issue 16): two exporter shards over the simulator, the shipped rule
files unchanged on vmalert over VictoriaMetrics fed by vmagent, and on a Prometheus HA pair with different
external labels, each notifying two clustered Alertmanagers that deliver to the one receiver.

Three stacks run side by side on the same fleet and seed: the single-Prometheus path (``Stack``, one
unsharded exporter) is the reference; the two scaled paths must produce the same suspensions, recoveries and
ignore lists. The last test kills one shard (it runs last because it takes shard 1's models away).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import pytest

from exporter.sharding import shard_of

from .scaled import ScaledStack
from .stack import FLEETS, SUSPENDING, Stack

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

FLEET = FLEETS / "scale.yaml"
HEALTHY = {"ttft": {"median": "40ms", "p95": "80ms"}, "inter_token": "1ms"}
BROKEN_SCHEMA = {"schema": {"rate": 1.0, "kind": "mismatch"}}
SUSPEND, STORM, HEAL, ORPHAN = "scale/suspend", "scale/storm", "scale/heal", "scale/orphan"
FAULTY = {"schema-breaker/fp8", "prude/fp8"}
WAIT = 90.0  # the vmalert path adds a remote-write hop per recording rule


@pytest.fixture(scope="module")
def stacks(make_stack: Callable[..., Stack]) -> dict[str, Stack]:
    options: dict[str, dict[str, object]] = {
        "reference": {"alertmanagers": 2},
        "vmalert": {"stack_class": ScaledStack, "topology": "vmalert"},
        "prometheus-pair": {"stack_class": ScaledStack, "topology": "prometheus-pair"},
    }
    # Made here (temporary directories are not thread-safe), started side by side (each start mostly waits
    # for processes to become ready): about half the wall time.
    stacks = {name: make_stack(FLEET, start=False, **kwargs) for name, kwargs in options.items()}
    with ThreadPoolExecutor(max_workers=len(stacks)) as pool:
        for future in [pool.submit(stack.start) for stack in stacks.values()]:
            future.result()
    return stacks


def _decisions(stack: Stack, model: str) -> list[tuple[str, str]]:
    decided = stack.decided(model, SUSPENDING | {"recover"})
    return sorted({d for d in decided if d[0] == "recover"}) + sorted(d for d in decided if d[0] != "recover")


def outcome(stack: Stack) -> dict[str, object]:
    """What a router and an auditor see: per model, the suspending and recovering decisions, the suspensions
    and the ignore list (issue 16's acceptance). Floor blocks are left out: under heavy load any path can
    record a transient "discovered hosts unknown" block before the suspension it then takes (an empty
    discovered_providers annotation on the first delivery); the suspensions themselves must still match.
    Recoveries are compared per host: a second replica of a Prometheus pair can evaluate the clean-round alert
    once more before it scrapes the receiver's ended suspension, which the receiver records as a harmless
    "recovery while not suspended"; suspending decisions are compared one by one."""
    return {
        model: {
            "decisions": _decisions(stack, model),
            "suspended": stack.suspended(model),
            "ignore": stack.ignore_list(model),
        }
        for model in (SUSPEND, STORM, HEAL, ORPHAN)
    }


def test_each_shard_probes_only_the_models_it_owns(stacks: dict[str, Stack]) -> None:
    for name in ("vmalert", "prometheus-pair"):
        stack = stacks[name]
        assert isinstance(stack, ScaledStack)
        for index, port in enumerate(stack.shard_ports):
            url = f"http://127.0.0.1:{port}/v1/state"
            state = stack.wait_for(
                lambda url=url, stack=stack: (body := stack.http.get(url).json())["round"] >= 1 and body,
                what=f"shard {index}'s first round on the {name} path",
            )
            assert set(state["models"]) == {m for m in stack.models if shard_of(m, 2) == index}, (name, index)
        shards = stack.wait_for(
            lambda stack=stack: (
                sorted(
                    (labels["shard_index"], labels["shard_count"])
                    for labels, _ in stack.query("canary_exporter_shard_info")
                )
                == [("0", "2"), ("1", "2")]
            ),
            what=f"both shards' info series in {name}",
            timeout=WAIT,
        )
        assert shards


def test_the_scaled_paths_suspend_the_same_hosts_as_the_single_prometheus_path(
    stacks: dict[str, Stack],
) -> None:
    for name, stack in stacks.items():
        stack.wait_for(
            lambda stack=stack: stack.suspended(SUSPEND) == FAULTY and stack.suspended(HEAL) == {"flaky/fp8"},
            what=f"the three faulty hosts suspended on the {name} path",
            timeout=WAIT,
            context=lambda stack=stack: (stack.describe(SUSPEND), stack.describe(HEAL)),
        )
    for stack in stacks.values():
        stack.wait_rounds(2)
        stack.settle()
    reference = outcome(stacks["reference"])
    assert reference[SUSPEND] == {
        "decisions": [("suspend", "prude/fp8"), ("suspend", "schema-breaker/fp8")],
        "suspended": FAULTY,
        "ignore": FAULTY,
    }
    assert reference[STORM] == {"decisions": [], "suspended": set(), "ignore": set()}
    for name in ("vmalert", "prometheus-pair"):
        assert outcome(stacks[name]) == reference, name


def test_alerts_from_both_prometheus_replicas_make_one_decision_per_host(stacks: dict[str, Stack]) -> None:
    stack = stacks["prometheus-pair"]
    host = "schema-breaker/fp8"
    replicas = stack.wait_for(
        lambda: (
            {
                alert["labels"].get("replica")
                for delivery in stack.delivered(SUSPEND, host)
                for alert in delivery.alerts()
                if alert["labels"].get("provider") == host
            }
            >= {"a", "b"}
        ),
        what="the suspend alert delivered with each replica's external label",
        timeout=WAIT,
    )
    assert replicas
    stack.settle()
    deliveries = stack.delivered(SUSPEND, host)
    failed = [d.answered() for d in deliveries if d.status != 200]
    assert not failed, (failed, stack.receiver.log_tail())
    assert sorted(stack.decided(SUSPEND, SUSPENDING)) == [("suspend", "prude/fp8"), ("suspend", host)]
    assert len(stack.decided(SUSPEND, SUSPENDING)) == 2, (
        "one suspension per host, whichever replica came first"
    )
    # The replicas evaluate the same group at the same aligned instants, so both alerts usually carry one
    # startsAt: one episode, whose repeat is counted, not journaled. Either way it is a duplicate.
    alerts = sum(
        1
        for delivery in stack.delivered(SUSPEND, host)
        for alert in delivery.alerts()
        if alert["status"] == "firing"
        and alert["labels"].get("alertname") == "CanaryProviderFailing"
        and alert["labels"].get("provider") == host
    )
    assert stack.counted("duplicate") >= alerts - 1 >= 1, "the other replica's alert was taken as a duplicate"


def test_a_healed_host_is_restored_the_same_way_on_every_path(stacks: dict[str, Stack]) -> None:
    host = "flaky/fp8"
    for stack in stacks.values():
        stack.patch_provider(HEAL, host, HEALTHY, replace=True)
    for name, stack in stacks.items():
        stack.wait_for(
            lambda stack=stack: stack.decided(HEAL, {"recover"}),
            what=f"the healed host restored on the {name} path",
            timeout=WAIT,
            context=lambda stack=stack: stack.describe(HEAL),
        )
    for stack in stacks.values():
        stack.settle()
    reference = outcome(stacks["reference"])
    assert reference[HEAL] == {
        "decisions": [("recover", host), ("suspend", host)],
        "suspended": set(),
        "ignore": set(),
    }
    for name in ("vmalert", "prometheus-pair"):
        assert outcome(stacks[name]) == reference, name


def test_killing_a_shard_raises_the_missing_shard_alert_and_never_suspends_its_hosts(
    stacks: dict[str, Stack],
) -> None:
    broken = {"good-a/fp8", "good-b/fp8"}
    scaled = {name: stacks[name] for name in ("vmalert", "prometheus-pair")}
    for stack in scaled.values():
        assert isinstance(stack, ScaledStack)
        stack.kill_shard(1)
    killed_at = time.time()
    for stack in stacks.values():
        for host in broken:
            stack.patch_provider(ORPHAN, host, BROKEN_SCHEMA)

    # The reference path still probes the model, so the same breakage IS suspended there (one host: the
    # floor keeps two of four routable only after both; here the first of them suffices).
    reference = stacks["reference"]
    reference.wait_for(
        lambda: reference.suspended(ORPHAN) & broken,
        what="the reference path suspending a broken host of the orphaned model",
        timeout=WAIT,
        context=lambda: reference.describe(ORPHAN),
    )
    for name, stack in scaled.items():
        missing = stack.wait_for(
            lambda stack=stack: [
                a
                for a in stack.ruler_alerts()
                if a.labels.get("alertname") == "CanaryExporterShardMissing"
                and a.state in ("pending", "firing")
            ],
            what=f"CanaryExporterShardMissing raised on the {name} path",
            timeout=WAIT,
        )
        # `for: 5m` keeps it pending here (promtool tests cover the firing); the value is the missing count.
        assert [(a.value, a.labels.get("severity")) for a in missing] == [(1.0, "warning")] * len(missing), (
            name
        )
    for stack in scaled.values():
        stack.wait_rounds(4)
        stack.settle()
    for name, stack in scaled.items():
        window = time.time() - killed_at
        assert stack.ever_fired("CanaryProviderFailing", window, model=ORPHAN) == [], name
        assert stack.decisions(ORPHAN) == [], name
        assert stack.ignore_list(ORPHAN) == set(), name
