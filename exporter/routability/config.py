"""The ``routability:`` section of the canary configuration: the model ``RoutabilityConfig`` (frozen) is the
one definition of its keys and defaults (README's configuration reference is generated from it; direct
routes and schedules by example: docs/routability.md, "Configuration") and what a pass takes."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import AfterValidator, BeforeValidator, field_validator

from exporter.configkit import (
    Bool,
    ConfigModel,
    Duration,
    Int,
    Listening,
    SecretValue,
    StrList,
    Text,
    What,
    choice,
    host_port,
    invalid,
    key,
    matching,
    relative_path,
)
from exporter.gateway.client import DEFAULT_TIMEOUT_SECONDS
from exporter.routability.catalogue import CatalogueFilter
from exporter.routability.routing import DEFAULT_RECENT_WINDOW
from exporter.routability.schedule import DEFAULT_SCHEDULE, Schedule, parse_schedule

_URL = re.compile(r"^https?://[^\s/]+(/\S*)?$")
_EFFORTS = ("off", "minimal", "low", "medium", "high")


def _schedule(value: object) -> Schedule:
    if isinstance(value, Schedule):
        return value
    try:
        return parse_schedule(value)
    except ValueError as exc:
        raise invalid(f"{exc} (got {value!r})") from None


def _not_one(max_tokens: int) -> int:
    if max_tokens == 1:
        raise invalid("1 fails on reasoning models; use a small value such as 16")
    return max_tokens


def _effort(value: object) -> str | None:
    return None if value in ("off", None) else str(value)


Effort = Annotated[
    str | None, BeforeValidator(_effort), choice(_EFFORTS), What("off, minimal, low, medium or high")
]


class DirectRoute(ConfigModel):
    """An OpenAI-compatible route for a model slug that is not on the gateway."""

    base_url: Annotated[str, matching(_URL, "an http(s) base URL such as https://openrouter.ai/api/v1")] = (
        key(meaning="the host's OpenAI-compatible API root")
    )
    model: Text | None = key(None, "the model id the host expects", shown="the slug")
    api_key: SecretValue | None = key(None, "secret, optional")  # revealed only by the transport
    reasoning_effort: Effort = key(None, "sent as reasoning_effort when not `off`", shown="`off`")


StorePath = Annotated[Path, relative_path("a file path such as routability.sqlite3"), What("a file path")]


class RoutabilityConfig(Listening):
    """The routability job's settings: what the service and every pass take."""

    listen: Annotated[
        tuple[str, int], host_port("127.0.0.1:9466", allow_any_port=False), What("HOST:PORT")
    ] = key(("127.0.0.1", 9466), "address of the routability API", shown="`127.0.0.1:9466`")
    store: StorePath = key(
        Path("routability.sqlite3"), "the job's store (relative to the config file)", validate_default=True
    )
    max_tokens: Annotated[Int, AfterValidator(_not_one)] = key(
        16, "the probe's completion budget; never 1 (reasoning models fail on it)", ge=1, le=4096
    )
    reasoning_effort: Effort = key(
        "low",
        "`off`, `minimal`, `low`, `medium` or `high`; asked of gateway models that list a reasoning "
        "parameter",
    )
    schedule: Annotated[
        Schedule, BeforeValidator(_schedule), What("a UTC time such as 05:00 or a duration")
    ] = key(DEFAULT_SCHEDULE, "daily at this UTC time, or an interval such as 6h", shown='`"05:00"`')
    pace: Duration = key(2.0, "minimum time between two requests of a pass")
    timeout: Duration = key(DEFAULT_TIMEOUT_SECONDS, "per request", ge=0.1)
    listed_signal: Bool = key(True, "also record the gateway's listed endpoint status/uptime")
    recent_unavailable: Duration = key(
        DEFAULT_RECENT_WINDOW, "routers skip models unavailable within this window"
    )
    trigger_token: SecretValue | None = key(None, "secret required by `POST /v1/routability/run`")
    models: Annotated[StrList, AfterValidator(lambda slugs: tuple(dict.fromkeys(slugs)))] = key(
        (), "extra slugs to track"
    )
    catalogue_filter: CatalogueFilter = key(
        default_factory=CatalogueFilter,
        meaning="`{include, exclude}` glob patterns",
        shown='`{include: ["*"]}`',
    )
    # Each key a Secret, so no dump of the section shows it.
    direct_routes: dict[str, DirectRoute] = key(
        default_factory=dict,
        meaning="per slug, a route that is not on the gateway: `base_url`, `model` (default: the slug), "
        "`api_key` (secret, optional), `reasoning_effort` (default `off`)",
        shown="none",
    )

    @field_validator("direct_routes")
    @classmethod
    def _model_defaults_to_slug(cls, routes: dict[str, DirectRoute]) -> dict[str, DirectRoute]:
        return {slug: r if r.model else r.model_copy(update={"model": slug}) for slug, r in routes.items()}
