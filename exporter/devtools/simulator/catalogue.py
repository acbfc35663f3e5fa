"""Catalogue mode: expand ``catalogue: {count, seed, mix, non_chat, entries}`` into many cheap models.

Each generated model has one virtual endpoint whose fault profile realises its behaviour: ``healthy``
answers "OK"; ``rate_limited`` returns the upstream 429 body; ``erroring`` returns 502/503; ``removed``
answers with the gateway's absence errors (400 ``model_not_found``, 404 ``no_endpoints`` or 404
``model_deprecated``). Non-chat models answer chat requests with 400 ``wrong_endpoint``. The behaviour
counts follow the mix exactly (largest remainder), and the assignment is a seeded shuffle.

Example::

    >>> models = expand(Catalogue(count=10, seed=7, mix=(("healthy", 0.8), ("removed", 0.2))))
    >>> sorted(m.behaviour for m in models).count("removed")
    2
"""

from __future__ import annotations

import math
import random

from exporter.devtools.simulator.fleet import (
    REMOVALS,
    Catalogue,
    CatalogueEntry,
    Errors,
    FaultProfile,
    Model,
    Provider,
)

_AUTHORS = ("acme", "nimbus", "orchid", "quill", "tundra", "lumen", "basalt", "kestrel", "marble", "sable")
_FAMILIES = ("aurora", "breeze", "cinder", "drift", "ember", "fjord", "glimmer", "harbor", "iris", "juniper")
_SIZES = (1, 3, 7, 8, 14, 32, 70, 120, 235, 480)
_HOSTS = (("simhost", "SimHost"), ("cloudmesh", "CloudMesh"), ("gridforge", "GridForge"))
_ERROR_STATUSES = {"rate_limited": (429,), "erroring": (502, 503)}  # what a behaviour answers every time


def behaviour_counts(count: int, mix: tuple[tuple[str, float], ...]) -> dict[str, int]:
    """Split ``count`` by the mix shares exactly (largest remainder).

    >>> behaviour_counts(500, (("healthy", 0.8), ("rate_limited", 0.13), ("removed", 0.07)))
    {'healthy': 400, 'rate_limited': 65, 'removed': 35}
    """
    total = sum(weight for _, weight in mix)
    exact = [(name, count * weight / total) for name, weight in mix]
    counts = {name: math.floor(share) for name, share in exact}
    leftover = count - sum(counts.values())
    by_remainder = sorted(exact, key=lambda item: item[1] - math.floor(item[1]), reverse=True)
    for name, _ in by_remainder[:leftover]:
        counts[name] += 1
    return counts


def expand(catalogue: Catalogue) -> tuple[Model, ...]:
    """The explicit entries first, then ``count`` generated chat models and ``non_chat`` others."""
    rng = random.Random(catalogue.seed)  # noqa: S311 - simulation, not security
    models = [_model(entry, rng, catalogue) for entry in catalogue.entries]
    behaviours = [
        name for name, n in behaviour_counts(catalogue.count, catalogue.mix).items() for _ in range(n)
    ]
    rng.shuffle(behaviours)
    for index, behaviour in enumerate(behaviours):
        model_id = _generated_id(index, rng)
        models.append(_model(CatalogueEntry(id=model_id, behaviour=behaviour), rng, catalogue))
    for index in range(catalogue.non_chat):
        model_id = _generated_id(len(behaviours) + index, rng, suffix="embed")
        models.append(_model(CatalogueEntry(id=model_id, chat=False), rng, catalogue))
    return tuple(models)


def _generated_id(index: int, rng: random.Random, suffix: str = "") -> str:
    """A plausible model id, unique by its index."""
    author = rng.choice(_AUTHORS)
    name = f"{rng.choice(_FAMILIES)}-{rng.choice(_SIZES)}b"
    return f"{author}/{name}{'-' + suffix if suffix else ''}-{index:04d}"


def _model(entry: CatalogueEntry, rng: random.Random, catalogue: Catalogue) -> Model:
    slug, display = rng.choice(_HOSTS)
    statuses = _ERROR_STATUSES.get(entry.behaviour)
    errors = Errors(rate=1.0, statuses=statuses) if statuses else Errors()
    profile = FaultProfile(ttft=catalogue.ttft, errors=errors)
    removal = None
    if entry.behaviour == "removed":
        removal = entry.removal or rng.choice(REMOVALS)
    provider = Provider(
        tag=f"{slug}/{rng.choice(('fp8', 'bf16', 'fp4'))}",
        name=display,
        max_completion_tokens=8192,
        status=-2 if entry.behaviour == "erroring" else 0,
        profile=profile,
    )
    author, _, name = entry.id.partition("/")
    return Model(
        id=entry.id,
        name=f"{author.capitalize()}: {name}",
        providers=(provider,),
        description="A generated catalogue model.",
        chat=entry.chat,
        removal=removal,
        behaviour=entry.behaviour if entry.chat else "non_chat",
    )
