# ruff: noqa: E501  (test data: wide CJK characters count double)
"""The judge end to end: clean replies pass, each failure kind fails with its reason, short ones never fail."""

from __future__ import annotations

import json
import re

import pytest
from language_fixtures import load_clean

from exporter.language import judge as judge_module
from exporter.language.judge import Judge, default_judge, judge
from exporter.language.locales import DEFAULT_LOCALES
from exporter.outcomes import Outcome, Reason

CLEAN = load_clean()
SENTENCE = re.compile(r"(?<=[.!?])\s+|(?<=[。！？])")
CJK = {"ja", "ko", "zh-Hans", "zh-Hant"}
# The locale a chat model most plausibly slips into, and a far one.
CLOSE = {
    "en": "nl",
    "es": "pt-BR",
    "pt-BR": "es",
    "fr": "it",
    "de": "nl",
    "it": "es",
    "nl": "de",
    "pl": "uk",
    "ru": "uk",
    "uk": "ru",
    "tr": "id",
    "ja": "zh-Hans",
    "ko": "ja",
    "zh-Hans": "zh-Hant",
    "zh-Hant": "zh-Hans",
    "id": "vi",
    "vi": "id",
}
FAR = {
    "en": "ru",
    "es": "ja",
    "pt-BR": "de",
    "fr": "ko",
    "de": "tr",
    "it": "pl",
    "nl": "vi",
    "pl": "en",
    "ru": "fr",
    "uk": "es",
    "tr": "zh-Hant",
    "ja": "en",
    "ko": "pt-BR",
    "zh-Hans": "it",
    "zh-Hant": "en",
    "id": "ru",
    "vi": "fr",
}


def sentences(locale: str) -> list[str]:
    return [s for s in SENTENCE.split(CLEAN[locale]) if s.strip()]


def mixed(locale: str, other: str, slots: tuple[int, ...]) -> str:
    own, donor = sentences(locale), sentences(other)
    parts = [donor[i % len(donor)] if i in slots else s for i, s in enumerate(own)]
    joiner = "" if locale in CJK - {"ko"} and other in CJK - {"ko"} else " "
    return joiner.join(parts)


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_clean_reply_passes_in_every_locale(locale: str) -> None:
    verdict = judge(CLEAN[locale], locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.PASS, Reason.NONE), verdict.detail


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_whole_reply_in_a_close_language_is_a_switch(locale: str) -> None:
    verdict = judge(CLEAN[CLOSE[locale]], locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SWITCH), verdict.detail


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_whole_reply_in_a_far_language_is_a_switch(locale: str) -> None:
    verdict = judge(CLEAN[FAR[locale]], locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SWITCH), verdict.detail


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_two_of_five_sentences_in_a_close_language_is_mixing(locale: str) -> None:
    verdict = judge(mixed(locale, CLOSE[locale], (1, 3)), locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_two_of_five_sentences_in_a_far_language_is_mixing(locale: str) -> None:
    verdict = judge(mixed(locale, FAR[locale], (0, 2)), locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


def test_mixing_evidence_names_the_sentences_and_their_language() -> None:
    text = mixed("pt-BR", "es", (1, 3))
    verdict = judge(text, "pt-BR")
    foreign = verdict.evidence["foreign"]
    assert isinstance(foreign, list) and len(foreign) == 2
    assert {item["language"] for item in foreign} == {"es"}
    first = foreign[0]
    assert text[first["start"] : first["end"]] == sentences("es")[1]
    assert verdict.evidence["languages"] == {"es": pytest.approx(verdict.evidence["foreign_share"])}


def test_simplified_and_traditional_chinese_are_told_apart() -> None:
    assert judge(CLEAN["zh-Hant"], "zh-Hans").evidence["languages"] == {"zh-Hant": 1.0}
    assert judge(CLEAN["zh-Hans"], "zh-Hant").evidence["languages"] == {"zh-Hans": 1.0}


def corrupt_first_non_ascii_span(text: str, width: int) -> str:
    """Mojibake on ``width`` characters from the first non-ASCII one (a partial mis-decode)."""
    start = next(i for i, ch in enumerate(text) if ord(ch) > 127)
    span = text[start : start + width].encode().decode("cp1252", errors="replace")
    return text[:start] + span + text[start + width :]


@pytest.mark.parametrize(
    ("kind", "corrupt"),
    [
        ("cp1252", lambda t: t.encode().decode("cp1252", errors="replace")),
        ("latin-1", lambda t: t.encode().decode("latin-1")),
        ("cp1251", lambda t: t.encode().decode("cp1251", errors="replace")),
        ("fffd", lambda t: t[:40] + "\ufffd" + t[40:]),
        ("control", lambda t: t[:40] + "\x07" + t[40:]),
        ("partial", lambda t: corrupt_first_non_ascii_span(t, 30)),
    ],
)
@pytest.mark.parametrize("locale", ["es", "fr", "de", "pl", "ru", "uk", "tr", "ja", "ko", "zh-Hans", "vi"])
def test_encoding_corruption_fails(locale: str, kind: str, corrupt: object) -> None:
    assert callable(corrupt)
    bad = corrupt(CLEAN[locale])
    assert bad != CLEAN[locale], "the corruption must change the text"
    verdict = judge(bad, locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.ENCODING), verdict.detail


def test_encoding_evidence_shows_the_bytes_and_the_repair() -> None:
    verdict = judge("Je suis ravie de te voir, entre donc t'Ã©chauffer prÃ¨s du feu.", "fr")
    encoding = verdict.evidence["encoding"]
    assert isinstance(encoding, dict)
    assert encoding["kind"] == "mojibake" and encoding["codec"] == "cp1252"
    assert encoding["sample"] == "Ã©" and encoding["repaired"] == "é"
    assert encoding["codepoints"] == ["U+00C3", "U+00A9"]


@pytest.mark.parametrize(
    "prefix",
    [
        ",",
        ".",
        ";",
        ")",
        ":",
        "」",
        "。",
        "、",
        "ción ",
        "ing ",
        "ly ",
        "tion ",
        '"ing ',
        "ment\n",
        "Ġ",
        "<|im_start|>",
        "\ufeff",
    ],
)
@pytest.mark.parametrize("locale", ["en", "es", "pt-BR", "ru", "de"])
def test_a_corrupted_start_fails(locale: str, prefix: str) -> None:
    verdict = judge(prefix + CLEAN[locale], locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.LEADING_GARBAGE), verdict.detail


@pytest.mark.parametrize(
    ("locale", "prefix"),
    [
        ("zh-Hans", "的"),
        ("zh-Hant", "了"),
        ("ja", "ます"),
        ("ja", "、"),
        ("ko", "니다 "),
        ("ko", "요 "),
        ("zh-Hans", "」"),
        ("ja", "ing"),
    ],
)
def test_a_corrupted_start_fails_in_cjk(locale: str, prefix: str) -> None:
    verdict = judge(prefix + CLEAN[locale], locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.LEADING_GARBAGE), verdict.detail


@pytest.mark.parametrize(
    "prefix",
    [
        "*",
        "**",
        '"',
        "«",
        "“",
        "„",
        "— ",
        "– ",
        "- ",
        "¿",
        "¡",
        "「",
        "（",
        "(",
        "1. ",
        "• ",
        "> ",
        "# ",
        "😊 ",
        "✨",
        "...",
        "… ",
        "'",
        "_",
        "[",
        "~",
        "\n\n  ",
    ],
)
@pytest.mark.parametrize("locale", ["en", "es", "fr", "ja", "zh-Hans", "ru"])
def test_a_legitimate_start_passes(locale: str, prefix: str) -> None:
    verdict = judge(prefix + CLEAN[locale], locale)
    if prefix in ("'", '"', "_") and (prefix == "_" or locale in ("ja", "zh-Hans")):
        # an unclosed straight quote glued to CJK, or a lone _ glued to a word, is debris (issue 11)
        assert verdict.reason is Reason.LEADING_GARBAGE, verdict.detail
        return
    assert verdict.outcome is Outcome.PASS, verdict.detail


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("OK", "en"),
        ("Sí.", "es"),
        ("Merci !", "fr"),
        ("はい", "ja"),
        ("好的。", "zh-Hans"),
        ("네", "ko"),
        ("👍", "en"),
        ("Да, конечно.", "ru"),
        ("Tak.", "pl"),
        ("", "de"),
        ("   ", "it"),
        ("42", "nl"),
        ("Vâng ạ.", "vi"),
        ("Hola, hola.", "pt-BR"),
        ("Thank you!", "es"),
        ("Danke schön.", "fr"),
    ],
)
def test_a_short_reply_is_inconclusive_never_fail(text: str, locale: str) -> None:
    verdict = judge(text, locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.INCONCLUSIVE, Reason.TOO_SHORT)


def test_nothing_placeable_is_ambiguous_not_fail() -> None:
    text = "Zzkrr prrt vvmm hhnn, brrrm tzzk pffft grrmbl krrk zzzt wmmp."
    verdict = judge(text, "en")
    assert verdict.outcome is not Outcome.FAIL


def test_verdicts_are_deterministic_and_evidence_is_json() -> None:
    text = mixed("ru", "uk", (1, 3))
    first, second = judge(text, "ru"), Judge(default_judge().ensemble).judge(text, "ru")
    assert first == second
    json.dumps(first.as_dict(), ensure_ascii=False)


def test_locale_codes_are_case_and_separator_insensitive() -> None:
    assert judge(CLEAN["pt-BR"], "pt_br").outcome is Outcome.PASS


def test_an_unknown_locale_is_an_error_that_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown locale 'xx' \(known: en, es, pt-BR"):
        judge("Hello there, how are you doing today my friend?", "xx")


def test_a_chinese_sentence_in_a_japanese_reply_is_found_by_its_characters() -> None:
    own = sentences("ja")
    chinese = "First 和 last 可以指定为字符串，或者数字，历史列表中的索引，负数表示从当前命令开始的偏移。"
    verdict = judge("".join([own[0], chinese, *own[1:3]]), "ja")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail
    assert verdict.evidence["foreign"][0]["basis"] == "hanzi"  # type: ignore[index]


def test_one_whole_foreign_sentence_in_a_short_reply_is_mixing() -> None:
    own = sentences("pt-BR")[:3]
    text = " ".join(
        [own[0], "Si se sobrepasa ese límite, el servidor comenzará a limitar su uso de inmediato.", *own[1:]]
    )
    verdict = judge(text, "pt-BR")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


def test_russian_in_a_ukrainian_reply_is_settled_by_its_letters() -> None:
    own = sentences("uk")
    text = " ".join([*own[:2], "Это значение нельзя изменить без перезапуска всей системы.", *own[2:4]])
    verdict = judge(text, "uk")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


_SPANISH = "Si se sobrepasa ese límite, el servidor comenzará a limitar su uso de inmediato."


def test_one_quoted_foreign_sentence_is_dialogue_however_long_but_two_are_mixing() -> None:
    own = sentences("pt-BR")
    quoted = " ".join([own[0], f"“{_SPANISH}”", *own[1:3]])
    assert judge(quoted, "pt-BR").outcome is Outcome.PASS, judge(quoted, "pt-BR").detail
    # Most of the reply, in quotation marks: a character speaking at length, not a switch ...
    speech = " ".join([_SPANISH.replace(".", ",")] * 4).rstrip(",") + "."
    long_quote = f"{own[0]} “{speech}”"
    verdict = judge(long_quote, "pt-BR")
    assert verdict.outcome is Outcome.PASS and verdict.evidence["foreign_share"] >= 0.7, verdict.detail  # type: ignore[operator]
    # ... while the same words unquoted are one, and two quoted sentences are mixing.
    assert judge(f"{own[0]} {speech}", "pt-BR").reason is Reason.SWITCH
    two = " ".join([own[0], f"“{_SPANISH}”", *own[1:3], f"“{_SPANISH}”"])
    assert judge(two, "pt-BR").reason is Reason.MIXING


def test_warming_loads_each_locales_lexicon_and_its_twin(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    monkeypatch.setattr(judge_module, "lexicon", loaded.append)
    warmed: list[str] = []
    judge = default_judge()
    monkeypatch.setattr(judge.encoding, "warm", warmed.append)
    judge.warm(["pt_br", "zh-TW", "id"])
    assert loaded == ["en", "pt", "zh", "id", "ms"]  # English: every locale's rules read it
    assert warmed == ["pt-BR", "zh-Hant", "id"]  # the encoding check's tables, by the canonical code


def test_warming_the_encoding_check_builds_its_tables_of_the_locale() -> None:
    from exporter.language import encoding

    encoding._misreading.cache_clear()
    encoding.EncodingChecker().warm("ru")
    assert encoding._misreading.cache_info().currsize == 1


def test_one_quotation_of_several_foreign_sentences_is_a_quotation() -> None:
    # A Spanish help text quoting an English error message of two sentences, a German one quoting a
    # French message in German quotation marks, a Japanese one quoting English in 「」.
    replies = {
        "es": "Si el servidor no arranca, el registro muestra un mensaje de error. “The configuration file "
        "could not be read. Check the permissions and try again.” En ese caso, revise los permisos del "
        "archivo y vuelva a iniciar el servicio.",
        "de": "Wenn der Dienst nicht startet, steht im Protokoll eine Fehlermeldung. „Le fichier de "
        "configuration est introuvable. Vérifiez le chemin indiqué.“ Prüfen Sie dann den Pfad in der "
        "Konfiguration.",
        "ja": "サーバーが起動しない場合は、ログにエラーが表示されます。「The configuration file could not be "
        "read. Check the permissions.」その場合は、ファイルの権限を確認してください。",
    }
    for locale, text in replies.items():
        verdict = judge(text, locale)
        assert verdict.outcome is Outcome.PASS, (locale, verdict.detail)


def test_dialogue_in_another_language_is_mixing() -> None:
    # A Russian narration whose every line of dialogue is English: the characters speak English.
    narration = (
        "Капитан медленно поднялся на мостик и посмотрел на горизонт. «We have to turn back before the "
        "storm reaches us.» Штурман покачал головой и развернул старую карту. «The wind is too strong, we "
        "will never make it to the harbour.» Капитан долго молчал, глядя на тёмные волны. «Then we will "
        "wait here until morning.»"
    )
    verdict = judge(narration, "ru")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail
    # A Spanish line of dialogue that goes on in English inside its quotation marks is mixing too: the
    # quotation is the reply's own language with another language's sentence in it.
    speech = (
        "Marta abrió la puerta despacio y miró hacia el pasillo oscuro. “No hay nadie aquí, puedes salir. "
        "I told you we would be safe in this house. Vamos, antes de que vuelvan.” Pedro salió de su "
        "escondite temblando."
    )
    verdict = judge(speech, "es")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


def test_a_quotation_is_found_past_marks_that_close_earlier_quotes() -> None:
    # A German `“` and a French `»` before the quotation close quotes of their own (`„Hot-Backup“`,
    # `« guerre enflammée »`); the quotation is the one the quoted passage itself opens.
    replies = {
        "de": "Für die Datenbank braucht man ein „Hot-Backup“-Verfahren, das im laufenden Betrieb sichert. "
        "“Pierwsze wydanie ukazało się w 2004 r. i było przeznaczone dla początkujących administratorów.” "
        "Diese Sicherungen sind häufig recht groß, lassen sich aber gut komprimieren.",
        "fr": "Une flamewar, littéralement « guerre enflammée », est une discussion passionnée qui finit mal. "
        "“The first edition appeared in 2004. It was written for new administrators.” Certains thèmes sont "
        "beaucoup plus sujets à polémique que d'autres, comme le choix d'un « éditeur ».",
    }
    for locale, text in replies.items():
        verdict = judge(text, locale)
        assert verdict.outcome is Outcome.PASS, (locale, verdict.detail)
