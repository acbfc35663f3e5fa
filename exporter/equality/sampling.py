"""Sending the equality test's samples (the I/O shell): N pinned completions per host, prompts round-robin.

The hosts come from the investigate command's ``resolve`` (one discovery request, every argument
checked before any chat), requests from the engine's ``ProbeContext`` (the same pinning; ``temperature`` is
left out where the endpoint does not list it, so such a host samples at its own default and the report says
so). Requests go out sequentially per host and concurrently across hosts under one bound. A reply that
cannot be judged (a gateway error, a pin violation) is no sample: it is counted as excluded, as the
contract comparison does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from exporter.contracts.base import ProbeContext, ProbeTarget, unjudgeable
from exporter.engine.rounds import Gateway
from exporter.equality.config import EqualityConfig
from exporter.equality.sample import Sample
from exporter.outcomes import Usage


@dataclass(slots=True)
class HostSamples:
    """What one host gave: its completions, what could not be used, whether it took our temperature."""

    provider: str
    samples: list[Sample] = field(default_factory=list)
    excluded: int = 0
    default_temperature: bool = False  # the endpoint does not list temperature: its own default was used
    usage: Usage = field(default_factory=Usage)


async def sample_host(
    target: ProbeTarget,
    gateway: Gateway,
    settings: EqualityConfig,
    count: int,
    *,
    first: int = 0,
    on_sample: Callable[[], None] = lambda: None,
) -> HostSamples:
    """``count`` completions from one host, sequentially, prompts round-robin from index ``first``."""
    got = HostSamples(target.provider)
    for number in range(first, first + count):
        prompt = settings.prompts[number % len(settings.prompts)]
        ctx = ProbeContext(target, gateway, number, {})
        messages = ({"role": "user", "content": prompt.text},)  # open-ended: no persona, no system message
        request = ctx.request(messages, settings.max_tokens, temperature=settings.temperature)
        got.default_temperature = got.default_temperature or request.temperature is None
        result = await gateway.chat(request)
        on_sample()
        got.usage = got.usage + result.usage
        if unjudgeable(result, target) is not None:
            got.excluded += 1
            continue
        got.samples.append(Sample(prompt.id, result.content))
    return got


R = TypeVar("R")


async def across_hosts(
    targets: Sequence[tuple[ProbeTarget, Gateway]],
    concurrency: int,
    sample: Callable[[ProbeTarget, Gateway], Awaitable[R]],
) -> list[R]:
    """``sample`` of every host, concurrently across hosts under ``concurrency``, in the targets' order
    (each host's own requests stay sequential: one pinned conversation at a time per host)."""
    limit = asyncio.Semaphore(concurrency)

    async def one(target: ProbeTarget, gateway: Gateway) -> R:
        async with limit:
            return await sample(target, gateway)

    return list(await asyncio.gather(*(one(t, g) for t, g in targets)))
