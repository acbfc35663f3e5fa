"""Corrupted starts in and before Chinese, Japanese, Korean and Vietnamese text: a piece of another script
glued to the text, Han opening a Korean reply, the other Chinese variant opening a Chinese reply, a Latin
piece with diacritics, a piece glued to a one-letter capital word; and the legitimate starts beside them."""

from __future__ import annotations

import re

import pytest

from exporter.language.judge import judge
from exporter.language.scripts import CJK_LETTERS, CJK_SCRIPTS, script_of
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome, Reason

JA = "僕は港へ向かった。嵐が来る前に、灯台の火を守らなければならない。町の人々はまだ眠っている。"
KO = "아, 폭풍이 오기 전에 등대의 불을 지켜야 해요. 마을 사람들은 아직 잠들어 있어요. 서둘러야 합니다."
ZH_HANS = "东面的海况更糟。一股强劲的冷风从北方吹来，我们必须在天黑之前回到港口。"
ZH_HANT = "東面的海況更糟。一股強勁的冷風從北方吹來，我們必須在天黑之前回到港口。"
VI = "Ồ, không có gì. Cứ thoải mái, chúng tôi sẽ đợi ở cảng cho đến khi trời sáng."


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("βα" + JA, "ja", "βα"),  # a Greek piece glued to Japanese
        ("ائ" + KO, "ko", "ائ"),  # an Arabic piece glued to Korean
        ("关 " + KO, "ko", "关"),  # Han spaced from a Korean reply
        ("打“" + KO + "”", "ko", "打"),  # Han glued to a quote opening a Korean reply
        ("出來" + ZH_HANS, "zh-Hans", "出來"),  # a traditional piece glued to simplified text
        ("东" + ZH_HANT, "zh-Hant", "东"),  # a simplified piece glued to traditional text
        ("ź " + ZH_HANS, "zh-Hans", "ź"),  # a Latin piece with a diacritic spaced from Chinese
        ("radas 是的，" + ZH_HANS, "zh-Hans", "radas"),  # 是的 ("yes,") opens a sentence, it names nothing
        ("eur" + VI, "vi", "eur"),  # glued to a one-letter capital word and its comma
        ("ừng“" + KO + "”", "ko", "ừng"),  # a Vietnamese piece glued to a quote opening Korean text
    ],
)
def test_pieces_before_cjk_and_vietnamese_text_are_corrupted_starts(
    text: str, locale: str, piece: str
) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece, (text, found)
    assert judge(text, locale).reason is Reason.LEADING_GARBAGE


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("韓國(한국)의 " + KO, "ko"),  # Han with its reading in brackets
        ("漢江 " + KO + " 漢江은 조용히 흘렀다.", "ko"),  # a Han name the reply uses again
        (ZH_HANS, "zh-Hans"),
        (ZH_HANT, "zh-Hant"),
        ("rsync 是" + ZH_HANS, "zh-Hans"),  # a command name and its copula
        (VI, "vi"),
        (JA, "ko"),  # a whole Japanese reply to a Korean probe: a switch, not a piece
    ],
)
def test_legitimate_cjk_starts_are_not_pieces(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text


def test_a_word_opening_chinese_text_that_spaces_its_terms_is_its_first_word() -> None:
    text = "选择 保存文件 并点击 确定。文件会保存在您选择的文件夹里，以后可以随时打开它。"
    assert find_corrupted_start(text, "zh-Hans") is None
    assert judge(text, "zh-Hans").outcome is Outcome.PASS
    # a piece spaced before unspaced text, a rare word there, and a word before dialogue are still pieces
    unspaced = "保存文件并点击确定。文件会保存在您选择的文件夹里，以后可以随时打开它。"
    assert find_corrupted_start("况 " + text, "zh-Hans") is not None
    assert find_corrupted_start("盛装 " + unspaced, "zh-Hans") is not None
    assert find_corrupted_start("下面 「" + text + "」", "zh-Hans") is not None  # a word before dialogue


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("选择 保存文件并点击确定。文件会保存在您选择的文件夹里，以后可以随时打开它。", "zh-Hans"),
        ("如果 指定 script 参数为一个空串则删除这个事件处理器。", "zh-Hans"),
        ("コード ネームが追加のピッチを保持している場合、テキストを付けることができます。", "ja"),
    ],
)
def test_a_common_word_spaced_from_the_text_that_goes_on_is_its_first_word(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text
    # a character, or a word that is no common word of the language, spaced the same way is still a piece
    rest = text.partition(" ")[2]
    assert find_corrupted_start(text[0] + " " + rest, locale) is not None
    assert find_corrupted_start("鞘翅 " + rest, locale) is not None
    # and so is a common word spaced before a quote, a dash or a name that opens the text
    assert find_corrupted_start(text.partition(" ")[0] + " 「" + rest + "」", locale) is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('按 "" 的形式输入 URL，就会看起来像本地使用一样来检索远端目录。', "zh-Hans"),
        ('古い "" ロケールの挙動を保守する際に、非標準のロケールを使います。', "ja"),
    ],
)
def test_a_word_spaced_before_an_empty_quoted_term_is_its_first_word(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text
    # a piece before a quotation that the text opens with is still a piece
    assert find_corrupted_start("况 「" + text.partition('"" ')[2] + "」", locale) is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("在 软件包名 里只能含有小写字母和数字。它必须以字母开头，长度至少两个字符。", "zh-Hans"),
        ("式 フィールドでは、セル参照を記入してください。列入力セル フィールドも同じです。", "ja"),
    ],
)
def test_a_one_letter_word_opening_text_that_spaces_its_terms_is_its_first_word(
    text: str, locale: str
) -> None:
    assert find_corrupted_start(text, locale) is None, text
    # the same word before text that spaces nothing is still a piece
    unspaced = text.replace(" ", "")[1:]
    assert find_corrupted_start(text[0] + " " + unspaced, locale) is not None


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("演算式 演算式には次の 2 つの種類があります。そうでなければ、評価されて出力に表示されます。", "ja"),
        ("便携机 本质上是胖客户端。笔记本可以用作瘦客户端，但便携机应该用作胖客户端。", "zh-Hans"),
    ],
)
def test_a_term_spaced_before_text_that_uses_it_again_is_its_subject(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text
    # a piece the text does not use again is still a piece; so is a character it uses again
    token, _, rest = text.partition(" ")
    assert find_corrupted_start("鞘翅 " + rest, locale) is not None
    assert find_corrupted_start(token[0] + " " + rest, locale) is not None


def test_a_japanese_reply_to_a_korean_probe_is_a_switch() -> None:
    verdict = judge(JA, "ko")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SWITCH), verdict


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # a quoted term glued to Korean, closed in its sentence, and a name further on with an apostrophe
        ("'등대'의 불은 아직 꺼지지 않았다. 마을 사람들은 아직 잠들어 있어요. 알'쑨란은 서둘렀다.", "ko"),
        # a quote inside a quote: the corner bracket doubled, then closed twice
        ("「「灯台を守れ」と父は言った。」僕は港へ向かった。嵐が来る前に、町へ戻らなければならない。", "ja"),
        # a straight opener closed by a curly closer (the keyboard typed one straight, the other curly)
        ('"아, 불쌍한 뱃사공! 그는 밤마다 노래를 불렀지. 이제는 아무도 부르지 않아.” 마을은 조용했다.', "ko"),
    ],
)
def test_a_quoted_term_or_a_quote_in_a_quote_opening_cjk_text_is_closed(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("「「灯台を守れと父は言った。僕は港へ向かった。嵐が来る前に、町へ戻らなければならない。", "ja"),
        ("' 등대의 불은 아직 꺼지지 않았다. 마을 사람들은 아직 잠들어 있어요.", "ko"),
        # ... not by a curly closer that closes its own curly opener
        ('"아, 불쌍한 뱃사공! “그는 밤마다 노래를 불렀지.” 마을은 조용했다.', "ko"),
        # “ closes „ but opens quotes too: two of them later in the text close nothing doubled
        ("„„O farol ficou aceso. Os valores são: “sempre” para aceso, “nunca” para apagado.", "pt-BR"),
    ],
)
def test_a_doubled_or_straight_opener_never_closed_is_still_stray(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is not None, text


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("港口 Mirek — " + ZH_HANS, "zh-Hans", "港口"),  # a word spaced before a speaker's name and dash
        ("訴Mirek — " + JA, "ja", "訴"),  # a kanji glued to the name
        ("船 唉，" + ZH_HANS, "zh-Hans", "船"),  # a character spaced before an interjection
        ("可以ああ、" + JA, "ja", "可以"),  # Chinese glued to a Japanese interjection
        ("天 啊，" + ZH_HANS, "zh-Hans", "天"),  # spaced from an interjection that is also a particle
        ("Sirああ、" + JA, "ja", "Sir"),  # a Latin token glued to an interjection
        ("Today" + KO, "ko", "Today"),  # glued to a Korean interjection (KO opens with "아, ")
    ],
)
def test_a_run_before_a_dialogue_name_or_an_interjection_is_a_piece(
    text: str, locale: str, piece: str
) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece, (text, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ("和Mirek — " + ZH_HANS, "zh-Hans"),  # a function word may stand before a name
        ("唉，" + ZH_HANS, "zh-Hans"),  # the interjection opens the line
        ("天啊，" + ZH_HANS, "zh-Hans"),  # a word and its particle: an exclamation
        ("そうねえ、" + JA, "ja"),  # a word and the particle ねえ
        ("민수야, " + KO, "ko"),  # Korean glues its vocative particle to a name
        ("Python " + KO, "ko"),  # a name spaced before an interjection: addressed
    ],
)
def test_a_function_word_or_a_call_before_dialogue_is_legitimate(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None, text


def test_one_cjk_letter_class_serves_every_judge() -> None:
    # The class the judges build patterns with holds exactly the letters ``script_of`` puts in a CJK script:
    # the iteration mark 々, the prolonged sound mark ー and the jamo are letters; ・ and ゛ are not.
    one = re.compile(f"[{CJK_LETTERS}]")
    for code in [*range(0x1100, 0x1200), *range(0x3000, 0x3200), *range(0xAC00, 0xAC10), 0x20000, 0x4E00]:
        char = chr(code)
        assert (one.match(char) is not None) == (script_of(char) in CJK_SCRIPTS), hex(code)


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("查 元々は港へ向かった。嵐が来る前に戻る。", "ja", "查"),  # 々 is a letter: 查 is spaced Han
        ("ㅠㅠ\n„Wir haben versagt…“ Weitere Trolle strömen herein.", "de", "ㅠㅠ\n„"),  # jamo are letters
    ],
)
def test_pieces_of_iteration_marks_and_jamo_are_whole_pieces(text: str, locale: str, piece: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece, (text, found)


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # a name glued to the word for what it names: a statement, a property, a function
        ("loopステートメントを使うと、灯台の光が何度でも回り続けます。", "ja"),
        ("lamp属性决定灯塔的光有多亮，默认值是一。", "zh-Hans"),
        ("glow函式會讓燈塔的光慢慢變亮，然後再暗下來。", "zh-Hant"),
        ("brightness속성은 등대 불빛의 밝기를 정합니다.", "ko"),
        # a name the reply names again glued to its own letters
        ("beam会从左边移到右边。等到船靠岸以后，再把beam关掉。", "zh-Hans"),
        ("beam演出で港を照らします。船が着いたら、beamを消してください。", "ja"),
        # a name spaced from the particle that lists it with another
        ("xpos や ypos は、灯台の絵を画面のどこに置くかを決めます。", "ja"),
    ],
)
def test_a_latin_name_glued_to_cjk_and_named_or_named_again_is_the_first_word(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None
    assert judge(text, locale).outcome is Outcome.PASS


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        ("ing灯塔的光有多亮，默认值是一。", "zh-Hans", "ing"),  # no word for what it names follows
        # "house" named again is not "ouse"
        ("ouse灯台の光が港を照らします。船が着いたら、houseを消してください。", "ja", "ouse"),
        ("ation 灯台の光が港を照らします。", "ja", "ation"),
    ],
)
def test_a_piece_glued_to_cjk_is_still_a_piece_when_nothing_names_it(
    text: str, locale: str, piece: str
) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == piece


@pytest.mark.parametrize(
    "text", ["argent やがて、新しい要塞が彼らを迎えた。", "quin やめて、ここの人間達は悪くないわ。"]
)
def test_a_piece_before_a_japanese_word_that_opens_with_ya_is_still_a_piece(text: str) -> None:
    # や lists a second name after a first one ("xpos や ypos"); やがて and やめて are words of their own
    assert find_corrupted_start(text, "ja") is not None


def test_a_piece_that_recurs_only_as_a_unit_after_a_number_is_still_a_piece() -> None:
    text = "mm 「一台自制的三管40mm榴弹发射器，能够同时发射三颗榴弹。」"
    found = find_corrupted_start(text, "zh-Hans")
    assert found is not None and found.prefix == "mm"
