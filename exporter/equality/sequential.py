"""The scheduled probe's evidence: a sequential test that stays valid however often it is looked at (pure).

Each round adds a few completions per host. The host's new replies are ranked against its trusted peers'
new replies of the same round (``exporter.equality.ranks``, van Elteren's weighted rank sum), under a
scorer fitted on the trusted peers' accumulated history (``exporter.equality.ngram``): the history is a
larger reference than one round, and it is fixed before the round's labels are read, so each round's
rank sum ``W_j`` is a fresh, centred increment with a known variance ``V_j`` under the null.

The rounds add up to a martingale ``S = sum W_j`` with variance ``V = sum V_j``, tested with Robbins'
normal-mixture likelihood ratio::

    L = sqrt(c / (c + V)) * exp(S^2 / (2 (c + V)))

which, for a (near) Gaussian martingale, exceeds ``1/a`` with probability at most ``a`` at *any* round,
however many rounds are looked at (Ville's inequality). The host's p-value is the running minimum of
``1/L``: a valid p-value under continuous monitoring, so Holm's correction across hosts at each round keeps
the chance of ever flagging a healthy fleet at ``alpha``. ``c``, the mixture's precision, is
``PRIOR_LOOKS`` times the first round's variance: the test is most efficient around that many rounds of
evidence, and keeps gaining after. Evidence is kept for one ``window`` (an epoch); a new epoch starts from
zero, so a host that changes is judged on what it serves now.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from exporter.equality.compare import (
    LIKE_PEERS,
    MIN_HOSTS,
    NO_VERDICT,
    NOT_ENOUGH_PEERS,
    NOT_TESTED,
    OUTLIER,
    Combined,
    EqualityResult,
    against_peers,
    formatting_shares,
    make_result,
)
from exporter.equality.ngram import CharModel
from exporter.equality.ranks import RankSum
from exporter.equality.sample import Sample, normalise
from exporter.stats import holm

PRIOR_LOOKS = 10


def mixture_p(w: float, variance: float, prior: float) -> float:
    """``min(1, 1/L)``, ``L`` the normal-mixture likelihood ratio of a sum ``w`` of variance ``variance``."""
    if variance <= 0 or prior <= 0:
        return 1.0
    log_ratio = 0.5 * math.log(prior / (prior + variance)) + w * w / (2 * (prior + variance))
    return 1.0 if log_ratio <= 0 else math.exp(-log_ratio)


@dataclass(frozen=True, slots=True)
class Evidence:
    """One host's evidence in the current epoch."""

    w: float = 0.0
    variance: float = 0.0
    spread: float = 0.0  # the largest |w| the samples so far allowed (the host holding all extreme ranks)
    prior: float = 0.0
    samples: int = 0
    peer_samples: int = 0
    effect_sum: float = 0.0  # sum of each round's effect times its samples
    p_value: float = 1.0  # the running minimum: valid at every look
    looks: int = 0

    def add(self, test: RankSum) -> Evidence:
        variance = self.variance + test.variance
        prior = self.prior or PRIOR_LOOKS * test.variance
        w = self.w + test.w
        return replace(
            self,
            w=w,
            variance=variance,
            spread=self.spread + test.z_max * math.sqrt(test.variance),
            prior=prior,
            samples=self.samples + test.samples,
            peer_samples=self.peer_samples + test.peer_samples,
            effect_sum=self.effect_sum + test.effect * test.samples,
            p_value=min(self.p_value, mixture_p(w, variance, prior)),
            looks=self.looks + 1,
        )

    @property
    def z(self) -> float:
        return self.w / math.sqrt(self.variance) if self.variance > 0 else 0.0

    @property
    def effect(self) -> float:
        return self.effect_sum / self.samples if self.samples else 0.0

    @property
    def p_min(self) -> float:
        """The smallest p-value the samples so far could have given."""
        return mixture_p(self.spread, self.variance, self.prior)


@dataclass(slots=True)
class Epoch:
    """One model's evidence since ``started`` (unix seconds): per host, and the hosts flagged so far."""

    started: float
    evidence: dict[str, Evidence] = field(default_factory=dict)  # the whole replies' surprise ranks
    starts: dict[str, Evidence] = field(default_factory=dict)  # the replies' starts' surprise ranks
    flagged: dict[str, float] = field(default_factory=dict)  # provider -> its adjusted p when flagged

    def forget(self, live: Iterable[str]) -> None:
        alive = set(live)
        for provider in [p for p in self.evidence if p not in alive]:
            del self.evidence[provider]
            self.starts.pop(provider, None)
        for provider in [p for p in self.flagged if p not in alive]:
            del self.flagged[provider]

    def look(
        self, history: Mapping[str, Sequence[Sample]], new: Mapping[str, Sequence[Sample]], alpha: float
    ) -> list[EqualityResult]:
        """Add this round's ``new`` completions (also in ``history``, the window) and decide every host of
        ``history``."""
        trusted = sorted(p for p, drawn in history.items() if drawn and p not in self.flagged)
        if len(trusted) >= MIN_HOSTS:
            self._accumulate(history, new, trusted)
        combined = {p: Combined(e, self.starts[p]) for p, e in self.evidence.items() if p in self.starts}
        tested = sorted(p for p in combined if p not in self.flagged)
        adjusted = dict(zip(tested, holm([combined[p].p_value for p in tested]), strict=True))
        for provider in tested:
            if adjusted[provider] < alpha:
                self.flagged[provider] = adjusted[provider]
        shares, formatting_p = formatting_shares(history)
        results = []
        for provider in sorted(history):
            evidence = self.evidence.get(provider)
            both = combined.get(provider)
            if provider in self.flagged:
                verdict, p_adjusted = OUTLIER, self.flagged[provider]
            elif both is None:
                verdict = NOT_ENOUGH_PEERS if history[provider] else NOT_TESTED
                p_adjusted = None
            else:
                p_adjusted = adjusted[provider]
                reachable = both.p_min * max(len(tested), 1) < alpha
                verdict = LIKE_PEERS if reachable else NO_VERDICT
            samples = 0 if evidence is None else evidence.samples
            looks = 0 if evidence is None else evidence.looks
            formats = (shares[provider], formatting_p[provider])
            results.append(make_result(provider, samples, both, p_adjusted, verdict, looks, formats))
        return results

    def _accumulate(
        self, history: Mapping[str, Sequence[Sample]], new: Mapping[str, Sequence[Sample]], trusted: list[str]
    ) -> None:
        model = CharModel.fit(normalise(s.text) for p in trusted for s in history[p])
        whole: dict[str, dict[str, list[float]]] = {provider: {} for provider in trusted}
        start: dict[str, dict[str, list[float]]] = {provider: {} for provider in trusted}
        for provider in trusted:
            for sample in new.get(provider, ()):
                reply, beginning = model.surprise(normalise(sample.text))
                whole[provider].setdefault(sample.prompt, []).append(reply)
                start[provider].setdefault(sample.prompt, []).append(beginning)
        for provider in trusted:
            peers = [p for p in trusted if p != provider]
            on_whole, on_start = against_peers(whole, provider, peers), against_peers(start, provider, peers)
            if on_whole is not None and on_start is not None:
                self.evidence[provider] = self.evidence.get(provider, Evidence()).add(on_whole)
                self.starts[provider] = self.starts.get(provider, Evidence()).add(on_start)
