"""The ``routability:`` section of the canary configuration, read strictly into a frozen value.

Example (every key optional; values shown are the defaults unless marked)::

    routability:
      listen: 127.0.0.1:9466
      store: routability.sqlite3          # relative to the configuration file's directory
      schedule: "05:00"                   # daily at this UTC time (cron-style), or an interval such as 6h
      pace: 2s                            # minimum time between two requests of a pass
      timeout: 60s                        # per request
      max_tokens: 16                      # never 1: reasoning models fail on it
      reasoning_effort: low               # off | minimal | low | medium | high
      listed_signal: true                 # also record the gateway's listed endpoint status/uptime
      recent_unavailable: 6h              # routers skip models unavailable within this window
      trigger_token: {env: CANARY_ROUTABILITY_TOKEN}   # required for POST /v1/routability/run
      models: [acme/private-chat]         # extra slugs to track (example)
      catalogue_filter: {include: ["*"], exclude: ["*:free"]}   # example
      direct_routes:                      # example
        acme/private-chat:
          base_url: https://llm.acme.internal/v1
          model: private-chat-2025
          api_key: {env: ACME_KEY}        # optional
          reasoning_effort: low           # optional
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from exporter.configkit import Secret, Section
from exporter.routability.catalogue import CatalogueFilter
from exporter.routability.job import DirectRoute, JobSettings
from exporter.routability.routing import DEFAULT_RECENT_WINDOW
from exporter.routability.schedule import DEFAULT_SCHEDULE, Schedule, parse_schedule

_LISTEN = re.compile(r"^(?P<host>[A-Za-z0-9.\-]+|\[[0-9A-Fa-f:]+\]):(?P<port>\d{1,5})$")
_URL = re.compile(r"^https?://[^\s/]+(/\S*)?$")
_EFFORTS = ("off", "minimal", "low", "medium", "high")


@dataclass(frozen=True, slots=True)
class RoutabilityConfig:
    """The routability job's settings; ``job_settings()`` is what a pass needs."""

    listen_host: str = "127.0.0.1"
    listen_port: int = 9466
    store: Path = Path("routability.sqlite3")
    schedule: Schedule = DEFAULT_SCHEDULE
    pace: float = 2.0
    timeout: float = 60.0
    max_tokens: int = 16
    reasoning_effort: str | None = "low"
    listed_signal: bool = True
    recent_unavailable: float = DEFAULT_RECENT_WINDOW
    trigger_token: Secret | None = None
    models: tuple[str, ...] = ()
    catalogue_filter: CatalogueFilter = field(default_factory=CatalogueFilter)
    direct_routes: dict[str, DirectRoute] = field(default_factory=dict)

    def job_settings(self) -> JobSettings:
        return JobSettings(
            pace=self.pace,
            max_tokens=self.max_tokens,
            reasoning_effort=self.reasoning_effort,
            listed_signal=self.listed_signal,
            catalogue_filter=self.catalogue_filter,
            models=self.models,
            direct_routes=dict(self.direct_routes),
        )


def read_routability_config(
    section: Section, base_dir: Path, environ: dict[str, str] | None = None
) -> RoutabilityConfig:
    """Read the ``routability:`` section; problems are collected in ``section.problems`` (not raised).

    Example::

        problems = Problems("canary.yaml")
        root = Section.load(text, problems)
        config = read_routability_config(root.section("routability"), Path("."))
        problems.raise_if_any()
    """
    d = RoutabilityConfig()
    host, port = d.listen_host, d.listen_port
    listen = section.string("listen", default=None)
    if listen is not None:
        m = _LISTEN.fullmatch(listen)
        if m is None or not 0 < int(m["port"]) < 65536:
            section.problem("listen", f"expected HOST:PORT such as 127.0.0.1:9466 (got {listen!r})")
        else:
            host, port = m["host"].strip("[]"), int(m["port"])
    store = Path(section.string("store", default=str(d.store)))
    max_tokens = section.integer("max_tokens", default=d.max_tokens, minimum=1, maximum=4096)
    if max_tokens == 1:
        section.problem("max_tokens", "1 fails on reasoning models; use a small value such as 16")
    effort = section.choice("reasoning_effort", _EFFORTS, default="low")
    config = RoutabilityConfig(
        listen_host=host,
        listen_port=port,
        store=store if store.is_absolute() else base_dir / store,
        schedule=_read_schedule(section),
        pace=section.duration("pace", default=d.pace),
        timeout=section.duration("timeout", default=d.timeout, minimum=0.1),
        max_tokens=max_tokens or d.max_tokens,
        reasoning_effort=None if effort == "off" else effort,
        listed_signal=section.boolean("listed_signal", default=d.listed_signal),
        recent_unavailable=section.duration("recent_unavailable", default=d.recent_unavailable),
        trigger_token=section.secret("trigger_token", environ=environ),
        models=tuple(dict.fromkeys(section.str_list("models", default=[]))),
        catalogue_filter=_read_filter(section.section("catalogue_filter")),
        direct_routes=_read_routes(section.section("direct_routes"), environ),
    )
    section.finish()
    return config


def _read_schedule(section: Section) -> Schedule:
    raw = section.raw("schedule", None)
    if raw is None:
        return DEFAULT_SCHEDULE
    try:
        return parse_schedule(raw)
    except ValueError as exc:
        section.problem("schedule", f"{exc} (got {raw!r})")
        return DEFAULT_SCHEDULE


def _url(section: Section, key: str, default: str | None) -> str | None:
    value: str | None = section.string(key) if default is None else section.string(key, default=default)
    if value is not None and not _URL.fullmatch(value):
        section.problem(
            key, f"expected an http(s) base URL such as https://openrouter.ai/api/v1 (got {value!r})"
        )
        return None
    return value


def _read_filter(section: Section) -> CatalogueFilter:
    include = section.str_list("include", default=["*"])
    exclude = section.str_list("exclude", default=[])
    section.finish()
    return CatalogueFilter(tuple(include or ["*"]), tuple(exclude or []))


def _read_routes(section: Section, environ: dict[str, str] | None) -> dict[str, DirectRoute]:
    routes: dict[str, DirectRoute] = {}
    for slug in list(section.keys()):
        route = section.section(slug)
        base_url = _url(route, "base_url", None)
        model = route.string("model", default=slug)
        key = route.secret("api_key", environ=environ)
        effort = route.choice("reasoning_effort", _EFFORTS, default="off")
        route.finish()
        if base_url is not None and model is not None:
            routes[slug] = DirectRoute(
                base_url, model, key.value if key else None, None if effort == "off" else effort
            )
    return routes
