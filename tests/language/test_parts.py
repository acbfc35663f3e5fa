"""The judge's parts on their own: encoding, corrupted starts, hanzi tables, sentence splitting, locales."""

from __future__ import annotations

import socket

import pytest

from exporter.language.detect import Ensemble, fasttext_model_path
from exporter.language.encoding import EncodingChecker
from exporter.language.hanzi import HanziTables
from exporter.language.judge import judge
from exporter.language.locales import DEFAULT_LOCALES, LOCALES, canonical_locale
from exporter.language.segment import split_sentences
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome

CHECKER = EncodingChecker()


@pytest.mark.parametrize(
    "text",
    [
        "Schluß…",
        "«Élevé»",
        "Tiếng Việt có dấu",
        "Січень, Рік, Діти, Гімн, «у мережі»",
        "Він каже «ні»",
        "naïve café",
        "ÄÖÜ äöü ß",
        "Ça va ? — Oui.",
        "Ñandú",
        "ğüşıöç İ",
        "Zażółć gęślą jaźń",
        "東京。",
        "tab\tand\nnewline",
    ],
)
def test_legitimate_text_has_no_encoding_finding(text: str) -> None:
    assert CHECKER.find(text) is None


@pytest.mark.parametrize(
    ("text", "kind", "codec"),
    [
        ("cafÃ©", "mojibake", "cp1252"),
        ("donâ€™t", "mojibake", "cp1252"),
        ("РџСЂРёРІРµС‚", "mojibake", "cp1251"),
        ("дЅ\xa0еҐЅ", "mojibake", "cp1251"),
        ("a\ufffdb", "replacement_character", None),
        ("a\x00b", "control_character", None),
        ("a\x9db", "control_character", None),
    ],
)
def test_corruption_is_found_with_its_kind_and_codec(text: str, kind: str, codec: str | None) -> None:
    found = CHECKER.find(text)
    assert found is not None and (found.kind, found.codec) == (kind, codec)


@pytest.mark.parametrize(
    ("text", "prefix"),
    [
        (", Hola", ","),
        ("」待って", "」"),
        ("ingHello", "ing"),
        ("lyЭлементы", "ly"),
        (". Hello", "."),
        ("Ġhello", "Ġ"),
    ],
)
def test_corrupted_starts_name_the_garbage(text: str, prefix: str) -> None:
    found = find_corrupted_start(text)
    assert found is not None and found.prefix == prefix


@pytest.mark.parametrize(
    "text",
    [
        "macOS is fine",
        "iPhone",
        ".bashrc is read",
        "/etc/passwd holds",
        "»Hallo«, sagte er",
        "¿Qué?",
        "「待って」",
        "的确如此",
        "了解了",
        "ますます元気",
        "요즘 어때요",
        "| a | b |",
    ],
)
def test_legitimate_starts_are_not_garbage(text: str) -> None:
    assert find_corrupted_start(text) is None


def test_hanzi_tables_separate_simplified_from_traditional() -> None:
    tables = HanziTables()
    assert tables.variant("这是我们的国家") == "zh-Hans"
    assert tables.variant("這是我們的國家") == "zh-Hant"
    assert tables.variant("我是人") is None


def test_sentences_split_on_latin_and_cjk_ends_and_keep_offsets() -> None:
    text = "Hola. ¿Qué tal?\n你好。再见！"
    parts = split_sentences(text)
    assert [p.text for p in parts] == ["Hola.", "¿Qué tal?", "你好。", "再见！"]
    assert all(text[p.start : p.end] == p.text for p in parts)


def test_there_are_17_locales_each_with_three_prompts_written_in_the_locale_with_no_marker() -> None:
    assert len(DEFAULT_LOCALES) == 17
    for code, spec in LOCALES.items():
        assert len(spec.prompts) >= 3
        for prompt in spec.prompts:
            assert "Language:" not in prompt.system + prompt.user
            body = prompt.system + " " + prompt.user
            assert judge(body, code).outcome is Outcome.PASS, (code, body)


def test_locale_codes_are_canonicalised() -> None:
    assert (canonical_locale("ZH_hant"), canonical_locale("pt-br"), canonical_locale("en-US")) == (
        "zh-Hant",
        "pt-BR",
        None,
    )


def test_the_models_load_from_local_files_without_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_network(*args: object, **kwargs: object) -> None:
        raise AssertionError("the language models must never touch the network")

    monkeypatch.setattr(socket.socket, "connect", no_network)
    assert fasttext_model_path().name == "lid.176.ftz"
    ensemble = Ensemble()
    assert ensemble.fasttext("Eu gosto muito de você e da sua família.")[0][0] == "pt"


@pytest.mark.parametrize(
    "text",
    [
        "Se cambiГі radicalmente el manejo de discos.",  # ó read as cp1251 inside a Latin word
        "Se impostato, il valore ГЁ il numero di caratteri.",  # è alone, in a Latin-script text
        "Die Beschleunigung oder В»adaptiveВ« ist der Standard.",  # » « in a Latin-script text
        'Use "" to get the expected results: в†’ "" and more.',  # → read as cp1251
    ],
)
def test_a_single_cp1251_sequence_is_mojibake_where_no_cyrillic_text_can_be(text: str) -> None:
    found = CHECKER.find(text)
    assert found is not None and (found.kind, found.codec) == ("mojibake", "cp1251")


@pytest.mark.parametrize("text", ["Ді та Гі тут, як завжди.", "Гість прийшов у «Гімн» увечері.", "Він Гі"])
def test_ukrainian_text_with_cp1251_lookalike_pairs_is_clean(text: str) -> None:
    assert CHECKER.find(text) is None


@pytest.mark.parametrize("prefix", ["ingA ", "edA ", "ataL'", "ingSECURITY ", "огоСТРОКА ", "нийВ "])
def test_fragments_glued_to_capitals_are_corrupted_starts(prefix: str) -> None:
    found = find_corrupted_start(prefix + "message arrives here, and the rest follows.")
    assert found is not None and found.kind == "fragment"


@pytest.mark.parametrize(
    "text",
    [
        "macOS is fine.",
        "iPhone users wait.",
        "%s: no such file",
        "%-5d items",
        "\\n is a newline",
        "\\section{Intro} here",
    ],
)
def test_product_names_printf_conversions_and_escapes_are_legitimate_starts(text: str) -> None:
    assert find_corrupted_start(text) is None


@pytest.mark.parametrize("text", ["%sulogin searches the file", "%verbose mode", "\\muda dono e grupo"])
def test_a_percent_or_backslash_before_a_word_is_stray(text: str) -> None:
    found = find_corrupted_start(text)
    assert found is not None and found.kind == "stray_punctuation"


def test_a_full_stop_glued_to_the_next_sentence_or_to_cjk_still_ends_a_sentence() -> None:
    texts = [
        s.text
        for s in split_sentences("It decodes a JSON object.これは 1 から始まる。命令.Ftp 会使用 popen.")
    ]
    assert texts == ["It decodes a JSON object.", "これは 1 から始まる。", "命令.", "Ftp 会使用 popen."]
    assert [s.text for s in split_sentences("the address.It is fixed.")] == ["the address.", "It is fixed."]


def test_chinese_only_characters_are_those_japanese_cannot_write() -> None:
    tables = HanziTables()
    assert tables.not_japanese_count("这个命令们说为") >= 4
    assert tables.not_japanese_count("日本語の文章です。東京都") == 0
