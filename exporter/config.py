"""The canary configuration file: one YAML document, one section per component, validated all at once.

Top-level sections: ``gateway``, ``models``, ``rounds``, ``contracts``, ``exporter``, ``receiver``,
``routability``. Every command reads the sections it needs; ``canary check-config`` reads them all.
``load_config`` raises ``ConfigError`` listing every problem as ``FILE:LINE: PATH: message``.

Example::

    config = load_config("canary.yaml")
    config.rounds.interval_seconds   # 1800.0 unless configured
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from exporter.configkit import ConfigError, Problems, Secret, Section, generatable_secrets, load_yaml
from exporter.contracts import REGISTRY
from exporter.contracts.base import Contract
from exporter.contracts.ttft import TTFTContract
from exporter.equality.config import read_equality_config
from exporter.equality.monitor import EqualityProbeSettings
from exporter.evidence.store import DEFAULT_MAX_BYTES, DEFAULT_RETENTION_SECONDS, MIN_MAX_BYTES
from exporter.sharding import MAX_SHARDS, Shard, owned_by

OPENROUTER_BASE_URL = "https://openrouter.ai/api/v1"
DEFAULT_INTERVAL_SECONDS = 1800.0
DEFAULT_CONCURRENCY = 8
DEFAULT_EXPORTER_LISTEN = "127.0.0.1:9464"
DEFAULT_TIMEOUT_SECONDS = 60.0
DEFAULT_CONNECT_TIMEOUT_SECONDS = 10.0
# Capabilities a model may require of every host (probed even where an endpoint does not advertise them).
KNOWN_CAPABILITIES = frozenset({"structured_outputs"})
# The sections the probing commands read; the receiver's and routability's are known but left to their own
# commands, so an exporter never needs (or holds) their secrets.
PROBING_SECTIONS = frozenset({"gateway", "models", "rounds", "contracts", "exporter"})
_SLUG = re.compile(r"[A-Za-z0-9._\-]+/[A-Za-z0-9._:\-]+")
_TAG = re.compile(r"[a-z0-9._\-]+(?:/[a-z0-9._\-]+)?")
_LISTEN = re.compile(
    r"(?:\[[0-9a-fA-F:]+\]|[A-Za-z0-9.\-]+):(?:6553[0-5]|655[0-2]\d|65[0-4]\d\d|6[0-4]\d{3}|[1-5]\d{4}|\d{1,4})"
)
_URL = re.compile(r"https?://[^\s/?#\[\]]+(?::\d+)?(?:/\S*)?|https?://\[[0-9a-fA-F:]+\](?::\d+)?(?:/\S*)?")
_URL_WHAT = "an http(s) URL such as https://openrouter.ai/api/v1"
_TAG_WHAT = "a lowercase provider tag such as my-vllm or deepinfra/fp8"


@dataclass(frozen=True, slots=True)
class GatewayConfig:
    kind: str = "openrouter"  # openrouter | openai-compatible
    base_url: str = OPENROUTER_BASE_URL
    api_key: Secret | None = None
    timeout_seconds: float = DEFAULT_TIMEOUT_SECONDS
    connect_timeout_seconds: float = DEFAULT_CONNECT_TIMEOUT_SECONDS


@dataclass(frozen=True, slots=True)
class DirectHost:
    """A plain OpenAI-compatible host serving the model (nothing to pin; discovery is this entry)."""

    name: str  # becomes the provider label
    base_url: str
    api_key: Secret | None = None
    model_id: str | None = None
    supported_parameters: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class ModelConfig:
    slug: str
    via_gateway: bool = True
    known_filtering: frozenset[str] = frozenset()
    require: frozenset[str] = frozenset()
    direct_hosts: tuple[DirectHost, ...] = ()


@dataclass(frozen=True, slots=True)
class RoundsConfig:
    interval_seconds: float = DEFAULT_INTERVAL_SECONDS
    concurrency: int = DEFAULT_CONCURRENCY
    shard: Shard = field(
        default_factory=Shard
    )  # the part of `models` this replica probes (exporter.sharding)


@dataclass(frozen=True, slots=True)
class EvidenceConfig:
    """``exporter.evidence``: the evidence history (docs/evidence.md). Absent section: no history kept."""

    path: Path
    retention_seconds: float = DEFAULT_RETENTION_SECONDS
    max_bytes: int = DEFAULT_MAX_BYTES


@dataclass(frozen=True, slots=True)
class ExporterConfig:
    listen: str = DEFAULT_EXPORTER_LISTEN
    evidence: EvidenceConfig | None = None
    # The exporter's URL as people and Alertmanager notifications reach it (exported as
    # canary_exporter_external_url_info, which the suspend alert joins to build its evidence_url).
    external_url: str | None = None


@dataclass(frozen=True, slots=True)
class CanaryConfig:
    path: Path
    gateway: GatewayConfig | None
    models: tuple[ModelConfig, ...]
    rounds: RoundsConfig
    contracts: tuple[Contract, ...]
    exporter: ExporterConfig
    receiver: Any = None  # exporter.receiver.config.ReceiverConfig when the section is present
    routability: Any = None  # exporter.routability.config.RoutabilityConfig when present
    extra: Mapping[str, Any] = field(default_factory=dict)
    equality: EqualityProbeSettings = field(default_factory=EqualityProbeSettings)  # docs/equality.md

    @property
    def base_dir(self) -> Path:
        return self.path.parent


def _read_gateway(sec: Section) -> GatewayConfig:
    kind = sec.choice("kind", ("openrouter", "openai-compatible"), "openrouter")
    base_url = sec.string("base_url", OPENROUTER_BASE_URL, pattern=_URL, what=_URL_WHAT)
    gateway = GatewayConfig(
        kind=kind,
        base_url=base_url.rstrip("/") if base_url else OPENROUTER_BASE_URL,
        api_key=sec.secret("api_key", required=kind == "openrouter"),
        timeout_seconds=sec.duration("timeout", DEFAULT_TIMEOUT_SECONDS, minimum=0.1),
        connect_timeout_seconds=sec.duration("connect_timeout", DEFAULT_CONNECT_TIMEOUT_SECONDS, minimum=0.1),
    )
    sec.finish()
    return gateway


def _read_direct_host(sec: Section) -> DirectHost:
    host = DirectHost(
        name=sec.string("name", pattern=_TAG, what=_TAG_WHAT),
        base_url=(sec.string("base_url", pattern=_URL, what=_URL_WHAT) or "").rstrip("/"),
        api_key=sec.secret("api_key"),
        model_id=sec.string("model_id", None),
        supported_parameters=frozenset(sec.str_list("supported_parameters", [])),
    )
    sec.finish()
    return host


def _read_model(sec: Section, gateway: GatewayConfig | None) -> ModelConfig:
    has_gateway = gateway is not None
    hosts = tuple(_read_direct_host(h) for h in sec.section_list("direct_hosts"))
    model = ModelConfig(
        slug=sec.string("slug", pattern=_SLUG, what="a model slug such as moonshotai/kimi-k2-0905"),
        via_gateway=sec.boolean(
            "via_gateway", has_gateway and gateway is not None and gateway.kind == "openrouter"
        ),
        known_filtering=frozenset(sec.str_list("known_filtering", [])),
        require=frozenset(sec.str_list("require", [])),
        direct_hosts=hosts,
    )
    for tag in sorted(model.known_filtering):
        if not _TAG.fullmatch(tag):
            sec.problem("known_filtering", f"{tag!r} is not a provider tag ({_TAG_WHAT})")
    for capability in sorted(model.require - KNOWN_CAPABILITIES):
        sec.problem(
            "require", f"unknown capability {capability!r} (known: {', '.join(sorted(KNOWN_CAPABILITIES))})"
        )
    if model.via_gateway and not has_gateway:
        sec.problem("via_gateway", "is true but there is no gateway section")
    elif model.via_gateway and gateway is not None and gateway.kind != "openrouter":
        sec.problem(
            "via_gateway",
            "an openai-compatible gateway has no endpoint discovery: set via_gateway: false and list the "
            "hosts under direct_hosts",
        )
    if not model.via_gateway and not hosts:
        sec.problem("direct_hosts", "a model not probed via the gateway needs at least one direct host")
    names = [h.name for h in hosts]
    if len(set(names)) != len(names):
        sec.problem("direct_hosts", "host names must be unique within a model")
    sec.finish()
    return model


def _read_contracts(sec: Section, registry: Mapping[str, type[Contract]]) -> tuple[Contract, ...]:
    contracts: list[Contract] = []
    for name, cls in registry.items():
        sub = sec.section(name)
        enabled = sub.boolean("enabled", True)
        contract = cls.read_settings(sub)
        if enabled:
            contracts.append(contract)
    sec.finish()
    return tuple(contracts)


def _read_shard(rounds: Section, slugs: list[str]) -> Shard:
    """``rounds.shard: {index, count}``; absent means the whole model list (``Shard()``)."""
    if not rounds.has("shard"):
        rounds.raw("shard")
        return Shard()
    sec = rounds.section("shard")
    count = sec.integer("count", minimum=1, maximum=MAX_SHARDS)
    index = sec.integer("index", minimum=0, maximum=MAX_SHARDS - 1)
    sec.finish()
    if count is None or index is None:
        return Shard()
    if index >= count:
        sec.problem("index", f"must be less than count ({count}): shards are numbered 0 to {count - 1}")
        return Shard()
    owned = owned_by(slugs, count)
    if slugs and not owned[index]:
        taken = sorted(i for i, models in owned.items() if models)
        rounds.problem(
            "shard",
            f"shard {index} of {count} owns none of the {len(slugs)} model(s) (they hash to shard(s) "
            f"{', '.join(map(str, taken))}): this replica would probe nothing; lower count",
        )
    return Shard(index, count, where=f"{rounds.problems.source}:{rounds.line_of('shard')}")


def _read_exporter(sec: Section, base_dir: Path) -> ExporterConfig:
    listen = sec.string(
        "listen", DEFAULT_EXPORTER_LISTEN, pattern=_LISTEN, what="HOST:PORT such as 127.0.0.1:9464"
    )
    external_url = sec.string(
        "external_url", None, pattern=_URL, what="an http(s) URL such as http://canary:9464"
    )
    evidence = None
    if sec.has("evidence"):
        ev = sec.section("evidence")
        raw_path = ev.string(
            "path", what="a file path such as evidence.sqlite3 (relative to the config file)"
        )
        evidence = EvidenceConfig(
            path=base_dir / (raw_path or "evidence.sqlite3"),
            retention_seconds=ev.duration("retention", DEFAULT_RETENTION_SECONDS, minimum=3600),
            max_bytes=ev.integer("max_bytes", DEFAULT_MAX_BYTES, minimum=MIN_MAX_BYTES),
        )
        ev.finish()
    sec.finish()
    return ExporterConfig(
        listen=listen, evidence=evidence, external_url=external_url.rstrip("/") if external_url else None
    )


def read_config(
    root: Section,
    path: Path,
    sections: frozenset[str] | None = None,
    registry: Mapping[str, type[Contract]] = REGISTRY,
) -> CanaryConfig:
    """Read the sections of an already-parsed file (all when ``sections`` is None); problems accumulate in
    ``root.problems``. Sections not asked for are known (not "unknown keys") but neither read nor checked.
    ``registry`` is the set of contracts ``contracts.<name>`` may configure (default: the shipped ones)."""
    gateway = _read_gateway(root.section("gateway")) if root.has("gateway") else None
    root.raw("gateway")
    models = tuple(_read_model(m, gateway) for m in root.section_list("models"))
    slugs = [m.slug for m in models]
    if len(set(slugs)) != len(slugs):
        root.problem("models", "each model slug may appear only once")
    rounds_sec = root.section("rounds")
    rounds = RoundsConfig(
        interval_seconds=rounds_sec.duration("interval", DEFAULT_INTERVAL_SECONDS, minimum=0.05),
        concurrency=rounds_sec.integer("concurrency", DEFAULT_CONCURRENCY, minimum=1, maximum=1024),
        shard=_read_shard(rounds_sec, slugs),
    )
    rounds_sec.finish()
    contracts = _read_contracts(root.section("contracts"), registry)
    threshold = next((c.threshold_seconds for c in contracts if isinstance(c, TTFTContract)), None)
    if gateway is not None and threshold is not None and threshold >= gateway.timeout_seconds:
        root.problem(
            "contracts",
            f"ttft.threshold ({threshold:g}s) must be shorter than gateway.timeout "
            f"({gateway.timeout_seconds:g}s): a request that times out first is a transport error, "
            "never a slow token",
        )
    exporter = _read_exporter(root.section("exporter"), path.parent)
    equality = read_equality_config(root.section("equality"))
    receiver = routability = None
    root.raw("receiver"), root.raw("routability")  # known sections, read below when present
    if root.has("receiver") and (sections is None or "receiver" in sections):
        from exporter.receiver.config import read_receiver_config

        receiver = read_receiver_config(root.section("receiver"), path.parent)
    if root.has("routability") and (sections is None or "routability" in sections):
        from exporter.routability.config import read_routability_config

        routability = read_routability_config(root.section("routability"), path.parent)
    if receiver is not None:
        _check_controls_are_excluded(root, models, receiver)
    root.finish()
    return CanaryConfig(
        path, gateway, models, rounds, contracts, exporter, receiver, routability, equality=equality
    )


def _check_controls_are_excluded(root: Section, models: tuple[ModelConfig, ...], receiver: Any) -> None:
    """A known-filtering host refuses supported content by design: it is a positive control, never a route.
    The receiver counts as capacity only hosts no layer excludes, so each control must be a built-in
    exclusion of its model: then it is never routed to and never keeps the capacity floor from holding."""
    excluded = {(b.model, b.provider) for b in receiver.builtin}
    for i, model in enumerate(models):
        for tag in sorted(model.known_filtering):
            if (model.slug, tag) not in excluded:
                root.problem(
                    f"models[{i}].known_filtering",
                    f"{tag} is a known-filtering control host but not a built-in exclusion of {model.slug} "
                    "(receiver.builtin_exclusions): add it there with its reason, so it is never routed to "
                    "and never counted as capacity",
                )


def load_config(
    path: str | Path,
    sections: frozenset[str] | None = None,
    registry: Mapping[str, type[Contract]] = REGISTRY,
    problems: Problems | None = None,
) -> CanaryConfig:
    """Load and validate a config file (only ``sections`` when given); ``ConfigError`` lists every problem.

    ``problems`` may be given to collect notes as well (``Problems(path, checking=True)``: check-config).
    """
    path = Path(path)
    problems = problems if problems is not None else Problems(str(path))
    root = Section.load_file(path, problems)
    problems.raise_if_any()  # unreadable or not YAML: nothing else is worth saying
    config = read_config(root, path.resolve(), sections, registry)
    problems.raise_if_any()
    return config


def generate_local_secrets(path: str | Path, environ: MutableMapping[str, str]) -> list[str]:
    """For a local run (``canary demo --config``): set every unset ``{env: NAME, generate: true}`` secret of
    the file to a fresh random token in ``environ``; returns the names generated. Secrets already set are
    kept, so a run can be given its tokens. An unreadable file generates nothing (loading it reports why).
    """
    try:
        data = load_yaml(Path(path).read_text(encoding="utf-8"), Problems(str(path)))
    except (OSError, UnicodeDecodeError):
        return []
    generated = [name for name in generatable_secrets(data) if not environ.get(name, "").strip()]
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


__all__ = [
    "CanaryConfig",
    "ConfigError",
    "EvidenceConfig",
    "GatewayConfig",
    "ModelConfig",
    "generate_local_secrets",
    "load_config",
    "load_probing_config",
    "read_config",
]
