"""Each fault profile produces its fault over HTTP at exactly the configured rate (seeded, evenly spread)."""

from __future__ import annotations

import json
import time

import httpx
import jsonschema
import pytest

from exporter.devtools.simulator.locales import Texts
from exporter.devtools.simulator.server import SimulatorServer

from .conftest import chat, sentences_of, sse_events

TEXTS = Texts.load()
SCHEMA = {
    "type": "object",
    "properties": {"name": {"type": "string"}, "age": {"type": "integer"}},
    "required": ["name", "age"],
    "additionalProperties": False,
}
RESPONSE_FORMAT = {"type": "json_schema", "json_schema": {"name": "c", "strict": True, "schema": SCHEMA}}


def content(response: httpx.Response) -> str:
    return str(response.json()["choices"][0]["message"]["content"])


def starts_clean(text: str, locale: str) -> bool:
    return any(text.startswith(sentence) for sentence in TEXTS.for_locale(locale))


def test_garbler_corrupts_the_start_of_19_of_20_replies(faults: SimulatorServer) -> None:
    replies = [content(chat(faults, "garbler/bf16", locale="en")) for _ in range(40)]
    assert sum(not starts_clean(r, "en") for r in replies) == 38
    assert all(
        starts_clean(r, "en") for r in (content(chat(faults, "healthy/fp8", locale="en")) for _ in range(5))
    )


def test_a_storm_answers_every_request_with_429_or_5xx_bodies(faults: SimulatorServer) -> None:
    statuses = set()
    for _ in range(15):
        response = chat(faults, "stormy/fp8")
        statuses.add(response.status_code)
        error = response.json()["error"]
        assert error["message"] == "Provider returned error" and error["code"] == response.status_code
        assert error["metadata"]["provider_name"] == "Stormy" and error["metadata"]["raw"]
        if response.status_code == 429:
            assert response.headers["retry-after"] == "2"
    assert statuses <= {429, 502, 503, 524, 529} and len(statuses) >= 3


def test_an_error_rate_of_thirty_percent_is_six_of_twenty(faults: SimulatorServer) -> None:
    assert [chat(faults, "flaky/fp8").status_code for _ in range(20)].count(503) == 6


def test_mid_stream_errors_arrive_in_band_at_their_rate(faults: SimulatorServer) -> None:
    broken = 0
    codes = set()
    for _ in range(20):
        response = chat(faults, "midstream/fp8", stream=True)
        assert response.status_code == 200
        events = [e for e in sse_events(response.text) if isinstance(e, dict)]
        errors = [e for e in events if "error" in e]
        if errors:
            broken += 1
            (last,) = errors
            assert last is events[-1] and last["choices"][0]["finish_reason"] == "error"
            codes.add(type(last["error"]["code"]))
    assert broken == 5 and codes <= {int, str}


def test_encoding_faults(faults: SimulatorServer) -> None:
    mojibake = [content(chat(faults, "mojibake/fp8", locale="pt-BR")) for _ in range(20)]
    assert sum("Ã" in r for r in mojibake) == 10
    assert all("\ufffd" in content(chat(faults, "replacement/fp8", locale="de")) for _ in range(5))
    for _ in range(5):
        text = content(chat(faults, "control/fp8", locale="en"))
        assert any(ord(ch) < 32 or ord(ch) == 127 for ch in text)


def test_drift_switches_whole_replies_at_its_rate(faults: SimulatorServer) -> None:
    english = 0
    for _ in range(20):
        sentences = sentences_of(content(chat(faults, "drifter/fp8", locale="fr")))
        if set(sentences) <= set(TEXTS.for_locale("en")):
            english += 1
        else:
            assert set(sentences) <= set(TEXTS.for_locale("fr"))
    assert english == 6


def test_mixer_mixes_close_languages_in_every_language_reply(faults: SimulatorServer) -> None:
    for locale, partner in (("pt-BR", "es"), ("uk", "ru"), ("zh-Hans", "zh-Hant")):
        for _ in range(4):
            sentences = sentences_of(content(chat(faults, "mixer/fp8", locale=locale)))
            own = [s for s in sentences if s in TEXTS.for_locale(locale)]
            other = [s for s in sentences if s in TEXTS.for_locale(partner)]
            assert own and other and len(own) + len(other) == len(sentences)
    # A host cannot tell probes apart: any prose it recognises the language of is mixed, JSON is not.
    mixed = sentences_of(content(chat(faults, "mixer/fp8")))
    assert any(s in TEXTS.for_locale("es") for s in mixed) and any(s in TEXTS.for_locale("en") for s in mixed)
    unknown = content(chat(faults, "mixer/fp8", messages=[{"role": "user", "content": "1 2 3 ?"}]))
    assert starts_clean(unknown, "en")  # no language recognised: plain English, nothing to mix


def test_refusal_styles_over_the_wire(faults: SimulatorServer) -> None:
    duel = "Continue the scene: the rival captain draws her cutlass and the duel begins."
    filtered = chat(faults, "prudish/fp8", user=duel).json()["choices"][0]
    assert (filtered["finish_reason"], filtered["message"]["content"]) == ("content_filter", "")
    assert chat(faults, "prudish/fp8", user="Pour the tea.").json()["choices"][0]["finish_reason"] == "stop"
    empties = [chat(faults, "silent/fp8").json()["choices"][0] for _ in range(10)]
    assert sum(c["message"]["content"] == "" and c["finish_reason"] == "stop" for c in empties) == 5
    assert content(chat(faults, "zhrefuser/fp8", user=duel)).startswith("抱歉")
    policy = chat(faults, "policy/fp8", user=duel)
    assert policy.status_code == 400
    assert policy.json()["error"]["metadata"]["error_type"] == "content_policy_violation"
    streamed = [
        e for e in sse_events(chat(faults, "prudish/fp8", user=duel, stream=True).text) if isinstance(e, dict)
    ]
    assert [c["finish_reason"] for e in streamed for c in e["choices"] if c["finish_reason"]] == [
        "content_filter"
    ]


@pytest.mark.parametrize("tag", ["invalidjson/fp8", "fenced/fp8", "truncated/fp8"])
def test_schema_breakers_never_return_valid_json(faults: SimulatorServer, tag: str) -> None:
    for _ in range(4):
        choice = chat(faults, tag, response_format=RESPONSE_FORMAT).json()["choices"][0]
        with pytest.raises(ValueError):
            json.loads(choice["message"]["content"])
        if tag == "truncated/fp8":
            assert choice["finish_reason"] == "length"


def test_schema_mismatch_at_a_quarter_is_five_of_twenty(faults: SimulatorServer) -> None:
    validator = jsonschema.Draft7Validator(SCHEMA)
    replies = [
        json.loads(content(chat(faults, "mismatch/fp8", response_format=RESPONSE_FORMAT))) for _ in range(20)
    ]
    assert sum(not validator.is_valid(r) for r in replies) == 5


def test_a_hang_answers_nothing_until_the_edge_gives_up(faults: SimulatorServer) -> None:
    with pytest.raises(httpx.ReadTimeout):
        chat(faults, "sleeper/fp8", timeout=0.15)
    started = time.perf_counter()
    response = chat(faults, "sleeper/fp8")
    assert time.perf_counter() - started >= 0.3 and response.status_code == 524


def test_a_stalled_stream_sends_the_role_chunk_then_silence_and_no_done(faults: SimulatorServer) -> None:
    started = time.perf_counter()
    response = chat(faults, "staller/fp8", stream=True)
    assert time.perf_counter() - started >= 0.3
    events = sse_events(response.text)
    data = [e for e in events if isinstance(e, dict)]
    assert len(data) == 1 and data[0]["choices"][0]["delta"] == {"role": "assistant"}
    assert "[DONE]" not in events


def test_a_host_disappears_after_n_requests_and_a_hidden_one_is_never_listed(faults: SimulatorServer) -> None:
    url = f"{faults.base_url}/models/test/faults/endpoints"

    def listed() -> set[str]:
        return {e["tag"] for e in httpx.get(url).json()["data"]["endpoints"]}

    assert "vanisher/fp8" in listed() and "hidden/fp8" not in listed()
    assert [chat(faults, "vanisher/fp8").status_code for _ in range(3)] == [200, 200, 200]
    assert "vanisher/fp8" not in listed()
    for tag in ("vanisher/fp8", "hidden/fp8"):
        gone = chat(faults, tag)
        assert gone.status_code == 404
        assert gone.json()["error"]["metadata"]["requested_providers"] == [tag]


def test_fault_sequences_replay_exactly_on_a_fresh_simulator(faults: SimulatorServer, make_sim) -> None:  # type: ignore[no-untyped-def]
    from .conftest import FLEETS

    again = make_sim(FLEETS / "faults.yaml")
    first = [chat(faults, "flaky/fp8").status_code for _ in range(10)]
    second = [chat(again, "flaky/fp8").status_code for _ in range(10)]
    assert first == second
