"""The simulator's fleet file: models, their virtual providers and each provider's fault profile.

A fleet file is YAML read strictly with ``exporter.configkit``: unknown keys are rejected and every problem
is reported at once as ``FILE:LINE: PATH: message``. Every fault knob is optional; an empty profile is a
healthy host. The parsed values are frozen dataclasses; the running simulator swaps whole profiles when a
control request patches one (``patch_profile``).

Example::

    fleet = load_fleet("exporter/devtools/simulator/fleets/default.yaml")
    fleet.model("moonshotai/kimi-k2-0905").provider("slowpoke/fp8").profile.ttft.sample(rng)
"""

from __future__ import annotations

import math
import os
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType

from exporter.configkit import ConfigError, Problems, Secret, Section
from exporter.devtools.simulator.locales import DEFAULT_MIXING_PAIRS, LOCALES
from exporter.devtools.simulator.styles import STYLES, Style

DEFAULT_FLEET = Path(__file__).with_name("fleets") / "default.yaml"
CATALOGUE_FLEET = Path(__file__).with_name("fleets") / "catalogue.yaml"

ERROR_STATUSES = (408, 429, 500, 502, 503, 504, 524, 529)
REFUSAL_STYLES = ("content_filter", "empty", "text_en", "text_zh", "error", "soft")
SCHEMA_KINDS = ("invalid_json", "mismatch", "code_fenced", "truncated")
ENCODING_KINDS = ("mojibake", "replacement", "control")
MOJIBAKE_CODECS = ("cp1252", "latin-1", "cp1251", "gb18030", "big5", "cp949", "cp932", "euc_jp")
GARBAGE_STYLES = ("token", "before_opener")  # a token fragment; or one in front of "*" / a dash
DEGENERATE_KINDS = ("repetition", "truncated")
TIMEOUT_STAGES = ("accept", "stream")
BEHAVIOURS = ("healthy", "rate_limited", "erroring", "removed")
REMOVALS = ("model_not_found", "no_endpoints", "model_deprecated")
QUANTIZATIONS = (
    "int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown",
)  # fmt: skip
DEFAULT_PARAMETERS = (
    "max_tokens", "temperature", "top_p", "stop", "seed", "response_format", "structured_outputs",
    "tools", "tool_choice",
)  # fmt: skip

_TAG = re.compile(r"[a-z0-9][a-z0-9.-]*(/[a-z0-9][a-z0-9._-]*)?")
_MODEL_ID = re.compile(r"[a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._:-]*")
_PRICE = re.compile(r"\d+(\.\d+)?")
_Z95 = 1.6448536269514722  # standard normal quantile of 0.95


@dataclass(frozen=True, slots=True)
class Delay:
    """A latency distribution: fixed, or log-normal given by its median and 95th percentile (seconds).

    >>> Delay(median=0.2).sample(random.Random(1))
    0.2
    """

    median: float = 0.0
    p95: float | None = None

    def sample(self, rng: random.Random) -> float:
        if self.p95 is None or self.p95 <= self.median or self.median <= 0:
            return self.median
        sigma = math.log(self.p95 / self.median) / _Z95
        return self.median * math.exp(rng.gauss(0.0, sigma))


@dataclass(frozen=True, slots=True)
class LeadingGarbage:
    rate: float = 0.0
    style: str = "token"


@dataclass(frozen=True, slots=True)
class Degenerate:
    """Prose replies that loop (``repetition``) or stop a few words in, finish ``stop`` (``truncated``)."""

    rate: float = 0.0
    kind: str = "repetition"


@dataclass(frozen=True, slots=True)
class EncodingFault:
    rate: float = 0.0
    kind: str = "mojibake"
    codec: str = "cp1252"


@dataclass(frozen=True, slots=True)
class Drift:
    rate: float = 0.0
    to: str = "en"


@dataclass(frozen=True, slots=True)
class Mixing:
    rate: float = 0.0
    fraction: float = 0.4
    pairs: Mapping[str, str] = field(default_factory=lambda: DEFAULT_MIXING_PAIRS)


@dataclass(frozen=True, slots=True)
class LanguageFaults:
    drift: Drift = Drift()
    mixing: Mixing = Mixing()


@dataclass(frozen=True, slots=True)
class Refusal:
    rate: float = 0.0
    style: str = "content_filter"
    match: str | None = None  # regex on the last user message; None: every request

    def applies_to(self, last_user_message: str) -> bool:
        return self.rate > 0 and (self.match is None or re.search(self.match, last_user_message) is not None)


@dataclass(frozen=True, slots=True)
class SchemaFault:
    rate: float = 0.0
    kind: str = "invalid_json"


@dataclass(frozen=True, slots=True)
class Errors:
    rate: float = 0.0
    statuses: tuple[int, ...] = (429, 502, 503)
    mid_stream_rate: float = 0.0


@dataclass(frozen=True, slots=True)
class Timeout:
    rate: float = 0.0
    hang: float = 30.0
    stage: str = "accept"  # accept: nothing is sent; stream: headers and the role chunk, then silence


@dataclass(frozen=True, slots=True)
class Disappear:
    after_requests: int | None = None
    listed: bool = True


@dataclass(frozen=True, slots=True)
class FaultProfile:
    """How one virtual provider misbehaves. The default value is a healthy, fast host."""

    ttft: Delay = Delay(median=0.1)
    inter_token: Delay = Delay()
    keepalive: float = 1.0
    reasoning: bool = False
    style: Style = "healthy"  # how it answers open-ended prompts (exporter/devtools/simulator/styles.py)
    leading_garbage: LeadingGarbage = LeadingGarbage()
    encoding: EncodingFault = EncodingFault()
    language: LanguageFaults = LanguageFaults()
    refusal: Refusal = Refusal()
    schema: SchemaFault = SchemaFault()
    degenerate: Degenerate = Degenerate()
    errors: Errors = Errors()
    timeout: Timeout = Timeout()
    disappear: Disappear = Disappear()


PROFILE_KEYS = tuple(f.name for f in fields(FaultProfile))


@dataclass(frozen=True, slots=True)
class Provider:
    """One virtual endpoint of a model, as listed, plus its fault profile."""

    tag: str
    display_name: str
    quantization: str | None = "fp8"
    supported_parameters: tuple[str, ...] = DEFAULT_PARAMETERS
    max_completion_tokens: int | None = 16384
    context_length: int = 131072
    price_prompt: str = "0.0000005"  # USD per token, as the gateway lists it
    price_completion: str = "0.000002"
    status: int = 0
    uptime: float | None = 99.5
    profile: FaultProfile = FaultProfile()

    @property
    def base_slug(self) -> str:
        return self.tag.split("/", 1)[0]


@dataclass(frozen=True, slots=True)
class Model:
    id: str
    name: str
    providers: tuple[Provider, ...]
    description: str = ""
    context_length: int = 131072
    created: int = 1757000000
    chat: bool = True  # False: an embedding/image model that chat completions refuse (wrong_endpoint)
    removal: str | None = (
        None  # catalogue models that are gone: model_not_found|no_endpoints|model_deprecated
    )
    behaviour: str | None = None  # catalogue models: the behaviour they were generated with

    def provider(self, tag: str) -> Provider:
        for provider in self.providers:
            if provider.tag == tag:
                return provider
        raise KeyError(tag)


@dataclass(frozen=True, slots=True)
class CatalogueEntry:
    """One explicitly declared catalogue model."""

    id: str
    behaviour: str = "healthy"
    removal: str | None = None  # for removed models: which answer; None lets the seed choose
    chat: bool = True


@dataclass(frozen=True, slots=True)
class Catalogue:
    """A large generated catalogue for the routability job: many cheap models with one behaviour each."""

    count: int = 0
    seed: int = 0
    mix: tuple[tuple[str, float], ...] = (("healthy", 1.0),)
    non_chat: int = 0
    entries: tuple[CatalogueEntry, ...] = ()
    ttft: Delay = Delay(median=0.005)


@dataclass(frozen=True, slots=True)
class Fleet:
    """A whole fleet file."""

    seed: int
    models: tuple[Model, ...]
    catalogue: Catalogue | None = None
    api_key: Secret | None = None
    require_key: bool = True  # a request without a bearer key is a 401, as on OpenRouter
    control_token: Secret | None = None
    outage: bool = False
    generation_404_window: float = 0.5
    source: str = "<fleet>"

    def model(self, model_id: str) -> Model:
        for model in self.models:
            if model.id == model_id:
                return model
        raise KeyError(model_id)


def load_fleet(path: str | Path, environ: Mapping[str, str] | None = None) -> Fleet:
    """Read and validate a fleet file; raises ``ConfigError`` listing every problem.

    >>> load_fleet(DEFAULT_FLEET).model("moonshotai/kimi-k2-0905").provider("slowpoke/fp8").tag
    'slowpoke/fp8'
    """
    problems = Problems(str(path))
    root = Section.load_file(path, problems)
    problems.raise_if_any()  # unreadable or not YAML: nothing more worth saying
    fleet = _read_fleet(root, problems, environ, str(path))
    problems.raise_if_any()
    return fleet


def parse_fleet(text: str, source: str = "<fleet>", environ: Mapping[str, str] | None = None) -> Fleet:
    """``load_fleet`` for text already in memory (``source`` names it in error messages)."""
    problems = Problems(source)
    root = Section.load(text, problems)
    problems.raise_if_any()
    fleet = _read_fleet(root, problems, environ, source)
    problems.raise_if_any()
    return fleet


def patch_profile(profile: FaultProfile, patch: object, replace_all: bool = False) -> FaultProfile:
    """Apply a control-endpoint patch: each top-level key given replaces that knob; ``null`` resets it.

    With ``replace_all`` the patch is the whole new profile. Raises ``ConfigError`` on a bad patch.

    >>> patch_profile(FaultProfile(errors=Errors(rate=1.0)), {"errors": None}).errors.rate
    0.0
    """
    problems = Problems("profile patch")
    if not isinstance(patch, dict):
        raise ConfigError(["profile patch: <top>: expected a JSON object of profile knobs"])
    section = Section(patch, "", 0, problems)
    parsed = _read_profile(section, problems)
    problems.raise_if_any()
    if replace_all:
        return parsed
    changes = {key: getattr(parsed, key) for key in patch if key in PROFILE_KEYS}
    return replace(profile, **changes)


# -- readers ---------------------------------------------------------------------------------------------


def _read_fleet(root: Section, problems: Problems, environ: Mapping[str, str] | None, source: str) -> Fleet:
    env = dict(environ) if environ is not None else None
    seed = root.integer("seed", default=0)
    outage = root.boolean("outage", default=False)
    window = root.duration("generation_404_window", default=0.5)
    api_key = _read_secret(root, "api_key", env)
    require_key = root.boolean("require_key", default=True)
    if api_key is not None and not require_key:
        root.problem("require_key", "is false but api_key is set: a fleet with a key always requires it")
    control_token = _read_secret(root, "control_token", env)
    catalogue = _read_catalogue(root.section("catalogue")) if root.has("catalogue") else None
    if catalogue is None and not root.has("models"):
        root.problem("models", "give at least one model (a list of {id, providers}) or a catalogue")
    model_sections = root.section_list("models")
    models = []
    seen: set[str] = set()
    for section in model_sections:
        model = _read_model(section)
        if model is None:
            continue
        if model.id in seen:
            section.problem("id", f"model {model.id} is declared twice")
        seen.add(model.id)
        models.append(model)
    if catalogue is not None:
        for i, entry in enumerate(catalogue.entries):
            if entry.id in seen:
                problems.add(
                    root.line_of("catalogue"),
                    f"catalogue.entries[{i}].id",
                    f"model {entry.id} is also declared under models",
                )
    root.finish()
    return Fleet(
        seed=seed,
        models=tuple(models),
        catalogue=catalogue,
        api_key=api_key,
        require_key=require_key,
        control_token=control_token,
        outage=outage,
        generation_404_window=window,
        source=source,
    )


def _read_secret(root: Section, key: str, environ: dict[str, str] | None) -> Secret | None:
    """``key: {env: NAME}`` / ``{file: PATH}``, or the shorthand ``key_env: NAME``."""
    shorthand = f"{key}_env"
    if root.has(shorthand):
        name = root.string(shorthand, default=None)
        if root.has(key):
            root.problem(shorthand, f"give either {key} or {shorthand}, not both")
            root.raw(key)
            return None
        if name is None:
            return None
        value = (environ if environ is not None else os.environ).get(name, "")
        if not value.strip():
            root.problem(shorthand, f"environment variable {name} is not set or empty")
            return None
        return Secret(f"env:{name}", value.strip())
    if root.has(key) and not isinstance(root.raw(key), dict | None):
        # Never echo the value: it may be the secret itself.
        root.problem(key, "give {env: NAME} or {file: PATH}; secrets are never written inline")
        return None
    return root.secret(key, environ=environ)


def _read_model(section: Section) -> Model | None:
    model_id = _identifier(section, "id", _MODEL_ID, "a model id such as moonshotai/kimi-k2-0905")
    name = section.string("name", default=None)
    description = section.string("description", default="")
    context_length = section.integer("context_length", default=131072, minimum=1)
    created = section.integer("created", default=1757000000, minimum=0)
    providers: list[Provider] = []
    tags: set[str] = set()
    for provider_section in section.section_list("providers", required=True):
        provider = _read_provider(provider_section)
        if provider is None:
            continue
        if provider.tag in tags:
            provider_section.problem("tag", f"tag {provider.tag} is declared twice for this model")
        tags.add(provider.tag)
        providers.append(provider)
    section.finish()
    if model_id is None:
        return None
    return Model(
        id=model_id,
        name=name or model_id,
        providers=tuple(providers),
        description=description,
        context_length=context_length,
        created=created,
    )


def _read_provider(section: Section) -> Provider | None:
    tag = _identifier(section, "tag", _TAG, "a lowercase routing tag such as deepinfra/fp8")
    display = section.string("name", default=None)
    quantization = section.choice("quantization", QUANTIZATIONS, default="fp8")
    params = section.str_list("supported_parameters", default=list(DEFAULT_PARAMETERS))
    max_completion = section.integer("max_completion_tokens", default=16384, minimum=1)
    context_length = section.integer("context_length", default=131072, minimum=1)
    status = section.integer("status", default=0, minimum=-10, maximum=0)
    uptime = section.number("uptime", default=99.5, minimum=0, maximum=100)
    pricing = section.section("pricing")
    price_prompt = _price(pricing, "prompt", "0.0000005")
    price_completion = _price(pricing, "completion", "0.000002")
    pricing.finish()
    profile = _read_profile(section.section("profile"), section.problems)
    section.finish()
    if tag is None:
        return None
    return Provider(
        tag=tag,
        display_name=display or tag.split("/", 1)[0].capitalize(),
        quantization=quantization,
        supported_parameters=tuple(params),
        max_completion_tokens=max_completion,
        context_length=context_length,
        price_prompt=price_prompt,
        price_completion=price_completion,
        status=status,
        uptime=uptime,
        profile=profile,
    )


def _identifier(section: Section, key: str, pattern: re.Pattern[str], expected: str) -> str | None:
    value: str | None = section.string(key)
    if value is not None and not pattern.fullmatch(value):
        section.problem(key, f"expected {expected} (got {value!r})")
        return None
    return value


def _price(section: Section, key: str, default: str) -> str:
    value = section.raw(key)
    if value is None:
        return default
    if isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) and value >= 0:
        return format(Decimal(repr(value)), "f")
    if isinstance(value, str) and _PRICE.fullmatch(value):
        return value
    section.problem(key, f"expected a price in USD per token such as 0.0000005 (got {value!r})")
    return default


def _read_profile(section: Section, problems: Problems) -> FaultProfile:
    default = FaultProfile()
    ttft = _read_delay(section, "ttft", default.ttft)
    inter_token = _read_delay(section, "inter_token", default.inter_token)
    keepalive = section.duration("keepalive", default=default.keepalive, minimum=0.01)
    reasoning = section.boolean("reasoning", default=False)
    reply_style: Style = section.choice("style", STYLES, default="healthy")

    sub = section.section("leading_garbage")
    style = sub.choice("style", GARBAGE_STYLES, default="token")
    leading_garbage = LeadingGarbage(rate=_rate(sub), style=style)
    sub.finish()

    sub = section.section("degenerate")
    degenerate = Degenerate(rate=_rate(sub), kind=sub.choice("kind", DEGENERATE_KINDS, default="repetition"))
    sub.finish()

    sub = section.section("encoding")
    encoding = EncodingFault(
        rate=_rate(sub),
        kind=sub.choice("kind", ENCODING_KINDS, default="mojibake"),
        codec=sub.choice("codec", MOJIBAKE_CODECS, default="cp1252"),
    )
    sub.finish()

    language = _read_language(section.section("language"))

    sub = section.section("refusal")
    match = sub.string("match", default=None)
    if match is not None:
        try:
            re.compile(match)
        except re.error as exc:
            sub.problem("match", f"not a valid regular expression: {exc}")
            match = None
    refusal = Refusal(
        rate=_rate(sub), style=sub.choice("style", REFUSAL_STYLES, default="content_filter"), match=match
    )
    sub.finish()

    sub = section.section("schema")
    schema = SchemaFault(rate=_rate(sub), kind=sub.choice("kind", SCHEMA_KINDS, default="invalid_json"))
    sub.finish()

    sub = section.section("errors")
    statuses = _read_statuses(sub)
    errors = Errors(
        rate=_rate(sub),
        statuses=statuses,
        mid_stream_rate=sub.number("mid_stream_rate", default=0.0, minimum=0, maximum=1),
    )
    sub.finish()

    sub = section.section("timeout")
    timeout = Timeout(
        rate=_rate(sub),
        hang=sub.duration("hang", default=30.0, minimum=0.0),
        stage=sub.choice("stage", TIMEOUT_STAGES, default="accept"),
    )
    sub.finish()

    sub = section.section("disappear")
    disappear = Disappear(
        after_requests=sub.integer("after_requests", default=None, minimum=0),
        listed=sub.boolean("listed", default=True),
    )
    sub.finish()

    section.finish()
    return FaultProfile(
        ttft=ttft,
        inter_token=inter_token,
        keepalive=keepalive,
        reasoning=reasoning,
        style=reply_style,
        leading_garbage=leading_garbage,
        degenerate=degenerate,
        encoding=encoding,
        language=language,
        refusal=refusal,
        schema=schema,
        errors=errors,
        timeout=timeout,
        disappear=disappear,
    )


def _rate(section: Section) -> float:
    rate: float = section.number("rate", default=0.0, minimum=0, maximum=1)
    return rate


def _read_statuses(section: Section) -> tuple[int, ...]:
    value = section.raw("statuses")
    if value is None:
        return Errors().statuses
    allowed = ", ".join(str(s) for s in ERROR_STATUSES)
    if not isinstance(value, list) or not value:
        section.problem("statuses", f"expected a non-empty list of HTTP statuses from {allowed}")
        return Errors().statuses
    bad = [s for s in value if isinstance(s, bool) or s not in ERROR_STATUSES]
    if bad:
        section.problem("statuses", f"unsupported status {bad[0]!r} (expected some of {allowed})")
        return Errors().statuses
    return tuple(int(s) for s in value)


def _read_delay(section: Section, key: str, default: Delay) -> Delay:
    """``key: 200ms`` (fixed), ``{fixed: 1.5s}`` or ``{median: 200ms, p95: 600ms}``."""
    if not section.has(key):
        section.raw(key)
        return default
    value = section.raw(key)
    if not isinstance(value, dict):
        seconds = section.duration(key, default=default.median)
        return Delay(median=seconds)
    sub = section.section(key)
    fixed = sub.duration("fixed", default=None)
    median = sub.duration("median", default=None)
    p95 = sub.duration("p95", default=None)
    sub.finish()
    if fixed is not None:
        if median is not None or p95 is not None:
            section.problem(key, "give either fixed or median (with an optional p95), not both")
        return Delay(median=fixed)
    if median is None:
        if p95 is not None:
            section.problem(key, "p95 needs a median (e.g. {median: 200ms, p95: 600ms})")
        else:
            section.problem(key, "give fixed: DURATION or median: DURATION (with an optional p95)")
        return default
    if p95 is not None and p95 < median:
        section.problem(key, f"p95 ({p95:g}s) must not be below the median ({median:g}s)")
        return Delay(median=median)
    return Delay(median=median, p95=p95)


def _read_language(section: Section) -> LanguageFaults:
    sub = section.section("drift")
    drift = Drift(rate=_rate(sub), to=sub.choice("to", LOCALES, default="en"))
    sub.finish()

    sub = section.section("mixing")
    pairs: dict[str, str] = dict(DEFAULT_MIXING_PAIRS)
    pair_section = sub.section("with")
    for locale, partner in pair_section.items():
        if locale not in LOCALES:
            pair_section.problem(locale, f"unknown locale (expected one of {', '.join(LOCALES)})")
        elif partner not in LOCALES:
            pair_section.problem(locale, f"unknown locale {partner!r} (expected one of {', '.join(LOCALES)})")
        elif partner == locale:
            pair_section.problem(locale, "a locale cannot be mixed with itself")
        else:
            pairs[locale] = partner
    mixing = Mixing(
        rate=_rate(sub),
        fraction=sub.number("fraction", default=0.4, minimum=0.05, maximum=0.95),
        pairs=MappingProxyType(pairs),
    )
    sub.finish()
    section.finish()
    return LanguageFaults(drift=drift, mixing=mixing)


def _read_catalogue(section: Section) -> Catalogue:
    count = section.integer("count", default=0, minimum=0, maximum=100000)
    seed = section.integer("seed", default=0)
    non_chat = section.integer("non_chat", default=0, minimum=0, maximum=100000)
    ttft = _read_delay(section, "ttft", Catalogue().ttft)
    mix_section = section.section("mix")
    mix: list[tuple[str, float]] = []
    for behaviour, weight in mix_section.items():
        if behaviour not in BEHAVIOURS:
            mix_section.problem(behaviour, f"unknown behaviour (expected one of {', '.join(BEHAVIOURS)})")
        elif isinstance(weight, bool) or not isinstance(weight, int | float) or weight < 0:
            mix_section.problem(behaviour, f"expected a non-negative share such as 0.8 (got {weight!r})")
        else:
            mix.append((behaviour, float(weight)))
    if not mix:
        mix = [("healthy", 1.0)]
    elif sum(w for _, w in mix) <= 0:
        section.problem("mix", "the shares must not all be zero")
        mix = [("healthy", 1.0)]
    entries: list[CatalogueEntry] = []
    seen: set[str] = set()
    for entry_section in section.section_list("entries"):
        entry_id = _identifier(entry_section, "id", _MODEL_ID, "a model id such as acme/model-7b")
        behaviour = entry_section.choice("behaviour", BEHAVIOURS, default="healthy")
        removal = entry_section.choice("removal", REMOVALS, default=None)
        chat = entry_section.boolean("chat", default=True)
        if removal is not None and behaviour != "removed":
            entry_section.problem("removal", "only a removed model has a removal kind")
        entry_section.finish()
        if entry_id is None:
            continue
        if entry_id in seen:
            entry_section.problem("id", f"catalogue model {entry_id} is declared twice")
        seen.add(entry_id)
        entries.append(CatalogueEntry(id=entry_id, behaviour=behaviour, removal=removal, chat=chat))
    section.finish()
    return Catalogue(
        count=count, seed=seed, mix=tuple(mix), non_chat=non_chat, entries=tuple(entries), ttft=ttft
    )
