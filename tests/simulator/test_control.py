"""Control endpoints: token-protected, patch profiles at run time, switch the outage, show the fleet."""

from __future__ import annotations

import httpx

from exporter.devtools.simulator.server import SimulatorServer

from .conftest import FLEETS, MakeSim, chat

SECRETS = {"SIM_TEST_API_KEY": "k-1", "SIM_TEST_CONTROL_TOKEN": "c-2"}


def test_control_endpoints_need_the_token(make_sim: MakeSim) -> None:
    sim = make_sim(FLEETS / "secured.yaml", environ=SECRETS)
    calls = [
        ("GET", "/_sim/requests", None),
        ("GET", "/_sim/fleet", None),
        ("POST", "/_sim/outage", {"on": True}),
        ("POST", "/_sim/providers/test/secured/healthy/fp8", {"errors": {"rate": 1}}),
    ]
    for method, path, body in calls:
        for headers in ({}, {"Authorization": "Bearer k-1"}, {"Authorization": "Bearer c-3"}):
            denied = httpx.request(method, sim.root_url + path, json=body, headers=headers)
            assert denied.status_code == 401, (path, headers)
    assert not sim.simulator.state.outage
    good = {"Authorization": "Bearer c-2"}
    for method, path, body in calls:
        assert httpx.request(method, sim.root_url + path, json=body, headers=good).status_code == 200


def test_a_patch_heals_a_storm_for_a_recovery_scenario(faults: SimulatorServer) -> None:
    assert chat(faults, "stormy/fp8").status_code in {429, 502, 503, 524, 529}
    url = f"{faults.root_url}/_sim/providers/test/faults/stormy/fp8"
    patched = httpx.post(url, json={"errors": None})
    assert patched.status_code == 200 and patched.json()["profile"]["errors"]["rate"] == 0.0
    assert [chat(faults, "stormy/fp8").status_code for _ in range(3)] == [200, 200, 200]
    assert httpx.post(url, json={"errors": {"rate": 1.0, "statuses": [503]}}).status_code == 200
    assert chat(faults, "stormy/fp8").status_code == 503
    assert httpx.post(url + "?replace=true", json={}).json()["profile"]["errors"]["rate"] == 0.0


def test_bad_patches_and_unknown_providers(faults: SimulatorServer) -> None:
    bad = httpx.post(f"{faults.root_url}/_sim/providers/test/faults/stormy/fp8", json={"errors": {"rate": 3}})
    assert bad.status_code == 400
    assert bad.json()["error"]["problems"] == ["profile patch: errors.rate: must be at most 1 (got 3)"]
    missing = httpx.post(f"{faults.root_url}/_sim/providers/test/faults/ghost/fp8", json={})
    assert missing.status_code == 404


def test_outage_switch_fails_every_gateway_request(faults: SimulatorServer) -> None:
    assert httpx.post(f"{faults.root_url}/_sim/outage", json={"on": True}).json() == {"outage": True}
    statuses = [chat(faults, "healthy/fp8").status_code for _ in range(4)]
    assert statuses == [503, 502, 503, 502]
    assert httpx.get(f"{faults.base_url}/models/test/faults/endpoints").status_code in {502, 503}
    assert httpx.post(f"{faults.root_url}/_sim/outage", json={"on": "yes"}).status_code == 400
    httpx.post(f"{faults.root_url}/_sim/outage", json={"on": False})
    assert chat(faults, "healthy/fp8").status_code == 200


def test_fleet_view_and_request_log(faults: SimulatorServer) -> None:
    chat(faults, "healthy/fp8")
    chat(faults, None, model="nobody/none")
    fleet = httpx.get(f"{faults.root_url}/_sim/fleet").json()
    providers = {p["tag"]: p for p in fleet["models"][0]["providers"]}
    assert providers["healthy/fp8"]["requests"] == 1 and not providers["hidden/fp8"]["listed"]
    log = httpx.get(f"{faults.root_url}/_sim/requests").json()
    assert [(r["model"], r["pin"], r["status"]) for r in log] == [
        ("test/faults", "healthy/fp8", 200),
        ("nobody/none", None, 400),
    ]
    assert log[0]["t"] <= log[1]["t"]
    only = httpx.get(f"{faults.root_url}/_sim/requests", params={"model": "nobody/none"}).json()
    assert len(only) == 1
