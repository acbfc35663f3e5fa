"""The ``gateway:`` section: the gateway the probes and the routability job talk to, and how."""

from __future__ import annotations

from typing import Annotated

from pydantic import model_validator

from exporter.configkit import ConfigModel, Duration, SecretValue, Url, What, choice, invalid, key
from exporter.gateway.client import DEFAULT_CONNECT_TIMEOUT_SECONDS, DEFAULT_TIMEOUT_SECONDS

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"


class GatewayConfig(ConfigModel):
    kind: Annotated[
        str, choice(("openrouter", "openai-compatible")), What("openrouter or openai-compatible")
    ] = key(
        "openrouter",
        "`openrouter` (discovery + pinning); `openai-compatible` hosts have no discovery: list them as "
        "`models[].direct_hosts`",
    )
    base_url: Url = key(OPENROUTER_BASE_URL, "the API root")
    api_key: SecretValue | None = key(
        None, "secret: `{env: OPENROUTER_API_KEY}`", shown="required for `openrouter`"
    )
    timeout_seconds: Duration = key(
        DEFAULT_TIMEOUT_SECONDS, "overall request timeout", alias="timeout", ge=0.1
    )
    connect_timeout_seconds: Duration = key(
        DEFAULT_CONNECT_TIMEOUT_SECONDS, "TCP/TLS connect timeout", alias="connect_timeout", ge=0.1
    )

    @model_validator(mode="after")
    def _key_for_openrouter(self) -> GatewayConfig:
        if self.kind == "openrouter" and self.api_key is None:
            what = "a secret given as {env: NAME} or {file: PATH}"
            raise invalid(f"required key is missing ({what})", "api_key")
        return self
