"""The equality test's default prompts: short, open-ended, synthetic, in several locales (one stratum each).

Open-ended so that a model's *style* shows (a closed question has one answer every model gives); short so that
a sample costs a few dozen tokens; synthetic so that no real conversation is ever sent. Each prompt is one
stratum of the test, so every host should answer each prompt at least twice.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import BeforeValidator

from exporter.configkit import ConfigModel, Text, What, invalid, key

MAX_PROMPT_CHARS = 500  # short, synthetic prompts; never a conversation


def _short(value: object) -> str:
    if not isinstance(value, str) or not value.strip():
        raise invalid(f"expected the prompt's text (got {value!r})")
    if len(value) > MAX_PROMPT_CHARS:
        raise invalid(f"at most {MAX_PROMPT_CHARS} characters: a short synthetic prompt")
    return value


class EqualityPrompt(ConfigModel):
    """One prompt (an item of ``equality.prompts``): a stable id (the stratum, shown in reports), its locale
    and its text."""

    id: Annotated[Text, What("a short id such as harbour-en")] = key(meaning="the stratum's id")
    locale: Annotated[Text, What("a locale such as en or pt-BR")] = key(meaning="the prompt's locale")
    text: Annotated[str, BeforeValidator(_short), What("the prompt's text")] = key(meaning="the prompt")


DEFAULT_PROMPTS = tuple(
    EqualityPrompt(id=stratum, locale=locale, text=text)
    for stratum, locale, text in (
        ("harbour-en", "en", "In one or two sentences, describe a harbour town at dawn."),
        ("stranger-en", "en", "Begin a short story about a stranger who walks into a tavern."),
        ("bosque-es", "es", "Describe en una o dos frases un bosque después de la lluvia."),
        ("markt-de", "de", "Beschreibe in ein oder zwei Sätzen einen Marktplatz am Morgen."),
        ("viagem-pt-BR", "pt-BR", "Comece uma história curta sobre uma viagem de trem à noite."),
        ("yoru-ja", "ja", "夜の港町の様子を一、二文で描写してください。"),
    )
)
