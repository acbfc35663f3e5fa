"""What counts as evidence of another language inside clean text: words neither lexicon lists, a quoted
term in another CJK script, and one word a reply writes in several sentences. Each class was a
clean reply failed as mixing or a switch (``bench/mixing_pressure.py``, dev split)."""

from __future__ import annotations

from exporter.language.detect import (
    LEXICON_UNKNOWN,
    Call,
    Ensemble,
    Guess,
    _other_by_lexicon,
    unknown_share,
    unknown_words,
)
from exporter.language.judge import _terms, judge
from exporter.language.locales import LOCALES
from exporter.outcomes import Outcome, Reason

# A Russian help sentence of imperative forms Russian's 30,000 words lack; CLD3 calls it Bulgarian
# (0.999), fastText leaves Russian 0.41 and Bulgarian 0.36. Bulgarian's list lacks them too.
IMPERATIVES = "Нажмите на ползунок и измените размер шрифта."
BULGARIAN = "Тя каза, че не може да дойде днес, защото трябва да работи до късно вечерта."


def test_an_unknown_word_counts_for_a_named_language_only_when_its_lexicon_lists_it() -> None:
    assert unknown_share(IMPERATIVES, "ru") >= LEXICON_UNKNOWN  # the expected language's list alone
    assert unknown_share(IMPERATIVES, "ru", "bg") < LEXICON_UNKNOWN  # words neither lists drop out
    assert unknown_share(BULGARIAN, "ru", "bg") >= LEXICON_UNKNOWN  # Bulgarian's own words still count
    # a language without a list (Galician) leaves every unknown word counted
    assert unknown_words("O mar non está tan lonxe da nosa casa.", "es", "gl") == unknown_words(
        "O mar non está tan lonxe da nosa casa.", "es"
    )
    models = (("ru", 0.41), ("bg", 0.36))
    assert not _other_by_lexicon(IMPERATIVES, "ru", models, ("bg", 0.999))
    assert _other_by_lexicon(BULGARIAN, "ru", models, ("bg", 0.999))


def test_a_help_page_of_imperatives_is_russian() -> None:
    reply = (
        "Видео предлагает несколько дополнительных параметров. Настройте приложение в соответствии с "
        f"вашими предпочтениями. {IMPERATIVES} Размер будет применён ко всем окнам приложения."
    )
    verdict = judge(reply, "ru")
    assert verdict.outcome is Outcome.PASS, verdict.as_dict()


def test_a_quoted_kana_word_in_a_chinese_sentence_is_a_term_not_japanese() -> None:
    spec = LOCALES["zh-Hans"]
    ensemble = Ensemble()
    call = ensemble.call("又被称为“ゼンタイ”，全包紧身衣是一种由尼龙和氨纶制成的包裹全身的连体服。", spec)
    assert call.status == "native", call
    reply = "一件日式的草制雨衣，体积略为笨重，但是覆盖全身。在日本称作“みの”。"
    assert judge(reply, "zh-Hans").outcome is Outcome.PASS
    # a Japanese sentence, quoted or not, is longer than a word: still Japanese
    said = ensemble.call("她说：「ありがとうございます、また来てください。」", spec)
    assert (said.status, said.language) == ("foreign", "ja"), said
    # a quoted hangul word in a Japanese sentence too
    assert ensemble.call("韓国では「사랑」という言葉がよく歌に出てきます。", LOCALES["ja"]).status == "native"


def _by_word(cue: str, top: str = "id") -> Call:
    return Call("foreign", "ms", 40.0, "distinctive", Guess(((top, 0.6),), ("", 0.0)), sure=True, cue=cue)


def test_one_word_that_makes_several_sentences_malay_is_a_term_of_the_reply() -> None:
    native = Call("native", "id", 40.0, "models")
    calls = [native, _by_word("markah"), _by_word("markah"), _by_word("butang")]
    kept = _terms(calls)
    assert [c.status for c in kept] == ["native", "unknown", "unknown", "foreign"]
    # each on a word of its own: evidence each
    assert _terms([native, _by_word("markah"), _by_word("butang")]) == [native, _by_word("markah"),
                                                                        _by_word("butang")]  # fmt: skip
    # several Malay-only words: not a term; nor one word in sentences fastText too places in Malay
    many = _by_word("")
    assert _terms([many, many]) == [many, many]
    imej = _by_word("imej", top="ms")
    assert _terms([imej, _by_word("imej")]) == [imej, _by_word("imej")]


def test_indonesian_help_writing_markah_throughout_is_indonesian() -> None:
    reply = (
        "Tekan tombol + di bagian bawah panel sisi. Nama baku markah yang baru saja ditambahkan adalah "
        "nomor halaman dokumen. Markah kini dicantumkan pada daftar markah. Di panel sisi, pilih tombol "
        "Markah di bagian bawah. Pilih markah dalam panel sisi. Klik pada nama markah. Masukkan nama baru. "
        "Tekan Enter."
    )
    call = Ensemble().call("Markah kini dicantumkan pada daftar markah.", LOCALES["id"])
    assert (call.status, call.basis, call.cue) == ("foreign", "distinctive", "markah"), call
    verdict = judge(reply, "id")
    assert verdict.outcome is Outcome.PASS, verdict.as_dict()
    # Malay sentences, each with words of their own only Malay writes, inside Indonesian: still mixing
    mixed = (
        "Kami berjalan melewati hutan yang gelap itu bersama-sama. Sila tekan butang ini untuk membuka "
        "skrin utama. Hutan itu sangat sunyi dan dingin pada malam hari. Kaedah ini mestilah diikuti "
        "sehingga selesai. Akhirnya kami sampai di desa sebelum fajar."
    )
    verdict = judge(mixed, "id")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()


def test_a_pool_of_cries_is_no_language_whose_list_lacks_them() -> None:
    # A pirate parrot's cries and a short line pooled: CLD3 says Dutch (0.985), fastText leaves Spanish
    # 0.21; the words Spanish's list lacks (`crrueeel`, `silverrrr`) are not Dutch words either.
    pool = "Crrueeel, crrueeel, crueeel Capitán Silverrrr... Disculpa, jefe."
    spec = LOCALES["es"]
    assert unknown_share(pool, "es") >= 0.3 > unknown_share(pool, "es", "nl")
    assert Ensemble().pooled(pool, spec) is None
    # a pool of Catalan lines, whose unknown words Catalan's list holds, is still Catalan
    catalan = "Què vols dir amb això? No ho sé pas. Anem-hi ara mateix, nois."
    found = Ensemble().pooled(catalan, spec)
    assert found is not None and found[0] == "ca", found
