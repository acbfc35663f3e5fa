"""The ``equality`` configuration section: the scheduled probe and what ``investigate --test equality`` sends.

``EqualityConfig`` is the one definition of its keys and defaults (README's configuration reference is
generated from it) and the settings object the probe, the sampler and the report take. Custom prompts, for
example::

    equality:
      prompts:                 # replaces the default six (each id is a stratum of the test)
        - {id: harbour-en, locale: en, text: "In one or two sentences, describe a harbour town at dawn."}
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator

from exporter.configkit import Bool, ConfigModel, Duration, Int, Number, invalid, key
from exporter.equality.prompts import DEFAULT_PROMPTS, EqualityPrompt

MIN_PROMPTS = 3  # fewer strata than this make the test one prompt's
MAX_PROMPTS = 50


def _strata(prompts: tuple[EqualityPrompt, ...]) -> tuple[EqualityPrompt, ...]:
    if not MIN_PROMPTS <= len(prompts) <= MAX_PROMPTS:
        raise invalid(f"expected {MIN_PROMPTS} to {MAX_PROMPTS} prompts, got {len(prompts)}")
    if len({p.id for p in prompts}) != len(prompts):
        raise invalid("each prompt id may appear only once (an id is a stratum of the test)")
    return prompts


class EqualityConfig(ConfigModel):
    """``equality`` (every key optional; absent section: disabled, defaults for investigate)."""

    enabled: Bool = key(False, "run the scheduled probe after every round (exports `canary_equality_*`)")
    # 384 per host a day at 30-minute rounds: the subtle shifts need 100-165
    samples_per_round: Int = key(8, "completions per host after each round, prompts round-robin", ge=1, le=50)
    window_seconds: Duration = key(
        24 * 3600.0,
        "the probe's epoch: completions are kept this long, and its sequential test restarts from zero "
        "evidence after it",
        alias="window",
        ge=60,
    )
    # bounds memory and the scorer's cost: 120 short replies per host
    max_per_host: Int = key(120, "most completions kept per host", ge=12, le=1000)
    alpha: Number = key(
        0.01,
        "a host is an outlier when its Holm-adjusted p-value is below this (no resolution floor at any "
        "fleet size)",
        ge=1e-6,
        le=0.5,
    )
    # sample the distribution, not its mode: greedy decoding hides most differences
    temperature: Number = key(1.0, "sampling temperature, sent where the endpoint lists it", ge=0.05, le=2.0)
    # two short sentences: about 90 characters scored per reply
    max_tokens: Int = key(
        24, "completion budget per sample (every character of the reply is scored)", ge=8, le=256
    )
    prompts: Annotated[tuple[EqualityPrompt, ...], AfterValidator(_strata)] = key(
        DEFAULT_PROMPTS,
        f"list of `{{id, locale, text}}` ({MIN_PROMPTS} to {MAX_PROMPTS}; short, synthetic, open-ended); "
        "each id is a stratum",
        shown="six built in",
    )
