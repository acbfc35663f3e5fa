"""Starts that any sentence of a clean reply may have (``bench/start_openers.py`` judges every one): each
legitimate opener beside the corrupted start of the same shape that must still fail."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start

LEGITIMATE = [
    ("+2 к точности рядом со стеной. Длится три хода.", "ru"),  # a signed number
    ("+3 armure contre les coups. Dure un tour.", "fr"),
    ("-v Вивести докладний опис кожної команди.", "uk"),  # a command-line option and its description
    ("--force Overwrite the file without asking first.", "en"),
    ("ですから、私たちは明日の朝に出発します。", "ja"),  # a conjunction, not a verb ending
    ("ですので、今日は早めに休みましょう。", "ja"),
    ("Voilà: the file is ready in the current folder and you can open it.", "en"),  # a loanword and its colon
    ("| marks the position of the cursor in the text.", "en"),  # a symbol the sentence is about
    ("= means the value is copied as it is.", "en"),
    ("=2^8 returns 256 in the cell.", "en"),  # a formula
    ('="abc" & CHAR(10) inserts a line break.', "en"),
    ("第一个 “localhost” 限制了监听的接口。", "zh-Hans"),  # a spaced word before a quoted term
    ("这在 “Linux” 上是一个很大的问题。", "zh-Hans"),
    ("Активирует «Прыжок леопарда». Длится один ход.", "ru"),  # a word before a quoted name
    ('Kierunkowskaz "Do Koteczka". Nie wskazuje żadnej strony.', "pl"),
    ("乱数種 ボタンをクリックすると新しい値になります。", "ja"),  # a label before its element's kind
    ("強さ スライダーは線の長さを変えます。", "ja"),
    ("若指定 測試版 或 不穩定版 於 sources.list 內，則使用它們。", "zh-Hant"),  # spaced terms
    ("Uncheck Show scrollbar to hide it.", "en"),  # an imperative before the label it acts on
    ("Activez Toujours afficher le menu pour le garder.", "fr"),
    ("Cупервыборка сглаживает края линий.", "ru"),  # a Latin C typed for the Cyrillic С
    ("But— aren't you setting us against the dwarves?", "en"),  # a word broken off by a dash
    ("=DISTR.BINOM mostra as probabilidades para doze lançamentos.", "pt-BR"),  # a function name
    ("%100 ayarı uzak kenarın büyüklüğünü belirler.", "tr"),  # Turkish writes % before the number
    ("Гpуппа сомнительных лиц стояла под фонарём.", "ru"),  # a Latin p typed for the Cyrillic р
    ("Нy что yставился, как на новое yстpойство?", "ru"),  # a Latin y typed for у, ending the word
    ("Обществy нужно ещё сто двадцать восемь мегабайт.", "ru"),
    ("-c, -C, --complement kullanır ve dizilimi tamamlar.", "tr"),  # options and their comma
    ("Müller, wglądając przez okno, ujrzał Stirlitza.", "pl"),  # a foreign name and its comma
    ("データ は正規分布に従うと仮定します。", "ja"),  # a label spaced from its particle
    ("長さ では、フィールドの長さを指定します。", "ja"),
    ("Mas— assim você nos coloca em conflito.", "pt-BR"),
    ("흐으으으음— 우리 종족은 너희 종족 이전부터 있어왔다.", "ko"),
    # an abbreviation before its expansion in brackets, however long, whose initials spell it
    (
        "FLDSMDFR(Flint Lockwood Diatonic Super Mutating Dynamic Food Replicator)がやってきた兆候はない。",
        "ja",
    ),
    ("Saxofone Um saxofone alto de latão com uma alça para o pescoço.", "pt-BR"),  # a heading used again
    ("Rugnur Eski Torya'dan kaçmıştı, ama Alanin bunu yapamadı.", "tr"),  # a name and its case ending
    ("在你去奥杜因的這八年的期間，我好寂寞，你知道嗎？", "zh-Hant"),  # a variant form after three characters
    ("这 一点 在 NFS 和 磁盘 配额 上 比较 明显.", "zh-Hans"),  # Chinese written word by word
    ("\\& を 2 つの文字間に置くことで、カーニングを禁止できます。", "ja"),  # a symbol before its particle
    (".PS と .PE に狭まれた領域以外は、変更せずに素通しします。", "ja"),
    ("+n Supprimer de la pile le n-ième élément de la liste.", "fr"),  # an option written with a plus
    ("‘.Fn’ 宏可以被其他宏分析和调用。", "zh-Hans"),  # a quoted name that opens with a full stop
    ("“:UNINST”: instead of affecting any of the versions, the hint removes it.", "en"),  # ... or a colon
    (".LNK と .LCK ファイルがまだディレクトリに存在します。", "ja"),  # an extension in capitals
    (".NET programs run on the runtime that ships with the system.", "en"),
    ("Нажмите OK, чтобы вернуться в диалоговое окно печати.", "ru"),  # a label in another script
    ("^^ i ,, konwertują każdy dopasowany znak.", "pl"),  # an operator of two symbols
    ("^- veya undef değerleri bu özel karakteri geçersiz kılar.", "tr"),
    ('"" is the empty string, which every string starts with.', "en"),  # nothing quoted, named
    ('"", abhängig vom Speicherort der Dateien.', "de"),
    ("[] geeft het begin en einde van een bladwijzer aan.", "nl"),
    ("(?) 以追加方式打开文件将使得所有后续的写操作发生在文件末尾。", "zh-Hans"),  # a symbol in brackets
    ('"(*)" が後ろについたパッケージのサイズは代用されたものです。', "ja"),
]

CORRUPTED = [
    ("+The keeper opened the door.", "en", "+"),
    (", the keeper said.", "en", ","),
    (") and then the door closed.", "en", ")"),
    ("=The keeper opened the door.", "en", "="),
    ("です。私たちは明日の朝に出発します。", "ja", "です"),
    ("况 “走吧。”他说道，然后转身离开了房间。", "zh-Hans", "况"),  # before a quoted sentence
    ('Ally "Stay here," she said to the boy.', "en", "Ally"),
    ("况 也许我们明天再去看看那座老房子吧。", "zh-Hans", "况"),
    ("Kowalski La gardienne monta l'escalier.", "fr", "Kowalski"),  # before an article
    ("CЭлементы списка видны.", "ru", "C"),  # a Latin letter before a Cyrillic capital
    ("ing— Hola, ¿cómo estás?", "es", "ing"),
    ("ally— but you said so yourself.", "en", "ally"),  # broken off, but no word
    ("=OK, tell me more about it.", "en", "="),
    ("%The keeper opened the door.", "en", "%"),
    ("огоThe keeper opened the door of the old tower.", "en", "ого"),
    ("Şlem Si no vienes, me voy solo a la playa.", "es", "Şlem"),
    ("况 はい、わかりました。明日行きます。", "ja", "况"),  # はい opens a sentence: no particle
    ("Ment— mi pueblo ha habitado aquí desde antes.", "es", "M"),  # a piece, not drawn out
    ("hhh— Todos los elfos sienten la sombra del hierro.", "es", "hhh"),  # a run of one letter: a piece
    ("Que Ох, не думал, что гномы умеют орудовать мечом.", "ru", "Que"),  # before the reply's interjection
    (
        "ERT(Flint Lockwood Diatonic Super Mutating Dynamic Food Replicator)がやってきた兆候はない。",
        "ja",
        "E",
    ),
    ("Ation Um saxofone alto de latão com uma alça para o pescoço.", "pt-BR", "Ation"),  # not used again
    ("Ation Na Opór to zbiór opowieści i przepisów.", "pl", "Ation"),  # a title or a piece: not told
    ("Oni Im Debian Paket-Jargon ist eine Abhängigkeit ein anderes Paket.", "de", "Oni"),  # German nouns
    ("Xxxx ¿Cette section indique le format de la seconde partie.", "fr", "Xxxx"),  # a one-letter run
    ("奥在你去杜因的這八年的期間，我好寂寞，你知道嗎？", "zh-Hant", "奥"),  # the variant first
    # a piece before help text that spaces a few labels
    ("况 选择 打印到文件 并选择 PDF 作为 输出格式，然后点击打印按钮即可保存文件。", "zh-Hans", "况"),
    ("\\& 私たちは明日の朝に出発します。", "ja", "\\&"),  # before a sentence, not a particle
    ("),TYPE が text の場合、 grep はバイナリファイルを扱います。", "ja", "),"),  # punctuation stays stray
    ("N - Spécifier le contexte de sécurité des processus.", "fr", "N"),  # one capital letter before a dash
    ("‘.Fn 宏可以被其他宏分析和调用。", "zh-Hans", "‘."),  # not closed on the name
    ("“:Instead of affecting any of the versions, the hint removes it.", "en", "“:"),
    (".I think the keeper opened the door at dusk.", "en", "."),  # a capital opening a word
    ("Ывка Ну, чтобы вернуться в диалоговое окно печати.", "ru", "Ывка"),  # an interjection of its script
    ("^^ The keeper opened the door.", "en", "^^"),  # symbols before a sentence's capital
    ('"" The keeper opened the door.', "en", '""'),  # nothing quoted before a sentence
    ('""The keeper opened the door.', "en", '""'),
    ("(, the keeper said.", "en", "(,"),
]


@pytest.mark.parametrize(("text", "locale"), LEGITIMATE)
def test_a_legitimate_sentence_start_passes(text: str, locale: str) -> None:
    assert find_corrupted_start(text, locale) is None


@pytest.mark.parametrize(("text", "locale", "prefix"), CORRUPTED)
def test_the_same_shape_with_garbage_fails(text: str, locale: str, prefix: str) -> None:
    found = find_corrupted_start(text, locale)
    assert found is not None and found.prefix == prefix


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        ('Slogan "Ulepszamy świat, jeden bak na raz." wieńczy górę napisany małymi literami.', "pl"),
        ("Параметры «Ориентир:» активны для настройки цели.", "ru"),
    ],
)
def test_a_word_before_a_quoted_slogan_or_label_the_sentence_goes_on_from_passes(
    text: str, locale: str
) -> None:
    assert find_corrupted_start(text, locale) is None
    # dialogue goes on after a comma; a quoted sentence before the next one is followed by a capital
    assert find_corrupted_start(text.replace('." w', '," w').replace(":» а", ",» а"), locale) is not None
    assert find_corrupted_start(text.replace('." w', '." W').replace(":» а", ":» А"), locale) is not None
