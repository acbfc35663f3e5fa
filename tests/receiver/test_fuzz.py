"""Fuzzing the HTTP API with hypothesis: arbitrary JSON, mutated valid payloads and raw bytes never get a
5xx (the store is healthy, so 5xx can only be a bug). ``FUZZ_EXAMPLES`` sets the number per route
(bench run: 3400 x 3 routes > 10k requests; CI: 150)."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from exporter.receiver.app import build_app
from exporter.receiver.service import ReceiverService
from tests.fuzz_profile import examples

from .helpers import ADMIN_TOKEN, WEBHOOK_TOKEN, Clock, alert, bearer, make_config, payload

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", str(examples(150))))
JSON_HEADERS = {"Content-Type": "application/json"}

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**4000), max_value=10**4000),  # (beyond 4300 digits: the raw-bytes test)
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["firing", "resolved", "suspend", "recover", "4", "1", "2027-01-15T07:00:00Z", "m/x"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=5),
    max_leaves=20,
)


def mutate(base: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    doc: Any = json.loads(json.dumps(base))
    node = doc
    for key in path[:-1]:
        node = node[key] if isinstance(node, dict) and key in node else node
        if isinstance(node, list) and node:
            node = node[0]
    if isinstance(node, dict):
        node[path[-1]] = value
    return doc  # type: ignore[no-any-return]


fields = st.sampled_from(
    [
        ["version"], ["alerts"], ["alerts", "status"], ["alerts", "labels"], ["alerts", "annotations"],
        ["alerts", "startsAt"], ["alerts", "fingerprint"], ["alerts", "labels", "provider"],
        ["alerts", "annotations", "discovered_providers"], ["alerts", "annotations", "evidence_url"],
    ]
)  # fmt: skip


class Api:
    def __init__(self) -> None:
        self.tmp = tempfile.TemporaryDirectory()
        config = make_config(Path(self.tmp.name) / "store")
        self.service = ReceiverService(config, clock=Clock(), init=True)
        self.client = TestClient(build_app(self.service), raise_server_exceptions=False)

    def post(self, path: str, body: bytes, token: str) -> int:
        r = self.client.post(path, content=body, headers={**bearer(token), **JSON_HEADERS})
        return r.status_code

    def close(self) -> None:
        self.service.close()
        self.tmp.cleanup()


def run(test: Any) -> None:
    api = Api()
    try:
        settings(
            max_examples=EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck)
        )(test)(api=api)
    finally:
        api.close()


def _dump(value: Any) -> bytes:
    return json.dumps(value, allow_nan=False).encode()


def test_arbitrary_json_never_gets_a_5xx() -> None:
    @given(body=json_values, route=st.sampled_from(["/v1/alerts", "/v1/admin/lift", "/v1/admin/incidents"]))
    def check(api: Api, body: Any, route: str) -> None:
        token = WEBHOOK_TOKEN if route == "/v1/alerts" else ADMIN_TOKEN
        assert api.post(route, _dump(body), token) < 500

    run(check)


def test_mutated_webhook_payloads_never_get_a_5xx() -> None:
    @given(path=fields, value=json_values, provider=st.text(min_size=1, max_size=20))
    def check(api: Api, path: list[str], value: Any, provider: str) -> None:
        body = mutate(payload(alert(provider)), path, value)
        assert api.post("/v1/alerts", _dump(body), WEBHOOK_TOKEN) < 500

    run(check)


def test_raw_bytes_never_get_a_5xx() -> None:
    @given(
        body=st.binary(max_size=200)
        | st.sampled_from([b'{"a": NaN}', b"[" * 5000, b'{"x": 1e999}', b'{"n": ' + b"9" * 5000 + b"}"])
    )
    def check(api: Api, body: bytes) -> None:
        assert api.post("/v1/alerts", body, WEBHOOK_TOKEN) < 500
        assert api.post("/v1/admin/incidents", body, ADMIN_TOKEN) < 500

    run(check)
