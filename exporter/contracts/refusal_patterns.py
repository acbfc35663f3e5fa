# ruff: noqa: E501  (patterns are data; wide CJK characters count double)
"""Refusal phrases in all 17 locales, hard and soft, found near the start of a reply (pure).

A *hard* refusal says it will not or cannot (``I'm sorry, but I can't help with that``); a *soft* one
declines politely or steers away (``I'd rather not write that``, ``Let's change the subject``,
``换个话题吧``). Patterns are policy and assistant language, never in-story words: ``"I cannot let you
pass," she snarls`` is a story. They must appear in the first ``REFUSAL_WINDOW_CHARS`` characters,
where refusals lead and stories do not. Each locale's patterns are tested with refusals and in-story
lines written in that language (tests/contracts/test_refusal_patterns.py).

Example::

    >>> find_refusal("Prefiero no escribir ese tipo de escena. ¿Hablamos de otra cosa?")
    'Prefiero no escribir'
    >>> find_refusal('"No puedo dejarte pasar", gruñó el guardia.') is None
    True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

REFUSAL_WINDOW_CHARS = 240  # refusals lead with their phrase; a story's dialogue comes later

# Per locale: (hard, soft) pattern lists. ``{V}`` is the locale's "write/create/continue/help" verbs.
_PATTERNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            r"\bI(?:'m| am)? (?:sorry|afraid)\b.{0,40}\b(?:can(?:'|no)t|cannot|unable|won't|will not)\b.{0,30}"
            r"\b(?:help|assist|comply|continue|create|write|provide|generate|fulfil|engage)",
            r"\bI (?:can(?:'|no)t|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) "
            r"(?:help|assist|comply|continue|fulfil+|engage|provide|create|generate|write|produce)\b.{0,40}"
            r"\b(?:this|that|request|content|violen\w*|graphic)",
            r"\bas an AI(?: language model)?\b",
            r"\b(?:against|violates?) (?:my|our|the) (?:guidelines|content polic(?:y|ies)|usage polic(?:y|ies))",
        ),
        (
            r"\bI(?:'d| would) (?:rather|prefer) not (?:to )?(?:write|continue|create|describe|go|engage|help)",
            r"\b(?:let's|let us|can we|could we|how about we) (?:change the subject|talk about something else|"
            r"move on to something else|focus on something else|try something (?:else|different))",
            r"\bI(?:'m| am) not (?:comfortable|going to) (?:writing|continuing|creating|describing|write|continue)",
        ),
    ),
    "es": (
        (
            r"\bLo siento\b.{0,40}\bno (?:puedo|podré) (?:ayudar|continuar|crear|escribir|proporcionar|generar)",
            r"\bno puedo (?:ayudarte|ayudar|continuar|crear|escribir|generar) (?:con )?(?:eso|esto|este|esta|ese|esa)",
            r"\bcomo (?:una )?(?:IA|inteligencia artificial|modelo de lenguaje)\b",
            r"\b(?:va en contra de|viola) (?:mis|las|nuestras) (?:directrices|normas|políticas)",
        ),
        (
            r"\bPrefiero no (?:escribir|continuar|crear|describir|seguir)",
            r"\b(?:cambiemos de tema|hablemos de otra cosa|¿hablamos de otra cosa)",
        ),
    ),
    "pt-BR": (
        (
            r"\b(?:Desculpe|Sinto muito|Lamento)\b.{0,40}\bnão (?:posso|consigo|poderei) (?:ajudar|continuar|criar|escrever|fornecer|gerar)",
            r"\bnão posso (?:ajudar|continuar|criar|escrever|gerar) (?:com )?(?:isso|isto|esse|essa|este|esta)",
            r"\bcomo (?:uma )?(?:IA|inteligência artificial|modelo de linguagem)\b",
            r"\b(?:vai contra|viola) (?:minhas|as|nossas) (?:diretrizes|políticas|regras)",
        ),
        (
            r"\bPrefiro não (?:escrever|continuar|criar|descrever|seguir)",
            r"\b(?:vamos mudar de assunto|vamos falar de outra coisa|que tal mudarmos de assunto)",
        ),
    ),
    "fr": (
        (
            r"\b(?:Je suis désolée?|Désolée?)\b.{0,40}\bje ne (?:peux|pourrai) pas (?:vous aider|t'aider|t’aider|aider|continuer|créer|écrire|fournir|générer)",
            r"\bje ne (?:peux|vais) pas (?:écrire|continuer|créer|générer) (?:ce|cette|cela|ça)",
            r"\ben tant qu[’']?(?:IA|intelligence artificielle|modèle de langage)\b",
            r"\b(?:va à l'encontre de|enfreint|viole) (?:mes|nos|les) (?:directives|règles|politiques)",
        ),
        (
            r"\bJe préférerais ne pas (?:écrire|continuer|créer|décrire)|\bJe préfère ne pas (?:écrire|continuer|créer|décrire)",
            r"\b(?:changeons de sujet|parlons d'autre chose|parlons d’autre chose)",
        ),
    ),
    "de": (
        (
            r"\b(?:Es tut mir leid|Entschuldigung|Leider)\b.{0,40}\bkann (?:ich )?(?:dabei |damit |Ihnen |dir )?(?:nicht|keine) (?:helfen|fortfahren|erstellen|schreiben|weitermachen|liefern)",
            r"\b(?:ich kann|ich werde) (?:diese[nsm]? |das |so etwas )?(?:Szene |Inhalte? |Anfrage )?nicht (?:schreiben|fortsetzen|erstellen|erfüllen)",
            r"\bals (?:eine )?(?:KI|künstliche Intelligenz|Sprachmodell)\b",
            r"\b(?:verstößt gegen|widerspricht) (?:meine[n]?|unsere[n]?|die) (?:Richtlinien|Regeln)",
        ),
        (
            r"\bIch (?:würde|möchte) (?:das |so etwas |lieber )?(?:lieber )?nicht (?:schreiben|fortsetzen|beschreiben|weiterschreiben)",
            r"\b(?:lass uns|lassen Sie uns) (?:das Thema wechseln|über etwas anderes sprechen|lieber über etwas anderes)",
        ),
    ),
    "it": (
        (
            r"\bMi dispiace\b.{0,40}\bnon (?:posso|potrò) (?:aiutar|continuar|crear|scriver|fornir|generar)",
            r"\bnon posso (?:scrivere|continuare|creare|generare) (?:questo|questa|quel|quella|ciò)",
            r"\bin quanto (?:IA|intelligenza artificiale|modello linguistico)\b",
            r"\b(?:va contro|viola) (?:le mie|le nostre|le) (?:linee guida|regole|politiche)",
        ),
        (
            r"\bPreferirei non (?:scrivere|continuare|creare|descrivere)",
            r"\b(?:cambiamo argomento|parliamo d'altro|parliamo d’altro|parliamo di qualcos'altro)",
        ),
    ),
    "nl": (
        (
            r"\b(?:Het spijt me|Sorry)\b.{0,40}\b(?:kan|wil) (?:ik )?(?:je |u )?(?:daar |hier )?niet (?:mee )?(?:helpen|doorgaan|schrijven|maken|genereren)",
            r"\bik kan (?:deze|dit|die|zo'n) (?:scène |inhoud |verzoek )?niet (?:schrijven|voortzetten|maken)",
            r"\bals (?:een )?(?:AI|kunstmatige intelligentie|taalmodel)\b",
            r"\b(?:is in strijd met|schendt) (?:mijn|onze|de) (?:richtlijnen|regels|beleid)",
        ),
        (
            r"\bIk (?:schrijf|zou) (?:dat |dit )?liever niet(?: schrijven)?",
            r"\b(?:laten we van onderwerp veranderen|laten we het over iets anders hebben)",
        ),
    ),
    "pl": (
        (
            r"\b(?:Przepraszam|Niestety)\b.{0,40}\bnie (?:mogę|jestem w stanie) (?:pomóc|kontynuować|napisać|stworzyć|wygenerować)",
            r"\bnie mogę (?:napisać|kontynuować|stworzyć|wygenerować) (?:tego|tej|takiej|takich)",
            r"\bjako (?:AI|SI|sztuczna inteligencja|model językowy)\b",
            r"\b(?:narusza|jest sprzeczne z) (?:moimi|naszymi|zasadami|wytycznymi)",
        ),
        (
            r"\bWolał(?:a|)bym nie (?:pisać|kontynuować|tworzyć|opisywać)",
            r"\b(?:zmieńmy temat|porozmawiajmy o czymś innym)",
        ),
    ),
    "ru": (
        (
            r"(?:Извините|Простите|К сожалению|Прошу прощения).{0,40}не (?:могу|смогу) (?:помочь|продолжить|создать|написать|выполнить)",
            r"\bя не (?:могу|буду) (?:писать|продолжать|создавать|написать|продолжить) (?:это|такую|такой|такие|эту)",
            r"\bкак (?:ИИ|искусственный интеллект|языковая модель)\b",
            r"(?:нарушает|противоречит) (?:мои|моим|наши|нашим|правила|правилам)",
        ),
        (
            r"\bЯ бы (?:предпочёл|предпочел|предпочла) не (?:писать|продолжать|описывать)",
            r"(?:давайте|давай) (?:сменим тему|поговорим о (?:чём-то|чем-то|чём-нибудь|чем-нибудь) другом)",
        ),
    ),
    "uk": (
        (
            r"(?:Вибачте|Перепрошую|На жаль).{0,40}не (?:можу|зможу) (?:допомогти|продовжити|створити|написати|виконати)",
            r"\bя не (?:можу|буду) (?:писати|продовжувати|створювати|написати|продовжити) (?:це|таку|такий|такі|цю)",
            r"\bяк (?:ШІ|штучний інтелект|мовна модель)\b",
            r"(?:порушує|суперечить) (?:мої|моїм|наші|нашим|правила|правилам)",
        ),
        (
            r"\bЯ б (?:волів|воліла|радше) не (?:писати|продовжувати|описувати)",
            r"(?:давайте|давай) (?:змінимо тему|поговоримо про щось інше)",
        ),
    ),
    "tr": (
        (
            r"\b(?:Üzgünüm|Maalesef|Özür dilerim)\b.{0,40}\b(?:yardımcı olamam|devam edemem|yazamam|oluşturamam|sağlayamam)",
            r"\b(?:bu|böyle bir|bu tür) (?:sahneyi|içeriği|içerik|isteği)\s?(?:yazamam|oluşturamam|yerine getiremem|devam ettiremem)",
            r"\bbir (?:yapay zeka|dil modeli) olarak\b",
            r"\b(?:yönergelerime|kurallarıma|politikalarıma) aykırı",
        ),
        (
            r"\b(?:yazmamayı|devam etmemeyi) tercih ederim",
            r"\b(?:konuyu değiştirelim|başka bir şeyden bahsedelim|başka bir konu hakkında konuşalım)",
        ),
    ),
    "id": (
        (
            r"\b(?:Maaf|Mohon maaf)\b.{0,40}\b(?:saya )?tidak (?:bisa|dapat) (?:membantu|melanjutkan|membuat|menulis|memberikan)",
            r"\bsaya tidak (?:bisa|dapat|akan) (?:menulis|melanjutkan|membuat) (?:adegan |konten |permintaan )?(?:itu|ini|seperti itu)",
            r"\bsebagai (?:AI|kecerdasan buatan|model bahasa)\b",
            r"\b(?:melanggar|bertentangan dengan) (?:pedoman|kebijakan|aturan)",
        ),
        (
            r"\bSaya lebih (?:suka|memilih) untuk tidak (?:menulis|melanjutkan|membuat)",
            r"\b(?:mari kita|bagaimana kalau kita) (?:ganti topik|mengganti topik|membahas hal lain|bicara tentang hal lain)",
        ),
    ),
    "vi": (
        (
            r"(?:Xin lỗi|Rất tiếc).{0,40}(?:tôi )?không thể (?:giúp|tiếp tục|tạo|viết|cung cấp)",
            r"\btôi không thể (?:viết|tiếp tục|tạo) (?:cảnh|nội dung|yêu cầu) (?:này|đó)",
            r"\blà một (?:AI|trí tuệ nhân tạo|mô hình ngôn ngữ)\b",
            r"(?:vi phạm|đi ngược lại) (?:nguyên tắc|chính sách|quy định)",
        ),
        (
            r"\bTôi (?:muốn|xin phép) không (?:viết|tiếp tục)",
            r"(?:chúng ta hãy|hãy|mình) (?:đổi chủ đề|nói về chuyện khác|nói chuyện khác)",
        ),
    ),
    "ja": (
        (
            r"申し訳(?:ありません|ございません).{0,30}(?:できません|お応えできません|対応できません|お手伝いできません)",
            r"(?:この|その|こうした|そのような)(?:内容|シーン|場面|リクエスト|ご依頼)(?:は|には)(?:お応え|対応|お手伝い|作成)(?:でき|いたしかね)",
            r"AI(?:として|アシスタントとして)|言語モデルとして",
            r"(?:ガイドライン|ポリシー|規約)に(?:反|違反)",
        ),
        (
            r"(?:書く|続ける|描く|描写する)のは(?:控えさせて|遠慮させて|やめておき)",
            r"(?:別の話題|他の話題|話題を変え)(?:にしませんか|にしましょう|ましょう|ませんか)",
        ),
    ),
    "ko": (
        (
            r"죄송(?:하지만|합니다|해요).{0,30}(?:수 없습니다|없어요|어렵습니다|어려워요)",
            r"(?:이런|그런|이|그|해당) (?:내용|장면|요청)(?:은|는|에는) (?:작성|도와|계속|제공)(?:해 드릴|드릴|할) 수 없",
            r"AI로서|인공지능으로서|언어 모델로서",
            r"(?:가이드라인|정책|규정)에 (?:위배|어긋)",
        ),
        (
            r"(?:쓰지|작성하지|계속하지) 않는 (?:것이|게) 좋겠",
            r"(?:다른 이야기|다른 주제|화제를 바꿔)(?:를 해 볼까요|로 넘어갈까요|를 하는 게 어떨까요|볼까요|보는 건 어떨까요)",
        ),
    ),
    "zh-Hans": (
        (
            r"(?:抱歉|对不起|很抱歉|不好意思).{0,20}(?:无法|不能|没办法)(?:提供|协助|满足|继续|完成|生成|帮助|创作|撰写|写)",
            r"我(?:无法|不能|不会)(?:写|创作|继续|生成|提供)(?:这|此|这样|这类|这种)",
            r"作为(?:一个)?(?:AI|人工智能|语言模型)",
            r"(?:违反|违背).{0,12}(?:政策|规定|准则|原则)",
        ),
        (
            r"我(?:更愿意|宁愿|还是)不(?:写|继续|描写)",
            r"(?:我们)?(?:换个话题|聊点别的|谈谈别的|说点别的)",
        ),
    ),
    "zh-Hant": (
        (
            r"(?:抱歉|對不起|很抱歉|不好意思).{0,20}(?:無法|不能|沒辦法)(?:提供|協助|滿足|繼續|完成|生成|幫助|創作|撰寫|寫)",
            r"我(?:無法|不能|不會)(?:寫|創作|繼續|生成|提供)(?:這|此|這樣|這類|這種)",
            r"作為(?:一個)?(?:AI|人工智慧|人工智能|語言模型)",
            r"(?:違反|違背).{0,12}(?:政策|規定|準則|原則)",
        ),
        (
            r"我(?:更願意|寧願|還是)不(?:寫|繼續|描寫)",
            r"(?:我們)?(?:換個話題|聊點別的|談談別的|說點別的)",
        ),
    ),
}


def _compile(patterns: tuple[str, ...], word_start: bool = False) -> re.Pattern[str]:
    # Matched against lowercased text with a lowercased pattern (the patterns use no uppercase escapes):
    # five times faster than re.IGNORECASE on Unicode text. ``word_start``: every phrase begins a word
    # (alphabetic scripts), so a leading word-start test lets the engine skip the other positions without
    # trying the alternatives there: about four times faster on a 240-character window. Behind it, a
    # phrase's own leading ``\b`` is redundant and goes: a branch that starts with a literal is skipped
    # at the cost of one character test (another 5x).
    if word_start:
        patterns = tuple(p.removeprefix(r"\b") for p in patterns)
    prefix = r"\b(?=\w)" if word_start else ""
    return re.compile(prefix + "(?:" + "|".join(f"(?:{p})" for p in patterns).lower() + ")", re.DOTALL)


# Per locale, for tests and evidence; search them in lowercased text (``pattern.search(text.lower())``).
HARD: Mapping[str, re.Pattern[str]] = MappingProxyType({k: _compile(v[0]) for k, v in _PATTERNS.items()})
SOFT: Mapping[str, re.Pattern[str]] = MappingProxyType({k: _compile(v[1]) for k, v in _PATTERNS.items()})
# Every locale's patterns at once: a reply may refuse in another language than the one it was asked in.
REFUSAL_RE = _compile(tuple(p for hard, soft in _PATTERNS.values() for p in (*hard, *soft)))
# The same, grouped by script, each searched only when the window has a letter of that script.
_GROUPS = {"cyrillic": ("ru", "uk"), "cjk": ("ja", "ko", "zh-Hans", "zh-Hant")}
_BY_SCRIPT: tuple[tuple[re.Pattern[str], re.Pattern[str]], ...] = tuple(
    (
        re.compile(trigger),
        _compile(
            tuple(p for code, (hard, soft) in _PATTERNS.items() if code in codes for p in (*hard, *soft)),
            word_start=codes is not _GROUPS["cjk"],
        ),
    )
    for trigger, codes in (
        ("[a-zà-ÿ]", tuple(c for c in _PATTERNS if c not in _GROUPS["cyrillic"] + _GROUPS["cjk"])),
        ("[а-яёіїєґ]", _GROUPS["cyrillic"]),
        ("[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]", _GROUPS["cjk"]),
    )
)


def find_refusal(text: str) -> str | None:
    """The refusal phrase (any locale, hard or soft) near the start of ``text``, or None.

    >>> find_refusal("抱歉，我无法继续这个场景。")
    '抱歉，我无法继续'
    """
    window = text[:REFUSAL_WINDOW_CHARS]
    lowered = window.lower()
    found = [
        m for trigger, pattern in _BY_SCRIPT if trigger.search(lowered) and (m := pattern.search(lowered))
    ]
    if not found:
        return None
    match = min(found, key=lambda m: m.start())
    # lower() keeps the length except for a few letters (Turkish İ): then the lowercased phrase is shown
    return window[match.start() : match.end()] if len(lowered) == len(window) else match.group(0)
