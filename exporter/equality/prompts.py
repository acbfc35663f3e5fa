"""The equality test's default prompts: short, open-ended, synthetic, in several locales (one stratum each).

Open-ended so that a model's *style* shows (a closed question has one answer every model gives); short so that
a sample costs a few dozen tokens; synthetic so that no real conversation is ever sent. Each prompt is one
stratum of the test, so every host should answer each prompt at least twice.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class EqualityPrompt:
    """One prompt: a stable id (the stratum, shown in reports), its locale and its text."""

    id: str
    locale: str
    text: str


DEFAULT_PROMPTS: tuple[EqualityPrompt, ...] = (
    EqualityPrompt("harbour-en", "en", "In one or two sentences, describe a harbour town at dawn."),
    EqualityPrompt("stranger-en", "en", "Begin a short story about a stranger who walks into a tavern."),
    EqualityPrompt("bosque-es", "es", "Describe en una o dos frases un bosque después de la lluvia."),
    EqualityPrompt("markt-de", "de", "Beschreibe in ein oder zwei Sätzen einen Marktplatz am Morgen."),
    EqualityPrompt("viagem-pt-BR", "pt-BR", "Comece uma história curta sobre uma viagem de trem à noite."),
    EqualityPrompt("yoru-ja", "ja", "夜の港町の様子を一、二文で描写してください。"),
)
