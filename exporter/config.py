"""The canary configuration file: one YAML document, one section per component, validated all at once.

Top-level sections: ``gateway``, ``models``, ``rounds``, ``contracts``, ``exporter``, ``equality``,
``receiver``, ``routability``. Each is a frozen pydantic model (``exporter.configkit.ConfigModel``): the one
definition of its keys and defaults, from which README's configuration reference is generated
(``python -m exporter.config_reference --write``). Every command reads the sections it needs;
``canary check-config`` reads them all. ``load_config`` raises ``ConfigError`` listing every problem as
``FILE:LINE: PATH: message``.

Example::

    config = load_config("canary.yaml")
    config.rounds.interval_seconds   # 1800.0 unless configured
"""

from __future__ import annotations

import functools
import re
import secrets
from collections.abc import Mapping, MutableMapping
from functools import cached_property
from pathlib import Path
from typing import Annotated, Any, ClassVar

from pydantic import Field, ValidationInfo, create_model, field_validator, model_validator

from exporter.configkit import (
    STRINGS,
    Bool,
    ConfigError,
    ConfigModel,
    Label,
    Problems,
    SecretValue,
    StrSet,
    Url,
    What,
    choice,
    context_of,
    generatable_secrets,
    invalid,
    invalid_all,
    keep_keys,
    key,
    load_file,
    matching,
    unique,
    validate,
)
from exporter.contracts import REGISTRY
from exporter.contracts.base import Contract, ContractSettings
from exporter.contracts.ttft import TTFTSettings
from exporter.engine.config import ExporterConfig, RoundsConfig
from exporter.equality.config import EqualityConfig
from exporter.gateway.config import GatewayConfig
from exporter.receiver.config import ReceiverConfig
from exporter.routability.config import RoutabilityConfig
from exporter.sharding import owned_by

# Capabilities a model may require of every host (probed even where an endpoint does not advertise them).
KNOWN_CAPABILITIES = frozenset({"structured_outputs"})
# The sections only their own commands read, so an exporter never needs (or holds) their secrets; the
# probing commands read the others.
OWN_COMMAND_SECTIONS = frozenset({"receiver", "routability"})
PROBING_SECTIONS = frozenset({"gateway", "models", "rounds", "contracts", "exporter"})
_SLUG = re.compile(r"[A-Za-z0-9._\-]+/[A-Za-z0-9._:\-]+")
_TAG = re.compile(r"[a-z0-9._\-]+(?:/[a-z0-9._\-]+)?")
_SLUG_WHAT = "a model slug such as moonshotai/kimi-k2-0905"
_TAG_WHAT = "a lowercase provider tag such as my-vllm or deepinfra/fp8"

Tag = Annotated[str, matching(_TAG, _TAG_WHAT)]
Capability = Annotated[str, choice(tuple(sorted(KNOWN_CAPABILITIES)))]


class DirectHost(ConfigModel):
    """A plain OpenAI-compatible host serving the model (nothing to pin; discovery is this entry)."""

    name: Tag = key(meaning="the provider label")
    base_url: Url = key(meaning="the host's API root")
    api_key: SecretValue | None = key(None, "secret, optional")
    model_id: Label | None = key(None, "the model id the host expects", shown="the slug")
    supported_parameters: StrSet = key(frozenset(), "the request parameters the host supports")


class ModelConfig(ConfigModel):
    slug: Annotated[str, matching(_SLUG, _SLUG_WHAT)] = key(
        meaning="the gateway model slug, e.g. `moonshotai/kimi-k2-0905`"
    )
    via_gateway: Bool = key(
        True,
        "probe every discovered endpoint through the gateway, pinned",
        shown="`true` when the gateway is OpenRouter",
    )
    known_filtering: Annotated[frozenset[Tag], STRINGS, What("a list of strings")] = key(
        frozenset(),
        "tags of hosts known to filter the role-play prompt: probed only as the refusal contract's live "
        "positive controls",
    )
    require: Annotated[frozenset[Capability], STRINGS, What("a list of strings")] = key(
        frozenset(),
        "capabilities every host must have, probed (and judged) even where an endpoint does not advertise "
        f"them; known: {', '.join(f'`{c}`' for c in sorted(KNOWN_CAPABILITIES))}",
    )
    direct_hosts: Annotated[
        tuple[DirectHost, ...], unique("name", message="host {0} is listed twice for this model")
    ] = key((), "plain OpenAI-compatible hosts")


class CanaryConfig(ConfigModel):
    """A validated file, as the commands use it: one section per component, each the settings object that
    component takes; ``contracts`` are the enabled contracts, built. ``contract_settings`` (the file's
    ``contracts`` key) is replaced per contract registry (``file_model``)."""

    internal: ClassVar[frozenset[str]] = frozenset({"path"})

    path: Path = Path("canary.yaml")  # the file read (set by ``load_config``)
    gateway: GatewayConfig | None = key(None, "the gateway (below)", shown="none")
    models: Annotated[
        tuple[ModelConfig, ...],
        unique("slug", message="model {0} is listed twice (first as models[{first}])"),
    ] = key((), "the models to probe (below)", shown="[]")
    rounds: RoundsConfig = key(default_factory=RoundsConfig, meaning="the probe rounds")
    contract_settings: ConfigModel = key(
        default_factory=ConfigModel, meaning="per contract, its settings", alias="contracts"
    )
    exporter: ExporterConfig = key(default_factory=ExporterConfig, meaning="the exporter")
    equality: EqualityConfig = key(default_factory=EqualityConfig, meaning="the equality test")
    receiver: ReceiverConfig | None = key(None, "the quarantine receiver", shown="none")
    routability: RoutabilityConfig | None = key(None, "the routability job", shown="none")

    @field_validator("models", mode="before")
    @classmethod
    def _via_gateway_default(cls, models: object, info: ValidationInfo) -> object:
        """A model goes via the gateway unless told otherwise when the gateway is OpenRouter."""
        if not isinstance(models, list) or "gateway" not in info.data:  # an invalid gateway is reported
            return models
        gateway = info.data["gateway"]
        default = gateway is not None and gateway.kind == "openrouter"
        return [
            {"via_gateway": default, **m} if isinstance(m, dict) and m.get("via_gateway") is None else m
            for m in models
        ]

    @field_validator("models")
    @classmethod
    def _routes_exist(cls, models: tuple[ModelConfig, ...], info: ValidationInfo) -> tuple[ModelConfig, ...]:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        gateway: GatewayConfig | None = info.data.get("gateway")
        for i, model in enumerate(models):
            if "gateway" in info.data and model.via_gateway and gateway is None:
                problems.append(((i, "via_gateway"), "is true but there is no gateway section"))
            elif model.via_gateway and gateway is not None and gateway.kind != "openrouter":
                problems.append(
                    (
                        (i, "via_gateway"),
                        "an openai-compatible gateway has no endpoint discovery: set via_gateway: false and "
                        "list the hosts under direct_hosts",
                    )
                )
            if not model.via_gateway and not model.direct_hosts:
                problems.append(
                    ((i, "direct_hosts"), "a model not probed via the gateway needs at least one direct host")
                )
        if problems:
            raise invalid_all(problems)
        return models

    @field_validator("rounds")
    @classmethod
    def _shard_owns_models(cls, rounds: RoundsConfig, info: ValidationInfo) -> RoundsConfig:
        context = context_of(info)
        if not context.present(("rounds", "shard")):
            return rounds
        shard, models = rounds.shard, info.data.get("models") or ()
        slugs = [m.slug for m in models]
        owned = owned_by(slugs, shard.count)
        if slugs and not owned[shard.index]:
            taken = sorted(i for i, owner in owned.items() if owner)
            raise invalid(
                f"shard {shard.index} of {shard.count} owns none of the {len(slugs)} model(s) (they hash to "
                f"shard(s) {', '.join(map(str, taken))}): this replica would probe nothing; lower count",
                "shard",
            )
        where = shard.model_copy(update={"where": context.where(("rounds", "shard"))})
        return rounds.model_copy(update={"shard": where})

    @field_validator("contract_settings")
    @classmethod
    def _first_token_before_timeout(cls, contracts: ConfigModel, info: ValidationInfo) -> ConfigModel:
        gateway: GatewayConfig | None = info.data.get("gateway")
        for settings in dict(contracts).values():
            if (
                isinstance(settings, TTFTSettings)
                and settings.enabled
                and gateway is not None
                and settings.threshold >= gateway.timeout_seconds
            ):
                raise invalid(
                    f"ttft.threshold ({settings.threshold:g}s) must be shorter than gateway.timeout "
                    f"({gateway.timeout_seconds:g}s): a request that times out first is a transport "
                    "error, never a slow token"
                )
        return contracts

    @model_validator(mode="after")
    def _controls_are_excluded(self) -> CanaryConfig:
        """A known-filtering host refuses supported content by design: it is a positive control, never a
        route. The receiver counts as capacity only hosts no layer excludes, so each control must be a
        built-in exclusion of its model: then it is never routed to and never keeps the capacity floor from
        holding."""
        if self.receiver is None:
            return self
        excluded = {(b.model, b.provider) for b in self.receiver.builtin}
        problems = [
            (
                ("models", i, "known_filtering"),
                f"{tag} is a known-filtering control host but not a built-in exclusion of {model.slug} "
                "(receiver.builtin_exclusions): add it there with its reason, so it is never routed to "
                "and never counted as capacity",
            )
            for i, model in enumerate(self.models)
            for tag in sorted(model.known_filtering)
            if (model.slug, tag) not in excluded
        ]
        if problems:
            raise invalid_all(problems)
        return self

    @property
    def base_dir(self) -> Path:
        return self.path.parent

    @cached_property
    def contracts(self) -> tuple[Contract, ...]:
        """The enabled contracts, built from their settings (once)."""
        settings: list[ContractSettings] = list(dict(self.contract_settings).values())
        return tuple(s.build() for s in settings if s.enabled)


@functools.cache
def _file_model(contracts: tuple[type[Contract], ...]) -> type[CanaryConfig]:
    """The file's model for a set of contracts: ``contracts.<name>`` is each one's ``Settings``."""
    fields: dict[str, Any] = {  # create_model's field definitions (typed Any there)
        c.name: (c.Settings, key(default_factory=c.Settings)) for c in contracts
    }
    section = create_model("ContractsConfig", __base__=ConfigModel, **fields)
    return create_model(
        "CanaryFile",
        __base__=CanaryConfig,
        contract_settings=(section, Field(default_factory=section, validate_default=True, alias="contracts")),
    )


def file_model(registry: Mapping[str, type[Contract]] = REGISTRY) -> type[CanaryConfig]:
    """The model of the whole file (the configuration reference is generated from it)."""
    return _file_model(tuple(registry.values()))


def load_config(
    path: str | Path,
    sections: frozenset[str] | None = None,
    registry: Mapping[str, type[Contract]] = REGISTRY,
    problems: Problems | None = None,
    environ: Mapping[str, str] | None = None,
) -> CanaryConfig:
    """Load and validate a config file; ``ConfigError`` lists every problem.

    ``receiver`` and ``routability`` are read only when in ``sections`` (all when None): otherwise they are
    known (not "unknown keys") but neither read nor checked. ``registry`` is the set of contracts
    ``contracts.<name>`` may configure (default: the shipped ones). ``problems`` may be given to collect
    notes as well (``Problems(path, checking=True)``: check-config). ``environ`` replaces the process
    environment that ``{env: NAME}`` secrets are read from.
    """
    path = Path(path)
    problems = problems if problems is not None else Problems(str(path))
    data = load_file(path, problems)
    problems.raise_if_any()  # unreadable or not YAML: nothing else is worth saying
    path = path.resolve()
    skipped = frozenset() if sections is None else OWN_COMMAND_SECTIONS - sections
    read = validate(
        file_model(registry), keep_keys(data, skipped), problems, base_dir=path.parent, environ=environ
    )
    problems.raise_if_any()
    assert read is not None  # no problems: read
    return read.model_copy(update={"path": path})


def generate_local_secrets(path: str | Path, environ: MutableMapping[str, str]) -> list[str]:
    """For a local run (``canary demo --config``): set every unset ``{env: NAME, generate: true}`` secret of
    the file to a fresh random token in ``environ``; returns the names generated. Secrets already set are
    kept, so a run can be given its tokens. An unreadable file generates nothing (loading it reports why).
    """
    data = load_file(Path(path), Problems(str(path)))
    names = dict.fromkeys(name for _, name in generatable_secrets(data))  # each once, in file order
    generated = [name for name in names if not environ.get(name, "").strip()]
    for name in generated:
        environ[name] = secrets.token_urlsafe(24)
    return generated


def load_probing_config(path: str | Path, also: frozenset[str] = frozenset()) -> CanaryConfig:
    """A config for the commands that probe (plus the sections in ``also``, e.g. the demo's receiver): it
    must name at least one model."""
    config = load_config(path, PROBING_SECTIONS | also)
    if not config.models:
        raise ConfigError([f"{path}: models: no models configured; the probe needs at least one"])
    return config
