"""The simulator's fleet file: models, their virtual providers and each provider's fault profile.

A fleet file is YAML read strictly with ``exporter.configkit`` into the frozen models below: unknown keys are
rejected and every problem is reported at once as ``FILE:LINE: PATH: message``. Every fault knob is
optional; an empty profile is a healthy host. The running simulator swaps whole profiles when a control
request patches one (``patch_profile``).

Example::

    fleet = load_fleet("exporter/devtools/simulator/fleets/default.yaml")
    [p.profile.ttft.sample(rng) for p in fleet.models[0].providers]
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable, Mapping
from decimal import Decimal
from pathlib import Path
from typing import Annotated, ClassVar

from pydantic import BeforeValidator, Field, PlainValidator, ValidationInfo, field_validator, model_validator

from exporter.configkit import (
    Bool,
    ConfigError,
    ConfigModel,
    Duration,
    Int,
    Number,
    Problems,
    ReadContext,
    SecretValue,
    StrList,
    Text,
    choice,
    invalid,
    invalid_all,
    is_number,
    load_file,
    matching,
    seconds,
    unique,
    validate,
)
from exporter.devtools.simulator.locales import DEFAULT_MIXING_PAIRS, LOCALES
from exporter.devtools.simulator.styles import STYLES, Style

DEFAULT_FLEET = Path(__file__).with_name("fleets") / "default.yaml"
CATALOGUE_FLEET = Path(__file__).with_name("fleets") / "catalogue.yaml"

ERROR_STATUSES = (408, 429, 500, 502, 503, 504, 524, 529)
REFUSAL_STYLES = ("content_filter", "empty", "text_en", "text_zh", "error", "soft")
SCHEMA_KINDS = ("invalid_json", "mismatch", "code_fenced", "truncated")
ENCODING_KINDS = ("mojibake", "replacement", "control")
MOJIBAKE_CODECS = ("cp1252", "latin-1", "cp1251", "gb18030", "big5", "cp949", "cp932", "euc_jp")
# a token fragment; one in front of "*" / a dash; one spaced from the capitalised first word ("ation The")
GARBAGE_STYLES = ("token", "before_opener", "spaced")
DEGENERATE_KINDS = ("repetition", "truncated")
TIMEOUT_STAGES = ("accept", "stream")
BEHAVIOURS = ("healthy", "rate_limited", "erroring", "removed")
REMOVALS = ("model_not_found", "no_endpoints", "model_deprecated")
QUANTIZATIONS = (
    "int4", "int8", "fp4", "mxfp4", "nvfp4", "fp6", "fp8", "mxfp8", "fp16", "bf16", "fp32", "unknown",
)  # fmt: skip
DEFAULT_PARAMETERS = (
    "max_tokens", "temperature", "top_p", "stop", "seed", "response_format", "structured_outputs",
    "tools", "tool_choice", "logprobs", "top_logprobs",
)  # fmt: skip

_TAG = re.compile(r"[a-z0-9][a-z0-9.-]*(/[a-z0-9][a-z0-9._-]*)?")
_MODEL_ID = re.compile(r"[a-z0-9][a-z0-9._-]*/[a-z0-9][a-z0-9._:-]*")
_PRICE = re.compile(r"\d+(\.\d+)?")
_Z95 = 1.6448536269514722  # standard normal quantile of 0.95


Rate = Annotated[Number, Field(ge=0, le=1)]
ModelId = Annotated[str, matching(_MODEL_ID, "a model id such as moonshotai/kimi-k2-0905")]


class Delay(ConfigModel):
    """A latency distribution: fixed, or log-normal given by its median and 95th percentile (seconds).
    A file writes ``200ms`` (fixed), ``{fixed: 1.5s}`` or ``{median: 200ms, p95: 600ms}``.

    >>> Delay(median=0.2).sample(random.Random(1))
    0.2
    """

    median: Duration = 0.0
    p95: Duration | None = None

    @model_validator(mode="before")
    @classmethod
    def _forms(cls, data: object, info: ValidationInfo) -> object:
        if not isinstance(info.context, ReadContext) or isinstance(data, Delay):
            return data
        if not isinstance(data, dict):
            return {"median": seconds(data)}
        if unknown := [k for k in data if k not in ("fixed", "median", "p95")]:
            raise invalid_all(((k,), "unknown key (known keys here: fixed, median, p95)") for k in unknown)
        fixed, median, p95 = (data.get(k) for k in ("fixed", "median", "p95"))
        if fixed is not None:
            if median is not None or p95 is not None:
                raise invalid("give either fixed or median (with an optional p95), not both")
            return {"median": fixed}
        if median is None and p95 is not None:
            raise invalid("p95 needs a median (e.g. {median: 200ms, p95: 600ms})")
        if median is None:
            raise invalid("give fixed: DURATION or median: DURATION (with an optional p95)")
        return data

    @model_validator(mode="after")
    def _ordered(self) -> Delay:
        if self.p95 is not None and self.p95 < self.median:
            raise invalid(f"p95 ({self.p95:g}s) must not be below the median ({self.median:g}s)")
        return self

    def sample(self, rng: random.Random) -> float:
        if self.p95 is None or self.p95 <= self.median or self.median <= 0:
            return self.median
        sigma = math.log(self.p95 / self.median) / _Z95
        return self.median * math.exp(rng.gauss(0.0, sigma))


class Fault(ConfigModel):
    """A fault a provider shows on a share (``rate``, 0..1) of its replies; 0 (the default) is never."""

    rate: Rate = 0.0


class LeadingGarbage(Fault):
    style: Annotated[str, choice(GARBAGE_STYLES)] = "token"


class Degenerate(Fault):
    """Prose replies that loop (``repetition``) or stop a few words in, finish ``stop`` (``truncated``)."""

    kind: Annotated[str, choice(DEGENERATE_KINDS)] = "repetition"


class EncodingFault(Fault):
    kind: Annotated[str, choice(ENCODING_KINDS)] = "mojibake"
    codec: Annotated[str, choice(MOJIBAKE_CODECS)] = "cp1252"


class Drift(Fault):
    to: Annotated[str, choice(LOCALES)] = "en"


def _pairs(value: object) -> dict[str, str]:
    """``with: {LOCALE: PARTNER}`` over the default pairs."""
    if not isinstance(value, Mapping):
        example = "e.g. {fr: es}"
        raise invalid(f"expected a mapping of locale to the locale mixed into it, {example} (got {value!r})")
    known = ", ".join(LOCALES)
    problems = [
        ((locale,), f"unknown locale (expected one of {known})")
        if locale not in LOCALES
        else ((locale,), f"unknown locale {partner!r} (expected one of {known})")
        if partner not in LOCALES
        else ((locale,), "a locale cannot be mixed with itself")
        for locale, partner in value.items()
        if locale not in LOCALES or partner not in LOCALES or partner == locale
    ]
    if problems:
        raise invalid_all(problems)
    return {**DEFAULT_MIXING_PAIRS, **value}


class Mixing(Fault):
    fraction: Annotated[Number, Field(ge=0.05, le=0.95)] = 0.4
    pairs: Annotated[dict[str, str], PlainValidator(_pairs)] = Field(
        default_factory=lambda: dict(DEFAULT_MIXING_PAIRS), validation_alias="with"
    )


class LanguageFaults(ConfigModel):
    drift: Drift = Drift()
    mixing: Mixing = Mixing()


class Refusal(Fault):
    style: Annotated[str, choice(REFUSAL_STYLES)] = "content_filter"
    match: Text | None = None  # regex on the last user message; None: every request

    @field_validator("match")
    @classmethod
    def _regex(cls, match: str | None) -> str | None:
        try:
            re.compile(match or "")
        except re.error as exc:
            raise invalid(f"not a valid regular expression: {exc}") from None
        return match

    def applies_to(self, last_user_message: str) -> bool:
        return self.rate > 0 and (self.match is None or re.search(self.match, last_user_message) is not None)


class SchemaFault(Fault):
    kind: Annotated[str, choice(SCHEMA_KINDS)] = "invalid_json"


def _statuses(value: object) -> object:
    allowed = ", ".join(str(s) for s in ERROR_STATUSES)
    if isinstance(value, tuple):
        return value
    if not isinstance(value, list) or not value:
        raise invalid(f"expected a non-empty list of HTTP statuses from {allowed}")
    if bad := [s for s in value if isinstance(s, bool) or s not in ERROR_STATUSES]:
        raise invalid(f"unsupported status {bad[0]!r} (expected some of {allowed})")
    return tuple(value)


class Errors(Fault):
    statuses: Annotated[tuple[int, ...], BeforeValidator(_statuses)] = (429, 502, 503)
    mid_stream_rate: Rate = 0.0


class Timeout(Fault):
    hang: Duration = 30.0
    # accept: nothing is sent; stream: headers and the role chunk, then silence
    stage: Annotated[str, choice(TIMEOUT_STAGES)] = "accept"


class Disappear(ConfigModel):
    after_requests: Annotated[Int, Field(ge=0)] | None = None
    listed: Bool = True


class FaultProfile(ConfigModel):
    """How one virtual provider misbehaves. The default value is a healthy, fast host."""

    ttft: Delay = Delay(median=0.1)
    inter_token: Delay = Delay()
    keepalive: Annotated[Duration, Field(ge=0.01)] = 1.0
    reasoning: Bool = False
    style: Annotated[Style, choice(STYLES)] = "healthy"  # how it answers open-ended prompts (styles.py)
    leading_garbage: LeadingGarbage = LeadingGarbage()
    encoding: EncodingFault = EncodingFault()
    language: LanguageFaults = LanguageFaults()
    refusal: Refusal = Refusal()
    # ``schema`` would shadow BaseModel.schema: the field has another name, the file key is ``schema``.
    schema_fault: SchemaFault = Field(default_factory=SchemaFault, alias="schema")
    degenerate: Degenerate = Degenerate()
    errors: Errors = Errors()
    timeout: Timeout = Timeout()
    disappear: Disappear = Disappear()


def _price(value: object) -> str:
    if is_number(value) and value >= 0:
        return format(Decimal(repr(value)), "f")
    if isinstance(value, str) and _PRICE.fullmatch(value):
        return value
    raise invalid(f"expected a price in USD per token such as 0.0000005 (got {value!r})")


Price = Annotated[str, BeforeValidator(_price)]


class Pricing(ConfigModel):
    """USD per token, as the gateway lists it."""

    prompt: Price = "0.0000005"
    completion: Price = "0.000002"


def _derived(data: object, keys: tuple[str, ...], source: str, derive: Callable[[str], str]) -> object:
    """``data`` with ``keys[0]`` set to ``derive(data[source])`` when none of ``keys`` is given."""
    if not isinstance(data, dict) or any(data.get(k) is not None for k in keys):
        return data
    value = data.get(source)
    return {**data, keys[0]: derive(value)} if isinstance(value, str) and value.strip() else data


class Provider(ConfigModel):
    """One virtual endpoint of a model, as listed, plus its fault profile."""

    tag: Annotated[str, matching(_TAG, "a lowercase routing tag such as deepinfra/fp8")]
    display_name: Text = Field(alias="name")  # default: the tag's provider, capitalised
    quantization: Annotated[str, choice(QUANTIZATIONS)] | None = "fp8"
    supported_parameters: StrList = DEFAULT_PARAMETERS
    max_completion_tokens: Annotated[Int, Field(ge=1)] | None = 16384
    context_length: Annotated[Int, Field(ge=1)] = 131072
    pricing: Pricing = Pricing()
    status: Annotated[Int, Field(ge=-10, le=0)] = 0
    uptime: Annotated[Number, Field(ge=0, le=100)] | None = 99.5
    profile: FaultProfile = FaultProfile()

    @model_validator(mode="before")
    @classmethod
    def _display_name(cls, data: object) -> object:
        return _derived(data, ("name", "display_name"), "tag", lambda tag: tag.split("/", 1)[0].capitalize())

    @property
    def base_slug(self) -> str:
        return self.tag.split("/", 1)[0]


class Model(ConfigModel):
    id: ModelId
    name: Text  # default: the id
    providers: Annotated[
        tuple[Provider, ...], unique("tag", message="tag {0} is declared twice for this model")
    ]
    description: str = ""
    context_length: Annotated[Int, Field(ge=1)] = 131072
    created: Annotated[Int, Field(ge=0)] = 1757000000
    # Not keys of a fleet file: set for generated catalogue models.
    internal: ClassVar[frozenset[str]] = frozenset({"chat", "removal", "behaviour"})
    chat: bool = True  # False: an embedding/image model that chat completions refuse (wrong_endpoint)
    removal: str | None = None  # catalogue models that are gone: one of REMOVALS, the availability code
    behaviour: str | None = None  # catalogue models: the behaviour they were generated with

    @model_validator(mode="before")
    @classmethod
    def _name(cls, data: object) -> object:
        return _derived(data, ("name",), "id", str)


class CatalogueEntry(ConfigModel):
    """One explicitly declared catalogue model."""

    id: Annotated[str, matching(_MODEL_ID, "a model id such as acme/model-7b")]
    behaviour: Annotated[str, choice(BEHAVIOURS)] = "healthy"
    removal: Annotated[str, choice(REMOVALS)] | None = None  # removed models: which answer; None: the seed's
    chat: Bool = True

    @model_validator(mode="after")
    def _removal_of_removed(self) -> CatalogueEntry:
        if self.removal is not None and self.behaviour != "removed":
            raise invalid("only a removed model has a removal kind", "removal")
        return self


def _mix(value: object) -> object:
    if not isinstance(value, dict):
        return value
    problems = [
        ((behaviour,), f"unknown behaviour (expected one of {', '.join(BEHAVIOURS)})")
        if behaviour not in BEHAVIOURS
        else ((behaviour,), f"expected a non-negative share such as 0.8 (got {weight!r})")
        for behaviour, weight in value.items()
        if behaviour not in BEHAVIOURS
        or isinstance(weight, bool)
        or not isinstance(weight, int | float)
        or weight < 0
    ]
    if problems:
        raise invalid_all(problems)
    if value and sum(value.values()) <= 0:
        raise invalid("the shares must not all be zero")
    return tuple((b, float(w)) for b, w in value.items()) or (("healthy", 1.0),)


class Catalogue(ConfigModel):
    """A large generated catalogue for the routability job: many cheap models with one behaviour each."""

    count: Annotated[Int, Field(ge=0, le=100000)] = 0
    seed: Int = 0
    mix: Annotated[tuple[tuple[str, float], ...], BeforeValidator(_mix)] = (("healthy", 1.0),)
    non_chat: Annotated[Int, Field(ge=0, le=100000)] = 0
    entries: Annotated[
        tuple[CatalogueEntry, ...], unique("id", message="catalogue model {0} is declared twice")
    ] = ()
    ttft: Delay = Delay(median=0.005)


class Fleet(ConfigModel):
    """A whole fleet file."""

    seed: Int = 0
    models: Annotated[tuple[Model, ...], unique("id", message="model {0} is declared twice")] = ()
    catalogue: Catalogue | None = None
    api_key: SecretValue | None = None
    require_key: Bool = True  # a request without a bearer key is a 401, as on OpenRouter
    control_token: SecretValue | None = None
    outage: Bool = False
    generation_404_window: Duration = 0.5

    @field_validator("require_key")
    @classmethod
    def _key_is_required(cls, require_key: bool, info: ValidationInfo) -> bool:
        if info.data.get("api_key") is not None and not require_key:
            raise invalid("is false but api_key is set: a fleet with a key always requires it")
        return require_key

    @model_validator(mode="after")
    def _something_to_serve(self) -> Fleet:
        if self.catalogue is None and "models" not in self.model_fields_set:
            raise invalid("give at least one model (a list of {id, providers}) or a catalogue", "models")
        declared = {m.id for m in self.models}
        entries = self.catalogue.entries if self.catalogue is not None else ()
        if problems := [
            (("catalogue", "entries", i, "id"), f"model {e.id} is also declared under models")
            for i, e in enumerate(entries)
            if e.id in declared
        ]:
            raise invalid_all(problems)
        return self


def load_fleet(path: str | Path, environ: Mapping[str, str] | None = None) -> Fleet:
    """Read and validate a fleet file; raises ``ConfigError`` listing every problem.

    >>> load_fleet(DEFAULT_FLEET).models[0].id
    'moonshotai/kimi-k2-0905'
    """
    problems = Problems(str(path))
    data = load_file(path, problems)
    problems.raise_if_any()  # unreadable or not YAML: nothing more worth saying
    base_dir = Path(path).resolve().parent
    fleet = validate(Fleet, {} if data is None else data, problems, base_dir=base_dir, environ=environ)
    problems.raise_if_any()
    assert fleet is not None  # no problems: read
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
    parsed = validate(FaultProfile, patch, problems)
    problems.raise_if_any()
    assert parsed is not None  # no problems: read
    if replace_all:
        return parsed
    names = {info.alias or name: name for name, info in FaultProfile.model_fields.items()}
    return profile.model_copy(update={names[k]: getattr(parsed, names[k]) for k in patch if k in names})
