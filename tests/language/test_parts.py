"""The judge's parts on their own: encoding, corrupted starts, hanzi tables, sentence splitting, locales."""

from __future__ import annotations

import itertools
import re
import socket

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.devtools.simulator.locales import Texts
from exporter.language import detect
from exporter.language.detect import Ensemble, fasttext_model_path
from exporter.language.encoding import CJK_CODECS, EncodingChecker, split_runs
from exporter.language.hanzi import HanziTables
from exporter.language.judge import default_judge, judge
from exporter.language.locales import DEFAULT_LOCALES, LOCALES, canonical_locale
from exporter.language.scripts import (
    CJK_PUNCTUATION,
    HALFWIDTH_KATAKANA,
    HAN_BLOCKS,
    HANGUL_SYLLABLES,
    KANA_BLOCKS,
    Script,
    letter_ranges,
    script_counts,
    span_counts,
)
from exporter.language.segment import is_quoted, quotation, split_sentences
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome
from tests.fuzz_profile import examples

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
    assert tables.variant("这是我的書") is None and tables.variant("这是我们的書") == "zh-Hans"  # a lead of 1


def test_the_cjk_blocks_hold_the_letter_classes_and_the_documented_difference() -> None:
    every = "".join(map(chr, range(0x3000, 0x20001)))  # the CJK blocks and the first supplementary Han

    def chars(ranges: str) -> set[str]:
        return set(re.findall(f"[{ranges}]", every))

    kana, han = chars(letter_ranges(Script.KANA)), chars(letter_ranges(Script.HAN))
    blocks = chars(KANA_BLOCKS + HALFWIDTH_KATAKANA)
    # kana letters: the blocks less their marks, punctuation and unassigned points, plus the extensions
    assert kana - blocks == {chr(cp) for cp in range(0x31F0, 0x3200)}
    assert {"゛", "゜", "・", "｡", "｢", "･", "ﾞ", "ﾟ"} <= blocks - kana and "ー" in kana and "ｱ" in kana
    # Han letters: the blocks less the Yijing hexagrams, plus 々 and 〇 and the supplementary planes
    assert chars(HAN_BLOCKS) - han == {chr(cp) for cp in range(0x4DC0, 0x4E00)}
    assert {"々", "〇", "\U00020000"} <= han - chars(HAN_BLOCKS) and "々" in chars(CJK_PUNCTUATION)
    assert chars(HANGUL_SYLLABLES) < chars(letter_ranges(Script.HANGUL)) and "가" in chars(HANGUL_SYLLABLES)


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
        "en",  # BCP 47: a region on a locale that has none names that locale (issue 11)
    )
    unknown = (canonical_locale("pt-PT"), canonical_locale("zh-US"), canonical_locale("en-"))
    assert unknown == (None, None, None)


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


@pytest.mark.parametrize(
    "text",
    [
        '" The keeper lit the lamp at dusk, as he had done for forty years.',
        '"你好，欢迎来到灯塔。今晚的风很大，请进来坐吧。',
        "' The keeper lit the lamp at dusk, as he had done for forty years.",
        "_The keeper lit the lamp at dusk, as he had done for forty years.",
        '".Il guardiano accese la lampada al tramonto, come ogni sera.',
        "*. The keeper lit the lamp at dusk.",
        "«. Le gardien alluma la lampe au crépuscule.",
        "¿, Dónde está el faro que buscamos desde ayer?",
        '""The keeper lit the lamp at dusk, as he had done for forty years.',
        "ción.El guardián encendió la lámpara al anochecer.",
        "s.The keeper lit the lamp at dusk, as he had done for forty years.",
        "니다The keeper lit the lamp at dusk, as he had done for forty years.",
        "ます Hello there, traveller, come in out of the rain.",
        "ark你好，欢迎来到灯塔。今晚的风很大，请进来坐吧。",
        "ment —Quédate aquí, dijo el guardián, y cerró la puerta.",
        "ing *The keeper lights the lamp* and turns to greet you.",
        "\u200e, The keeper lit the lamp at dusk, as he had done for forty years.",
    ],
)
def test_issue_11_corrupted_starts_are_found(text: str) -> None:
    assert find_corrupted_start(text) is not None, text


@pytest.mark.parametrize(
    "text",
    [
        "ok. Let me light the lamp first, then we can talk about the ship.",
        "sure! Come in, the kettle is already on the stove.",
        "hmm… That is a strange question to ask a lighthouse keeper.",
        "hmmm, Mark, are you sure?",
        "oh, Mark! You came back after all these years.",
        "rsync Kopiert Dateien lokal oder über das Netz; rsync überträgt nur die Unterschiede.",
        '"The keeper lit the lamp," she said, "and then he waited."',
        "'Tis the season, the keeper said, and lit the lamp.",
        "_Le gardien_ alluma la lampe au crépuscule.",
        "* first item\n* second item",
        "「灯台へようこそ」と彼は言った。",
        "mandb는 매뉴얼 페이지 색인을 만듭니다.",
        '"..." The keeper said nothing at all.',
        "— Quédate aquí — dijo el guardián.",
        "**Bold** words open this reply.",
    ],
)
def test_issue_11_legitimate_starts_pass(text: str) -> None:
    assert find_corrupted_start(text) is None, find_corrupted_start(text)


def test_a_glob_is_not_an_opener_followed_by_a_full_stop() -> None:
    assert find_corrupted_start("*.scope files are created programmatically by the service manager.") is None
    assert find_corrupted_start("*. The keeper lit the lamp.") is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('Ивать "Si se especifica el fichero, se lee para determinar los colores."', "es"),
        ("えて - El sistema crea los grupos de forma programada para gestionar procesos.", "es"),
        ("Şlem Si no se escribe el parámetro, el dominio se determina por la variable.", "es"),
        ("ờng¿El sistema mini-Debian es la fase tres del proceso de arranque?", "es"),
        ("ONAL «Hay disponibles muchas fuentes escalables para los usuarios.»", "es"),
        ("RFACE - Meldungen suchen, die in zwei oder mehr Dateien vorkommen.", "de"),
        ('Rata "如果这些地址分配到一个主机，那么这个主机就可以使用它们。"', "zh-Hans"),
        ("니다 今晚的风很大，请进来坐吧。我们一起喝茶。", "zh-Hans"),
        ("OПо таймауту команде посылается сигнал завершения работы.", "ru"),
        ("ованy el perro dormía junto al fuego, y nadie lo despertó.", "es"),  # before Latin text: a piece
        ("N\n- Если не задан символ, начальные пробелы удаляются.", "ru"),
        ("R- HASHES bestimmt den Hash-Algorithmus für die Signatur.", "de"),
        ("КDe manière à rendre un paquet plus sûr à installer, certains programmes.", "fr"),
        ("le«De la même manière, le fichier image peut être écrit sur une partition.»", "fr"),
        ("RUMDA (By default, initdb will write instructions for how to start the cluster.", "en"),
        ('" You should list only one of them in the "" line, or APT slows down.', "en"),
        ("_Este error normalmente significa que la petición excedía la memoria (TIME_STYLE).", "es"),
        ("aar 「Si cette option est vraie, l'opération interroge toujours l'utilisateur.」", "fr"),
    ],
)
def test_pieces_in_another_script_alphabet_or_before_an_opener_are_corrupted_starts(
    text: str, locale: str
) -> None:
    assert find_corrupted_start(text, locale) is not None, text


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Gebruikers- en groepsnamen worden getoetst aan deze reguliere expressie.", "nl"),
        ("Copyright (C) 2024 Free Software Foundation, Inc. To oprogramowanie jest darmowe.", "pl"),
        ('Режим "только для чтения". Включается опция readonly.', "ru"),
        ("Linux — это ядро операционной системы, а не вся система целиком.", "ru"),
        ("Łukasz przyszedł wczoraj, a Łukasz zawsze przychodzi punktualnie.", "es"),
        ("Cơn mưa đêm qua làm ướt cả con đường trước nhà tôi.", "id"),  # a switch, not a piece
        ('The "Golden Dragon" inn was quiet; the keeper polished the bar.', "en"),
        ("Ña, Señora, ¿qué desea usted comer esta noche?", "es"),
        ("Kael *draws his sword* and steps into the light.", "en"),
        ('" Hello," she said, "come in out of the rain."', "en"),
        ("_Le gardien_ alluma la lampe au crépuscule.", "fr"),
        ("Linux (Debian) is the system we use on every server here.", "en"),
        ("日本語の文章です。東京都に住んでいます。", "ja"),
        ("한국어 문장입니다. 서울에 살고 있습니다.", "ko"),
        ("デフォルトのオプションは -bt -d'", "ja"),
    ],
)
def test_names_words_and_replies_in_their_own_alphabet_are_legitimate_starts(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, find_corrupted_start(text, locale)


@pytest.mark.parametrize(
    "text",
    [
        "Questa opzione è usata per cambiare l'output di groff per adattarlo a un dispositivo diverso.",
        "Gli strumenti descritti in «Strumenti di archiviazione» e «Strumenti di copia» sono utili.",
    ],
)
@pytest.mark.parametrize("codec", ["gb18030", "big5", "cp949", "euc_jp", "cp932"])
def test_one_legacy_cjk_character_in_latin_text_is_mojibake(text: str, codec: str) -> None:
    bad = text.encode("utf-8").decode(codec, errors="replace")
    found = EncodingChecker().find(bad)
    assert found is not None and found.kind in ("mojibake", "replacement_character"), bad


def test_one_cjk_character_in_cjk_text_or_a_quoted_word_is_not_mojibake() -> None:
    checker = EncodingChecker()
    assert checker.find("猫がいます。とても可愛い猫です。") is None
    assert checker.find("这是一只猫。") is None


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        # the double-byte reading swallowed the ASCII letter after the sequence ("ę" + "d")
        ("Od tej pory apt-get upgrade będzie aktualizować ten pakiet do najnowszej wersji.", "cp932"),
        # a quote's, an arrow's or a bullet's last byte dropped; its lead byte dropped leaves a rare syllable
        ("Choose the menu “Options” and then the tab called Preferences to change the language.", "gb18030"),
        ("Open the menu → Options → Preferences and pick the language you want.", "cp949"),
        ("Lihat Bagian 5.6, “Infrastruktur netfilter” untuk optimasi berbasis paket.", "cp949"),
        ("The values are: • none: no focus tracking • centered: the image is centred.", "cp932"),
    ],
)
def test_legacy_cjk_mojibake_with_dropped_bytes_is_found(text: str, codec: str) -> None:
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    found = EncodingChecker().find(bad)
    assert found is not None and found.kind == "mojibake", bad


# A manual's Traditional Chinese saying 表格 and 表單 over and over: past the pair share in Big5 (0.27), not
# among its distinct characters (0.17); the same text with its second half misread is mojibake.
_FORM_MANUAL = (
    "在表單中加入清單方塊時，可以選擇要顯示的表格欄位。清單方塊的內容來自資料庫表格，而使用者選取的值會儲存到表單的表格中。"
    "透過參照值，清單方塊可以顯示與目前表單表格連結的表格中的資料。因此清單方塊精靈允許兩個資料庫表格連結，讓控制項欄位可以顯示詳細的資料庫欄位清單。"
)


def test_clean_text_repeating_a_few_pair_like_words_is_not_dropped_bytes() -> None:
    checker = EncodingChecker()
    assert checker.find(_FORM_MANUAL, "zh-Hant") is None
    raw = _FORM_MANUAL.encode()
    bad = raw[: len(raw) // 2].decode("utf-8", errors="ignore") + raw[len(raw) // 2 :].decode(
        "big5", errors="ignore"
    )
    found = checker.find(bad, "zh-Hant")
    assert found is not None and found.kind == "mojibake", bad


# UTF-8 read with each legacy codec (Korean, Chinese, Polish, arrows): runs as they look when they repair.
_MOJIBAKE = [
    text.encode().decode(codec, errors=errors)
    for text in ("오늘 해변에서 일출을 봤어요.", "我们今天在海边。", "będzie → „tak”")
    for codec in CJK_CODECS
    for errors in ("replace", "ignore")
]


@pytest.mark.parametrize("codec", CJK_CODECS)
def test_no_legacy_cjk_codec_encodes_a_non_ascii_character_to_a_newline_or_question_mark(codec: str) -> None:
    # What lets _cjk_mojibake encode all runs at once, joined by "\n": each encodable character's bytes are
    # 0x30 or more (GB18030's four-byte form uses digits 0x30-0x39 in second and fourth place), never "?".
    every = "".join(map(chr, itertools.chain(range(0x80, 0xD800), range(0xE000, 0x110000))))
    raw = every.encode(codec, errors="ignore")
    assert min(raw) >= 0x30 and b"?" not in raw


@settings(max_examples=examples(80), deadline=None)
@given(text=st.text(alphabet=st.characters(codec="utf-8"), max_size=300) | st.sampled_from(_MOJIBAKE))
def test_runs_encoded_at_once_split_into_each_runs_own_encoding(text: str) -> None:
    runs = re.findall(r"[^\x00-\x7f]+", text)
    for codec in CJK_CODECS:
        split = list(split_runs("\n".join(runs).encode(codec, errors="replace")))
        assert len(split) == max(1, len(runs))
        for chars, (raw, valid) in zip(runs, split, strict=False):
            try:
                alone = chars.encode(codec)
            except UnicodeEncodeError:
                assert b"?" in raw
                continue
            assert (raw, valid) == (alone, len(alone.decode("utf-8", errors="ignore").encode()))


def test_common_hangul_or_han_in_latin_text_is_not_mojibake() -> None:
    checker = EncodingChecker()
    assert (
        checker.find("The Korean word 한 means one, and the keeper wrote it on the lighthouse wall.") is None
    )
    assert (
        checker.find("The character 中 means middle, and the keeper wrote it on the lighthouse wall.") is None
    )


@pytest.mark.parametrize(
    ("text", "locale", "corrupted"),
    [
        ('Nas "Notas de Lançamento" anteriores, GCC e Perl precisaram de atenção especial.', "pt-BR", False),
        ('Informasi "To" dan "From" di header pesan ditampilkan oleh klien surel.', "id", False),
        (
            "小节名称通常包括 NAME, 概述(SYNOPSIS), 配置(CONFIGURATION), 描述(DESCRIPTION), 选项(OPTIONS)。",
            "zh-Hans",
            False,
        ),
        ('ONAL "Hay disponibles muchas fuentes." Luego se instalan.', "es", True),  # a sentence, closed
        ('Ing "Stay here," she said, and lit the lamp.', "en", True),  # dialogue closes after its punctuation
        # a quoted place holds a comma between its words; a quoted sentence still ends with its own mark
        ("Tapez « Lisbonne, Portugal » dans le champ de recherche puis validez.", "fr", False),
        ('Ing "Stay here, keeper," she said, and lit the lamp.', "en", True),
        ("ation « Reste ici, gardien. » Puis il partit.", "fr", True),
        ("想象成從 — Ahora el guardián enciende la lámpara.", "es", True),
    ],
)
def test_a_quoted_term_inside_the_sentence_and_cjk_prose_with_latin_names_open_legitimately(
    text: str, locale: str, corrupted: bool
) -> None:
    assert (find_corrupted_start(text, locale) is not None) is corrupted, find_corrupted_start(text, locale)


def test_cjk_text_read_as_euc_jp_with_bytes_dropped_is_mojibake_and_clean_kanji_are_not() -> None:
    text = "風暴終於在天亮之前過去了，海面又恢復了平靜。我至今還記得那艘老蒼鷺號沉沒的夜晚，彷彿就在昨天。"
    checker = EncodingChecker()
    assert checker.find(text) is None
    found = checker.find(text.encode("utf-8").decode("euc_jp", errors="ignore"))
    assert found is not None and found.kind == "mojibake" and found.codec == "euc_jp"


_SCRIPT_SAMPLES = (
    "aZé’— ÀÖØöøÿḀỿĂ привіт ЁЇ҂ 日本語の文章です。〇々鿾\ufa6e 한국어ㄱ µɐʼ Ωλ ٣ ½² 𠀁𪛠🙂𝒜\n.,!?"
)


@settings(max_examples=examples(200), deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(_SCRIPT_SAMPLES) | st.characters(), max_size=60),
    cuts=st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60)), max_size=6),
)
def test_script_counts_per_span_are_those_of_each_span_alone(text: str, cuts: list[tuple[int, int]]) -> None:
    # The judge counts all of a reply's sentences from one classification of the reply: each span's counts
    # (their keys in order too: the main script is the first of the largest) are those of the span alone.
    spans = [(min(a, b, len(text)), min(max(a, b), len(text))) for a, b in cuts]
    counted = span_counts(text, spans)
    alone = [script_counts(text[start:end]) for start, end in spans]
    assert [list(c.items()) for c in counted] == [list(c.items()) for c in alone]


@pytest.mark.parametrize(
    ("text", "counts"),
    [
        ("Schluß, naïve µ", {Script.LATIN: 11}),  # µ is a letter of no script, not counted in Latin text
        ("Łódź — ɐʼ", {Script.LATIN: 4}),  # nor are IPA and modifier letters within the alphabets' blocks
        ("Привет, world", {Script.LATIN: 5, Script.CYRILLIC: 6}),
        ("µ 日本語です", {Script.HAN: 3, Script.KANA: 2, Script.OTHER: 1}),  # counted next to CJK
        ("Ωλ", {Script.OTHER: 2}),
        ("한국어 〇 𠀁 🙂", {Script.HAN: 2, Script.HANGUL: 3}),  # 〇 and extension B are Han, emoji nothing
        ("\ufa6eΩ文", {Script.HAN: 2}),  # an unassigned Han-range code point is Han, and no letter of other
    ],
)
def test_script_counts_follow_the_ranges_and_count_other_letters_beyond_the_alphabets(
    text: str, counts: dict[Script, int]
) -> None:
    assert script_counts(text) == counts


_TEXTS = Texts.load()
# Those with letters (ru uk pl tr vi) or function words (the others) that settle a sentence (detect.py).
_OWN_MARK_LOCALES = ("ru", "uk", "pl", "tr", "vi", "en", "es", "pt-BR", "fr", "de", "it", "nl", "id")
# Sentences the models do not call native that carry such letters, in one word or one word repeated, and
# sentences of another language with one listed word or a word it shares with the list.
_NOT_SETTLED = (
    ("tr", "Kopya Hakkı (C) %s Free Software Foundation, Inc."),
    ("pl", "Użycie: gsettings --version gsettings [--schemadir KATALOG-SCHEMATÓW] POLECENIE [PARAMETRY…]"),
    ("ru", "ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ ВЫРАЖЕНИЕ"),
    ("vi", "bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi bởi"),
    ("en", "Dit is een van de bestanden of mappen die het systeem gebruikt."),  # Dutch "of", "is"
    ("nl", "Der Wert wird nicht gesetzt, die Datei bleibt leer."),  # German "die"
    ("es", "Il valore del campo viene usato da tutti i programmi."),  # Italian "del"
    ("fr", "Se o arquivo de configuração não existir, ele será criado à parte."),  # Portuguese "de", "à"
)


@settings(max_examples=examples(150), deadline=None)
@given(
    data=st.data(),
    locale=st.sampled_from(_OWN_MARK_LOCALES),
    source=st.sampled_from(DEFAULT_LOCALES),
)
def test_own_letters_and_words_settle_only_sentences_the_models_call_native(
    data: st.DataObject, locale: str, source: str
) -> None:
    # A sentence with letters or function words only the expected language writes is called native without
    # the models: the call must be the one the models make (real text of every locale, one to three
    # sentences of it); the sentences of _NOT_SETTLED are never settled. Those of another language's
    # letters or words, which fastText names too, are foreign without CLD3: where CLD3 would have been
    # asked, it could only have left them unknown, never native.
    pool = sorted(_TEXTS.for_locale(source))
    text = " ".join(data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=3)))
    if data.draw(st.booleans()):
        locale, text = data.draw(st.sampled_from(_NOT_SETTLED))
        source = ""
    ensemble = default_judge().ensemble
    settled = ensemble.call(text, LOCALES[locale])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(detect, "OWN_LETTERS_WORDS", 10**9)  # neither letters nor words settle a sentence
        by_models = ensemble.call(text, LOCALES[locale])
    if settled.status == "foreign" and settled.basis in ("letters", "words"):
        assert source != locale and "cld3" not in settled.guess.as_evidence()  # type: ignore[union-attr]
        # The models may name the other of two twins (CLD3 says Malay for Indonesian the words settled):
        # a foreign call all the same, in a language the models cannot tell from the settled one.
        twins = {settled.language, detect.TWIN.get(settled.language or "")}
        assert by_models.status in ("unknown", "foreign") and by_models.language in {None, *twins}
        return
    assert (settled.status, settled.language) == (by_models.status, by_models.language)
    if settled.basis in ("letters", "words"):
        assert source == locale


def test_own_letters_settle_a_sentence_only_when_spread_over_its_words() -> None:
    ensemble = default_judge().ensemble
    assert ensemble.call("Мы пошли домой, и это было здорово, правда.", LOCALES["ru"]).basis == "letters"
    assert ensemble.call("Мы пошли домой вечером.", LOCALES["ru"]).basis == "models"  # one such word
    assert ensemble.call("Мы пошли домой, і це було здорово.", LOCALES["ru"]).basis == "models"  # і: not ru
    assert ensemble.call("Zażółć gęślą jaźń, proszę.", LOCALES["pl"]).basis == "letters"
    assert ensemble.call("Zażółć gęślą jaźń, proszę.", LOCALES["uk"]).basis != "letters"


def test_own_words_settle_a_sentence_only_when_two_of_them_spread_over_its_words() -> None:
    ensemble = default_judge().ensemble
    assert ensemble.call("The keeper lit the lamp and waited.", LOCALES["en"]).basis == "words"
    assert ensemble.call("The keeper lit a lamp at dusk.", LOCALES["en"]).basis == "models"  # one word
    assert ensemble.call("Die Datei und der Ordner.", LOCALES["de"]).basis == "words"
    dutch = ensemble.call("Het is niet een van de bestanden die wij zoeken.", LOCALES["en"])
    assert (dutch.status, dutch.language, dutch.basis) == ("foreign", "nl", "words")  # Dutch words
    # "is", "of", "van", "de" are common English words too: Dutch words alone no longer settle it, the
    # models (CLD3 agreeing) still call it Dutch
    shared = ensemble.call("Dit is een van de bestanden of mappen.", LOCALES["en"])
    assert (shared.status, shared.language, shared.basis) == ("foreign", "nl", "models")
    assert ensemble.call("Der Wert wird nicht gesetzt.", LOCALES["nl"]).status == "foreign"
    long_tail = "The lamp and " + " ".join(["Leuchtturm"] * 30) + "."  # two words, under a tenth
    assert ensemble.call(long_tail, LOCALES["en"]).basis != "words"


def test_another_languages_own_words_or_letters_and_fasttext_make_a_foreign_call_without_cld3() -> None:
    ensemble = default_judge().ensemble
    spanish = ensemble.call("El perro de los vecinos está muy cansado y también tiene hambre.", LOCALES["fr"])
    assert (spanish.status, spanish.language, spanish.basis) == ("foreign", "es", "words")
    assert spanish.guess is not None and "cld3" not in spanish.guess.as_evidence()  # not asked
    polish = ensemble.call("Wczoraj wieczorem poszliśmy razem nad jezioro, żeby łowić ryby.", LOCALES["de"])
    assert (polish.status, polish.language, polish.basis) == ("foreign", "pl", "letters")
    # Without such words both models must still agree, and CLD3's answer is part of the evidence.
    plain = ensemble.call("Jag tycker mycket om att läsa böcker på kvällen.", LOCALES["en"])  # Swedish
    assert (plain.status, plain.language, plain.basis) == ("foreign", "sv", "models")
    assert plain.guess is not None and "cld3" in plain.guess.as_evidence()


def test_a_sentence_foreign_by_its_script_is_named_by_fasttext_alone() -> None:
    call = default_judge().ensemble.call("Мы долго шли по лесу и наконец увидели старый дом.", LOCALES["fr"])
    assert (call.status, call.language, call.basis, call.strong) == ("foreign", "ru", "script", True)
    assert call.guess is not None and list(call.guess.as_evidence()) == ["fasttext"]


def test_a_sentence_between_two_straight_quoted_terms_is_not_inside_quotation_marks() -> None:
    text = '":help ZZ" escribe y después ":quit"'
    assert not is_quoted(text, 0, len(text))
    assert is_quoted('"Ela disse que vinha."', 0, 22)
    assert is_quoted("“Ele disse “talvez” e saiu.”", 0, 28)  # curly marks nest
    assert not is_quoted("...", 0, 3)  # nothing but punctuation: no sentence to be inside quotes


def test_a_full_stop_before_a_cjk_opening_bracket_or_after_a_closing_one_ends_a_sentence() -> None:
    assert [s.text for s in split_sentences("xxd -ps xxd.「Dữ liệu được mã hóa.」GUI 應用程式")] == [
        "xxd -ps xxd.",
        "「Dữ liệu được mã hóa.」",
        "GUI 應用程式",
    ]
    korean = "「보통 방식으로 출력합니다.」"
    assert [s.text for s in split_sentences(korean + "一些帶有")] == [korean, "一些帶有"]


@pytest.mark.parametrize(
    ("text", "locale", "prefix"),
    [
        ("力します¿その他のオプションは次のとおりです。", "ja", "力します"),  # ¿ „ «: no CJK text writes them
        ("到讀入„算術運算的結果會寫入標準輸出。", "zh-Hant", "到讀入"),
        ("o«1 番目の書式では TARGET に対する名前のリンクを作成します。", "ja", "o"),
        # a glued dash then a space; an accented piece, spaced; a kana run before Chinese
        ("t- ネットワーク中間者攻撃。署名をチェックしないと危険です。", "ja", "t"),
        ("á — スーパーユーザは、パスワードの有効期限を変更できる。", "ja", "á"),
        ("と这些扩展紧缩的权力模型比普通的类 Unix 安全模型更加严格。", "zh-Hans", "と"),
        ("는该组件 ID 不是反向域名。请更新 ID 以避免未来的问题。", "zh-Hans", "는"),
        ("rüm各パッケージの客観的指標としてサイズも提供されます。", "ja", "rüm"),
        ("ンソールから次のコマンドを実行してください。", "ja", "ン"),  # no Japanese word starts with ン
    ],
)
def test_pieces_before_marks_cjk_never_writes_or_of_another_cjk_script_are_corrupted_starts(
    text: str, locale: str, prefix: str
) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == prefix, found


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("彼は静かに言った。そして扉を閉めて階段を下りていった。", "ja"),
        ("Linux系统的内核由 Linus Torvalds 编写，现在由社区维护。", "zh-Hans"),
        ("使用“ls”命令可以列出目录中的文件。", "zh-Hans"),
        ("「ここで待っていて」と彼女は言った。", "ja"),
        ("は、と彼は答えた。", "ja"),  # kana opening a Japanese reply is its first word
        ("한국어 문장은 띄어쓰기를 합니다. 漢字도 가끔 씁니다.", "ko"),
        ("— 你好！他笑着说。", "zh-Hans"),
    ],
)
def test_cjk_replies_opening_with_words_quotes_or_names_are_legitimate_starts(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


def test_the_sentences_of_one_quotation_share_its_offsets() -> None:
    text = "Il a écrit ceci. “Open the file first. Then close it.” Puis il est parti. «Oui.» Fin."
    spans = [quotation(text, s.start, s.end) for s in split_sentences(text)]
    assert spans[1] == spans[2] == (text.index("“"), text.index("”") + 1)
    assert spans[0] is None and spans[3] is None and spans[5] is None  # the narration around it
    assert spans[4] == (text.index("«"), text.index("»") + 1)  # another quotation
    # A sentence whose own words open a quotation is not inside it.
    framed = "Il a dit : “Open the file first. Then close it.”"
    assert [quotation(framed, s.start, s.end) for s in split_sentences(framed)] == [None, (11, 48)]
    # A quotation that does not close on its line holds no sentence before the line break.
    broken = "“Open the file first.\nThen close it.”"
    assert quotation(broken, 0, broken.index("\n")) is None
    # German closing quotes end a sentence like any closing quote.
    assert [s.text for s in split_sentences("„Bitte warten.“ Dann geht es weiter.")] == [
        "„Bitte warten.“",
        "Dann geht es weiter.",
    ]


def test_text_between_two_quotations_is_not_inside_one() -> None:
    # `»` and `«` open and close in different conventions; between `«Sposta»` and `«Sposta»` they face
    # away from the English sentences, which no quotation holds.
    text = "Aprire il filtro «Sposta». This filter is a tool. It moves pixels. Il filtro «Sposta» applicato."
    assert [quotation(text, s.start, s.end) for s in split_sentences(text)][:3] == [None, None, None]
    # A quotation opened by `»` and closed by `«`, as German writes it, holds its sentences.
    german = "Er sagte es so. »Open the file first. Then close it.«"
    spans = [quotation(german, s.start, s.end) for s in split_sentences(german)]
    assert spans == [None, (16, len(german)), (16, len(german))]
