"""The ``equality`` configuration section: the scheduled probe and what ``investigate --test equality`` sends.

Example::

    equality:
      enabled: true            # the scheduled probe (informational; it never suspends)
      samples_per_round: 2     # completions per host after each round
      window: 24h              # how long completions are kept for the test
      alpha: 0.01
      temperature: 1.0         # sent where the endpoint lists temperature
      max_tokens: 24
      prompts:                 # optional: replaces the default six (each id is a stratum of the test)
        - {id: harbour-en, locale: en, text: "In one or two sentences, describe a harbour town at dawn."}
"""

from __future__ import annotations

from exporter.configkit import Section
from exporter.equality.monitor import DEFAULT_ALPHA, DEFAULT_SAMPLES_PER_ROUND, EqualityProbeSettings
from exporter.equality.prompts import DEFAULT_PROMPTS, EqualityPrompt
from exporter.equality.sampling import DEFAULT_MAX_TOKENS, DEFAULT_TEMPERATURE, EqualitySettings
from exporter.equality.window import DEFAULT_MAX_AGE_SECONDS, DEFAULT_MAX_PER_HOST

MIN_PROMPTS = 3  # fewer strata than this make the test one prompt's
MAX_PROMPTS = 50
MAX_PROMPT_CHARS = 500  # short, synthetic prompts; never a conversation


def read_equality_config(sec: Section) -> EqualityProbeSettings:
    """Read ``equality`` (every key optional; absent section: disabled, defaults for investigate)."""
    enabled = sec.boolean("enabled", default=False)
    per_round = sec.integer("samples_per_round", DEFAULT_SAMPLES_PER_ROUND, minimum=1, maximum=50)
    window = sec.duration("window", DEFAULT_MAX_AGE_SECONDS, minimum=60)
    max_per_host = sec.integer("max_per_host", DEFAULT_MAX_PER_HOST, minimum=12, maximum=1000)
    alpha = sec.number("alpha", DEFAULT_ALPHA, minimum=1e-6, maximum=0.5)
    temperature = sec.number("temperature", DEFAULT_TEMPERATURE, minimum=0.05, maximum=2.0)
    max_tokens = sec.integer("max_tokens", DEFAULT_MAX_TOKENS, minimum=8, maximum=256)
    prompts = DEFAULT_PROMPTS
    if sec.has("prompts"):
        read = tuple(_read_prompt(p) for p in sec.section_list("prompts"))
        ids = [p.id for p in read if p.id]
        if not MIN_PROMPTS <= len(read) <= MAX_PROMPTS:
            sec.problem("prompts", f"expected {MIN_PROMPTS} to {MAX_PROMPTS} prompts, got {len(read)}")
        elif len(set(ids)) != len(ids):
            sec.problem("prompts", "each prompt id may appear only once (an id is a stratum of the test)")
        else:
            prompts = read
    sec.finish()
    return EqualityProbeSettings(
        enabled=bool(enabled),
        samples_per_round=per_round,
        window_seconds=window,
        max_per_host=max_per_host,
        alpha=alpha,
        sampling=EqualitySettings(prompts=prompts, temperature=temperature, max_tokens=max_tokens),
    )


def _read_prompt(sec: Section) -> EqualityPrompt:
    prompt = EqualityPrompt(
        id=sec.string("id", "", what="a short id such as harbour-en") or "",
        locale=sec.string("locale", "", what="a locale such as en or pt-BR") or "",
        text=sec.string("text", "", what="the prompt's text") or "",
    )
    if len(prompt.text) > MAX_PROMPT_CHARS:
        sec.problem("text", f"at most {MAX_PROMPT_CHARS} characters: a short synthetic prompt")
    for key in ("id", "locale", "text"):
        if not getattr(prompt, key):
            sec.problem(key, "required")
    sec.finish()
    return prompt
