"""Build-time generators: files the project ships, generated from one source, checked for staleness by tests.

- ``rulerender``, ``rules_cli``: ``canary rules render``, the rules and promtool tests for a deployment;
- ``rulefile``: Prometheus rule files read into values;
- ``grafana_alerts``: the Grafana alert provisioning file generated from the rule files;
- ``dashboards``: the Grafana dashboards in ``dashboards/`` (``python -m exporter.generators.dashboards``).
"""
