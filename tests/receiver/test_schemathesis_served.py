"""schemathesis, every check, against the receiver served for real (uvicorn on 127.0.0.1): 0 mismatches.

The CLI (``schemathesis run --checks all``) loads ``/openapi.json`` from the running server and fuzzes every
operation in all its phases (examples, coverage, fuzzing): positive and negative cases, undeclared methods,
missing or wrong tokens (``schemathesis.toml`` gives each security scheme its token). Any failure (a 5xx,
a status, header, content type or body the document does not declare, a valid request refused or an
invalid one accepted) fails the test with the CLI's report. ``SCHEMATHESIS_EXAMPLES`` sets the examples per
operation (CI: 30; a bench run: 300 or more)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.server import ReceiverServer

from .helpers import make_config, schemathesis

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "30"))


@pytest.mark.slow
def test_schemathesis_finds_no_mismatch_on_the_served_receiver(tmp_path: Path) -> None:
    config = make_config(
        tmp_path / "store", builtin=(BuiltinExclusion(model="m/x", provider="b/1", reason="control"),)
    )
    with ReceiverServer(config) as server:
        summary = schemathesis(f"{server.base_url}/openapi.json", CONFIG, tmp_path, EXAMPLES)
    assert "Tested: 10" in summary, summary  # every operation of the document was reached
