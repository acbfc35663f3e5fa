"""The demo's Prometheus loads the rules rendered for the run: runbook and decision links people can open."""

from __future__ import annotations

from pathlib import Path

import yaml

from exporter.devtools.demo import _rendered_rules
from exporter.paths import REPO_ROOT


def test_the_demo_renders_absolute_runbook_links_and_its_own_receiver_into_the_rules(tmp_path: Path) -> None:
    config = yaml.safe_load(_rendered_rules(tmp_path, "http://127.0.0.1:40123").read_text())
    [rule_file] = config["rule_files"]
    rules = yaml.safe_load(Path(rule_file).read_text())
    alerts = [r for g in rules["groups"] for r in g["rules"] if "alert" in r]
    runbook = (REPO_ROOT / "docs" / "runbook.md").as_uri()
    assert alerts and all(a["annotations"]["runbook_url"].startswith(runbook + "#") for a in alerts)
    decision_links = [a["annotations"]["decision_url"] for a in alerts if "decision_url" in a["annotations"]]
    assert decision_links and all("http://127.0.0.1:40123" in link for link in decision_links)
    assert config["scrape_configs"]  # the rest of the shipped configuration is kept
