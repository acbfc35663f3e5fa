"""Provider routing as the gateway does it: validate the ``provider`` object, then resolve candidates.

Pure: ``parse_preferences`` checks the object (unknown keys are a 400, like the gateway's strict schema);
``resolve`` filters the listed endpoints by ``only``/``ignore`` (tags, with base-slug matching),
``quantizations``, ``max_tokens`` against ``max_completion_tokens`` and ``require_parameters``, orders them
(``order`` first, otherwise price-weighted load balancing) and keeps fallbacks only when allowed.

Example::

    >>> matches("deepinfra", "deepinfra/fp8"), matches("deepinfra", "deepinfra/flex")
    (True, False)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal

from exporter.devtools.simulator import wire
from exporter.devtools.simulator.fleet import Model, Provider

PREFERENCE_KEYS = frozenset(
    {
        "order", "allow_fallbacks", "only", "ignore", "require_parameters", "data_collection", "zdr",
        "enforce_distillable_text", "quantizations", "sort", "preferred_min_throughput",
        "preferred_max_latency", "max_price",
    }
)  # fmt: skip
_LIST_KEYS = ("order", "only", "ignore", "quantizations")
_BOOL_KEYS = ("allow_fallbacks", "require_parameters", "zdr", "enforce_distillable_text")
SERVICE_TIERS = frozenset({"priority", "flex"})
# Request fields that are parameters an endpoint may or may not support (for require_parameters).
_PARAMETER_FIELDS = (
    "temperature", "top_p", "top_k", "min_p", "top_a", "frequency_penalty", "presence_penalty",
    "repetition_penalty", "logit_bias", "logprobs", "top_logprobs", "seed", "stop", "tools", "tool_choice",
    "parallel_tool_calls", "reasoning", "reasoning_effort", "max_tokens", "max_completion_tokens",
)  # fmt: skip


@dataclass(frozen=True, slots=True)
class Preferences:
    only: tuple[str, ...] | None = None
    order: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    quantizations: tuple[str, ...] | None = None
    allow_fallbacks: bool = True
    require_parameters: bool = False

    @property
    def pin(self) -> str | None:
        """The endpoint a request asks for first (for the request log)."""
        if self.only:
            return self.only[0]
        return self.order[0] if self.order else None


def parse_preferences(value: object) -> Preferences | list[dict[str, object]]:
    """The ``provider`` object, or the list of validation issues (zod-style, as the gateway reports them).

    >>> parse_preferences({"onlyy": ["a"]})[0]["code"]
    'unrecognized_keys'
    """
    if value is None:
        return Preferences()
    if not isinstance(value, dict):
        return [_issue("invalid_type", [], "Expected object, received " + type(value).__name__)]
    issues: list[dict[str, object]] = []
    unknown = sorted(k for k in value if k not in PREFERENCE_KEYS)
    if unknown:
        quoted = ", ".join(f"'{k}'" for k in unknown)
        issues.append(
            _issue("unrecognized_keys", [], f"Unrecognized key(s) in object: {quoted}", keys=unknown)
        )
    for key in _LIST_KEYS:
        item = value.get(key)
        if item is not None and not (isinstance(item, list) and all(isinstance(i, str) for i in item)):
            issues.append(_issue("invalid_type", [key], "Expected array of strings"))
    for key in _BOOL_KEYS:
        item = value.get(key)
        if item is not None and not isinstance(item, bool):
            issues.append(_issue("invalid_type", [key], f"Expected boolean, received {type(item).__name__}"))
    if issues:
        return issues
    return Preferences(
        only=_tuple(value.get("only")),
        order=_tuple(value.get("order")),
        ignore=_tuple(value.get("ignore")) or (),
        quantizations=_tuple(value.get("quantizations")),
        allow_fallbacks=value.get("allow_fallbacks", True),
        require_parameters=value.get("require_parameters", False),
    )


def _tuple(value: object) -> tuple[str, ...] | None:
    return tuple(str(v) for v in value) if isinstance(value, list) else None


def _issue(code: str, path: list[str], message: str, **extra: object) -> dict[str, object]:
    return {"code": code, **extra, "path": ["provider", *path], "message": message}


def matches(entry: str, tag: str) -> bool:
    """Whether a routing-list entry selects the endpoint ``tag``: the full tag, or its base slug (which
    does not reach service-tier endpoints such as ``openai/priority``).

    As strict as OpenRouter, so a pin that works here works there: entries are provider *slugs*, compared
    exactly (case-sensitive, no trimming); a display name such as ``DeepInfra`` never selects anything.
    Source: OpenRouter's "Provider Routing" guide (``guides/routing/provider-selection.mdx``, "Targeting
    Specific Provider Endpoints": ``only``/``order``/``ignore`` take provider slugs; a base slug matches
    every variant but service tiers; a full slug matches one endpoint), summarised with the field reports of
    display names 404-ing in ``only`` and being dropped from ``ignore`` in shared/reference/openrouter.md
    §2.1 and §11.6.

    >>> matches("DeepInfra", "deepinfra/fp8"), matches("deepinfra/FP8", "deepinfra/fp8")
    (False, False)
    """
    if entry == tag:
        return True
    base, _, variant = tag.partition("/")
    return entry == base and variant not in SERVICE_TIERS


def requested_parameters(body: Mapping[str, object]) -> set[str]:
    """The endpoint parameters a request uses (what ``require_parameters`` checks)."""
    params = {name for name in _PARAMETER_FIELDS if body.get(name) is not None}
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        params.add("response_format")
        if response_format.get("type") == "json_schema":
            params.add("structured_outputs")
    return params


def max_tokens_of(body: Mapping[str, object]) -> int | None:
    """``max_completion_tokens`` if given, else ``max_tokens``."""
    for key in ("max_completion_tokens", "max_tokens"):
        value = body.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def resolve(
    model: Model,
    listed: Sequence[Provider],
    prefs: Preferences,
    body: Mapping[str, object],
    rng: random.Random,
) -> list[Provider] | wire.ErrorEnvelope:
    """Pick the endpoints that may serve this request, in the order they would be tried (the first is
    primary, the rest fallbacks); or, when none may, the gateway's own error envelope (its ``error.code`` is
    the HTTP status)."""
    if not listed:
        return wire.unavailable("no_endpoints", model.id)
    candidates = list(listed)
    if prefs.only is not None:
        candidates = [p for p in candidates if any(matches(e, p.tag) for e in prefs.only)]
        if not candidates:
            available = [p.tag for p in listed]
            return wire.no_allowed_providers(available, list(prefs.only))
    if prefs.ignore:
        candidates = [p for p in candidates if not any(matches(e, p.tag) for e in prefs.ignore)]
        if not candidates:
            return wire.unavailable("no_endpoints", model.id, excluded_by=["allowed_providers"])
    if prefs.quantizations is not None:
        wanted = {q.lower() for q in prefs.quantizations}
        candidates = [p for p in candidates if (p.quantization or "unknown") in wanted]
        if not candidates:
            detail = f"no endpoint has quantization {', '.join(prefs.quantizations)}"
            return wire.constraint_filtered(model.id, "quantization", "quantizations", detail)
    limit = max_tokens_of(body)
    if limit is not None:
        candidates = [
            p for p in candidates if p.max_completion_tokens is None or limit <= p.max_completion_tokens
        ]
        if not candidates:
            detail = f"max_tokens {limit} is above every endpoint's max_completion_tokens"
            return wire.constraint_filtered(model.id, "context_length", "max_tokens", detail)
    needed = requested_parameters(body)
    if prefs.require_parameters:
        candidates = [p for p in candidates if needed <= set(p.supported_parameters)]
        if not candidates:
            detail = f"no endpoint supports all of: {', '.join(sorted(needed))}"
            return wire.constraint_filtered(model.id, "require_parameters", "parameters", detail)
    elif "structured_outputs" in needed:
        # A soft preference: endpoints that can honour the schema are preferred when there are any.
        supporting = [p for p in candidates if "structured_outputs" in p.supported_parameters]
        candidates = supporting or candidates
    return _order(candidates, prefs, rng)


def _order(candidates: list[Provider], prefs: Preferences, rng: random.Random) -> list[Provider]:
    balanced = _load_balanced(candidates, rng)
    if prefs.order:
        primary: list[Provider] = []
        for entry in prefs.order:
            primary.extend(p for p in balanced if matches(entry, p.tag) and p not in primary)
        if not prefs.allow_fallbacks:
            return primary or balanced[:1]
        return primary + [p for p in balanced if p not in primary]
    if prefs.only is not None:
        return balanced  # fallbacks stay inside the allow-list
    return balanced if prefs.allow_fallbacks else balanced[:1]


def _load_balanced(candidates: list[Provider], rng: random.Random) -> list[Provider]:
    """A weighted shuffle favouring cheap endpoints (weight = 1 / price², as the gateway describes)."""
    pool = list(candidates)
    ordered: list[Provider] = []
    while pool:
        weights = [
            1.0 / max(float(Decimal(p.pricing.prompt) + Decimal(p.pricing.completion)), 1e-9) ** 2
            for p in pool
        ]
        pick = rng.choices(range(len(pool)), weights=weights, k=1)[0]
        ordered.append(pool.pop(pick))
    return ordered
