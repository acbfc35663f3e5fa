"""The 17 locales' texts: enough natural sentences, whole-sentence structure, scripts kept apart."""

from __future__ import annotations

import pytest
from opencc_purepy import OpenCC

from exporter.devtools.simulator.locales import (
    DEFAULT_MIXING_PAIRS,
    LOCALES,
    Texts,
    join_sentences,
)

from .conftest import sentences_of

TEXTS = Texts.load()


def test_seventeen_locales_each_paired_with_a_different_locale() -> None:
    assert len(LOCALES) == 17
    assert set(DEFAULT_MIXING_PAIRS) == set(LOCALES)
    assert all(partner in LOCALES and partner != locale for locale, partner in DEFAULT_MIXING_PAIRS.items())


@pytest.mark.parametrize("locale", LOCALES)
def test_each_locale_has_25_distinct_single_sentences(locale: str) -> None:
    sentences = TEXTS.for_locale(locale)
    assert len(sentences) >= 25
    assert len(set(sentences)) == len(sentences)
    for sentence in sentences:
        assert sentences_of(sentence) == [sentence], sentence


@pytest.mark.parametrize("locale", LOCALES)
def test_joined_replies_split_back_into_their_sentences(locale: str) -> None:
    sentences = list(TEXTS.for_locale(locale)[:6])
    assert sentences_of(join_sentences(sentences, locale)) == sentences


def test_cjk_sentences_join_without_spaces_and_others_with_one() -> None:
    assert join_sentences(["他笑了。", "风停了。"], "zh-Hans") == "他笑了。风停了。"
    assert join_sentences(["Ele riu.", "O vento parou."], "pt-BR") == "Ele riu. O vento parou."
    assert join_sentences(["그는 웃었다.", "바람이 멎었다."], "ko") == "그는 웃었다. 바람이 멎었다."


def test_simplified_chinese_has_no_traditional_characters_and_vice_versa() -> None:
    to_simplified, to_traditional = OpenCC("t2s"), OpenCC("s2t")
    for sentence in TEXTS.for_locale("zh-Hans"):
        assert to_simplified.convert(sentence) == sentence, sentence
    for sentence in TEXTS.for_locale("zh-Hant"):
        assert to_traditional.convert(sentence) == sentence, sentence
    assert TEXTS.for_locale("zh-Hans") != TEXTS.for_locale("zh-Hant")


def test_brazilian_portuguese_is_brazilian() -> None:
    text = " ".join(TEXTS.for_locale("pt-BR"))
    assert "você" in text and "a gente" in text
    for european in ("estou a ", "estás", "tu és", "autocarro", "rapariga"):
        assert european not in text
