"""The contracts and their registry: adding a contract is one module plus one line here."""

from __future__ import annotations

from exporter.contracts.base import Contract

# name -> contract class; the order is the order in which a provider's probes run in a round.
REGISTRY: dict[str, type[Contract]] = {}


def register(contract: type[Contract]) -> type[Contract]:
    REGISTRY[contract.name] = contract
    return contract
