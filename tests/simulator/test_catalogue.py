"""Catalogue mode: exact behaviour mix, the right status per behaviour, and every arrival recorded."""

from __future__ import annotations

from collections import Counter

import httpx

from exporter.devtools.simulator.catalogue import behaviour_counts, expand
from exporter.devtools.simulator.fleet import CATALOGUE_FLEET, Catalogue, load_fleet

from .conftest import MakeSim, chat


def test_behaviour_counts_follow_the_mix_exactly() -> None:
    mix = (("healthy", 0.8), ("rate_limited", 0.08), ("erroring", 0.07), ("removed", 0.05))
    assert behaviour_counts(500, mix) == {"healthy": 400, "rate_limited": 40, "erroring": 35, "removed": 25}
    assert sum(behaviour_counts(7, mix).values()) == 7
    models = expand(Catalogue(count=100, seed=1, mix=mix, non_chat=3))
    assert Counter(m.behaviour for m in models) == {
        "healthy": 80, "rate_limited": 8, "erroring": 7, "removed": 5, "non_chat": 3,
    }  # fmt: skip
    assert len({m.id for m in models}) == 103
    assert [m.id for m in expand(Catalogue(count=10, seed=1))] == [
        m.id for m in expand(Catalogue(count=10, seed=1))
    ]


def test_each_behaviour_answers_with_its_status(make_sim: MakeSim) -> None:
    sim = make_sim(CATALOGUE_FLEET)
    ok = chat(sim, None, model="example/always-ok", user="Reply with OK.")
    assert ok.status_code == 200 and ok.json()["choices"][0]["message"]["content"] == "OK"
    limited = chat(sim, None, model="example/rate-limited")
    assert limited.status_code == 429 and limited.json()["error"]["message"] == "Provider returned error"
    assert {chat(sim, None, model="example/erroring").status_code for _ in range(4)} <= {502, 503}
    unknown = chat(sim, None, model="example/unknown-model")
    assert unknown.status_code == 400 and unknown.json()["error"]["availability"]["code"] == "model_not_found"
    gone = chat(sim, None, model="example/no-endpoints")
    assert gone.status_code == 404 and gone.json()["error"]["availability"]["code"] == "no_endpoints"
    old = chat(sim, None, model="example/deprecated")
    assert old.status_code == 404 and old.json()["error"]["availability"]["code"] == "model_deprecated"
    embed = chat(sim, None, model="example/text-embedding")
    assert embed.status_code == 400 and embed.json()["error"]["availability"]["code"] == "wrong_endpoint"


def test_generated_models_are_listed_and_behave_as_assigned(make_sim: MakeSim) -> None:
    sim = make_sim(CATALOGUE_FLEET)
    listing = httpx.get(f"{sim.base_url}/models").json()["data"]
    assert len(listing) == 500 + 20 + 7 + 1
    non_chat = [m for m in listing if m["architecture"]["output_modalities"] != ["text"]]
    assert len(non_chat) == 21
    fleet = load_fleet(CATALOGUE_FLEET)
    assert fleet.catalogue is not None
    by_behaviour: dict[str, list[str]] = {}
    for model in expand(fleet.catalogue):
        by_behaviour.setdefault(model.behaviour or "", []).append(model.id)
    expected = {"healthy": {200}, "rate_limited": {429}, "erroring": {502, 503}, "removed": {400, 404}}
    for behaviour, statuses in expected.items():
        for model_id in by_behaviour[behaviour][:3]:
            assert chat(sim, None, model=model_id).status_code in statuses, (behaviour, model_id)
    assert httpx.get(f"{sim.root_url}/_sim/fleet").json()["catalogue"] == {
        "healthy": 401, "rate_limited": 41, "erroring": 36, "removed": 28, "non_chat": 21,
    }  # fmt: skip


def test_every_chat_request_arrival_is_recorded_per_model(make_sim: MakeSim) -> None:
    sim = make_sim(CATALOGUE_FLEET)
    for model in ("example/always-ok", "example/rate-limited", "example/always-ok"):
        chat(sim, "simhost", model=model)
    log = httpx.get(f"{sim.root_url}/_sim/requests", params={"model": "example/always-ok"}).json()
    assert [r["pin"] for r in log] == ["simhost", "simhost"]
    assert log[0]["t"] < log[1]["t"]
