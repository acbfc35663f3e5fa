"""Pathological replies never crash a judge and every verdict is well-formed (hypothesis).

The time bound is not asserted here (timed tests flake on shared machines): bench/language_worst.py
measures the worst case on 64 KB replies and docs/benchmarks.md records it. What is asserted is that
every judge answers on punctuation runs, every Unicode category, lone surrogates and 1 MB texts, and
that the judged part is capped (``MAX_JUDGED_CHARS``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from exporter.contracts.reply_checks import screen
from exporter.language.judge import judge
from exporter.language.locales import DEFAULT_LOCALES
from exporter.language.repetition import MAX_JUDGED_CHARS
from exporter.outcomes import Outcome
from tests.fuzz_profile import examples

PUNCTUATION = st.text(alphabet=".!?…。！？\"'«»“”„*_—-,;:()[]\n ", min_size=1, max_size=3000)
ANY_CHARACTER = st.text(alphabet=st.characters(codec=None), max_size=2000)
UNITS = [".", "!?", "…", "a.", "ab ", "的", "\u202e", "\ue000", "Ã©", "ing", "\udc80x"]
RUNS = st.tuples(st.sampled_from(UNITS), st.integers(1, 5000)).map(lambda t: t[0] * t[1])


def _check(text: str, locale: str) -> None:
    verdict = judge(text, locale)
    assert verdict.outcome in (Outcome.PASS, Outcome.FAIL, Outcome.INCONCLUSIVE)
    assert isinstance(verdict.evidence, dict)
    screen(text, "stop")


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(PUNCTUATION, ANY_CHARACTER, RUNS), locale=st.sampled_from(DEFAULT_LOCALES))
def test_no_input_crashes_the_judges(text: str, locale: str) -> None:
    _check(text, locale)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(unit=st.sampled_from(["....", "a.b!c?", "Ça va? ", "的了。", "x" * 7 + " "]))
def test_a_one_megabyte_reply_is_judged_on_its_capped_prefix(unit: str) -> None:
    huge = unit * (1_000_000 // len(unit))
    assert judge(huge, "fr").evidence == judge(huge[:MAX_JUDGED_CHARS], "fr").evidence
    _check(huge, "ja")
