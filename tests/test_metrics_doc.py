"""docs/metrics.md documents every metric family the exporter, the receiver and routability can export.

The families are read from the collectors' source (every ``*MetricFamily("name", ...)`` call), so families
emitted only in some states (a completed round, an active suspension) are covered too.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
COLLECTORS = [
    ROOT / "exporter" / "engine" / "metrics.py",
    ROOT / "exporter" / "receiver" / "metrics.py",
    ROOT / "exporter" / "routability" / "app.py",
    ROOT / "exporter" / "evidence" / "metrics.py",
    ROOT / "exporter" / "equality" / "monitor.py",
    ROOT / "exporter" / "sharding.py",
    ROOT / "exporter" / "commands" / "exporter_service.py",
    ROOT / "exporter" / "router" / "metrics.py",
]
# ``*MetricFamily("name"`` and the ``exporter.metrickit`` builders ``gauge("name"`` / ``counter("name"``
FAMILY = re.compile(
    r"\b(Gauge|Counter|Histogram|Info|Summary|_route|gauge|counter)(?:MetricFamily|s)?\(\s*\"([a-z_:]+)\""
)
# ``exporter.metrickit.gauges`` rows: a bare tuple ``("name", "help", value)``, not a call
GAUGES_ROW = re.compile(r"(?<![\w])\(\s*\"(canary_[a-z_:]+)\",\s*\"")


def exported_families() -> set[str]:
    names = set()
    for path in COLLECTORS:
        for kind, name in FAMILY.findall(path.read_text()):
            names.add(
                f"{name}_total" if kind.lower() == "counter" else f"{name}_info" if kind == "Info" else name
            )
        names.update(GAUGES_ROW.findall(path.read_text()))
    return names


def documented() -> set[str]:
    """First-column names of the metric tables (the alert-label table at the end is not one)."""
    text = (ROOT / "docs" / "metrics.md").read_text().split("## Alert labels", 1)[0]
    return set(re.findall(r"^\| `([a-z_]+)`", text, flags=re.MULTILINE))


def test_the_family_scan_finds_the_families_of_all_three_components() -> None:
    names = exported_families()
    assert "canary_probe_failing_streak" in names and "canary_receiver_decisions_total" in names
    assert "canary_routability_status" in names
    assert "canary_exporter_collect_seconds" in names and len(names) > 30


def test_every_exported_family_is_documented() -> None:
    missing = sorted(exported_families() - documented())
    assert not missing, f"docs/metrics.md does not document: {missing}"


def test_the_docs_list_no_family_that_is_not_exported() -> None:
    external = {"alertmanager_notifications_failed_total"}  # Alertmanager's own, read by the rules
    stale = sorted(documented() - exported_families() - external)
    assert not stale, f"docs/metrics.md documents families nothing exports: {stale}"
