"""The scheduled equality probe's memory: each host's recent completions, over a sliding window (pure).

A few samples per host per round are too few for a verdict; the window keeps the last ``max_age`` seconds of
them (bounded per host) so that every round re-tests each model on what accumulated. It is history in memory:
after a restart it fills again, which errs towards saying nothing.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from exporter.equality.sample import Sample


@dataclass(slots=True)
class EqualityWindow:
    """Per (model, provider): timestamped samples, oldest first, never older than ``max_age`` seconds."""

    max_age: float
    max_per_host: int
    _hosts: dict[tuple[str, str], deque[tuple[float, Sample]]] = field(default_factory=dict)

    def add(self, model: str, provider: str, samples: Iterable[Sample], at: float) -> None:
        """Keep ``samples`` taken at ``at`` (unix seconds) for this route."""
        kept = self._hosts.setdefault((model, provider), deque(maxlen=self.max_per_host))
        kept.extend((at, sample) for sample in samples)

    def forget(self, model: str, live: Iterable[str]) -> None:
        """Drop the routes of ``model`` that are no longer discovered (their series disappear too)."""
        alive = set(live)
        for key in [k for k in self._hosts if k[0] == model and k[1] not in alive]:
            del self._hosts[key]

    def samples(self, model: str, now: float) -> Mapping[str, list[Sample]]:
        """This model's samples per provider within the window at ``now``; expired ones are dropped."""
        horizon = now - self.max_age
        found: dict[str, list[Sample]] = {}
        for (m, provider), kept in self._hosts.items():
            if m != model:
                continue
            while kept and kept[0][0] < horizon:
                kept.popleft()
            if kept:
                found[provider] = [sample for _, sample in kept]
        return found
