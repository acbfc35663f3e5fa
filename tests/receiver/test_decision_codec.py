"""A decision's one codec (``codec.DECISION``): the log rows on disk decode and encode byte for byte, a
damaged row is refused naming its field, and the API's decision-log schema is the codec's."""

from __future__ import annotations

import json
from types import MappingProxyType

import pytest

from exporter.receiver.codec import decision_from_json, decision_to_json
from exporter.receiver.openapi import openapi_document
from exporter.receiver.state import Decision, Kind, Mode

# Rows as the store writes them (canonical JSON: sorted keys, no spaces), kept from the format's first
# writer: every one already on disk must decode to the same decision and encode to the same bytes.
SUSPEND = Decision(
    7, 1796530680.25, Kind.SUSPEND, "suspended at rung 1", model="m/x", provider="a/fp8",
    mode=Mode.ENFORCE, rung=1, until=1796617080.25, episode='["suspend"]', discovered=("a/fp8", "b/fp8"),
    source="alertmanager", inputs={"labels": {"action": "suspend"}, "n": [1, 2.5]}, starts_at=1796530000.0,
    explanation=MappingProxyType({"failing_contracts": ["ttft"]}),
)  # fmt: skip
RECOVER = Decision(
    8, 1796530690.0, Kind.RECOVER, "", model="m/x", provider="a/fp8", discovered=(), closes=("e1", "e2")
)
ROWS = [
    (SUSPEND,
     '{"at":1796530680.25,"discovered":["a/fp8","b/fp8"],"episode":"[\\"suspend\\"]","explanation":'
     '{"failing_contracts":["ttft"]},"inputs":{"labels":{"action":"suspend"},"n":[1,2.5]},"kind":"suspend",'
     '"mode":"enforce","model":"m/x","provider":"a/fp8","reason":"suspended at rung 1","rung":1,"seq":7,'
     '"source":"alertmanager","starts_at":1796530000.0,"time":"2026-12-06T04:18:00.250Z",'
     '"until":1796617080.25}'),
    (RECOVER,
     '{"at":1796530690.0,"closes":["e1","e2"],"discovered":[],"kind":"recover","model":"m/x",'
     '"provider":"a/fp8","reason":"","seq":8,"time":"2026-12-06T04:18:10.000Z"}'),
]  # fmt: skip


def _row(d: Decision) -> str:
    return json.dumps(decision_to_json(d), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(("decision", "row"), ROWS)
def test_a_row_on_disk_decodes_and_encodes_byte_for_byte(decision: Decision, row: str) -> None:
    assert _row(decision) == row
    assert decision_from_json(row) == decision_from_json(json.loads(row)) == decision
    assert list(decision_to_json(decision))[:5] == ["seq", "at", "time", "kind", "reason"]


GOOD = json.loads(ROWS[0][1])


@pytest.mark.parametrize(
    ("row", "problem"),
    [
        ([], "entry: expected an object, got a list"),
        ({**GOOD, "seq": "7"}, "entry.seq: expected an integer, got a string"),
        ({**GOOD, "rung": True}, "entry.rung: expected an integer, got a boolean"),
        ({k: v for k, v in GOOD.items() if k != "kind"}, "entry.kind: missing"),
        ({**GOOD, "kind": "banish"}, "entry.kind: Input should be 'suspend'"),
        ({**GOOD, "discovered": ["a/fp8", 3]}, "entry.discovered[1]: expected a string, got a number"),
        ({**GOOD, "inputs": []}, "entry.inputs: expected an object, got a list"),
        ({**GOOD, "closes": None}, "entry.closes: expected a list, got null"),
        ({**GOOD, "at": 1e300}, "entry.at: 1e+300 is not an instant in the years 1970 to 9999 (UTC)"),
        ({**GOOD, "until": -1}, "entry.until: -1.0 is not an instant in the years 1970 to 9999 (UTC)"),
        ({**GOOD, "mode": None}, "a suspend entry needs mode"),
        ('{"seq": 7', "entry: Invalid JSON"),
    ],
)
def test_a_damaged_row_is_refused_naming_its_field(row: object, problem: str) -> None:
    with pytest.raises(ValueError) as caught:
        decision_from_json(row)
    assert str(caught.value).startswith(problem)


def test_an_optional_field_may_be_null_and_unknown_fields_are_ignored() -> None:
    decision = decision_from_json({**GOOD, "episode": None, "later_field": 1})
    assert decision.episode is None and decision.seq == 7


def test_the_api_describes_a_decision_as_the_codec_writes_it() -> None:
    schema = openapi_document()["components"]["schemas"]["Decisions"]  # type: ignore[index,call-overload]
    record = schema["properties"]["decisions"]["items"]
    assert record["title"] == "DecisionRecord" and set(record["required"]) == {
        "seq",
        "at",
        "kind",
        "reason",
        "time",
    }
    assert set(record["properties"]) == set(GOOD) | {"incident_id", "closes"}
