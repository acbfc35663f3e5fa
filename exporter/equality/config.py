"""The ``equality`` configuration section: the scheduled probe and what ``investigate --test equality`` sends.

README's configuration reference is generated from ``EqualityConfig``. Custom prompts, for example::

    equality:
      prompts:                 # replaces the default six (each id is a stratum of the test)
        - {id: harbour-en, locale: en, text: "In one or two sentences, describe a harbour town at dawn."}
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BeforeValidator

from exporter.configkit import Bool, ConfigModel, Duration, Int, Number, Text, What, invalid, key, settings_of
from exporter.equality.monitor import DEFAULT_ALPHA, DEFAULT_SAMPLES_PER_ROUND, EqualityProbeSettings
from exporter.equality.prompts import DEFAULT_PROMPTS, EqualityPrompt
from exporter.equality.sampling import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, EqualitySettings
from exporter.equality.window import DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_PER_HOST

MIN_PROMPTS = 3  # fewer strata than this make the test one prompt's
MAX_PROMPTS = 50
MAX_PROMPT_CHARS = 500  # short, synthetic prompts; never a conversation


def _short(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise invalid(f"expected the prompt's text (got {value!r})")
    if len(value) > MAX_PROMPT_CHARS:
        raise invalid(f"at most {MAX_PROMPT_CHARS} characters: a short synthetic prompt")
    return value


class PromptKeys(ConfigModel):
    id: Annotated[Text, What("a short id such as harbour-en")] = key(meaning="the stratum's id")
    locale: Annotated[Text, What("a locale such as en or pt-BR")] = key(meaning="the prompt's locale")
    text: Annotated[str, BeforeValidator(_short), What("the prompt's text")] = key(meaning="the prompt")


def _strata(prompts: tuple[PromptKeys, ...]) -> tuple[PromptKeys, ...]:
    if not MIN_PROMPTS <= len(prompts) <= MAX_PROMPTS:
        raise invalid(f"expected {MIN_PROMPTS} to {MAX_PROMPTS} prompts, got {len(prompts)}")
    if len({p.id for p in prompts}) != len(prompts):
        raise invalid("each prompt id may appear only once (an id is a stratum of the test)")
    return prompts


class EqualityConfig(ConfigModel):
    """``equality`` (every key optional; absent section: disabled, defaults for investigate)."""

    enabled: Bool = key(False, "run the scheduled probe after every round (exports `canary_equality_*`)")
    samples_per_round: Int = key(
        DEFAULT_SAMPLES_PER_ROUND, "completions per host after each round, prompts round-robin", ge=1, le=50
    )
    window: Duration = key(
        DEFAULT_MAX_AGE_SECONDS,
        "the probe's epoch: completions are kept this long, and its sequential test restarts from zero "
        "evidence after it",
        ge=60,
    )
    max_per_host: Int = key(DEFAULT_MAX_PER_HOST, "most completions kept per host", ge=12, le=1000)
    alpha: Number = key(
        DEFAULT_ALPHA,
        "a host is an outlier when its Holm-adjusted p-value is below this (no resolution floor at any "
        "fleet size)",
        ge=1e-6,
        le=0.5,
    )
    temperature: Number = key(
        DEFAULT_TEMPERATURE, "sampling temperature, sent where the endpoint lists it", ge=0.05, le=2.0
    )
    max_tokens: Int = key(
        DEFAULT_MAX_TOKENS,
        "completion budget per sample (every character of the reply is scored)",
        ge=8,
        le=256,
    )
    prompts: Annotated[tuple[PromptKeys, ...], AfterValidator(_strata)] | None = key(
        None,
        f"list of `{{id, locale, text}}` ({MIN_PROMPTS} to {MAX_PROMPTS}; short, synthetic, open-ended); "
        "each id is a stratum",
        shown="six built in",
    )

    def settings(self) -> EqualityProbeSettings:
        """What the probe and ``investigate --test equality`` run with."""
        prompts = (
            tuple(EqualityPrompt(p.id, p.locale, p.text) for p in self.prompts)
            if self.prompts is not None
            else DEFAULT_PROMPTS
        )
        sampling = EqualitySettings(prompts=prompts, temperature=self.temperature, max_tokens=self.max_tokens)
        return settings_of(self, EqualityProbeSettings, window_seconds=self.window, sampling=sampling)
