"""The per-route series people's alerts read: floor-blocked routes and recent quarantine transitions."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from exporter.receiver.recent import BLOCK_MEMORY_SECONDS, MAX_PAIRS, TRANSITION_VISIBLE_SECONDS, label_pairs
from tests.receiver.helpers import DAY, WEBHOOK_TOKEN, alert, bearer, payload
from tests.receiver.test_app import ADMIN, Harness

WEBHOOK = {**bearer(WEBHOOK_TOKEN), "Content-Type": "application/json"}
SERIES = re.compile(r"^(canary_receiver_(?:floor_blocked|transition)_decision)\{(.*)\} (\S+)$", re.M)


@pytest.fixture
def h(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path, builtin=(), min_routable_hosts=2)
    yield harness
    harness.client.close()
    harness.service.close()


def explained(provider: str, reasons: str = "refusal=refused", **kw: Any) -> dict[str, Any]:
    a = alert(provider, discovered="a/1,b/1,c/1", **kw)
    a["annotations"].update(failing_contracts="refusal", failing_reasons=reasons)
    return a


def series(h: Harness) -> dict[str, list[tuple[dict[str, str], float]]]:
    found: dict[str, list[tuple[dict[str, str], float]]] = {}
    for name, labels, value in SERIES.findall(h.client.get("/metrics").text):
        pairs = dict(re.findall(r'(\w+)="([^"]*)"', labels))
        found.setdefault(name.removeprefix("canary_receiver_"), []).append((pairs, float(value)))
    return found


def test_a_floor_block_names_the_route_its_contract_reason_and_decision(h: Harness) -> None:
    h.post_alerts(payload(explained("a/1")))  # 2 of 3 left: allowed
    h.post_alerts(payload(explained("b/1", "refusal=refused,json=invalid_json")))  # 1 left: blocked
    blocked = series(h)["floor_blocked_decision"]
    seq = h.client.get("/v1/decisions").json()["decisions"][-1]["seq"]
    assert blocked == [
        ({"model": "m/x", "provider": "b/1", "contract": "json", "reason": "invalid_json",
          "cause": "below_floor"}, seq),
        ({"model": "m/x", "provider": "b/1", "contract": "refusal", "reason": "refused",
          "cause": "below_floor"}, seq),
    ]  # fmt: skip
    # The suspend alert's resolution ends the block; the transition of a/1 is not a block.
    h.post_alerts(payload(explained("b/1", status="resolved")))
    assert "floor_blocked_decision" not in series(h)


def test_a_block_ends_when_the_route_is_suspended_and_ages_out_when_no_longer_judged(h: Harness) -> None:
    h.post_alerts(payload(explained("a/1"), explained("b/1")))
    assert [s["provider"] for s, _ in series(h)["floor_blocked_decision"]] == ["b/1"]
    h.client.post("/v1/admin/lift", json={"model": "m/x", "provider": "a/1", "reason": "ok"}, headers=ADMIN)
    h.post_alerts(payload(explained("b/1")))  # capacity freed by the lift: suspended now
    assert "floor_blocked_decision" not in series(h)
    h.post_alerts(payload(explained("c/1", starts_at=1)))  # blocked (a/1 is held, b/1 suspended)
    assert "floor_blocked_decision" in series(h)
    h.clock.advance(BLOCK_MEMORY_SECONDS)
    assert "floor_blocked_decision" not in series(h)


def test_unknown_hosts_are_a_cause_of_their_own_and_free_text_never_becomes_a_label(h: Harness) -> None:
    a = alert("a/1", discovered=None)
    a["annotations"].update(failing_reasons="Refusal Check=the host said <no>!")
    h.post_alerts(payload(a))
    [(labels, _)] = series(h)["floor_blocked_decision"]
    assert (labels["cause"], labels["contract"], labels["reason"]) == ("hosts_unknown", "other", "other")


def administrators_act(h: Harness) -> None:
    """a/1 suspended then lifted; an incident on c/1 added then removed."""
    h.post_alerts(payload(explained("a/1")))
    lift = {"model": "m/x", "provider": "a/1", "reason": "vendor fixed it"}
    assert h.client.post("/v1/admin/lift", json=lift, headers=ADMIN).status_code == 200
    incident = {"model": "m/x", "provider": "c/1", "reason": "vendor outage"}
    added = h.client.post("/v1/admin/incidents", json=incident, headers=ADMIN).json()["id"]
    h.client.request("DELETE", f"/v1/admin/incidents/{added}", json={"reason": "over"}, headers=ADMIN)


def test_each_transition_names_route_kind_cause_and_what_the_route_was_failing(h: Harness) -> None:
    administrators_act(h)
    h.post_alerts(payload(explained("b/1", starts_at=h.clock.now - 60)))
    h.clock.advance(DAY + 1)  # b/1's first-rung suspension ends
    h.client.get("/healthz")
    h.service.sweep()
    kinds = {(s["kind"], s["provider"], s["cause"]) for s, _ in series(h)["transition_decision"]}
    # the lift and incidents were decided over 30 minutes ago; b/1's suspend alert still fires: renewed
    assert kinds == {("expire", "b/1", "suspension_ended"), ("escalate", "b/1", "failing_again")}
    h.post_alerts(payload(alert("b/1", action="recover", starts_at=h.clock.now - 30, discovered=None)))
    latest = {(s["kind"], s["cause"], s["contract"], s["reason"]) for s, _ in series(h)["transition_decision"]
              if s["provider"] == "b/1"}  # fmt: skip
    assert latest == {
        ("expire", "suspension_ended", "refusal", "refused"),
        ("escalate", "failing_again", "refusal", "refused"),
        ("recover", "clean_rounds", "refusal", "refused"),
    }
    h.clock.advance(TRANSITION_VISIBLE_SECONDS)
    assert "transition_decision" not in series(h)


def test_admin_transitions_are_exported_with_their_decision_seq(h: Harness) -> None:
    administrators_act(h)
    log = {d["kind"]: d["seq"] for d in h.client.get("/v1/decisions").json()["decisions"]}
    got = {
        (s["kind"], s["provider"], s["cause"], s["contract"]): v for s, v in series(h)["transition_decision"]
    }
    assert got == {
        ("lift", "a/1", "administrator", "refusal"): log["lift"],
        ("incident_add", "c/1", "administrator", "none"): log["incident_add"],
        ("incident_remove", "c/1", "administrator", "none"): log["incident_remove"],
    }


def test_label_pairs_are_bounded_per_route() -> None:
    many = {"failing_reasons": [f"c{i:02d}=r{i}" for i in range(40)]}
    pairs = label_pairs(many)
    assert len(pairs) == MAX_PAIRS and pairs[0] == ("c00", "r0")
    assert label_pairs({"failing_reasons": ["refusal: refused"]}) == (("refusal", "refused"),)
    assert label_pairs({"failing_reasons": "refusal=refused"}) == (("none", "none"),)  # not a list: ignored
