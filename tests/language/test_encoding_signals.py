"""Encoding signals: a CJK word among Cyrillic words, inverted marks read as cp932, apostrophes dropped by a
lossy decoder, and CJK text read as EUC-JP or Big5 with its undecodable bytes dropped."""

from __future__ import annotations

import unicodedata

import pytest

from exporter.language.encoding import EncodingChecker
from exporter.language.judge import judge
from exporter.outcomes import Reason

CHECKER = EncodingChecker()

_RUSSIAN = (
    "Мы долго шли через лес, и только к вечеру увидели огни деревни. Там нас ждали тёплый ужин и ночлег."
)
_UKRAINIAN = "Ми довго йшли крізь ліс, і лише ввечері побачили вогні села. Там на нас чекали вечеря і нічліг."


@pytest.mark.parametrize("text", [_RUSSIAN, _UKRAINIAN])
@pytest.mark.parametrize("word", ["*谢谢*", "«小写»", "谢谢"])
def test_a_cjk_word_that_repairs_to_cyrillic_among_cyrillic_words_is_not_mojibake(
    text: str, word: str
) -> None:
    # 谢谢 in GB18030 is D0 BB D0 BB, which decodes as UTF-8 to "лл": Cyrillic, but the Cyrillic words after
    # it were decoded right, which no misread stream leaves.
    words = text.split(" ")
    quoted = " ".join([*words[:4], word, *words[4:]])
    assert CHECKER.find(quoted) is None, CHECKER.find(quoted)


@pytest.mark.parametrize("text", [_RUSSIAN, _UKRAINIAN])
@pytest.mark.parametrize("codec", ["gb18030", "cp949", "big5"])
def test_cyrillic_read_with_a_legacy_cjk_codec_to_its_end_is_still_mojibake(text: str, codec: str) -> None:
    half = len(text) // 2
    bad = text[:half] + text[half:].encode("utf-8").decode(codec, errors="replace")
    found = CHECKER.find(bad)
    assert found is not None and found.kind in ("mojibake", "replacement_character"), bad


def test_inverted_marks_read_as_cp932_are_mojibake_in_latin_text() -> None:
    text = "Llegamos tarde. ¿Cual es el camino al puerto? ¡Vamos ya!"  # the marks are its only non-ASCII
    assert CHECKER.find(text) is None
    bad = text.encode("utf-8").decode("cp932", errors="replace")  # ¿ is C2 BF: "ﾂｿ"
    assert "ﾂｿ" in bad
    found = CHECKER.find(bad)
    assert found is not None and found.kind == "mojibake" and found.codec == "cp932", found


_ENGLISH = (
    "Well, we didn’t have to cross the river after all. They’ll follow us north, so let’s move at dawn."
)


@pytest.mark.parametrize("codec", ["big5", "euc_jp"])
def test_english_whose_apostrophes_a_lossy_decoder_dropped_fails(codec: str) -> None:
    bad = _ENGLISH.encode("utf-8").decode(codec, errors="ignore")
    assert "didnt" in bad and not any(ord(c) > 127 for c in bad)  # no character of the codec is left
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "lost_apostrophe" and found.sample == "didnt", found
    assert judge(bad, "en").reason is Reason.ENCODING


@pytest.mark.parametrize(
    ("original", "sample"),
    [
        ("I can’t leave through the door. Of course, it’s a cactus.", "I cant"),
        ("Come in, I’m glad you found us. Here’s the map.", "Im"),
        ("We haven’t slept in days, and who’s to say we will tonight?", "havent"),
        ("She’s not here, and he’s gone too.", "Shes"),
        # words when bare, told by their neighbours: "cant" after a subject pronoun, "lets" opening a
        # clause before no object of it, "its" before an article
        ("It’s late. It can’t be helped, so we wait.", "It cant"),
        ("If you can’t find the file, open it from the menu.", "you cant"),
        ("This lets you keep your notes. First, let’s create a file.", "lets"),
        ("Let’s get started!", "Lets"),
        ("It’s a good idea to save often.", "Its a"),
        # "its" before a determiner; "Ill" capitalised inside a sentence or before "be"
        ("I dinna like that, but it seems it’s our only option.", "its our"),
        ("The bridge is gone! I think I’ll wait a while.", "Ill"),
        ("Fight hard, my friend! I’ll be glad when this is over.", "Ill"),
    ],
)
def test_more_contractions_whose_apostrophe_was_dropped_fail(original: str, sample: str) -> None:
    bad = original.encode("utf-8").decode("euc_jp", errors="ignore")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "lost_apostrophe" and found.sample == sample, (bad, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Its hull was cracked. Im Westen nichts Neues was on the shelf; the cant of the court.", "en"),
        ("WHERES MY CHANCE, he shouted, and the crowd went quiet.", "en"),  # a shout: a writer's style
        (
            "Well, we didn't have to cross the river. Theyll follow us north.",
            "en",
        ),  # a writer's own apostrophes
        ("We didnt cross the river. It’s too late now, they’ll follow us.", "en"),  # read right from there on
        ("Le livre dont je parle est sur la table, et le voyage dont il rêve est loin.", "fr"),
        ("Well, we didnt have to cross the river after all.", None),  # no locale: no language's writing known
        ("He rose at dawn, as was his wont, and mocked the cant of the court.", "en"),  # two words
        # "lets" as a verb (an object after it, or a subject before it) and "its" as a possessive
        ("Lets you set the date. The tool lets users pick one, and lets them go.", "en"),
        ("Notify when due: Lets you choose whether to be told.", "en"),
        ("The sword showed its true power; its very edge glowed, and its blade sang.", "en"),
        ("They said he was wont to wander, and that this cant was his own.", "en"),
        ("Ill health kept him home. He was ill, and the ill wind blew.", "en"),  # the adjective
    ],
)
def test_bare_contractions_pass_where_no_apostrophe_can_have_been_dropped(
    text: str, locale: str | None
) -> None:
    assert CHECKER.find(text, locale) is None, CHECKER.find(text, locale)


@pytest.mark.parametrize(
    ("original", "sample"),
    [
        ("Open the company’s website and read the terms before you sign.", "companys"),
        ("The city’s walls held for a week, then the gates gave way.", "citys"),
        ("We left the box’s lid open so that the cat could breathe.", "boxs"),
        ("Nobody read the reply’s last line, nor the party’s letter.", "replys"),
    ],
)
def test_a_possessive_whose_apostrophe_was_dropped_fails_where_no_plural_is_spelt_so(
    original: str, sample: str
) -> None:
    bad = original.encode("utf-8").decode("big5", errors="ignore")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "lost_apostrophe" and found.sample == sample, (bad, found)
    assert judge(bad, "en").reason is Reason.ENCODING


@pytest.mark.parametrize(
    "text",
    [
        "The companies and their bosses met in the cities near the churches.",  # plurals as spelt
        "The kennedys and the murphys came late; two standbys waited.",  # names, compounds in "y"
        "Use GnuCashs file, and read the companys.",  # a name (capitalised), and no word after the form
        "Ssso humansss, you trouble usss again, and the caress of the epochs.",  # nouns in "s", "ch"
        "We kept the companys ledger, and the company’s books too.",  # a U+2019 read right after it
    ],
)
def test_words_and_plurals_ending_in_s_are_no_lost_possessive(text: str) -> None:
    assert CHECKER.find(text, "en") is None, CHECKER.find(text, "en")


_JAPANESE = (
    "雨の夜、古い灯台の明かりが海を照らしていた。漁師たちは港に戻り、静かに網を片付けていた。"
    "彼女は窓辺に座って、遠くの船を見つめながら手紙を書き続けた。明日の朝には、きっと晴れるだろう。"
)
_KANA = (  # mostly kana: the misread part's characters are common ones, few of them rare
    "おばあさんは毎朝早く起きて、庭の花に水をやります。それから、ゆっくりとお茶を飲みながら、"
    "新聞を読むのが好きです。ときどき、となりの子どもたちが遊びに来ます。"
)
_CHINESE = (
    "雨夜里，古老灯塔的光照亮了海面。渔夫们回到港口，安静地收拾渔网。"
    "她坐在窗边，一边望着远处的船，一边继续写信。明天早上，天一定会晴。"
)


@pytest.mark.parametrize(
    ("text", "codec", "start"),
    [
        *(
            (text, codec, start)
            for text in (_JAPANESE, _CHINESE)
            for codec in ("euc_jp", "big5")
            for start in (0, 30)
        ),
        (_KANA, "big5", 16),
        (_KANA, "euc_jp", 0),
    ],
)
def test_cjk_read_as_euc_jp_or_big5_with_bytes_dropped_is_mojibake(text: str, codec: str, start: int) -> None:
    assert CHECKER.find(text) is None
    bad = text[:start] + text[start:].encode("utf-8").decode(codec, errors="ignore")
    found = CHECKER.find(bad)
    assert found is not None and found.kind == "mojibake", bad
    assert found.offset >= start and bad[found.offset] == found.sample[0]  # the first character shown


# Stanzas of the Book of Songs: classical Chinese writes rare characters (Big5 level 2) and doubles them
# (騑騑, 嘽嘽), names a bird by two of them (鴟鴞).
_CLASSICAL = (
    "四牡騑騑，周道倭遲。豈不懷歸？王事靡盬，我心傷悲。四牡騑騑，嘽嘽駱馬。豈不懷歸？王事靡盬，不遑啟處。",
    "翩翩者鵻，載飛載下，集于苞栩。王事靡盬，不遑將父。翩翩者鵻，載飛載止，集于苞杞。王事靡盬，不遑將母。",
    "駉駉牡馬，在坰之野。薄言駉者，有驈有皇，有驪有黃，以車彭彭。思無疆，思馬斯臧。",
    "鴟鴞鴟鴞，既取我子，無毀我室！恩斯勤斯，鬻子之閔斯。",
)


@pytest.mark.parametrize("text", _CLASSICAL)
def test_rare_characters_of_classical_chinese_are_not_mojibake(text: str) -> None:
    assert CHECKER.find(text, "zh-Hant") is None


@pytest.mark.parametrize("codec", ["big5", "euc_jp"])
@pytest.mark.parametrize("text", [_CHINESE, _JAPANESE, *_CLASSICAL[:2]])
def test_cjk_read_dropping_bytes_leaves_rare_characters_of_utf8_lead_rows(text: str, codec: str) -> None:
    # the pairs of a lead byte and its first continuation: rare characters in the rows E3-ED, spread
    bad = text[:8] + text[8:].encode("utf-8").decode(codec, errors="ignore")
    classes = (CHECKER._big5, CHECKER._big5_rare) if codec == "big5" else (CHECKER._kanji, CHECKER._rare)
    found = CHECKER._rare_kanji(bad, *classes, codec)
    assert found is not None and found.count >= 3, bad
    assert CHECKER.find(bad, "zh-Hant") is not None


# Sentences written for these tests, one per alphabet the other single-byte codecs misread.
_OTHER_CODEC_TEXTS = {
    "pl": "Żołnierze wrócili późno. Łucznik się uśmiechnął — „Jutro ruszamy”, powiedział cicho.",
    "de": "Über die Brücke gingen sie schweigend, müde und hungrig; später aßen sie am Feuer.",
    "ru": "Мы долго шли через лес — и только к вечеру увидели огни. «Ещё немного», сказал он.",
    "vi": "Chúng tôi đã đi suốt đêm qua khu rừng, và sáng nay mới thấy ngôi làng bên sông.",
    "en": "We waited until nightfall — then the gates opened and the riders came out in silence.",
}


@pytest.mark.parametrize(
    "codec",
    ["cp1250", "iso8859_2", "cp1257", "cp1258", "iso8859_16", "mac_roman", "cp437", "cp850",
     "koi8_r", "koi8_u", "cp866", "mac_cyrillic", "iso8859_5"],
)  # fmt: skip
@pytest.mark.parametrize("locale", sorted(_OTHER_CODEC_TEXTS))
def test_utf8_read_with_another_single_byte_codec_is_mojibake(locale: str, codec: str) -> None:
    text = _OTHER_CODEC_TEXTS[locale]
    assert CHECKER.find(text, locale) is None
    bad = text.encode("utf-8").decode(codec, errors="replace")
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind in ("mojibake", "control_character", "replacement_character"), bad


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # Capitals that are a lead and a continuation byte in ISO 8859-5 (ТА is C2 B0, "°"; ТП is "¿").
        ("Скопируйте ИСТОЧНИК в КАТАЛОГ. ОТПУСК начнётся завтра, ТЕКСТ договора готов.", "ru"),
        # "её", "всё" in KOI8-R are a lead and a continuation byte ("£" once repaired).
        ("Она взяла её книгу, и всё же ребёнок ещё спал, когда мы ушли из дома.", "ru"),
        # Polish capitals: ÓŁ is D3 A3 in cp1250, a Cyrillic letter once repaired.
        ("PÓŁNOC ZA PÓŁ GODZINY. Wszyscy czekali w ciszy na sygnał do wymarszu.", "pl"),
        ("Çok güzel bir gün. Şimdi ağaçların altında oturup çay içiyoruz, değil mi?", "tr"),
        # Lowercase Cyrillic letters are lead and continuation bytes in CP866 ("яко" is U+7C7B): Russian
        # words in a CJK reply repair to Han.
        ("彼はロシア語で「Это слишком опасно, даже если мы пойдём вместе」と言った。", "ja"),
        ("他用俄语说：“Как гласит наше соглашение, вы можете вернуться.” 然后离开了。", "zh-Hans"),
        # A lowercase letter then a capital inside a word (ЧаВо, the FAQ; ЛаКруа) is a lead and a
        # continuation byte in ISO 8859-5, and a dash glued to a capital in Mac Cyrillic (—К is D1 8A, "ъ"):
        # each glued to letters outside any UTF-8 sequence, which no misread stream leaves.
        ("Если вы читаете эти ЧаВо, значит, вы новичок. Основная документация — ЧаВо по Debian.", "ru"),
        ("Бриджитт ЛаКруа упомянула это имя. Сборник эссе опубликовал Антон ЛаВей в 1969 году.", "ru"),
        ("—Кто там? —Это я, Кирилл. —Входи скорее, —ответила она.", "ru"),
    ],
)
def test_real_letters_that_pair_in_other_single_byte_codecs_are_not_mojibake(text: str, locale: str) -> None:
    assert CHECKER.find(text, locale) is None, CHECKER.find(text, locale)


@pytest.mark.parametrize("codec", ["mac_cyrillic", "iso8859_5", "koi8_r", "cp866"])
@pytest.mark.parametrize(
    "text",
    [
        "Если вы читаете эти ЧаВо, значит, вы новичок. Основная документация — ЧаВо по Debian.",
        "—Кто там? —Это я, Кирилл. —Входи скорее, —ответила она.",
    ],
)
def test_camel_case_words_and_glued_dashes_misread_whole_are_still_mojibake(text: str, codec: str) -> None:
    # every letter misread becomes a piece: its neighbours are pieces, ASCII or C1 controls (asked of the
    # code pages' rule itself: the controls are found before it)
    bad = text.encode("utf-8").decode(codec, errors="replace")
    found = CHECKER._other_single_byte(bad, "ru")
    assert found is not None and found.kind == "mojibake", bad


# Written for these tests: an Indonesian and an Italian paragraph with the characters a lossy decoder
# deletes (dashes, accented letters, typographic apostrophes).
_INDONESIAN = (
    "Kami berjalan sepanjang malam — tanpa berhenti sekali pun. Pagi harinya desa itu terlihat "
    "di balik bukit — sepi dan dingin, seperti tidak ada yang tinggal di sana."
)
_ITALIAN = (
    "Siamo arrivati in città prima del tramonto. All’interno delle mura la gente correva verso la piazza, "
    "e nessuno sapeva perché: la verità si seppe solo all’alba."
)


@pytest.mark.parametrize(("text", "locale"), [(_INDONESIAN, "id"), (_ITALIAN, "it")])
@pytest.mark.parametrize("codec", ["euc_jp", "big5", "cp949"])
def test_latin_text_whose_non_ascii_characters_a_lossy_decoder_deleted_fails(
    text: str, locale: str, codec: str
) -> None:
    assert CHECKER.find(text, locale) is None
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind in ("lost_characters", "mojibake"), (bad, found)


def test_the_lost_characters_are_counted_after_the_last_non_ascii_character_only() -> None:
    # The gaps of a deleted dash and the remnants "citt", "allinterno" are the marks.
    bad = _ITALIAN.encode("utf-8").decode("euc_jp", errors="ignore")
    found = CHECKER.find(bad, "it")
    assert found is not None and found.kind == "lost_characters" and found.count >= 2, found
    # One double space (a typo) is not enough; nor are the same marks before a surviving accented letter.
    assert CHECKER.find("Abbiamo aspettato  a lungo, poi siamo partiti verso il porto.", "it") is None
    assert CHECKER.find("Siamo nella citt  e allinterno, così è.", "it") is None


def test_one_remnant_of_a_rarer_word_or_words_written_without_accents_are_not_enough() -> None:
    # "uscir" (Zipf 2.6) is a word of its own, ten times rarer than "uscirà": a typo as likely as a loss.
    assert CHECKER.find("Se lo chiedi con gentilezza, forse domani uscir con noi al mercato.", "it") is None
    # Spanish written without its accents is a writer's habit: the lexicon lists those spellings as words.
    assert CHECKER.find("Le dije que no lo haria, y tambien que despues iria atras de ellos.", "es") is None


@pytest.mark.parametrize(
    ("text", "locale", "remnant"),
    [
        # "citt" is 600 times rarer than "città": one such remnant is a deleted letter
        ("Siamo arrivati nella città quando era ormai buio e le strade erano vuote.", "it", "citt"),
        # wordfreq spells ß as "ss": "draussen" stands for "draußen", whose remnant is "drauen"
        ("Sie wartete draußen vor dem Haus, bis es dunkel wurde und niemand mehr kam.", "de", "drauen"),
    ],
)
def test_one_remnant_far_rarer_than_its_word_is_a_lost_letter(text: str, locale: str, remnant: str) -> None:
    assert CHECKER.find(text, locale) is None
    found = CHECKER.find(text.encode().decode("euc_jp", errors="ignore"), locale)
    assert found is not None and found.kind == "lost_characters" and found.sample == remnant, found


def test_words_that_lose_a_letter_in_most_places_and_capitalised_remnants_are_lost_letters() -> None:
    # Polish read as Big5 with errors="ignore": most words lose a letter, so fewer than LOST_OWN_WORDS of
    # the rest are lexicon forms; "Bdzie" opens the sentence.
    text = "Będzie trudno, ale musimy zacząć od początku, więc słuchaj mnie i nie zostawaj w tyle."
    bad = text.encode().decode("big5", errors="ignore")
    assert bad.isascii()
    found = CHECKER.find(bad, "pl")
    assert found is not None and found.kind == "lost_characters" and found.count >= 2, (bad, found)
    # written without its diacritics by hand, Polish keeps the letters: no remnant, no finding
    assert CHECKER.find("Bedzie ciezko, ale musimy zaczac od poczatku, wiec sluchaj uwaznie.", "pl") is None


def test_a_remnant_barely_rarer_than_its_word_is_no_mark() -> None:
    # "levait" (Zipf 2.95) is a French word, under ten times rarer than "élevait" (3.67): with one double
    # space (a typo) it does not make two marks
    text = "Le soleil se levait lentement  sur la mer calme du matin, et nous attendions."
    assert CHECKER.find(text, "fr") is None


def test_an_english_word_is_no_remnant_of_a_word_of_another_language() -> None:
    # "installs" is what "installés" leaves, and an English verb a French paragraph quotes
    text = "Le paquet est mis à jour. La commande safe-upgrade installs the new packages when asked to."
    assert CHECKER.find(text, "fr") is None


def _misread(text: str, codec: str, errors: str = "ignore") -> str:
    return text.encode().decode(codec, errors=errors)


@pytest.mark.parametrize(
    ("text", "locale", "codec"),
    [
        # ° and ® glued to the number or name they follow: "45属" (EUC-JP), "Windows짰" (cp949)
        ("Mount the second sight at 45° when a scope blocks the view of the iron sights.", "en", "euc_jp"),
        ("The tool runs on Windows® and on most other systems without any change.", "en", "cp949"),
        ("De plaat is 90° gedraaid, zodat de tekst van boven naar beneden loopt in kolommen.", "nl", "big5"),
        # a decomposed accent (U+0301) after its letter: "seleccio虂n" (GB18030)
        (unicodedata.normalize("NFD", "Recorta la imagen al contorno de la selección."), "es", "gb18030"),
        # cp932's single bytes: "Fuﾃ" is ß with its second byte dropped, "ﾎｱ Crv" is α
        ("Mein Fuß tut weh, sagte er, und wir gingen langsam weiter durch den Wald.", "de", "cp932"),
        ("In the constellation of Corvus, α Crv marks the head of the raven in old charts.", "en", "cp932"),
        # en dashes read as cp949: hangul syllables outside KS X 1001, glued to Latin words
        ("Roket ini adalah alat pembakar jarak dekat–gunakan dengan hati-hati di ruangan.", "id", "cp949"),
    ],
)
def test_double_byte_characters_that_latin_text_cannot_hold_are_mojibake(
    text: str, locale: str, codec: str
) -> None:
    assert CHECKER.find(text, locale) is None
    bad = _misread(text, codec)
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "mojibake", (bad, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Elle regarda le signe 水 sur la porte et dit *谢谢* avant de partir vers la gare.", "fr"),
        ("The kanji 属 means to belong, and the sign ｶﾅ is written in halfwidth katakana.", "en"),
        ("GIMP에서 이미지를 열고 Windows용 설치 파일을 내려받은 뒤 설정을 확인하세요.", "ko"),
        # a quoted Chinese sentence glues its characters to numbers: 楼 is C2 A5 in GB18030, "¥"
        ("Elle cita la phrase « 我住在3楼的房间里，每天走5路回家。 » avant de repartir vers la gare.", "fr"),
        ("ﾃｽﾄ用のﾌｧｲﾙをGIMPで開いてから、設定を確認してください。", "ja"),
    ],
)
def test_cjk_words_and_halfwidth_katakana_written_as_such_are_not_mojibake(text: str, locale: str) -> None:
    assert CHECKER.find(text, locale) is None, CHECKER.find(text, locale)


def test_a_trade_mark_read_as_cp1251_in_latin_text_is_mojibake() -> None:
    text = (
        "The program runs on most systems: GNU/Linux, Microsoft Windows™ and Apple macOS™. Most distributions"
        " include it as a standard application, and it is also available for other operating systems."
    )
    bad = _misread(text, "cp1251", "replace")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake" and found.repaired == "™", (bad, found)


def test_a_letter_ellipsis_and_apostrophe_that_repair_to_a_rare_han_character_are_not_mojibake() -> None:
    # "ç…’" is E7 85 92 in cp1252: UTF-8 for U+7152, a rare character; a Chinese word misread as cp1252
    # repairs to common ones.
    assert CHECKER.find("Menüden Dosya > Aç…’ı seçin ve belgeyi kaydedin.", "tr") is None
    bad = "Elle dit 你好 et partit.".encode().decode("cp1252", errors="replace")
    found = CHECKER.find(bad, "fr")
    assert found is not None and found.kind == "mojibake" and found.repaired == "你好", found


_CHINESE = (
    "我们整夜穿过森林，直到清晨才看见河边的村庄。村里的人告诉我们，北方的道路已经被大雪封住了，"
    "所以我们只能沿着河岸向东走，希望在天黑之前找到可以过夜的地方。"
)


def test_chinese_read_as_euc_kr_with_its_undecodable_bytes_dropped_is_mojibake() -> None:
    assert CHECKER.find(_CHINESE, "zh-Hans") is None
    bad = _CHINESE.encode().decode("euc_kr", errors="ignore")
    found = CHECKER.find(bad, "zh-Hans")
    assert found is not None and found.kind == "mojibake", (bad, found)


@pytest.mark.parametrize(
    ("text", "locale", "codec"),
    [
        ("Select File ▸ Print Preview to see the page before you print it.", "en", "cp1252"),
        ("Pilih gedit ▸ Preferensi untuk mengubah tampilan dokumen Anda.", "id", "cp1251"),
        # decomposed text (NFD): the accent is U+0301, CC 81 in UTF-8, "МЃ" in cp1251
        (unicodedata.normalize("NFD", "Puede ver quién puede editar sus archivos."), "es", "cp1251"),
    ],
)
def test_menu_arrows_and_combining_accents_read_as_a_single_byte_codec_are_mojibake(
    text: str, locale: str, codec: str
) -> None:
    assert CHECKER.find(text, locale) is None
    bad = text.encode().decode(codec, errors="replace")
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "mojibake", (bad, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Моя мама… Её нет. Её забрали ночью, но потом она пришла домой.", "ru"),
        ("보급병이 9x19mm탄창 두 개를 건네주었다. 우리는 새벽이 오기 전에 다리를 건넜다.", "ko"),
        ("UPSかUPS互換の充電ステーションから電力を供給します。", "ja"),
        ('是"仆从"型机器人的骨架和装甲。', "zh-Hans"),
    ],
)
def test_the_replys_own_words_that_repair_to_another_alphabet_are_not_mojibake(
    text: str, locale: str
) -> None:
    # Without the locale, each has a chance round trip (``Её`` with cp1251 is ``Ÿ``, ``탄`` with cp949
    # ``ź``, ``か`` with Big5 ``Ư``, ``仆从`` with EUC-JP ``нк``); a reply in that language repairs to it.
    assert CHECKER.find(text) is not None
    assert CHECKER.find(text, locale) is None


@pytest.mark.parametrize(
    ("text", "locale", "codec"),
    [
        ("Старуха замолчала. Её руки дрожали, и она долго смотрела в огонь.", "ru", "cp1252"),
        ("보급병이 탄창 두 개를 건네주었다. 우리는 새벽이 오기 전에 다리를 건넜다.", "ko", "gb18030"),
        ("Kaptan İskele'ye koştu ve çalışıyor diye bağırdı, ama kimse dinlemedi.", "tr", "gb18030"),
    ],
)
def test_mojibake_that_repairs_to_the_replys_own_letters_still_fails(
    text: str, locale: str, codec: str
) -> None:
    misread = text.encode("utf-8").decode(codec, errors="replace").replace("\ufffd", "")
    found = CHECKER.find(misread, locale)
    assert found is not None and found.kind == "mojibake"


@pytest.mark.parametrize(
    ("text", "locale", "sample"),
    [
        # an arrow of a menu path, deleted between two capitalised words
        ("To print it use File → Print Invoice, then close the window.", "en", "e  "),
        ("Wählen Sie Datei → Speichern, um die Änderungen zu sichern.", "de", "i  "),
    ],
)
def test_a_double_space_between_two_capitalised_words_is_a_lost_arrow_or_dash(
    text: str, locale: str, sample: str
) -> None:
    assert CHECKER.find(text, locale) is None
    bad = text.encode("utf-8").decode("euc_jp", errors="ignore")
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "lost_characters" and found.sample == sample, (bad, found)


@pytest.mark.parametrize(
    "text",
    [
        "The spell strikes  first, then the caster rests for a while.",  # between lowercase words: a typo
        "Key Meaning\n  Enter  Confirm the choice",  # an indented line (a code block)
    ],
)
def test_a_double_space_a_typist_or_a_code_block_makes_is_no_mark(text: str) -> None:
    assert CHECKER.find(text, "en") is None, CHECKER.find(text, "en")


def test_an_elided_article_glued_to_its_word_is_a_lost_apostrophe_mark() -> None:
    # Italian "un’auto", "l’auto" read with errors="ignore": two elisions glued to words of the lexicon
    text = "Per vendere invece un’auto, basta sostituire i conti per la casa con quelli per l’auto."
    assert CHECKER.find(text, "it") is None
    bad = text.encode("utf-8").decode("big5", errors="ignore")
    found = CHECKER.find(bad, "it")
    assert found is not None and found.kind == "lost_characters" and found.count == 2, (bad, found)
    assert found.sample == "unauto", found
    # with the writer's ASCII apostrophes, none is a loss (a typo)
    assert CHECKER.find("Per vendere l'auto o unauto, basta sostituire lauto nei conti.", "it") is None


@pytest.mark.parametrize(
    ("text", "locale", "sample"),
    [
        ("Indica il carattere e la dimensione per l’intestazione della pagina.", "it", "lintestazione"),
        ("Elle s’applique à tous les fichiers de la liste.", "fr", "sapplique"),
        ("Il faut lire la liste d’instructions avant de commencer.", "fr", "dinstructions"),
    ],
)
def test_one_elision_no_word_list_holds_is_a_lost_apostrophe(text: str, locale: str, sample: str) -> None:
    # the glued form is written nowhere (wordfreq's fullest list lacks it): one is mark enough
    assert CHECKER.find(text, locale) is None
    bad = text.encode("utf-8").decode("euc_jp", errors="ignore")
    assert "’" not in bad and not any("\u3000" <= c <= "\u9fff" for c in bad), bad
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "lost_characters" and found.sample == sample, (bad, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("I soldati erano allarmati dal rumore che veniva dalla strada.", "it"),  # all + armati: a word
        ("Elle calma le cheval avant de partir vers la ville.", "fr"),  # c + alma: a word
    ],
)
def test_a_glued_form_the_fullest_list_holds_is_no_mark_alone(text: str, locale: str) -> None:
    assert CHECKER.find(text, locale) is None, CHECKER.find(text, locale)


def test_a_cjk_word_whose_round_trip_repairs_to_han_hides_no_repair_after_it() -> None:
    # Dutch with a Chinese term and its pinyin, read as cp949: the term's misreading (若욕벧) repairs to Han
    # but is written in common characters (no mark of a quoted word's misreading: ``_quoted_cjk``); the
    # pinyin's repairs to "ù", glued inside a Latin word
    text = "De equatoriale graden (Chinees: 宿度; pinyin: xiùdù) van het westelijke huis, elke dag één graad."
    assert CHECKER.find(text, "nl") is None
    bad = text.encode("utf-8").decode("cp949", errors="replace")
    found = CHECKER.find(bad, "nl")
    assert found is not None and found.kind == "mojibake" and found.codec == "cp949", (bad, found)
    assert "ù" in (found.repaired or ""), found


_STAR_NAMES = (
    "This sky culture follows the Chinese and Western Contrast Star Chart (Chinese: 中西对照恒星图表) and "
    "the Yixiang Kaocheng (仪象考成) of 1756, which name Sirius 天狼星 and the Big Dipper 北斗七星."
)


@pytest.mark.parametrize("codec", ["big5", "cp949", "cp932"])
@pytest.mark.parametrize("errors", ["replace", "ignore"])
def test_chinese_names_in_latin_text_read_by_a_double_byte_codec_fail(codec: str, errors: str) -> None:
    # only the part from the names on is misread: the repair is Chinese, the reply English
    assert CHECKER.find(_STAR_NAMES, "en") is None
    at = _STAR_NAMES.index("(Chinese")
    bad = _STAR_NAMES[:at] + _misread(_STAR_NAMES[at:], codec, errors).replace("\ufffd", "")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake" and found.codec == codec, (bad, found)
    assert found.repaired and all("\u4e00" <= c <= "\u9fff" for c in found.repaired), found


def test_a_lossy_reading_of_a_quoted_word_repairs_to_one_character() -> None:
    # 中国 read as Big5 dropping bytes: 銝 (E4 B8) and 剖 (AD E5), the whole of 中 and the lead of 国; both
    # characters are UTF-8's bytes, and 銝 is of Big5's second level, which text rarely uses
    text = "Die Sprache heißt Chinesisch (中国) und wird in China und in Taiwan von vielen gesprochen."
    bad = text.encode("utf-8").decode("big5", errors="ignore")
    assert "(銝剖)" in bad, bad
    found = CHECKER.find(bad, "de")
    assert found is not None and found.kind == "mojibake" and found.repaired == "中", (bad, found)


@pytest.mark.parametrize("codec", ["cp949", "euc_jp"])
def test_a_quoted_cjk_term_read_dropping_bytes_needs_half_its_bytes_whole(codec: str) -> None:
    # cp949 keeps 18 of the 30 bytes of 訝쎖삜뙷곫삜若섇룋삜릫떛瑥묋〃 in whole sequences, EUC-JP 6 of 12 of
    # 筝醇冴絎沿茵: the rest went with the bytes it dropped
    text = "The names follow a Catalogue of Star Names (Chinese: 中国星区、星官及星名英译表) of 1981."
    assert CHECKER.find(text, "en") is None
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake" and found.codec == codec, (bad, found)


@pytest.mark.parametrize(
    "word",
    # common characters whose chance round trip repairs to CJK (乗するこ as cp932 is 悷邱, 響を与え as
    # GB18030 뤨, 上がらせ as cp932 オ点), and names written as they are
    ["乗するこ", "響を与え", "上がらせ", "天狼星", "北斗七星", "中国", "仪象考成"],
)
def test_cjk_words_of_common_characters_quoted_in_latin_text_are_not_mojibake(word: str) -> None:
    text = f"The old sign read {word} in faded paint, and nobody in the village could say what it meant."
    assert CHECKER.find(text, "en") is None, CHECKER.find(text, "en")


@pytest.mark.parametrize("codec", ["latin-1", "cp1252"])
def test_greek_letters_read_as_western_code_pages_are_mojibake(codec: str) -> None:
    # star names in Latin text: "α Crv" read as Latin-1 is "Î± Crv"
    text = "In het sterrenbeeld Raaf is α Crv de ster in de kop en ε Crv de ster in de nek."
    assert CHECKER.find(text, "nl") is None
    bad = text.encode("utf-8").decode(codec)
    found = CHECKER.find(bad, "nl")
    assert found is not None and found.kind == "mojibake" and found.repaired == "α", (bad, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # A capital then a sign are a lead and a continuation byte in cp1252 (Ñ» is D1 BB, U+047B): a
        # letter named between quotation marks, as a typing course writes it.
        ("Pulse la tecla «Ñ» con el dedo meñique de la mano derecha.", "es"),
        ("Drücken Sie die Taste „Ä“ mit dem kleinen Finger der rechten Hand.", "de"),
        ("Drücken Sie die Taste »Ä« und danach die Taste »Ö«.", "de"),
        ("La lettre «Î» se trouve sur la même touche que «I».", "fr"),
        ("A letra «Ã» e a letra «Õ» são vogais nasais.", "pt-BR"),
    ],
)
def test_a_capital_between_quotation_marks_is_not_mojibake(text: str, locale: str) -> None:
    # the opening mark before the pair is in no UTF-8 sequence: no misread stream is around it
    assert CHECKER.find(text, locale) is None, CHECKER.find(text, locale)
    assert CHECKER.find(text.encode("utf-8").decode("cp1252"), locale) is not None


@pytest.mark.parametrize(
    "text",
    [
        "Pulse la tecla Ã± con el dedo meñique de la mano derecha.",  # one pair between spaces
        "Pulse la tecla «n» con el dedo meÃ±ique de la mano derecha.",  # inside a word
        "Pulse la tecla Ã± con el dedo meÃ±ique de la mano derecha.",  # and a pair glued to it
        "Pulse la tecla ñ con el dedo meñÃ­que de la mano derecha.",  # read wrong from mid-word on
    ],
)
def test_one_misread_letter_among_clean_signs_is_still_mojibake(text: str) -> None:
    found = CHECKER.find(text, "es")
    assert found is not None and found.kind == "mojibake" and found.repaired in ("ñ", "í"), found


@pytest.mark.parametrize("codec", ["gb18030", "cp932"])
def test_quotes_cut_by_a_lossy_double_byte_reading_are_mojibake_in_latin_text(codec: str) -> None:
    # “\” read with errors="ignore": each quote's first two bytes make one character (鈥, 窶), the third
    # pairs with the backslash or is dropped; the run holds no whole UTF-8 sequence but the first quote
    text = (
        "There are a few rules to keep in mind when writing a preconfiguration file. A line can be split "
        "into multiple lines by appending a backslash (“\\”) as the line continuation character, and a good "
        "place to split a line is after the question name."
    )
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    assert "(\u201c" not in bad and bad.count("(") == 1
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake", (bad, found)


@pytest.mark.parametrize("codec", ["gb18030", "cp932"])
def test_a_short_reply_whose_quotes_and_dashes_were_misread_is_still_latin_text(codec: str) -> None:
    # its cut punctuation (鈥, 窶) is no letter: counted as CJK it made the reply too little Latin to judge
    text = "Wait… what was that? A “ghost” — or the wind?"
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake", (bad, found)


@pytest.mark.parametrize(
    ("text", "sample"),
    [
        ("Non trovando il dispositivo, il programma tradurrà questo indirizzo con la cache ARP.", "tradurr"),
        ("Con troppi strati di vestiti si subisce una penalità per ogni parte del corpo.", "penalit"),
    ],
)
def test_one_italian_stem_whose_final_accented_vowel_was_deleted_fails(text: str, sample: str) -> None:
    # the future and the nouns in -ità end in an accented vowel; deleted, a stem ending in a consonant is
    # left, which no Italian word is and the fullest list lacks: one is mark enough
    assert CHECKER.find(text, "it") is None
    bad = text.encode("utf-8").decode("big5", errors="ignore")
    assert sample in bad.split() and not any("\u3000" <= c <= "\u9fff" for c in bad), bad
    found = CHECKER.find(bad, "it")
    assert found is not None and found.kind == "lost_characters" and found.sample == sample, (bad, found)


def test_italian_borrowings_ending_in_a_consonant_are_no_stems() -> None:
    # words the fullest list holds, and English ones: not what a deleted accent leaves
    text = "Il server usa un timer e un buffer per ogni utente; il computer del manager non va in standby."
    assert CHECKER.find(text, "it") is None, CHECKER.find(text, "it")


@pytest.mark.parametrize("codec", ["gb18030", "big5", "cp949", "euc_jp"])
@pytest.mark.parametrize("errors", ["replace", "ignore"])
def test_greek_letters_of_latin_text_read_as_lone_cjk_characters_fail(codec: str, errors: str) -> None:
    # each letter's two UTF-8 bytes make one CJK character standing alone ("灌 Crucis" in cp949)
    text = "The stars of the Southern Cross are Acrux, Mimosa, δ Crucis, ζ Crucis, λ Crucis and μ Crucis."
    assert CHECKER.find(text, "en") is None
    bad = text.encode("utf-8").decode(codec, errors=errors)
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake" and found.repaired == "δζλμ", (bad, found)


def test_one_lone_cjk_character_that_reencodes_to_a_greek_letter_is_a_word() -> None:
    # 未 is GB18030 CE B4, the UTF-8 of δ: one such character is a word of its own as often
    assert "未".encode("gb18030").decode("utf-8") == "δ"
    assert CHECKER.find("The character 未 means not yet, and the sign 人 a person.", "en") is None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("Ho raccolto la legna. È tardi, torniamo al campo prima che faccia buio.", "it"),  # C3 88
        ("The answer is 3 × 2 = 6, as the table shows for every row.", "en"),  # C3 97
    ],
)
def test_a_lone_halfwidth_katakana_that_is_a_utf8_lead_byte_is_mojibake(text: str, locale: str) -> None:
    # cp932 reads the lead byte C3 as ﾃ and drops the continuation (or pairs it with the space after it)
    assert CHECKER.find(text, locale) is None
    bad = text.encode("utf-8").decode("cp932", errors="ignore")
    assert " ﾃ " in bad, bad
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "mojibake" and found.sample == "ﾃ", (bad, found)


@pytest.mark.parametrize(
    ("codec", "text", "sample"),
    [
        ("gb18030", "To print it, choose File ▸ Print Preview and pick the pages you want.", "鈻"),
        ("cp932", "Click the closed folder (⊞) to open it and see the files it holds.", "竓"),
    ],
)
def test_a_sign_beyond_the_punctuation_rows_cut_by_a_lossy_double_byte_reading_is_mojibake(
    codec: str, text: str, sample: str
) -> None:
    # ▸ (E2 96 B8), ⊞ (E2 8A 9E): the first two bytes make one character, the third is dropped
    bad = text.encode("utf-8").decode(codec, errors="ignore")
    assert sample in bad, bad
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake" and found.sample == sample, (bad, found)


# Short clean lines whose few Han characters include three that EUC-JP encodes as a UTF-8 continuation and
# lead byte (我 B2 E6, 讓 EC AA, 取 BC E8, 合 B9 E7): 25 % of a dozen characters is chance, not a misreading.
_SHORT_PAIRED = (
    ("zh-Hant", "別擔心，一切都會好的。我覺得我們應該讓他取回那把劍。"),
    ("zh-Hans", "别担心，一切都会好的。我们应该合力取回那把剑，我来带路。"),
)


@pytest.mark.parametrize(("locale", "text"), _SHORT_PAIRED)
def test_a_short_line_with_a_few_pair_like_characters_is_not_mojibake(locale: str, text: str) -> None:
    assert CHECKER.find(text, locale) is None


@pytest.mark.parametrize(
    ("locale", "text"),
    [
        ("zh-Hant", "別擔心，我會讓你安全回家。我們明天一早就出發。"),
        ("zh-Hans", "天亮之前，我们必须合力取回宝剑，然后我来守住大门。"),
    ],
)
@pytest.mark.parametrize("codec", ["euc_jp", "big5"])
def test_a_short_line_read_dropping_bytes_is_still_mojibake(locale: str, text: str, codec: str) -> None:
    # what is left of a misread stream is mostly pairs (60-100 %) however short: the bound spares chance
    bad = text.encode().decode(codec, errors="ignore")
    found = CHECKER.find(bad, locale)
    assert found is not None and found.kind == "mojibake", (bad, found)


# French sets a no-break space before a closing guillemet: "é", U+00A0 and "»" are E9 A0 BB in cp1252, the
# UTF-8 of the common Han character 頻.
_FRENCH_SPACED = (
    "Cliquez sur «\u00a0Activé\u00a0», puis sur «\u00a0Terminé\u00a0» pour fermer la fenêtre.",
    "«\u00a0Je l’ai enfin trouvé\u00a0», dit-elle en riant, «\u00a0le trésor caché\u00a0».",
)


@pytest.mark.parametrize("text", _FRENCH_SPACED)
def test_a_word_s_last_letter_before_a_spaced_closing_guillemet_is_not_mojibake(text: str) -> None:
    assert CHECKER.find(text, "fr") is None


@pytest.mark.parametrize(
    "text", [*_FRENCH_SPACED, "Le mot 頻 veut dire souvent.", "Le mot 頻繁 veut dire souvent."]
)
def test_french_read_as_cp1252_and_a_lone_han_character_misread_are_still_mojibake(text: str) -> None:
    # a misread stream turns every letter and space (Ã©, Â\u00a0); a Han character in Latin text stands apart
    bad = text.encode().decode("cp1252", errors="replace")
    found = CHECKER.find(bad, "fr")
    assert found is not None and found.kind in ("mojibake", "replacement_character"), (bad, found)


# CP866 reads "т" as E2, UTF-8's lead byte of general punctuation and letterlike symbols, and its capitals
# as continuation bytes: Russian and Ukrainian camel case and abbreviations hold three-byte pieces (``тДН``
# is U+210D), each glued to a letter that is in no UTF-8 sequence, which a stream misread to its end leaves.
@pytest.mark.parametrize(
    ("locale", "text"),
    [
        (
            "uk",
            "Вона також називається лінією мтДНК: усі особи цієї лінії мають спільну мітохондріальну ДНК.",
        ),
        ("ru", "Флаг юнита МожетДогонятьУбегающего позволяет ему преследовать отступающего врага."),
        ("uk", "Поля заголовка: Тип, Зміщення, ВіртАдр, ФізАдр, РозмФайл і Вирівнювання."),
    ],
)
def test_camel_case_pieces_glued_to_a_letter_are_not_cp866_mojibake(locale: str, text: str) -> None:
    assert CHECKER.find(text, locale) is None


@pytest.mark.parametrize(
    "text", ["He waited — and then he left.", "He waited—and then he left.", "Wait… what?"]
)
@pytest.mark.parametrize("codec", ["cp866", "koi8_r"])
def test_a_lone_misread_dash_between_ascii_is_still_mojibake(text: str, codec: str) -> None:
    bad = text.encode().decode(codec, errors="replace")
    found = CHECKER.find(bad, "en")
    assert found is not None and found.kind == "mojibake", (bad, found)
