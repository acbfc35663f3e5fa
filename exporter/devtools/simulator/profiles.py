"""Pure fault decisions: which faults one request to one virtual provider gets, at the configured rates.

Rates are applied *evenly* rather than by independent coin flips: the ``n``-th request eligible for a fault
gets it when ``floor((n + 1) * rate + phase) > floor(n * rate + phase)``, with a phase seeded from the fleet
seed, model, provider and fault. Over any ``N`` consecutive eligible requests a fault fires
``floor(rate * N)`` or ``ceil(rate * N)`` times (so ``rate: 0.95`` is 19 of every 20), and a run replays
exactly. Everything else random (which status, which sentences, the TTFT sample) comes from a
``random.Random`` seeded from the fleet seed, the provider's request number and the request body.

Example::

    >>> sum(fires(0.95, n, 0.3) for n in range(20))
    19
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from exporter.devtools.simulator.fleet import FaultProfile

# The per-provider counters a request can advance, one per fault kind.
FAULTS = (
    "timeout", "errors", "refusal", "schema", "leading_garbage", "encoding", "degenerate", "drift", "mixing",
    "mid_stream",
)  # fmt: skip


class Kind(StrEnum):
    """What the request asks for, recognised from the request itself."""

    STRUCTURED = "structured"  # response_format json_schema on an endpoint that supports it
    JSON_OBJECT = "json_object"
    LANGUAGE = "language"  # prose asked in a locale recognised from the prompt's own text
    ROLEPLAY = "roleplay"  # prose whose language is not recognised (answered in English)
    PING = "ping"  # catalogue models: a minimal "OK" answer
    OPEN = "open"  # one user message, no persona, sampled (temperature > 0): the equality test's shape
    DECLARED = "declared"  # a contract's probe, answered as the contract says a healthy host answers it


@dataclass(frozen=True, slots=True)
class Plan:
    """The faults decided for one request; ``consumed`` names the counters the request advanced."""

    ttft: float
    inter_token: float
    timeout: bool = False
    error_status: int | None = None
    refusal: str | None = None  # a refusal style
    schema_fault: str | None = None
    leading_garbage: bool = False
    encoding: str | None = None
    encoding_codec: str = "cp1252"
    drift_to: str | None = None
    mix_with: str | None = None
    mix_fraction: float = 0.4
    mid_stream_error: bool = False
    garbage_style: str = "token"
    degenerate: str | None = None  # repetition | truncated (prose replies)
    consumed: frozenset[str] = frozenset()


def fires(rate: float, index: int, phase: float) -> bool:
    """Whether the ``index``-th eligible request (from 0) gets a fault of this ``rate``.

    >>> [fires(0.5, n, 0.0) for n in range(4)]
    [False, True, False, True]
    """
    if rate <= 0:
        return False
    if rate >= 1:
        return True
    return math.floor((index + 1) * rate + phase) > math.floor(index * rate + phase)


def phase(seed: int, model: str, tag: str, fault: str) -> float:
    """A reproducible offset in [0, 1) so that providers with equal rates do not fail in lockstep."""
    digest = hashlib.sha256(f"{seed}|{model}|{tag}|{fault}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def request_rng(seed: int, model: str, tag: str, number: int, body: Mapping[str, object]) -> random.Random:
    """The RNG for one request: fleet seed + provider + the provider's request number + the request body."""
    canonical = json.dumps(
        [body.get("messages"), body.get("response_format"), body.get("max_tokens")],
        sort_keys=True,
        default=str,
    )
    digest = hashlib.sha256(f"{seed}|{model}|{tag}|{number}|{canonical}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))  # noqa: S311 - simulation, not security


def plan_request(
    profile: FaultProfile,
    kind: Kind,
    locale: str | None,
    last_user_message: str,
    indices: Mapping[str, int],
    phases: Mapping[str, float],
    rng: random.Random,
) -> Plan:
    """Decide every fault of one request (pure: counters and phases are passed in).

    ``indices[fault]`` is how many earlier requests were eligible for that fault on this provider.
    """
    consumed: set[str] = set()

    def roll(fault: str, rate: float) -> bool:
        consumed.add(fault)
        return fires(rate, indices.get(fault, 0), phases.get(fault, 0.0))

    ttft = profile.ttft.sample(rng)
    inter_token = profile.inter_token.sample(rng)
    if roll("timeout", profile.timeout.rate):
        return Plan(ttft=ttft, inter_token=inter_token, timeout=True, consumed=frozenset(consumed))
    if roll("errors", profile.errors.rate):
        status = rng.choice(profile.errors.statuses)
        return Plan(ttft=ttft, inter_token=inter_token, error_status=status, consumed=frozenset(consumed))

    refusal = None
    if profile.refusal.applies_to(last_user_message) and roll("refusal", profile.refusal.rate):
        refusal = profile.refusal.style
    schema_fault = leading_garbage = encoding = drift_to = mix_with = degenerate = None
    if refusal is None:
        if kind is Kind.STRUCTURED and roll("schema", profile.schema_fault.rate):
            schema_fault = profile.schema_fault.kind
        if kind in (Kind.LANGUAGE, Kind.ROLEPLAY):
            leading_garbage = roll("leading_garbage", profile.leading_garbage.rate)
            if roll("encoding", profile.encoding.rate):
                encoding = profile.encoding.kind
            if roll("degenerate", profile.degenerate.rate):
                degenerate = profile.degenerate.kind
        if kind is Kind.LANGUAGE and locale is not None:
            drift = profile.language.drift
            if roll("drift", drift.rate) and drift.to != locale:
                drift_to = drift.to
            mixing = profile.language.mixing
            if roll("mixing", mixing.rate) and drift_to is None:
                mix_with = mixing.pairs.get(locale)
    mid_stream = refusal != "error" and roll("mid_stream", profile.errors.mid_stream_rate)
    return Plan(
        ttft=ttft,
        inter_token=inter_token,
        refusal=refusal,
        schema_fault=schema_fault,
        leading_garbage=bool(leading_garbage),
        encoding=encoding,
        encoding_codec=profile.encoding.codec,
        drift_to=drift_to,
        mix_with=mix_with,
        mix_fraction=profile.language.mixing.fraction,
        mid_stream_error=mid_stream,
        garbage_style=profile.leading_garbage.style,
        degenerate=degenerate,
        consumed=frozenset(consumed),
    )
