"""The scheduled probe's sequential test: valid under a look every round, and it accumulates evidence."""

from __future__ import annotations

import math
import random

from exporter.equality.compare import NOT_ENOUGH_PEERS, OUTLIER
from exporter.equality.sample import Sample
from exporter.equality.sequential import Epoch, mixture_p
from tests.equality.toy import ODD_WEIGHTS, host


def test_the_mixture_p_value_is_one_without_evidence_and_shrinks_with_a_drift() -> None:
    assert mixture_p(0.0, 10.0, 10.0) == 1.0 and mixture_p(5.0, 0.0, 1.0) == 1.0
    # z = 4 after ten times the prior's variance: strong evidence, yet weaker than a single fixed look
    p = mixture_p(4 * math.sqrt(100.0), 100.0, 10.0)
    assert 1e-4 < p < 1e-2 and p > math.erfc(4 / math.sqrt(2))


def _rounds(seed: int, healthy: int, odd: int, rounds: int, per_round: int) -> list[dict[str, list[Sample]]]:
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        fleet = {f"h{i:02}": host(rng, per_round) for i in range(healthy)}
        fleet |= {f"odd-{i}": host(rng, per_round, ODD_WEIGHTS) for i in range(odd)}
        out.append(fleet)
    return out


def _run(rounds: list[dict[str, list[Sample]]], alpha: float) -> list[list[str]]:
    """Flagged hosts after each round, the window holding every round so far."""
    epoch = Epoch(0.0)
    history: dict[str, list[Sample]] = {}
    flagged = []
    for fresh in rounds:
        for provider, drawn in fresh.items():
            history.setdefault(provider, []).extend(drawn)
        results = epoch.look(history, fresh, alpha)
        flagged.append(sorted(r.provider for r in results if r.verdict == OUTLIER))
    return flagged


def test_healthy_fleets_looked_at_every_round_are_flagged_at_most_alpha_of_the_time() -> None:
    fleets_flagged = 0
    for seed in range(30):
        fleets_flagged += bool(_run(_rounds(seed, 6, 0, 12, 2), alpha=0.1)[-1])
    assert fleets_flagged <= 6  # 10% of 30 is 3; 6 has binomial probability below 4%


def test_a_distorted_host_is_flagged_once_the_rounds_add_up_and_the_flag_holds() -> None:
    flagged = _run(_rounds(1, 8, 1, 30, 4), alpha=0.01)
    assert flagged[0] == [] and flagged[-1] == ["odd-0"]
    first = next(i for i, f in enumerate(flagged) if f)
    assert all(f == ["odd-0"] for f in flagged[first:])


def test_fewer_than_four_trusted_peers_gather_no_evidence() -> None:
    rounds = _rounds(2, 4, 0, 3, 2)
    epoch = Epoch(0.0)
    results = epoch.look(rounds[0], rounds[0], 0.01)
    assert {r.verdict for r in results} == {NOT_ENOUGH_PEERS} and not epoch.evidence
