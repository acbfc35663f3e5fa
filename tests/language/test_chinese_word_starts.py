# ruff: noqa: E501  (test data: wide CJK characters count double)
"""Chinese words opening a reply, in either script: the word list ``wordfreq`` writes in simplified
characters is read for traditional text too (as ``wordfreq`` reads it), and a word of two characters or
more glued to a name and its dash is a piece, whichever script it is written in."""

from __future__ import annotations

import pytest

from exporter.language.judge import judge
from exporter.language.lexicon import lexicon
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome, Reason

ARRAYS_HANT = "陣列可能由標量引數和陣列值混合組成; 陣列值將包含在陣列中，每個元素被插入陣列中, 形成一個更長一維的陣列值。"
ARRAYS_HANS = "阵列可能由标量引数和阵列值混合组成; 阵列值将包含在阵列中，每个元素被插入阵列中, 形成一个更长一维的阵列值。"
COUNCIL_HANT = "在莫爾文神父的建議下，議會與所有不同的半獸人部落接洽，並與他們簽訂條約。"
COUNCIL_HANS = "在莫尔文神父的建议下，议会与所有不同的半兽人部落接洽，并与他们签订条约。"


def test_the_chinese_lexicon_reads_traditional_characters_as_wordfreq_does() -> None:
    zh = lexicon("zh")
    for simplified, traditional in [("这些", "這些"), ("问题", "問題"), ("时间", "時間"), ("应该", "應該")]:
        assert zh.is_common(simplified) and zh.is_common(traditional)
        assert zh.rank(traditional) == zh.rank(simplified)
    assert not zh.is_word("況這") and not zh.is_word("况这")  # no word in either script
    assert lexicon("ja").simplify is None  # Japanese kanji are looked up as written


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("這些 " + ARRAYS_HANT, "zh-Hant"),  # a common word spaced from the term it stands before
        ("这些 " + ARRAYS_HANS, "zh-Hans"),  # the same in simplified characters
        ("向Tomasz — " + COUNCIL_HANT, "zh-Hant"),  # a preposition of one character before a name
        ("向Tomasz — " + COUNCIL_HANS, "zh-Hans"),
    ],
)
def test_chinese_words_open_a_reply_in_either_script(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    assert judge(text, locale).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("況 " + ARRAYS_HANT, "zh-Hant", "況"),  # one character that is no word on its own
        ("問題Tomasz — " + COUNCIL_HANT, "zh-Hant", "問題"),  # a noun glued to a name is no preposition
        ("问题Tomasz — " + COUNCIL_HANS, "zh-Hans", "问题"),
        ("知道Tomasz — " + COUNCIL_HANS, "zh-Hans", "知道"),  # nor is a verb
    ],
)
def test_pieces_before_chinese_text_stay_corrupted_starts(text: str, locale: str, piece: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece
    verdict = judge(text, locale)
    assert verdict.outcome is Outcome.FAIL and verdict.reason is Reason.LEADING_GARBAGE
