"""schemathesis, every check, against the routability service served for real (uvicorn on 127.0.0.1).

As for the receiver (tests/receiver/test_schemathesis_served.py): the CLI loads ``/openapi.json`` from the
running server and fuzzes every operation; any 5xx, undeclared status, header or body, a valid request
refused or an invalid one accepted fails the test with the CLI's report. Passes run against the in-process
fake gateway of the app tests (no network)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from exporter.routability.app import build_app
from exporter.routability.model import ListedSignal, RoutabilityRow, Status
from exporter.routability.store import RoutabilityStore
from exporter.serving import ThreadedServer
from tests.routability.test_routability_app import NOW, make_service

CONFIG = Path(__file__).with_name("schemathesis.toml")
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "20"))  # about 45 s on the shared CI machine


@pytest.mark.slow
def test_schemathesis_finds_no_mismatch_on_the_served_routability_service(tmp_path: Path) -> None:
    with RoutabilityStore(tmp_path / "r.sqlite3") as store:
        store.put(RoutabilityRow("a/b", Status.UNAVAILABLE, last_check=NOW, listed=ListedSignal(NOW, 1, 0)))
        cli = Path(sys.executable).with_name("schemathesis")
        with ThreadedServer(build_app(make_service(store))) as server:
            command = [
                str(cli),
                "--config-file",
                str(CONFIG),
                "--no-color",
                "run",
                f"{server.base_url}/openapi.json",
            ]
            command += [
                "--checks",
                "all",
                "--max-examples",
                str(EXAMPLES),
                "--seed",
                "20261201",
                "--workers",
                "1",
                # the {slug:path} parameter takes any text, so many generated values are filtered out
                "--suppress-health-check=filter_too_much",
            ]
            command += ["--report-dir", str(tmp_path / "report")]
            done = subprocess.run(command, capture_output=True, text=True, timeout=600, cwd=tmp_path)
    summary = done.stdout[done.stdout.find("SUMMARY") :] if "SUMMARY" in done.stdout else done.stdout
    assert done.returncode == 0, summary[-6000:] + done.stderr[-2000:]
    assert "Tested: 5" in summary, summary  # every operation of the document was reached
