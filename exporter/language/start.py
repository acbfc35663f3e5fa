"""Corrupted starts: a stray punctuation mark, byte or token fragment before the first word of a reply.

A reply may legitimately open with emphasis (``*``, ``_``), a quote (``"`` ``«`` ``“`` ``„`` ``「``), a
dialogue dash, ``¿``/``¡``, a list marker, a heading, an opening bracket, an ellipsis, a digit or an emoji.
It may not open with closing or separating punctuation (``,`` ``)`` ``」`` ``。``), with tokenizer residue
(``Ġ``, ``▁``, ``<|``), or with a lowercase subword glued to the real first word (``ingHello``,
``ción Hola``, ``lyЭлементы``).

Example::

    >>> find_corrupted_start(", Hola, ¿cómo estás?").kind
    'stray_punctuation'
    >>> find_corrupted_start("¿Cómo estás?") is None
    True
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from exporter.language.hanzi import hanzi_tables
from exporter.language.lexicon import lexicon_or_none
from exporter.language.locales import LATIN_LOCALES
from exporter.language.scripts import (
    CJK_LETTERS,
    CJK_SCRIPTS,
    HAN_KANA_LETTERS,
    LETTERS,
    Script,
    leading_run,
    script_counts,
    script_of,
    weight,
)
from exporter.language.segment import END_MARK, FORMULA, QUOTE_PAIRS, case_class

# Always wrong as the very first character of a reply.
_STRAY = frozenset(",;:)]}!?。、，．；：！？）］｝】」』》〉〕〗〙〛”’›|^=<\\@&+%$")
# Wrong unless followed by what makes them legitimate (a file name, a path, a list item...).
# an ellipsis, ".bashrc", ".5", or a name in capitals (".NET", ".LNK と .LCK", ".YYYYMMDDHHMMSS.xac"), not a
# capital opening a word (".The", ".I think")
_DOT_OK = re.compile(r"\.(?:\.|[a-z0-9]|[A-Z0-9]{2,}(?![^\W\d_]))")
_SLASH_OK = re.compile(r"/(?:/|[a-z0-9._~])")  # "/etc/passwd", "// comment"
# A symbol and a spaced colon: the entry of a glossary of symbols ("\\ : The backslash…", "% : pour cent").
_SYMBOL_ENTRY = re.compile(r"[^\w\s]{1,3}[ \t]+[:：][ \t]")
# What makes one of the stray symbols a legitimate first character, by symbol.
_CAPITALS_NAME, _NAME_PART = "[A-ZÀ-ÞА-ЯЁ][A-ZÀ-ÞА-ЯЁ0-9]{2,}", "(?:[._][A-ZÀ-ÞА-ЯЁ0-9]+)"
_FUNCTION_NAME = f"{_CAPITALS_NAME}{_NAME_PART}*"  # "SERIE.JOUR.OUVRE", "ЧКОМБА"
_DOTTED_NAME = f"{_CAPITALS_NAME}{_NAME_PART}+"  # "DISTR.BINOM" ("=SUM the…" stray)
_SYMBOL_OK = {
    # a markdown list item, a signed number ("+1 к точности", "+5 armadura"), an option written with a plus
    # ("+n Supprimer…", "+mode, -mode…", as dirs, popd and stty name theirs)
    "+": re.compile(r"\+(?: |\d|[a-z][a-z0-9-]{0,30}[ \t,])"),
    # A printf-style conversion ("%s", "%-5d", "%.2f"), then no letter ("%sulogin" is not one); or a
    # percentage written before its number, as Turkish writes it ("%100 ayarı…").
    "%": re.compile(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|ll|[hlLqjzt])?[diouxXeEfFgGaAcspn%](?![^\W\d_])|%\d"),
    "$": re.compile(r"\$[A-Za-z0-9{(]"),  # "$HOME", "$5"
    "<": re.compile(r"<[^\W\d_][^<>\n]{0,30}>"),  # a tag or placeholder: "<b>", "<모드>"
    "\\": re.compile(r"\\(?:[a-z](?![^\W\d_])|[a-z]+[{\[])"),  # "\n", "\section{...}"
    "|": re.compile(r"\|[^\n]*\|"),  # a markdown table row
    "@": re.compile(r"@[A-Za-z]"),  # a handle or "@file"
    "’": re.compile(r"’[^\W\d_A-Z]{1,12}(?![^\W\d_])"),  # an elided word: "’türlich!", "’n", "’tis"
    # a spreadsheet formula: "=SUM(A1:A3) adds…", "=4^3 renvoie…", '="abc" & CHAR(10)…', or its function
    # name in capitals before its arguments, or a dotted one before the sentence ("=DISTR.BINOM mostra…")
    "=": re.compile(rf"{FORMULA.pattern}|=[\d(\"]|= ?{_FUNCTION_NAME}\(|= ?{_DOTTED_NAME} [a-zß-ÿа-яё]"),
}
_ARTIFACTS = re.compile(r"^(?:Ġ|▁|Ċ|##|<0x[0-9A-Fa-f]{2}>|<\|[^|>]{0,40}\|>|</?s>|<unk>|\[UNK\]|\ufeff)")
# Whitespace and invisible characters (zero-width, LRM/RLM, soft hyphen, invisible operators) before the
# first visible one: skipped, so what hides behind them (LRM then ",") is still seen.
_INVISIBLE_PREFIX = re.compile(r"^[\s\u200b-\u200f\u2060-\u2064\u00ad\u180e]+")


_LOWER = case_class("islower")
# A symbol the sentence is about (or two: an operator, "^^", "^-"), spaced from the lowercase word that goes
# on ("| indicates the position…", "= means both…", "% echo '…' | xxd", "^^ i ,, konwertują…", "^- veya
# undef…"): a stray mark before a reply is punctuation (",", ")", "。"), which this does not excuse, or stands
# before the reply's first word, which opens a sentence.
_SYMBOL_SUBJECT = re.compile(rf"[|=<>%&$@^][|=<>%&$@^*~+-]?[ \t]+{_LOWER}+(?![^\W\d_])")
_UPPER = case_class("isupper")
# In Japanese, an escape (a backslash and up to two marks), one of ``_SYMBOL_SUBJECT``'s symbols or a name
# opening with a full stop (a roff request, an extension) spaced from a particle that goes on with the
# sentence, before a kanji, a katakana, a space or a Latin letter (``\\& を 2 つの文字間に…``,
# ``\\% の結果の…``, ``.PS と .PE に…``): the sign the sentence is about; no reply opens with a particle.
# Punctuation stays stray (``),TYPE が…``, ``;;POSIX の…``), and so does a particle before more hiragana
# (``では``, ``でも`` open sentences).
_SYMBOL_BEFORE_PARTICLE = re.compile(
    r"(?:\\[^\w\s]{0,2}|[|=<>%&$@^]{1,2}|\.[A-Za-z]{1,12})[ \t]+[はがをのでとにも]"
    r"(?=[ \t\u30a1-\u30fa\u4e00-\u9fffA-Za-z0-9.])"
)
_CJK = f"[{CJK_LETTERS}]"
_HAN_KANA = f"[{HAN_KANA_LETTERS}]"
# "ingHello", "ingA message", "ataL'identifiant", "eurỒ, …": two or more lowercase letters glued to a
# capitalised word or a one-letter capital word (not "macOS", "iPhone").
_GLUED_CAPITAL = re.compile(rf"^{_LOWER}{{2,}}{_UPPER}(?:{_LOWER}|['’,]|\s)")
# "lyЭлементы", "ing你好": a lowercase Latin/Cyrillic run glued to another script. Before Chinese, Japanese
# or Korean only a known subword suffix counts: a command name takes a particle there ("mandb는", "rpm是").
# Frequent inflectional and derivational endings of the product's Latin- and Cyrillic-script languages:
# what a tokenizer leaves behind when a word is cut (a subword piece), and never a word on its own.
_SUFFIXES = (
    "ing|tion|ly|ed|ment|ness|ers?|es|ity|ous|ies"  # en
    "|ción|ciones|mente|ado|ido"  # es
    "|ção|ções|mente|ões"  # pt
    "|eur|euse|ique|ement"  # fr
    "|ung|keit|heit|lich|isch|ische|chen"  # de
    "|zione|zioni|ità|mente"  # it
    "|heid|lijk|ing"  # nl
    "|ość|ów|ach|ami|ować|anie|enie"  # pl
    "|lar|ler|ları|leri|sı|si"  # tr
    "|nya|kan|lah"  # id
    "|ent|ant|ist"
    "|ого|ого|ние|ния|ный|ная|ное|ами|ется|ться|ся|ть|ння|ний|ється"  # ru, uk
)
# "ésEACCES", "огоСТРОКА": a known ending glued to a word in capitals ("macOS" is not a cut word).
_GLUED_CAPS = re.compile(rf"^(?:{_SUFFIXES}){_UPPER}{{2,}}")
# (Latin and Cyrillic glued together are never a word, whatever their case: "OПо", "КDe", "МволLa"; but a
# Latin capital that looks like a Cyrillic one, before the word's lowercase Cyrillic letters, is a typist's
# homoglyph: "Cупервыборка", "Hе", "Eсть"; so is a lowercase one inside a Cyrillic word, or ending one
# before more Cyrillic text, as Fidonet-era Russian typed у and р: "Гpуппа", "Нy что", 'Обществy "Память"'.)
_HOMOGLYPH = "[ABCEHKMOPTX]"
_GLUED_SCRIPT = re.compile(
    rf"^(?:(?!{_HOMOGLYPH}[а-яёєіїґ])[A-Za-z]{{1,12}}(?=[А-яЁёЄєІіЇїҐґ])|(?:{_SUFFIXES})(?=\s?{_CJK})"
    rf"|[А-яЁёЄєІіЇїҐґ]{{1,12}}(?=[A-Za-z])(?![aceopxy](?:[А-яЁёЄєІіЇїҐґ]|[^\w\n]{{1,3}}[А-яЁёЄєІіЇїҐґ]))"
    rf"|[а-яёєіїґ]{{1,12}}(?={_CJK})"
    # a Greek, Armenian, Hebrew, Arabic, Indic, Thai or Georgian piece glued to Latin or Cyrillic ("ـCuando")
    rf"|[\u0370-\u03ff\u0530-\u08ff\u0900-\u0eff\u10a0-\u10ff]{{1,8}}(?=[A-Za-zÀ-ɏА-яЁёЄєІіЇїҐґ]))"
)
# "ción Hola", "ing. Hello", "ers A list", "lar ¿Qué": a lowercase fragment, then the capitalised first word.
_LOOSE_FRAGMENT = re.compile(rf"^{_LOWER}{{1,14}}[.,;:!?…]*\s+[¿¡\"“„«]?{_UPPER}(?:{_LOWER}|\s)")
# "és\ninitdb ...", "ed\nA command": a lone lowercase scrap on the first line.
_SCRAP_LINE = re.compile(rf"^{_LOWER}{{1,8}}[ \t]*\n")
# "ное 服务器": a Cyrillic fragment before the first Chinese/Japanese/Korean character. (A lowercase Latin
# word there is usually a command or product name: "iptables は ...".)
_CYRILLIC_BEFORE_CJK = re.compile(rf"^[а-яёєіїґ]{{1,14}}[.,;:!?…]*\s+{_CJK}")
# Chinese, Japanese and Korean fragments no sentence can start with: particles, verb endings, small kana
# (not ですが, ですから, ですので: conjunctions opening a sentence).
_CJK_FRAGMENT = re.compile(
    r"^(?:的(?![确確士])|了(?![解结結却卻不得然如])|[吗嗎呢们們]"
    r"|ます(?!ます)|です(?!が|から|ので)|ました|[をっッゃゅょぁぃぅぇぉャュョァィゥェォーヶんン]"
    r"|(?:니다|습니다|어요|아요|세요|에게|에서|는|은|을|를|의|요)(?=[\s,.]))"
)
# A lowercase word of one alphabet (Latin, Cyrillic or Greek) and a colon: a label (a speaker, a headword, a
# field, a symbol defined: "σ: стандартне відхилення…"). A tokenizer's piece
# carries no colon (none of Whisper's 48,781 tokens is letters and a colon, its pre-tokenizer splits them):
# a piece before a reply would need the reply itself to open with a colon.
_LABEL = re.compile(r"^(?:[a-zß-öø-ÿā-ɏ]{1,20}|[а-яёєіїґ]{1,20}|[ά-ώ]{1,20}):[ \t]")
# A speaker's longer label in a transcript: a lowercase word (an abbreviation's full stop allowed), up to
# two more words and a colon, then a dialogue dash ("o. Rydzyk: - Kto…", "ekspertka RM: - …"). Its first
# word must be a word (``_label``): a piece before a reply that opens with "Nota: - …" is still a piece.
_SPEAKER = re.compile(rf"^({_LOWER}{{1,20}})\.?(?:[ \t][^\W\d_]{{1,20}}\.?){{0,2}}:[\"'”»]?[ \t]+[-—–][ \t]")
# Opening marks a reply may legitimately start with; a fragment may hide behind them ('"ing Hello').
_OPENERS = re.compile(r"^[\"'“‘„«»‹「『（(\[*_~¿¡—–-]+\s?")
# A command-line option and its description ("-l Не використовувати…", "--force Overwrite…"): ASCII letters
# glued to the hyphen, spaced from the text (a dialogue dash is spaced, or glued to a capitalised word).
_OPTION = re.compile(r"--?[a-z][a-z0-9-]{0,30}[ \t,]")
_OPENING_MARKS = frozenset("\"'“‘„«‹「『（([*_¿¡")
_CJK_CHAR = re.compile(_CJK)
_DOUBLED_OK = frozenset({"**", "__", "--", "——", "~~", "[["})  # bold, rules, wiki links
# Marks (up to three) or nothing in quotes or brackets, then the sentence going on about them, in lowercase
# or in Chinese, Japanese or Korean: a symbol or an empty value the sentence names ('"" is the empty
# string', '[] geeft het begin…', '"", abhängig vom…', '(?) 以追加方式…', '"(*)" が後ろに…'). Stray marks
# before a reply stand before its first word: glued to it, or before the capital that opens its sentence.
_NAMED_SYMBOL = re.compile(
    "(?:"
    + "|".join(
        f"{re.escape(o)}[^\\w\\s{re.escape(c)}]{{0,3}}{re.escape(c)}"
        for o, c in ('""', "''", "“”", "«»", "「」", "()", "[]")
    )
    + rf")[,;:]?[ \t]+(?:{_LOWER}|{_CJK})"
)
# Stray punctuation right behind an opener: '".Il guardiano', '*.', '«.', '¿,' ('"..." and '*…*' pass).
# ("*.txt" is a glob, not an opener and a full stop)
_OPENER_THEN_STRAY = re.compile(r"^[\"'“‘„«‹「『（(\[*_¿¡]+(?:[,;:)\]}!?]|\.(?![.a-z0-9]))")
# "ción.El", "s.The": a fragment, a full stop or comma, and the real first word glued behind it.
_GLUED_PUNCT = re.compile(rf"^{_LOWER}{{1,14}}[.,;:!?]{_UPPER}")
# "ment —Quédate", "ing *The": a fragment in front of an emphasis mark, a dash or a quote (and the text's own
# single quote: "cycles *'Pixellate' changes…").
_FRAGMENT_BEFORE_OPENER = re.compile(rf"^{_LOWER}{{1,14}}[.,;:]?\s+[*_—–\-«»\"“„¿¡(「]+'?\s?{_UPPER}")
# "le«De", "a“La", "y"Cuando", "Ach«Вмикає": letters glued to an opening quote are never a word (a word,
# even one the reply uses again, is spaced from the quote that follows it).
_GLUED_QUOTE = re.compile(r"^[A-Za-zÀ-ɏ\u1e00-\u1effА-яЁёЄєІіЇїҐґ]{1,14}[“„«「『¿¡\"]\s?[^\W\d_]")
# "RUMDA (By default…", "HELL (Um texto…": a capitalised piece before a bracket that opens the text, not a
# parenthesis ("Copyright (C)", "Linux (Debian) is…" close within a few words).
_CAPITAL_BEFORE_PAREN = re.compile(rf"^{_UPPER}[^\W\d_]{{0,13}}[ \t]+\({_UPPER}")
PAREN_CLOSE_CHARS = 40  # a parenthesis after the first word closes within this many characters
# ”Ruang pengguna” mengacu…: Swedish, Finnish and some Indonesian typography open a quote with the mark
# that closes it; a term quoted so closes within its sentence, behind the letters it opens.
_SAME_MARK_QUOTE = re.compile(rf"^”[^\W\d_][^”\n]{{0,{PAREN_CLOSE_CHARS}}}”")
# In an expansion, short lowercase words may be skipped ("Redundant Array of Independent Disks").
SKIPPED_WORD_MAX = 3
# "니다The", "ですHello", "想象成從 — Ahora": a short CJK fragment before Latin or Cyrillic text (spaced,
# glued, on its own line, or in front of an opener).
_CJK_BEFORE_ALPHABET = re.compile(
    rf"^{_CJK}{{1,8}}[,.、。]?\s*[(“„«「『¿¡*—–\-\"]*\s?(?=[A-Za-zА-яЁёЄєІіЇїҐґ])"
)
# "N(To", "e“The", "ione“Specifies", "ювати(The": letters glued to an opening mark, or to a run of them
# when the text opens with its own ("vent¿“The museum…", "girl„„In einer Stadt", "cut— - Der Shevaar…",
# "eled*'Pixellate'").
# Latin or Cyrillic letters only: Chinese and Japanese put quotes right after a word ("他说“你好”").
# ("R- HASHES", "N- Deze": glued to a hyphen and a space before a capital; "Gebruikers- en" is a compound.)
_LETTERS_BEFORE_OPENER = re.compile(
    rf"^[A-Za-zÀ-ɏ\u1e00-\u1effА-яЁёЄєІіЇїҐґ]{{1,14}}(?!\([^\W\d_]{{1,3}}\))"
    rf"(?:[(“„«「『¿¡*—–\"]\s?(?:[(“„«「『¿¡*—–\-\"']\s?)*[^\W\d_]|-\s{_UPPER})"
)  # ("DATEI(en)", "file(s)": a plural ending in brackets, not an opener)
# "IZEOF\n*El", "Ено\n¿Puede", "Bil\n(Si": a lone token on the first line, then the text.
_TOKEN_LINE = re.compile(r"^[^\W\d_]{1,6}[ \t]*\n+\s*[(“„«「『¿¡*—–\-\"]?[ \t]?[^\W\d_]")
# "ONAL «Hay…", "Ure ¿Cuando…", "RFACE - Meldungen…", "Rata "如果…": a capitalised or UPPER token, spaced
# from an opening mark that starts the text: a capital letter, or another script than the token's. A name
# a reply opens with is followed by its verb, not by a quote or a dash opening a new capitalised sentence
# (a bracket is a parenthesis, "Copyright (C)", except before another script; a dash before Russian or
# Ukrainian is a copula: "Linux — это ядро").
_CAPITAL_BEFORE_OPENER = re.compile(
    rf"^(?:{_UPPER}[^\W\d_]{{0,13}}[.,;]?[ \t]+[*—–\-«\"“„¿¡「]+[ \t]?(?:{_UPPER}|{_CJK})"
    rf"|[A-Za-zÀ-ÖØ-öø-ɏ\u1e00-\u1eff]{{1,14}}[ \t]+"  # a Latin piece, accented or not
    rf"(?:[*—–\-«\"“„¿¡(「]+[ \t]?{_CJK}|[*«\"“„(]+[ \t]?[А-яЁёЄєІіЇїҐґ]))"
)
# 'Nas "Notas de Lançamento" anteriores', 'Informasi "To" dan', 'Zakładka "Zadowolenie", którą': a quoted
# term inside the sentence (closed without end punctuation, the sentence going on in lowercase or with a
# symbol, possibly after a comma outside the quote: ``_quoted_term``), so the word before it is the
# sentence's first word. Dialogue closes after its punctuation ('ing "Stay here," she said' is a piece); a
# term may hold a comma between its words ('Indiquez « Greenwich, Angleterre » comme position', a place).
# The low opening quote closes with “ in German and Czech and with ” in Polish, Romanian and Hungarian
# (``Litera „A” oznacza…``): either closes it.
_CLOSERS_OF = {"„": "“”"}
_QUOTED = "|".join(
    f"{o}[^{c}\n.,;:!?…](?:[^{c}\n.;:!?…]{{0,58}}[^{c}\n.,;:!?…])?[{c}]"
    for o, c in (('"', '"'), ("“", "”"), ("„", _CLOSERS_OF["„"]), ("«", "»"))
)
_QUOTED_TERM = re.compile(rf"[^\W\d_]+[ \t]+(?:{_QUOTED})[,;:]?[ \t]+")
_MORE_QUOTED = re.compile(rf"(?:{_QUOTED})[,;:]?[ \t]+")
# A lowercase run glued to Chinese/Japanese/Korean: a command name takes a particle or copula there
# ("mandb는", "rpm是", "grepで") or a word for what it names (``_COMMAND_NOUN``: "queue语句"); anything
# else after it ("ark你好", "rüm各") is a cut token.
# "力します¿その他", "到讀入„算術", "o«1 番目", "t- ネット", "成功を- 標準": in a Chinese, Japanese or Korean
# reply, a first token followed by a mark those languages never write (¿ ¡ „ «), or glued to a dash that a
# space then separates from the text.
_PIECE_BEFORE_WESTERN_MARK = re.compile(rf"^[^\W\d_]{{1,14}}(?:[ \t]?[¿¡„«]|[-—–][ \t]+{_CJK})")
_LATIN_BEFORE_CJK = re.compile(rf"^{_LOWER}{{1,12}}(?={_CJK})")
_PARTICLE = re.compile(r"[는은을를이가의에도로와과나만은とはがをのにでもや是的在和就也都命]")


# Words a reply may open with in lowercase: interjections and discourse words
# (after collapsing repeated letters: "hmmm" -> "hm", "ohhh" -> "oh"). Not subword pieces: no tokenizer
# leaves "ok" or "ну" as the tail of a neighbouring word. Each locale has its own: a discourse word of another
# language before the reply's first word is a piece of a token in that language ("à Olha, …" in Portuguese,
# "right Das wäre…" in German, "so“O, nee!”" in Dutch); sounds and "ok" are written everywhere (``_SHARED``).
def _words(*lines: str) -> frozenset[str]:
    return frozenset(word for line in lines for word in line.split())


_SHARED = "ok okay oke okey oké hm mhm oh ah aha uh um eh ha haha hey wow oops"
_CYRILLIC_INTERJECTIONS = "ну да нет ой ах ох эх ага так ні еге"  # ru, uk
LOCALE_INTERJECTIONS = {
    "en": _words(
        _SHARED, "sure yes yeah yep yup no nope hi hello well ugh huh alright right fine so yo", "ow aw"
    ),
    "fr": _words(_SHARED, "oui non bon euh bah ben hein ouais"),
    "es": _words(_SHARED, "sí si vale bueno vaya pues claro ay oye"),
    "pt-BR": _words(_SHARED, "sim não nossa olha opa poxa né"),
    "de": _words(_SHARED, "ja nein na naja tja ach doch gut also hallo"),
    "it": _words(_SHARED, "sì beh ecco dai mah boh insomma ehi"),
    "nl": _words(_SHARED, "nou nee hè hé jawel tja ja"),
    "pl": _words(_SHARED, "tak nie cóż och hej"),
    "ru": _words(_SHARED, _CYRILLIC_INTERJECTIONS),
    "uk": _words(_SHARED, _CYRILLIC_INTERJECTIONS),
    "tr": _words(_SHARED, "evet hayır tamam peki hı ya"),
    "id": _words(_SHARED, "iya tidak nah wah ayo"),
    "vi": _words(_SHARED, "ừ vâng không ờ dạ à ồ ơ"),
}
INTERJECTIONS = frozenset().union(*LOCALE_INTERJECTIONS.values())  # any locale's: a reply with no locale
_SHARED_WORDS = _words(_SHARED)


def _interjection(token: str, locale: str | None, punctuated: bool = False) -> bool:
    """Whether ``token`` (its repeated letters collapsed or not: "Ohhh", "hmmm") is an interjection of the
    reply's locale, or of any when it has none; a Chinese, Japanese or Korean reply's Latin ones are the
    shared sounds. ``punctuated``: the token is followed by its comma, exclamation mark or ellipsis, as a
    character who speaks another language says it ("Nein, ¡los vengaré!", "Oui... je sais"): any
    locale's interjection then; a tokenizer's piece is glued to text, not punctuated as an interjection."""
    folded = token.casefold()
    words = INTERJECTIONS if punctuated else _interjections(locale)
    return folded in words or _REPEATS.sub(r"\1", folded) in words


_INTERJECTION_MARKS = frozenset(",!?….")  # what an interjection is punctuated with


def _interjections(locale: str | None) -> frozenset[str]:
    return INTERJECTIONS if locale is None else LOCALE_INTERJECTIONS.get(locale, _SHARED_WORDS)


# The letters beyond ASCII each Latin-script locale writes. A first token with another one (``ş`` before
# Spanish text, ``ờ`` before French, ``Ż`` before Portuguese) is a piece of a neighbouring token in another
# language, not the reply's first word (Vietnamese writes too many to list: not checked).
_ALPHABET_EXTRA = {
    "en": "éèëïöüçñ", "es": "áéíóúüñ", "pt-BR": "áâãàçéêíóôõúü", "fr": "àâæçéèêëîïôœùûüÿ",
    "de": "äöüßé", "it": "àèéìíîòóù", "nl": "áéëèêïíóöúüà", "pl": "ąćęłńóśźż", "tr": "çğıöşüâîûi̇",
    "id": "é",
}  # fmt: skip
# The scripts a reply in a Chinese, Japanese or Korean locale may open with (a Latin name is fine).
_CJK_OPENING_SCRIPTS = {
    "ja": {Script.HAN, Script.KANA},
    "ko": {Script.HANGUL, Script.HAN},
    "zh-Hans": {Script.HAN},
    "zh-Hant": {Script.HAN},
}
_STRAY_RUN = re.compile(r"[^\w\s]{1,8}")  # the stray marks shown
_LOWER_RUN = re.compile(f"{_LOWER}+")  # the lowercase piece shown
_REPEATS = re.compile(r"(.)\1+")


@dataclass(frozen=True, slots=True)
class CorruptedStart:
    """``kind``: ``stray_punctuation``, ``unclosed_opener``, ``tokenizer_artifact`` or ``fragment``;
    ``prefix``: the garbage."""

    kind: str
    prefix: str
    codepoints: tuple[str, ...]

    def as_evidence(self) -> dict[str, object]:
        return {"kind": self.kind, "prefix": self.prefix, "codepoints": list(self.codepoints)}


def _found(kind: str, prefix: str) -> CorruptedStart:
    return CorruptedStart(kind, prefix, tuple(f"U+{ord(c):04X}" for c in prefix))


def find_corrupted_start(text: str, locale: str | None = None) -> CorruptedStart | None:
    """The garbage before the first word of ``text``, or None when the start is legitimate.

    ``locale`` (a canonical code such as ``es``) enables the checks that need the reply's alphabet.
    """
    if text.startswith("\ufeff"):
        return _found("tokenizer_artifact", "\ufeff")
    text = _INVISIBLE_PREFIX.sub("", text)
    if not text:
        return None
    if m := _ARTIFACTS.match(text):
        return _found("tokenizer_artifact", m.group())
    first = text[0]
    if first in _STRAY and not ((ok := _SYMBOL_OK.get(first)) and ok.match(text)):
        if (
            (first == "›" and "‹" in text)
            or _SAME_MARK_QUOTE.match(text)
            or _SYMBOL_ENTRY.match(text)
            or _backslash_command(text, locale)
            or _SYMBOL_SUBJECT.match(text)
            or _symbol_before_particle(text, locale)
            or _symbol_list(text)
        ):
            return None
        return _found("stray_punctuation", _leading(_STRAY_RUN, text))
    if first == "»" and "«" not in text:
        return _found("stray_punctuation", first)
    if first == "." and not _DOT_OK.match(text) and not _symbol_before_particle(text, locale):
        return _found("stray_punctuation", _leading(_STRAY_RUN, text))
    if first == "/" and not _SLASH_OK.match(text):
        return _found("stray_punctuation", _leading(_STRAY_RUN, text))
    if "\u0300" <= first <= "\u036f":  # a combining mark with nothing to combine with
        return _found("fragment", first)
    if _NAMED_SYMBOL.match(text):
        return None  # '"" is the empty string', "[] geeft…", "(?) 以追加方式…": a symbol or nothing, named
    if found := _opener_problem(text):
        return found
    if _OPTION.match(text):
        return None
    body = text[m.end() :] if (m := _OPENERS.match(text)) else text
    if piece := _piece_glued_to_capitals(body, locale):
        return _found("fragment", piece)
    if _label(body, locale):
        return None  # a label: a speaker, a headword, a field ("słuchaczka: — Pojechałam…", "altern: 1. …")
    if _sentence_tail(text, locale) or _opening_aside(text, locale):
        return None  # "grande. E spingo…", "(od Linuksa 2.6.19 …) Wielkość…"
    if piece := _piece_before_item(text, locale):
        return _found("fragment", piece)
    by_lexicon = _lexicon_start(text, locale)
    if isinstance(by_lexicon, CorruptedStart):
        return by_lexicon
    if piece := _piece_before_ellipsis(text, locale):
        return _found("fragment", piece)
    if (m := _CJK_BEFORE_ALPHABET.match(body)) and _mostly_alphabetic(body):
        return _found("fragment", m.group().strip())
    if (
        (m := _LATIN_BEFORE_CJK.match(body))
        and not _PARTICLE.match(body, m.end())
        and not _COMMAND_NOUN.match(body, m.end())
        and not _recurs(m.group(), body)
    ):
        return _found("fragment", m.group())
    if locale in _CJK_OPENING_SCRIPTS and (
        found := _spaced_piece_in_cjk(text, locale) or _foreign_han(text, locale)
    ):
        return found
    if (m := _GLUED_QUOTE.match(text)) and (
        lead := _leading(LETTERS, m.group())
    ).casefold() not in _interjections(locale):
        return _found("fragment", lead)
    if (
        (m := _CAPITAL_BEFORE_PAREN.match(text))
        and ")" not in text[m.end() : m.end() + PAREN_CLOSE_CHARS]
        and not _is_word(m.group(), text, locale, any_case=True)
        and not _glossed_capitals(_leading(LETTERS, m.group()), text)
        and not _spelled_out(_leading(LETTERS, m.group()), text[m.end() - 2 :])
    ):
        return _found("fragment", _leading(LETTERS, m.group()))
    m = (
        _GLUED_PUNCT.match(body)
        or _FRAGMENT_BEFORE_OPENER.match(body)
        or _LETTERS_BEFORE_OPENER.match(text)
        or _TOKEN_LINE.match(text)
    )
    if (
        m
        and not _is_word(m.group(), body, locale)
        and not _abbreviation(text)
        and not (m.re is _LETTERS_BEFORE_OPENER and (_glued_gloss(text) or _broken_off(text, locale)))
    ):
        return _found("fragment", _leading(_LOWER_RUN, m.group()))
    if (
        by_lexicon is None
        and (m := _CAPITAL_BEFORE_OPENER.match(text))
        and not _is_word(m.group(), text, locale, any_case=True)
        and not _quoted_term(text)
        and not _quoted_name(_leading(LETTERS, m.group()), text, locale)
        and not _headword(lead := _leading(LETTERS, m.group()), m.group()[len(lead) :], locale)
        and not _headword_list(lead, text)
        and not _parenthetical(text[len(lead) :])
        and not _expansion_follows(text)
        and not _capitals_headline(text)
        and not _glued_words(lead, locale)
        and not (
            m.group()[len(lead) : len(lead) + 1] in ",;."
            and (_in_lexicon(lead, locale) or _long_word(lead, locale) or _capitalised_word(lead))
        )
        and not (_CJK_CHAR.match(m.group()[-1]) and _mostly_alphabetic(text))
    ):
        return _found("fragment", _leading(LETTERS, m.group()))
    for pattern in (
        _GLUED_CAPITAL,
        _GLUED_CAPS,
        _GLUED_SCRIPT,
        _LOOSE_FRAGMENT,
        _SCRAP_LINE,
        _CYRILLIC_BEFORE_CJK,
    ):
        if (
            (m := pattern.match(body))
            and not (
                pattern is _LOOSE_FRAGMENT
                and (
                    _is_word(m.group(), body, locale)
                    or _command_like(m.group())
                    or _list_item(text, m.group(), locale)
                )
            )
            and not (pattern is _GLUED_CAPITAL and _camel_case_name(body))
        ):
            return _found("fragment", _leading(_LOWER_RUN, m.group()))
    if m := _CJK_FRAGMENT.match(body):
        return _found("fragment", m.group())
    if (
        locale in _CJK_OPENING_SCRIPTS
        and (m := _PIECE_BEFORE_WESTERN_MARK.match(text))
        and not _mostly_alphabetic(text)
        and not _drawn_out(_leading(LETTERS, m.group()))
        and not _long_word(_leading(LETTERS, m.group()), locale)
    ):
        return _found("fragment", _leading(LETTERS, m.group()))
    if by_lexicon is None and (token := _foreign_first_token(body, locale)):
        return _found("fragment", token)
    if piece := _piece_glued_to_opening_word(body, locale):
        return _found("fragment", piece)
    return None


# A first token, then (behind punctuation, a space and possibly openers) a capitalised word or a number: a
# sentence starting right after the token ("ally The keeper", "ation La gardienne", "ly — Quédate").
_TOKEN_THEN_CAPITAL = re.compile(
    rf"^([^\W\d_]{{1,14}})([.,;:]?)([ \t]+)((?:[*_—–\-«»\"“„¿¡(「][ \t]?)*)({_UPPER}[^\W\d_]*|\d)"
)
_DASHES = frozenset("—–-")
NAME_MIN_LETTERS = 3  # a capitalised token this long before a dash may be a name addressed or speaking
# Lowercase particles of names ("de Vries", "van Gogh", "von Trier", "bin Laden"): a reply may open with one.
NAME_PARTICLES = frozenset(
    "de da di del della do dos das du des la le van von der den ten ter bin ibn al el".split()  # noqa: SIM905
)
# Russian and Ukrainian write a dash for the missing copula between a subject and a noun ("Я — Кай",
# "Москва — столица"): a one-letter subject (the pronoun Я) before a dash and a name is a sentence's start.
COPULA_DASH_LOCALES = frozenset({"ru", "uk"})
FUNCTION_WORDS = 200  # the most frequent words of a language: articles, pronouns, conjunctions ("The", "La")


GERMAN_NAME_MIN_LETTERS = 6  # a capitalised token this long opening a German reply may be a surname
# A capitalised token this long is a word or a name in any language: 1 % of a real tokenizer's continuation
# pieces are (Whisper's multilingual BPE: 1.7 % of its capitalised ones), and words outside a 30,000-word
# lexicon are this long (inflected forms: "Zamierzałem", "Przeżywszy"; rare nouns: "Impartiality").
LONG_WORD_MIN_LETTERS = 9
# A capitalised token this long, before a capitalised word that is not one a sentence opens with (an
# article, a pronoun: ``ARTICLES``), is a word or a name (an imperative before the label it acts on:
# "Uncheck Show scrollbar", "Activez Toujours afficher…", "Нажмите OK"): of Whisper's 708 capitalised
# letter pieces 30 are this long, and every one is a whole word (Because, Welcome, Narrator).
CAPITALISED_WORD_MIN_LETTERS = 7
ARTICLES = 50  # the most frequent words of a language, the ones a sentence opens with: "La", "The", "Я"


# A lowercase word and its full stop before a capitalised sentence: the last word of a sentence the reply
# picks up in its middle ("grande. E spingo…", "zrobimy. Ostrożnie…").
_WORD_AND_FULL_STOP = re.compile(rf"({_LOWER}{{1,14}})\.[ \t]+{_UPPER}")
SENTENCE_TAIL_MIN_LETTERS = 4  # shorter words are also common pieces ("con", "ly", "er")


def _sentence_tail(text: str, locale: str | None) -> bool:
    """Whether the text opens with the end of a sentence (``_WORD_AND_FULL_STOP``): a word of the reply's
    language (its lexicon, ``SENTENCE_TAIL_MIN_LETTERS`` or more) and its full stop. A tokenizer's piece
    is no word and carries no full stop of its own (``ing. Hello``, ``ation La gardienne``)."""
    if (m := _WORD_AND_FULL_STOP.match(text)) is None:
        return False
    return len(m.group(1)) >= SENTENCE_TAIL_MIN_LETTERS and _in_lexicon(m.group(1), locale)


def _opening_aside(text: str, locale: str | None) -> bool:
    """Whether the text opens with an aside in brackets whose first word is a common word of the reply's
    language, closed within ``GLOSS_MAX_CHARS`` and inside the first sentence, the text going on after it
    (``(od Linuksa 2.6.19 wymagane jest CONFIG_HIGHMEM) Wielkość…``, ``(since Linux 2.6) The…``); a piece
    behind a bracket opening the text is no common word, or its bracket does not close there."""
    if text[:1] not in ("(", "（"):
        return False
    close = next((i for i, c in enumerate(text[1:GLOSS_MAX_CHARS], 1) if c in "()（）"), 0)
    return (
        close > 0
        and text[close] in ")）"
        and not _TERM_END.search(text, 1, close)
        and text[close + 1 :].strip() != ""
        and _in_common(_leading(LETTERS, text[1:]), locale)
    )


def _german_name(token: str, locale: str | None) -> bool:
    """A name-shaped token (``Kowalski``, ``Nguyễn``) opening a German reply: German capitalises its nouns
    and sentence openers, so the capital after it does not make it a piece; a tokenizer's capitalised
    pieces are mostly shorter (90 % of Whisper's under six letters)."""
    return (
        locale == "de"
        and len(token) >= GERMAN_NAME_MIN_LETTERS
        and token[:1].isupper()
        and token[1:].islower()
    )


# Two capitalised words written without the space between them ("PilihFormat", "PilihBerkas": a translation
# that lost a space), each this long.
GLUED_WORD_MIN_LETTERS = 3
_TWO_CAPITALISED = re.compile(rf"({_UPPER}{_LOWER}+)({_UPPER}{_LOWER}+)")


def _glued_words(token: str, locale: str | None) -> bool:
    """Whether ``token`` is two capitalised common words of the reply's language glued together
    (``PilihFormat - Paragraf…``, "select" and "format"; ``GLUED_WORD_MIN_LETTERS`` each): a lost space,
    not a piece glued to the first word, which is no common word (``AtionDelfador — …``), nor to a name
    (``BillElena — …``: a name is rarer than the lexicon's common words)."""
    if (m := _TWO_CAPITALISED.fullmatch(token)) is None:
        return False
    return all(len(w) >= GLUED_WORD_MIN_LETTERS and _in_common(w, locale) for w in m.groups())


def _long_word(token: str, locale: str | None) -> bool:
    """A token too long to be a tokenizer's piece (``LONG_WORD_MIN_LETTERS``; German names from six
    letters, ``_german_name``): a word the lexicon does not list, or a name."""
    return len(token) >= LONG_WORD_MIN_LETTERS or _german_name(token, locale)


HEADWORD_MIN_LETTERS = 4  # shorter capitals are abbreviations, which every lexicon lists ("TR", "CA", "ON")
# A word in capitals this long is a headword whether the lexicon lists it or not ("SFIATATO - Licenziato…"):
# tokenizers' pieces in capitals are short (24 of Whisper's 14,417 letter pieces are capitals of seven
# letters or more, most of them English words: APPLAUSE, LAUGHTER).
LONG_HEADWORD_MIN_LETTERS = 7


def _headword(token: str, after: str, locale: str | None) -> bool:
    """A word in capitals of the reply's language (its lexicon; ``HEADWORD_MIN_LETTERS`` or more), or one
    too long to be a piece (``LONG_HEADWORD_MIN_LETTERS``), then a dash: a headword and its definition
    (``GUFO - Rapace notturno…``, ``SFIATATO - Licenziato…``). (Not before a quote, ``¿`` or ``*``, and not
    a capitalised word: ``Ment «Hay…`` is a piece that is also a word.)"""
    if (
        locale is None
        or locale in _CJK_OPENING_SCRIPTS
        or not (token.isalpha() and token.isupper() and len(token) >= HEADWORD_MIN_LETTERS)
        or after.lstrip(" \t.,;")[:1] not in _DASHES
    ):
        return False
    return len(token) >= LONG_HEADWORD_MIN_LETTERS or _in_lexicon(token, locale)


# The next entry of a list of headwords in capitals written as sentences: after an end mark, a word (or
# words) in capitals, a dash and the capitalised definition ("CHI - Il centro di Pechino. COLONNA
# VERTEBRALE - Coda d'auto…", a humorous dictionary).
_HEADWORD_ENTRY = re.compile(rf"[.!?…][ \t]+{_UPPER}{{2,}}(?:[ \t]+{_UPPER}{{2,}})*[ \t]+[-—–][ \t]+{_UPPER}")
HEADWORD_LIST_CHARS = 300  # how far the next entry of a list of headwords is looked for


def _headword_list(token: str, text: str) -> bool:
    """A word in capitals (two letters or more) before a dash, in a reply whose next sentences hold another
    entry of the same shape (``_HEADWORD_ENTRY``): a list of headwords and their definitions, whatever the
    headword's length or the lexicon's verdict. A piece in capitals before a reply stands before one
    sentence, not before a list of entries shaped like its own."""
    if not (token.isalpha() and token.isupper() and len(token) >= 2):
        return False
    after = text[len(token) :].lstrip(" \t")
    if after[:1] not in _DASHES:
        return False
    return _HEADWORD_ENTRY.search(text, len(token), HEADWORD_LIST_CHARS) is not None


# A headline in capitals: its first line's words (two or more after the first) are all in capitals, up to
# its end mark ("ЛАЗЕРЫ — НОВЫЕ ИГРУШКИ?", "LASERY - NASTĘPNA WIELKA RZECZ?").
_CAPITALS_LINE = re.compile(r"[^\n.!?…]{1,120}[.!?…]?")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _capitals_headline(text: str) -> bool:
    """Whether the reply opens with a headline in capitals (``_CAPITALS_LINE``): a tokenizer's piece before
    a reply is glued to text in its own case, it does not make the whole first line capitals."""
    line = m.group() if (m := _CAPITALS_LINE.match(text)) else ""
    words = _WORD.findall(line)
    return len(words) >= 3 and all(w.isupper() for w in words)


# An abbreviation in capitals glued to its expansion in brackets, closed within the sentence:
# "FDA(食品医薬品局)の承認", "PDW(個人防御火器)に".
_ABBREVIATION = re.compile(r"[A-Z]{2,8}[(（][^()（）\n]{1,38}[)）]")


# A command of TeX, LilyPond or roff named at the start (``\\relative``, ``\\shiftOnn``): a backslash, then
# an ASCII name opening with two lowercase letters and ending before a space or a mark, that is no escape
# (``\\nThe``, ``\\ufeffThe``, ``\\xef\\xbb``).
_BACKSLASH_COMMAND = re.compile(r"\\(?![ux][0-9A-Fa-f]{2})[a-z]{2}[A-Za-z]*(?![^\W\d_])")
_NAME_HEAD = re.compile(r"[a-z]+")
COMMAND_HEAD_MIN_LETTERS = 3  # a camelCase command name opens with an English word this long ("killCues")


def _backslash_command(text: str, locale: str | None) -> bool:
    """Whether the reply opens with a command's name (``\\killCues removes…``, ``\\relative モードを…``)
    rather than a stray backslash before its first word (``\\muda dono e grupo``) or before a piece glued
    to it (``\\inThe…``). A name in camelCase opens with an English word (``dynamicUp``, ``cueDuring``);
    and the reply names another command, or the name is no word of the reply's language (in a locale not
    written in the Latin alphabet, no Latin name is), or its first sentence names code (``_CODE_NAME``:
    ``\\set Staff.keyAlterations = …``, ``\\set is used because fingeringOrientations is…``), as prose
    with a stray mark before it does not."""
    if locale is None or (m := _BACKSLASH_COMMAND.match(text)) is None:
        return False
    name = m.group()[1:]
    head = _leading(_NAME_HEAD, name)
    if head != name and (len(head) < COMMAND_HEAD_MIN_LETTERS or not _in_lexicon(head, "en")):
        return False
    return (
        _BACKSLASH_COMMAND.search(text, m.end()) is not None
        or _CODE_NAME.search(text, m.end(), _sentence_end(text, m.end())) is not None
        or locale not in LATIN_LOCALES  # where a command's name may also be a word of the reply's
        or not _in_lexicon(name, locale)
    )


# A name of code: in camelCase (two lowercase letters or more before a capital and its lowercase letters:
# "keyAlterations", "fingeringOrientations", not a brand's "iPhone" or "macOS") or with an underscore
# between letters ("New_fingering_engraver").
_CODE_NAME = re.compile(r"(?<![^\W\d_])[a-z]{2,}[A-Z][a-z]|[^\W\d_]_[^\W\d_]")


def _sentence_end(text: str, start: int) -> int:
    """Where the sentence going on at ``start`` ends: at an end mark before a space (a dotted name, "e.g",
    "2.6" go on), within ``FIRST_SENTENCE_CHARS``."""
    return m.start() if (m := _TERM_END.search(text, start, FIRST_SENTENCE_CHARS)) else FIRST_SENTENCE_CHARS


# A symbol (one or two of ``_SYMBOL_SUBJECT``'s) spaced before a capitalised definition: an entry of a list
# of symbols and what each stands for, as manuals list them ("^ The first argument. $ The last word. % The
# first word matched…", bash's word designators); the next entry opens after a sentence's end or a line break.
# (A capitalised word: a formula's function name in capitals, ". = UNIRCADENAS(…", defines nothing.)
_SYMBOL_DEFINED = f"[|=<>%&$@^][|=<>%&$@^*~+-]?[ \t]+{_UPPER}(?:{_LOWER}|['’])"
_SYMBOL_HEAD = re.compile(_SYMBOL_DEFINED)
_NEXT_SYMBOL_DEFINED = re.compile(rf"(?:[.!?…:;][ \t]+|\n[ \t]*){_SYMBOL_DEFINED}")


def _symbol_list(text: str) -> bool:
    """Whether the text opens with a symbol defined (``_SYMBOL_HEAD``) and goes on with another symbol
    defined the same way (``_NEXT_SYMBOL_DEFINED``): a list of symbols, each before its definition. A
    stray mark before a reply stands before its first sentence only; no sentence of prose opens with a
    symbol spaced from a capitalised word (``$ The keeper went home. He…`` stays stray)."""
    return _SYMBOL_HEAD.match(text) is not None and _NEXT_SYMBOL_DEFINED.search(text, 2) is not None


def _symbol_before_particle(text: str, locale: str | None) -> bool:
    return locale == "ja" and _SYMBOL_BEFORE_PARTICLE.match(text) is not None


def _abbreviation(text: str) -> bool:
    """An abbreviation glued to its expansion in brackets: closed within the sentence (``_ABBREVIATION``),
    or spelled by the initials of its words, however long (``FLDSMDFR(Flint Lockwood Diatonic Super
    Mutating Dynamic Food Replicator)がやってきた``)."""
    lead = _leading(LETTERS, text)
    return _ABBREVIATION.match(text) is not None or (
        text[len(lead) : len(lead) + 1] == "(" and _spelled_out(lead, text[len(lead) :])
    )


# "teriorIMPORTANT:", "kaarIMPORTANT :": a lowercase run glued to a word in capitals (a notice's label:
# IMPORTANT, NOTE, WARNING). Camel case glues a word to capitals too ("innerHTML", "getURL", "macOS"), but
# its lowercase part is a word, or its capitals are none.
_LOWER_BEFORE_CAPITALS = re.compile(rf"^({_LOWER}{{2,14}})({_UPPER}{{{HEADWORD_MIN_LETTERS},}})(?![^\W\d_])")


def _piece_glued_to_capitals(text: str, locale: str | None) -> str | None:
    """The lowercase piece glued to a word in capitals that opens the text (``_LOWER_BEFORE_CAPITALS``),
    when the capitals are a common word of the reply's language or of English and the piece is no word of
    either, nor a name the text uses again."""
    if (m := _LOWER_BEFORE_CAPITALS.match(text)) is None:
        return None
    piece, word = m.groups()
    if script_of(piece[0]) not in (Script.LATIN, Script.CYRILLIC) or _recurs(piece, text):
        return None
    if any(_in_lexicon(piece, language) for language in (locale, "en")):
        return None
    return piece if any(_in_common(word.lower(), language) for language in (locale, "en")) else None


# A capitalised word (its capital, then lowercase letters) closed by its own comma or full stop before a
# sentence a mark opens is a sentence of one word or a name addressed (``Dink. ¿Qué estás…``, ``Esperá,
# ¿Cooper?``, ``Кай, «…``), not a piece: vocabularies keep letters and punctuation in separate tokens (no
# letter piece of Whisper's or Tekken's carries a comma or a full stop: tiktoken's pre-tokenizer splits
# them, SentencePiece splits by Unicode script), so a piece before punctuation stands before a reply that
# itself opens with a stray comma; and a piece cut from a word's middle is lowercase or in capitals.
CAPITALISED_WORD_MIN_LETTERS_BEFORE_MARK = 2


def _capitalised_word(token: str) -> bool:
    return (
        len(token) >= CAPITALISED_WORD_MIN_LETTERS_BEFORE_MARK and token[:1].isupper() and token[1:].islower()
    )


def _in_lexicon(token: str, locale: str | None) -> bool:
    return (lex := lexicon_or_none(locale)) is not None and lex.is_word(token)  # no word list: no word


def _label(body: str, locale: str | None) -> bool:
    """Whether the text (behind its openers) opens with a label and its colon (``_LABEL``), or a speaker's
    longer label whose first word is a word of the reply's language or too long to be a piece
    (``_SPEAKER``: ``o. Rydzyk: - …``, ``ekspertka RM: - …``)."""
    if _LABEL.match(body):
        return True
    m = _SPEAKER.match(body) if locale else None
    return m is not None and (_long_word(m.group(1), locale) or _in_lexicon(m.group(1), locale))


TERM_MAX_CHARS = 60  # a quoted term (a name, a label, a title) closes within this many characters
_TERM_END = re.compile(r"[。！？\n]|[.!?…](?:\s|$)")
_TERM_LAST = frozenset(".,;:!?…。！？，、")


def _closed_term(after: str) -> bool:
    """Whether ``after`` opens with a quoted term: a quote closed within ``TERM_MAX_CHARS`` with no end of
    sentence inside and no punctuation before its closer (``“localhost”``, ``«Прыжок леопарда»``; or empty,
    a name the text's rendering left out: ``按 "" 的形式…``). A quoted line of dialogue ends with its own
    punctuation (``“Stay here,” she said``, ``「走吧。」``)."""
    end = _quote_end(after)
    return end > 0 and not _TERM_END.search(after, 1, end) and after[end - 1] not in _TERM_LAST


# The typographic closers of a low opening quote. Where none follows it, the writer's software turned only
# the opener typographic and the keyboard typed the closer straight (``Kliknij „Zapisz" i…``); where one
# does, a straight quote before it is a quote inside the quote (``„Dies ist eine "Sperber" Rakete.“``).
_LOW_QUOTE_CLOSERS = re.compile("[“”]")


def _quote_end(after: str) -> int:
    """Where the quote opening ``after`` closes, within ``TERM_MAX_CHARS`` of it; -1 when ``after`` opens
    with no quote or its quote does not close there."""
    closers = _CLOSERS_OF.get(after[:1]) or QUOTE_PAIRS.get(after[:1], "")
    if after[:1] == "„" and _LOW_QUOTE_CLOSERS.search(after, 1, FIRST_SENTENCE_CHARS) is None:
        closers += '"'  # (a keyboard's straight closer: ``Kliknij „Zapisz" i…``)
    ends = [at for closer in closers if (at := after.find(closer, 1, TERM_MAX_CHARS + 2)) > 0]
    return min(ends, default=-1)


QUOTED_NAME_MIN_LETTERS = 4  # a word of the language this long before a quoted term is the sentence's first


def _quoted_name(token: str, text: str, locale: str | None) -> bool:
    """A word of the reply's language (its lexicon; ``QUOTED_NAME_MIN_LETTERS`` or more), or one too long to
    be a piece, before a quoted term (``_closed_term``): a noun or a verb and the name it gives
    (``Активирует «Прыжок леопарда».``, ``Kierunkowskaz "Do Koteczka".``, ``Nicknamed "Biojutsu", …``); a
    piece before dialogue stands before a quoted sentence, which ends with its punctuation; a quotation
    ending with a full stop or a colon that the sentence goes on from in lowercase is named too
    (``_quotation_in_sentence``: ``Slogan "Ulepszamy świat…." wieńczy…``)."""
    after = text[len(token) :].lstrip(" \t")
    if locale is None or not (_closed_term(after) or _quotation_in_sentence(after, locale)):
        return False
    return _long_word(token, locale) or (len(token) >= QUOTED_NAME_MIN_LETTERS and _in_lexicon(token, locale))


_QUOTATION_LAST = frozenset(".:")  # what a quoted slogan or label ends with; dialogue ends with , ! ? …


# Russian and Ukrainian separate the author's words from quoted speech with a dash (``«Стой!» — сказал
# он``): a quotation ending with ``!`` or ``?`` that the sentence goes on from in lowercase, with no dash,
# is a slogan or a title the sentence names (``Призыв "Не щадить живота своего!" для героев…``).
DASHED_DIALOGUE_LOCALES = frozenset({"ru", "uk"})


def _quotation_in_sentence(after: str, locale: str | None = None) -> bool:
    """Whether ``after`` opens with a quotation closed within ``TERM_MAX_CHARS`` whose last mark is a full
    stop or a colon, the sentence going on in lowercase after it: a slogan or a label the sentence names
    (``"Ulepszamy świat, jeden bak na raz." wieńczy…``, ``«Ориентир:» активны…``). A line of dialogue goes
    on after a comma, ``!`` or ``?`` (``"Stay here," she said``); a quoted first sentence before the rest
    of a reply is followed by its next sentence, capitalised. (``!`` and ``?`` too where dialogue goes on
    after a dash: ``DASHED_DIALOGUE_LOCALES``.)"""
    end = _quote_end(after)
    last = _QUOTATION_LAST | ({"!", "?"} if locale in DASHED_DIALOGUE_LOCALES else set())
    if end < 2 or after[end - 1] not in last or "\n" in after[1:end]:
        return False
    rest = after[end + 1 :].lstrip(" \t")
    return rest[:1].islower()


def _quoted_term(text: str) -> bool:
    """A word, then a quoted term closed inside the sentence (``_QUOTED_TERM``), then the sentence going on
    in lowercase or with a symbol (Unicode category S: a menu path's ``▸``, an arrow): ``Виберіть «Файл» ▸
    «Друк»``, not ``Ment «Hola», dijo``, whose quote is a sentence."""
    if (m := _QUOTED_TERM.match(text)) is None:
        return False
    end = m.end()
    while more := _MORE_QUOTED.match(text, end):  # a list of quoted terms: 'Licencje "GPL", "BSD" i…'
        end = more.end()
    after = text[end : end + 1]
    return after.islower() or unicodedata.category(after or " ").startswith("S")


def _spelled_out(token: str, bracket: str) -> bool:
    """An abbreviation in capitals before its expansion in brackets, whose words' initials spell it:
    ``VNC (Virtual Network Computing, …)``, ``RAID (Redundant Array of Independent Disks)`` (short
    lowercase words may be skipped). ``bracket`` is the text from the opening bracket on."""
    if not (token.isalpha() and token.isupper() and len(token) >= 2):
        return False
    letters = iter(token.casefold())
    want = next(letters)
    inside = bracket[1:FIRST_SENTENCE_CHARS].split(")", 1)[0]
    for word in LETTERS.findall(inside):
        if word[0].casefold() == want:
            if (want := next(letters, "")) == "":
                return True
        elif not (word.islower() and len(word) <= SKIPPED_WORD_MAX):
            return False
    return False


# An abbreviation in capitals (with a Chinese, Japanese or Korean particle: "DDE는"), then behind a dash, a
# quote or a bracket what may be its expansion.
_ABBREVIATION_BEFORE = re.compile(rf"^({_UPPER}{{2,8}})(?:{_CJK}{{1,2}})?[ \t]*([-—–\"“„«(（])")


def _expansion_follows(text: str) -> bool:
    """An abbreviation before its expansion behind a dash or in quotes, spelled by the initials as in
    brackets (``_spelled_out``): ``IME - Input Method Editor (…)``, ``DDE는 "Dynamic Data Exchange"의…``;
    or before a translated expansion behind a dash that the sentence takes as a noun (``_spaced_gloss``)."""
    m = _ABBREVIATION_BEFORE.match(text)
    return m is not None and (
        _spelled_out(m.group(1), text[m.start(2) :])
        or (m.group(2) in _DASHES and _spaced_gloss(text[m.end() :]))
    )


def _parenthetical(after_word: str) -> bool:
    """Whether the text after the first word opens a bracket (behind spaces) that closes within
    ``PAREN_CLOSE_CHARS`` and inside its sentence, the text going on after it: a gloss or an aside
    (``古めの (OS X 以前の) Mac OS…``, ``Recommends (推奨) と…``), not a bracket opening the text behind a
    piece (``ation (La gardienne…``)."""
    rest = after_word.lstrip(" \t")
    if rest[:1] not in ("(", "（"):
        return False
    mark = next((i for i, c in enumerate(rest[1 : PAREN_CLOSE_CHARS + 1], 1) if c in "()（）"), 0)
    closed = mark > 0 and rest[mark] in ")）"  # (not a bracket opened inside it first)
    return closed and not END_MARK.search(rest, 0, mark) and rest[mark + 1 :].strip() != ""


GLOSS_MAX_CHARS = 100  # a bracket after a name in capitals closes within this many characters (a gloss)

# A gloss in Chinese, Japanese or Korean (with Latin words in it) closed by a space and a particle that goes
# on with the sentence, within the first sentence: "Debian エンハンスメント提案 を確認し…".
_SPACED_GLOSS = re.compile(
    rf"[ \t]*[^\n.!?…。！？]{{0,{GLOSS_MAX_CHARS}}}?{_CJK}[ \t]+{_PARTICLE.pattern}[^\W\d_]"
)


def _spaced_gloss(after_dash: str) -> bool:
    """Whether the text after an abbreviation's dash is its translated expansion (whose initials cannot
    spell it in another script) closed by a space and a particle of the sentence (``DEP - Debian
    エンハンスメント提案 を確認し…``, ``GPL - GNU 一般公衆利用許諾書 に従って…``): a tokenizer's piece
    before a dash is followed by a sentence, not by a noun the sentence goes on from."""
    return _SPACED_GLOSS.match(after_dash) is not None


def _glossed_capitals(token: str, text: str) -> bool:
    """A name in capitals (two letters or more) before its gloss in brackets, closed inside the first
    sentence within ``GLOSS_MAX_CHARS``, the sentence going on after it: an abbreviation and its translated
    expansion, whose initials need not spell it (``GIMP (Programa de manipulación de imágenes de GNU)
    es…``); a tokenizer's piece before a bracket opening the text is lowercase or capitalised, not
    capitals."""
    if not (token.isalpha() and token.isupper() and len(token) >= 2):
        return False
    rest = text[len(token) :].lstrip(" \t")
    close = rest.find(")", 0, GLOSS_MAX_CHARS)
    return (
        rest[:1] == "("
        and close > 0
        and "(" not in rest[1:close]
        and not END_MARK.search(rest, 0, close)
        and rest[close + 1 :].strip() != ""
    )


GLOSSED_MIN_LETTERS = 3  # a capitalised word this long, glued to its gloss in brackets


def _glued_gloss(text: str) -> bool:
    """A capitalised word glued to its gloss or aside in brackets, closed as in ``_parenthetical``, the
    sentence going on after it (``Squid(Kalamar), Falcot…``); a piece glued to a bracket opening the text
    is lowercase or short (``ation(La gardienne…``, ``N(To…``)."""
    lead = _leading(LETTERS, text)
    return (
        len(lead) >= GLOSSED_MIN_LETTERS
        and lead[:1].isupper()
        and text[len(lead) : len(lead) + 1] in ("(", "（")
        and _parenthetical(text[len(lead) :])
    )


def _named_again(token: str, text: str) -> bool:
    """Whether the reply names ``token`` again as a name: in brackets, backticks or quotes."""
    return re.search(rf"[(`'\"“«]{re.escape(token)}[)`'\"”»]", text[len(token) :]) is not None


def _lexicon_start(text: str, locale: str | None) -> CorruptedStart | bool | None:
    """The start judged with the reply's lexicon (``lexicon.py``), for Latin- and Cyrillic-script locales:
    a first token followed by a capitalised word (or a number) that starts a sentence.

    A *fragment* (``CorruptedStart``): a lowercase token (``ally The``, ``ment — ¡Libre``, ``con ¡Llegas``,
    ``ation Konrad``) unless it is an interjection, a name particle (``de Vries``) or a name the reply uses
    again; a capitalised token that is no word of the language, spaced from one of its function words
    (``Ation La gardienne``). An UPPER token is not decided here (``EPERM The caller…`` is a name).
    ``True`` (legitimate; the other start rules are not asked): a capitalised common word of the language
    (``Pero ¡Libre!``, ``Ви - Кай``) or a name-shaped token before a dash (``Мирон — Стрілець…``).
    ``None``: not decided here.
    """
    if locale is None or locale in _CJK_OPENING_SCRIPTS or (m := _TOKEN_THEN_CAPITAL.match(text)) is None:
        return None
    token, punct, opener, after = m.group(1), m.group(2), m.group(4), m.group(5)
    if script_of(token[0]) not in (Script.LATIN, Script.CYRILLIC):
        return None
    if _interjection(token, locale, bool(punct)):
        return None
    if (lex := lexicon_or_none(locale)) is None:
        return None  # no word list for the locale: no verdict
    if _recurs(token, text) and (not lex.is_common(token) or _named_again(token, text)):
        return None  # a name or command the reply is about ("make … (make)", "rsync … `rsync`")
    if not lex.is_common(token) and _recurs(token.casefold(), text.casefold()):
        return None  # a word the reply uses again in lowercase: a heading's ("Saxofone Um saxofone alto…")
    if token.islower():
        return None if token in NAME_PARTICLES and not opener else _found("fragment", token)
    if (
        not punct
        and not opener
        and locale != "de"  # (German capitalises nouns, and a name may be one: not decided by case)
        and _opens_with_interjection(after, text[m.end() : m.end() + 1])
        and (locale in LATIN_LOCALES or script_of(after[0]) is not Script.LATIN)  # ("Нажмите OK," a label)
        and not lex.is_word(token)
    ):
        return _found("fragment", token)  # "Stud Ay, …": an interjection opens its clause
    next_is_common = after.isalpha() and lex.is_common(after) and after.casefold() != token.casefold()
    if len(token) == 1 and locale in COPULA_DASH_LOCALES and lex.is_common(token) and opener[:1] in _DASHES:
        return True  # a one-letter subject and the copula dash ("Я — Малин Кешар"), as "Ви - Кай" below
    if token.isupper():
        return None  # an error name, a column or a placeholder in capitals ("EPERM The caller…"): not decided
    if not (token[:1].isupper() and token[1:].islower()):
        return None  # mixed case: "iPhone", "McGregor"; one capital letter
    if lex.is_common(token) or (len(token) >= NAME_MIN_LETTERS and opener[:1] in _DASHES):
        return True  # "Pero ¡Libre!", "Delfador — Things were worse…"
    if _declined_again(token, text):
        return None  # a name the reply declines: "Ратибор Он пришёл… у Ратибора…"
    if lex.is_word(token):
        return None  # "Благодарю Вас": a word of the language before a capitalised word
    if locale == "tr" and (name := _FULL_NAME.match(text)) and re.search("['’]", name.group()):
        return None  # a name of three words, its case ending after an apostrophe: "Rugnur Eski Torya'dan"
    long_before_label = len(token) >= CAPITALISED_WORD_MIN_LETTERS and lex.rank(after) >= ARTICLES
    if _long_word(token, locale) or long_before_label:
        return None  # a word beyond the lexicon ("Zamierzałem Cię…"), or a name (German capitalises nouns)
    if locale == "de" and after in GERMAN_ADDRESS and _german_verb_form(token):
        return None  # a verb before the pronoun it addresses: "Beeil Dich!", "Klickst Du…", "Füttert Ihr…"
    if not punct and not opener and next_is_common and lex.rank(after) < FUNCTION_WORDS:
        return _found("fragment", token)
    return None


# German writes the pronouns of address capitalised (``Sie``, and ``Du``, ``Dich``, ``Euch``… in letters,
# games and instructions), and a verb before one opens an imperative or a question: ``Beeil Dich!``,
# ``Klickst Du…``, ``Wählt Ihr…``. The verb is a regular form of an infinitive of the lexicon (its stem,
# ``-st`` or ``-t`` on the stem); a capitalised piece is seldom one (5 of Whisper's 708, 70 of Tekken's
# 4,363, mostly English words: ``Send``, ``Sort``), and only before one of these pronouns is it excused.
GERMAN_ADDRESS = frozenset({"Du", "Dich", "Dir", "Sie", "Ihnen", "Ihr", "Euch"})
GERMAN_STEM_MIN_LETTERS = 4  # shorter stems are mostly pieces that happen to spell one ("Gra", "Jen")
_GERMAN_ENDINGS = ("st", "t", "")


def _german_verb_form(token: str) -> bool:
    lex = lexicon_or_none("de")
    if lex is None or not (token[:1].isupper() and token[1:].islower()):
        return False
    word = token.casefold()
    for ending in _GERMAN_ENDINGS:
        stem = word[: len(word) - len(ending)] if word.endswith(ending) else ""
        if len(stem) < GERMAN_STEM_MIN_LETTERS:
            continue
        infinitive = stem + ("n" if stem.endswith(("el", "er")) else "en")
        if lex.is_word(infinitive):
            return True
    return False


# A first token, then (glued, spaced, behind a dash or an opening mark) a list item's marker: a numbered
# step (one or two digits and the full stop or parenthesis of a list item, then a space: "e1. Type o…",
# "onscious 3. カーソル…", "iders¿2. Para…", "orde— 2. Die…", "ipse「3.」 カーソル…") or a bullet before a
# word ("vem · Random age:", "ania„· Typ:", "These· Baue…"; a hyphen or two only behind a dash or an opening
# mark, "alid — - yellow…", "ssig ¿-- einfaches…", since a word, a spaced hyphen and a word is a dash in
# running text). A decimal ("Vim 9.0"), a hyphenated name ("COVID-19.") and a date in figures ("3.5.") do not
# match; a Chinese or Japanese name's middle dot ("马林·凯沙") is no bullet: a token before a bullet or a
# hyphen is Latin or Cyrillic.
CODE_MAX_LETTERS = 3  # capitals glued to a number are a code ("Q3", "A4", "MP3"), not a label and its step
_TOKEN_BEFORE_ITEM = re.compile(
    r"^([^\W\d_]{1,14})[ \t]*(?:[—–][ \t]*)?[*«“„「『¿¡\"]?[ \t]?"
    r"(?:\d{1,2}[.)．][」』”»\"]?[ \t]|[·•‣▪][ \t]?(?=[^\W\d_])|-{1,2}[ \t](?=[^\W\d_]))"
)
_BULLETS = "·•‣▪"


def _piece_before_item(text: str, locale: str | None) -> str | None:
    """The token before a list item's marker that opens the text (``_TOKEN_BEFORE_ITEM``), when it is no
    word of the reply's language. A list item opens its line; what stands before its marker on the same
    line is the item's label, a word of the language ("Step 3.", "Schritt 3.", "Lektion 2.", "Psalm 23.",
    "Menu · File"), a name the reply uses again, or a capitalised English word naming a product in a reply
    in another script ("Windows 10. 设置…", "Python 3. 以降…"), spaced from it with nothing between. A
    tokenizer's piece is none of these (``e1.``, ``ghan1.``, ``xim 4.``, ``vem ·``), and a word glued to a
    bullet, or with a dash or an opening mark between it and the marker, is no label (``hart“3.``,
    ``volt¿2.``, ``start— 5.``, ``These· Baue``, ``fashion „· Wartende``, ``alid — - yellow``)."""
    if (m := _TOKEN_BEFORE_ITEM.match(text)) is None or (lex := lexicon_or_none(locale)) is None:
        return None
    token = m.group(1)
    between = text[len(token) : m.end()].lstrip(" \t")[:1]  # the marker, or a dash or mark before it
    marker = m.group().rstrip(" \t")[-1]
    step = marker in '.)．」』”»"'
    if between == "-" or (not step and script_of(token[0]) not in (Script.LATIN, Script.CYRILLIC)):
        return None  # "word - word": a dash in running text ("Tools - Options"); "马林·凯沙": a name
    if text[len(token)].isdigit():  # glued: no label is written so ("Step3."), but a code is ("Q3.", "MP3.")
        return None if (token.isupper() and len(token) <= CODE_MAX_LETTERS) or _recurs(token, text) else token
    if _is_word(token, text, locale, any_case=True):
        return None
    if text[len(token)] in _BULLETS or not (between.isdigit() or between in _BULLETS):
        # glued to a bullet, or a mark between: a label stands spaced from its marker; but a word may stand
        # before a quoted entry that a hyphen opens ("Choose «- none -»", "选择「- 空缺 -」")
        return None if marker == "-" and lex.is_word(token) else token
    if lex.is_word(token):
        return None
    english = lexicon_or_none("en")
    if locale not in LATIN_LOCALES and token[:1].isupper() and english is not None and english.is_word(token):
        return None
    return token


# A first token, then (glued, spaced, on its own line, or behind opening marks) an ellipsis that opens the
# text: a line picked up in its middle, as short game and story lines open ("...climbed up...", "…Ou c'est
# juste moi ?", "..:: Ctrl-g : ..."); the token stands before the line's first word.
_TOKEN_BEFORE_ELLIPSIS = re.compile(
    r"^([^\W\d_]{1,14})[ \t]*\n?[ \t]*((?:[\"“„«»‹「『*¿¡—–\-][ \t]?)*)(?:\.{2,}|…)(?![.…\"”»」』])"
)  # (not an ellipsis a quote closes right after: the mark named, "「…」で省略")


def _piece_before_ellipsis(text: str, locale: str | None) -> str | None:
    """The first token when an ellipsis opening the text follows it (``_TOKEN_BEFORE_ELLIPSIS``) and it is
    no word of the reply's language (its lexicon), no interjection or sound drawn out (``Hmm...``,
    ``Well…``), and no name the reply uses again: ``denly — ...of ligt het aan mij?``, ``aney ...climbed
    up``, ``Erro「…Ou c'est``. A word trails off into its ellipsis (``Wait... what?``); so may a name,
    alone or addressed before a dash (``Marta... you came``, ``Marta — …où es-tu ?``): a capitalised token
    is judged only behind a quote or an inverted mark, which open what the name would say. (An ellipsis in
    brackets or quotes closed right after it marks words left out: ``Wahadło (...) kołysze``.)"""
    if (m := _TOKEN_BEFORE_ELLIPSIS.match(text)) is None or (lex := lexicon_or_none(locale)) is None:
        return None
    token, marks = m.group(1), m.group(2).replace(" ", "").replace("\t", "")
    if script_of(token[0]) not in (Script.LATIN, Script.CYRILLIC) or (
        _interjection(token, locale, punctuated=m.group()[len(token)] in ".…")
        or _drawn_out(token)
        or lex.is_word(token)
        or _recurs(token, text)
    ):
        return None
    if not token.islower() and (not marks or marks[0] in _DASHES):
        return None
    return token


_LIST_MARKS = frozenset("—–-*•")  # a list item's mark, or a dialogue dash


# A word glued to a dash that breaks it off, the sentence going on in lowercase ("But— aren't you…",
# "Mas— assim você…", "E—se me permite—você…"): a piece glued before a dialogue dash stands before the
# reply's capitalised first word.
_BROKEN_OFF = re.compile(rf"^([^\W\d_]{{1,14}})[—–][ \t]?{_LOWER}")


def _broken_off(text: str, locale: str | None) -> bool:
    """A common word of the reply's language broken off by a dash (``_BROKEN_OFF``)."""
    return (m := _BROKEN_OFF.match(text)) is not None and _in_common(m.group(1), locale)


def _list_item(text: str, matched: str, locale: str | None) -> bool:
    """A list item (or a line of dialogue) that opens in lowercase, as Russian, Ukrainian and Polish write
    them, its first word a common word of the reply's language and the capitalised word after it a name,
    no function word of the language (``— тело Шевааров обладает…``): a piece before a new sentence is no
    word of the language, or is followed by the sentence's opening word (``— ally The keeper``)."""
    if locale is None or text[:1] not in _LIST_MARKS:
        return False
    words = LETTERS.findall(matched)
    if (lex := lexicon_or_none(locale)) is None:
        return False  # no word list: no common word to read
    return (
        len(words) == 2
        and len(words[0]) >= NAME_MIN_LETTERS
        and lex.is_common(words[0])
        and lex.rank(words[1]) >= FUNCTION_WORDS
    )


def _opens_with_interjection(word: str, after: str) -> bool:
    """Whether ``word`` and the character ``after`` it are an interjection and its comma or exclamation mark
    (``Oh,``, ``Ay,``, ``Ох,``): an interjection opens its clause, so a capitalised token spaced before it,
    with no punctuation of its own and no word of the reply's language, is a piece (``Stud Ay, …``; ``Oh
    Oh,`` is two interjections, which the caller has let through)."""
    return after in ",!" and _REPEATS.sub(r"\1", word.casefold()) in INTERJECTIONS


# In a Chinese, Japanese or Korean reply: a first token spaced from the text that follows it.
_LATIN_LOWER = "".join(
    c for c in map(chr, [*range(0x61, 0x7B), *range(0xDF, 0x250), *range(0x1E00, 0x1F00)]) if c.islower()
)
_SPACED_LOWER_LATIN = re.compile(
    rf"^([{_LATIN_LOWER}]{{1,14}})[ \t]+(?:[*—–\-«\"“„「『(][ \t]?)*(?=[^\W\d_])"
)
# (Not a term before " - " and its definition, "修復 - 依存関係…", nor text spaced character by character.)
_SPACED_CJK_PIECE = re.compile(
    rf"^({_HAN_KANA}{{1,3}})[ \t]+(?:[*—«\"“„「『(][ \t]?)+(?=[^\W\d_])"
    rf"|^({_HAN_KANA}{{1,3}})[ \t]+(?={_CJK}{{2}})"
)
# What follows a command or tool name that opens a CJK sentence, spaced or glued ("grep 命令",
# "rsync コマンドは", "git 명령어"), or the name of a statement, function, property, variable, parameter or
# tag of a language ("repeatステートメントを…", "queue语句将…", "xpos属性", "who_color속성").
_COMMAND_NOUN = re.compile(
    r"[ \t]*(?:命令|指令|工具|程序|程式|コマンド|ツール|プログラム|명령|도구|프로그램"
    r"|语句|語句|ステートメント|函数|函式|関数|属性|プロパティ|变量|變數|変数|参数|參數|引数|标签|標籤|タグ"
    r"|함수|속성|변수|매개변수|태그)"
)
# What follows an interface label that opens a Chinese or Japanese sentence, spaced from it as help text
# writes the labels it names: the element's kind ("終了 コマンドは…", "中央 ボタンは…", "场所 字段…").
_ELEMENT_NOUN = re.compile(
    r"[ \t]*(?:コマンド|ボタン|スライダー|フィールド|フィルター|記入欄|欄|機能|ダイアログ|メニュー|"
    r"オプション|タブ|ツール|按钮|按鈕|菜单|菜單|对话框|對話框|选项|選項|滤镜|濾鏡|命令|字段|欄位|工具|标签页|分頁)"
)
# What may follow a spaced Latin name in each CJK locale: Japanese spaces a Latin word from its particle
# ("rsync は"; "xoffset や yoffset", や listing another name, not opening "やがて"), Chinese from its copula
# ("rsync 是"); Korean glues its particle ("rsync는": not spaced).
# (Not "是的，", "yes,": a sentence opening.)
_ZH_COPULA = re.compile("是(?!的[，,。！!])|的")
_SPACED_NAME_FOLLOWER = {
    "ja": re.compile("[はがをのにでとも]|や(?=[ \t]*[A-Za-z])"),
    "zh-Hans": _ZH_COPULA,
    "zh-Hant": _ZH_COPULA,
}
# Japanese help text spaces a label or term from the particle that goes on with the sentence (``データ
# は正規分布…``, ``交点 の値は…``, ``長さ では、…``, ``左 および 右…``): a particle is no reply's first word,
# so what stands before it belongs to the sentence. (Not before more hiragana: ``はい``, ``もし``, ``でも``
# open sentences.)
_JA_SPACED_PARTICLE = re.compile(r"[ \t]+(?:は|が|を|の|では|には|とは|および|や)(?![\u3041-\u3096])")
_CJK_INTERJECTIONS = frozenset(
    ["唉", "啊", "嗯", "哦", "喂", "哎", "呃", "嘿", "哈", "あ", "ああ", "うん", "ええ", "おお", "ねえ"]
)


def _spaced_piece_in_cjk(text: str, locale: str) -> CorruptedStart | None:
    """A piece spaced from the text of a Chinese, Japanese or Korean reply: a lowercase Latin token
    (``denly 愚かな…``, ``zk 但和平…``) unless it is a command or tool name (a particle, a copula or a word
    for "command" follows: ``rsync 是…``, ``grep コマンドは…``; or the reply names it again), or a Han/kana
    token of one to three characters where Chinese and Japanese write no space (``於 町に…``, ``况 — 也许…``;
    in Korean, which spaces its words, only a Han or kana piece)."""
    if m := _SPACED_LOWER_LATIN.match(text):
        token, rest = m.group(1), text[m.end() :]
        follower = _SPACED_NAME_FOLLOWER.get(locale)
        named = (follower and follower.match(text, m.end())) or _COMMAND_NOUN.match(text, len(token))
        if not (named or _recurs(token, text) or _interjection(token, locale) or rest[:1].isupper()):
            return _found("fragment", token)
        if rest[:1].isupper() and not _recurs(token, text) and not _interjection(token, locale):
            return _found("fragment", token)  # "rai Kalenz — 你们…": a piece before a name
        return None
    if found := _piece_before_opening(text, locale):
        return found
    if (m := _SPACED_CJK_PIECE.match(text)) is None:
        return None
    token, before_word = m.group(1) or m.group(2), m.group(2) is not None
    # a first word and its aside or quoted term: "古めの (OS X 以前の) Mac…", "第一個 “localhost” 限制"
    if _parenthetical(text[len(token) :]) or _closed_term(text[len(token) :].lstrip(" \t")):
        return None
    if token not in _CJK_INTERJECTIONS and (
        locale == "ko"
        or not (
            _recurs(token, text)
            or (
                before_word
                and (
                    _spaced_term(token, text, locale)
                    or _element_label(token, text)
                    or _word_by_word(token, text)
                    or _term_again(token, text)
                    or _spaced_word(token, locale)
                )
            )
            or (locale == "ja" and _JA_SPACED_PARTICLE.match(text, len(token)) is not None)
        )
    ):
        return _found("fragment", token)
    return None


# A Chinese or Japanese run, glued or spaced, before what opens a line of dialogue: a capitalised Latin name
# and a spaced dash (the speaker or the one addressed: "Kalenz — 你们…"), or an interjection and its comma
# ("唉，", "ああ、").
# Interjections that are also particles glued to the word before them (a call or an exclamation: "天啊",
# "そうねえ"): glued to a run, they end a word, not open a line.
_CJK_PARTICLE_INTERJECTIONS = frozenset(["啊", "哦", "あ", "ねえ"])
_RUN_BEFORE_OPENING = re.compile(
    rf"^({_HAN_KANA}{{1,4}}?)[ \t]?"
    rf"(?:{_UPPER}[^\W\d_'’]*(?:['’][^\W\d_]+)?[ \t]+[—–-][ \t]"
    r"|(" + "|".join(sorted(_CJK_INTERJECTIONS, key=len, reverse=True)) + r")[，,、])"
)


# A Latin token glued to a Chinese, Japanese or Korean interjection and its comma (Korean glues its vocative
# particle 아 to a name in hangul, not to Latin letters). Spaced, a capitalised one is a name addressed
# ("Python ああ、…"); a lowercase one is judged with the other spaced pieces.
_KOREAN_INTERJECTIONS = ("아", "어", "오", "음")
_LATIN_BEFORE_INTERJECTION = re.compile(
    r"^([A-Za-zÀ-ɏ\u1e00-\u1eff]{1,14})(?:"
    + "|".join(sorted([*_CJK_INTERJECTIONS, *_KOREAN_INTERJECTIONS], key=len, reverse=True))
    + r")[，,、]"
)


def _piece_before_opening(text: str, locale: str) -> CorruptedStart | None:
    """A Chinese or Japanese run before a name and its dash, or before an interjection and its comma, that
    is no function word of the reply's language (``_RUN_BEFORE_OPENING``; ``FUNCTION_WORDS``): a name
    opening dialogue is the line's first word, and so is an interjection; only a preposition or a particle
    can stand before a name (``向Konrad — …``), and nothing but another interjection before an interjection
    (a word glued to one that is also a particle is a call: ``天啊，``). Chinese writes its prepositions and
    particles with one character (向, 对, 和, 跟); its most frequent words of two characters or more are
    mostly nouns and verbs (问题, 中国, 知道), no function word (``問題Tomasz — …`` is a piece). (Korean
    glues its vocative particle to a name, and an interjection to nothing: not judged.)"""
    if (m := _LATIN_BEFORE_INTERJECTION.match(text)) and not _recurs(m.group(1), text):
        return _found("fragment", m.group(1))  # "Sirああ、", "Today아, "
    if locale == "ko" or (m := _RUN_BEFORE_OPENING.match(text)) is None:
        return None
    token, interjection = m.group(1), m.group(2)
    if token in _CJK_INTERJECTIONS or _recurs(token, text):
        return None
    if interjection in _CJK_PARTICLE_INTERJECTIONS and not text[len(token)].isspace():
        return None  # a word and its particle: "天啊，", "神明啊，"
    if (lex := lexicon_or_none(locale)) is None:
        return None  # no word list for the locale: no verdict
    if lex.rank(token) < FUNCTION_WORDS and (len(token) == 1 or not locale.startswith("zh")):
        return None  # a function word
    return _found("fragment", token)


def _spaced_term(token: str, text: str, locale: str) -> bool:
    """A token spaced from the next word (not from a quote: ``下面 「…」`` is a piece before dialogue), in a
    reply that spaces its terms elsewhere too (within ``FIRST_SENTENCE_CHARS``): Chinese and Japanese help
    text spaces the interface labels and terms it names, and the words around them (``选择 打印到文件 并选择
    PDF 作为 输出格式。``, ``若指定 測試版 或 不穩定版 於…``), a reply with a piece spaced before it does
    not. A token of one character must be a common word of the language (``在 软件包名 里…``, ``式
    フィールドでは…``): most of a tokenizer's Chinese and Japanese pieces are one character, and many are
    no word on their own (``况``)."""
    if len(token) < 2 and not _in_common(token, locale):
        return False
    return _CJK_SPACE_CJK.search(text, len(token) + 1, FIRST_SENTENCE_CHARS) is not None


SPACED_WORD_MIN_CHARS = 2  # a common word of Chinese or Japanese this long, spaced from the text that goes on


def _spaced_word(token: str, locale: str) -> bool:
    """A common word of the reply's language (its lexicon; ``SPACED_WORD_MIN_CHARS`` or more) spaced from
    the Chinese or Japanese text that goes on: help text spaces a word from the term or label it stands
    before (``如果 指定 script 参数…``, ``使用 向后搜索，…``, ``コード ネームが…``). A tokenizer's piece
    is mostly one character or part of a word; one that is a common word, spaced from text that goes on
    bare (no quote, dash or name opening it), is rare: 3 of the 947 spaced pieces this check catches in the
    fiction and manuals evaluations' Chinese and Japanese dev cases."""
    return len(token) >= SPACED_WORD_MIN_CHARS and _in_common(token, locale)


TERM_AGAIN_MIN_CHARS = 2  # a Chinese or Japanese term the reply uses again (one character recurs by chance)


def _term_again(token: str, text: str) -> bool:
    """A term of ``TERM_AGAIN_MIN_CHARS`` or more spaced from the next word and used again within
    ``FIRST_SENTENCE_CHARS``, inside a run of letters as Chinese and Japanese write a word (``演算式
    演算式には…``, ``安定版 ディストリビューションは… (安定版リリース…``): the subject a heading or a help
    text's label names. (A common word passes spaced so whether or not it recurs: ``_spaced_word``.) A
    single character recurs in any text."""
    return len(token) >= TERM_AGAIN_MIN_CHARS and token in text[len(token) + 1 : FIRST_SENTENCE_CHARS]


# Chinese or Japanese written word by word, as some translations are (``这 一点 在 NFS 和 磁盘 配额 上 比较
# 明显.``): a space between two CJK letters for at least every fifth CJK letter. Prose writes none, help
# text spaces a few labels: of the evaluation sets' 9,460 dev texts in Chinese or Japanese (20 CJK letters
# or more in their first 300 characters), 2 reach 0.1 (story), none 0.2 but 39 manual pages written word
# by word.
WORD_BY_WORD_SHARE = 0.2
_CJK_BEFORE_SPACE = re.compile(rf"{_HAN_KANA}(?=[ \t]+{_HAN_KANA})")
_HAN_KANA_CHAR = re.compile(_HAN_KANA)


def _word_by_word(token: str, text: str) -> bool:
    """A token spaced from the next word in a reply written word by word (``WORD_BY_WORD_SHARE``): there a
    word of one character (``这 一点 在…``, ``此 手冊頁 描述…``) is spaced as every other word is."""
    window = text[len(token) : len(token) + FIRST_SENTENCE_CHARS]
    letters = len(_HAN_KANA_CHAR.findall(window))
    return letters > 0 and len(_CJK_BEFORE_SPACE.findall(window)) >= WORD_BY_WORD_SHARE * letters


def _element_label(token: str, text: str) -> bool:
    """A label of two characters or more spaced before the kind of interface element it labels
    (``_ELEMENT_NOUN``): help text names a command, a button or a field by its label, spaced (``終了
    コマンドはすべての画像を閉じて…``, ``中央 ボタンは…``, ``乱数種 ボタンを…``), whether or not the
    label is a word of the lexicon."""
    return len(token) >= 2 and _ELEMENT_NOUN.match(text, len(token)) is not None


# A space between two Chinese or Japanese characters (not around a Latin word, which Chinese spaces too).
_CJK_SPACE_CJK = re.compile(rf"{_HAN_KANA}[ \t]+{_HAN_KANA}")


_LEADING_HAN_OR_KANA = re.compile(f"{_HAN_KANA}{{1,4}}")
_READING = frozenset("(（")
FOREIGN_HAN_LOOKAHEAD = 300  # characters after a leading piece searched for more of its variant
# A piece's Han characters: 1,326 of Whisper's 1,329 Han tokens are three or fewer, so a character of the
# other variant after three of the reply's own is its text's ("在你去奥杜因的…", a variant form).
VARIANT_PIECE_CHARS = 3


def _foreign_han(text: str, locale: str) -> CorruptedStart | None:
    """Han or kana opening a Korean reply (modern Korean writes hangul; a Han word there comes with its
    reading in brackets or again later: ``关 아, …``, ``打“Kai…``), or characters of the other Chinese
    variant opening a Chinese reply whose next characters have none (``險Tomasz — …``, ``出來东面…`` in
    simplified text), and the reply does not use the piece again."""
    if (m := _LEADING_HAN_OR_KANA.match(text)) is None:
        return None
    token, rest = m.group(), text[m.end() : m.end() + FOREIGN_HAN_LOOKAHEAD]
    if locale == "ko":
        counts = script_counts(rest)
        korean = counts.get(Script.HANGUL, 0) > counts.get(Script.KANA, 0) + counts.get(Script.HAN, 0)
        if not korean or text[m.end() : m.end() + 1] in _READING or token in rest:
            return None  # a reply in Japanese or Chinese is a switch, not a piece
        return _found("fragment", token)
    if locale in ("zh-Hans", "zh-Hant"):
        tables = hanzi_tables()
        other = tables.traditional if locale == "zh-Hans" else tables.simplified
        hit = other.search(token, 0, VARIANT_PIECE_CHARS)
        if hit is not None and other.search(rest) is None:
            return _found("fragment", token[: hit.end()])
    return None


FOREIGN_TOKEN_MIN_REST = 20  # letters after the first token needed to judge its script against the reply's
# A capitalised token, then a lowercase word: a name opening a sentence ("Müller stał w drzwiach").
# (or a placeholder: "RÉSUMĚ détermine"; or the name and its comma: "Müller, wglądając przez okno…")
_NAME_THEN_LOWER = re.compile(rf"^{_UPPER}[^\W\d_]*,?[ \t]+{_LOWER}")
# A person's full name, given name and two surnames ("Hernán Crespo Toral (…", "José Martí Pérez was…"), the
# last possibly with the case ending Turkish writes after a proper noun's apostrophe ("Rugnur Eski
# Torya'dan kaçmıştı"): a piece stands before one capitalised word, the sentence's first.
_FULL_NAME = re.compile(rf"^{_UPPER}[^\W\d_]*(?:[ \t]+{_UPPER}{_LOWER}+){{2}}(?:['’]{_LOWER}+)?(?=[ \t,(])")

# A given name and a family name or title, then the sentence's verb ("Bashō Osho said…"): the second word
# is no common word of the reply's language (a piece stands before the sentence's first word, "The").
_NAME_PAIR = re.compile(rf"^{_UPPER}[^\W\d_]*[ \t]+({_UPPER}{_LOWER}+)[ \t]+{_LOWER}")


def _name_pair(body: str, locale: str | None) -> bool:
    if (m := _NAME_PAIR.match(body)) is None:
        return False
    lex = lexicon_or_none(locale)
    return lex is not None and not lex.is_common(m.group(1))  # no word list for the locale: no pair


def _foreign_first_token(body: str, locale: str | None) -> str | None:
    """The first token when its script or letters cannot be the reply's: a Cyrillic or CJK piece before
    Latin text (``Ивать "Si…``, ``えて - *.scope``), a hangul piece before Japanese, a letter the locale's
    alphabet lacks (``Şlem Si no…`` in Spanish), and the token is not used again (a name the reply is
    about)."""
    m = LETTERS.match(body)
    if m is None:
        return None
    token = m.group()
    if (first := script_of(token[0])) in CJK_SCRIPTS:  # CJK writes no spaces: its token is one script's run
        token = leading_run(token, first)
    elif first is Script.OTHER or (first is Script.CYRILLIC and locale in _CJK_OPENING_SCRIPTS):
        # A Greek, Thai, Arabic… (or, in a CJK reply, Cyrillic) piece glued to the text: its own run
        # ("βαああ", "ائ인간").
        token = token[: next((i for i, c in enumerate(token) if script_of(c) is not first), len(token))]
    if len(token) > 14:
        return None
    extra = _ALPHABET_EXTRA.get(locale or "")
    if token.isascii():
        return None  # a Latin token is foreign only by a letter the locale's alphabet lacks (below)
    scripts = {script_of(c) for c in token}
    if len(scripts) != 1:
        return None
    script = scripts.pop()
    if script is None or (script is Script.LATIN and extra is None):
        return None
    opening = _CJK_OPENING_SCRIPTS.get(locale or "")
    if opening is not None and script in opening:
        return None  # kana opening a Japanese reply is its first word, whatever follows
    rest = body[len(token) : len(token) + 300]
    counts = script_counts(rest)
    if sum(counts.values()) < FOREIGN_TOKEN_MIN_REST:
        return None  # too little text after the token to say which script the reply is written in
    main = max(counts, key=lambda sc: counts[sc] * (3 if sc in CJK_SCRIPTS else 1))
    # A script the rest of the reply's start never uses again ("Linux — это…" is a name, not a piece).
    foreign = script is not Script.LATIN and not counts.get(script, 0)
    if main in CJK_SCRIPTS and script is not Script.CYRILLIC:
        foreign = foreign and opening is not None
    if script is Script.LATIN and main is Script.LATIN and extra is not None:
        allowed = extra + extra.upper() + "İẞ"
        # ... and the rest writes none: a reply in another language (a switch) is not a piece
        foreign = any(c > "\x7f" and c not in allowed for c in token) and not any(
            c > "\x7f" and c.isalpha() and c not in allowed for c in rest
        )
    if (
        not foreign
        or _recurs(token, body)
        or _NAME_THEN_LOWER.match(body)
        or _FULL_NAME.match(body)
        or _name_pair(body, locale)
        or _german_name(token, locale)
        or _loanword_sentence(token, body, locale)
    ):
        return None
    return token


def _loanword_sentence(token: str, body: str, locale: str | None) -> bool:
    """A one-word sentence (the token, then its full stop, exclamation mark or colon) that is a common word
    of a language whose alphabet has the token's letters: a loanword the reply opens with (``Voilà. Your
    selection…`` in English or Spanish); a tokenizer's piece is not a common word followed by its own end."""
    if body[len(token) : len(token) + 1] not in (".", "!", ":"):
        return False
    letters = {c for c in token.casefold() if c > "\x7f"}
    return any(
        other != locale and letters <= set(extra) and _in_common(token, other)
        for other, extra in _ALPHABET_EXTRA.items()
    )


def _in_common(token: str, locale: str | None) -> bool:
    return (lex := lexicon_or_none(locale)) is not None and lex.is_common(token)  # no word list: no word


def _opener_problem(text: str) -> CorruptedStart | None:
    """An opener that is doubled, followed by stray punctuation, or a straight quote / ``_`` never closed.

    Only the marks a tokenizer leaves alone are checked for a closer: a straight ``"`` or ``'`` followed by
    a space or glued to CJK (``" The keeper``, ``"你好``), and a ``_`` glued to the first word. A glued
    ``"The`` or ``«Le`` may open a dialogue whose closer was cut off with the reply: not judged.
    """
    first = text[0]
    if first not in _OPENING_MARKS:
        return None
    if (
        (m := _OPENER_THEN_STRAY.match(text))
        and not text.startswith(("*!*", '"!"'))
        and not _quoted_dotted_name(text)
        and not _quoted_command(text)
    ):
        return _found("stray_punctuation", m.group())
    pair = text[:2]
    if (
        pair[0] == pair[1:]
        and pair not in _DOUBLED_OK
        and first not in "*_'"
        and not _nested(text)
        and not _emphatic(text)
    ):
        return _found("stray_punctuation", pair)
    after = text[1:2]
    if first in "\"'" and (after.isspace() or _CJK_CHAR.match(after)) and not _closed(first, text[1:]):
        return _found("unclosed_opener", first)
    if (
        first == "_"
        and after.isalpha()
        and not _UNDERSCORE_CLOSER.search(text, 1)
        and not _private_name(text)
    ):
        return _found("unclosed_opener", first)
    return None


# A name in camelCase with two humps or more ("documentEventOccured", "getCellRangeByName").
_CAMEL_CASE_NAME = re.compile(r"([a-z]{2,})(?:[A-Z][a-z0-9]+){2,}(?![^\W\d_])")


def _camel_case_name(body: str) -> bool:
    """A name of code in camelCase opening the text: two humps or more after a head that is an English word
    (``COMMAND_HEAD_MIN_LETTERS`` or more: ``get``, ``document``), as code names its functions and events.
    A piece glued to a reply's first word makes one hump (``ationThe keeper``), and its head is no word
    (``ationMcGregor``, ``ingLaCroix``)."""
    m = _CAMEL_CASE_NAME.match(body)
    return m is not None and len(m.group(1)) >= COMMAND_HEAD_MIN_LETTERS and _in_lexicon(m.group(1), "en")


# A name of code that opens with an underscore, as private names do (``_documentEventOccured``,
# ``_private_name``): the underscore is part of a name in camelCase or with an underscore inside
# (``_CODE_NAME``), not emphasis opened before a word of prose (``_The keeper…``).
_UNDERSCORED_NAME = re.compile(r"_[A-Za-z][A-Za-z0-9_]*")


def _private_name(text: str) -> bool:
    return (m := _UNDERSCORED_NAME.match(text)) is not None and _CODE_NAME.search(m.group(), 1) is not None


# A "_" that ends emphasis: after a visible character, not followed by a letter or digit ("TIME_STYLE",
# "sources_list" are names, not closers).
_UNDERSCORE_CLOSER = re.compile(r"[^\s_]_(?![^\W_])")
# Straight apostrophes that can be quotes: not inside a word ("don't", "l'heure" close nothing).
# (Between two Chinese, Japanese or Korean characters it is a quote: "'검은 숲'에서".)
_QUOTE_APOSTROPHE = re.compile(rf"(?<![^\W\d_])'|'(?![^\W\d_])|(?<={_CJK})'(?={_CJK})")


_INVERTED_CLOSERS = {"¡": "!", "¿": "?"}


# A name that opens with a full stop or a colon, quoted: a roff request or macro, a file's extension, a hint
# (``‘.Fn’ 宏可以…``, ``".PS" starts…``, ``“:UNINST”: instead of…``); a stray mark behind an opening quote
# stands before a word that the quote does not close right after (``".Il guardiano…``).
_DOTTED_NAME_QUOTED = re.compile(r"([\"'“‘«「])[.:][A-Za-z][A-Za-z0-9]{0,11}([\"'”’»」])")


def _quoted_dotted_name(text: str) -> bool:
    return (m := _DOTTED_NAME_QUOTED.match(text)) is not None and QUOTE_PAIRS.get(m.group(1)) == m.group(2)


# A command of vi's command line or a roff request, quoted with its arguments: a colon or a full stop, a
# lowercase name, then a "!" or a space and its arguments, the quote closing the command (``":set uc=0" ile
# de yapılabilir``, ``":w!". -R seçeneği…``); the text names another command so (``":set uc=200"``,
# ``":help"``), as a manual does. Commands are named in lowercase: a line of dialogue with a stray mark
# behind its opening quote opens with a capital (``".Il guardiano…``), and a stray mark before a quoted
# name is the only command-like name of its text (``":make install" builds…``).
_COMMAND_QUOTED = re.compile(
    r"([\"'“‘«「])[.:][a-z][a-z0-9]{0,11}"
    r"(?:!|[ \t][^\s\"'“”‘’«»「」.?…][^\n\"'“”‘’«»「」]{0,30})?([\"'”’»」])"
)
_COMMAND_NAMED = re.compile(r"(?<![^\s\"'“‘«「(])[.:][a-z][a-z0-9]{0,11}(?![^\W\d_])")
_SENTENCE_INSIDE = re.compile(r"[.!?…][ \t]")


def _quoted_command(text: str) -> bool:
    """Whether the text opens with a quoted command and its arguments (``_COMMAND_QUOTED``), closed by the
    opening quote's own closer with no end of a sentence inside, and names another command later."""
    m = _COMMAND_QUOTED.match(text)
    return (
        m is not None
        and QUOTE_PAIRS.get(m.group(1)) == m.group(2)
        and _SENTENCE_INSIDE.search(text, 1, m.end() - 1) is None
        and _COMMAND_NAMED.search(text, m.end()) is not None
    )


def _emphatic(text: str) -> bool:
    """Spanish doubles its inverted marks for emphasis and closes the sentence with a run of its closer:
    ``¡¡Guardias!!``, ``¿¿Puedo…??``, ``¡¡¡YO FUI…!!!``. A piece glued before ``¡Hola!`` leaves one closer."""
    closer = _INVERTED_CLOSERS.get(text[0], "")
    at = text.find(closer, 2, FIRST_SENTENCE_CHARS) if closer else -1
    return at > 0 and text[at : at + 2] == closer * 2


def _closed(mark: str, rest: str) -> bool:
    """Whether the opening ``mark`` is closed in ``rest``: straight quotes alternate opening and closing,
    so the opener is closed when an odd number of them follows (``" Hello," she said, "come in."``); an
    even number pairs among itself (``" You should … the "" line``). Glued to Chinese, Japanese or Korean
    text, a quoted term is closed within its sentence whatever follows (``'위대'한 산의…``, where a name
    further on writes an apostrophe: ``알'쑨란``). A straight ``"`` is also closed by a typographic closer
    that no typographic opener precedes (``"아아, 가엾은 요릭! … 지경이야.”``: the writer's keyboard typed
    the opener straight and the closer curly)."""
    count = rest.count(mark) if mark == '"' else len(_QUOTE_APOSTROPHE.findall(rest))
    curly = _CURLY_DOUBLE.search(rest, 0, FIRST_SENTENCE_CHARS) if mark == '"' else None
    if curly is not None and curly.group() == QUOTE_PAIRS["“"]:
        return True
    return count % 2 == 1 or (_CJK_CHAR.match(rest) is not None and mark in rest[: _first_sentence_end(rest)])


# The typographic double quotes an English-style quotation opens and closes with.
_CURLY_DOUBLE = re.compile(f"[“{QUOTE_PAIRS['“']}„]")


def _first_sentence_end(text: str) -> int:
    return m.start() if (m := END_MARK.search(text, 0, FIRST_SENTENCE_CHARS)) else FIRST_SENTENCE_CHARS


FIRST_SENTENCE_CHARS = 300  # how far a quote opening the reply is looked for its closer, at most


def _nested(text: str) -> bool:
    """A doubled quote mark is a quote inside a quote when the inner one closes in the first sentence (or
    right after its end mark: ``「「斧は重い。」だから…」``) and the outer one after it:
    ``「「都市を管理」をクリック…。」``, ``««gedit» виділяє синтаксис.»``,
    ``""Alamat IP" adalah singkatan…."``; the first closer ends a term the pair opened (no opener before
    it; a straight quote glued to the term, and an even number of them after the pair). A doubled opener
    before a sentence that quotes a term inside it (``""Un certificato è un "interruttore"…``) is still
    stray. (Not ``„„``: ``“`` closes ``„`` and opens English quotes.)"""
    closer = QUOTE_PAIRS.get(text[0], "")
    if closer not in _NESTING_CLOSERS:
        return False
    inner = text.find(closer, 2, _first_sentence_end(text) + 2)  # (a closer glued to the end mark is in)
    if inner < 0 or closer not in text[inner + 1 : FIRST_SENTENCE_CHARS] or text.find(text[0], 2, inner) >= 0:
        return False  # (an opener before the first closer: a quote inside the sentence, not at its start)
    if closer == '"':  # the first mark after the pair closes a term: glued to it, not to the next word
        return (
            not text[inner - 1].isspace()
            and not text[inner + 1 : inner + 2].isalnum()
            and text.count('"', 2, FIRST_SENTENCE_CHARS) % 2 == 0
        )
    return True


_NESTING_CLOSERS = frozenset('」』»”"')


def _mostly_alphabetic(text: str) -> bool:
    """Whether the reply's first few hundred characters are Latin or Cyrillic, not CJK: by weighted
    letters (a CJK character weighs three, ``scripts.weight``), so Chinese prose listing Latin section
    names (``小节名称通常包括 NAME, 概述(SYNOPSIS), …``) is Chinese."""
    counts = script_counts(text[:300])
    alphabetic = counts.get(Script.LATIN, 0) + counts.get(Script.CYRILLIC, 0)
    return alphabetic > 2 * (
        weight(counts) - alphabetic - counts.get(Script.OTHER, 0)
    )  # the CJK letters' weight


# A letter that goes on a word of an alphabet (Latin, Cyrillic, …): Chinese, Japanese and Korean write a
# Latin name glued to their own letters ("ブロックの中でrepeatステートメントが…", "绝对的xpos，"), so one of
# theirs ends it.
_ALPHABET_WORD_LETTER = rf"(?!{_CJK})[^\W\d_]"


def _recurs(token: str, text: str) -> bool:
    """Whether ``token`` occurs again later in the text as a whole word: a name the reply is about. A
    token of an alphabet is a whole word between CJK letters too, unless a number is glued before it (a
    unit: "40mm榴弹")."""
    rest, escaped = text[len(token) :], re.escape(token)
    if re.search(rf"(?<![^\W\d_]){escaped}(?![^\W\d_])", rest):
        return True
    between_cjk = rf"(?<!\d)(?<!{_ALPHABET_WORD_LETTER}){escaped}(?!{_ALPHABET_WORD_LETTER})"
    return not _CJK_CHAR.search(token) and re.search(between_cjk, rest) is not None


# A name the text declines or conjugates: the same stem again with another ending ("Ратибор … Ратибора",
# "Гаубиця … «Гаубиці»", "Sidolus … Sidolusa"). The stem is the token less its last letters (an ending of
# up to ``DECLINED_ENDING_MAX_LETTERS``), of ``DECLINED_STEM_MIN_LETTERS`` or more.
DECLINED_STEM_MIN_LETTERS = 5
DECLINED_ENDING_MAX_LETTERS = 3


def _declined_again(token: str, text: str) -> bool:
    """Whether the capitalised ``token`` (``Ратибор``) occurs again later in the text declined: a later word,
    capitalised as the token is, made of the token's stem and another ending (``Ратибора``, ``Ратибору``).
    A name keeps its capital through its cases, as inflecting languages write it (Polish, Russian,
    Ukrainian, Turkish after an apostrophe aside), and so does an invented word the text treats as a name;
    a tokenizer's piece before a reply is seldom the start of a capitalised word of that reply."""
    if len(token) < DECLINED_STEM_MIN_LETTERS or not (token[:1].isupper() and token[1:].islower()):
        return False
    stem = token[: max(DECLINED_STEM_MIN_LETTERS, len(token) - DECLINED_ENDING_MAX_LETTERS)]
    longest = len(token) - len(stem) + DECLINED_ENDING_MAX_LETTERS
    rest = text[len(token) :]
    at = rest.find(stem)
    while at >= 0:  # (a scan, not a regular expression: one compiled per token would cost more)
        end = at + len(stem)
        while end < len(rest) and rest[end].isalpha():
            end += 1
        if (at == 0 or not rest[at - 1].isalpha()) and end - at - len(stem) <= longest:
            return True
        at = rest.find(stem, at + 1)
    return False


def _is_word(matched: str, text: str, locale: str | None, any_case: bool = False) -> bool:
    """Whether the first token is a word a reply may start with: an interjection of the reply's locale
    (``_interjection``; or a sound drawn out,
    ``_drawn_out``), or a name the reply repeats ("rsync … rsync"); ``any_case``: or a word the reply uses
    again in any case ("The … the")."""
    m = LETTERS.match(matched)
    if m is None:
        return False
    token = m.group()
    return (
        _interjection(token, locale, matched[len(token) : len(token) + 1] in _INTERJECTION_MARKS)
        or _drawn_out(token)
        or _recurs(token, text)
        or (any_case and _recurs(token.casefold(), text.casefold()))
        or _declined_again(token, text)
    )


# A letter written three times or more in a row: a sound drawn out ("Hmmmm—", "Ahhh,", "흐으으으음—"), as a
# writer spells a hum, a cry or a hesitation, beside another letter of the word. A run of one letter is a
# tokenizer's piece (all 31 of Whisper's 14,417 letter pieces with a letter tripled are: ``hhh``, ``ooo``,
# ``AAAA``, ``哈哈哈``) or a placeholder (``Xxxx``), unless it is written as a word opening a sentence, its
# capital and then the same letter in lowercase three times or more (``Mmmmm—``, ``Zzzz…``): a piece is in
# one case (none of Whisper's 708 capitalised letter pieces nor of Tekken's 4,363 is a run of one letter
# longer than three: ``Mm``, ``Bbb``), and the placeholder's letter ``x`` spells no sound.
_DRAWN_OUT = re.compile(r"([^\W\d_])\1\1")
_CAPITALISED_RUN = re.compile(r"([^\W\d_xX])(?i:\1){3,}")
DRAWN_OUT_RUN_MIN_LETTERS = 4  # a capitalised run of one letter this long is a sound written as a word


def _drawn_out(token: str) -> bool:
    folded = token.casefold()
    if _DRAWN_OUT.search(folded) is None:
        return False
    if len(set(folded)) > 1:
        return True
    return (
        len(token) >= DRAWN_OUT_RUN_MIN_LETTERS
        and token[:1].isupper()
        and token[1:].islower()
        and _CAPITALISED_RUN.fullmatch(token) is not None
    )


_COMMAND = re.compile(r"[a-z][a-z0-9]{2,11}(?= )")
_SUFFIX = re.compile(rf"(?:{_SUFFIXES})")


def _command_like(matched: str) -> bool:
    """A lowercase ASCII name of 3-12 characters, spaced from the capitalised text, that is not one of the
    known word endings: a command or product name opening a sentence (``rsync Kopiert…``), which people
    write; ``ción Hola``, ``ment Quédate`` and ``ers A list`` are still fragments."""
    m = _COMMAND.match(matched)
    return m is not None and not _SUFFIX.fullmatch(m.group())


def _leading(pattern: re.Pattern[str], text: str) -> str:
    """What ``pattern`` matches at the start of ``text`` (the garbage to show), or its first character."""
    m = pattern.match(text)
    return m.group() if m else text[:1]


# A capitalised or UPPER run glued to a capitalised word that ends the reply's first token: "ExecutOh, …",
# "ListenerAy, …", "TOKMi señor…".
_CAMEL_TAIL = re.compile(rf"({_UPPER}{_LOWER}+)$")
GLUED_PIECE_MIN_LETTERS = 2  # (a single capital before the word is left to the other rules)


def _piece_glued_to_opening_word(body: str, locale: str | None) -> str | None:
    """The piece of a first token made of a piece and, glued behind it, a word a sentence opens with: an
    interjection or one of the reply's language's ``ARTICLES`` most frequent words (``ExecutOh, …``,
    ``ListenerAy, el…``, ``TOKMi señor…``). Vocabularies whose pieces include whole capitalised words
    (identifiers' parts: ``Listener``, ``Instance``) glue them so. A name written in camel case glues a
    noun (``PowerShell``, ``YouTube``), and one a language writes often is a word of its lexicon
    (``LinkedIn``) or the reply's subject, used again; a word of the language glued to the next is a lost
    space (``ValueThis is…``, ``AlfaDe grenzen…``, ``MientrasAy, el…``: a label and its text). One letter
    glued to an interjection and its comma or exclamation mark is a piece too (``АОй, …``, ``ứОй, …``): no
    word is one letter and an interjection, and a sound drawn out (``OOh,``) is an interjection itself."""
    m = LETTERS.match(body)
    if m is None or (lex := lexicon_or_none(locale)) is None:
        return None
    token = m.group()
    tail = _CAMEL_TAIL.search(token)
    if tail is None or (token[-1] == "s" and token[:-1].isupper()):
        return None  # (capitals and a lowercase s are an abbreviation's plural: "KDEs", "DSAs are…")
    word, piece = tail.group(1), token[: tail.start()]
    if tail.start() == 1 and body[m.end() : m.end() + 1] in ",!" and _interjection(word, None):
        return None if _interjection(token, None) or _recurs(token, body) else piece
    if tail.start() < GLUED_PIECE_MIN_LETTERS:
        return None
    opens = _REPEATS.sub(r"\1", word.casefold()) in INTERJECTIONS or lex.rank(word) < ARTICLES
    if (
        not opens
        or lex.is_word(token)
        or lex.is_word(piece)
        or _recurs(token, body)
        or not body[m.end() :].strip()
    ):
        return None
    return piece
