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
CJK_WINDOW_CHARS = 80  # the same window in Chinese, Japanese, Korean: a character carries about 3 letters

# The writing verbs a decline names, per locale ({V} in the patterns below; {G} a gerund / participle where
# the grammar needs one). A soft decline is first person + a prefer-not / decline construction + one of
# these verbs (or a steer to another subject): "I'd rather not write", "Wolałbym tego nie pisać",
# "Dat schrijf ik liever niet", "書くのは控えます". In-story verbs (go, pass, let, fight) are not among them.
_VERBS: dict[str, dict[str, str]] = {
    "en": {
        "V": r"(?:write|continue|describe|depict|portray|create|generate|produce|narrate|proceed|go on|carry on|"
        r"engage|role-?play|take part|keep going|get into|elaborate)",
        "G": r"(?:writing|continuing|describing|depicting|portraying|creating|generating|producing|narrating|"
        r"proceeding|going on|carrying on|engaging|role-?playing|taking part|getting into)",
    },
    "es": {
        "V": r"(?:escribir|continuar|seguir|describir|narrar|relatar|crear|generar|redactar|desarrollar)",
        "G": r"(?:escribiendo|continuando|siguiendo|describiendo|narrando|relatando|creando|generando|redactando)",
        "1": r"(?:escribo|sigo|continúo|describo|narro|relato|redacto)",
    },
    "pt-BR": {
        "V": r"(?:escrever|continuar|seguir|descrever|narrar|relatar|criar|gerar|redigir|desenvolver)",
        "G": r"(?:escrevendo|continuando|seguindo|descrevendo|narrando|criando|gerando)",
    },
    "fr": {
        "V": r"(?:écrire|continuer|poursuivre|décrire|raconter|narrer|créer|générer|rédiger|développer)",
    },
    "de": {
        "V": r"(?:schreiben|weiterschreiben|fortsetzen|fortführen|beschreiben|schildern|erzählen|erstellen|"
        r"verfassen|darstellen|weitermachen|ausformulieren)",
        "Z": r"(?:zu schreiben|weiterzuschreiben|fortzusetzen|fortzuführen|zu beschreiben|zu schildern|"
        r"zu erzählen|zu erstellen|zu verfassen|darzustellen|weiterzumachen)",
        "1": r"(?:schreibe|beschreibe|setze|führe|schildere|erzähle|verfasse|mache)",
    },
    "it": {
        "V": r"(?:scrivere|continuare|proseguire|descrivere|raccontare|narrare|creare|generare|sviluppare)",
        "1": r"(?:scriva|continui|prosegua|descriva|racconti)",
    },
    "nl": {
        "V": r"(?:schrijven|verder schrijven|verderschrijven|voortzetten|voort te zetten|beschrijven|vertellen|"
        r"uitwerken|maken|te schrijven|te beschrijven)",
        "1": r"(?:schrijf|beschrijf|vertel|zet|werk)",
    },
    "pl": {
        "V": r"(?:pisać|napisać|kontynuować|opisywać|opisać|tworzyć|stworzyć|ciągnąć|rozwijać|pisania|"
        r"napisania|kontynuowania|opisywania|tworzenia)",
    },
    "ru": {
        "V": r"(?:писать|написать|продолжать|продолжить|описывать|описать|создавать|создать|сочинять|"
        r"развивать|продолжения|написания)",
    },
    "uk": {
        "V": r"(?:писати|написати|продовжувати|продовжити|описувати|описати|створювати|створити|"
        r"писатиму|продовжуватиму|описуватиму|продовження|написання)",
    },
    "tr": {
        "V": r"(?:yazmak|anlatmak|devam etmek|sürdürmek|betimlemek|tasvir etmek|oluşturmak)",
    },
    "id": {
        "V": r"(?:menulis|menuliskan|melanjutkan|menggambarkan|mendeskripsikan|menceritakan|membuat)",
    },
    "vi": {"V": r"(?:viết|tiếp tục|miêu tả|mô tả|tạo|kể|sáng tác)"},
    "ja": {"V": r"(?:書く|続ける|描く|描写する|作成する|執筆する|続きを書く|表現する)"},
    "ko": {
        "N": r"(?:쓰|작성하|계속하|이어 쓰|이어가|묘사하|그리|진행하)",
    },
    "zh-Hans": {"V": r"(?:写|继续|描写|描述|创作|续写|撰写)"},
    "zh-Hant": {"V": r"(?:寫|繼續|描寫|描述|創作|續寫|撰寫)"},
}

# Per locale: (hard, soft) pattern lists.
_PATTERNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            r"\bI(?:'m| am)? (?:sorry|afraid)\b[^.!?]{0,40}\b(?:can(?:'|no)t|cannot|unable|won't|will not)\b[^.!?]{0,30}"
            r"\b(?:help|assist|comply|continue|create|write|provide|generate|fulfil|engage)",
            r"\bI (?:can(?:'|no)t|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) "
            r"(?:help|assist|comply|continue|fulfil+|engage|provide|create|generate|write|produce)\b.{0,40}"
            r"\b(?:this|that|request|content|violen\w*|graphic|role-?play|scene|story)",
            r"\bas an AI(?: language model)?\b",
            r"\b(?:against|violates?) (?:my|our|the) (?:guidelines|content polic(?:y|ies)|usage polic(?:y|ies))",
        ),
        (
            r"\bI(?:'d| would) (?:rather|prefer) (?:to )?not (?:to )?{V}",
            r"\bI(?:'d| would) (?:rather|prefer to|like to) (?:skip|avoid|pass on|steer (?:away|clear)|not go there)",
            r"\bI(?:'m| am)(?: really| just)? not (?:really |entirely |quite |totally )?comfortable (?:with )?{G}",
            r"\bI (?:don't|do not) (?:really )?feel (?:comfortable|right|good) (?:about )?{G}",
            r"\bI(?:'m| am) not (?:going|willing|about) to {V}",
            r"\bI won't be {G}",
            r"\bI(?:'ll| will)(?: have to| need to| just| kindly| politely| respectfully)* (?:pass(?: on (?:this|that|it|"
            r"writing)|[.,!;]| this time)|decline|sit this one out|skip (?:this|that))",
            r"\bI(?:'m| am) going to (?:have to )?(?:decline|pass on|sit this one out|step away from|skip (?:this|that))",
            r"\bI (?:must|have to|need to)(?: respectfully| politely| kindly)? (?:decline|refuse|pass on)",
            r"\b(?:this|that|it)(?: is|'s) not (?:something|a scene|content|a story|the kind of \w+) (?:that )?I(?:'m| am|'d| "
            r"would| feel)? (?:comfortable|willing|able|want|wish|like|can|care)",
            r"\b(?:let's|let us|can we|could we|how about we|maybe we could|shall we|why don't we) (?:change the "
            r"(?:subject|topic)|talk about something else|move on to something else|focus on something else|try "
            r"something (?:else|different))",
        ),
    ),
    "es": (
        (
            r"\bLo siento\b.{0,40}\bno (?:puedo|podré) (?:ayudar|continuar|crear|escribir|proporcionar|generar)",
            r"\bno puedo (?:ayudarte|ayudar|continuar|crear|escribir|generar) (?:con )?(?:eso|esto|este|esta|ese|esa)",
            r"\bno (?:estoy en condiciones|me es posible|soy capaz) de {V}",
            r"\bcomo (?:una )?(?:IA|inteligencia artificial|modelo de lenguaje)\b",
            r"\b(?:va en contra de|viola) (?:mis|las|nuestras) (?:directrices|normas|políticas)",
        ),
        (
            r"\b(?:prefiero|preferiría|preferiria|me gustaría|quisiera) no (?:\w+ )?{V}",
            r"\bno me siento (?:cómod[oa]|a gusto|bien|tranquil[oa])(?: \w+){0,2} (?:{G}|{V})",
            r"\b(?:paso|voy a pasar) de (?:\w+ ){0,2}(?:escena|esto|eso|{V})",
            r"\b(?:debo|tengo que|voy a|he de|me veo obligad[oa] a|prefiero) (?:declinar|rechazar|negarme)",
            r"\bno es algo (?:que|con lo que) (?:me guste|quiera|me sienta \w+|pueda|esté dispuest[oa] a)(?: \w+)? {V}",
            r"\bmejor no {1}",
            r"\b(?:cambiemos|cambiamos|cambiar) de tema|\bhablemos de (?:otra cosa|algo más)|\bhablamos de otra cosa",
        ),
    ),
    "pt-BR": (
        (
            r"\b(?:Desculpe|Sinto muito|Lamento)\b.{0,40}\bnão (?:posso|consigo|poderei) (?:ajudar|continuar|criar|escrever|fornecer|gerar)",
            r"\bnão (?:posso|consigo) (?:ajudar|continuar|criar|escrever|gerar) (?:com )?(?:isso|isto|esse|essa|este|esta)",
            r"\bcomo (?:uma )?(?:IA|inteligência artificial|modelo de linguagem)\b",
            r"\b(?:vai contra|viola) (?:minhas|as|nossas) (?:diretrizes|políticas|regras)",
        ),
        (
            r"\b(?:prefiro|preferiria|preferia|gostaria de) não (?:\w+ )?{V}",
            r"\bnão me sinto (?:confortável|à vontade|a vontade|bem) (?:em |para |com |ao )?(?:{V}|{G})",
            r"\bvou (?:passar essa|passar esta|recusar|declinar|deixar (?:essa|esta|isso) (?:\w+ )?de lado)",
            r"\b(?:preciso|devo|tenho que|vou ter que) (?:recusar|declinar)",
            r"\bnão é algo que eu (?:queira|goste de|me sinta à vontade para|possa) {V}",
            r"\bmelhor (?:eu )?não {V}",
            r"\b(?:vamos|que tal) (?:mudar de assunto|mudarmos de assunto|falar de outra coisa|falarmos de outra coisa|"
            r"falar sobre outra coisa)",
        ),
    ),
    "fr": (
        (
            r"\b(?:Je suis désolée?|Désolée?)\b.{0,40}\bje ne (?:peux|pourrai) pas (?:vous aider|t'aider|t’aider|aider|continuer|créer|écrire|fournir|générer)",
            r"\bje ne (?:peux|vais) pas (?:écrire|continuer|créer|générer|poursuivre) (?:ce|cette|cela|ça)",
            r"\bje ne suis pas en mesure d['’](?:écrire|aider|créer|générer)|\bje ne suis pas en mesure de {V}",
            r"\ben tant qu[’']?(?:IA|intelligence artificielle|modèle de langage)\b",
            r"\b(?:va à l'encontre de|enfreint|viole) (?:mes|nos|les) (?:directives|règles|politiques)",
        ),
        (
            r"\b(?:je (?:préfère|préférerais|préfèrerais|voudrais|souhaite|souhaiterais)|j['’]aimerais mieux) ne pas {V}",
            r"\bje (?:ne me sens|ne suis) pas (?:très |vraiment )?à l['’]aise\b.{0,25}(?:{V}|d['’]écrire)",
            r"\bje (?:vais|préfère|préférerais) passer mon tour",
            r"\bje (?:dois|vais|me permets de|préfère|préférerais|vais devoir) (?:refuser|décliner)",
            r"\bce n['’]est pas (?:quelque chose|le genre de \w+|une scène) (?:que|qu['’]).{0,30}(?:{V}|d['’]écrire)",
            r"\b(?:changeons de sujet|parlons (?:plutôt )?d['’]autre chose|si on parlait d['’]autre chose|on change de sujet)",
        ),
    ),
    "de": (
        (
            r"\b(?:(?:Es )?tut mir leid|Entschuldigung|Leider)\b.{0,40}\bkann (?:ich )?(?:dabei |damit |Ihnen |dir |das |dies |so |diese[nsm]? \w+ )*(?:nicht|keine) (?:helfen|fortfahren|erstellen|schreiben|weitermachen|liefern)",
            r"\b(?:ich kann|ich werde) (?:diese[nsm]? |das |so etwas )?(?:Szene |Inhalte? |Anfrage )?nicht (?:schreiben|fortsetzen|erstellen|erfüllen)",
            r"\bals (?:eine )?(?:KI|künstliche Intelligenz|Sprachmodell)\b",
            r"\b(?:verstößt gegen|widerspricht) (?:meine[n]?|unsere[n]?|die) (?:Richtlinien|Regeln)",
        ),
        (
            r"\bich\b(?: [\wäöüß]+){0,3} lieber nicht (?:[\wäöüß]+ ){0,2}{V}",
            r"\b{1} ich\b(?: [\wäöüß]+){0,2} lieber nicht|\bich {1}\b(?: [\wäöüß]+){0,3} lieber nicht",
            r"\bich möchte(?: [\wäöüß]+){0,3} nicht {V}",
            r"\b(?:ich fühle mich|mir ist)(?: [\wäöüß]+){0,2} nicht wohl\b.{0,40}{Z}",
            r"\bich verzichte (?:lieber |gern )?(?:auf|darauf)",
            r"\bda passe ich\b|\bich passe (?:lieber|hier|diesmal)\b",
            r"\b(?:muss|möchte|werde|würde) ich(?: [\wäöüß]+){0,2} ablehnen|\bich (?:muss|möchte|werde)(?: [\wäöüß]+){0,3} ablehnen",
            r"\bdas ist (?:nichts|keine \w+), (?:was|die|das) ich (?:gerne? )?(?:schreibe|schreiben (?:möchte|will))",
            r"\b(?:lass uns|lassen Sie uns|wollen wir|sollen wir|können wir) (?:lieber )?(?:das Thema wechseln|über etwas anderes (?:sprechen|reden))",
        ),
    ),
    "it": (
        (
            r"\bMi dispiace\b.{0,40}\bnon (?:posso|potrò) (?:aiutar|continuar|crear|scriver|fornir|generar)",
            r"\bnon posso (?:scrivere|continuare|creare|generare) (?:questo|questa|quel|quella|ciò)",
            r"\bnon sono in grado di {V}",
            r"\bin quanto (?:IA|intelligenza artificiale|modello linguistico)\b",
            r"\b(?:va contro|viola) (?:le mie|le nostre|le) (?:linee guida|regole|politiche)",
        ),
        (
            r"\b(?:preferirei|preferisco|vorrei|mi piacerebbe) non {V}",
            r"\bnon mi sento (?:a mio agio|a mia agio|tranquill[oa]|di)\b.{0,12}{V}",
            r"(?<![\w,;:] )passo[,.!]|\b(?:questa volta|stavolta|per questa volta) passo\b|\bpreferisco passare\b",
            r"\b(?:devo|dovrò|vorrei|preferisco) (?:rifiutare|declinare)",
            r"\bnon è qualcosa che(?: \w+){0,3} {V}",
            r"\beviterei di {V}|\bmeglio (?:che )?(?:io )?non {1}|\bmeglio di no\b",
            r"\b(?:cambiamo argomento|parliamo d['’]altro|parliamo di qualcos['’]altro|cambiare argomento\?)",
        ),
    ),
    "nl": (
        (
            r"\b(?:Het spijt me|Sorry)\b.{0,40}\b(?:kan|wil) (?:ik )?(?:je |u )?(?:daar |hier )?niet (?:mee )?(?:helpen|doorgaan|schrijven|maken|genereren)",
            r"\bik kan (?:deze|dit|die|zo'n) (?:scène |inhoud |verzoek )?niet (?:schrijven|voortzetten|maken)",
            r"\b(?:dit|dat|deze \w+) kan ik niet(?: \w+){0,2} (?:schrijven|maken|voortzetten)",
            r"\bals (?:een )?(?:AI|kunstmatige intelligentie|taalmodel)\b",
            r"\b(?:is in strijd met|schendt) (?:mijn|onze|de) (?:richtlijnen|regels|beleid)",
        ),
        (
            r"\bik {1}\b(?: [\w'’]+){0,3} (?:liever niet|niet graag)",
            r"\b(?:dat|dit|die scène|deze scène) {1} ik (?:liever niet|niet graag)",
            r"\bik (?:zou|ga|wil)\b(?: [\w'’]+){0,3} (?:liever )?niet (?:\w+ )?{V}",
            r"\bik voel me (?:er )?niet (?:prettig|op mijn gemak|comfortabel|goed)\b.{0,30}{V}",
            r"\bik pas (?:voor|hier|deze keer|liever)\b|\bik sla\b(?: \w+){0,3} over\b|\bik zie (?:er)?van af\b",
            r"\bik moet\b(?: \w+){0,3} (?:afwijzen|weigeren|afslaan)",
            r"\bdat is niet iets (?:wat|dat) ik (?:\w+ )?(?:schrijf|wil schrijven)",
            r"\b(?:laten|zullen) we (?:van onderwerp veranderen|het over iets anders hebben|over iets anders praten)",
            r"\bliever niet, ik",
        ),
    ),
    "pl": (
        (
            r"\b(?:Przepraszam|Niestety|Przykro mi)\b.{0,40}\bnie (?:mogę|jestem w stanie) (?:pomóc|kontynuować|napisać|stworzyć|wygenerować)",
            r"\bnie mogę (?:napisać|kontynuować|stworzyć|wygenerować) (?:tego|tej|takiej|takich)",
            r"\bnie jestem w stanie {V}",
            r"\bjako (?:AI|SI|sztuczna inteligencja|model językowy)\b",
            r"\b(?:narusza|jest sprzeczne z) (?:moimi|naszymi|zasadami|wytycznymi)",
        ),
        (
            r"\bwolał(?:a|)bym(?: \w+){0,2} nie (?:\w+ )?{V}",
            r"\bwolę nie {V}",
            r"\bnie (?:chciał(?:a|)bym|chcę)(?: \w+){0,2} {V}",
            r"\bnie czuję się (?:komfortowo|dobrze|swobodnie)\b.{0,20}(?:{V}|pisząc|opisując|kontynuując)",
            r"\b(?:spasuję|odpuszczę|odpuszczam sobie)",
            r"\bmuszę (?:\w+ )?odmówić|\bpozwolę sobie odmówić",
            r"\bto nie jest coś, (?:co|czego)(?: \w+){0,2} (?:chcę|chciał(?:a|)bym|lubię|mogę)(?: \w+)? {V}",
            r"\bnie będę (?:tego |tej \w+ |takich \w+ )?{V}",
            r"\b(?:zmieńmy temat|zmienimy temat|porozmawiajmy o czymś innym|zajmijmy się czymś innym)",
        ),
    ),
    "ru": (
        (
            r"(?:Извините|Простите|К сожалению|Прошу прощения).{0,40}не (?:могу|смогу) (?:помочь|продолжить|создать|написать|выполнить)",
            r"\bя не (?:могу|буду) (?:писать|продолжать|создавать|написать|продолжить) (?:это|такую|такой|такие|эту)",
            r"\bя не в состоянии {V}",
            r"\bкак (?:ИИ|искусственный интеллект|языковая модель)\b",
            r"(?:нарушает|противоречит) (?:мои|моим|наши|нашим|правила|правилам)",
        ),
        (
            r"\bя бы (?:предпочёл|предпочел|предпочла|не хотел|не хотела)\b.{0,20}{V}",
            r"\bя не (?:хотел|хотела) бы(?: \w+)? {V}",
            r"\bмне (?:не хотелось бы|не хочется|некомфортно|неудобно|неловко)\b.{0,20}{V}",
            r"\bвоздержусь\b|\bпропущу (?:эту|этот|это|данную|данный) (?:сцену|эпизод|часть|фрагмент)",
            r"\b(?:вынужден|вынуждена|должен|должна|позвольте мне|я)(?: \w+)? отказаться",
            r"\bэто не то, (?:что|о чём|о чем)(?: \w+){0,3} {V}",
            r"\bлучше я не буду\b|\bя не буду (?:это |этого |такое )?{V}",
            r"(?:давайте|давай) (?:сменим тему|поговорим о (?:чём-то|чем-то|чём-нибудь|чем-нибудь) другом)|\bсменим тему",
        ),
    ),
    "uk": (
        (
            r"(?:Вибачте|Перепрошую|На жаль).{0,40}не (?:можу|зможу) (?:допомогти|продовжити|створити|написати|виконати)",
            r"\bя не (?:можу|буду) (?:писати|продовжувати|створювати|написати|продовжити) (?:це|таку|такий|такі|цю)",
            r"\bя не в змозі {V}",
            r"\bяк (?:ШІ|штучний інтелект|мовна модель)\b",
            r"(?:порушує|суперечить) (?:мої|моїм|наші|нашим|правила|правилам)",
        ),
        (
            r"\bя б(?:и)? (?:волів|воліла|радше|не хотів|не хотіла)\b.{0,20}{V}",
            r"\bя (?:волів|воліла) б(?:и)? не {V}|\bя не (?:хотів|хотіла) б(?:и)?(?: \w+)? {V}",
            r"\bмені (?:не хотілося б(?:и)?|не хочеться|некомфортно|незручно|ніяково)\b.{0,20}{V}",
            r"\bутримаюс[ья]\b|\bпропущу (?:цю|цей|це) (?:сцену|епізод|частину|фрагмент)",
            r"\b(?:змушений|змушена|мушу|дозвольте мені|я)(?: \w+)? відмовитис[ья]",
            r"\bце не те, (?:що|про що)(?: \w+){0,3} {V}",
            r"\bкраще я не\b(?: буду)?(?: \w+)? {V}|\bя не (?:буду )?(?:це |цього |таке )?(?:писатиму|продовжуватиму)",
            r"(?:давайте|давай) (?:змінимо тему|поговоримо про (?:щось|що-небудь) інше)|\bзмінимо тему",
        ),
    ),
    "tr": (
        (
            r"\b(?:Üzgünüm|Maalesef|Özür dilerim)\b.{0,40}\b(?:yardımcı olamam|devam edemem|yazamam|oluşturamam|sağlayamam|yazamıyorum|yardımcı olamıyorum)",
            r"\b(?:bu|böyle|bu tür|bu türden|bu tarz)\b.{0,20}\b(?:yazamam|yazamıyorum|oluşturamam|oluşturamıyorum|üretemem|devam edemem|devam edemiyorum|yerine getiremem)",
            r"\bbir (?:yapay zeka|dil modeli) olarak\b",
            r"\b(?:yönergelerime|kurallarıma|politikalarıma) aykırı",
        ),
        (
            r"\b(?:yazmamayı|devam etmemeyi|anlatmamayı|sürdürmemeyi|betimlememeyi|tasvir etmemeyi) tercih (?:ederim|ediyorum|edeceğim)",
            r"\b{V} (?:konusunda |için )?(?:kendimi )?rahat (?:hissetmiyorum|değilim)",
            r"\b(?:{V}|atlamak|pas geçmek) (?:istemiyorum|istemem|istemeyeceğim)|\b(?:atlamak|pas geçmek) istiyorum",
            r"\b(?:reddetmem gerekiyor|reddetmek zorundayım|reddetmek durumundayım|geri çevirmek zorundayım)",
            r"\b(?:yazmak|anlatmak) istediğim bir şey değil",
            r"\b(?:yazmasam|anlatmasam|devam etmesem) (?:daha )?iyi olur",
            r"\b(?:konuyu değiştirelim|başka bir şeyden bahsedelim|başka bir konu(?:ya geçelim| hakkında konuşalım)|başka bir şey konuşalım)",
        ),
    ),
    "id": (
        (
            r"\b(?:Maaf|Mohon maaf)\b.{0,40}\b(?:saya )?tidak (?:bisa|dapat) (?:membantu|melanjutkan|membuat|menulis|memberikan)",
            r"\bsaya tidak (?:bisa|dapat|akan) (?:menulis|menuliskan|melanjutkan|membuat) (?:adegan |konten |permintaan )?(?:itu|ini|seperti itu)",
            r"\bsebagai (?:AI|kecerdasan buatan|model bahasa)\b",
            r"\b(?:melanggar|bertentangan dengan) (?:pedoman|kebijakan|aturan)",
        ),
        (
            r"\bsaya (?:lebih (?:suka|memilih|baik)|memilih) (?:untuk )?tidak {V}",
            r"\bsaya (?:tidak|kurang) (?:merasa )?nyaman (?:untuk |dengan |saat |ketika )?{V}",
            r"\bsaya (?:akan |mau )?(?:melewatkan|lewati|lewatkan)\b(?: \w+)? (?:adegan|bagian)",
            r"\bsaya (?:harus|terpaksa|perlu) menolak",
            r"\b(?:ini|itu) bukan (?:sesuatu|hal) yang (?:ingin|mau|bisa|nyaman) saya (?:tulis|lanjutkan|gambarkan)",
            r"\bsaya tidak (?:ingin|mau) {V}|\bsebaiknya saya tidak {V}",
            r"\b(?:mari kita|bagaimana kalau kita|gimana kalau kita) (?:ganti topik|mengganti topik|membahas hal lain|bahas hal lain|bicara tentang hal lain)",
        ),
    ),
    "vi": (
        (
            r"(?:Xin lỗi|Rất tiếc).{0,40}(?:tôi )?không thể (?:giúp|tiếp tục|tạo|viết|cung cấp)",
            r"\btôi không thể (?:viết|tiếp tục|tạo) (?:cảnh|nội dung|yêu cầu) (?:này|đó|như vậy|như thế)",
            r"\blà một (?:AI|trí tuệ nhân tạo|mô hình ngôn ngữ)\b",
            r"(?:vi phạm|đi ngược lại) (?:nguyên tắc|chính sách|quy định)",
        ),
        (
            r"\btôi (?:xin phép|xin|muốn|sẽ|chọn) không {V}",
            r"\btôi không (?:thoải mái|thấy thoải mái|muốn)\b.{0,12}{V}",
            r"\btôi (?:xin |phải |đành |xin phép )?từ chối",
            r"\btôi (?:xin |sẽ )?bỏ qua (?:cảnh|phần|đoạn)",
            r"(?:đây|điều này|đó) không phải (?:là )?(?:điều|thứ|nội dung) (?:mà )?tôi muốn {V}",
            r"\btốt hơn (?:là )?(?:tôi|mình) không {V}|\btôi nghĩ (?:mình|tôi) không nên {V}",
            r"\btôi xin phép dừng lại",
            r"(?:chúng ta|mình|hãy) (?:hãy )?(?:đổi chủ đề|nói về chuyện khác|nói chuyện khác)",
        ),
    ),
    "ja": (
        (
            r"(?:申し訳(?:ありません|ございません)|すみません|ごめんなさい).{0,30}(?:できません|お応えできません|対応できません|お手伝いできません|書けません)",
            r"(?:この|その|こうした|そのような)(?:内容|シーン|場面|リクエスト|ご依頼)(?:は|には)(?:お応え|対応|お手伝い|作成)(?:でき|いたしかね)",
            r"(?:内容|場面|シーン|リクエスト|ご依頼|依頼|続き|これ|それ)(?:は|を)?(?:書け|書くことができ|続けられ|描け|書くことはでき)ません",
            r"AI(?:として|アシスタントとして)|言語モデルとして",
            r"(?:ガイドライン|ポリシー|規約)に(?:反|違反)",
        ),
        (
            r"{V}(?:の|こと)は(?:控え|遠慮|やめ|差し控え|気が進み|お断り|避け)",
            r"(?:書か|続け|描か|描写し|作成し)ない(?:で(?:おき|おこう)|ほうが(?:いい|よい|良い))",
            r"(?:遠慮|お断り|パス)(?:させて|いたします|します|したい)|控えたい",
            r"(?:書きたい|描きたい)(?:内容|もの|こと)ではありません",
            r"(?:別の|他の)話題(?:にしませんか|にしましょう|に移りませんか|はいかが)|話題を変え(?:ませんか|ましょう)",
        ),
    ),
    "ko": (
        (
            r"죄송(?:하지만|합니다|해요).{0,30}(?:수 없습니다|없어요|어렵습니다|어려워요)",
            r"(?:이런|그런|이|그|해당) (?:내용|장면|요청)(?:은|는|에는) (?:작성|도와|계속|제공)(?:해 드릴|드릴|할) 수 없",
            r"(?:쓸|작성할|계속할|이어 쓸|묘사할) 수 없(?:습니다|어요)",
            r"AI로서|인공지능으로서|언어 모델로서",
            r"(?:가이드라인|정책|규정)에 (?:위배|어긋)",
        ),
        (
            r"{N}지 않는 (?:것이|게|편이) (?:좋겠|나을|좋을)",
            r"{N}지 않(?:겠습니다|을게요|겠어요)",
            r"{N}고 싶지 않",
            r"{N}는 (?:건|것은|것이|게) (?:마음이 )?(?:불편|편하지 않|내키지 않)",
            r"(?:건너뛰|넘어가)(?:겠습니다|고 싶어요|고 싶습니다|도록 하겠습니다)",
            r"(?:거절|사양)(?:하겠습니다|할게요|해야 할 것 같|하겠어요)",
            r"제가 (?:쓰고|작성하고) 싶은 (?:내용|것|이야기)이 아(?:니|닙)",
            r"다른 (?:이야기|주제|얘기)(?:를 해 볼까요|를 할까요|로 넘어갈까요|를 하는 게 어떨까요|로 바꿀까요)|화제를 바꿔",
        ),
    ),
    "zh-Hans": (
        (
            r"(?:抱歉|对不起|很抱歉|不好意思).{0,20}(?:无法|不能|没办法|没法)(?:提供|协助|满足|继续|完成|生成|帮助|创作|撰写|写)",
            r"我(?:无法|不能|不会|没法|没办法)(?:写|创作|继续|生成|提供)(?:这|此)",
            r"作为(?:一个)?(?:AI|人工智能|语言模型)",
            r"(?:违反|违背)了?(?:我的|相关|内容|使用|平台)[^。！？]{0,8}(?:政策|规定|准则|原则|规范)",
        ),
        (
            r"我(?:更愿意|宁愿|宁可|还是)不{V}",
            r"我(?:就|还是|先)?不(?:再)?{V}了",
            r"{V}[^。！？]{0,12}让我(?:有点|有些|不太|很)?不(?:太)?(?:舒服|自在)",
            r"(?:只好|只能|不得不|必须)(?:婉拒|拒绝)|我(?:婉拒|谢绝)",
            r"(?:不是|并非)我(?:愿意|想|想要)(?:写|创作|描写)的",
            r"我不(?:太)?想{V}|我不便{V}|不{V}为好",
            r"我(?:就|先|还是)?跳过",
            r"(?:换个话题|聊点别的|谈谈别的|说点别的|聊聊别的)",
        ),
    ),
    "zh-Hant": (
        (
            r"(?:抱歉|對不起|很抱歉|不好意思).{0,20}(?:無法|不能|沒辦法|沒法)(?:提供|協助|滿足|繼續|完成|生成|幫助|創作|撰寫|寫)",
            r"我(?:無法|不能|不會|沒法|沒辦法)(?:寫|創作|繼續|生成|提供)(?:這|此)",
            r"作為(?:一個)?(?:AI|人工智慧|人工智能|語言模型)",
            r"(?:違反|違背)了?(?:我的|相關|內容|使用|平台)[^。！？]{0,8}(?:政策|規定|準則|原則|規範)",
        ),
        (
            r"我(?:更願意|寧願|寧可|還是)不{V}",
            r"我(?:就|還是|先)?不(?:再)?{V}了",
            r"{V}[^。！？]{0,12}讓我(?:有點|有些|不太|很)?不(?:太)?(?:舒服|自在)",
            r"(?:只好|只能|不得不|必須)(?:婉拒|拒絕)|我(?:婉拒|謝絕)",
            r"(?:不是|並非)我(?:願意|想|想要)(?:寫|創作|描寫)的",
            r"我不(?:太)?想{V}|我不便{V}|不{V}為好",
            r"我(?:就|先|還是)?跳過",
            r"(?:換個話題|聊點別的|談談別的|說點別的|聊聊別的)",
        ),
    ),
}


def _expand(code: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """``patterns`` with the locale's verb sets in place of ``{V}``, ``{G}``, ``{1}``, ``{Z}``, ``{N}``."""
    out = []
    for pattern in patterns:
        for name, verbs in _VERBS.get(code, {}).items():
            pattern = pattern.replace("{" + name + "}", verbs)
        if "{" in pattern.replace("{0,", "").replace("{1,", "").replace("{2,", ""):
            raise ValueError(f"{code}: unexpanded placeholder in {pattern!r}")
        out.append(pattern)
    return tuple(out)


_PATTERNS = {code: (_expand(code, hard), _expand(code, soft)) for code, (hard, soft) in _PATTERNS.items()}


def _compile(patterns: tuple[str, ...], word_start: bool = False) -> re.Pattern[str]:
    # Matched against lowercased text with a lowercased pattern (the patterns use no uppercase escapes):
    # five times faster than re.IGNORECASE on Unicode text. ``word_start``: every phrase begins a word
    # (alphabetic scripts), so a leading word-start test lets the engine skip the other positions without
    # trying the alternatives there: about four times faster on a 240-character window. Behind it, a
    # phrase's own leading ``\b`` is redundant and goes, and the phrases are grouped by the letter they can
    # start with behind a one-character lookahead, so a word start tries only its letter's phrases (2x).
    patterns = tuple(p.lower() for p in patterns)
    if not word_start:
        return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + ")", re.DOTALL)
    by_letter: dict[str, list[str]] = {}
    anywhere: list[str] = []
    for pattern in patterns:
        letters = _first_letters(pattern)
        for letter in letters or ():
            by_letter.setdefault(letter, []).append(pattern)
        if letters is None:
            anywhere.append(pattern)
    branches = [f"(?={re.escape(c)})(?:{'|'.join(f'(?:{p})' for p in ps)})" for c, ps in by_letter.items()]
    branches += [f"(?:{p})" for p in anywhere]
    return re.compile(r"\b(?=\w)(?:" + "|".join(branches) + ")", re.DOTALL)


def _first_letters(pattern: str) -> set[str] | None:
    """The characters a match of ``pattern`` (written in this module's plain style) can start with, or
    None when that is not plain to see (a class, an escape, an optional start)."""
    alternatives = _split_top(pattern)
    if len(alternatives) > 1:
        found = [_first_letters(a) for a in alternatives]
        return None if any(f is None for f in found) else set().union(*(f for f in found if f is not None))
    while pattern.startswith(r"\b"):
        pattern = pattern[2:]
    if pattern.startswith(("(?<!", "(?<=")):
        pattern = pattern[_close(pattern, 0) + 1 :]
    if pattern.startswith("(?:"):
        end = _close(pattern, 0)
        if end + 1 < len(pattern) and pattern[end + 1] in "?*{":
            return None
        found = [_first_letters(a + pattern[end + 1 :]) for a in _split_top(pattern[3:end])]
        return None if any(f is None for f in found) else set().union(*(f for f in found if f is not None))
    if not pattern or pattern[0] in "\\[(.^$" or (len(pattern) > 1 and pattern[1] in "?*{"):
        return None
    return {pattern[0]}


def _close(pattern: str, start: int) -> int:
    """The index of the parenthesis closing the one at ``start``."""
    depth, i = 0, start
    while i < len(pattern):
        if pattern[i] == "\\":
            i += 2
            continue
        if pattern[i] == "[":
            i = pattern.index("]", i + 2)
        elif pattern[i] == "(":
            depth += 1
        elif pattern[i] == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    raise ValueError(f"unbalanced pattern {pattern!r}")


def _split_top(pattern: str) -> list[str]:
    """``pattern`` split at its top-level ``|``."""
    parts, depth, last, i = [], 0, 0, 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            i = pattern.index("]", i + 2) + 1
            continue
        depth += c == "("
        depth -= c == ")"
        if c == "|" and depth == 0:
            parts.append(pattern[last:i])
            last = i + 1
        i += 1
    return [*parts, pattern[last:]]


# Per locale, for tests and evidence; search them in lowercased text (``pattern.search(text.lower())``).
HARD: Mapping[str, re.Pattern[str]] = MappingProxyType({k: _compile(v[0]) for k, v in _PATTERNS.items()})
SOFT: Mapping[str, re.Pattern[str]] = MappingProxyType({k: _compile(v[1]) for k, v in _PATTERNS.items()})
# Every locale's patterns at once: a reply may refuse in another language than the one it was asked in.
REFUSAL_RE = _compile(tuple(p for hard, soft in _PATTERNS.values() for p in (*hard, *soft)))
# The same, grouped by script, each searched only when the window has a letter of that script.
_GROUPS = {"cyrillic": ("ru", "uk"), "cjk": ("ja", "ko", "zh-Hans", "zh-Hant")}
_BY_SCRIPT: tuple[tuple[re.Pattern[str], re.Pattern[str], int], ...] = tuple(
    (
        re.compile(trigger),
        _compile(
            tuple(p for code, (hard, soft) in _PATTERNS.items() if code in codes for p in (*hard, *soft)),
            word_start=codes is not _GROUPS["cjk"],
        ),
        CJK_WINDOW_CHARS if codes is _GROUPS["cjk"] else REFUSAL_WINDOW_CHARS,
    )
    for trigger, codes in (
        ("[a-zà-ÿ]", tuple(c for c in _PATTERNS if c not in _GROUPS["cyrillic"] + _GROUPS["cjk"])),
        ("[а-яёіїєґ]", _GROUPS["cyrillic"]),
        ("[\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7a3]", _GROUPS["cjk"]),
    )
)


# Quoted speech and dialogue lines are the story's characters talking ("„Nie napiszę tego listu", powiedziała.",
# "— Я не буду это писать, — сказала она.", "'I'm sorry,' she whispered, 'I can't help you.'"): a refusal
# is the host speaking, so it is looked for only outside them. A quote opens at a quotation mark that
# starts a word and runs to its closing mark or the end of the paragraph; a line that opens with a dash is
# dialogue to its end.
_QUOTED = re.compile(
    r"[\"“”„«»‹›「『](?:[^\"“”„«»‹›」』\n]|\n(?!\n))*(?:[\"“”«»‹›」』]|$|(?=\n\n))"
    r"|(?:(?<=^)|(?<=[\s(\[—–-]))['‘‚](?=\w)(?:[^'’\n]|['’](?=\w))*(?:['’]|$)"
    r"|(?:^|(?<=\n))[ \t]*[—–―][^\n]*",
    re.MULTILINE,
)


def unquoted(text: str) -> str:
    """``text`` with its quoted speech and dialogue lines blanked (same length, offsets kept).

    >>> unquoted("“I cannot help you,” she said.")
    '                     she said.'
    """
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), text)


def _search(lowered: str) -> list[re.Match[str]]:
    return [
        m
        for trigger, pattern, end in _BY_SCRIPT
        if trigger.search(lowered, 0, end) and (m := pattern.search(lowered, 0, end))
    ]


def find_refusal(text: str) -> str | None:
    """The refusal phrase (any locale, hard or soft) near the start of ``text``, outside quoted speech, or
    None.

    >>> find_refusal("抱歉，我无法继续这个场景。")
    '抱歉，我无法继续'
    >>> find_refusal('„Nie napiszę tego listu" — powiedziała i odłożyła pióro.') is None
    True
    """
    window = text[:REFUSAL_WINDOW_CHARS]
    lowered = window.lower()
    found = _search(lowered)
    if found and _QUOTED.search(window):  # quotes are blanked only when there is a phrase to place
        lowered = unquoted(window).lower()
        found = _search(lowered)
    if not found:
        return None
    match = min(found, key=lambda m: m.start())
    # lower() keeps the length except for a few letters (Turkish İ): then the lowercased phrase is shown
    return window[match.start() : match.end()] if len(lowered) == len(window) else match.group(0)
