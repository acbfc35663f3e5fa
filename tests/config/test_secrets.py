"""A secret's value is reachable only as ``Secret.value``: no generic dump or log of a config shows it."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import pickle
from pathlib import Path

import httpx
import pytest
from pydantic import BaseModel

from exporter.config import load_config
from exporter.configkit import Secret
from exporter.devtools.simulator.fleet import load_fleet
from exporter.routability.transport import HttpxTransport

VALUES = {
    "T_GATEWAY": "value-gateway-1",
    "T_DIRECT": "value-direct-2",
    "T_WEBHOOK": "value-webhook-3",
    "T_ADMIN": "value-admin-4",
    "T_READ": "value-read-5",
    "T_TRIGGER": "value-trigger-6",
    "T_ROUTE": "value-route-7",
}
CANARY = """\
gateway: {api_key: {env: T_GATEWAY}}
models:
  - slug: a/b
    direct_hosts: [{name: h/x, base_url: "http://127.0.0.1:1/v1", api_key: {env: T_DIRECT}}]
receiver:
  store_dir: store
  webhook_token: {env: T_WEBHOOK}
  admin_token: {env: T_ADMIN}
  read_token: {env: T_READ}
routability:
  trigger_token: {env: T_TRIGGER}
  direct_routes: {a/c: {base_url: "http://127.0.0.1:2/v1", api_key: {env: T_ROUTE}}}
"""
FLEET = (
    "api_key: {env: T_GATEWAY}\ncontrol_token: {env: T_ADMIN}\nmodels: [{id: a/b, providers: [{tag: x/y}]}]\n"
)


def _dumps(value: object) -> str:
    """Every generic rendering of ``value`` a program might log or write."""
    texts = [repr(value), str(value), f"{value}"]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        texts.append(repr(dataclasses.asdict(value)))
    if isinstance(value, BaseModel):
        texts += [
            repr(value.model_dump()),
            value.model_dump_json(),
            json.dumps(value.model_dump(mode="json")),
        ]
    return "\n".join(texts)


@pytest.fixture
def environ(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, value in VALUES.items():
        monkeypatch.setenv(name, value)


@pytest.mark.usefixtures("environ")
def test_no_dump_of_the_canary_config_shows_a_secret(tmp_path: Path) -> None:
    (tmp_path / "canary.yaml").write_text(CANARY)
    config = load_config(tmp_path / "canary.yaml")
    assert config.receiver is not None and config.receiver.admin_token.value == VALUES["T_ADMIN"]
    assert config.routability is not None and config.routability.trigger_token is not None
    sections = [config, config.gateway, *config.models, config.receiver, config.routability]
    rendered = "\n".join(_dumps(section) for section in sections)
    assert "***" in rendered
    for value in VALUES.values():
        assert value not in rendered


@pytest.mark.usefixtures("environ")
def test_a_routability_pass_holds_its_keys_as_secrets_until_the_request(tmp_path: Path) -> None:
    (tmp_path / "canary.yaml").write_text(CANARY)
    config = load_config(tmp_path / "canary.yaml")
    assert config.routability is not None
    settings = config.routability
    route = settings.direct_routes["a/c"]
    assert isinstance(route.api_key, Secret) and route.api_key.value == VALUES["T_ROUTE"]
    rendered = _dumps(settings) + _dumps(route)
    assert "***" in rendered and VALUES["T_ROUTE"] not in rendered
    sent: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request.headers["authorization"])
        return httpx.Response(200, json={})

    async def one_request() -> None:
        transport = HttpxTransport(transport=httpx.MockTransport(answer))
        await transport.request("GET", f"{route.base_url}/models", route.api_key)
        await transport.aclose()

    asyncio.run(one_request())
    assert sent == [f"Bearer {VALUES['T_ROUTE']}"]  # revealed where it is used: the request's header


@pytest.mark.usefixtures("environ")
def test_no_dump_of_a_fleet_shows_a_secret(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    (tmp_path / "fleet.yaml").write_text(FLEET)
    fleet = load_fleet(tmp_path / "fleet.yaml")
    assert fleet.api_key is not None and fleet.api_key.value == VALUES["T_GATEWAY"]
    logging.getLogger("test").warning("fleet %s key %s %r", fleet, fleet.api_key, fleet.control_token)
    rendered = _dumps(fleet) + caplog.text
    assert "***" in rendered
    assert VALUES["T_GATEWAY"] not in rendered and VALUES["T_ADMIN"] not in rendered


def test_a_secret_has_no_fields_to_walk() -> None:
    secret = Secret("env:X", "value-walk-8")
    assert not dataclasses.is_dataclass(secret) and not hasattr(secret, "__dict__")
    assert secret == Secret("env:X", "value-walk-8") and secret != Secret("env:X", "other")
    assert pickle.loads(pickle.dumps(secret)) == secret  # still a value: it may cross a process boundary
