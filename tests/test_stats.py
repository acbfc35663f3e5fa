"""Fisher and Holm against values computed by others: published examples and hand derivations."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exporter.stats import fisher_greater, holm


def test_tea_tasting_one_sided_p_is_fishers_17_over_70() -> None:
    # Fisher (1935), The Design of Experiments, ch. II: 8 cups, 4 milk-first; 3 of the lady's 4 "milk first"
    # picks right. P(3 or 4 right) = (16 + 1) / 70. R's fisher.test(TeaTasting, alternative = "greater")
    # prints p-value = 0.2429.
    assert fisher_greater(3, 4, 1, 4) == pytest.approx(17 / 70, rel=1e-12)


def test_tea_tasting_all_four_right_is_one_in_seventy() -> None:
    assert fisher_greater(4, 4, 0, 4) == pytest.approx(1 / 70, rel=1e-12)


def test_convicted_twins_match_r_documentation() -> None:
    # R's ?fisher.test "Convictions" example (Fleiss 1981): 10 of 13 monozygotic twins of criminals were
    # convicted against 2 of 17 dizygotic; fisher.test(Convictions, alternative = "less") gives 0.0004652.
    assert fisher_greater(10, 13, 2, 17) == pytest.approx(0.0004652, abs=5e-8)


def test_seed_table_19_of_20_against_0_of_49_by_hand() -> None:
    # All 19 failures on the host: the only tables as extreme have k = 19 (k = 20 impossible, 19 failures in
    # all), so p = C(19,19) C(50,1) / C(69,20).
    assert fisher_greater(19, 20, 0, 49) == pytest.approx(50 / math.comb(69, 20), rel=1e-12)


def test_one_failure_in_two_against_none_in_two_by_hand() -> None:
    # Margins: 4 samples, 1 failure, 2 on the host: P(the failure is on the host) = C(1,1) C(3,1) / C(4,2).
    assert fisher_greater(1, 2, 0, 2) == pytest.approx(3 / 6)


def test_no_failure_on_the_host_is_no_evidence() -> None:
    assert fisher_greater(0, 20, 5, 100) == 1.0


def test_nothing_judged_on_either_side_is_p_one() -> None:
    assert fisher_greater(0, 0, 3, 10) == 1.0
    assert fisher_greater(3, 10, 0, 0) == 1.0


def test_tiny_p_values_keep_their_magnitude() -> None:
    # 100 of 100 against 0 of 1000: p = 1 / C(1100, 100), about 1e-147, far below double rounding of 1 - x.
    p = fisher_greater(100, 100, 0, 1000)
    assert p > 0.0
    assert p == pytest.approx(float(Fraction(1, math.comb(1100, 100))), rel=1e-12)


@pytest.mark.parametrize(("args", "message"), [((-1, 2, 0, 2), "negative"), ((3, 2, 0, 2), "exceed")])
def test_impossible_tables_are_rejected(args: tuple[int, int, int, int], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        fisher_greater(*args)


@given(
    st.integers(0, 30).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
    st.integers(0, 60).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n))),
)
def test_p_is_a_probability_and_grows_as_the_host_fails_less(
    host: tuple[int, int], rest: tuple[int, int]
) -> None:
    (failed, judged), (rest_failed, rest_judged) = host, rest
    p = fisher_greater(failed, judged, rest_failed, rest_judged)
    assert 0.0 <= p <= 1.0
    if failed > 0 and rest_failed < rest_judged:  # move one failure from the host to the rest
        assert fisher_greater(failed - 1, judged, rest_failed + 1, rest_judged) >= p


def test_holm_by_hand() -> None:
    # Sorted: 0.005 x4 = 0.02, 0.01 x3 = 0.03, 0.03 x2 = 0.06, 0.04 x1 = 0.04 -> raised to 0.06 (monotone).
    assert holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02])


def test_holm_caps_at_one_and_keeps_order() -> None:
    assert holm([0.5, 0.2, 0.9]) == pytest.approx([1.0, 0.6, 1.0])
    assert holm([]) == []
    assert holm([0.003]) == [0.003]


def test_holm_rejects_what_is_not_a_probability() -> None:
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        holm([0.1, 1.5])


@given(st.lists(st.floats(0.0, 1.0), max_size=20))
def test_holm_never_lowers_a_p_value_and_never_exceeds_bonferroni(ps: list[float]) -> None:
    adjusted = holm(ps)
    for raw, adj in zip(ps, adjusted, strict=True):
        assert raw <= adj + 1e-15
        assert adj <= min(1.0, raw * len(ps)) + 1e-12
