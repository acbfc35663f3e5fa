# ruff: noqa: E501  (test data: wide CJK characters count double)
"""The lexicon-backed rules: corrupted starts decided with the reply's word list, languages outside the 17,
Malay and Indonesian, and the encoding rules' CJK-word and chance-round-trip controls."""

from __future__ import annotations

import pytest

from exporter.language import lexicon as lexicon_module
from exporter.language.detect import Ensemble, _lexicon_keeps, unknown_words
from exporter.language.judge import judge
from exporter.language.lexicon import fullest_words, fullest_zipf, lexicon, lexicon_or_none, preference
from exporter.language.locales import LOCALES
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome, Reason

NARRATION = {
    "en": "The keeper climbed the stairs of the old tower and lit the lamp before the storm reached the harbour.",
    "fr": "La gardienne monta l'escalier de la vieille tour et alluma la lampe avant que la tempête n'atteigne le port.",
    "it": "Non c'era nessuno nella locanda quando arrivammo, solo il fuoco che crepitava nel camino e un gatto addormentato.",
    "es": "Quédate aquí conmigo, la tormenta no tardará en pasar y mañana podremos volver al puerto con los demás.",
    "uk": "Стрілець з луком стояв біля воріт і дивився, як туман повільно сповзає з пагорбів на сонне місто.",
    "pl": "stał w drzwiach karczmy i patrzył, jak deszcz spływa po szybach, a ogień w kominku powoli dogasa.",
    "ja": "ですが、あの塔の灯りはまだ消えていません。嵐が来る前に、港の人々に知らせなければなりません。",
    "ko": "'검은 숲'에서 돌아온 사람은 아무도 없었다. 그래도 그는 등불을 들고 천천히 숲 쪽으로 걸어갔다.",
    "zh-Hans": "rsync 命令会把旧塔里的地图同步到港口的服务器上，船长每天早上都要检查一遍，确保没有遗漏任何一张。",
}


@pytest.mark.parametrize(
    ("prefix", "locale"),
    [
        ("ally ", "en"),  # an English word, but a lowercase token before a capitalised sentence
        ("ation ", "fr"),  # no word of French at all
        ("ation ", "it"),
        ("ly — ", "es"),  # before a dialogue dash
        ("ment — ", "uk"),
        ("Ation ", "fr"),  # a capitalised non-word before a function word
        ("con ¡", "es"),  # a lowercase word before an inverted exclamation
        ("to *", "en"),  # a lowercase function word the reply uses again is still a piece
    ],
)
def test_a_piece_spaced_from_a_capitalised_sentence_is_a_corrupted_start(prefix: str, locale: str) -> None:
    text = prefix + NARRATION[locale]
    found = find_corrupted_start(text, locale)
    assert found is not None and found.kind == "fragment", (text, found)
    assert judge(text, locale).reason is Reason.LEADING_GARBAGE


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Мирон — " + NARRATION["uk"], "uk"),  # a name, a dash and a capitalised word
        ("Delfador — " + NARRATION["en"], "en"),
        ("Ви - Кай Крелліс, син і спадкоємець останнього короля, але ще лише дитина в цьому місті.", "uk"),
        ("Müller " + NARRATION["pl"], "pl"),  # a foreign surname opening a sentence
        ("Nguyễn " + NARRATION["en"][0].lower() + NARRATION["en"][1:], "en"),
        (NARRATION["ja"], "ja"),  # a sentence opening with a conjunction
        (NARRATION["ko"], "ko"),  # a closed quoted term then its particle
        (NARRATION["zh-Hans"], "zh-Hans"),  # a CJK paragraph opening with a Latin command name
        ("grep コマンドは、古い塔の記録から嵐の日付を探し出し、港の人々に知らせるために使われた。", "ja"),
        ("Pero ¡Libre! La tormenta ha pasado y mañana podremos volver al puerto con los demás.", "es"),
        ("Nieumarli. To będzie twoje pierwsze wyzwanie jako przywódcy, musisz pokonać te kreatury.", "pl"),
        ("EPERM The caller attempted to modify the capabilities of a thread other than its own.", "en"),
        (
            "修復 - 依存関係が壊れたシステムの修正を試みます。このオプションを使うと、足りない依存関係を補います。",
            "ja",
        ),
        ("ĐỊNH DẠNG là một của rc, res hay coff, và được quyết định từ phần mở rộng của tên tập tin.", "vi"),
        ("de Vries zei dat de storm voorbij was en dat we morgen weer naar de haven konden varen.", "nl"),
        ("Oh, " + NARRATION["en"][0].lower() + NARRATION["en"][1:], "en"),
    ],
)
def test_legitimate_starts_pass(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text
    assert judge(text, locale).outcome is Outcome.PASS, judge(text, locale)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        (
            "denly 愚かなガキめ、お前が戦士と呼ぶ脆弱な農民を過大評価していると見える。これから川はお前たちの血で紅く染まるだろう。",
            "ja",
        ),
        (
            "zk 但和平并不是永恒的。一天早晨塔林被号角军鼓和金属碰撞的声音惊醒，他立刻跑到城墙上去看。",
            "zh-Hans",
        ),
        (
            "於 町に伝令を送ったか。良い考えだが、それでどうにかなると思っているのか？我々の戦力は貴様等を凌駕している。",
            "ja",
        ),
        (
            "rai Kalenz — 你们应该轻装前行，在兽人再次进攻之前，你们必须到达高溪谷。我想你应该只带最好的战士。",
            "zh-Hans",
        ),
        (
            "ally 이 바다를 이십 년 동안 항해했지만 이렇게 고요한 바다는 처음 본다. 낯선 사내가 문턱을 넘어섰다.",
            "ko",
        ),
        (
            "ـCuando se usa este ataque, el daño recibido por los ataques de fuego se verá reducido a la mitad.",
            "es",
        ),
    ],
)
def test_pieces_in_cjk_replies_and_other_scripts_glued_to_latin_are_corrupted_starts(
    text: str, locale: str
) -> None:
    assert judge(text, locale).reason is Reason.LEADING_GARBAGE, judge(text, locale)


def test_the_lexicon_knows_words_and_common_words_and_loads_once() -> None:
    en = lexicon("en")
    assert en.is_word("keeper") and not en.is_word("ation") and en.is_common("The")
    assert en.rank("the") == 0 and en.rank("ation") == 5_000
    assert lexicon("pt-BR") is lexicon("pt") and lexicon("pt-BR").language == "pt"  # one copy a language
    with pytest.raises(LookupError):
        lexicon("xx")
    # the lookup the rules use says "no list" with None, and gives the same copy otherwise
    assert lexicon_or_none("xx") is None and lexicon_or_none("pt-BR") is lexicon("pt")


def test_a_start_judged_without_a_locale_asks_for_no_lexicon(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    real = lexicon_module.lexicon
    monkeypatch.setattr(lexicon_module, "lexicon", lambda language: asked.append(language) or real(language))
    # a token in capitals, a comma and an opener: with a locale, the rule asks the reply's lexicon
    found = find_corrupted_start("KEEPER, — Hola, dijo el guarda del faro.")
    assert found is not None and found.prefix == "KEEPER" and asked == []  # no list named "None"
    find_corrupted_start("KEEPER, — Hola, dijo el guarda del faro.", "es")
    assert "es" in asked and "None" not in asked
    assert lexicon_or_none(None) is None


def test_words_are_found_then_folded_the_way_the_turkish_list_writes_them() -> None:
    # casefold() writes İ as i and a combining dot: folded before the letters are found, "İyi" would be
    # two words ("i", "yi"), found first and folded plainly, a word no Turkish list holds
    tr, sentence = lexicon("tr"), "İyi geceler, İpek. Işık yandı."
    assert tr.words(sentence) == ["iyi", "geceler", "ipek", "ışık", "yandı"]
    assert all(map(tr.ranks.__contains__, tr.words("İyi misin? İyiyim.")))
    assert lexicon("en").words("İyi Straße") == ["i\u0307yi", "strasse"]  # other languages: casefold
    # the detector's lexicon rules read the same words: every one of these is Turkish
    assert _lexicon_keeps("İyi misin? İyiyim.", "tr", "en")
    assert unknown_words("İstanbul İçin İyi bir gün, İpek ile birlikte.", "tr") == (0, 8)


def test_malay_and_indonesian_lexicons_lean_their_own_way() -> None:
    malay = [
        "kerana",
        "dia",
        "tidak",
        "boleh",
        "datang",
        "sahaja",
        "ke",
        "kedai",
        "itu",
        "untuk",
        "membeli",
        "kereta",
        "baharu",
    ]
    indonesian = [
        "karena",
        "dia",
        "tidak",
        "bisa",
        "datang",
        "saja",
        "ke",
        "toko",
        "itu",
        "untuk",
        "membeli",
        "mobil",
        "baru",
    ]
    ms, id_ = lexicon("ms"), lexicon("id")
    assert preference(malay, ms, id_).per_word > 0.5 > 0 > preference(indonesian, ms, id_).per_word


@pytest.mark.parametrize(
    ("sentence", "locale", "language"),
    [
        ("Els nans estaran encantats de lluitar al vostre costat contra els orcs del nord.", "es", "ca"),
        ("Die dwerge sal bly wees om saam met julle teen die orke van die noorde te veg.", "nl", "af"),
        ("Джуджетата ще се радват да се бият заедно с вас срещу орките от севера.", "ru", "bg"),
        ("Kääbused on rõõmsad, et saavad teie kõrval põhja orkide vastu võidelda.", "de", "et"),
        ("Trpaslíci budú radi bojovať po vašom boku proti orkom zo severu.", "pl", "sk"),
    ],
)
def test_a_language_outside_the_seventeen_counts_as_foreign(
    sentence: str, locale: str, language: str
) -> None:
    call = Ensemble().call(sentence, LOCALES[locale])
    assert call.status == "foreign" and call.language == language, call


def test_a_switch_to_catalan_in_a_spanish_reply_fails() -> None:
    reply = ("Els nans estaran encantats de lluitar al vostre costat contra els orcs del nord. "
             "Hem de marxar abans que surti el sol, perquè el camí cap a les muntanyes és llarg i perillós. "
             "Agafeu les armes i seguiu-me sense fer soroll.")  # fmt: skip
    verdict = judge(reply, "es")
    assert verdict.outcome is Outcome.FAIL and verdict.reason is Reason.SWITCH, verdict


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        (
            "Il est parti sans un mot. Elle dit *谢谢* et ferma la porte derrière lui, seule dans la maison froide.",
            "fr",
        ),
        (
            "Perhaps he will die, and I *谢谢* will win our battle without fighting. We have escaped the tunnels!",
            "en",
        ),
        (
            "둘 보다는 셋이 되는 편이 더 낫겠지요. 남안국의 왕자는 괜찮은 인물이었고, 그만큼 그 백성들에 대한 보증이 됩니다.",
            "ko",
        ),
    ],
)
def test_a_cjk_word_in_latin_text_and_real_korean_are_not_mojibake(text: str, locale: str) -> None:
    assert judge(text, locale).reason is not Reason.ENCODING, judge(text, locale)


def test_utf8_read_as_big5_fails_in_a_traditional_chinese_reply() -> None:
    clean = "雨點不停地敲打著百葉窗，壁爐裡的火輕輕地劈啪作響。她把燈籠放在桌上，默默地研究那張舊地圖。"
    bad = clean.encode("utf-8").decode("big5", errors="replace")
    assert judge(bad, "zh-Hant").reason is Reason.ENCODING


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Aucune *안녕* idée. Mais ils ont établi leur camp sur le chemin du Nord, loin de nous.", "fr"),
        ("Bene, «你好» gli elfi sono ormai dietro di me, ma i loro cavalieri sono veloci.", "it"),
        ("Это *你好* будет долгий путь, и мы пойдём по нему вместе до самого конца.", "ru"),
        ("Eğer «ありがとう» dersen, sana yolun geri kalanını da gösteririm, dostum.", "tr"),
    ],
)
def test_a_quoted_cjk_word_after_the_first_word_of_latin_or_cyrillic_text_is_no_corrupted_start(
    text: str, locale: str
) -> None:
    # The word before the quote opens a sentence that goes on in the reply's alphabet: the quote is a
    # word inside it, not the opening of CJK text after a cut token ("Rata 「如果…」").
    assert judge(text, locale).outcome == "pass", judge(text, locale)


def test_fullest_zipf_reads_the_large_list_where_there_is_one_and_gives_its_floor() -> None:
    found, floor = fullest_zipf("it", ["città", "citt", "zzqxw"])
    assert found["città"] > 5 and 1 < found["citt"] < 3.5 and "zzqxw" not in found and floor == 1.0
    # Indonesian has only the small list: a word it lacks is rarer than Zipf 3
    found, floor = fullest_zipf("id", ["yang", "zzqxw"])
    assert found["yang"] > 6 and floor == 3.0
    assert fullest_zipf("xx", ["a"]) == ({}, 0.0)


def test_fullest_words_keeps_the_accepted_words_down_to_the_least_frequency_asked() -> None:
    found = fullest_words("it", lambda word: word.endswith("rà"), 3.0)
    assert found["sarà"] > 5 and min(found.values()) >= 3.0 and all(w.endswith("rà") for w in found)
    assert fullest_zipf("it", found)[0] == found  # the same frequencies as the other reader gives
    assert "annullerà" in fullest_words("it", lambda word: word.endswith("rà"), 2.0)  # Zipf 2.13
    assert fullest_words("xx", lambda word: True, 0.0) == {}


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("grande. E spingo e sudo, ma non riesco ad aprirla. Quand'ero piccolo non avevo l'orologio.", "it"),
        ("zrobimy. Ostrożnie sunęli przez paprocie. Sierżant przykucnął przy pieńku.", "pl"),
    ],
)
def test_a_reply_picked_up_after_a_sentences_last_word_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    # a piece with a full stop is no word of the language; a short word is also a common piece
    after = text[text.index(".") :]
    assert find_corrupted_start("ation" + after, locale) is not None
    assert find_corrupted_start("con" + after, locale) is not None


def test_an_aside_in_brackets_opening_the_reply_passes() -> None:
    text = "(od Linuksa 2.6.19 wymagane jest CONFIG_HIGHMEM) Wielkość całkowita pamięci lowmem."
    assert find_corrupted_start(text, "pl") is None
    # the same words with no bracket are a piece before a capitalised word
    assert find_corrupted_start(text[1:].replace(")", ""), "pl") is not None


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("ExecutOh, prince Haldric has emerged from the tomb.", "en", "Execut"),  # glued to an interjection
        ("ExecutThis is too quiet. I don't like this one bit.", "en", "Execut"),  # to a pronoun
        ("ListenerAy, el dominio de los fantasmas es difícil.", "es", "Listener"),  # no Spanish word
        ("TOKMi señor, los enanos lideran la marcha.", "es", "TOK"),  # an UPPER piece
        ("— ExecutThis is too quiet.", "en", "Execut"),  # behind a dialogue dash
    ],
)
def test_a_piece_glued_to_the_word_a_sentence_opens_with(text: str, locale: str, piece: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("LinkedIn is a social network for professionals.", "en"),  # a name the lexicon knows
        ("PowerShell is the shell of Windows.", "en"),  # a name glues a noun, no function word
        ("YouTube ist eine Videoplattform.", "de"),
        ("KDEs E-Mail-Programm kann mit dem Befehl apt installiert werden.", "de"),  # an abbreviation's s
        ("DSAs are signed with the Debian Security Team's key.", "en"),
        ("GoIn is our tool: run GoIn before the build.", "en"),  # a name the reply uses again
        ("ValueThis is the percentage or value.", "en"),  # a word of the language glued: a lost space
        ("MientrasAy, el dominio de los fantasmas es difícil.", "es"),
    ],
)
def test_camel_case_names_are_not_glued_pieces(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
