"""Sending the next-token test's requests (the I/O shell): every prefix asked ``DEFAULT_REPEATS`` times per
host, one token, with ``logprobs: true, top_logprobs: K``; the statistic is ``exporter.equality.logprobs``.

Only hosts whose endpoint lists both ``logprobs`` and ``top_logprobs`` are asked (``lists_logprobs``): with
``require_parameters`` the gateway would refuse the others, and a host that does not list them may
ignore them. Requests are pinned as every probe is (``ProbeContext.request``), at temperature 1 where
the endpoint lists ``temperature``: there a host that reports its sampler's processed log-probabilities
and one that reports the model's raw ones report the same thing. A reply with no usable ``logprobs``
(an error, a pin violation, a host that lists logprobs and returns none) is excluded and counted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from exporter.contracts.base import ProbeContext, ProbeTarget, unjudgeable
from exporter.engine.rounds import Gateway
from exporter.equality.logprobs import NextToken, next_token
from exporter.equality.prompts import EqualityPrompt
from exporter.gateway.types import Endpoint
from exporter.outcomes import Usage

DEFAULT_TOP_LOGPROBS = 5  # alternatives asked for: commonly accepted (OpenAI allows 20, some hosts 5)
DEFAULT_REPEATS = 2  # each prefix asked twice per host: the within-host nondeterminism shows
TEMPERATURE = 1.0

# Short synthetic prompts whose first token is uncertain (several plausible one-word answers): the
# distribution of that token is what the hosts are compared on.
DEFAULT_PREFIXES: tuple[EqualityPrompt, ...] = (
    EqualityPrompt(id="colour-en", locale="en", text="Name one colour. Answer with a single word."),
    EqualityPrompt(
        id="ocean-en", locale="en", text="Say the first word that comes to mind when you hear 'ocean'."
    ),
    EqualityPrompt(id="fruit-en", locale="en", text="Name a fruit. One word only."),
    EqualityPrompt(id="autumn-en", locale="en", text="Give one adjective that describes autumn."),
    EqualityPrompt(
        id="number-en", locale="en", text="Pick a number between 1 and 10. Reply with the number only."
    ),
    EqualityPrompt(
        id="door-en", locale="en", text="Continue with one word: The old keeper opened the door and"
    ),
    EqualityPrompt(id="tier-de", locale="de", text="Nenne ein Tier. Antworte mit einem Wort."),
    EqualityPrompt(id="color-es", locale="es", text="Di un color. Responde con una sola palabra."),
)


def lists_logprobs(endpoint: Endpoint) -> bool:
    """Whether the endpoint lists both parameters the test sends."""
    return endpoint.supports("logprobs") and endpoint.supports("top_logprobs")


@dataclass(slots=True)
class HostNextTokens:
    """What one host gave: its first-token alternatives per request, what could not be used, the cost."""

    provider: str
    listed: bool  # the endpoint lists logprobs and top_logprobs (else nothing was sent)
    responses: list[NextToken] = field(default_factory=list)
    excluded: int = 0
    usage: Usage = field(default_factory=Usage)


async def sample_next_tokens(
    target: ProbeTarget, gateway: Gateway, on_sample: Callable[[], None] = lambda: None
) -> HostNextTokens:
    """Every prefix ``DEFAULT_REPEATS`` times from one host, sequentially (nothing when it does not list
    logprobs)."""
    got = HostNextTokens(target.provider, lists_logprobs(target.endpoint))
    if not got.listed:
        return got
    for number in range(DEFAULT_REPEATS * len(DEFAULT_PREFIXES)):
        prefix = DEFAULT_PREFIXES[number % len(DEFAULT_PREFIXES)]
        ctx = ProbeContext(target, gateway, number, {})
        messages = ({"role": "user", "content": prefix.text},)
        request = ctx.request(messages, 1, temperature=TEMPERATURE, top_logprobs=DEFAULT_TOP_LOGPROBS)
        result = await gateway.chat(request)
        on_sample()
        got.usage = got.usage + result.usage
        first = result.logprobs[0].top if result.logprobs else ()
        made = next_token(prefix.id, first) if first else None  # no alternatives: nothing to compare
        if unjudgeable(result, target) is not None or made is None:
            got.excluded += 1
            continue
        got.responses.append(made)
    return got
