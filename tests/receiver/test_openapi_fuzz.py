"""Fuzz every operation of the OpenAPI document with schemathesis: never a 5xx, responses match the spec."""

from __future__ import annotations

from pathlib import Path

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)
from schemathesis.generation import GenerationMode

from exporter.receiver.app import build_app
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.openapi import openapi_document
from exporter.receiver.service import ReceiverService
from tests.fuzz_profile import examples

from .helpers import ADMIN_TOKEN, WEBHOOK_TOKEN, Clock, bearer, make_config

# The document's own path is left out by schemathesis when the schema is loaded from it. Negative cases
# only exist for operations that take input.
_DOC = openapi_document()
CASES = [
    (op.ok().label, mode)
    for op in schemathesis.openapi.from_dict(_DOC).get_all_operations()
    if op.ok().path != "/openapi.json"
    for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE)
    if mode is GenerationMode.POSITIVE
    or "parameters" in _DOC["paths"][op.ok().path][op.ok().method.lower()]
    or "requestBody" in _DOC["paths"][op.ok().path][op.ok().method.lower()]
]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.mark.parametrize(("label", "mode"), CASES)
def test_no_operation_ever_answers_5xx_or_off_spec(label: str, mode: GenerationMode, tmp_path: Path) -> None:
    config = make_config(
        tmp_path / "store", builtin=(BuiltinExclusion(model="m/x", provider="b/1", reason="control"),)
    )
    with ReceiverService(config, clock=Clock(), init=True) as service:
        schema = schemathesis.openapi.from_asgi("/openapi.json", build_app(service))
        operation = next(op.ok() for op in schema.get_all_operations() if op.ok().label == label)
        token = ADMIN_TOKEN if operation.path.startswith("/v1/admin") else WEBHOOK_TOKEN

        @given(case=operation.as_strategy(mode))
        @settings(
            max_examples=examples(25), deadline=None, suppress_health_check=list(HealthCheck), database=None
        )
        def fuzz(case: schemathesis.Case) -> None:
            case.call_and_validate(headers=bearer(token), checks=CHECKS)

        fuzz()
