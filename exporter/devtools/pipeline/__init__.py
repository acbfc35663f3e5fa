"""The local alerting pipeline: real Prometheus and Alertmanager on loopback (and the scaled-out ruler).

- ``configs``: pure functions that turn the shipped ``config/prometheus.yml`` and
  ``config/alertmanager.yml`` into launch configs, overriding only intervals, addresses and credential paths;
- ``processes``: ``PrometheusProcess`` and ``AlertmanagerProcess`` context managers (start, readiness,
  queries, silences, restart, stop; logs kept in the work dir), and the scaled-out ruler of design.md §12:
  ``VictoriaMetricsProcess``, ``VmagentProcess``, ``VmalertProcess`` (the shipped rule files, unchanged).
Reading rule files and generating the Grafana alert file are build-time work: ``exporter.generators``.

Example::

    with AlertmanagerProcess(tmp / "am", webhook_url=url, token_file=token) as am, PrometheusProcess(
        tmp / "prom", targets={"canary-exporter": "127.0.0.1:9464"}, alertmanagers=[am.address]
    ) as prom:
        prom.query("ALERTS")
"""

from __future__ import annotations

from exporter.devtools.pipeline.configs import Timings
from exporter.devtools.pipeline.processes import (
    AlertmanagerAlert,
    AlertmanagerProcess,
    MissingBinaryError,
    PipelineError,
    PrometheusAlert,
    PrometheusProcess,
    Sample,
    VictoriaMetricsProcess,
    VmagentProcess,
    VmalertProcess,
)

__all__ = [
    "AlertmanagerAlert",
    "AlertmanagerProcess",
    "MissingBinaryError",
    "PipelineError",
    "PrometheusAlert",
    "PrometheusProcess",
    "Sample",
    "Timings",
    "VictoriaMetricsProcess",
    "VmagentProcess",
    "VmalertProcess",
]
