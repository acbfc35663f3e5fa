"""The exporter process's sections of the canary configuration: ``rounds`` and ``exporter`` (with its
``evidence`` history). Each model is the one definition of its keys and defaults (README's configuration
reference is generated from them) and what the exporter's parts take.

``DEFAULT_EXPORTER_URL`` is where a local exporter serves by default (``exporter.listen``'s default), for
what links to it without a configuration (the dashboards' evidence link).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from exporter.configkit import (
    ConfigModel,
    Duration,
    ExternalUrl,
    Int,
    What,
    host_port,
    key,
    relative_path,
)
from exporter.engine.rounds import DEFAULT_CONCURRENCY
from exporter.evidence.store import DEFAULT_MAX_BYTES, DEFAULT_RETENTION_SECONDS, MIN_MAX_BYTES
from exporter.sharding import WHOLE, Shard
from exporter.web.hostport import http_url, parse_host_port

DEFAULT_INTERVAL_SECONDS = 1800.0


class RoundsConfig(ConfigModel):
    interval_seconds: Duration = key(
        DEFAULT_INTERVAL_SECONDS,
        "period between round starts; a round never overlaps the next",
        alias="interval",
        ge=0.05,
    )
    concurrency: Int = key(
        DEFAULT_CONCURRENCY, "providers probed at once (each provider's probes are sequential)", ge=1, le=1024
    )
    shard: Shard = key(
        WHOLE,
        meaning="`{index: I, count: N}`: this exporter replica probes only the models whose slug hashes to "
        "shard `I` of `N`; every replica lists the same models; check them together with `canary "
        "check-config a.yaml b.yaml` ([deployment.md](docs/deployment.md#sharding-models-across-exporters))",
        shown="none (the whole list)",
    )


_EVIDENCE_WHAT = "a file path such as evidence.sqlite3 (relative to the config file)"


class EvidenceConfig(ConfigModel):
    """``exporter.evidence``: the evidence history (docs/evidence.md). Absent section: no history kept."""

    path: Annotated[Path, relative_path(_EVIDENCE_WHAT)] = key(
        meaning="the evidence store, one row per probe attempt (relative to the config file); see "
        "[docs/evidence.md](docs/evidence.md)",
        shown="none: no history",
    )
    retention_seconds: Duration = key(
        DEFAULT_RETENTION_SECONDS, "rows older than this are deleted", alias="retention", ge=3600
    )
    max_bytes: Int = key(
        DEFAULT_MAX_BYTES, "cap on the store's used pages; the oldest rows go first", ge=MIN_MAX_BYTES
    )


class ExporterConfig(ConfigModel):
    listen: Annotated[str, host_port("127.0.0.1:9464", text=True), What("HOST:PORT")] = key(
        "127.0.0.1:9464", "address of `/metrics`, `/v1/state`, `/v1/evidence`, `/healthz`"
    )
    # The exporter's URL as people and Alertmanager notifications reach it (exported as
    # canary_exporter_external_url_info, which the suspend alert joins to build its evidence_url).
    external_url: ExternalUrl | None = key(
        None,
        "the exporter's URL as people reach it; the suspend alert's `evidence_url` starts with it (else the "
        "scrape address)",
    )
    evidence: EvidenceConfig | None = key(None, "the evidence history (below)", shown="none")


DEFAULT_EXPORTER_URL = http_url(*parse_host_port(ExporterConfig().listen), local=True)
