"""The simulator's run-time state: providers with their (patched) profiles, the per-provider request and
fault counters, the outage switch, the request log and the generation records.

No HTTP here: ``app`` reads and advances this state, and the pure modules (``profiles``, ``replies``)
decide from it. Every method is synchronous, so one request's update is atomic on the event loop.

Example::

    state = FleetState(load_fleet(DEFAULT_FLEET), time.time, MAX_GENERATIONS)
    model = state.models["moonshotai/kimi-k2-0905"]
    [p.tag for p in state.listed(model)]
"""

from __future__ import annotations

import random
from collections import Counter, OrderedDict, defaultdict, deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from exporter.contracts import CONTRACTS
from exporter.contracts.base import Contract
from exporter.devtools.simulator.catalogue import expand
from exporter.devtools.simulator.fleet import FaultProfile, Fleet, Model, Provider, patch_profile
from exporter.devtools.simulator.locales import Texts
from exporter.devtools.simulator.profiles import FAULTS, Plan, phase, plan_request, request_rng
from exporter.devtools.simulator.replies import Understood, understand
from exporter.devtools.simulator.routing import matches

MAX_REQUEST_LOG = 100_000
MAX_GENERATIONS = 10_000


@dataclass(slots=True)
class RequestRecord:
    """One chat request as it arrived: for tests of pacing and pinning (``GET /_sim/requests``).

    ``t_loop`` and ``first_token_loop`` are CLOCK_MONOTONIC seconds (the event loop's clock), which every
    process on the host shares: a client can compare them with its own ``time.monotonic()`` stamps, and
    ``first_token_loop - t_loop`` is the time to first token the simulator really applied.
    """

    t: float  # arrival, seconds since the epoch (the simulator's clock)
    model: str
    pin: str | None  # provider.only[0], else provider.order[0]
    status: int | None  # HTTP status sent (None: the request was left hanging)
    provider: str | None  # the tag that served (or failed) it, None when routing failed
    stream: bool
    t_loop: float = 0.0  # arrival on the event-loop clock
    first_token_loop: float | None = None  # first content delta handed to the socket (streams only)


@dataclass(slots=True)
class _Generation:
    data: dict[str, object]
    available_at: float


class FleetState:
    """The mutable state of one simulated gateway over ``fleet`` (``Simulator`` documents the options)."""

    def __init__(
        self,
        fleet: Fleet,
        clock: Callable[[], float],
        max_generations: int,
        contracts: Sequence[type[Contract]] = CONTRACTS,
    ) -> None:
        if max_generations < 1:
            raise ValueError(f"max_generations must be at least 1, got {max_generations}")
        self.fleet = fleet
        self.max_generations = max_generations  # generation records kept (the newest), as memory bound
        self.texts = Texts.load()
        self.contracts = tuple(contracts)  # their probes are answered as each declares a healthy host would
        self.clock = clock
        catalogue = expand(fleet.catalogue) if fleet.catalogue is not None else ()
        self.models: dict[str, Model] = {m.id: m for m in (*fleet.models, *catalogue)}
        # every provider with its current (possibly patched) profile, by (model id, tag)
        self.providers: dict[tuple[str, str], Provider] = {
            (m.id, p.tag): p for m in self.models.values() for p in m.providers
        }
        # each model's endpoint tags by routing-list entry (the full tag and, but for service tiers, the base
        # slug), in listing order: a pinned request finds its endpoint without scanning the model's fleet
        self._selected: dict[tuple[str, str], list[str]] = defaultdict(list)
        self._position: dict[tuple[str, str], int] = {}  # an endpoint's place in its model's listing
        for m in self.models.values():
            for place, p in enumerate(m.providers):
                self._position[(m.id, p.tag)] = place
                for entry in {p.tag, p.tag.partition("/")[0]}:
                    if matches(entry, p.tag):
                        self._selected[(m.id, entry)].append(p.tag)
        self.outage = fleet.outage
        self.rng = random.Random(fleet.seed)  # noqa: S311 - routing and ids, not security
        self._counters: dict[tuple[str, str, str], int] = defaultdict(int)
        self._numbers: dict[tuple[str, str], int] = defaultdict(int)
        # the newest requests, for GET /_sim/requests
        self.requests: deque[RequestRecord] = deque(maxlen=MAX_REQUEST_LOG)
        self._generations: OrderedDict[str, _Generation] = OrderedDict()
        self._outages = 0

    # -- providers ---------------------------------------------------------------------------------------
    def listed(self, model: Model) -> list[Provider]:
        """Endpoints currently in the listing: not hidden and not vanished after ``after_requests``."""
        current = (self.providers[(model.id, base.tag)] for base in model.providers)
        return [provider for provider in current if self._is_listed(model, provider)]

    def listed_among(self, model: Model, entries: tuple[str, ...]) -> list[Provider]:
        """The listed endpoints that the routing-list ``entries`` select (``provider.only``), in listing
        order, found through an index: the cost follows the entries, not the size of the model's fleet."""
        selected = {tag for entry in entries for tag in self._selected.get((model.id, entry), ())}
        ordered = sorted(selected, key=lambda tag: self._position[(model.id, tag)])
        current = (self.providers[(model.id, tag)] for tag in ordered)
        return [provider for provider in current if self._is_listed(model, provider)]

    def _is_listed(self, model: Model, provider: Provider) -> bool:
        gone = provider.profile.disappear  # the current (possibly patched) profile
        served = self._numbers[(model.id, provider.tag)]
        return gone.listed and (gone.after_requests is None or served < gone.after_requests)

    def patch(
        self, model_id: str, tag: str, knobs: Mapping[str, object], *, replace_all: bool
    ) -> FaultProfile:
        """Apply a profile patch (``ConfigError`` when it is invalid); the provider must exist."""
        provider = self.providers[(model_id, tag)]
        profile = patch_profile(provider.profile, knobs, replace_all=replace_all)
        self.providers[(model_id, tag)] = provider.model_copy(update={"profile": profile})
        return profile

    def plan(
        self, model: Model, provider: Provider, body: Mapping[str, object]
    ) -> tuple[Understood, Plan, random.Random]:
        """Decide one attempt's faults and advance that provider's counters (no await: atomic)."""
        key = (model.id, provider.tag)
        number = self._numbers[key]
        self._numbers[key] += 1
        rng = request_rng(self.fleet.seed, model.id, provider.tag, number, body)
        understood = understand(
            body,
            "structured_outputs" in provider.supported_parameters,
            ping=model.behaviour is not None,
            declared=self.declared_reply,
        )
        indices = {fault: self._counters[(model.id, provider.tag, fault)] for fault in FAULTS}
        phases = {fault: phase(self.fleet.seed, model.id, provider.tag, fault) for fault in FAULTS}
        plan = plan_request(
            provider.profile,
            understood.kind,
            understood.locale,
            understood.last_user_message,
            indices,
            phases,
            rng,
        )
        for fault in plan.consumed:
            self._counters[(model.id, provider.tag, fault)] += 1
        return understood, plan, rng

    def declared_reply(self, body: Mapping[str, object]) -> str | None:
        """The healthy reply a contract declares for ``body`` when it is that contract's probe, else None."""
        return next((r for c in self.contracts if (r := c.healthy_reply(body)) is not None), None)

    def next_outage_status(self) -> int:
        """The status of the next request refused by the outage: 503 and 502 in turn."""
        self._outages += 1
        return 503 if self._outages % 2 else 502

    # -- logs --------------------------------------------------------------------------------------------
    def remember_generation(self, gen_id: str, data: dict[str, object]) -> None:
        """Keep a generation record; ``generation`` finds it after the fleet's 404 window."""
        now = self.clock()
        self._generations[gen_id] = _Generation(data, now + self.fleet.generation_404_window)
        while len(self._generations) > self.max_generations:
            self._generations.popitem(last=False)

    def generation(self, gen_id: str) -> dict[str, object] | None:
        record = self._generations.get(gen_id)
        if record is None or self.clock() < record.available_at:
            return None
        return record.data

    def summary(self) -> dict[str, object]:
        """``GET /_sim/fleet``: every fleet provider's listing, request count and profile; the catalogue."""
        listed_tags = {m.id: {p.tag for p in self.listed(m)} for m in self.fleet.models}
        models = [
            {
                "id": model.id,
                "providers": [
                    {
                        "tag": p.tag,
                        "name": p.display_name,
                        "listed": p.tag in listed_tags[model.id],
                        "requests": self._numbers[(model.id, p.tag)],
                        "profile": plain(self.providers[(model.id, p.tag)].profile),
                    }
                    for p in model.providers
                ],
            }
            for model in self.fleet.models
        ]
        catalogue = Counter(model.behaviour for model in self.models.values() if model.behaviour is not None)
        return {
            "seed": self.fleet.seed,
            "outage": self.outage,
            "models": models,
            "catalogue": dict(catalogue),
        }


def plain(profile: FaultProfile) -> dict[str, object]:
    """A fault profile as JSON values, keyed as a fleet file spells them.

    >>> plain(FaultProfile())["schema"]
    {'rate': 0.0, 'kind': 'invalid_json'}
    """
    return profile.model_dump(mode="json", by_alias=True)
