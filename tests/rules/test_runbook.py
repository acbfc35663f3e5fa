"""docs/runbook.md has a complete section for every alert its runbook_url points at."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from exporter.generators.rulefile import load_rule_groups

ROOT = Path(__file__).resolve().parents[2]
RUNBOOK = ROOT / "docs" / "runbook.md"
ALERTS = {
    rule.alert: rule
    for group in load_rule_groups(ROOT / "rules" / "canary.rules.yml")
    for rule in group.alerts
}


def github_anchor(heading: str) -> str:
    """GitHub's heading slug: lower case, punctuation removed, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def sections() -> dict[str, str]:
    """Anchor → text of each ``## `` section of the runbook."""
    parts = re.split(r"^## (.+)$", RUNBOOK.read_text(), flags=re.MULTILINE)
    return {github_anchor(parts[i]): parts[i + 1] for i in range(1, len(parts), 2)}


def test_github_anchors_are_computed_like_github() -> None:
    assert github_anchor("CanaryProviderFailing") == "canaryproviderfailing"
    assert github_anchor("What to check: PromQL") == "what-to-check-promql"


@pytest.mark.parametrize("alertname", sorted(ALERTS))
def test_every_runbook_url_anchor_exists_in_the_runbook(alertname: str) -> None:
    anchor = ALERTS[alertname].annotations["runbook_url"].split("#", 1)[1]
    assert anchor in sections(), f"docs/runbook.md has no section with anchor #{anchor}"


@pytest.mark.parametrize("alertname", sorted(ALERTS))
def test_every_runbook_section_says_what_to_check_how_to_silence_and_how_to_lift(alertname: str) -> None:
    text = sections()[alertname.lower()]
    assert "**Meaning.**" in text
    assert "```promql" in text, "give PromQL to paste"
    assert "/v1/" in text, "link the receiver endpoints to check"
    assert "amtool --alertmanager.url=$AM silence add" in text
    assert "/v1/admin/lift" in text or "/v1/admin/incidents" in text
    assert "Authorization: Bearer $CANARY_ADMIN_TOKEN" in text


def test_the_runbook_has_no_section_for_an_alert_that_does_not_exist() -> None:
    alert_like = {anchor for anchor in sections() if anchor.startswith("canary")}
    assert alert_like == {name.lower() for name in ALERTS}
