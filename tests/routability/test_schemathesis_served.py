"""schemathesis, every check, against the routability service served for real (uvicorn on 127.0.0.1).

As for the receiver (tests/receiver/test_schemathesis_served.py): the CLI loads ``/openapi.json`` from the
running server and fuzzes every operation; any 5xx, undeclared status, header or body, a valid request
refused or an invalid one accepted fails the test with the CLI's report. Passes run against the in-process
fake gateway of the app tests (no network)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from exporter.routability.app import build_app
from exporter.routability.model import ListedSignal, RoutabilityRow, Status
from exporter.routability.store import RoutabilityStore
from exporter.serving import ThreadedServer
from tests.receiver.helpers import schemathesis
from tests.routability.test_routability_app import NOW, make_service

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20"))  # about 45 s on the shared CI machine


@pytest.mark.slow
def test_schemathesis_finds_no_mismatch_on_the_served_routability_service(tmp_path: Path) -> None:
    with RoutabilityStore(tmp_path / "r.sqlite3") as store:
        store.put(RoutabilityRow("a/b", Status.UNAVAILABLE, last_check=NOW, listed=ListedSignal(NOW, 1, 0)))
        with ThreadedServer(build_app(make_service(store))) as server:
            # the {slug:path} parameter takes any text, so many generated values are filtered out
            options = ("--suppress-health-check=filter_too_much",)
            summary = schemathesis(f"{server.base_url}/openapi.json", CONFIG, tmp_path, EXAMPLES, *options)
    assert "Tested: 5" in summary, summary  # every operation of the document was reached
