"""The routability: section: defaults, a full example, and every problem reported at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.configkit import ConfigError, Problems, Secret, load_yaml, validate
from exporter.routability.catalogue import CatalogueFilter
from exporter.routability.config import DirectRoute, RoutabilityConfig
from exporter.routability.schedule import Schedule

FULL = """\
routability:
  listen: 0.0.0.0:9500
  store: state/routability.sqlite3
  schedule: 12h
  pace: 500ms
  timeout: 30s
  max_tokens: 32
  reasoning_effort: minimal
  listed_signal: false
  recent_unavailable: 2h
  trigger_token: {env: RT_TOKEN}
  models: [acme/private-chat, acme/private-chat, other/x]
  catalogue_filter:
    include: ["acme/*", "moonshotai/*"]
    exclude: ["*:free"]
  direct_routes:
    acme/private-chat:
      base_url: https://llm.acme.internal/v1
      model: private-chat-2025
      api_key: {env: ACME_KEY}
      reasoning_effort: low
    other/x:
      base_url: http://127.0.0.1:8000/v1
"""


def read(
    text: str, base: Path = Path("/etc/canary"), environ: dict[str, str] | None = None
) -> RoutabilityConfig:
    problems = Problems("canary.yaml")
    data = load_yaml(text, problems)
    config = validate(
        RoutabilityConfig, data, problems, base_dir=base, environ=environ or {}, at=("routability",)
    )
    problems.raise_if_any()
    assert config is not None
    return config


def test_defaults() -> None:
    config = read("routability: {}\n")
    assert (config.host, config.port) == ("127.0.0.1", 9466)
    assert config.store == Path("/etc/canary/routability.sqlite3")
    assert (config.schedule, config.pace, config.max_tokens, config.reasoning_effort) == (
        Schedule(at_minute=5 * 60),  # daily at 05:00 UTC
        2.0,
        16,
        "low",
    )
    assert config.recent_unavailable == 6 * 3600.0 and config.trigger_token is None and config.listed_signal


def test_full_example() -> None:
    config = read(FULL, environ={"RT_TOKEN": "s3cret", "ACME_KEY": "k-acme"})
    assert (config.host, config.port, config.store) == (
        "0.0.0.0", 9500, Path("/etc/canary/state/routability.sqlite3"),
    )  # fmt: skip
    assert (config.schedule, config.pace, config.timeout, config.max_tokens) == (
        Schedule(at_minute=None, interval=43200.0), 0.5, 30.0, 32,
    )  # fmt: skip
    assert (config.reasoning_effort, config.listed_signal, config.recent_unavailable) == (
        "minimal",
        False,
        7200.0,
    )
    assert config.trigger_token is not None and config.trigger_token.value == "s3cret"
    assert "s3cret" not in repr(config) and "k-acme" not in repr(config)
    assert config.models == ("acme/private-chat", "other/x")
    assert config.catalogue_filter == CatalogueFilter(include=("acme/*", "moonshotai/*"), exclude=("*:free",))
    assert config.direct_routes == {
        "acme/private-chat": DirectRoute(
            base_url="https://llm.acme.internal/v1",
            model="private-chat-2025",
            api_key=Secret("env:ACME_KEY", "k-acme"),
            reasoning_effort="low",
        ),
        "other/x": DirectRoute(base_url="http://127.0.0.1:8000/v1", model="other/x"),
    }


def test_reasoning_effort_off_sends_none() -> None:
    assert read("routability: {reasoning_effort: 'off'}\n").reasoning_effort is None


def test_every_problem_is_reported_at_once_with_its_line() -> None:
    text = """\
routability:
  listen: localhost
  max_tokens: 1
  pace: fast
  schedule: 10s
  trigger_token: s3cret-inline
  colour: blue
  catalogue_filter: {include: "acme/*", typo: 1}
  direct_routes:
    acme/x:
      base_url: ftp://nope
      key: {env: MISSING}
"""
    with pytest.raises(ConfigError) as info:
        read(text)
    problems = info.value.problems
    expected = [
        "canary.yaml:2: routability.listen: expected HOST:PORT",
        "canary.yaml:3: routability.max_tokens: 1 fails on reasoning models",
        "canary.yaml:4: routability.pace: expected a duration",
        "canary.yaml:5: routability.schedule: an interval must be at least 60s (got '10s')",
        "canary.yaml:6: routability.trigger_token: ",
        "canary.yaml:7: routability.colour: unknown key",
        "canary.yaml:8: routability.catalogue_filter.include: expected a list of non-empty strings",
        "canary.yaml:8: routability.catalogue_filter.typo: unknown key",
        "canary.yaml:11: routability.direct_routes.acme/x.base_url: expected an http(s) base URL",
        "canary.yaml:12: routability.direct_routes.acme/x.key: unknown key",
    ]
    for prefix in expected:
        assert any(p.startswith(prefix) for p in problems), (prefix, problems)


def test_a_missing_secret_names_the_variable() -> None:
    with pytest.raises(ConfigError, match="environment variable RT_TOKEN is not set"):
        read("routability: {trigger_token: {env: RT_TOKEN}}\n")


def test_a_key_missing_or_unknown_in_a_route_or_the_filter_says_what_fits() -> None:
    text = "routability:\n  direct_routes:\n    acme/x: {model: m, key: k}\n  catalogue_filter: {typo: 1}\n"
    with pytest.raises(ConfigError) as info:
        read(text)
    url = "an http(s) base URL such as https://openrouter.ai/api/v1"
    assert info.value.problems == [
        "canary.yaml:4: routability.catalogue_filter.typo: unknown key (known keys here: exclude, include)",
        f"canary.yaml:3: routability.direct_routes.acme/x.base_url: required key is missing ({url})",
        "canary.yaml:3: routability.direct_routes.acme/x.key: unknown key (known keys here: api_key, "
        "base_url, model, reasoning_effort)",
    ]
