"""Fleet files: the shipped ones load; each invalid fixture fails with its exact messages, all at once."""
# ruff: noqa: E501 - the expected messages are quoted whole, as the user sees them

from __future__ import annotations

from pathlib import Path

import pytest

from exporter.configkit import ConfigError
from exporter.devtools.simulator.fleet import (
    CATALOGUE_FLEET,
    DEFAULT_FLEET,
    Delay,
    Errors,
    FaultProfile,
    load_fleet,
    patch_profile,
)

from .conftest import fleet_of

INVALID = Path(__file__).parent / "fleets" / "invalid"

EXPECTED = {
    "unknown_key.yaml": [
        "5: models[0].providers[0].profil: unknown key (known keys here: context_length, max_completion_tokens,"
        " name, pricing, profile, quantization, status, supported_parameters, tag, uptime)"
    ],
    "bad_values.yaml": [
        "1: seed: expected a whole number (got 'seven')",
        "11: models[0].providers[0].profile.ttft: p95 (0.1s) must not be below the median (0.5s)",
        "7: models[0].providers[0].profile.leading_garbage.rate: must be at most 1 (got 1.5)",
        "8: models[0].providers[0].profile.language.drift.to: expected one of en, es, pt-BR, fr, de, it, nl, pl,"
        " ru, uk, tr, ja, ko, zh-Hans, zh-Hant, id, vi (got 'pt-PT')",
        "10: models[0].providers[0].profile.refusal.match: not a valid regular expression: missing ),"
        " unterminated subpattern at position 0",
        "9: models[0].providers[0].profile.errors.statuses: unsupported status 200 (expected some of 408, 429,"
        " 500, 502, 503, 504, 524, 529)",
        "13: models[0].providers[1].profile.language.mixing.with: expected a mapping of locale to the locale"
        " mixed into it, e.g. {fr: es} (got 'fr')",
    ],
    "duplicates.yaml": [
        "5: models[0].providers[1].tag: tag same/fp8 is declared twice for this model",
        "8: models[1].providers[0].tag: expected a lowercase routing tag such as deepinfra/fp8 (got 'Deep Infra')",
        "6: models[1].id: model test/model is declared twice",
    ],
    "no_models.yaml": ["1: models: give at least one model (a list of {id, providers}) or a catalogue"],
    "inline_secret.yaml": [
        "1: api_key: a secret must be {env: NAME} or {file: PATH}; it is never written inline"
    ],
    "bad_catalogue.yaml": [
        "3: catalogue.mix.flaky: unknown behaviour (expected one of healthy, rate_limited, erroring, removed)",
        "5: catalogue.entries[0].removal: only a removed model has a removal kind",
    ],
    "not_yaml.yaml": ["2: <top>: invalid YAML: expected the node content, but found '-'"],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_invalid_fleet_reports_every_problem_with_file_line_and_path(name: str) -> None:
    path = INVALID / name
    with pytest.raises(ConfigError) as caught:
        load_fleet(path, environ={})
    assert caught.value.problems == [f"{path}:{line}" for line in EXPECTED[name]]


def test_every_invalid_fixture_has_an_expected_message() -> None:
    assert sorted(p.name for p in INVALID.glob("*.yaml")) == sorted(EXPECTED)


def test_an_inline_secret_is_never_echoed() -> None:
    with pytest.raises(ConfigError) as caught:
        load_fleet(INVALID / "inline_secret.yaml", environ={})
    assert "do-not-echo" not in str(caught.value)


def test_the_default_fleet_has_the_documented_hosts() -> None:
    fleet = load_fleet(DEFAULT_FLEET)
    (model,) = fleet.models
    assert model.id == "moonshotai/kimi-k2-0905"
    tags = {p.tag for p in model.providers}
    assert len(tags) >= 10
    for tag in ("slowpoke/fp8", "prudish/fp8", "strictguard/text", "jsonbreaker/fp8", "stormy/fp8"):
        assert tag in tags
    assert {"mixer/fp8", "garbler/bf16", "reasoner/bf16"} <= tags
    profiles = {p.tag: p.profile for p in model.providers}
    assert profiles["slowpoke/fp8"].ttft == Delay(median=2.5)
    assert profiles["garbler/bf16"].leading_garbage.rate == 0.95
    assert profiles["spacer/fp8"].leading_garbage.style == "spaced"
    assert profiles["reasoner/bf16"].reasoning
    healthy = [
        p
        for p in model.providers
        if p.profile == FaultProfile(ttft=p.profile.ttft, inter_token=p.profile.inter_token)
    ]
    assert len(healthy) >= 3
    assert all((p.profile.ttft.p95 or p.profile.ttft.median) <= 0.3 for p in healthy)


def test_the_catalogue_fleet_loads() -> None:
    fleet = load_fleet(CATALOGUE_FLEET)
    assert fleet.catalogue is not None and fleet.catalogue.count == 500


def test_secrets_come_from_the_environment(tmp_path: Path) -> None:
    text = "api_key: {env: K}\ncontrol_token: {env: C}\nmodels: [{id: a/b, providers: [{tag: x/y}]}]\n"
    fleet = fleet_of(tmp_path, text, environ={"K": "key-1", "C": "ctl-2"})
    assert fleet.api_key is not None and fleet.api_key.value == "key-1"
    assert fleet.control_token is not None and fleet.control_token.value == "ctl-2"
    with pytest.raises(ConfigError, match="environment variable K is not set or empty"):
        fleet_of(tmp_path, text, environ={"C": "ctl-2"})


def test_delay_forms(tmp_path: Path) -> None:
    text = (
        "models: [{id: a/b, providers: ["
        "{tag: a/one, profile: {ttft: 250ms}}, {tag: a/two, profile: {ttft: {fixed: 1.5s}}},"
        " {tag: a/three, profile: {ttft: {median: 200ms, p95: 600ms}}}]}]"
    )
    one, two, three = fleet_of(tmp_path, text).models[0].providers
    assert (one.profile.ttft, two.profile.ttft, three.profile.ttft) == (
        Delay(median=0.25),
        Delay(median=1.5),
        Delay(median=0.2, p95=0.6),
    )


def test_a_patch_replaces_only_the_knobs_it_names_and_null_heals() -> None:
    profile = FaultProfile(ttft=Delay(median=0.3), errors=Errors(rate=1.0))
    healed = patch_profile(profile, {"errors": None})
    assert healed.errors == Errors() and healed.ttft == Delay(median=0.3)
    slower = patch_profile(profile, {"ttft": "2s"})
    assert slower.ttft == Delay(median=2.0) and slower.errors.rate == 1.0
    assert patch_profile(profile, {"ttft": "5ms"}, replace_all=True).errors == Errors()
    with pytest.raises(ConfigError) as caught:
        patch_profile(profile, {"errors": {"rate": 2}, "bogus": 1})
    assert caught.value.problems == [
        "profile patch: errors.rate: must be at most 1 (got 2)",
        "profile patch: bogus: unknown key (known keys here: degenerate, disappear, encoding, errors, inter_token,"
        " keepalive, language, leading_garbage, reasoning, refusal, schema, style, timeout, ttft)",
    ]


def test_every_delay_problem_is_reported_with_the_keys_a_delay_has(tmp_path: Path) -> None:
    text = (
        "models: [{id: a/b, providers: [{tag: a/x, profile: {ttft: {median: 1s, fixd: 2s}}},"
        " {tag: a/y, profile: {inter_token: {p95: 1s}, keepalive: 1ms}}]}]"
    )
    with pytest.raises(ConfigError) as caught:
        fleet_of(tmp_path, text)
    f = tmp_path / "fleet.yaml"
    assert caught.value.problems == [
        f"{f}:1: models[0].providers[0].profile.ttft.fixd: unknown key (known keys here: fixed, median, p95)",
        f"{f}:1: models[0].providers[1].profile.inter_token: p95 needs a median (e.g. {{median: 200ms, p95: 600ms}})",
        f"{f}:1: models[0].providers[1].profile.keepalive: must be at least 0.01 (got '1ms')",
    ]
