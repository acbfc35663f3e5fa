"""The runbook sends provider alerts to the evidence first, then to investigate and trace."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNBOOK = (ROOT / "docs" / "runbook.md").read_text()
PROVIDER_ALERTS = sorted(set(re.findall(r"^## (CanaryProvider\w+)$", RUNBOOK, re.MULTILINE)))


def _section(name: str) -> str:
    start = RUNBOOK.index(f"## {name}\n")
    end = RUNBOOK.find("\n## ", start + 1)
    return RUNBOOK[start : end if end != -1 else None]


def test_the_runbook_has_provider_alerts() -> None:
    assert {"CanaryProviderFailing", "CanaryProviderRecovered", "CanaryProviderSuspended"} <= set(
        PROVIDER_ALERTS
    )


@pytest.mark.parametrize("alert", PROVIDER_ALERTS)
def test_the_first_step_of_every_provider_alert_is_the_evidence_link(alert: str) -> None:
    text = _section(alert)
    first = text.index("**First step.** Open the alert's evidence link")
    assert first < text.index("**Check.**")
    assert "canary investigate" in text[first:] and "canary trace" in text[first:]


def test_the_readme_lists_both_commands() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "| `canary investigate --config FILE --model M" in readme
    assert "| `canary trace --config FILE (--generation ID" in readme
