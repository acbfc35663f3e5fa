"""The contracts and their registry: adding a contract is one module plus one entry in ``CONTRACTS``."""

from __future__ import annotations

from exporter.contracts.base import Contract
from exporter.contracts.language import LanguageContract
from exporter.contracts.refusal import RefusalContract
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract

# The order is the order in which a provider's probes run within a round.
CONTRACTS: tuple[type[Contract], ...] = (TTFTContract, RefusalContract, StructuredContract, LanguageContract)


def registry(contracts: tuple[type[Contract], ...] = CONTRACTS) -> dict[str, type[Contract]]:
    """Contracts by name, in probe order (what ``load_config(registry=...)`` accepts)."""
    return {contract.name: contract for contract in contracts}


REGISTRY: dict[str, type[Contract]] = registry()
