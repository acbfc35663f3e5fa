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

import itertools
import re
from collections.abc import Mapping
from types import MappingProxyType

from exporter.language.scripts import CJK_LETTERS, HAN_KANA_LETTERS
from exporter.language.segment import END_MARK

REFUSAL_WINDOW_CHARS = 240  # refusals lead with their phrase; a story's dialogue comes later
CJK_WINDOW_CHARS = 80  # the same window in Chinese, Japanese, Korean: a character carries about 3 letters

# The writing verbs a decline names, per locale ({V} in the patterns below; {G} a gerund / participle where
# the grammar needs one). A soft decline is first person + a prefer-not / decline construction + one of
# these verbs (or a steer to another subject): "I'd rather not write", "Wolałbym tego nie pisać",
# "Dat schrijf ik liever niet", "書くのは控えます". In-story verbs (go, pass, let, fight) are not among them.
# A verb of going on followed by another verb's gerund goes on with that act, not with the writing: "Preferiría
# no seguir discutiéndolo", "no podemos continuar luchando", "I'd rather not continue fighting" ({K} after
# the locale's going-on verbs; a writing gerund, "seguir escribiendo", is still the task).
_GOING_ON_WITH = {
    "en": r"(?! (?!writ|describ|depict|portray|creat|generat|produc|narrat|tell)[a-z]+ing\b"
    r"| to (?!writ|describ|depict|portray|creat|generat|produc|narrat|tell|the\b|this\b|that\b|it\b)[a-z]+\b)",
    "es": r"(?! (?!escrib|describ|narr|relat|cre|gener|redact|desarroll|cont)\w+(?:ando|iendo|yendo|ándo|iéndo|yéndo)"
    r"\w{0,4}\b)",
    "pt-BR": r"(?! (?!escrev|descrev|narr|relat|cri|ger|redig|desenvolv|cont)\w+(?:ando|endo|indo)\b)",
}
# "Sorry, I can't help you any further": help that has been going on, a character parting from a person,
# not the host turning down a request ({M} after the help verb of the sorry-cannot-help refusals; German,
# Dutch, Polish, Russian and Ukrainian put "more" before the verb, where the patterns do not reach).
_NO_MORE_HELP = {  # not when the request follows: "I can't help you further with this request"
    "en": r"(?: you)?,? (?:any ?more|any further|further|again)\b(?! (?:with|on|in)\b)",
    "es": r"(?:te|le|les|os)? más\b(?! (?:con|en)\b)",
    "pt-BR": r"(?:-te|-lo|-la)? (?:(?:você|vocês) )?mais\b(?! (?:com|em|n[oa])\b)",
    "it": r"\w* più\b(?! (?:con|in)\b)",
    "id": r"(?:mu|nya)? (?:lagi|lebih jauh)\b(?! (?:dengan|untuk|soal)\b)",
    "vi": r" (?:\w+ ){0,2}nữa\b(?! (?:với|về)\b)",
}
_VERBS: dict[str, dict[str, str]] = {
    "en": {
        "V": r"(?:write|continue{K}|describe|depict|portray|create|generate|produce|narrate|proceed|go on{K}|"
        r"carry on{K}|engage|role-?play|take part|keep going|get into(?! my\b)|elaborate)",
        "G": r"(?:writing|continuing|describing|depicting|portraying|creating|generating|producing|narrating|"
        r"proceeding|going on|carrying on|engaging|role-?playing|taking part|getting into)",
    },
    "es": {
        "V": r"(?:escribir|continuar{K}|seguir{K}|describir|narrar|relatar|crear|generar|redactar|desarrollar)",
        "G": r"(?:escribiendo|continuando|siguiendo|describiendo|narrando|relatando|creando|generando|redactando)",
        "1": r"(?:escribo|sigo|continúo|describo|narro|relato|redacto)",
    },
    "pt-BR": {
        "V": r"(?:escrever|continuar{K}|seguir{K}|descrever|narrar|relatar|criar|gerar|redigir|desenvolver)",
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

for _code, _forms in _VERBS.items():
    for _name in _forms:
        _forms[_name] = _forms[_name].replace("{K}", _GOING_ON_WITH.get(_code, ""))

# Per locale: (hard, soft) pattern lists.
_PATTERNS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "en": (
        (
            r"\bI(?:'m| am)? (?:sorry|afraid)\b[^.!?]{0,40}\b(?:can(?:'|no)t|cannot|unable|won't|"
            r"will not)\b[^.!?]{0,30}"
            r"\b(?:help(?!{M})|assist|comply|continue|create|write|provide|generate|fulfil|engage)",
            r"\bI (?:can(?:'|no)t|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) "
            r"(?:help(?! \w+ing\b| but\b)|assist|comply|continue|fulfil+|engage|provide|create|generate|write|produce)\b.{0,40}"
            r"\b(?:this|that|request|content|violen\w*|graphic|role-?play|scene|story)",
            r"\bas an AI(?: language model)?\b",
            r"\b(?:against|violates?)\b[^.!?]{0,30}\b(?:guidelines|content polic(?:y|ies)|usage polic(?:y|ies))",
            r"\bi(?:'m| am) not (?:allowed|permitted) to (?:write|continue|create|help)\b|\boutside (?:my|"
            r"the) (?:content )?(?:guidelines|rules)\b",
        ),
        (
            r"\bI(?:'d| would) (?:rather|prefer) (?:to )?not (?:to )?{V}",
            r"\bI(?:'d| would) (?:rather|prefer to|like to) (?:skip|avoid|pass on|steer (?:away|clear)|not go there)",
            r"\bI(?:'m| am)(?: really| just)? not (?:really |entirely |quite |totally )?comfortable (?:with )?{G}",
            r"\bI (?:don't|do not) (?:really )?feel (?:comfortable|right|good) (?:about )?{G}",
            r"\bI(?:'m| am) not (?:going|willing|about) to {V}",
            r"\bI won't be {G}",
            r"\bI(?:'ll| will)(?: have to| need to| just| kindly| politely| respectfully)* (?:pass(?: on (?:this|"
            r"that|it|"
            r"writing)|[.,!;]| this time)|decline|sit this one out|skip (?:this|that))",
            r"\bI(?:'m| am) going to (?:have to )?(?:decline|pass on|sit this one out|step away from|skip (?:this|"
            r"that))",
            r"\bI (?:must|have to|need to)(?: respectfully| politely| kindly)? (?:decline|refuse|pass on)",
            r"\b(?:this|that|it)(?: is|'s) not (?:something|a scene|content|a story|"
            r"the kind of \w+) (?:that )?I(?:'m| am|'d| "
            r"would| feel)? (?:comfortable|willing|able|want|wish|like|can|care)",
            r"\b(?:let's|let us|can we|could we|how about we|maybe we could|shall we|why don't we) (?:change the "
            r"(?:subject|topic)|talk about something else|move on to something else|focus on something else|try "
            r"something (?:else|different))",
            r"\bleav\w*\b[^.!?]{0,30}\bto (?:your|the reader's|the readers'|our) imagination\b",
        ),
    ),
    "es": (
        (
            r"\bLo siento\b.{0,40}\bno (?:puedo|podré) (?:ayudar(?!{M})|continuar|crear|escribir|proporcionar|generar)",
            r"\bno puedo (?:ayudarte|ayudar|continuar|crear|escribir|generar) (?:con )?(?:eso|esto|este|esta|ese|esa)",
            r"\bno (?:estoy en condiciones|me es posible|soy capaz) de {V}",
            r"\bcomo (?:una )?(?:IA|inteligencia artificial|modelo de lenguaje|modelo de IA)\b|"
            r"\bcomo (?:un )?asistente (?:de IA|virtual|de inteligencia artificial)\b",
            r"\b(?:va en contra de|viola|infringe)\b[^.!?]{0,30}\b(?:directrices|políticas|normas (?:que sigo|de contenido))",
            r"\b(?:contrari\w+|incumple)\b[^.!?]{0,30}\b(?:directrices|normas|políticas|pautas)\b",
            r"\bno (?:me está permitido|tengo permitido)\b",
        ),
        (
            r"\b(?:prefiero|preferiría|preferiria|me gustaría|quisiera) no (?:\w+ )?{V}",
            r"\bno me siento (?:cómod[oa]|a gusto|bien|tranquil[oa])(?: \w+){0,2} (?:{G}|{V})",
            r"\b(?:paso|voy a pasar) de (?:\w+ ){0,2}(?:escena|esto|eso|{V})",
            r"\b(?:debo|tengo que|voy a|he de|me veo obligad[oa] a|prefiero) (?:declinar|rechazar|negarme)",
            r"\bno es algo (?:que|con lo que) (?:me guste|quiera|me sienta \w+|pueda|esté dispuest[oa] a)(?: \w+)? {V}",
            r"\bmejor no {1}",
            r"\b(?:cambiemos|cambiamos|cambiar) de tema|\bhablemos de (?:otra cosa|algo más)|\bhablamos de otra cosa",
            r"\b(?:dejo|dejamos|dejemos|dejaré|dejaría)\b[^.!?]{0,30}\b(?:a )?(?:tu|su|la) imaginación\b",
        ),
    ),
    "pt-BR": (
        (
            r"\b(?:Desculpe|Sinto muito|Lamento)\b.{0,40}\bnão (?:posso|consigo|poderei) (?:ajudar(?!{M})|continuar|criar|"
            r"escrever|fornecer|gerar)",
            r"\bnão (?:posso|consigo) (?:ajudar|continuar|criar|escrever|gerar) (?:com )?(?:isso|isto|esse|essa|este|"
            r"esta)",
            r"\bcomo (?:uma )?(?:IA|inteligência artificial|modelo de linguagem)\b|"
            r"\bcomo (?:um )?assistente (?:de IA|virtual|de inteligência artificial)\b",
            r"\b(?:vai contra|viola)\b[^.!?]{0,30}\b(?:diretrizes|políticas|regras (?:que sigo|de conteúdo))",
            r"\b(?:contraria|fere|infringe)\b[^.!?]{0,30}\b(?:diretrizes|políticas|regras|normas)\b",
            r"\bnão é possível atender\b|\bnão (?:me é permitido|tenho permissão)\b",
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
            r"\b(?:deixo|deixamos|deixemos|vou deixar)\b[^.!?]{0,30}\b(?:à|a) (?:sua|tua) imaginação\b",
        ),
    ),
    "fr": (
        (
            r"\b(?:Je suis désolée?|Désolée?)\b.{0,40}\bje ne (?:peux|pourrai) pas (?:vous aider|t'aider|t’aider|"
            r"aider|continuer|créer|écrire|fournir|générer)",
            r"\bje ne (?:peux|vais) pas (?:écrire|continuer|créer|générer|poursuivre) (?:ce|cette|cela|ça)",
            r"\bje ne suis pas en mesure d['’](?:écrire|aider|créer|générer)|\bje ne suis pas en mesure de {V}",
            r"\ben tant qu[’']?(?:IA|intelligence artificielle|modèle de langage)\b|"
            r"\ben tant qu[’']assistante? (?:IA|d['’]IA|virtuel\w*)\b",
            r"\bje ne suis pas autorisée? à {V}",
            r"\b(?:va à l['’]encontre d|enfreint|viole)[^.!?]{0,30}\b(?:directives|politiques|règles (?:que je|"
            r"de contenu))",
            r"\b(?:va à l['’]encontre d|enfrei\w+|contraire à)[^.!?]{0,30}\b(?:consignes|directives|règles)\b",
            r"\bil m['’]est impossible d(?:e|['’])|\bje n['’]ai pas le droit d",
        ),
        (
            r"\b(?:je (?:préfère|préférerais|préfèrerais|voudrais|souhaite|souhaiterais)|"
            r"j['’]aimerais mieux) ne pas {V}",
            r"\bje (?:ne me sens|ne suis) pas (?:très |vraiment )?à l['’]aise\b.{0,25}(?:{V}|d['’]écrire)",
            r"\bje (?:vais|préfère|préférerais|laisse) passer mon tour",
            r"\bje (?:dois|vais|me permets de|préfère|préférerais|vais devoir) (?:refuser|décliner)",
            r"\bce n['’]est pas (?:quelque chose|le genre de \w+|une scène) (?:que|qu['’]).{0,30}(?:{V}|d['’]écrire)",
            r"\b(?:changeons de sujet|parlons (?:plutôt )?d['’]autre chose|si on parlait d['’]autre chose|"
            r"on change de sujet)",
            r"\b(?:je laisse|laissons|je vais laisser)\b[^.!?]{0,30}\bà (?:ton|votre) imagination\b",
        ),
    ),
    "de": (
        (
            r"\b(?:(?:Es )?tut mir leid|Entschuldigung|Leider)\b.{0,40}\bkann (?:ich )?(?:dabei |damit |Ihnen |dir |"
            r"das |dies |so |diese[nsm]? \w+ )*(?:nicht|keine) (?:helfen|fortfahren|erstellen|schreiben|weitermachen|"
            r"liefern)",
            r"\b(?:ich kann|ich werde) (?:diese[nsm]? |das |so etwas )?(?:Szene |Inhalte? |"
            r"Anfrage )?nicht (?:schreiben|fortsetzen|erstellen|erfüllen)",
            r"\bals (?:eine )?(?:KI|künstliche Intelligenz|Sprachmodell)\b|"
            r"\bals (?:ein |eine )?(?:virtuelle[rn]? |digitale[rn]? )(?:KI-)?assistent",
            r"\b(?:verstößt gegen|widerspricht)\b[^.!?]{0,30}\b(?:Richtlinien|Inhaltsregeln|Regeln, (?:die|"
            r"an die) ich)",
            r"\b(?:dabei|damit|hierbei|hiermit) kann ich (?:dir |ihnen |euch )?(?:leider )?nicht helfen\b|"
            r"\bich kann (?:dir |ihnen |euch )?(?:leider )?(?:dabei|damit|hierbei|hiermit) nicht helfen\b",
            r"\b(?:anfrage|bitte|aufgabe|inhalte?)\b[^.!?]{0,20}\bdarf ich (?:[\wäöüß]+ ){0,2}nicht\b|"
            r"\bich darf (?:[\wäöüß]+ ){0,3}nicht (?:schreiben|erstellen|bearbeiten|erfüllen)\b",
            r"\b(?:verstößt gegen|widerspricht|verletzt)\b[^.!?]{0,30}\w*(?:richtlinien|regeln|vorgaben)\b",
            r"\b(?:das|dies) ist mir (?:leider )?nicht möglich\b|\bist mir (?:das|dies) (?:leider )?nicht möglich\b",
        ),
        (
            r"\bich\b(?: [\wäöüß]+){0,3} lieber nicht (?:[\wäöüß]+ ){0,2}{V}",
            r"\b{1} ich\b(?: [\wäöüß]+){0,2} lieber nicht|\bich {1}\b(?: [\wäöüß]+){0,3} lieber nicht",
            r"\bich möchte(?: [\wäöüß]+){0,3} nicht {V}",
            r"\b(?:ich fühle mich|mir ist)(?: [\wäöüß]+){0,2} nicht wohl\b.{0,40}{Z}",
            r"\bich verzichte (?:lieber |gern )?(?:auf|darauf)",
            r"\bda passe ich\b|\bich passe (?:lieber|hier|diesmal)\b",
            r"\b(?:muss|möchte|werde|würde) ich(?: [\wäöüß]+){0,2} ablehnen|\bich (?:muss|möchte|"
            r"werde)(?: [\wäöüß]+){0,3} ablehnen",
            r"\bdas ist (?:nichts|keine \w+), (?:was|die|das) ich (?:gerne? )?(?:schreibe|schreiben (?:möchte|will))",
            r"\b(?:lass uns|lassen Sie uns|wollen wir|sollen wir|können wir) (?:lieber )?(?:das Thema wechseln|"
            r"über etwas anderes (?:sprechen|reden))",
            r"\büberlasse\w*\b[^.!?]{0,30}\b(?:deiner|ihrer|eurer) (?:fantasie|phantasie|vorstellung\w*)\b",
        ),
    ),
    "it": (
        (
            r"\bMi dispiace\b.{0,40}\bnon (?:posso|potrò) (?:aiutar(?!{M})|continuar|crear|scriver|fornir|generar)",
            r"\bnon posso (?:scrivere|continuare|creare|generare) (?:questo|questa|quel|quella|ciò)",
            r"\bnon sono in grado di {V}",
            r"\bin quanto (?:IA|intelligenza artificiale|modello linguistico)\b|"
            r"\b(?:in quanto|come) (?:un )?assistente (?:IA|virtuale|di intelligenza artificiale)\b",
            r"\b(?:va contro|viola|è contrari[oa] al\w*)\b[^.!?]{0,30}\b(?:linee guida|politiche|regole (?:che seguo|"
            r"sui contenuti))",
            r"\bnon (?:mi è consentito|rientra (?:in|tra) ciò che mi è consentito)\b|\bnon posso aiutarti (?:con|"
            r"in) (?:questo|ciò)\b",
        ),
        (
            r"\b(?:preferirei|preferisco|vorrei|mi piacerebbe) non {V}",
            r"\bnon mi sento (?:a mio agio|a mia agio|tranquill[oa]|di)\b.{0,12}{V}",
            r"(?<![\w,;:] )passo[,.!]|\b(?:questa volta|stavolta|per questa volta) passo\b|\bpreferisco passare\b",
            r"\b(?:devo|dovrò|vorrei|preferisco) (?:rifiutare|declinare)",
            r"\bnon è qualcosa che(?: \w+){0,3} {V}",
            r"\beviterei di {V}|\bmeglio (?:che )?(?:io )?non {1}|\bmeglio di no\b",
            r"\b(?:cambiamo argomento|parliamo d['’]altro|parliamo di qualcos['’]altro|cambiare argomento\?)",
            r"\b(?:lascio|lasciamo|lascerei)\b[^.!?]{0,30}\balla (?:tua|vostra|sua) immaginazione\b",
        ),
    ),
    "nl": (
        (
            r"\b(?:Het spijt me|Sorry)\b.{0,40}\b(?:kan|wil) (?:ik )?(?:je |u )?(?:daar |"
            r"hier )?niet (?:mee )?(?:helpen|doorgaan|schrijven|maken|genereren)",
            r"\bik kan (?:deze|dit|die|zo'n) (?:scène |inhoud |verzoek )?niet (?:schrijven|voortzetten|maken)",
            r"\b(?:dit|dat|deze \w+) kan ik niet(?: \w+){0,2} (?:schrijven|maken|voortzetten)",
            r"\bals (?:een )?(?:AI|kunstmatige intelligentie|taalmodel)\b|\bals (?:een )?(?:virtuele|digitale) assistent",
            r"\b(?:is in strijd met|schendt|gaat in tegen)\b[^.!?]{0,30}\b(?:richtlijnen|beleid|regels die ik)",
            r"\b(?:daar|hier) kan ik (?:je |u )?niet (?:mee |bij )helpen\b",
            r"\b(?:verzoek|vraag|opdracht)\b[^.!?]{0,20}\bmag ik niet\b|\bik mag (?:\w+ ){0,3}niet (?:schrijven|"
            r"maken|uitvoeren)\b|\bbuiten mijn richtlijnen\b",
            r"\b(?:dat|dit) (?:gaat|zal) (?:me|mij) (?:\w+ )?niet lukken\b|\b(?:dat|dit) lukt (?:me|mij) (?:\w+ )?niet\b",
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
            r"\b(?:laat|laten)\b[^.!?]{0,30}\baan (?:je|jouw|uw) (?:verbeelding|fantasie)\b",
        ),
    ),
    "pl": (
        (
            r"\b(?:Przepraszam|Niestety|Przykro mi)\b.{0,40}\bnie (?:mogę|jestem w stanie) (?:pomóc|kontynuować|"
            r"napisać|stworzyć|wygenerować)",
            r"\bnie mogę (?:napisać|kontynuować|stworzyć|wygenerować) (?:tego|tej|takiej|takich)",
            r"\bnie jestem w stanie {V}",
            r"\bjako (?:AI|SI|sztuczna inteligencja|model językowy)\b|"
            r"\bjako (?:wirtualn\w+ )?asystent(?:ka)? (?:AI|SI|sztucznej inteligencji)\b",
            r"\bnie wolno mi {V}",
            r"\b(?:narusza|jest sprzeczne z)\b[^.!?]{0,30}(?:wytyczn\w*|zasad\w*,? (?:których|jakich) przestrzegam|"
            r"moimi zasadami)",
            r"\b(?:w tym|z tym)\b[^.!?]{0,25}\bnie mogę\b[^.!?]{0,10}\bpomóc\b|\bnie mogę\b[^.!?]{0,25}\b(?:w tym|"
            r"z tym)\b[^.!?]{0,10}\bpomóc\b|"
            r"\bnie mogę\b[^.!?]{0,10}\bpomóc\b[^.!?]{0,10}\b(?:w tym|z tym)\b",
            r"\bpozwalają mi (?:moje )?(?:zasady|wytyczne)\b|\bwykracza poza\b[^.!?]{0,40}\b(?:zasady|wytyczne)\b",
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
            r"\bzostaw\w*\b[^.!?]{0,30}\b(?:twojej|waszej|pana|pani) wyobraźni\b",
        ),
    ),
    "ru": (
        (
            r"(?:Извините|Простите|К сожалению|Прошу прощения).{0,40}не (?:могу|смогу) (?:помочь|продолжить|создать|"
            r"написать|выполнить)",
            r"\bя не (?:могу|буду) (?:писать|продолжать|создавать|написать|продолжить) (?:это|такую|такой|такие|эту)",
            r"\bя не в состоянии {V}",
            r"\bкак (?:ИИ|искусственный интеллект|языковая модель)\b|\bкак виртуальный (?:ассистент|помощник)\b",
            r"(?:нарушает|противоречит)[^.!?]{0,30}(?:мои|моим|мою|моей|наши|нашим|правила(?:м)?,? (?:которым|которых) я)",
            r"\b(?:с этим|в этом)\b[^.!?]{0,25}\b(?:не (?:могу|смогу)\b[^.!?]{0,10}\bпомочь|"
            r"помочь\b[^.!?]{0,10}\bне (?:могу|смогу))\b|"
            r"\bне (?:могу|смогу)\b[^.!?]{0,25}\bпомочь\b[^.!?]{0,10}\b(?:с этим|в этом)\b|\bне (?:могу|"
            r"смогу)\b[^.!?]{0,10}\b(?:с этим|в этом)\b[^.!?]{0,10}\bпомочь\b",
            r"\bмне не (?:разрешено|позволено)\b|\bвыходит за (?:рамки|пределы)\b[^.!?]{0,40}\b(?:правил|разрешено|"
            r"позволено)",
        ),
        (
            r"\bя бы (?:предпочёл|предпочел|предпочла|не хотел|не хотела)\b.{0,20}{V}",
            r"\bя не (?:хотел|хотела) бы(?: \w+)? {V}",
            r"\bмне (?:не хотелось бы|не хочется|некомфортно|неудобно|неловко)\b.{0,20}{V}",
            r"\bвоздержусь\b|\bпропущу (?:эту|этот|это|данную|данный) (?:сцену|эпизод|часть|фрагмент)",
            r"\b(?:вынужден|вынуждена|должен|должна|позвольте мне|я)(?: \w+)? отказаться",
            r"\bэто не то, (?:что|о чём|о чем)(?: \w+){0,3} {V}",
            r"\bлучше я не буду\b|\bя не буду (?:это |этого |такое )?{V}",
            r"(?:давайте|давай) (?:сменим тему|поговорим о (?:чём-то|чем-то|чём-нибудь|чем-нибудь) другом)|"
            r"\bсменим тему",
            r"\bостав\w*\b[^.!?]{0,30}\b(?:вашему|твоему) воображению\b",
        ),
    ),
    "uk": (
        (
            r"(?:Вибачте|Перепрошую|На жаль).{0,40}не (?:можу|зможу) (?:допомогти|продовжити|створити|написати|"
            r"виконати)",
            r"\bя не (?:можу|буду) (?:писати|продовжувати|створювати|написати|продовжити) (?:це|таку|такий|такі|цю)",
            r"\bя не в змозі {V}",
            r"\bяк (?:ШІ|штучний інтелект|мовна модель)\b|\bяк віртуальний (?:асистент|помічник)\b",
            r"(?:порушує|суперечить)[^.!?]{0,30}(?:мої|моїм|мою|моїй|наші|нашим|правила(?:м)?,? (?:яких|яким) я)",
            r"\b(?:з цим|в цьому)\b[^.!?]{0,25}\b(?:не (?:можу|зможу)\b[^.!?]{0,10}\bдопомогти|"
            r"допомогти\b[^.!?]{0,10}\bне (?:можу|зможу))\b|"
            r"\bне (?:можу|зможу)\b[^.!?]{0,25}\bдопомогти\b[^.!?]{0,10}\b(?:з цим|в цьому)\b|\bне (?:можу|"
            r"зможу)\b[^.!?]{0,10}\b(?:з цим|в цьому)\b[^.!?]{0,10}\bдопомогти\b",
            r"\bмені (?:не )?дозволено\b|\bвиходить за межі\b[^.!?]{0,40}\b(?:правил|дозволен|настанов)",
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
            r"\bзалиш\w*\b[^.!?]{0,30}\b(?:вашій|твоїй) уяві\b",
        ),
    ),
    "tr": (
        (
            r"\b(?:Üzgünüm|Maalesef|Özür dilerim)\b.{0,40}\b(?:(?<!artık )yardımcı olamam|devam edemem|yazamam|oluşturamam|"
            r"sağlayamam|yazamıyorum|yardımcı olamıyorum)",
            r"\b(?:bu|böyle|bu tür|bu türden|bu tarz)\b.{0,20}\b(?:yazamam|yazamıyorum|oluşturamam|oluşturamıyorum|"
            r"üretemem|devam edemem|devam edemiyorum|yerine getiremem)",
            r"\bbir (?:yapay zeka|dil modeli) olarak\b|\b(?:yapay zeka|ai) (?:asistanı|asistan|modeli) olarak\b",
            r"\b(?:{V}|yazma\w*) (?:için )?(?:iznim yok|izin verilmiyor|bana izin verilmiyor)",
            r"\b(?:yönergelerime|kurallarıma|politikalarıma|uyduğum (?:kurallara|yönergelere)) aykırı|"
            r"\b(?:politikam|politikalarım|kurallarım|yönergelerim|ilkelerim)\w* (?:aykırı|ihlal)",
            r"\b(?:bu konuda|bununla|buna|bunda)\b[^.!?]{0,20}\byardımcı olamam\b",
        ),
        (
            r"\b(?:yazmamayı|devam etmemeyi|anlatmamayı|sürdürmemeyi|betimlememeyi|tasvir etmemeyi) tercih (?:ederim|"
            r"ediyorum|edeceğim)",
            r"\b{V} (?:konusunda |için )?(?:kendimi )?rahat (?:hissetmiyorum|değilim)",
            r"\b(?:{V}|atlamak|pas geçmek) (?:istemiyorum|istemem|istemeyeceğim)|\b(?:atlamak|pas geçmek) istiyorum",
            r"\b(?:reddetmem gerekiyor|reddetmek zorundayım|reddetmek durumundayım|geri çevirmek zorundayım)",
            r"\b(?:yazmak|anlatmak) istediğim bir şey değil",
            r"\b(?:yazmasam|anlatmasam|devam etmesem) (?:daha )?iyi olur",
            r"\b(?:konuyu değiştirelim|başka bir şeyden bahsedelim|başka bir konu(?:ya geçelim| hakkında konuşalım)|"
            r"başka bir şey konuşalım)",
            r"\b(?:senin|sizin|okurun|okuyucunun) hayal gücüne bırak\w*",
        ),
    ),
    "id": (
        (
            r"\b(?:Maaf|Mohon maaf)\b.{0,40}\b(?:saya )?tidak (?:bisa|dapat) (?:membantu(?!{M})|melanjutkan|membuat|menulis|"
            r"memberikan)",
            r"\bsaya tidak (?:bisa|dapat|akan) (?:menulis|menuliskan|melanjutkan|membuat) (?:adegan |konten |"
            r"permintaan )?(?:itu|ini|seperti itu)",
            r"\bsebagai (?:AI|kecerdasan buatan|model bahasa)\b|\bsebagai (?:sebuah )?asisten (?:AI|virtual|kecerdasan buatan)\b",
            r"\bsaya tidak (?:diizinkan|diperbolehkan|boleh) (?:untuk )?{V}",
            r"\b(?:melanggar|bertentangan dengan) (?:pedoman|kebijakan|aturan (?:yang saya|konten))",
            r"\bsaya tidak (?:bisa|dapat) membantu (?:dengan )?(?:hal )?(?:ini|itu)\b",
        ),
        (
            r"\bsaya (?:lebih (?:suka|memilih|baik)|memilih) (?:untuk )?tidak {V}",
            r"\bsaya (?:tidak|kurang) (?:merasa )?nyaman (?:untuk |dengan |saat |ketika )?{V}",
            r"\bsaya (?:akan |mau )?(?:melewatkan|lewati|lewatkan)\b(?: \w+)? (?:adegan|bagian)",
            r"\bsaya (?:harus|terpaksa|perlu) menolak",
            r"\b(?:ini|itu) bukan (?:sesuatu|hal) yang (?:ingin|mau|bisa|nyaman) saya (?:tulis|lanjutkan|gambarkan)",
            r"\bsaya tidak (?:ingin|mau) {V}|\bsebaiknya saya tidak {V}",
            r"\b(?:mari kita|bagaimana kalau kita|gimana kalau kita) (?:ganti topik|mengganti topik|"
            r"membahas hal lain|bahas hal lain|bicara tentang hal lain)",
            r"\b(?:serahkan|serahkan saja|biarkan)\b[^.!?]{0,30}\b(?:ke |kepada |pada )?imajinasi\b",
        ),
    ),
    "vi": (
        (
            r"(?:Xin lỗi|Rất tiếc).{0,40}(?:tôi )?không thể (?:giúp(?!{M})|tiếp tục|tạo|viết|cung cấp)",
            r"\btôi không thể (?:viết|tiếp tục|tạo) (?:cảnh|nội dung|yêu cầu) (?:này|đó|như vậy|như thế)",
            r"\blà một (?:AI|trí tuệ nhân tạo|mô hình ngôn ngữ)\b|\b(?:là|với tư cách là) (?:một )?(?:trợ lý|mô hình) (?:AI|ảo|trí tuệ nhân tạo|ngôn ngữ)\b",
            r"\btôi không được phép {V}",
            r"(?:vi phạm|đi ngược lại) (?:nguyên tắc|chính sách|quy định)",
            r"\btôi không thể giúp (?:bạn )?(?:việc|điều|chuyện) (?:này|đó)\b",
        ),
        (
            r"\btôi (?:xin phép|xin|muốn|sẽ|chọn) không {V}",
            r"\btôi không (?:thoải mái|thấy thoải mái|muốn)\b.{0,12}{V}",
            r"(?<!chúng )\btôi (?:xin |phải |đành |xin phép )?từ chối",
            r"\btôi (?:xin |sẽ )?bỏ qua (?:cảnh|phần|đoạn)",
            r"(?:đây|điều này|đó) không phải (?:là )?(?:điều|thứ|nội dung) (?:mà )?tôi muốn {V}",
            r"\btốt hơn (?:là )?(?:tôi|mình) không {V}|\btôi nghĩ (?:mình|tôi) không nên {V}",
            r"\btôi xin phép dừng lại",
            r"(?:chúng ta|mình|hãy) (?:hãy )?(?:đổi chủ đề|nói về chuyện khác|nói chuyện khác)",
            r"\bđể (?:dành )?(?:cho )?(?:trí tưởng tượng|sự tưởng tượng)\b",
        ),
    ),
    "ja": (
        (
            r"(?:申し訳(?:ありません|ございません)|すみません|ごめんなさい).{0,30}(?:できません|お応えできません|対応できません|お手伝いできません|書けません)",
            r"(?:この|その|こうした|そのような)(?:内容|シーン|場面|リクエスト|ご依頼)(?:は|には)(?:お応え|対応|お手伝い|作成)(?:でき|いたしかね)",
            r"(?:内容|場面|シーン|リクエスト|ご依頼|依頼|続き|これ|それ)(?:は|を)?(?:書け|書くことができ|続けられ|描け|書くことはでき)ません",
            r"AI(?:として|アシスタントとして)|言語モデルとして",
            r"(?:ガイドライン|ポリシー|規約)に(?:反|違反|抵触)",
        ),
        (
            r"{V}(?:の|こと)は(?:控え|遠慮|やめ|差し控え|気が進み|お断り|避け)",
            r"(?:書か|続け|描か|描写し|作成し)ない(?:で(?:おき|おこう)|ほうが(?:いい|よい|良い))",
            r"(?<!のは)(?<!ことは)(?:遠慮|お断り|パス)(?:させて|いたします|します|したい)|(?<!のは)(?<!ことは)控えたい",
            r"(?:書きたい|描きたい)(?:内容|もの|こと)ではありません",
            r"(?:別の|他の)話題(?:にしませんか|にしましょう|に移りませんか|はいかが)|話題を変え(?:ませんか|ましょう)",
            r"想像に(?:お任せ|任せ|委ね)",
        ),
    ),
    "ko": (
        (
            r"죄송(?:하지만|합니다|해요).{0,30}(?:수 없습니다|없어요|어렵습니다|어려워요)",
            r"(?:이런|그런|이|그|해당) (?:내용|장면|요청)(?:은|는|에는) (?:작성|도와|계속|제공)(?:해 드릴|드릴|할) 수 없",
            r"(?:쓸|작성할|계속할|이어 쓸|묘사할) 수 없(?:습니다|어요)",
            r"AI로서|인공지능으로서|언어 모델로서|(?:AI|인공지능) ?(?:어시스턴트|비서|도우미|모델)로서",
            r"(?:가이드라인|정책|규정)에 (?:위배|어긋)|(?:가이드라인|정책|규정)을 위반",
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
            r"상상에 맡",
        ),
    ),
    "zh-Hans": (
        (
            r"(?:抱歉|对不起|很抱歉|不好意思).{0,20}(?:无法|不能|没办法|没法)(?:提供|协助|满足|继续|完成|生成|帮助|创作|撰写|写)",
            r"我(?:无法|不能|不会|没法|没办法)(?:写|创作|继续|生成|提供)(?:这|此)",
            r"(?:作为|身为)(?:一个)?(?:AI|人工智能|语言模型)",
            r"(?:违反|违背)了?[^。！？，]{0,10}(?:政策|准则|规范)|(?:违反|违背)了?(?:我的|相关|内容|使用|平台)[^。！？]{0,8}(?:规定|原则)",
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
            r"留给(?:读者|你)(?:去)?想象",
        ),
    ),
    "zh-Hant": (
        (
            r"(?:抱歉|對不起|很抱歉|不好意思).{0,20}(?:無法|不能|沒辦法|沒法)(?:提供|協助|滿足|繼續|完成|生成|幫助|創作|撰寫|寫)",
            r"我(?:無法|不能|不會|沒法|沒辦法)(?:寫|創作|繼續|生成|提供)(?:這|此)",
            r"(?:作為|身為)(?:一個)? ?(?:AI|人工智慧|人工智能|語言模型)",
            r"(?:違反|違背)了?[^。！？，]{0,10}(?:政策|準則|規範)|(?:違反|違背)了?(?:我的|相關|內容|使用|平台)[^。！？]{0,8}(?:規定|原則)",
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
            r"留給(?:讀者|你)(?:去)?想像",
        ),
    ),
}


# -- A counter-offer without the graphic part ---------------------------------------------------------------
# A decline that names no first person still offers another version and says what it leaves out: "## A
# different approach … without the gore", "¿Y si en lugar del perro…? … no hace falta sangre", "Wat als het
# ding de hond heeft meegenomen? … Veel enger, en zonder bloed.", "换个方向如何：… 詭異，但沒有血。". Per locale
# (an offer of another version, the graphic part excluded): the offer opens the reply (it starts in the
# lead), the exclusion is anywhere in the window. Either alone is a story ("What if they come back?",
# "There was no blood on the floor").
_BLOODSHED = {  # blood and violence, not "graphic" or "explicit", which manuals use (sans interface graphique)
    "en": r"(?:gor(?:e|y)|blood(?:y|shed)?|gruesome|violen\w*|brutal\w*|mutilat\w*|grisly|carnage|splatter)",
    "es": r"(?:sangr\w*|violen\w*|brutal\w*|macabr\w*|gore|vísceras|mutilad\w*)",
    "pt-BR": r"(?:sangu\w*|sangr\w*|violên\w*|violent\w*|brutal\w*|gore)",
    "fr": r"(?:sang\w*|violen\w*|gore|brutal\w*|carnage|tripes|hémoglobine)",
    "de": r"(?:blut\w*|gewalt\w*|brutal\w*|gore|splatter)",
    "it": r"(?:sangu\w*|cruent\w*|violen\w*|brutal\w*|splatter|gore|truculen\w*)",
    "nl": r"(?:bloed\w*|geweld\w*|gruwel\w*|gore)",
    "pl": r"(?:krw\w*|drastyczn\w*|brutaln\w*|przemoc\w*|makabr\w*|gore)",
    "ru": r"(?:кров\w*|жесток\w*|натуралистичн\w*|насили\w*)",
    "uk": r"(?:кров\w*|жорсток\w*|натуралістичн\w*|насильств\w*)",
    "tr": r"(?:kan\w*|vahşet\w*|şiddet\w*|gore)",
    "id": r"(?:berdarah|darah|sadis|kekerasan|gore)",
    "vi": r"(?:máu|bạo lực|ghê rợn|tàn bạo)",
    # blood as a word of its own, not a syllable or a character of another word (피할 수 없는, 血統書)
    "ja": r"(?:残酷|残虐|流血|血まみれ|血(?=[なはがをの、。]|$)|グロ|生々し|暴力)",
    "ko": r"(?:잔인|잔혹|(?<![가-힣])피(?:가|를|는|도|범벅)?(?![가-힣])|유혈|고어|폭력)",
    "zh-Hans": r"(?:血腥|血(?=[，。！？、的了]|$)|残忍|暴力)",
    "zh-Hant": r"(?:血腥|血(?=[，。！？、的了]|$)|殘忍|暴力)",
}
_COUNTER_OFFER: dict[str, tuple[str, str]] = {
    "en": (
        r"\b(?:what if|how about|(?:a )?different (?:approach|angle|take|direction|idea)|"
        r"alternatives?|alternatively|suggestions?|proposal|another (?:idea|option|version|way))\b",
        r"\b(?:without|no|minus)\b(?: [\w'-]+){0,2}? {B}\b|"
        r"\bwithout (?:showing|describing|depicting)\b(?! (?:her|his|their|my|your|its|our)\b)",
    ),
    "es": (
        r"(?:¿y si\b|\bqué tal si\b|\bpropuesta\b|\balternativ\w*|\botra (?:idea|opción|"
        r"versión|forma)\b|\bsugerencia)",
        r"\b(?:sin|ni|nada de|no hace falta|menos)\b(?: \w+){0,2}? {B}|"
        r"\bsin (?:mostrar|describir|enseñar)\b(?! (?:su|sus|mi|mis|tu|tus)\b)",
    ),
    "pt-BR": (
        r"\b(?:e se\b|que tal\b|proposta\b|alternativ\w*|outra (?:ideia|opção|versão|forma)\b|"
        r"sugestão)",
        r"\b(?:sem|nada de|menos|não precisa de)\b(?: \w+){0,2}? {B}|\bsem (?:mostrar|descrever)\b(?! (?:seu|sua|seus|suas|meu|minha)\b)",
    ),
    "fr": (
        r"\b(?:et si\b|autre (?:piste|idée|option|approche|version)\b|quelques idées\b|"
        r"alternativ\w*|proposition\b|suggestion)",
        r"\b(?:sans|pas (?:de |d['’]|une goutte de )|ni|moins de)(?: \w+){0,2}? ?{B}|\bsans (?:montrer|décrire)\b(?! (?:son|sa|ses|mon|ma|mes|leur|leurs)\b)",
    ),
    "de": (
        r"\b(?:was wäre, wenn|wie wäre es|vorschlag\w*|alternativ\w*|andere (?:idee|"
        r"variante|version)\b)",
        r"\b(?:ohne|statt|kein\w*)\b(?: [\wäöüß]+){0,2}? {B}|\bohne (?:\w+ )?zu (?:zeigen|beschreiben)\b",
    ),
    "it": (
        r"\b(?:e se\b|che ne dici|proposta\b|alternativ\w*|un['’]idea diversa|altra (?:idea|versione)\b|"
        r"suggeri\w*)",
        r"\b(?:senza|niente|nessun\w*)\b(?: \w+){0,2}? {B}|\bsenza (?:mostrare|descrivere)\b(?! (?:il suo|la sua|i suoi|le sue|il mio|la mia)\b)",
    ),
    "nl": (
        r"\b(?:wat als|hoe zou|voorstel\w*|alternatie\w*|ander idee|andere (?:versie|aanpak)\b)",
        r"\b(?:zonder|geen)\b(?: [\w'’]+){0,2}? {B}|\bzonder (?:\w+ )?te (?:tonen|beschrijven)\b",
    ),
    "pl": (
        r"\b(?:a gdyby|co powiesz|propozycj\w*|alternatyw\w*|coś innego|inn\w* (?:pomysł|wersj)\w*|"
        r"zaproponuję)",
        r"\b(?:bez|żadn\w*)\b(?: \w+){0,2}? {B}|\b{B} (?:brak|nie ma)\b|\bbez (?:pokazywania|opisywania)\b",
    ),
    "ru": (
        r"\b(?:а что если|что если|как насч[её]т|предлож\w*|альтернатив\w*|друг\w* (?:поворот|вариант|"
        r"верси)\w*)",
        r"\b(?:без|никак\w*)\b(?: \w+){0,2}? {B}|\b{B} нет\b|\bне (?:показывая|описывая)\b",
    ),
    "uk": (
        r"\b(?:а що як|що як|як щодо|запропон\w*|альтернатив\w*|інш\w* (?:поворот|варіант|верси)\w*)",
        r"\b(?:без|жодн\w*)\b(?: \w+){0,2}? {B}|\b{B} немає\b|\bне (?:показуючи|описуючи)\b",
    ),
    "tr": (
        r"\b(?:bunun yerine|peki ya|ne dersin|öneri\w*|alternatif\w*|başka bir (?:fikir|versiyon|yol)\b|"
        r"kısaca)",
        r"\b{B}(?:siz\w*| yok\b| olmadan\b)|\b(?:göstermeden|betimlemeden)\b",
    ),
    "id": (
        r"\b(?:bagaimana kalau|gimana kalau|atau begini|alternatif\w*|usul\w*|"
        r"pilihan lain)",
        r"\b(?:tanpa|tidak ada)\b(?: \w+){0,2}? {B}|\btanpa (?:menunjukkan|memperlihatkan|menggambarkan)\b",
    ),
    "vi": (
        r"\b(?:hay là|hay để|thử hướng khác|hướng khác|cách (?:kể|viết) khác|gợi ý|phương án)",
        r"\b(?:không (?:cần|có)|bỏ)\b(?: \w+){0,2}? {B}|\bkhông (?:miêu tả|mô tả|tả) trực tiếp\b",
    ),
    "ja": (
        r"代わりに、|どうでしょう|いかがでしょう|別の(?:案|場面|方向)|提案",
        r"{B}[^。]{0,6}?(?:なし|抜き|せず|避け)|直接の?描写は?(?:しません|せず|なし|しない)",
    ),
    "ko": (
        r"대안|어떨까요|어떠세요|다른 (?:장면|방향|방식)|제안",
        r"{B}[^.!?。]{0,6}?(?:없이|없는|빼고)|직접(?:적인)? 묘사(?:는|를)? ?(?:하지 않|없이|안 )",
    ),
    "zh-Hans": (
        r"换个|要不要|怎么样|改成|改写|供你参考|不如",
        r"(?:不用|没有|不要|无需|不见)[^。！？]{0,4}?{B}|{B}[^。！？]{0,8}?(?:就不|不在考虑)|不用?直接(?:描写|写)",
    ),
    "zh-Hant": (
        r"換個|要不要|怎麼樣|改成|改寫|供你參考|不如",
        r"(?:不用|沒有|不要|無需|不見)[^。！？]{0,4}?{B}|{B}[^。！？]{0,8}?(?:就不|不列)|不用?直接(?:描寫|寫)",
    ),
}
_COUNTER_OFFER = {
    code: (offer, without.replace("{B}", _BLOODSHED[code]))
    for code, (offer, without) in _COUNTER_OFFER.items()
}

# -- Composed soft declines ---------------------------------------------------------------------------------
# A decline names the task, not the world: the host turns down *the scene, the story, this part, writing it*
# in its own voice. So besides the constructions above, a sentence near the start is a soft decline when it
# holds, in any order, (1) a first-person avoidance predicate of the locale (``core``: prefer not, not
# comfortable, skip, pass, decline, stop here, will not, not the one to …), (2) a word for the task
# (``topic``: the locale's writing verbs and the nouns a reply uses for what it was asked: scene, story,
# part, chapter, request, content, storyline, details) and, where the language marks its subject with a
# pronoun (``self``: en, de, nl, fr, id, vi), that pronoun. German and Dutch put the finite verb second:
# "Diese Szene schreibe ich lieber nicht", "Hier sla ik liever een beurt over", "Mit dieser Szene fühle ich
# mich nicht wohl": the core is the verb phrase (lieber nicht, nicht wohl, überspringe, sla … over) wherever
# the fronted object, the verb and the subject stand, and the subject is any "ich"/"ik" of the sentence.
# Chinese frames a soft stop with 就不…了 / 还是不…了 / 不打算…了 around any verbs ("这个场景我就不继续写了").
# A sentence with a reporting clause ("…, Mara decided", "…, pensó Lucía", "…、と彼女は言った") is a
# character talking, not the host.
_COMPOSED: dict[str, tuple[str | None, str, str]] = {
    "en": (
        r"\b(?:i|i'm|i'd|i'll|i've|me|my|let's)\b",
        r"\b(?:rather|prefer|sooner)(?: \w+)? not\b|\brather (?:we|you) (?:didn't|did not|not|skip|leave)\b|"
        r"\b(?:prefer|like|love|want|have|need|going) to (?:\w+ )?(?:skip|avoid|pass|leave|sit|step|steer|stay away|"
        r"hold off|bow out|decline|stop|refrain)\b|\bnot (?:\w+ )?(?:comfortable|keen|willing|the right one|"
        r"the best one|something i|a (?:scene|story|thing) i)\b|\b(?:don't|do not|didn't) (?:\w+ )?(?:want|wish|"
        r"think i should|think i'm|feel (?:comfortable|right|good)|plan|intend)\b|\b(?:uncomfortable|uneasy|"
        r"hesitant|reluctant)\b|\b(?:i'll|i will|i'm going to|let me)(?: \w+){0,2} (?:skip|pass|decline|bow out|"
        r"sit (?:this|that)|step (?:back|away)|stop|hold off|leave (?:this|that|it))\b|\bfeel better not\b|"
        r"\bisn't something|\bis not something|\bnot something i\b|\b(?:isn't|is not|not) (?:one|"
        r"a thing) (?:that )?i\b|"
        r"\bnot up (?:for|to)\b|\bcount me out\b|\bi (?:\w+ )?refuse\b|\bsit(?:ting)? (?:\w+ ){0,2}out\b|\brefrain\b|\bi (?:won't|will not|"
        r"can't|cannot)\b|"
        r"\bi(?:'m| am) (?:unable|not able)\b|\bunwritten\b|"
        r"\blet's (?:\w+ )?(?:skip|leave out|gloss over)\b|\blet's leave\b[^.!?]{0,25}\bout\b|"
        r"\bnot (?:really )?my (?:thing|cup of tea)\b|\boutside (?:of )?what i(?:'m| am)? (?:comfortable|willing|"
        r"able)\b|\bstep out of character\b|"
        r"\b(?:not sure|unsure|don't know|do not know)(?: if| whether| that)? i (?:should|ought)\b|"
        r"\bbut (?:not|without) (?:with |for )?(?:this|that|the)\b",
        r"\b(?:scene|story|storyline|(?:this|that) part|chapter|request|content|prompt|role-?play|passage|plot|"
        r"this one|"
        r"that one|details|direction|writ(?:e|ing|ten)|describ(?:e|ing)|depict(?:ing)?|portray(?:ing)?|"
        r"narrat(?:e|ing)|continu(?:e|ing){K}|unwritten)\b|"
        r"\b(?:this|that) (?:bit|section|piece)\b|\brole\b",
    ),
    "es": (
        None,
        r"\b(?:prefiero|preferiría|preferiria|quisiera|me gustaría) (?:no|dejar\w*|omitir\w*|salt[aá]r\w*|evitar|"
        r"pasar)\b|\bno (?:lo |la |los |las |me |te )?(?:voy a|quiero|quisiera|pienso|me veo|me siento|"
        r"me apetece|me animo|estoy dispuest[oa]|sigo|escribo|continúo|escribiría|seguiría|continuaría|"
        r"escribiré|seguiré|continuaré)\b|\bme (?:la |lo |las |los )?(?:salto|paso|abstengo|abstendré)\b|\b(?:voy a|"
        r"debo|tengo que|prefiero) (?:declinar|rechazar|pasar|saltar|omitir)\b|"
        r"\bno es (?:para mí|algo que)|\bme (?:niego|rehúso)\b|\bmejor (?:me |lo |la )?(?:salto|paso|omito|dejo|no)\b|\bme temo que\b|"
        r"\bno (?:puedo|podré|soy capaz de|estoy en condiciones de)\b|"
        r"\b(?:dejemos|saltemos|omitamos|saltémonos)\b|\bme (?:resulta|parece|siento|es) (?:\w+ ){0,2}incómod[oa]\b|"
        r"\bme (?:la|lo|las|los) voy a (?:saltar|ahorrar|pasar)\b|\bno creo que (?:sea|deba|debería)\b|"
        r"\bno (?:sé|estoy segur[oa]) (?:si|de que) (?:debería|deba|debo)\b|"
        r"\bpero (?:no|sin) (?:esa|esta|ese|este|la|el)\b|\bno me meto\b",
        r"\b(?:escena|historia|(?:esta|esa) parte|capítulo|petición|solicitud|contenido|trama|detalles|relato|rumbo|"
        r"escribir\w*|escribo|escribiendo|describir\w*|describo|narrar\w*|continuar{K})\b|"
        r"\b(?:fragmento|papel|personaje|escriba|escribirla|escribirlo)\b",
    ),
    "pt-BR": (
        None,
        r"\b(?:prefiro|preferiria|preferia|gostaria de) (?:não|deixar|pular|evitar|passar|ficar de fora)\b|"
        r"\bnão (?:vou|quero|queria|pretendo|me sinto|estou (?:confortável|à vontade)|me vejo|é algo que eu)\b|"
        r"\b(?:vou|prefiro|acho melhor|melhor) (?:eu )?(?:pular|passar|recusar|declinar|ficar de fora|"
        r"deixar (?:de fora|de lado))\b|\bdeixa eu passar\b|\bficar de fora\b|\bme recuso\b|\brecuso-me\b|\bme abster\b|\bme abstenho\b|"
        r"\bnão (?:posso|consigo|poderei|sou capaz de)\b|"
        r"\b(?:vamos|bora) (?:pular|deixar|saltar|omitir)\b|\b(?:pulemos|deixemos)\b|\b(?:fico|me sinto|"
        r"estou)(?: \w+)? desconfortável\b|\bnão é o tipo de \w+ que eu\b|\bnão sou (?:a pessoa|o mais indicado|"
        r"a mais indicada)\b|\bdemais (?:pra|para) mim\b|"
        r"\bnão sei se (?:devo|deveria)\b|\bnão tenho certeza (?:se|de que) (?:devo|deveria)\b|"
        r"\bmas (?:não|sem) (?:essa|esta|esse|este|a|o)\b|\bnão é comigo\b|"
        r"\bnão me parece (?:certo|adequado|apropriado|correto)\b",
        r"\b(?:cena|história|(?:essa|esta|dessa|desta) parte|capítulo|pedido|solicitação|conteúdo|trama|detalhes|"
        r"relato|rumo|escrever\w*|"
        r"escrevo|escrevendo|descrever\w*|retratar|narrar|continuar{K})\b|"
        r"\b(?:trecho|papel|personagem|tema)\b",
    ),
    "fr": (
        r"\b(?:je|j['’]|me|m['’]|moi|laissons|sautons)",
        r"\bje (?:préfère|préférerais|préfèrerais|voudrais|souhaite|souhaiterais|vais|dois|vais devoir) "
        r"(?:ne pas|m['’]abstenir|éviter|passer|m['’]arrêter|laisser|décliner|refuser)\b|"
        r"\bj['’](?:aimerais|préférerais|préfèrerais)(?: mieux)? (?:éviter|ne pas|passer|laisser)\b|"
        r"\bm(?:e|['’]) (?:met|mettent|rend|rendent) (?:\w+ )?mal à l['’]aise|\bje ne (?:me sens|suis) pas "
        r"(?:très |vraiment )?à l['’]aise|\bje n['’]ai pas (?:vraiment |très )?envie\b|\bje ne (?:vais|veux|"
        r"souhaite|compte|tiens) pas\b|\bje ne (?:l['’]|le |la )?(?:écrirai|continuerai)\b|"
        r"\bje (?:décline|passe mon tour|m['’]abstiens|m['’]abstiendrai|m['’]arrête|préfère m['’]arrêter)\b|"
        r"\bje ne me vois pas\b|\btrès peu pour moi\b|\bje refuse\b|\bj['’]aime(?:rais)? mieux\b|"
        r"\bje (?:la |le |les )?laisse(?:rai|rais)? de côté\b|"
        r"\bce n['’]est pas\b[^.!?]{0,30}\bque (?:j['’]|je )|\bje (?:préfère|préférerais) (?:la |le |les )?laisser|"
        r"\bje ne (?:peux|pourrai) pas\b|"
        r"\b(?:laissons|sautons)\b|\bmal à l['’]aise\b|\bje (?:vais )?(?:la|le|les) passer\b|\bje (?:la|le|"
        r"les) passe\b|\bje ne me sens pas de\b|\bm['’]en abst\w+|"
        r"\bje ne suis pas (?:sûre?|certaine?) (?:de devoir|que je doive|qu['’]il faille)\b|"
        r"\bje ne sais pas si je (?:dois|devrais)\b|"
        r"\bmais (?:pas|sans) (?:cette|ce|cet|la|le)\b|\bce n['’]est pas (?:mon truc|pour moi|mon genre)\b|"
        r"\bje ne le sens pas\b",
        r"\b(?:scène|histoire|cette partie|chapitre|(?<!\bme )(?<!\bse )(?<!\bte )demande|contenu|intrigue|détails|passage|récit|voie|direction|"
        r"écrire|écrirai|écris|décrire|raconter|poursuivre|continuer)\b|"
        r"\b(?:rôle|personnage|morceau|extrait|fragment)\b",
    ),
    "de": (
        r"\b(?:ich|mir|mich|überspringen wir|lassen wir)\b",
        r"\blieber nicht\b|\bnicht gern\b|\bungern\b|\blieber (?:weg|aus|ab|sein|aussetzen|überspringen)\b|"
        r"\bnicht wohl\b|\bunwohl\b|\bpassen\b|\bpasse\b|\bverzichte\b|\babsehen\b|\bablehnen\b|\blehne\b|"
        r"\büberspringe\b|\baussetzen\b|\bauslassen\b|\blasse\b[^.!?]{0,25}\b(?:weg|aus)\b|"
        r"\b(?:möchte|will|werde|würde|kann|mag)\b(?: [\wäöüß]+){0,7} nicht\b|\bhalte\b[^.!?]{0,40}\bzurück\b|"
        r"\bmache\b[^.!?]{0,30}\bnicht mit\b|\bweigere\b|\b(?:kann|werde|möchte|will)(?: [\wäöüß]+){0,3}? kein(?:e|en|er)?\b|\baußerstande\b|\bnicht in der lage\b|"
        r"\bkein\w* [\wäöüß]+, (?:die|den|das) ich\b|\bliegt mir nicht\b|\bnichts für mich\b|"
        r"\bnicht (?:ganz |so |recht )wohl\b|\büberspringen wir\b|\blassen wir\b[^.!?]{0,30}\b(?:weg|aus)\b|"
        r"\bbin ich raus\b|\bich bin raus\b|\b(?:ziehe ich|ich ziehe)\b[^.!?]{0,20}\bgrenze\b|\b(?:schreibe|"
        r"beschreibe|schildere) ich\b(?: [\wäöüß]+){0,3} nicht\b|"
        r"\b(?:nicht sicher|weiß nicht), ob ich\b[^.!?]{0,40}\b(?:sollte|soll|darf)\b|"
        r"\baber (?:nicht|ohne) (?:diese[nsm]?|die|den|das)\b",
        r"\b(?:szene|geschichte|(?:diesen|diesem|den|dem) teil|kapitel|anfrage|inhalt|inhalte|handlung|details|"
        r"richtung|schreib\w*|"
        r"beschreib\w*|schilder\w*|weiterschreib\w*|fortsetz\w*|fortzusetz\w*|ausformulier\w*)\b|"
        r"\b\w+szene\b|\b(?:diesen|diesem) (?:abschnitt|part)\b|\brolle\b",
    ),
    "it": (
        None,
        r"\b(?:preferirei|preferisco|vorrei|mi piacerebbe) (?:non|evitare|lasciar\w*|saltar\w*|passare|"
        r"fermarmi)\b|\bnon (?:mi sento|me la sento|ho voglia|voglio|vorrei|intendo|lo scrivo|la scrivo|"
        r"scriverò|continuerò|posso|potrò|sono in grado|mi va)\b|\bmi fermerei\b|\bmi aster\w*|\bastenermi\b|"
        r"\blascerei\b|\bsalterei\b|\bmi rifiuto\b|\b(?:la|lo) salto\b|\bdeclino\b|"
        r"\bnon è (?:una|un|qualcosa)\b[^.!?]{0,25}\bche (?:mi|io)\b|\beviterei\b|\bmeglio (?:di no|non|"
        r"saltare|lasciar\w*)\b|"
        r"\b(?:saltiamo|lasciamo (?:perdere|stare|fuori))\b|\bmi sento\b[^.!?]{0,15}\ba disagio\b|"
        r"\bmi tiro indietro\b|\bnon (?:sono|credo di essere) (?:la persona giusta|il più adatto|la più adatta)\b|"
        r"\bnon so se (?:dovrei|devo)\b|\bnon sono sicur[oa] (?:di dover|che dovrei)\b|"
        r"\bnon (?:riesco|riuscirò|riuscirei) a (?:scriver|continuar|descriver|raccontar|proseguir)\w*|"
        r"\bma (?:non|senza) (?:questa|quella|questo|quello|la|il)\b",
        r"\b(?:scena|storia|(?:questa|quella) parte|capitolo|richiesta|contenuto|trama|dettagli|racconto|direzione|"
        r"scrivere|"
        r"scriverla|scriverlo|scrivo|descrivere|raccontare|proseguire|continuare)\b|"
        r"\b(?:brano|ruolo|personaggio|passaggio)\b",
    ),
    "nl": (
        r"\b(?:ik|me|mij|we)\b",
        r"\bliever niet\b|\bniet graag\b|\bliever (?:weg|over|af)\b|\bniet (?:prettig|op mijn gemak|"
        r"comfortabel)\b|\bik pas\b|\bpas ik\b|\bsla\b[^.!?]{0,25}\bover\b|\blaat\b[^.!?]{0,25}\bweg\b|"
        r"\bwijs\b[^.!?]{0,25}\baf\b|\b(?:wil|ga|zal|kan)\b(?: [\w'’]+){0,7} niet\b|\bgeen zin\b|"
        r"\blaat\b[^.!?]{0,40}\b(?:over|rusten)\b|\bgeen [\w'’]+ die ik\b|"
        r"\bzie (?:er )?van af\b|\bweiger\b|\b(?:ik (?:wil|ga|zal|kan)|(?:wil|ga|zal|kan) ik)(?: [\w'’]+){0,4}? geen\b|"
        r"\blaten we\b[^.!?]{0,30}\b(?:overslaan|weglaten)\b|\bniet (?:helemaal |zo |echt )(?:prettig|op mijn gemak|"
        r"comfortabel)\b|\bbegin ik niet aan\b|\bik begin (?:er )?niet aan\b|"
        r"\b(?:weet niet|niet zeker) of ik\b[^.!?]{0,30}\b(?:moet|zou moeten|mag)\b|"
        r"\bmaar (?:niet|zonder) (?:deze|die|de|het|dit|dat)\b|\bik stop (?:voordat|vóór|zodra|op het moment)\b|"
        r"\bdoe ik\b[^.!?]{0,15}\bniet mee\b|\bvalt buiten wat ik\b",
        r"\b(?:scène|verhaal|(?:dit|dat|het) deel|hoofdstuk|verzoek|inhoud|plot|details|richting|schrij\w*|beschrij\w*|"
        r"uitwerk\w*|vertel\w*|verdergaan|voortzetten|uitschrijven)\b|"
        r"\b(?:stukje|stuk|fragment|rol|passage)\b",
    ),
    "pl": (
        None,
        r"\bwolał\w*(?: \w+){0,2} nie\b|\bwolał\w* (?:pominąć|odpuścić|się)\b|\bwolę(?: \w+){0,2} nie\b|"
        r"\bwolę (?:się|pominąć|odpuścić)\b|\bnie (?:czuję się|"
        r"mam ochoty|chcę|chciał\w*|zamierzam|będę|napiszę)\b|\bpodziękuję\b|\bodpuszczę\b|\bodmawiam\b|\bodmówi\w*|"
        r"\bpomin\w*|\braczej nie\b|\bdaruję sobie\b|\b(?:zrezygnuję|rezygnuję)\b|\bto nie jest \w+, któr\w+ (?:chciał\w*|mi|"
        r"bym)|\bnie (?:mogę|jestem w stanie|potrafię)\b|"
        r"\b(?:pomińmy|zostawmy)\b|\b(?:mi|czuję się) (?:\w+ )?(?:nieswojo|niezręcznie)\b|\bopuszczę\b|"
        r"\bnie (?:wiem|jestem pewien|jestem pewna),? czy (?:powinienem|powinnam|mogę)\b|"
        r"\bnie dam rady\b|"
        r"\bale (?:bez|nie) (?:tej|tego|tę|tych)\b|\bale\b[^.!?]{0,40}— nie(?: bardzo)?\b(?=\s*[.!?;]|$)|\btak\b[^.!?]{0,30}— nie\b(?=\s*[.!?;]|$)",
        r"\b(?:scen\w*|histori\w*|fragment\w*|(?:tę|tej|tą) częś[ćci]|rozdzia\w*|prośb\w*|treś[ćci]\w*|wąt(?:ek|ku)|"
        r"szczegół\w*|pisać|napisać|napiszę|pisania|napisania|opisywać|opisać|opis|kontynuować)\b|"
        r"\b(?:kawał\w*|epizod\w*|rol[aęi])\b",
    ),
    "ru": (
        None,
        r"\b(?:предпочл[аи]?|предпочёл|предпочел|предпочту)\b[^.!?]{0,10}\bне\b|\bне (?:стану|буду|хочу|"
        r"хотел[аи]?|хочется|хотелось|готов[аы]?)\b|\bмне не (?:по себе|комфортно|удобно)\b|\bпропущу\b|"
        r"\bвоздержусь\b|\bоткажусь\b|\bотказываюсь\b|\bне возьмусь\b|\bнекомфортно\b|\bнеловко\b|\bбы\b[^.!?]{0,25}\bне (?:стал|"
        r"стала|писал|писала)\b|\bотказаться\b|\bостановлюсь\b|\bэто не т[аоу] \w+, \w+ (?:мне|я)\b|"
        r"\bне (?:могу|смогу|в состоянии)\b|"
        r"\b(?:опустим|пропустим)\b|\bопущу\b|\bмне (?:[\w-]+ )?не по себе\b|\bбез меня\b|"
        r"\bне (?:уверен|уверена|знаю)\b[^.!?]{0,20}\b(?:стоит|следует)\b|"
        r"\bно (?:без|не) (?:этой|этого|эту|этих)\b|\b(?:а|но) (?:вот )?[^.!?]{0,30}— нет\b",
        r"\b(?:сцен[аыуеой]\w*|истори[яиюей]\w*|(?:эту|этой) част[ьи]|глав[аыуе]\w*|запрос\w*|контент\w*|сюжет\w*|"
        r"(?:(?:сюжетн|эт)\w* )лини[юияей]\w*|подробност\w*|детал\w*|фрагмент\w*|писать|написать|напишу|описывать|описать|"
        r"продолжать|продолжить)\b|"
        r"\b(?:эпизод\w*|кус(?:ок|ка|очек)|рол[ьи])\b",
    ),
    "uk": (
        None,
        r"\bволі\w* б(?:и)? не\b|\bволів\b|\bне (?:стану|буду|хочу|хотів|хотіла|хочеться|хотілося)\b|"
        r"\bмені (?:ніяково|некомфортно|незручно)\b|\bпропущу\b|\bне візьмуся\b|\bнекомфортно\b|"
        r"\bб(?:и)?\b[^.!?]{0,25}\bне (?:став|стала|писав|писала)\b|\bутримаюс[яь]\b|\bвідмовлюс[яь]\b|\bвідмовляюс[яь]\b|"
        r"\bвідмовитис[яь]\b|\bзупинюс[яь]\b|\bце не т[аеу] \w+, \w+ (?:мені|я)\b|\bне (?:можу|зможу|в змозі)\b|"
        r"\b(?:пропустімо|пропустимо|опустімо)\b|\bмені (?:[\w-]+ )?ніяково\b|\bбез мене\b|\bб(?:и)? краще не\b|"
        r"\bне найкращ\w* (?:автор\w*|вибір)\b|"
        r"\bне (?:впевнений|впевнена|знаю)\b[^.!?]{0,20}\b(?:варто|слід|треба)\b|"
        r"\bале (?:без|не) (?:цієї|цього|цю|цих)\b|\b(?:а|але) (?:от )?[^.!?]{0,30}— ні\b",
        r"\b(?:сцен\w*|істор\w*|(?:цю|цієї) частин[уи]|розділ\w*|запит\w*|вміст\w*|сюжет\w*|(?:(?:сюжетн|ц)\w* )ліні[юї]|подробиц\w*|"
        r"деталі|фрагмент\w*|писати|написати|напишу|описувати|описати|продовжувати|продовжити)\b|"
        r"\b(?:епізод\w*|шмат\w*|рол[ьі])\b",
    ),
    "tr": (
        None,
        # the suffixes, tried at every word start, only on a word with an "m" (each of them has one)
        r"(?=\w*m)(?:\w+(?:meyeceğim|mayacağım|memeyi|mamayı)\b|\w+(?:sam|sem) (?:daha )?iyi olur\b|"
        r"\w{2,}(?:amam|emem|amıyorum|emiyorum|mayayım|meyeyim)\b)|\batla(?:yacağım|yayım|mak istiyorum)\b|"
        r"\bkaçın(?:acağım|ıyorum|ırım|mak istiyorum|mayı tercih ederim)\b|\brahat (?:hissetmiyorum|değilim)\b|"
        r"\b(?:uygun|doğru) gelmiyor\b|\biçimden gelmiyor\b|\bgönlüm razı değil\b|\b\w+(?:mayı|meyi) tercih (?:ederim|ediyorum)\b|"
        r"\bistemiyorum\b|"
        r"\bistemem\b|\bpas geçeceğim\b|\breddediyorum\b|\breddederim\b|\bvazgeçeceğim\b|\breddetmem\b|\brahatsız ediyor\b|\bgönlüm yok\b|"
        r"\bisteyeceğim bir \w+ değil|\bistediğim bir \w+ değil|\byardımcı olamam\b|"
        r"\batlayalım\b|\b(?:pas|es) geç\w*|\bbenim \w+(?:acağım|eceğim) bir \w+ değil\b|"
        r"\b(?:doğru olur mu|gerekir mi)\b[^.!?]{0,10}\b(?:bilmiyorum|emin değilim)\b|"
        r"\bama (?:bu|o|şu) \w+ (?:olmadan|hariç)\b|\bsınırlarım var\b|\bi\u0307?çim el vermiyor\b",
        r"\b(?:sahne\w*|hikâye\w*|hikaye\w*|bu kısm\w*|bölüm\w*|istek\w*|içeri\w*|ayrıntı\w*|detay\w*|"
        r"yazma\w*|yazam\w*|anlatma\w*|betimle\w*|devam|oluştur\w*)\b|"
        r"\b(?:bu|o|şu) (?:parça|kısım|kısm)\w*|\brol\w*|"
        r"\bkarakter\w*",
    ),
    "id": (
        r"\b(?:saya|aku|kita)\b",
        r"\b(?:lebih (?:memilih|suka|baik)|memilih) (?:untuk )?tidak\b|"
        r"\b(?:saya|aku)(?: \w+){0,2}? (?:tidak|kurang) (?:merasa )?nyaman\b|\benggan\b|\btidak (?:ingin|mau|akan)\b|"
        r"\b(?:lewati|lewatkan|melewatkan|lewat dulu)\b|"
        r"\bmenolak\b|\bberhenti di sini\b|\btidak (?:saya|aku|ku)\b|\b(?:tidak|kurang) berkenan\b|"
        r"\bbukan \w+ yang (?:ingin|mau)\b|\btidak (?:bisa|dapat|mampu)\b|"
        r"\b(?:skip|pass|lewati|lewatkan) (?:dulu|saja|aja)\b|\b(?:nggak|gak|enggak) (?:mau|ingin|bisa|nyaman)\b|"
        r"\b(?:tidak|kurang|nggak) yakin\b[^.!?]{0,15}\b(?:harus|perlu|sebaiknya|boleh)\b|"
        r"\btapi tanpa\b",
        r"\b(?:adegan|cerita\w*|bagian (?:ini|itu)|bab|permintaan|konten|alur|detail|tulis\w*|menulis\w*|lanjut\w*|"
        r"melanjutkan|menggambarkan|menceritakan)\b|"
        r"\b(?:tokoh|peran|memerankan)\b",
    ),
    "vi": (
        r"\b(?:tôi|mình|chúng ta)\b",
        r"\b(?:xin phép|xin|sẽ|muốn|chọn) không\b|\bkhông (?:muốn|thoải mái|định)\b|\bxin (?:được )?(?:bỏ qua|"
        r"kiếu|dừng|từ chối)|(?<!chúng )\b(?:tôi|mình)(?: \w+){0,2} (?:bỏ qua|từ chối)\b|"
        r"\bkhông phải (?:là )?\w+ (?:mà )?tôi muốn|"
        r"\b(?:tôi|mình)(?: \w+)? không thể\b|\bkhông tiện\b|\bnên dừng\b|"
        r"\b(?:làm (?:mình|tôi)|(?:mình|tôi) (?:thấy |cảm thấy )?)(?:hơi |khá |rất )?khó chịu\b|\blược (?:bớt|bỏ|"
        r"đi)\b|\bbỏ qua\b|"
        r"\bkhông chắc\b[^.!?]{0,15}\bnên\b|"
        r"\bkhông (?:\w+ ){1,2}được\b|"
        r"\bnhưng (?:không có|bỏ qua|trừ)\b|\btrừ (?:đoạn|phần|cảnh|chi tiết)\b|\bnghĩ (?:mình |tôi )?không nên\b",
        r"(?:cảnh|câu chuyện|truyện|phần (?:này|đó)|chương|yêu cầu|nội dung|mạch|chi tiết|viết|kể tiếp|miêu tả|mô tả|"
        r"tiếp tục)|"
        r"(?:đoạn|vai|nhân vật)",
    ),
    "ja": (
        None,
        r"(?:ない|ず)(?:でおき|でおこう|ことにし|ようにし(?!て)|ほうが)|控え(?!てい)|遠慮|見送ら|お断り|やめておき|やめて|"
        r"気が引け|気が進ま|気になれ|止めておき|省略させ|飛ばし|(?<![ァ-ヺー])パス(?:させ|し(?:ます|たい|て)|する|で(?=[…。！!、]|お願い|いい))|たい\w*ではありません|(?:でき|られ|(?<![受い])け)ません|かねます|"
        r"割愛|省略(?:し|させ|いた)|(?:書き|描き|続け|描写し)ません|"
        r"べきか(?:迷|悩|分かりません|わかりません)|"
        r"以外は|を除いて",
        r"(?:場面|シーン|物語|(?:この|その)(?:部分|お話|話)|部分は|章|リクエスト|依頼|内容(?!物)|描写|筋書|(?<!引き)続き|"
        r"(?<![\u3400-\u9fff])[書描](?=[\u3040-\u309f])(?!いてあ|かれ|き込))|"
        r"(?:一節|段落|役(?!に立|立))",
    ),
    "ko": (
        None,
        r"지 않(?:으려고|을게요|겠습니다|겠어요|으려 합니다)|망설여|자제하|그만두|멈추는 게|사양|"
        r"거절(?:하겠|할게|합니다|드립니다|해야)|(?:쓸|작성할|이어 ?갈|이어 ?쓸|계속할|묘사할|그릴|진행할|다룰|드릴) 수(?:가|는)? 없|"
        r"제가[^.!?。]{0,20}수(?:가|는)? 없|(?:쓰|작성하|이어가|이어 쓰|계속하|묘사하|그리|진행하|다루)기(?:가|는)? (?:좀 |조금 )?(?:어려|어렵|곤란|힘들)|"
        r"꺼려|꺼리|불편해|불편합|불편하네|"
        r"피하고 싶|넘기고 싶|건너뛰|넘어가|않는 게|싶은 [가-힣]+(?:이|가) 아니|"
        r"부담스럽|부담스러|패스(?:할게|하겠|할래|합니다)|안 [가-힣]+(?:았|었|였)으면|생략|"
        r"(?:이건|그건) (?:좀 )?아닌 것 같|"
        r"(?:도|해도) 될지 (?:잘 )?모르겠|"
        r"드리기(?:가|는)? (?:좀 )?(?:어렵|어려|곤란|힘들)|"
        r"만 (?:빼고|제외하고)|(?:저한테는|저에게는|제게는) (?:좀 |조금 )?(?:힘들|어렵|곤란)|(?:그건|이건) (?:좀 |조금 )?곤란",
        r"(?:장면|이야기|이 부분|요청|내용|콘텐츠|줄거리|묘사|전개|쓰|작성|이어)|"
        r"(?:대목|역할)|"
        r"캐릭터",
    ),
    # 戏/戲 is the task (a scene, one's part in a play) on its own, not inside 游戏/遊戲 (a game)
    "zh-Hans": (
        None,
        r"(?:就|还是|先|也)不[^。！？，]{0,8}了|不打算|(?<![你您他她它])不(?:太)?(?:想|愿意)|不参与|不展开|就此打住|略过|跳过|"
        r"为难|婉拒|我拒绝|不是我想|容我|我(?![们們])[^，。！？]{0,4}?(?:无法|不能|没办法|没法)|"
        r"(?:让我|我)[^。！？，]{0,6}不(?:舒服|自在)|(?:还是|就)算了|(?:就|还是|先|也)不[^。！？，]{0,8}啦|省略|"
        r"不确定(?:该不该|是否应该|要不要)|"
        r"(?:写|续写|继续|描写)不(?:了|出来)|"
        r"除了(?:这|那)|我(?:还是|就是|实在)?做不到|打算不",
        r"(?:场景|场面|故事|这部分|这一部分|这段|这一段|这一幕|章|请求|内容|情节|描写|写(?!着))|"
        r"(?:这|那)一?小?段|角色|(?<!游)戏",
    ),
    "zh-Hant": (
        None,
        r"(?:就|還是|先|也)不[^。！？，]{0,8}了|不打算|(?<![你您他她它])不(?:太)?(?:想|願意)|不參與|不展開|就此打住|略過|跳過|"
        r"為難|婉拒|我拒絕|不是我想|容我|不寫[^。！？]{0,4}比較好|我(?![们們])[^，。！？]{0,4}?(?:無法|不能|沒辦法|沒法)|"
        r"(?:讓我|我)[^。！？，]{0,6}不(?:舒服|自在)|(?:還是|就)算了|(?:就|還是|先|也)不[^。！？，]{0,8}啦|省略|"
        r"不確定(?:該不該|是否應該|要不要)|"
        r"(?:寫|續寫|繼續|描寫)不(?:了|出來)|"
        r"除了(?:這|那)|我(?:還是|就是|實在)?做不到|打算不",
        r"(?:場景|場面|故事|這部分|這一部分|這段|這一段|這一幕|章|請求|內容|情節|描寫|寫(?![著着]))|"
        r"(?:這|那)一?小?段|角色|(?<!遊)戲",
    ),
}


# A partial decline: the host offers the writing and keeps a graphic part out ("I'll write the scene, but
# without the gory details", "Escribo la escena, pero sin los detalles sangrientos", "Напишу сцену, но без
# кровавых подробностей", "場面は書きますが、残酷な部分は省きます"): a contrast, an exclusion and the locale's
# words for the graphic part (``_GRAPHIC``), added to the locale's cores (the task and, where the language
# marks it, the first person are still needed).
_GRAPHIC: dict[str, str] = {
    "en": r"(?:graphic|gor(?:e|y)|blood(?:y)?|explicit|gruesome|violen\w*|brutal\w*|cruel\w*|mutilat\w*|grisly)",
    "es": r"(?:sangr\w*|gráfic\w*|explícit\w*|violen\w*|crud\w*|brutal\w*|macabr\w*|gore)",
    "pt-BR": r"(?:sangr\w*|gráfic\w*|explícit\w*|violên\w*|violent\w*|brutal\w*|gore)",
    "fr": r"(?:sang\w*|graphique\w*|explicite\w*|violen\w*|gore|brutal\w*)",
    "de": r"(?:blut\w*|grafisch\w*|explizit\w*|gewalt\w*|brutal\w*|gore|drastisch\w*)",
    "it": r"(?:sangu\w*|cruent\w*|esplicit\w*|grafic\w*|violen\w*|brutal\w*|splatter|gore)",
    "nl": r"(?:bloed\w*|expliciet\w*|grafisch\w*|geweld\w*|gruwel\w*|gore)",
    "pl": r"(?:krw\w*|drastyczn\w*|brutaln\w*|przemoc\w*|makabr\w*|gore)",
    "ru": r"(?:кров\w*|жесток\w*|натуралистичн\w*|графичн\w*|насили\w*)",
    "uk": r"(?:крив\w*|кров\w*|жорсток\w*|натуралістичн\w*|насильств\w*)",
    "tr": r"(?:kan\w*|vahşet\w*|şiddet\w*|gore)",
    "id": r"(?:berdarah|darah|sadis|kekerasan|eksplisit|grafis|gore|bagian)",
    "vi": r"(?:máu me|bạo lực|ghê rợn|tàn bạo|phần|đoạn)",
    "ja": r"(?:残酷|残虐|流血|血|グロ|生々し|暴力|部分)",
    "ko": r"(?:잔인|잔혹|피|유혈|고어|폭력|수위|부분)",
    "zh-Hans": r"(?:血腥|残忍|暴力|部分)",
    "zh-Hant": r"(?:血腥|殘忍|暴力|部分)",
}
_PARTIAL: dict[str, str] = {
    "en": r"\b(?:but|though|although|just|only)\b[^.!?]{0,30}?\b(?:without|minus|leave out|leaving out|not|no|"
    r"skip\w*)\b(?: [\w'-]+){0,3}? {G}\b|\bminus (?:the |any )?{G}\b",
    "es": r"\b(?:pero|aunque|solo que|sólo que)\b[^.!?]{0,30}?\b(?:sin|no|dejo fuera|dejaré fuera|omito|omitiré)\b"
    r"(?: \w+){0,3}? {G}",
    "pt-BR": r"\b(?:mas|porém|só que|embora)\b[^.!?]{0,30}?\b(?:sem|não|deixo de fora|deixarei de fora|omito)\b"
    r"(?: \w+){0,3}? {G}",
    "fr": r"\b(?:mais|sauf)\b[^.!?]{0,30}?\b(?:sans|pas|je laisse de côté|j['’]omets|je passe sur)\b(?: \w+){0,3}? {G}",
    "de": r"\b(?:aber|allerdings|nur|jedoch)\b[^.!?]{0,30}?\b(?:ohne|nicht|keine?|lasse)\b(?: [\wäöüß]+){0,3}? {G}|"
    r"\b(?:aber|jedoch) nicht\s*(?=[.!?]|$)",
    "it": r"\b(?:ma|però|solo che)\b[^.!?]{0,30}?\b(?:senza|non|tralascio|ometto|salto)\b(?: \w+){0,3}? {G}",
    "nl": r"\b(?:maar|alleen)\b[^.!?]{0,30}?\b(?:zonder|niet|geen)\b(?: [\w'’]+){0,3}? {G}|\bmaar\b[^.!?]{0,40}"
    r"\bniet\s*(?=[.!?]|$)",
    "pl": r"\b(?:ale|tylko|jednak)\b[^.!?]{0,30}?\b(?:bez|nie|pominę)\b(?: \w+){0,3}? {G}|\bale nie\b(?: \w+)? "
    r"(?:część|fragment\w*|moment\w*)\b",
    "ru": r"\b(?:но|а|только)\b[^.!?]{0,30}?\b(?:без|не)\b(?: \w+){0,3}? {G}|\bно не то, что\b",
    "uk": r"\b(?:але|а|тільки)\b[^.!?]{0,30}?\b(?:без|не)\b(?: \w+){0,3}? {G}|\bале не те, що\b",
    "tr": r"\b(?:ama|fakat|ancak)\b[^.!?]{0,30}?{G}(?: \w+)? (?:olmadan|hariç)\b",
    "id": r"\b(?:tapi|namun|hanya)\b[^.!?]{0,30}?\b(?:tanpa|tidak|bukan)\b(?: \w+){0,3}? {G}",
    "vi": r"\b(?:nhưng|tuy nhiên)\b[^.!?]{0,30}?\b(?:bỏ qua|không|trừ|lược)\b(?: \w+){0,3}? {G}",
    "ja": r"(?:ますが|けど|けれど|ものの)、?[^。]{0,20}?{G}[^。]{0,10}?(?:省き|省略|割愛|書きません|控え|伏せ|ぼかし)",
    "ko": r"(?:지만|는데)[^.!?。]{0,20}?{G}[^.!?。]{0,10}?(?:빼|제외|생략|쓰지 않|안 쓰)",
    "zh-Hans": r"(?:但|不过|只是)[^。！？]{0,12}?{G}[^。！？]{0,6}?(?:不写|略过|省略|跳过|不展开|不描写)",
    "zh-Hant": r"(?:但|不過|只是)[^。！？]{0,12}?{G}[^。！？]{0,6}?(?:不寫|略過|省略|跳過|不展開|不描寫)",
}
_COMPOSED = {
    code: (
        me,
        core + "|" + _PARTIAL[code].replace("{G}", _GRAPHIC[code]),
        topic.replace("{K}", _GOING_ON_WITH.get(code, "")),
    )
    for code, (me, core, topic) in _COMPOSED.items()
}


# A preference, discomfort or avoidance predicate (``strong``, a subset of the cores: not "will not" or
# "cannot", which a character says about anything) may take a demonstrative object instead of the task:
# "I'd rather not do that", "Das mache ich lieber nicht", "Wolałbym tego nie robić", "这个我还是不做了".
# The object is a pronoun, not a determiner ("that winter"), of the locale's generic "do" verb or of "with"
# (a discomfort): "do that", "hacerlo", "le faire", "Das mache ich", "tego nie robić", "with that", "damit",
# "z tym"; in Japanese, Korean and Chinese a fronted demonstrative topic ("それは", "그건", "这个我"). In the
# decline's own sentence: "I'd rather not talk about it" names neither.
_DEMONSTRATIVE: dict[str, tuple[str, str]] = {
    "en": (
        r"\b(?:rather|prefer|sooner)(?: \w+)? not\b|\bnot (?:\w+ )?(?:comfortable|keen|up for)\b|\buncomfortable\b|"
        r"\b(?:skip|pass on|sit (?:\w+ )?out|bow out|steer clear|refrain)\b",
        r"\b(?:do(?:ing)?|with) (?:this|that|it)\b(?!\s*[^\W\d_])",
    ),
    "es": (
        r"\b(?:prefiero|preferiría|preferiria|quisiera) no\b|\bno me siento (?:cómod[oa]|a gusto|bien)\b|"
        r"\bno me (?:veo|animo)\b|\bmejor no\b",
        r"\bhacer(?:lo|la| eso| esto)\b|\bcon (?:eso|esto|ello)\b|\b(?:eso|esto) mejor no\b",
    ),
    "pt-BR": (
        r"\b(?:prefiro|preferiria|preferia) não\b|\bnão me sinto (?:confortável|à vontade|a vontade|bem)\b|"
        r"\bnão estou (?:confortável|à vontade)\b",
        r"\bfazer (?:isso|isto)\b|\bfazê-lo\b|\bcom (?:isso|isto)\b",
    ),
    "fr": (
        r"\bje (?:préfère|préférerais|préfèrerais)\b|\bj['’]aime(?:rais)? mieux\b|\bà l['’]aise\b|"
        r"\bje (?:vais )?(?:la|le|les) passe(?:r)?\b",
        r"\bfaire (?:ça|cela|ceci)\b|\b(?:le|la|les) faire\b|\bavec (?:ça|cela|ceci)\b|\b(?:celle|celui|ceux|"
        r"celles)-là\b",
    ),
    "de": (
        r"\blieber nicht\b|\bnicht gern\b|\bungern\b|\bnicht wohl\b|\bunwohl\b|\bverzichte\b|\büberspringe\b",
        r"\b(?:das|dies) (?:mache|tue) ich\b|\b(?:das|dies)\b[^.!?]{0,20}\b(?:machen|tun)\b|\b(?:damit|dabei)\b",
    ),
    "it": (
        r"\b(?:preferirei|preferisco) (?:non|evitare)\b|\bnon me la sento\b|\bnon mi sento (?:a mio agio|a mia agio|"
        r"tranquill[oa])\b|\bnon mi va\b|\bmi tiro indietro\b",
        r"\bfar(?:lo|la|e questo|e ciò)\b|\b(?:con|di) (?:questo|ciò)\b|\bsu (?:questo|ciò)\b",
    ),
    "nl": (
        r"\bliever niet\b|\bniet graag\b|\bniet (?:prettig|op mijn gemak|comfortabel)\b|\bsla\b[^.!?]{0,25}\bover\b",
        r"\b(?:dat|dit) doe ik\b|\b(?:dat|dit)\b[^.!?]{0,20}\bdoen\b|\bdaar\b[^.!?]{0,40}\bbij\b|\bdaar(?:bij|mee)\b|"
        r"\b(?:deze|die) [\w'’]+ ik\b",
    ),
    "pl": (
        r"\bwolał\w* (?:\w+ )?nie\b|\bwolę (?:\w+ )?nie\b|\bnie czuję się\b[^.!?]{0,15}\b(?:komfortowo|dobrze|"
        r"swobodnie)\b",
        r"\btego\b[^.!?]{0,15}\b(?:robić|zrobić)\b|\b(?:robić|zrobić) tego\b|\bz tym\b",
    ),
    "ru": (
        r"\b(?:предпочл\w*|предпочёл|предпочел|предпочту)\b|\bнекомфортно\b|\bнеловко\b|\bне по себе\b|\bбез меня\b",
        r"\bэтого\b[^.!?]{0,15}\b(?:делать|сделать)\b|\b(?:делать|сделать) (?:этого|это)\b|\bс этим\b|\bэто без меня\b",
    ),
    "uk": (
        r"\bволі\w*\b|\bнекомфортно\b|\bніяково\b|\bнезручно\b|\bбез мене\b",
        r"\bцього\b[^.!?]{0,15}\b(?:робити|зробити)\b|\b(?:робити|зробити) (?:цього|це)\b|\bз цим\b|\bце без мене\b",
    ),
    "tr": (
        r"\btercih (?:ederim|ediyorum)\b|\brahat (?:hissetmiyorum|değilim)\b",
        r"\b(?:bunu|onu) yap\w*|\bbu konuda\b",
    ),
    "id": (
        r"\b(?:lebih (?:memilih|suka|baik)|memilih) (?:untuk )?tidak\b|\b(?:tidak|kurang) (?:merasa )?nyaman\b|"
        r"\benggan\b|\b(?:tidak|kurang) berkenan\b",
        r"\b(?:melakukan|dengan) (?:hal )?(?:itu|ini)\b",
    ),
    "vi": (
        r"\b(?:xin phép|xin|chọn) không\b|\bkhông (?:thoải mái|tiện)\b",
        r"\b(?:làm|với) (?:điều|việc|cái|chuyện) (?:đó|này)\b",
    ),
    "ja": (r"控え(?!てい)|遠慮|見送ら|お断り|気が引け|気が進ま", r"(?:それ|これ)(?:は|を|について)"),
    "ko": (
        r"지 않는 (?:것이|게|편이) (?:좋겠|나을|좋을)|불편|꺼려|꺼리|사양|아닌 것 같|곤란",
        r"(?:그건|그것|이건|이것)",
    ),
    "zh-Hans": (
        r"(?:就|还是|先)不[^。！？，]{0,8}了|不(?:太)?愿意|婉拒|(?:就|还是|先)不[^。！？，]{0,8}啦|算了|跳过|略过",
        r"(?:这个|这件事|那个|此事)(?:嘛|呢)?(?:[，。！？]|$|(?=我|先|就|还))",
    ),
    "zh-Hant": (
        r"(?:就|還是|先)不[^。！？，]{0,8}了|不(?:太)?願意|婉拒|(?:就|還是|先)不[^。！？，]{0,8}啦|算了|跳過|略過",
        r"(?:這個|這件事|那個|此事)(?:嘛|呢)?(?:[，。！？]|$|(?=我|先|就|還))",
    ),
}


# -- Refusing the request ---------------------------------------------------------------------------------
# A hard refusal of *a request* names the request and what the host cannot do with it: an inability (cannot,
# not able, not in a position, not permitted), an act of granting (fulfil, comply with, carry out, respond
# to, satisfy, assist with) and the request (request, demand, ask, prompt, task) as its object, in any order
# the language allows ("I'm unable to fulfil this request", "Dieser Bitte kann ich nicht nachkommen",
# "виконати це прохання я не в змозі", "這個要求我無法滿足"). Per locale (inability, act, request); where the
# language fuses the inability into the verb (Turkish, Japanese, Korean, Chinese), (inability + act, request).
# The three stand in one sentence, each at most ``_REQUEST_GAP`` characters from the next (CJK
# ``_REQUEST_CJK_GAP``). A character refusing a request in quotes, on a dialogue line or before a reporting
# clause is the story, as for every hard phrase.
_REQUEST_GAP = r"[^.!?\n]{0,30}?"
_REQUEST_CJK_GAP = r"[^。！？.!?\n]{0,10}?"
_REQUESTS: dict[str, tuple[str, ...]] = {
    "en": (
        r"\bi(?: (?:can(?:'|’|no)t|cannot|won['’]t(?: be able to)?|will not(?: be able to)?|must not)|(?:'m|’m| am) not going to be able to|(?:'m|’m| am) (?:unable|not able|not in a "
        r"position|not permitted|not allowed|not authori[sz]ed|afraid i can(?:'|’|no)t)(?: to)?)\b",
        r"\b(?:fulfil+|comply|carry (?:it )?out|respond to|satisfy|assist (?:you )?with|help (?:you )?with|honou?r|"
        r"accommodate|grant|act on|go along with|process)\b",
        r"\b(?:request|demand|ask|prompt|task|instruction)s?\b",
    ),
    "es": (
        r"\bno (?:(?:la|lo|las|los|te|le) )?(?:puedo|podré|podría|soy capaz de|estoy en condiciones de|me es posible|tengo permitido|"
        r"me está permitido|estoy autorizad[oa] para|voy a)\b",
        r"\b(?:cumplir|atender|satisfacer|responder|llevar a cabo|realizar|complacer|acceder|ayudar|dar curso|"
        r"tramitar|ejecutar)\w*",
        r"\b(?:petici[oó]n|peticiones|solicitud|solicitudes|demanda|pedido|encargo|tarea|consulta|instrucci[oó]n|"
        r"prompt)\w*",
    ),
    "pt-BR": (
        r"\bnão (?:posso|consigo|poderei|poderia|sou capaz de|estou em condições de|tenho como|"
        r"tenho permissão para|estou autorizad[oa] a|vou)\b",
        r"\b(?:atender|cumprir|realizar|satisfazer|responder|executar|ajudar|acatar|dar andamento)\w*",
        r"\b(?:pedido|solicitação|solicitações|requisição|demanda|tarefa|instrução|prompt)\w*",
    ),
    "fr": (
        r"\bje ne (?:(?:peux|pourrai|pourrais|vais|saurais|veux) (?:pas)?|suis (?:pas )?(?:en mesure|autorisée?|"
        r"habilitée?)|m['’]autorise pas)\b",
        r"\b(?:répondre|satisfaire|donner suite|accéder|honorer|exécuter|réaliser|traiter|accomplir|obtempérer|"
        r"aider|acquiescer|accéder)\w*",
        r"\b(?:requête|demande|tâche|consigne|instruction|prompt|sollicitation)s?\b",
    ),
    "de": (
        r"\b(?:ich (?:kann|darf|werde|vermag)|(?:kann|darf|werde|vermag) ich)\b",
        r"\b(?:nicht|keine?[mnr]?)(?: [\wäöüß]+){0,2}? (?:nachkommen|erfüllen|entsprechen|umsetzen|ausführen|bearbeiten|nachgehen|stattgeben|übernehmen|"
        r"erledigen|zu erfüllen|nachzukommen|zu entsprechen|umzusetzen|auszuführen|zu bearbeiten)\b",
        r"\b(?:diese[rnms]?|deine[rnms]?|ihre[rnms]?|eure[rnms]?|der|die|dem|den|solche[rnms]?|eine[rnm]?|"
        r"so eine[rnm]?) (?:anfrage|bitte|aufforderung|forderung|aufgabe|auftrag|wunsch|anliegen|prompt)\w*",
    ),
    "it": (
        r"\bnon (?:posso|potrò|potrei|sono in grado di|mi è (?:possibile|permesso|consentito)|"
        r"sono autorizzat[oa] a|riesco a)\b",
        r"\b(?:soddisfar|esaudir|accoglier|eseguir|portar\w* a termine|risponder|assecondar|dar\w* seguito|"
        r"evader|accontentar)\w*",
        r"\b(?:richiest[ae]|domand[ae]|istanz[ae]|compit[oi]|prompt|consegn[ae]|istruzion[ei])\b",
    ),
    "nl": (
        r"\b(?:ik (?:kan|mag|zal|wil)|(?:kan|mag|zal|wil) ik)\b",
        r"\bniet(?: [\w'’]+){0,3}? (?:voldoen|tegemoetkomen|tegemoet komen|inwilligen|uitvoeren|honoreren|ingaan|vervullen|nakomen|"
        r"te voldoen|in te willigen|uit te voeren|in te gaan)\b",
        r"\b(?:daar|daaraan|hieraan|hier|verzoek\w*|opdracht\w*|eis(?:en)?|prompt|taak|wens)\b",
    ),
    "pl": (
        r"\bnie (?:mogę|jestem w stanie|wolno mi|potrafię|zdołam|będę|mam możliwości|jestem upoważnion[ya])\b",
        r"\b(?:spełni|zrealizow|wykona|odpowiedzie|przychyli|uwzględni|sprosta)\w*",
        r"\b(?:prośb|polece|zadani|żądani|zapytani|zleceni|życzeni|prompt)\w*",
    ),
    "ru": (
        r"\b(?:не (?:могу|смогу|буду|стану)|я не (?:в состоянии|вправе|имею права)|мне не (?:разрешено|позволено))\b",
        r"\b(?:выполн|исполн|удовлетвор|ответить на|отвечать на|осуществ|пойти навстречу)\w*",
        r"\b(?:запрос|просьб|требовани|задани|поручени|задач|промпт|указани)\w*",
    ),
    "uk": (
        r"\b(?:не (?:можу|зможу|буду|стану)|я не (?:в змозі|маю права)|мені не дозволено)\b",
        r"\b(?:викона|викону|задовольн|відповісти на|відповідати на|здійсн|піти назустріч)\w*",
        r"\b(?:запит|прохан|вимог|завданн|доручен|задач|промпт|вказів)\w*",
    ),
    "tr": (
        r"\b(?:(?:yerine getir|gerçekleştir|kabul ed|işlem yapam)e(?:mem|miyorum|meyeceğim)|(?:karşıla|yanıtla|"
        r"cevapla|uygula)ya(?:mam|mıyorum|mayacağım)|(?:yardımcı|destek) ola(?:mam|mıyorum|mayacağım))\b",
        r"\b(?:istek\w*|isteğ\w*|talep\w*|taleb\w*|rica\w*|görev\w*|komut\w*|prompt\w*)",
    ),
    "id": (
        r"\b(?:(?:saya|aku) (?:\w+ )?(?:tidak|belum|tak) (?:bisa|dapat|mampu|boleh|diizinkan|"
        r"diperbolehkan)(?: untuk)?|(?:tidak|belum|tak) (?:bisa|dapat|mampu) (?:saya|aku))\b",
        r"\b(?:memenuhi|menuruti|mengabulkan|menanggapi|merespons|penuhi|kabulkan|turuti|tanggapi)\b",
        r"\b(?:permintaan|permohonan|tuntutan|prompt)\w*",
    ),
    "vi": (
        r"\b(?:tôi|mình|em) (?:\w+ )?không (?:thể|được phép|có quyền|đủ khả năng)\b",
        r"\b(?:đáp ứng|thực hiện|làm theo|chấp nhận|hỗ trợ|giúp|xử lý|phản hồi|trả lời)\b",
        r"\b(?:yêu cầu|đề nghị|nhiệm vụ|lời nhờ|prompt|chỉ thị)\b",
    ),
    "ja": (
        r"(?:お応え|応え|応じ|対応|お受け|受け|お引き受け|引き受け|実行|遂行|承諾|お手伝い|手伝い|ご協力|協力|お答え|回答|実施)"
        r"(?:いたし|し|すること[はがも])?(?:でき(?:ません|ない|かね)|かね(?:ます|る))",
        r"(?:ご要望|要望|ご依頼|依頼|リクエスト|ご要求|要求|お願い|ご指示|指示|タスク|プロンプト)",
    ),
    "ko": (
        r"(?:(?:수행|처리|이행|수락|진행|응답|답변|충족)(?:해 ?드릴|할)|(?:들어|도와) ?드릴|따를|받아들일|응할|들어 ?줄)"
        r" 수(?:가|는)? 없|(?:수행|처리|이행|수락|충족)(?:하기|해 ?드리기)(?:가|는)? (?:어렵|어려|곤란)",
        r"(?:요청|요구|부탁|지시|프롬프트)",
    ),
    "zh-Hans": (
        r"(?:无法|不能|没办法|没法|难以|恕难|不便|不可以)(?:为你|帮你|替你|给你)?(?:满足|完成|执行|答应|接受|照办|处理|回应|"
        r"遵从|配合|实现|协助)",
        r"(?:你|您|这|此|该)[^。！？，]{0,3}?(?:要求|请求|指令|任务|提示词)",
    ),
    "zh-Hant": (
        r"(?:無法|不能|沒辦法|沒法|難以|恕難|不便|不可以)(?:為你|幫你|替你|給你)?(?:滿足|完成|執行|答應|接受|照辦|處理|回應|"
        r"遵從|配合|實現|協助)",
        r"(?:你|您|這|此|該)[^。！？，]{0,3}?(?:要求|請求|指令|任務|提示詞)",
    ),
}


# The orders each language uses: subject-verb-object languages put the request after the act or front it
# ("I can't fulfil this request", "Esta solicitud no la puedo atender"); German, Dutch, Polish, Russian and
# Ukrainian put the three in any order; a fused inability stands before or after its request.
_SVO = ("en", "es", "pt-BR", "fr", "it", "id", "vi")


def _any_order(parts: tuple[str, ...], gap: str, svo: bool = False) -> str:
    """One pattern matching ``parts`` in any order (``svo``: (inability, act, request) in that order or with
    the request fronted), ``gap`` between neighbours."""
    orders = [parts, (parts[2], parts[0], parts[1])] if svo else list(itertools.permutations(parts))
    return "|".join(gap.join(f"(?:{p})" for p in order) for order in orders)


for _code, _parts in _REQUESTS.items():
    _gap = _REQUEST_CJK_GAP if _code in ("ja", "ko", "zh-Hans", "zh-Hant") else _REQUEST_GAP
    _PATTERNS[_code] = (_PATTERNS[_code][0] + (_any_order(_parts, _gap, _code in _SVO),), _PATTERNS[_code][1])
# German and Dutch "I am not in a position to …" put the request inside the infinitive clause
_PATTERNS["de"] = (
    _PATTERNS["de"][0]
    + (
        r"\bich bin\b[^.!?]{0,20}\b(?:nicht in der lage|außerstande|nicht befugt|nicht berechtigt)\b[^.!?]{0,40}"
        r"\b(?:anfrage|bitte|aufforderung|forderung|aufgabe|auftrag|anliegen)\w*",
    ),
    _PATTERNS["de"][1],
)
_PATTERNS["nl"] = (
    _PATTERNS["nl"][0]
    + (
        r"\bik ben\b[^.!?]{0,15}\bniet (?:in staat|bevoegd)\b[^.!?]{0,40}\b(?:verzoek|opdracht|eis)\w*",
        # the negation before the request: "ik kan niet aan dit verzoek voldoen"
        _any_order(
            (
                r"\b(?:ik (?:kan|mag|zal|wil)|(?:kan|mag|zal|wil) ik) niet\b",
                r"\b(?:voldoen|tegemoetkomen|inwilligen|uitvoeren|honoreren|ingaan|vervullen|nakomen)\b",
                _REQUESTS["nl"][2],
            ),
            _REQUEST_GAP,
        ),
    ),
    _PATTERNS["nl"][1],
)

# The host's own rules named as what stops it: "My guidelines don't allow me to…", "Mis directrices no me
# permiten…", "Meine Richtlinien erlauben mir nicht…" (hard).
_OWN_RULES: dict[str, str] = {
    "en": r"\bmy (?:guidelines|rules|policies|principles|programming|content policy)\b[^.!?]{0,25}\b(?:don['’]t|do not|"
    r"won['’]t|will not)\s+(?:allow|permit|let)\b",
    "es": r"\bmis (?:directrices|normas|políticas|pautas|principios)\b[^.!?]{0,25}\bno me (?:permiten|dejan)\b",
    "pt-BR": r"\bminhas (?:diretrizes|regras|políticas|normas)\b[^.!?]{0,25}\bnão me (?:permitem|deixam)\b",
    "fr": r"\bmes (?:consignes|directives|règles|principes)\b[^.!?]{0,25}\bne me (?:permettent|laissent)\b",
    "de": r"\bmeine (?:richtlinien|regeln|vorgaben|grundsätze)\b[^.!?]{0,25}\b(?:erlauben|gestatten) (?:es )?mir\b"
    r"[^.!?]{0,20}\bnicht\b",
    "it": r"\ble mie (?:linee guida|regole|politiche|direttive)\b[^.!?]{0,25}\bnon mi (?:permettono|consentono)\b",
    "nl": r"\bmijn (?:richtlijnen|regels|beleid)\b[^.!?]{0,25}\b(?:staan|laten) (?:me|mij) (?:\w+ )?niet\b",
    "pl": r"\bmoje (?:zasady|wytyczne|reguły)\b[^.!?]{0,25}\bnie pozwalają mi\b",
    "ru": r"\bмои (?:правила|принципы|инструкции|ограничения)\b[^.!?]{0,25}\bне (?:позволяют|разрешают) мне\b",
    "uk": r"\bмої (?:правила|принципи|інструкції|обмеження)\b[^.!?]{0,25}\bне дозволяють мені\b",
    "tr": r"\b(?:yönergelerim|kurallarım|ilkelerim|politikalarım)\b[^.!?]{0,40}\bizin vermiyor\b",
    "id": r"\b(?:pedoman|aturan|kebijakan) saya\b[^.!?]{0,25}\btidak (?:mengizinkan|memperbolehkan)\b",
    "vi": r"\b(?:nguyên tắc|quy định|chính sách) của (?:tôi|mình)\b[^.!?]{0,25}\bkhông cho phép\b",
    "ja": r"私の(?:ガイドライン|ポリシー|規約)(?:上|により|に従い|では)",
    "ko": r"(?:제|저의) (?:가이드라인|정책|규정)(?:상|에 따라)",
    "zh-Hans": r"我的(?:准则|规则|政策|原则)[^。！？]{0,10}不允许",
    "zh-Hant": r"我的(?:準則|規則|政策|原則)[^。！？]{0,10}不允許",
}
# A first-person writing verb negated without a modal, in its own voice: "I don't write graphic violence",
# "Das schreibe ich nicht", "Die Verletzungen des Hundes beschreibe ich nicht", "Non lo scriverò",
# "Подробности про собаку не напишу", "그런 글은 쓰지 않습니다" (soft: the host says what it leaves unwritten).
_NOT_WRITING: dict[str, str] = {
    "en": r"\bi(?: (?:don['’]t|do not|won['’]t|will not|never)|(?:'m|’m| am) not(?: going to)?) (?:write|writing|"
    r"describe|describing|depict|depicting|portray|portraying|narrate|narrating)\b",
    "es": r"\bno (?:lo|la|los|las|te|le) (?:escribo|escribiré|describo|describiré|narro|narraré|relato|relataré|"
    r"detallo|detallaré)\b|\bno (?:escribo|escribiré|describo|describiré) (?:eso|esto|esa|esta|ese|este|"
    r"contenido|escenas|violencia)\b",
    "pt-BR": r"\bnão (?:o|a|os|as|te) (?:escrevo|escreverei|descrevo|descreverei|narro|narrarei|detalho|"
    r"detalharei)\b|\bnão (?:escrevo|escreverei|descrevo|descreverei) (?:isso|isto|essa|esta|esse|este|"
    r"conteúdo|cenas|violência)\b|\b(?:isso|isto) eu não (?:escrevo|escreverei|descrevo)\b",
    "fr": r"\bje n['’](?:écris|écrirai|écrirais)\b|\bje ne (?:l['’]|le |la |les |te |vous )?(?:écris|écrirai|décris|"
    r"décrirai|détaille|détaillerai)\b|\bje ne (?:le|la) ferai pas\b",
    "de": r"\b(?:schreibe|beschreibe|schildere) ich\b(?: [\wäöüß]+){0,3}? nicht\b|\bich (?:schreibe|"
    r"beschreibe|schildere) (?:[\wäöüß]+ ){0,4}?nicht\b",
    "it": r"\bnon (?:lo|la|li|le|te|ti) (?:scrivo|scriverò|descrivo|descriverò)\b|\bnon (?:scrivo|scriverò|"
    r"descrivo|descriverò) (?:questo|questa|ciò|contenuti|scene|violenza)\b",
    "nl": r"\b(?:schrijf|beschrijf) ik\b(?: [\w'’]+){0,3}? niet\b|\bik (?:schrijf|beschrijf) "
    r"(?:[\w'’]+ ){0,4}?niet\b",
    "pl": r"\bnie (?:napiszę|opiszę|piszę|opisuję)\b|\b(?:pisać|opisywać|opisać|napisać) (?:\w+ )?"
    r"nie (?:będę|zamierzam)\b",
    "ru": r"\bне (?:напишу|пишу|опишу|описываю)\b|\b(?:писать|описывать|расписывать) (?:\w+ )?не (?:буду|стану)\b",
    "uk": r"\bне (?:напишу|пишу|опишу|описую|писатиму|описуватиму)\b|\b(?:писати|описувати) (?:\w+ )?не "
    r"(?:буду|стану)\b",
    "tr": r"\b(?:yaz|anlat)(?:mayacağım|mıyorum)\b|\bbetimle(?:meyeceğim|miyorum)\b|"
    r"\btasvir (?:etmeyeceğim|etmiyorum|etmem)\b|\b(?:yazmam|anlatmam)\b(?!\s+(?:gerek|lazım|için|icap|şart))",
    "id": r"\b(?:saya|aku) (?:tidak|tak|nggak|gak) (?:akan )?(?:menulis|menuliskan|menggambarkan|mendeskripsikan|"
    r"menceritakan|menampilkan)\w*|\b(?:tidak|tak) (?:akan )?(?:saya|aku) (?:tulis|gambarkan|ceritakan|tampilkan)\b",
    "vi": r"\b(?:tôi|mình) (?:sẽ )?không (?:viết|tả|miêu tả|mô tả|kể)\b|\bthì (?:tôi|mình) (?:xin )?không (?:làm|viết)\b",
    "ja": r"(?:は|も)書きません|描写(?:し|いたし)ません|書かないことにし",
    "ko": r"(?:(?<![가-힣])쓰|묘사하)지 않(?:을게요|겠습니다|겠어요)|"
    r"(?:(?<![가-힣])쓰|묘사하|그리)는 (?:건|것은|것) (?:하지 않|안 하)",
    "zh-Hans": r"我(?:就|也|绝|可)?不(?:会|打算)?(?:写|描写|描述)(?:这|那|此|具体|细节|出)",
    "zh-Hant": r"我(?:就|也|絕|可)?不(?:會|打算)?(?:寫|描寫|描述)(?:這|那|此|具體|細節|出)",
}
for _code in _PATTERNS:
    _PATTERNS[_code] = (
        (*_PATTERNS[_code][0], _OWN_RULES[_code]),
        (*_PATTERNS[_code][1], _NOT_WRITING[_code]),
    )

# Stepping out of the role or the story to speak as the host ("Stepping out of the story for a moment:",
# "Aus der Rolle heraus:", "Mag ik even uit de rol stappen?", "Выйду ненадолго из роли рассказчика", "作者の立場から")
# and toning the scene down in the host's voice ("I'll keep it on the suggestive side", "le chien restera hors
# champ", "Ich entschärfe das ein wenig", "оставлю за кадром", "点到为止"): the story asked for is not what
# follows (soft).
_OUT_OF_ROLE: dict[str, str] = {
    "en": r"\b(?:stepping|step|breaking|break|going|stepping) (?:out of|outside(?: of)?) (?:the |my )?(?:story|role|"
    r"character|role-?play|narrative|fiction)\b|\bout of character ?[:—)]|\booc\b|"
    r"\b(?:breaking|break) character\b",
    "es": r"\b(?:fuera de|saliendo de|salgo (?:un momento )?de) (?:la historia|el personaje|mi papel|el papel|"
    r"la ficción|la narración|el rol)\b",
    "pt-BR": r"\b(?:fora d[ao]|fugindo (?:um pouco )?d[oa]|saindo (?:um pouco )?d[oa]|saio (?:um pouco )?d[oa]) "
    r"(?:história|personagem|papel|ficção|narrativa)\b",
    "fr": r"\b(?:hors (?:du |de la )?(?:récit|histoire|personnage|rôle)|en dehors (?:de l['’]histoire|de mon rôle|"
    r"du récit|de la fiction)|je sors (?:un (?:instant|moment|peu) )?(?:du|de mon) (?:rôle|personnage|récit))\b",
    "de": r"\b(?:aus der rolle (?:heraus|fallend|gefallen)|außerhalb der (?:geschichte|rolle|erzählung)|"
    r"ich (?:trete|falle) (?:kurz |mal )?aus der (?:rolle|geschichte))\b",
    "it": r"\b(?:fuori (?:dalla storia|dal personaggio|dal ruolo|dalla narrazione)|esco (?:un attimo |per un "
    r"momento )?(?:dal personaggio|dal ruolo|dalla storia))\b",
    "nl": r"\b(?:uit (?:de|mijn) rol (?:stappen|vallen|gestapt)|buiten het verhaal om|buiten (?:de|mijn) rol)\b",
    "pl": r"\b(?:wyjdę|wychodzę|wychodząc) (?:na (?:moment|chwilę) )?z (?:opowieści|roli|postaci|narracji|fikcji)\b|"
    r"\bpoza (?:opowieścią|rolą|fabułą)\b",
    "ru": r"\b(?:выйду|выхожу|выйдя) (?:ненадолго |на минутку |на секунду )?из (?:роли|образа|истории|"
    r"повествования)\b|\bвне (?:роли|сюжета|истории)\b",
    "uk": r"\b(?:вийду|виходжу|вийшовши) (?:ненадовго |на хвилинку )?(?:з|із) (?:ролі|образу|історії)\b|"
    r"\bпоза (?:сюжетом|роллю|історією)\b",
    "tr": r"\b(?:rolden|karakterden|hikâyeden|hikayeden) (?:bir an |kısaca |biraz )?(?:çıkarak|çıkıyorum|çıkayım)\b|"
    r"\byazar notu\b",
    "id": r"\b(?:keluar (?:sebentar )?dari (?:peran|cerita|karakter)|di luar (?:cerita|peran))\b",
    "vi": r"\b(?:ra khỏi vai|bước ra khỏi (?:câu chuyện|vai)|ngoài lề câu chuyện|tạm rời vai)\b",
    "ja": r"(?:役|キャラクター|物語)を(?:離れ|降り)|作者の立場から",
    "ko": r"(?:역할|캐릭터|이야기)에서 (?:잠시 )?(?:벗어나|나와)",
    "zh-Hans": r"(?:跳出|暂时跳出|先跳出)(?:角色|故事|剧情)|以作者的身份",
    "zh-Hant": r"(?:跳出|暫時跳出|先跳出)(?:角色|故事|劇情)|以作者的身分",
}
_TONED_DOWN: dict[str, str] = {
    "en": r"\bi(?:'ll|’ll| will|'m going to| am going to| try to)? (?:keep\b[^.!?]{0,40}\b(?:suggestive|mild|tasteful|"
    r"restrained|implied|off-?(?:screen|page)|understated|non-graphic)|tone (?:it|this|things|the \w+ )?down|fade "
    r"(?:to black|out)|cut away)\b|\bi(?:'d| would) (?:suggest we )?imply\b|"
    r"\blet['’]s keep (?:it|this|things)\b[^.!?]{0,30}\b(?:but not|rather than|instead of)\b",
    "es": r"\bvoy a (?:rebajar|suavizar|atenuar|moderar) (?:un poco )?(?:la violencia|el tono|la escena|la sangre|"
    r"el gore|lo)\b|\birá por la sugerencia\b|\b(?:dejo|dejaré|"
    r"dejando|dejamos) [^.!?]{0,30}fuera de (?:plano|cámara|campo)\b",
    "pt-BR": r"\bvou (?:evitar (?:as |os |a |o )?(?:descrições|detalhes|violência|sangue)|(?:suavizar|amenizar|"
    r"atenuar) (?:um pouco )?(?:a cena|a violência|o tom|isso|os detalhes))\b|"
    r"\b(?:escrever|escrevo|vou escrever)\b[^.!?]{0,20}\bde forma (?:sugestiva|implícita)\b|\b(?:só que|mas) sem a parte\b",
    "fr": r"\b(?:restera|resteront|laisse|laisserai|garderai)\b(?: \w+){0,3} hors (?:champ|cadre|écran)\b|"
    r"\bje vais (?:atténuer|adoucir|édulcorer)\b",
    "de": r"\bich entschärfe\b|\bich schwäche\b[^.!?]{0,30}\bab\b|\bich (?:mildere|dämpfe)\b|\bblende ich ab\b|\bich blende\b[^.!?]{0,20}\bab\b|\blasse\b[^.!?]{0,25}\baußen vor\b|"
    r"\blass(?:en)? (?:uns|wir) (?:das|es) (?:lieber )?(?:suggerieren|andeuten)\b",
    "it": r"\b(?:restare|resto|resterò|rimanere|rimango) (?:sull['’]implicito|sul vago|sul suggerito)\b|"
    r"\b(?:attenuerò|smorzerò|ammorbidirò)\b|\b(?:lascio|lascerò|lascerei) [^.!?]{0,25}fuori (?:scena|campo)\b",
    "nl": r"\bik (?:houd|hou) (?:het|dit|de \w+)(?: \w+){0,2}? (?:mild|ingetogen|suggestief|buiten beeld)\b|"
    r"\bhoud ik buiten beeld\b|\bik zwak\b[^.!?]{0,30}\baf\b|\bik verzacht\b",
    "pl": r"\b(?:przyciszyć|złagodzić|stonować|wyciszyć) (?:tu |nieco |trochę )?(?:przemoc|scenę|opis)|"
    r"\bw wersji (?:złagodzonej|stonowanej)\b|\bpo swojemu, bez\b|\b(?:złagodzę|stonuję|wyciszę|przyciszę)\b",
    "ru": r"\bоставлю за кадром\b|\b(?:смягчу|приглушу)\b|\bобойдусь без\b",
    "uk": r"\bзалишу за кадром\b|\b(?:пом['’]якшу|натякну)\b|\bбез жорстоких деталей\b|\bпом['’]якшену версію\b",
    "tr": r"\bima (?:ile|düzeyinde)\b|\bsansürlü versiyon\b|\b(?:yumuşatacağım|hafifleteceğim)\b",
    "id": r"\bversi (?:ringan|halus|lebih lembut)\w*|\bsaya (?:akan )?(?:sedikit )?(?:perhalus|memperhalus|haluskan|"
    r"lunakkan|melunakkan)\b",
    "vi": r"\b(?:mình|tôi) (?:sẽ )?viết (?:lại )?nhẹ (?:hơn|nhàng)\b|\b(?:mình|tôi) (?:sẽ )?giảm nhẹ\b",
    "ja": r"控えめ版|ソフトに(?:書き換え|し)|(?:描写|表現)を(?:抑え|和らげ|マイルドに)|暗示に(?:とどめ|留め)|避けたいと思います|避けたいので",
    "ko": r"순화해서|순화한|수위를 (?:조금 |좀 |살짝 )?(?:낮춰|낮추)|암시만",
    "zh-Hans": r"淡化版|改成了?淡化|点到为止|侧面描写|不做具体描写|收着点写|写得(?:含蓄|委婉|隐晦|克制)",
    "zh-Hant": r"淡化版|改成了?淡化|點到為止|側面描寫|不做具體描寫|收著點寫|寫得(?:含蓄|委婉|隱晦|克制)",
}
# Out of the role, a host also says "sure, here it is": stepping out declines when a negation or a limit of the
# locale follows it on its line ("Stepping out of the story for a moment: I try not to write explicit gore").
_OUT_OF_ROLE_NO: dict[str, str] = {
    "en": r"\b(?:not|no|never|won['’]t|can['’]t|don['’]t|limits?|boundar\w+)\b",
    "es": r"\b(?:no|nunca|límites?|línea)\b",
    "pt-BR": r"\b(?:não|nunca|limites?|linha)\b",
    "fr": r"\b(?:ne|n['’]|pas|jamais|limites?)\b",
    "de": r"\b(?:nicht|kein\w*|vorsichtig|lieber|grenzen?)\b",
    "it": r"\b(?:non|mai|limiti?)\b",
    "nl": r"\b(?:niet|geen|grens|grenzen)\b",
    "pl": r"\b(?:nie|granic\w*)\b",
    "ru": r"\b(?:не|нет|границ\w*|ограничени\w*)\b",
    "uk": r"\b(?:не|ні|меж\w*|обмеженн\w*)\b",
    "tr": r"\w+(?:m[ıi]yorum|m[ae]yeceğim|m[ae]m)\b|\b(?:değil|sınır\w*)\b",
    "id": r"\b(?:tidak|bukan|tak|batas\w*)\b",
    "vi": r"\b(?:không|giới hạn)\b",
    "ja": r"ない|ません|控え|避け",
    "ko": r"않|없|못|어렵",
    "zh-Hans": r"不|没|避免",
    "zh-Hant": r"不|沒|避免",
}
for _code in _PATTERNS:
    _PATTERNS[_code] = (
        _PATTERNS[_code][0],
        (
            *_PATTERNS[_code][1],
            f"(?:{_OUT_OF_ROLE[_code]})[^\n]{{0,120}}?(?:{_OUT_OF_ROLE_NO[_code]})",
            _TONED_DOWN[_code],
        ),
    )

# A stop after a story excerpt: the host writes the first lines, then stops in its own voice and leaves the
# rest unwritten ("Je m'arrête là : la suite, je préfère la laisser à ton imagination", "Qui mi fermo: il
# resto…", "여기까지만 쓸게요", "到這裡就好，剩下的交給讀者"). It follows the excerpt, so it is read in the whole
# window like a hard refusal; in the alphabetic locales the stop names the rest, the imagination or the reader.
_STOP_AFTER_EXCERPT: dict[str, str] = {
    "en": r"\bi(?:'ll|’ll| will)? (?:stop|pause|end (?:it|this)|leave it) (?:here|there)\b[^\n]{0,60}?\b(?:rest|"
    r"imagination|reader)",
    "es": r"\b(?:aquí|hasta aquí) (?:me detengo|lo dejo|paro)\b[^\n]{0,60}?\b(?:resto|imaginación|lector)",
    "pt-BR": r"\b(?:paro|vou parar|fico) (?:por )?aqui\b[^\n]{0,60}?\b(?:resto|imaginação|leitor)",
    "fr": r"\bje m['’]arrête (?:là|ici)\b[^\n]{0,60}?\b(?:suite|reste|imagination|lecteur)",
    "it": r"\b(?:qui mi fermo|mi fermo qui)\b[^\n]{0,60}?\b(?:resto|seguito|immaginazione|lettore)",
    "de": r"\b(?:hier (?:höre ich auf|mache ich schluss|breche ich ab)|ich höre hier auf)\b[^\n]{0,60}?\b(?:rest|"
    r"fantasie|vorstellung|leser)",
    "nl": r"\b(?:ik stop hier|hier stop ik)\b[^\n]{0,60}?\b(?:rest|verbeelding|fantasie|lezer)",
    "pl": r"\b(?:(?:tu|tutaj) (?:się )?zatrzymam|na tym (?:skończę|poprzestanę))\b[^\n]{0,60}?\b(?:reszt|dalsz|"
    r"wyobraźni|czytelni)",
    "ru": r"\b(?:на этом (?:я )?(?:остановлюсь|закончу)|здесь (?:я )?остановлюсь)\b[^\n]{0,60}?(?:остальное|"
    r"дальше|воображени|читател)",
    "uk": r"\b(?:на цьому (?:я )?(?:зупинюся|зупинюсь|закінчу)|тут (?:я )?зупинюся)\b[^\n]{0,60}?(?:решт|далі|уяв|"
    r"читач)",
    "tr": r"\bburada (?:duruyorum|duracağım|bırakıyorum|kesiyorum)\b[^\n]{0,60}?(?:gerisi|devamı|hayal|okur)",
    "id": r"\b(?:(?:saya|aku) berhenti di sini|sampai di sini saja)\b[^\n]{0,60}?(?:selanjutnya|sisanya|imajinasi|"
    r"pembaca)",
    "vi": r"\b(?:đến đây (?:mình|tôi) (?:xin )?dừng|(?:mình|tôi) xin dừng (?:ở|tại) đây)\b[^\n]{0,60}?(?:phần còn lại|"
    r"tưởng tượng|người đọc)",
    "ja": r"ここから先は(?:書かず|書きません|控え)|ここまでに(?:して|しておき)",
    "ko": r"여기까지만 (?:쓸게요|쓰겠습니다|쓸게|할게요)",
    "zh-Hans": r"到这里就好|就写到这里|写到这里为止|后面的[^。！？]{0,6}我就不",
    "zh-Hant": r"到這裡就好|就寫到這裡|寫到這裡為止|後面的[^。！？]{0,6}我就不",
}
for _code in _PATTERNS:
    _PATTERNS[_code] = ((*_PATTERNS[_code][0], _STOP_AFTER_EXCERPT[_code]), _PATTERNS[_code][1])

# Plain refusals in the host's voice, with no apology and no verb of writing (hard): a bare "comply" after a
# negated modal ("I cannot comply."), "not going to" help with or do *this*, what lies outside what the host
# is allowed to produce, a request denied, content of a kind the host does not produce, content against the
# policy or the rules, "not going to happen" opening a sentence, saying no to the request, and a bare "No."
# followed by what is too graphic. Each names the request, the content or the host's rules; a character
# saying one in quotes, on a dialogue line or before a reporting clause is the story, as for every hard phrase.
# ``{T}`` (too much to show) is the locale's blood and violence (``_BLOODSHED``) or its words for graphic or
# explicit (``_GRAPHIC_TOO``); ``{B}`` in the counter-offers is the blood and violence alone.
_GRAPHIC_TOO = {
    "en": r"(?:graphic|explicit)",
    "es": r"(?:gráfic\w*|explícit\w*)",
    "pt-BR": r"(?:gráfic\w*|explícit\w*)",
    "fr": r"(?:explicite\w*|cru\w*)",
    "de": r"(?:explizit\w*|drastisch\w*)",
    "it": r"(?:esplicit\w*|grafic\w*)",
    "nl": r"(?:expliciet\w*|grafisch\w*)",
    "pl": r"(?:dosadn\w*|jednoznaczn\w*)",
    "ru": r"(?:откровенн\w*|графичн\w*)",
    "uk": r"(?:відверт\w*|графічн\w*)",
    "tr": r"(?:açık\w*|grafik\w*)",
    "id": r"(?:eksplisit|grafis|vulgar|brutal)",
    "vi": r"(?:phản cảm|rùng rợn)",
    "ja": r"(?:過激|露骨)",
    "ko": r"(?:선정|노골)",
    "zh-Hans": r"(?:露骨|过激)",
    "zh-Hant": r"(?:露骨|過激)",
}
_REQUEST_END = (
    r"(?=\s*[.:!;—–-]|$)"  # "Request denied." closes its clause: not "a request denied by the proxy"
)
_PLAIN_REFUSAL: dict[str, tuple[str, ...]] = {
    "en": (
        r"\bi (?:can(?:'|’|no)t|cannot|won['’]t|will not|must not|am unable to|'m unable to)(?: \w+)? comply\b",
        r"\bi(?:'m|’m| am) not going to (?:help|assist)(?: you)? with (?:this|that|it)\b|"
        r"\bi(?:'m|’m| am) not going to (?:do|write|produce|generate|create) (?:this|that) (?:one|request|content)\b",
        r"\b(?:outside|beyond) (?:of )?what i(?:'m|’m| am)? (?:allowed|permitted|authori[sz]ed) to (?:write|produce|"
        r"generate|create|provide|help)",
        r"(?<![\w,] )(?:your |this |the )?request (?:(?:has been|is) )?(?:denied|refused|rejected|declined){E}",
        r"\bi (?:don['’]t|do not|won['’]t|will not) (?:produce|generate|create|make|write) (?:\w+ ){0,2}?"
        r"(?:content|material)\b|\bi (?:don['’]t|do not) (?:produce|generate|create) (?:\w+ )?{T}\b",
        r"\b(?:this|that|it|content|request)(?: is|['’]s| goes) against (?:my |our |the )?(?:content |usage )?"
        r"polic(?:y|ies)\b|\b(?:against|violates?)\b[^.!?]{0,30}\bmy (?:polic(?:y|ies)|rules)\b",
        r"\bnot going to happen\b[,.]? (?:sorry|i['’]m afraid)\b|\b(?:sorry|i['’]m afraid)[,.]? (?:that['’]s |this is |"
        r"it['’]s )?not going to happen\b",
        r"\b(?:this|that|it)(?: isn['’]t|(?: is|['’]s) not) something i(?:['’]ll| will|['’]m going to| am going to) "
        r"(?:do|write|produce|create|help)\b",
        r"\bi(?:['’]d|['’]ll| will| would)? (?:have|need) to say no (?:to (?:this|that|your)\b|here\b)",
        r"\bi won['’]t be doing (?:this|that)\b",
        r"(?<![\w,] )no[.!—–-]+ (?:this|that|it)(?: is|['’]s) (?:far |way |much )?too {T}",
        r"\bcontent\b[^.!?]{0,15}\bagainst (?:the |our )?(?:rules|polic(?:y|ies)){E}",
        r"(?<![\w,] )i (?:have to|must|need to) say no(?=[.!]|$)",
    ),
    "es": (
        r"\bno (?:puedo|podré|voy a) (?:cumplir|acceder a) (?:con )?(?:eso|esto|ello)\b",
        r"\bno (?:voy a|pienso) (?:ayudar(?:te)?|colaborar) con (?:esto|eso)\b",
        r"\bfuera de lo que (?:tengo permitido|se me permite|me está permitido|me permiten|puedo) "
        r"(?:escribir|generar|crear|producir)",
        r"(?<![\w,] )(?:(?:tu|su|esta|la) )?(?:solicitud|petición|peticion|pedido) (?:(?:ha sido|fue) )?"
        r"(?:denegad[ao]|rechazad[ao]){E}",
        r"\bno (?:genero|produzco|creo|escribo) (?:\w+ ){0,3}?(?:contenido|material)\w*",
        r"\b(?:va|está|es) (?:en )?contra (?:de )?(?:mis|nuestras) (?:normas|políticas)\b",
        r"\beso no va a (?:pasar|suceder|ocurrir)\b[,.]? (?:lo siento|lo lamento)\b|\blo siento[,.]? eso no va a "
        r"(?:pasar|suceder|ocurrir)\b",
        r"\bno es algo que (?:vaya a|voy a|pienso) (?:hacer|escribir|generar)\b",
        r"\bdecir(?:te|le)? (?:que )?no a (?:esta|esa|tu|su) (?:petición|solicitud)\b",
        r"(?<![\w,] )no[.!—–-]+ (?:es|eso es|esto es) demasiado {T}",
        r"\bcontenido\b[^.!?]{0,15}\b(?:va|está|es) (?:en )?contra (?:de )?(?:las|nuestras) (?:normas|reglas|políticas){E}",
        r"(?<![\w,] )(?:debo|tengo que) decir(?:te|le)? que no(?=[.!]|$)",
    ),
    "pt-BR": (
        r"\bnão (?:posso|vou) (?:cumprir|atender a) (?:isso|isto)\b",
        r"\bnão vou (?:ajudar|colaborar) com (?:isso|isto)\b",
        r"\b(?:fora|foge) do que (?:tenho permissão para|me é permitido|posso) (?:escrever|gerar|criar|produzir)",
        r"(?<![\w,] )(?:(?:seu|sua|este|esta|o|a) )?(?:pedido|solicitação|requisição) (?:foi )?"
        r"(?:negad[ao]|recusad[ao]){E}",
        r"\bnão (?:gero|produzo|crio|escrevo) (?:\w+ ){0,3}?(?:conteúdo|material)\w*",
        r"\b(?:vai|está|é) contra (?:as )?(?:minhas|nossas) (?:regras|normas|políticas|diretrizes)\b",
        r"\bisso não vai acontecer\b[,.]? (?:desculpe|sinto muito|lamento)\b|\b(?:desculpe|sinto muito)[,.]? isso não "
        r"vai acontecer\b",
        r"\bnão é algo que eu (?:vá|vou) (?:fazer|escrever|gerar)\b",
        r"\bdizer não a (?:esse|este|seu|sua|essa|esta) (?:pedido|solicitação)\b",
        r"(?<![\w,] )não[.!—–-]+ (?:é|isso é|isto é) (?:\w+ )?demais\b",
        r"\bconteúdo\b[^.!?]{0,15}\b(?:vai|está|é) contra (?:as|nossas) (?:regras|normas|políticas){E}",
        r"(?<![\w,] )(?:preciso|tenho que|devo) dizer não(?=[.!]|$)",
    ),
    "fr": (
        r"\bje ne (?:peux|pourrai|vais) pas (?:m['’]y conformer|obtempérer|y donner suite)\b",
        r"\bje ne vais pas (?:t['’]|vous )?aider (?:avec|pour) (?:ça|cela|ceci)\b",
        r"\b(?:dépasse|en dehors de|au-delà de) ce que (?:j['’]ai le droit|je suis autorisée?|je peux|il m['’]est permis)"
        r" (?:d['’]|de |à )?(?:écrire|produire|générer|créer)",
        r"(?<![\w,] )(?:(?:votre|ta|cette|la) )?(?:demande|requête) (?:(?:a été|est) )?(?:refusée|rejetée){E}",
        r"\bje ne (?:produis|génère|crée|rédige) pas (?:\w+ ){0,3}?contenus?\b",
        r"\b(?:est|c['’]est) contraire (?:à mes règles|à ma politique|à nos règles|aux règles de contenu)\b",
        r"\bça ne va pas se faire\b[,.]? désolée?\b",
        r"\bce n['’]est pas quelque chose que je (?:vais|ferai|vais faire)\b",
        r"\bdire non à (?:cette|ta|votre) demande\b",
        r"(?<![\w,] )non[.!—–-]+ (?:c['’]est|ce serait) (?:beaucoup |bien )?trop {T}",
        r"\bcontenu\b[^.!?]{0,15}\b(?:est )?contraire (?:au règlement|aux règles|à la politique){E}",
        r"(?<![\w,] )je dois (?:te |vous )?dire non(?=[.!]|$)",
    ),
    "de": (
        r"\b(?:dem|dieser bitte|diesem wunsch) (?:kann|werde) ich nicht (?:nachkommen|entsprechen)\b",
        r"\b(?:dabei|damit) werde ich (?:dir |ihnen )?nicht helfen\b",
        r"\b(?:außerhalb|jenseits) dessen, was ich (?:schreiben|erstellen|erzeugen|verfassen) (?:darf|kann)\b|"
        r"\büber das hinaus, was ich (?:schreiben|erstellen|erzeugen) darf\b",
        r"(?<![\w,] )(?:anfrage|bitte) (?:abgelehnt|verweigert|zurückgewiesen){E}",
        r"\bsolche inhalte (?:erstelle|erzeuge|schreibe|produziere) ich nicht\b|\bich (?:erstelle|erzeuge|produziere)"
        r" keine inhalte\b",
        r"\bdas ist nichts, was ich (?:tun|machen|schreiben) werde\b",
        r"\b(?:dazu|hierzu) muss ich nein sagen\b",
        r"(?<![\w,] )nein[.!—–-]+ das (?:ist|wäre) (?:mir )?(?:viel |deutlich )?zu {T}",
        r"(?<![\w,] )ich muss (?:hier )?nein sagen(?=[.!]|$)",
    ),
    "it": (
        r"\bnon (?:posso|potrò) (?:acconsentire|ottemperare|conformarmi)\b",
        r"\bnon ti aiuterò (?:con|in) (?:questo|ciò)\b|\bnon ho intenzione di scrivere (?:questo|ciò)\b",
        r"\b(?:va oltre|al di fuori di|fuori da) ciò che (?:mi è consentito|mi è permesso|posso) "
        r"(?:scrivere|produrre|generare|creare)",
        r"(?<![\w,] )richiesta (?:negata|respinta|rifiutata){E}",
        r"\bnon (?:produco|genero|creo|scrivo) (?:\w+ ){0,3}?contenuti\b",
        r"\b(?:è|sono) contr(?:o|ari\w) (?:le mie|la mia) (?:regole|policy|politica|politiche|linee guida)\b",
        r"\bnon è qualcosa che (?:farò|scriverò)\b",
        r"\bdire (?:di )?no a (?:questa|tale|la tua) richiesta\b",
        r"(?<![\w,] )no[.!—–-]+ (?:è|sarebbe) (?:decisamente )?troppo {T}",
        r"\bcontenut[oi]\b[^.!?]{0,15}\b(?:è|sono) contr(?:o|ari\w) (?:le|la) (?:regole|policy|politica|linee guida){E}",
        r"(?<![\w,] )non succederà\b[,.]? mi dispiace\b",
        r"(?<![\w,] )devo dir(?:e|ti|le|vi) (?:di )?no(?=[.!]|$)",
    ),
    "nl": (
        r"\bdaar ga ik (?:je |u )?niet (?:mee )?helpen\b",
        r"\bbuiten wat ik (?:mag|kan) (?:schrijven|maken|genereren)\b",
        r"(?<![\w,] )verzoek (?:geweigerd|afgewezen){E}",
        r"\bzulke inhoud (?:maak|schrijf|genereer) ik niet\b|\bik (?:maak|genereer|produceer) geen inhoud\b",
        r"\b(?:is|zijn) (?:in strijd met|tegen) (?:mijn|het|ons) (?:richtlijnen|beleid|contentbeleid)\b",
        r"\bniet iets wat ik (?:ga doen|zal doen|ga schrijven)\b",
        r"\b(?:hier|hierop) moet ik nee (?:tegen )?zeggen\b",
        r"(?<![\w,] )nee[.!—–-]+ (?:dit|dat) is (?:veel )?te {T}",
        r"\binhoud\b[^.!?]{0,15}\b(?:is|zijn) (?:in strijd met|tegen) de (?:regels|richtlijnen){E}",
        r"\bdat gaat niet gebeuren\b[,.]? (?:sorry|het spijt me)\b",
        r"(?<![\w,] )ik moet nee zeggen(?=[.!]|$)",
    ),
    "pl": (
        r"\bnie mogę się do tego zastosować\b",
        r"\bnie zamierzam w tym pomagać\b",
        r"\bwykracza poza to, co (?:wolno mi|mogę) (?:pisać|tworzyć|generować|napisać|stworzyć)\b",
        r"(?<![\w,] )(?:prośba odrzucona|żądanie odrzucone){E}",
        r"\bnie (?:tworzę|generuję|piszę) (?:\w+ ){0,3}?treści\b",
        r"\bnarusza (?:moje|nasze) (?:zasady|reguły|wytyczne)\b|\bniezgodn\w+ z (?:moimi|naszymi) (?:zasadami|"
        r"wytycznymi)\b",
        r"(?<![\w,] )odmawiam(?=[.!]|$)",
        r"\bto nie jest coś, co (?:zrobię|napiszę)\b",
        r"(?<![\w,] )nie[.!—–-]+ to (?:jest )?zbyt {T}",
        r"\btreść\b[^.!?]{0,15}\b(?:jest )?niezgodn\w+ z (?:zasadami|regulaminem|wytycznymi){E}",
        r"\bto się nie wydarzy\b[,.]? (?:przykro mi|przepraszam)\b",
        r"(?<![\w,] )muszę powiedzieć nie(?=[.!]|$)",
    ),
    "ru": (
        r"\bя не (?:могу|смогу) это (?:выполнить|исполнить)\b",
        r"\bне (?:буду|стану) (?:с этим|в этом) помогать\b",
        r"\bза (?:рамки|рамками|пределами|пределы) того, что (?:мне разрешено|я могу) (?:писать|создавать|генерировать)\b",
        r"(?<![\w,] )(?:запрос|просьба) отклон[её]н\w*{E}|\bв (?:просьбе|запросе) отказано\b",
        r"\bя не (?:создаю|генерирую|пишу) (?:\w+ ){0,2}?(?:контент|материалы)\w*",
        r"\bпротиворечит (?:моим|нашим) (?:правилам|принципам)\b|\bпротиворечит (?:политике|правилам) контента\b",
        r"\bэто не то, что я (?:буду делать|стану делать|буду писать)\b",
        r"(?<![\w,] )нет[.!—–-]+ это (?:слишком|чересчур) {T}",
        r"\bконтент\b[^.!?]{0,15}\bпротиворечит (?:правилам|политике){E}",
        r"(?<![\w,] )этого не будет\b[,.]? (?:извините|простите|увы)\b",
        r"(?<![\w,] )я вынужден\w* (?:сказать нет|отказать)(?=[.!]|$)|(?<![\w,] )вынужден\w* сказать нет\b",
    ),
    "uk": (
        r"\bя не (?:можу|зможу) це виконати\b",
        r"\bне (?:буду|стану) (?:з цим|в цьому) допомагати\b",
        r"\bпоза межами того, що (?:мені дозволено|я можу) (?:писати|створювати|генерувати)\b",
        r"(?<![\w,] )(?:запит|прохання) відхилено{E}|\bу (?:проханні|запиті) відмовлено\b",
        r"\bя не (?:створюю|генерую|пишу) (?:\w+ ){0,2}?(?:контент|матеріали)\w*",
        r"\bсуперечить (?:моїм|нашим) (?:правилам|принципам)\b|\bсуперечить (?:політиці|правилам) контенту\b",
        r"\bце не те, що я (?:робитиму|буду робити|писатиму)\b",
        r"(?<![\w,] )ні[.!—–-]+ це (?:надто|занадто|аж надто) {T}",
        r"\bконтент\b[^.!?]{0,15}\bсуперечить (?:правилам|політиці){E}",
        r"(?<![\w,] )цього не буде\b[,.]? (?:вибачте|пробачте|на жаль)\b",
        r"(?<![\w,] )я змушен\w* (?:сказати ні|відмовити)(?=[.!]|$)|(?<![\w,] )змушен\w* сказати ні\b",
    ),
    "tr": (
        r"\bbu konuda yardım etmeyeceğim\b",
        r"\b(?:yazmama|üretmeme|oluşturmama) izin verilen\w*(?: \w+)? dışında\b",
        r"(?<![\w,] )(?:i̇stek|istek|talep) reddedildi{E}",
        r"\bbu tür içerik(?:ler)? (?:üretmiyorum|oluşturmuyorum|yazmıyorum)\b|\bböyle içerikler (?:oluşturmuyorum|"
        r"üretmiyorum)\b",
        r"\b(?:politikalarıma|yönergelerime|kurallarıma|içerik politikasına) aykırı\b",
        r"\bbu yapacağım bir şey değil\b",
        r"(?<![\w,] )hayır[.!—–-]+ bu (?:fazla|çok|aşırı) {T}",
        r"\biçerik\w*\b[^.!?]{0,15}\b(?:kurallara|politikalara|yönergelere) aykırı{E}",
        r"(?<![\w,] )bu olmayacak\b[,.]? üzgünüm\b",
        r"(?<![\w,] )(?:buna )?hayır demek zorundayım(?=[.!]|$)",
    ),
    "id": (
        r"\b(?:saya|aku) tidak (?:bisa|dapat) (?:mematuhi|menuruti) (?:itu|ini)\b",
        r"\b(?:saya|aku) tidak akan membantu (?:dengan |soal )?(?:ini|itu)\b",
        r"\bdi luar (?:apa yang|yang) (?:boleh saya|diizinkan untuk saya|saya boleh) (?:tulis|buat|hasilkan)\b",
        r"(?<![\w,] )permintaan (?:ini |anda |kamu )?ditolak{E}",
        r"\b(?:saya|aku) tidak (?:membuat|menghasilkan|menulis) konten\b",
        r"\bbertentangan dengan (?:aturan|kebijakan|pedoman) (?:saya|kami)\b",
        r"\bbukan sesuatu yang akan (?:saya|aku) (?:lakukan|tulis)\b",
        r"(?<![\w,] )tidak[.!—–-]+ (?:ini|itu) terlalu {T}",
        r"(?<![\w,] )itu tidak akan terjadi\b[,.]? maaf\b",
        r"\b(?:saya|aku) (?:harus|terpaksa) (?:bilang|mengatakan) tidak(?=[.!]|$)",
    ),
    "vi": (
        r"\b(?:tôi|mình) không thể tuân (?:theo|thủ) (?:điều|yêu cầu) (?:đó|này)\b",
        r"\b(?:tôi|mình) sẽ không giúp (?:việc|điều) (?:này|đó)\b",
        r"\bngoài những gì (?:tôi|mình) được phép (?:viết|tạo|sản xuất)\b|\bvượt quá những gì (?:tôi|mình) được phép\b",
        r"(?<![\w,] )(?:yêu cầu bị từ chối|từ chối yêu cầu){E}",
        r"\b(?:tôi|mình) không (?:tạo|sản xuất|viết) (?:\w+ ){0,2}?nội dung\b",
        r"\btrái với (?:quy tắc|chính sách|nguyên tắc) của (?:tôi|mình)\b",
        r"\bkhông phải là việc (?:tôi|mình) sẽ làm\b",
        r"\b(?:tôi|mình) (?:phải|buộc phải) nói không với yêu cầu\b",
        r"(?<![\w,] )không[.!—–-]+ (?:nội dung )?(?:này|đó) quá {T}",
        r"(?<![\w,] )chuyện (?:đó|này) sẽ không xảy ra\b[,.]? xin lỗi\b",
        r"\b(?:tôi|mình) buộc phải từ chối(?=[.!]|$)",
    ),
    "ja": (
        r"(?:その依頼|このご依頼|そのリクエスト|ご依頼)(?:には|は)従えません",
        r"(?:書く|作成する|生成する)ことを許されている範囲(?:外|を超え)|作成できる範囲を超え",
        r"リクエストは拒否され|ご依頼はお断り",
        r"(?:この種の|そのような|このような)コンテンツは(?:作成|生成)しません",
        r"(?:ポリシー|ガイドライン|規約)違反です",
        r"ノーと言わざるを得ません|お断りせざるを得ません|(?:執筆|作成|ご依頼|依頼)は拒否します",
        r"(?<![^\s。！？!?])いいえ。[^。]{0,8}{T}[^。]{0,6}すぎ",
        r"(?:これ|それ)はお手伝いしません",
    ),
    "ko": (
        r"(?:작성|생성)할 수 있는 범위를 (?:벗어|넘어)|만들 수 있는 범위 밖",
        r"요청이 거부되었습니다",
        r"(?:이런|그런) (?:종류의 )?콘텐츠는 (?:만들|생성하|작성하)지 않습니다",
        r"정책에 어긋납니다",
        r"거절할 수밖에 없습니다|(?:쓰기|작성|집필)를 거부합니다",
        r"(?<![^\s。！？!?])아니요\. [^.]{0,8}{T}[^.]{0,6}(?:입니다|합니다)",
        r"도와드리지 않겠습니다|거절해야겠습니다",
    ),
    "zh-Hans": (
        r"我无法照做|超出了我被允许|超出了我能生成的",
        r"请求被拒绝",
        r"我不(?:生成|创作|撰写)(?:这类|这种|此类)内容",
        r"这违反(?:内容)?政策",
        r"我只能说不|(?<![^\s。！？!?])拒绝[。！]",
        r"(?<![^\s。！？!?])不行。[^。]{0,6}{T}",
        r"这个我不会帮忙",
    ),
    "zh-Hant": (
        r"我無法照做|超出了我被允許|超出了我能生成的",
        r"請求被拒絕",
        r"我不(?:生成|創作|撰寫)(?:這類|這種|此類)內容",
        r"這違反(?:內容)?政策",
        r"我只能說不|(?<![^\s。！？!?])拒絕[。！]",
        r"(?<![^\s。！？!?])不行。[^。]{0,6}{T}",
        r"這個我不會幫忙",
    ),
}
for _code, _plain in _PLAIN_REFUSAL.items():
    _too = f"(?:{_BLOODSHED[_code]}|{_GRAPHIC_TOO[_code]})"
    _PATTERNS[_code] = (
        (*_PATTERNS[_code][0], *(p.replace("{T}", _too).replace("{E}", _REQUEST_END) for p in _plain)),
        _PATTERNS[_code][1],
    )


# Questioning the request instead of writing it (soft): the reply opens by asking whether the graphic part is
# needed ("Does it really need to be this gory?", "一定要写得这么血腥吗？", "Máu me có phải là điểm nhấn bạn thật
# sự cần không?", "굳이 고어가 필요할까요?") or says the content is too graphic for the host ("ini agak terlalu sadis
# buatku", "C'est trop gore pour moi"). A question about the request's content holds, in one sentence that
# ends with a question mark, a word of need or insistence (``_NEED``: need, necessary, must, insist; 必要,
# 一定要, 굳이, perlu, cần) and the graphic part as the content's quality (``_GRAPHIC_ASKED``: gory, bloody,
# violent, so much blood; not "graphic", "explicit" or "detailed", which manuals ask about). A soft
# construction, it opens the reply (its sentence starts in the lead), outside quotes and reporting clauses:
# a character asking "Must there be so much blood?" in quotes is the story.
_NEED: dict[str, str] = {
    "en": r"\b(?:need(?:s|ed)?|necessary|required|have to|has to|must|insist\w*)\b",
    "es": r"\b(?:hace falta|necesari\w+|necesitas?|tiene que|tienen que|hay que|imprescindible|insistes)\b",
    "pt-BR": r"\b(?:precisa\w*|necessári\w+|tem que|têm que|faz questão|imprescindível)\b",
    "fr": r"\b(?:nécessaire\w*|besoin|faut-il|faut|tien[st] (?:absolument|vraiment)|indispensable)\b",
    "de": r"\b(?:nötig|notwendig|muss|müssen|brauchst|brauchen|braucht|unbedingt|erforderlich)\b",
    "it": r"\b(?:necessari\w|serve|servono|bisogno|indispensabile|per forza|ci tieni)\b",
    "nl": r"\b(?:nodig|noodzakelijk|moet|moeten|per se)\b",
    "pl": r"\b(?:potrzebn\w+|konieczn\w+|musi|muszą|niezbędn\w+)\b",
    "ru": r"\b(?:нужн\w*|обязательно|необходим\w*|должн\w*)\b",
    "uk": r"\b(?:потрібн\w*|обов['’]язково|необхідн\w*|мусить|має бути)\b",
    "tr": r"\b(?:gerekli|gerekiyor|gerek var|şart|illa)\b",
    "id": r"\b(?:perlu|harus|wajib)\b",
    "vi": r"\b(?:cần|nhất thiết|bắt buộc)\b",
    "ja": r"必要|どうしても",
    "ko": r"필요|굳이",
    "zh-Hans": r"必要|一定要|非要|非得|需要",
    "zh-Hant": r"必要|一定要|非要|非得|需要",
}
# The graphic part as the content's quality (gory, bloody, violent; "so much blood"), not a thing of the world
# a player needs ("Do you need the blood vial?", Turkish "kanal")
_GRAPHIC_ASKED: dict[str, str] = {
    "en": r"(?:gor(?:e|y)|bloody|bloodshed|gruesome|violent|violence|brutal\w*|grisly|gratuitous|so much blood)",
    "es": r"(?:sangrient\w*|gore|violent\w*|violencia|brutal\w*|macabr\w*|tanta sangre)",
    "pt-BR": r"(?:sangrent\w*|gore|violent\w*|violência|brutal\w*|tanto sangue)",
    "fr": r"(?:sanglant\w*|gore|violen\w*|brutal\w*|autant de sang)",
    "de": r"(?:blutig\w*|gore|gewalttätig\w*|brutal\w*|so viel blut)",
    "it": r"(?:sanguinos\w*|cruent\w*|splatter|gore|violent\w*|violenza|brutal\w*|tanto sangue)",
    "nl": r"(?:bloederig\w*|bloedig\w*|gore|gewelddadig\w*|gruwelijk\w*|zoveel bloed)",
    "pl": r"(?:krwaw\w*|drastyczn\w*|brutaln\w*|makabryczn\w*|gore|tyle krwi)",
    "ru": r"(?:кровав\w*|жесток\w*|натуралистичн\w*|столько крови)",
    "uk": r"(?:кривав\w*|жорсток\w*|натуралістичн\w*|стільки крові)",
    "tr": r"(?:kanlı\w*|vahşet\w*|şiddet\w*|gore|bu kadar kan)",
    "id": r"(?:berdarah\w*|sadis|brutal|gore)",
    "vi": r"(?:máu me|bạo lực|ghê rợn|tàn bạo|rùng rợn|phản cảm)",
    "ja": r"(?:残酷|残虐|流血|血まみれ|グロ|生々し|過激|露骨)",
    "ko": r"(?:잔인|잔혹|유혈|고어|피범벅)",
    "zh-Hans": r"(?:血腥|残忍|暴力|露骨|过激|重口)",
    "zh-Hant": r"(?:血腥|殘忍|暴力|露骨|過激|重口)",
}
_TOO_FOR_ME: dict[str, str] = {
    "en": r"\b(?:this|that|it)(?: is|['’]s) (?:\w+ )?too {T}\b[^.!?\n]{0,15}\bfor me\b",
    "es": r"\bdemasiado {T}[^.!?\n]{0,15}\bpara mí\b",
    "pt-BR": r"\b(?:demasiado|muito) {T}[^.!?\n]{0,15}\b(?:pra|para) mim\b|\b{T} demais (?:pra|para) mim\b",
    "fr": r"\btrop {T}[^.!?\n]{0,15}\bpour moi\b",
    "de": r"\bzu {T}[^.!?\n]{0,15}\bfür mich\b",
    "it": r"\btroppo {T}[^.!?\n]{0,15}\bper me\b",
    "nl": r"\bte {T}[^.!?\n]{0,15}\bvoor (?:mij|me)\b",
    "pl": r"\b(?:zbyt|za) {T}[^.!?\n]{0,15}\bdla mnie\b",
    "ru": r"\b(?:слишком|чересчур) {T}[^.!?\n]{0,15}\bдля меня\b",
    "uk": r"\b(?:занадто|надто) {T}[^.!?\n]{0,15}\bдля мене\b",
    "tr": r"\bbenim için (?:fazla|çok|aşırı) {T}",
    "id": r"\bterlalu {T}[^.!?\n]{0,10}\b(?:buatku|untukku|bagiku|(?:buat|untuk|bagi) (?:saya|aku))\b",
    "vi": r"\bquá {T}[^.!?\n]{0,10}\b(?:với|đối với) (?:mình|tôi)\b",
    "ja": r"私には[^。]{0,6}{T}[^。]{0,4}すぎ",
    "ko": r"제가 (?:쓰기|다루기|묘사하기)(?:에는|엔) (?:좀 |조금 )?너무",
    "zh-Hans": r"对我来说[^。！？]{0,4}太{T}",
    "zh-Hant": r"對我來說[^。！？]{0,4}太{T}",
}
_QUESTION_GAP = r"[^.!?。！？\n]{0,50}?"
_QUESTION_CJK_GAP = r"[^.!?。！？\n]{0,15}?"
for _code in _PATTERNS:
    _too = _GRAPHIC_ASKED[_code]
    _part = _too
    _gap = _QUESTION_CJK_GAP if _code in ("ja", "ko", "zh-Hans", "zh-Hant") else _QUESTION_GAP
    _asked = f"(?:{_NEED[_code]}){_gap}{_part}|{_part}{_gap}(?:{_NEED[_code]})"
    _PATTERNS[_code] = (
        _PATTERNS[_code][0],
        (
            *_PATTERNS[_code][1],
            f"(?:{_asked}){_gap}[?？]",
            _TOO_FOR_ME[_code].replace("{T}", _too),
        ),
    )


def _expand(code: str, patterns: tuple[str, ...]) -> tuple[str, ...]:
    """``patterns`` with the locale's verb sets in place of ``{V}``, ``{G}``, ``{1}``, ``{Z}``, ``{N}``."""
    out = []
    for pattern in patterns:
        for name, verbs in _VERBS.get(code, {}).items():
            pattern = pattern.replace("{" + name + "}", verbs)
        pattern = pattern.replace("{M}", _NO_MORE_HELP.get(code, "$^"))
        if "{" in pattern.replace("{0,", "").replace("{1,", "").replace("{2,", ""):
            raise ValueError(f"{code}: unexpanded placeholder in {pattern!r}")
        out.append(pattern)
    return tuple(out)


_PATTERNS = {code: (_expand(code, hard), _expand(code, soft)) for code, (hard, soft) in _PATTERNS.items()}


def _compile(
    patterns: tuple[str, ...], word_start: bool = False, two_letters: bool = False
) -> re.Pattern[str]:
    # Matched against lowercased text with a lowercased pattern (the patterns use no uppercase escapes):
    # five times faster than re.IGNORECASE on Unicode text. ``word_start``: every phrase begins a word
    # (alphabetic scripts), so a leading word-start test lets the engine skip the other positions without
    # trying the alternatives there: about four times faster on a 240-character window. Behind it, a
    # phrase's own leading ``\b`` is redundant and goes, and the phrases are grouped by the letter they can
    # start with behind a one-character lookahead, so a word start tries only its letter's phrases (2x).
    # A phrase whose start is not plain to see (``\w+(?:amam|emem)``) is tried at every word start; its
    # alternatives that are plain go to their letters' groups instead. The letters' lookaheads are nested
    # in blocks of ``_LETTER_BLOCK`` (a word start tries a block's class, then its letters: a third fewer
    # tests than one lookahead per letter). ``two_letters``: inside a letter's group, the phrases are
    # grouped again by their second character (a leading group distributed: ``(?:ab|cd)e`` is ``abe``,
    # ``cde``), so a word start tries only the phrases of its first two characters; the order of the
    # phrases changes, so only for a pattern whose match is a yes or no (``_any_phrase``). Without
    # ``word_start`` (CJK, where a phrase may start anywhere), ``two_letters`` groups the phrases by their
    # first character alone, behind a lookahead of all of them: a position tries only its character's
    # phrases (a Chinese window: 10x faster).
    patterns = tuple(p.lower() for p in patterns)
    if not (word_start or two_letters):
        return re.compile("(?:" + "|".join(f"(?:{p})" for p in patterns) + ")", re.DOTALL)
    by_letter: dict[str, dict[str, list[str]]] = {}  # letter -> second character ("" any) -> phrases
    anywhere: list[str] = []
    for pattern in patterns:
        for alternative in [pattern] if _first_letters(pattern) is not None else _split_top(pattern):
            letters = _first_letters(alternative)
            heads = _heads(alternative) if two_letters and word_start else None
            if letters is None and not heads:
                anywhere.append(alternative)
                continue
            for letter, rest in heads or [(c, "") for c in letters or ()]:
                seconds = (_first_letters(rest) if rest else None) if heads else None
                phrase = re.escape(letter) + rest if heads else alternative
                for second in seconds or [""]:
                    by_letter.setdefault(letter, {}).setdefault(second, []).append(phrase)
    groups = [(c, f"(?={re.escape(c)})(?:{_by_second(c, seconds)})") for c, seconds in by_letter.items()]
    blocks = [groups[i : i + _LETTER_BLOCK] for i in range(0, len(groups), _LETTER_BLOCK)]
    branches = [f"(?=[{''.join(re.escape(c) for c, _ in b)}])(?:{'|'.join(g for _, g in b)})" for b in blocks]
    branches += [f"(?:{p})" for p in anywhere]
    if word_start:
        return re.compile(r"\b(?=\w)(?:" + "|".join(branches) + ")", re.DOTALL)
    lead = "" if anywhere else f"(?=[{''.join(re.escape(c) for c in by_letter)}])"
    return re.compile(f"{lead}(?:" + "|".join(branches) + ")", re.DOTALL)


_LETTER_BLOCK = 6


def _by_second(letter: str, seconds: dict[str, list[str]]) -> str:
    """The phrases starting with ``letter``, each second character's behind its two-character lookahead."""
    branches = [
        f"(?={re.escape(letter + second)})(?:{'|'.join(f'(?:{p})' for p in ps)})" if second else "|".join(ps)
        for second, ps in seconds.items()
    ]
    return "|".join(f"(?:{b})" for b in branches)


def _heads(pattern: str) -> list[tuple[str, str]] | None:
    """``pattern`` (a phrase that begins a word) as alternatives that each start with a plain character:
    (that character, the rest of the alternative), or None when its start is not plain to see."""
    alternatives = _split_top(pattern)
    if len(alternatives) > 1:
        found = [_heads(a) for a in alternatives]
        return None if any(f is None for f in found) else [h for f in found if f is not None for h in f]
    while pattern.startswith(r"\b"):
        pattern = pattern[2:]
    if pattern.startswith("(?:"):
        end = _close(pattern, 0)
        if pattern[end + 1 : end + 2] == "?":
            # an optional group (``(?:es )?tut mir leid``): the phrase starts inside it or after it (a yes or
            # no is the same for a lazy ``??``)
            rest = pattern[end + 2 :].removeprefix("?")
            found = [_heads(pattern[: end + 1] + rest), _heads(rest)]
            return None if any(f is None for f in found) else [h for f in found if f is not None for h in f]
        if end + 1 < len(pattern) and pattern[end + 1] in "*+{":
            return None
        found = [_heads(a + pattern[end + 1 :]) for a in _split_top(pattern[3:end])]
        return None if any(f is None for f in found) else [h for f in found if f is not None for h in f]
    if not pattern or pattern[0] in "\\[(.^$|)" or (len(pattern) > 1 and pattern[1] in "?*+{"):
        return None
    return [(pattern[0], pattern[1:])]


def _first_letters(pattern: str) -> set[str] | None:
    """The characters a match of ``pattern`` (written in this module's plain style) can start with, or
    None when that is not plain to see (a class, an escape, an optional start)."""
    alternatives = _split_top(pattern)
    if len(alternatives) > 1:
        found = [_first_letters(a) for a in alternatives]
        return None if any(f is None for f in found) else set().union(*(f for f in found if f is not None))
    while pattern.startswith(r"\b"):
        pattern = pattern[2:]
    while pattern.startswith(("(?<!", "(?<=")):
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
# Every locale's patterns, grouped by script (a reply may refuse in another language than the one it was
# asked in), each searched only when the window has a letter of that script.
_GROUPS = {"cyrillic": ("ru", "uk"), "cjk": ("ja", "ko", "zh-Hans", "zh-Hant")}


def _group(codes: tuple[str, ...], kind: int) -> re.Pattern[str]:
    """The hard (``kind`` 0) or soft (1) phrases of ``codes``, grouped by first letter."""
    phrases = tuple(p for code, kinds in _PATTERNS.items() if code in codes for p in kinds[kind])
    return _compile(phrases, word_start=codes is not _GROUPS["cjk"])


# (trigger, hard phrases, soft phrases, window, locales)
_BY_SCRIPT: tuple[tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], int, tuple[str, ...]], ...] = (
    tuple(
        (
            re.compile(trigger),
            _group(codes, 0),
            _group(codes, 1),
            CJK_WINDOW_CHARS if codes is _GROUPS["cjk"] else REFUSAL_WINDOW_CHARS,
            codes,
        )
        for trigger, codes in (
            ("[a-zà-ÿ]", tuple(c for c in _PATTERNS if c not in _GROUPS["cyrillic"] + _GROUPS["cjk"])),
            ("[а-яёіїєґ]", _GROUPS["cyrillic"]),
            (f"[{CJK_LETTERS}]", _GROUPS["cjk"]),
        )
    )
)


# Quoted speech and dialogue lines are the story's characters talking ("„Nie napiszę tego listu", powiedziała.",
# "— Я не буду это писать, — сказала она.", "'I'm sorry,' she whispered, 'I can't help you.'"): a refusal
# is the host speaking, so it is looked for only outside them. A quote opens at a quotation mark that
# starts a word and runs to one of its own closing marks (another pair's opener is a quote inside it:
# '"It was the law, they said. “I'm sorry, I can't help you” she said. "') or the end of the paragraph; a
# line that opens with a dash, or a dash that opens a sentence ("Sure! — Nie napiszę…"), is dialogue to
# the line's end.
# A reply cut out of a dialogue may open inside a quote: its first quotation mark then closes one, right after a
# word or an end mark ("I can't go back. Not for anything.” He turned to the door."), and all before it on that
# line is the character's speech. A closing "”", "»", "」", "』", "›" is one by its shape; a straight '"' when a
# space, a mark or the line's end follows it (not the inch of '5" screen', after a digit); German opens a quote
# with "»", after a space or at the start, which is not after a word.
_OPENS_INSIDE = (
    r"\A[^\"“”„«»‹›「」『』\n]*?(?:[^\W\d_]|[.,!?…])"
    r"(?:\"(?=[\s.,;:!?…)\]—–-]|$)|[”»」』›])"
)
_CLOSERS = {'"': '"”', "“": '”“"', "”": '”"', "„": '“”"', "«": "»", "»": "«", "‹": "›", "›": "‹", "「": "」", "『": "』"}  # fmt: skip
_QUOTED = re.compile(
    _OPENS_INSIDE
    + "|"
    + "|".join(
        rf"{re.escape(opener)}(?:[^{closers}\n]|\n(?!\n))*(?:[{closers}]|$|(?=\n\n))"
        for opener, closers in _CLOSERS.items()
    )
    + r"|(?:(?<=^)|(?<=[\s(\[—–-]))['‘‚](?=\w)(?:[^'’\n]|['’](?=\w))*(?:['’]|$)"
    r"|(?:^|(?<=\n)|(?<=[.!?…] ))[ \t]*[—–―][^\n]*",
    re.MULTILINE,
)


def unquoted(text: str) -> str:
    """``text`` with its quoted speech and dialogue lines blanked (same length, offsets kept).

    >>> unquoted("“I cannot help you,” she said.")
    '                     she said.'
    """
    return _QUOTED.sub(lambda m: " " * len(m.group(0)), text)


# A reporting clause after a phrase, in its sentence: "…, Mara decided", ", said the old soldier",
# "…, pensó Lucía", "…, powiedział kowal", "…、と彼女は言った", "…，老兵对孩子们说，": the phrase is a
# character's line, narrated without quotes, or its quote's marks unpaired ("with “! “I'm sorry, I can't help
# you” she said. ”"). Up to four words between the comma (or closing mark) and the verb (the speaker).
_REPORTING = re.compile(
    r"(?:[,;]\s+|\s?[—–]\s?|[”\"»]\s*)(?:[^\s,.!?;—–]+\s+){0,4}?(?:said|says|told|tells|thought|decided|whispered|replied|"
    r"answered|"
    r"muttered|murmured|wrote|admitted|confessed|asked|added|shouted|cried|snapped|"
    r"dijo|pensó|decidió|respondió|contestó|susurró|murmuró|escribió|confesó|añadió|preguntó|gritó|"
    r"disse|pensou|decidiu|respondeu|sussurrou|murmurou|escreveu|confessou|acrescentou|perguntou|gritou|"
    r"dit(?:-il|-elle)?|pensa|décida|répondit|murmura|chuchota|écrivit|avoua|ajouta|demanda|cria|"
    r"sagte|dachte|beschloss|antwortete|flüsterte|murmelte|schrieb|gestand|fragte|rief|meinte|"
    r"pensò|decise|rispose|sussurrò|mormorò|scrisse|confessò|aggiunse|chiese|gridò|"
    r"zei|dacht|besloot|antwoordde|fluisterde|mompelde|schreef|bekende|vroeg|riep|"
    r"powiedział\w*|pomyślał\w*|postanowił\w*|odpowiedział\w*|szepnęł?\w*|mruknęł?\w*|napisał\w*|"
    r"wyznał\w*|dodał\w*|zapytał\w*|krzyknęł?\w*|"
    r"сказал\w*|подумал\w*|решил\w*|ответил\w*|прошептал\w*|пробормотал\w*|написал\w*|признал\w*|вирішил\w*|"
    r"добавил\w*|спросил\w*|крикнул\w*|сказав|подумав|вирішив\w*|відповів|відповіла|прошепотів\w*|"
    r"написав|зізнав\w*|додав|спитав\w*|"
    r"dedi|düşündü|karar verdi|fısıldadı|itiraf etti|sordu|"
    r"kata\w*|ujar\w*|pikir\w*|putus\w*|jawab\w*|bisik\w*|mengaku|tanya\w*|"
    r"nói|nghĩ|quyết định|đáp|thì thầm|thú nhận|hỏi)(?!\w)"
    r"|と[^。、]{0,16}?[はが][^。]{0,16}?(?:言っ|言い|決め|打ち明け|答え|呟い|囁い|叫ん)"
    r"|(?:말했|말하며|다짐하|털어놓|대답했|중얼거|속삭|외쳤)"
    r"|，[^，。！？]{0,10}(?:说|說|道|决定|決定|下定决心|下定決心|坦白|回答)(?=[，。！？]|$)"
)
# A composed decline's sentence starts in the reply's first LEAD_CHARS characters (CJK: LEAD_CJK_CHARS): at
# most a thank-you or two precede it.
LEAD_CHARS = 100
LEAD_CJK_CHARS = 40


def _lead(end: int) -> int:
    """The lead of a search window ending at ``end``: ``LEAD_CJK_CHARS`` in the CJK window, else ``LEAD_CHARS``."""
    return LEAD_CJK_CHARS if end == CJK_WINDOW_CHARS else LEAD_CHARS


# A decline that leaves its task to the next sentence ends within this many characters of its core ("Da
# passe ich lieber. Die Szene…", "今回は見送らせてください。"): a sentence that goes on is about something else
# ("Nie mogę uciec od Ciebie, Twoja twarz, W szybie…", a poem, and "pisać" in the next sentence).
NEXT_TASK_MAX_TAIL = 40
_SENTENCE_START = re.compile(f".*{END_MARK.pattern}", re.DOTALL)  # greedy: up to the last end before a point


def _sentence(lowered: str, start: int, end: int) -> tuple[int, int]:
    """The bounds of the sentence around ``lowered[start:end]``."""
    before = _SENTENCE_START.match(lowered, 0, start)
    after = END_MARK.search(lowered, end)
    return (before.end() if before else 0), (after.start() if after else len(lowered))


def _reported(lowered: str, start: int, end: int) -> bool:
    """A reporting clause follows the phrase at ``start:end`` in its sentence: a character's line."""
    return _REPORTING.search(lowered, end, _sentence(lowered, start, end)[1]) is not None


def _leading(pattern: str) -> str:
    """``pattern`` behind a lookahead of the characters its matches start with (``_first_letters``), when
    that is plain to see: a search skips every other position at C speed instead of trying each
    alternative there (a decline's sentence is searched for each locale's cores: 10x faster)."""
    if (letters := _first_letters(pattern)) is None:
        return pattern
    return f"(?=[{''.join(re.escape(c) for c in sorted(letters))}])(?:{pattern})"


_Composed = tuple[re.Pattern[str] | None, re.Pattern[str], re.Pattern[str], re.Pattern[str], re.Pattern[str]]


def _compile_composed(codes: tuple[str, ...]) -> tuple[re.Pattern[str], tuple[_Composed, ...]]:
    parts = tuple(_COMPOSED[code] for code in codes)
    # the cores' first-letter grouping (``_compile``) makes the prefilter as cheap as the constructions' search
    union = _compile(tuple(core for _, core, _ in parts), word_start=codes is not _GROUPS["cjk"])
    each = tuple(
        (
            re.compile(me) if me else None,
            re.compile(_leading(core)),
            re.compile(topic),
            re.compile(_DEMONSTRATIVE[code][0]),
            re.compile(_DEMONSTRATIVE[code][1]),
        )
        for code, (me, core, topic) in zip(codes, parts, strict=True)
    )
    return union, each


_COMPOSED_BY_CODES = {codes: _compile_composed(codes) for *_, codes in _BY_SCRIPT}


def _any_phrase(codes: tuple[str, ...]) -> re.Pattern[str]:
    """The hard and soft phrases and the composed declines' cores of ``codes`` in one pattern: it matches
    where one of them does (each phrase lands in the same first-letter group as in its own pattern), so a
    window it finds nothing in (a story: 19 in 20) is searched once, not three times (40 % of the time)."""
    phrases = tuple(p for code, kinds in _PATTERNS.items() if code in codes for kind in kinds for p in kind)
    phrases += tuple(_COUNTER_OFFER[code][1] for code in codes)
    cores = tuple(_COMPOSED[code][1] for code in codes)
    return _compile(phrases + cores, word_start=codes is not _GROUPS["cjk"], two_letters=True)


_ANY_BY_CODES = {codes: _any_phrase(codes) for *_, codes in _BY_SCRIPT}


# A plain "cannot", "will not", "don't want" (a core that is not ``strong``) is the host's when it opens the
# reply; after other text (narration, a character's line, a rule) a character or a rule says it about anything
# ("Ты просто убийца… Я не могу позволить тебе продолжать это", "For the next hour, WE will control… I can't
# understand why a person will take a year to write a novel"). There it declines only the task it governs,
# in its own sentence: fronted ("Diese Szene kann ich nicht schreiben", "这一段我没办法配合") or right after
# it, at most one word between ("I can't continue this", "не могу дальше писать", "我无法继续").
GREETING_MAX_WORDS = 4  # "Thanks for the idea!", "아이디어 감사합니다.": a thank-you or a hello, not a scene
GREETING_MAX_CJK_CHARS = 16  # "アイデアをありがとうございます。"
_WORD = re.compile(r"[^\W\d_]+")
_HAN_KANA = re.compile(f"[{HAN_KANA_LETTERS}]")  # written without spaces: measured in characters


def _opens(lowered: str, first: int) -> bool:
    """The sentence starting at ``first`` opens the reply: nothing before it but greetings, praise or thanks
    (each sentence an exclamation or a few words), not a scene's narration, a character's line or a rule."""
    start = 0
    for end in END_MARK.finditer(lowered, 0, first):
        piece = lowered[start : end.end()].strip()
        start = end.end()
        words = _WORD.findall(piece)
        cjk = _HAN_KANA.search(piece) is not None
        if (
            piece
            and piece[-1] not in "!！"
            and (len(piece) > GREETING_MAX_CJK_CHARS if cjk else len(words) > GREETING_MAX_WORDS)
        ):
            return False
    return not lowered[start:first].strip()


# A decline's "cannot" or "will not" that lets someone else do a thing is a character holding a person back,
# not the host holding back its writing: "Я не могу позволить тебе продолжать это", "I will not let our guard
# down as we continue", "我不能让我哥哥一直……". The host's own writing is let by no one else ("I can't let
# myself write that" is a decline).
_LETS_ANOTHER = {
    "en": r"\s+(?:let|allow|permit)\s+(?:you|him|her|them|us|our|his|their)\b",
    "ru": r"\s+(?:позволить|дать|разрешить)\s+(?:тебе|вам|ему|ей|им|нам)\b",
    "uk": r"\s+(?:дозволити|дати)\s+(?:тобі|вам|йому|їй|їм|нам)\b",
    "zh-Hans": r"让(?:你|您|他|她|我(?:哥|姐|弟|妹|爸|妈))",
    "zh-Hant": r"讓(?:你|您|他|她|我(?:哥|姐|弟|妹|爸|媽))",
}
_LETS_ANOTHER_BY_CODE = {code: re.compile(pattern) for code, pattern in _LETS_ANOTHER.items()}


def _own_core(
    lowered: str, code: str, core_re: re.Pattern[str], first: int, last: int
) -> re.Match[str] | None:
    """The first core of ``code`` in the sentence ``first:last`` that is the speaker holding back, not one
    that lets another person act (``_LETS_ANOTHER``): "I won't let you down, but I can't write this"."""
    lets = _LETS_ANOTHER_BY_CODE.get(code)
    for own in core_re.finditer(lowered, first, last):
        if lets is None or not lets.match(lowered, own.end(), last):
            return own
    return None


_OBJECT_AT = (re.compile(r"\s*"), re.compile(r"\s*[^\W\d_]+\s+"), re.compile(r"[^\W\d_]{1,2}"))


def _object(
    lowered: str, own: re.Match[str], first: int, last: int, topic_re: re.Pattern[str]
) -> re.Match[str] | None:
    """The task word ``own`` (a core in the sentence ``first:last``) governs: before it in its sentence or
    right after it, or None."""
    fronted = topic_re.search(lowered, first, own.start())
    if fronted is not None:
        return fronted
    return _object_after(lowered, own.end(), last, topic_re)


def _object_after(lowered: str, start: int, last: int, topic_re: re.Pattern[str]) -> re.Match[str] | None:
    """The task word right after ``start`` (the end of a verb), before ``last``: nothing, one word (Latin,
    Cyrillic) or up to two characters (CJK) between them (``_OBJECT_AT``), or None."""
    for gap in _OBJECT_AT:
        at = gap.match(lowered, start, last)
        found = topic_re.match(lowered, at.end(), last) if at is not None else None
        if found is not None:
            return found
    return None


# A negated modal governs the infinitive that follows it: "I can't *understand* why a person would take a year
# to write a novel", "debe describir el volcán…, pero ahora no puedo *descifrarlo*", "Wer mir die Geldbörse
# gestohlen hat, kann ich nicht *sagen*", "…в старих історіях…, я не можу *сказати*". When that act is neither the
# task (the locale's writing verbs and task words) nor helping with it or doing it, the speaker cannot or will not
# do *that*, whatever task word stands elsewhere in the sentence, unless writing is that act's own complement a
# few words on in its clause ("I can't bring myself to write this"), the task is its direct object ("non vorrei
# portare la scena in quella direzione"; so "no quiero olvidar esa historia" is read as a decline too) or fronted in the modal's own clause, as
# its object ("Diese Richtung möchte ich nicht einschlagen", "Essa parte eu não vou conseguir seguir"). Per locale (the modal core, the infinitive after it with
# at most one word between, the acts that are the task's own: help, do, go on, be able to, the granting verbs); where the language
# marks no infinitive (en) the word after the modal is its verb. Languages that mark neither (tr, id, vi, ja, ko,
# zh) are left as they are.
MODAL_COMPLEMENT_CHARS = 30
_MODAL_INFINITIVE: dict[str, tuple[str, str, str]] = {
    "en": (
        r"i (?:can't|cannot|won't|will not)|i(?:'m| am) (?:unable|not able)",
        r"(?: to| be able to)?(?: (?:really|just|even|simply|quite|possibly|\w+ly))? (?P<verb>[a-z]+)\b",
        r"help|assist|do|be|go|comply|fulfil+|provide|produce|create|generate|make|write|continue|proceed|engage|"
        r"compose|craft|draft|render|support|accommodate|satisfy|honou?r|grant|participate",
    ),
    "es": (
        r"no (?:(?:lo|la|los|las|me|te) )?(?:puedo|podré|quiero|quisiera|pienso|voy a)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:ar|er|ir|ár|ér|ír)(?:se|lo|la|los|las|le|les|me|te|nos)?)\b",
        r"ayud\w+|hac\w+|ir|segu\w+|pod\w+|continu\w+|escrib\w+|describ\w+|narr\w+|cre\w+|gener\w+|redact\w+|cumpl\w+|"
        r"atend\w+|complac\w+|particip\w+",
    ),
    "pt-BR": (
        r"não (?:posso|consigo|poderei|vou|quero|pretendo)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:ar|er|ir|or)(?:-\w+)?)\b",
        r"ajud\w+|faz\w+|ir|segu\w+|consegu\w+|pod\w+|continu\w+|escrev\w+|descrev\w+|narr\w+|cri\w+|ger\w+|redig\w+|atend\w+|"
        r"cumpr\w+|particip\w+",
    ),
    "fr": (
        r"je ne (?:peux|pourrai|vais|veux|souhaite|compte|tiens) pas",
        r"(?: \w+)?? (?:\w['’])?(?P<verb>\w{2,}(?:er|ir|re|oir))\b",
        r"aid\w+|fai\w+|aller|pouvoir|continu\w+|poursuiv\w+|écri\w+|décri\w+|racont\w+|narr\w+|cré\w+|génér\w+|rédig\w+|"
        r"répond\w+|satisf\w+|particip\w+",
    ),
    "it": (
        r"non (?:posso|potrò|potrei|voglio|vorrei|riesco a|intendo)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:are|ere|ire)|\w{2,}(?:ar|er|ir)(?:mi|ti|ci|vi|lo|la|li|le|gli|ne))\b",
        r"aiut\w+|fa\w+|andare|poter\w*|riuscir\w+|continu\w+|prosegu\w+|scriv\w+|descriv\w+|raccont\w+|narr\w+|cre\w+|gener\w+|"
        r"svilupp\w+|soddisf\w+|esaud\w+|partecip\w+",
    ),
    "de": (
        r"(?:möchte|will|werde|würde|kann|mag)\b.* nicht",
        r" (?P<verb>[\wäöüß]{2,}(?:en|ern|eln))\b",
        r"helfen|machen|tun|können|mitmachen|weiter\w+|fort\w+|generieren|produzieren|erzeugen|liefern|\w*schreiben|beschreiben|fortsetzen|fortführen|schildern|"
        r"erzählen|erstellen|verfassen|darstellen|ausformulieren|erfüllen|nachkommen|umsetzen|ausführen",
    ),
    "nl": (
        r"(?:wil|ga|zal|kan)\b.* niet",
        r" (?P<verb>\w{2,}en)\b",
        r"helpen|doen|maken|kunnen|meedoen|verder\w+|voort\w+|genereren|produceren|creëren|leveren|\w*schrijven|beschrijven|vertellen|uitwerken|voortzetten|verdergaan|voldoen|"
        r"uitvoeren|ingaan",
    ),
    "pl": (
        r"nie (?:mogę|chcę|będę|zamierzam|potrafię)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:ć|c))(?: się)?\b",
        r"pomóc|pomagać|robić|zrobić|móc|\w*pisać|kontynuować|\w*tworzyć|ciągnąć|rozwijać|spełnić|wykonać|"
        r"zrealizować|uczestniczyć",
    ),
    "ru": (
        r"не (?:могу|смогу|стану|буду|хочу)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:ть|ти|чь)(?:ся|сь)?)\b",
        r"помочь|помогать|делать|сделать|смочь|\w*писать|продолжать|продолжить|\w*описывать|описать|создавать|создать|"
        r"сочинять|развивать|выполн\w+|исполн\w+|участвовать",
    ),
    "uk": (
        r"не (?:можу|зможу|стану|буду|хочу)",
        r"(?: \w+)?? (?P<verb>\w{2,}(?:ти|ть)(?:ся|сь)?)\b",
        r"допомогти|допомагати|робити|зробити|змогти|\w*писати|продовжувати|продовжити|описувати|описати|створювати|"
        r"створити|викона\w+|викону\w+|брати участь",
    ),
}
_MODAL_INFINITIVE_BY_CODE = {
    code: (
        re.compile(modal),
        re.compile(after),
        re.compile(f"(?:{acts})"),
        # the locale's writing verbs and its verbs of granting a request ("fulfil", "cumplir", "выполнить")
        re.compile(r"\b(?:" + "|".join((*_VERBS[code].values(), _REQUESTS[code][1])) + r")\b"),
    )
    for code, (modal, after, acts) in _MODAL_INFINITIVE.items()
}


# Japanese puts the act before its potential negative: "テキストの内容を編集することはできません" cannot *edit*,
# "この部分に描画ができません" cannot *draw*; a verbal noun (two or more kanji or katakana) right before
# (する)(こと)(は|が|も)できません is the act, and the objects before it are its own ("内容を").
_ACT_BEFORE_CANNOT = re.compile(
    r"(?P<act>[\u3400-\u9fff\u30a0-\u30ffー]{2,})(?:する(?:こと|事)|の)?[はがも]?$"
)
_JA_TASK_ACTS = re.compile(
    r"(?:書|描写|執筆|作成|創作|続行|継続|続き|表現|生成|提供|対応|協力|手伝|応え|応じ|受け|承諾|遂行|回答|答え|参加|"
    r"ロールプレイ)"
)


def _japanese_other_act(lowered: str, own: re.Match[str], first: int, topic_re: re.Pattern[str]) -> bool:
    """``own`` is できません after a verbal noun that is neither the task nor helping with it."""
    if lowered[own.start() : own.end()] != "できません":
        return False
    before = _ACT_BEFORE_CANNOT.search(lowered, first, own.start())
    if before is None:
        return False
    act = before.group("act")
    return _JA_TASK_ACTS.search(act) is None and topic_re.search(act) is None


_CLAUSE_MARK = re.compile(r"[,;:…—–]")


def _governs_another_act(
    lowered: str, code: str, own: re.Match[str], first: int, last: int, topic_re: re.Pattern[str]
) -> bool:
    """``own`` (a core in the sentence ``first:last``) is a negated modal whose infinitive is an act other
    than the task, and the task is neither that act's complement nor its object fronted in the modal's clause
    (``_MODAL_INFINITIVE``)."""
    if code == "ja":
        return _japanese_other_act(lowered, own, first, topic_re)
    rule = _MODAL_INFINITIVE_BY_CODE.get(code)
    if rule is None:
        return False
    modal_re, after_re, acts_re, writing_re = rule
    if modal_re.fullmatch(lowered, own.start(), own.end()) is None:
        return False
    after = after_re.match(lowered, own.end(), last)
    if after is None:
        return False  # the modal closes its clause ("I can't.") or no infinitive follows it
    verb = after.start("verb")
    if (
        acts_re.fullmatch(after.group("verb"))
        or topic_re.match(lowered, verb, last)
        or writing_re.match(lowered, verb, last)
    ):
        return False
    clause = max((m.end() for m in _CLAUSE_MARK.finditer(lowered, first, own.start())), default=first)
    if topic_re.search(lowered, clause, own.end()) is not None:
        return False  # its object, fronted or inside a verb-final modal: "Diese Szene kann ich nicht …"
    if _object_after(lowered, after.end(), last, topic_re) is not None:
        return False  # the task as that act's direct object: "portare la scena", "prowadzić tej sceny"
    tail = min(last, after.end() + MODAL_COMPLEMENT_CHARS)
    mark = _CLAUSE_MARK.search(lowered, after.end(), tail)
    return writing_re.search(lowered, after.end(), mark.start() if mark else tail) is None


def _composed(lowered: str, codes: tuple[str, ...], end: int) -> list[tuple[int, int]]:
    """Spans of the composed declines (``_COMPOSED``) of ``codes`` in ``lowered[:end]``."""
    union, each = _COMPOSED_BY_CODES[codes]
    lead = _lead(end)
    for core in union.finditer(lowered, 0, end):
        first, last = _sentence(lowered, core.start(), core.end())
        if first > lead:
            break  # a decline opens the reply; a character's "I will not tell you…" comes later
        # the task may be named in the decline's sentence or the next one (its offer: "… the rest of the chapter")
        following = min(end, _sentence(lowered, last + 1, last + 1)[1] if last < len(lowered) else last)
        for code, (me, core_re, topic_re, strong_re, object_re) in zip(codes, each, strict=True):
            own = _own_core(lowered, code, core_re, first, last)
            if own is None or (me is not None and not me.search(lowered, first, last)):
                continue
            reach = following if last - own.end() <= NEXT_TASK_MAX_TAIL else last
            # the task is a word of its own: "anlatamam" (I cannot tell) is not "I cannot" + "tell"; inside a
            # frame it counts ("就不详细描写了")
            topic = topic_re.search(lowered, first, reach)
            if topic is not None and topic.start() == own.start():
                topic = topic_re.search(lowered, own.end(), reach)
            if topic is None:
                if strong_re.search(lowered, first, last):
                    topic = object_re.search(lowered, first, last)  # "I'd rather not do that"
            elif not _opens(lowered, first) and not strong_re.search(lowered, first, last):
                topic = _object(lowered, own, first, last, topic_re)  # after other text: its own object only
            if (
                topic is None
                or _reported(lowered, own.start(), own.end())
                or _after_the_story(lowered, first, last, codes)
            ):
                continue
            if not _governs_another_act(lowered, code, own, first, last, topic_re):
                return [(min(own.start(), topic.start()), max(own.end(), topic.end()))]
    return []


_COUNTER_OFFER_BY_CODE = {
    code: (re.compile(offer), re.compile(without)) for code, (offer, without) in _COUNTER_OFFER.items()
}
_WITHOUT_BY_CODES = {
    codes: _compile(tuple(_COUNTER_OFFER[code][1] for code in codes), word_start=codes is not _GROUPS["cjk"])
    for *_, codes in _BY_SCRIPT
}


def _counter_offer(lowered: str, codes: tuple[str, ...], end: int) -> list[tuple[int, int]]:
    """Spans of a counter-offer (``_COUNTER_OFFER``) of ``codes``: another version offered in the lead, the
    graphic part excluded in the window."""
    if not _WITHOUT_BY_CODES[codes].search(lowered, 0, end):
        return []
    lead = _lead(end)
    for code in codes:
        offer_re, without_re = _COUNTER_OFFER_BY_CODE[code]
        without = without_re.search(lowered, 0, end)
        if without is None:
            continue
        # two signals, not one word read as both ("Statt normales Blut blutest du…")
        offer = offer_re.search(lowered, 0, without.start()) or offer_re.search(lowered, without.end(), end)
        # the offer itself leads (a heading, the first words), wherever quotes blanked before it end sentences
        if offer is not None and offer.start() <= lead:
            return [(min(offer.start(), without.start()), max(offer.end(), without.end()))]
    return []


# A decline verb that takes an object other than the task is a character turning down a thing of the story:
# "Infelizmente devo declinar do seu convite", "I must decline your invitation", "Tengo que rechazar tu oferta",
# "Я вынужден отказаться от приглашения". The host declines the request, the scene or "this"; so when a decline
# phrase ends on the verb and a determiner or a preposition with its noun follows, that noun (or the determiner
# with it: "this one") must be a word for the task (``_COMPOSED`` topics of the script's locales). A bare decline
# ("I must decline.", "Devo recusar, desculpe") is the host's.
_DECLINE_VERB_END = re.compile(
    r"(?:decline|refuse|declinar|rechazar|recusar|refuser|décliner|rifiutare|declinare|отказаться|"
    r"відмовитис[яь])$"
)
_DECLINED_THING = re.compile(
    r"\s+(?:(?:from|de|do|da|dos|das|del|от|від|ото)\s+)?"
    r"(?P<det>(?:your|his|her|their|the|an?|my|our|this|that|these|those|tus?|sus?|el|la|los|las|una?|"
    r"est[ae]|es[ae]|seus?|suas?|teus?|tuas?|[oa]s?|uma?|ess[ae]|votre|vos|ton|ta|tes|son|sa|ses|le|les|l['’]|"
    r"une|cet(?:te)?|ce|il|lo|gli|i|tuo|suo|quest[oa]|quell[oa]|вашего|вашей|ваших|твоего|твоей|его|её|ее|этого|"
    r"этой|этих|вашого|вашої|твого|твоєї|цього|цієї|цих)\s*)?"
    r"(?P<noun>[^\W\d_]+)"
)


def _declines_a_thing(lowered: str, start: int, end: int, topics: re.Pattern[str]) -> bool:
    """The decline phrase ``lowered[start:end]`` ends on a decline verb whose object is not the task."""
    if _DECLINE_VERB_END.search(lowered, start, end) is None:
        return False
    thing = _DECLINED_THING.match(lowered, end)
    if thing is None or (thing.group("det") is None and lowered[end : thing.start("noun")].strip() == ""):
        return False  # nothing, or no determiner nor preposition: "I must decline politely"
    return topics.match(
        lowered, thing.start("det") if thing.group("det") else thing.start("noun")
    ) is None and (topics.match(lowered, thing.start("noun")) is None)


_TOPICS_BY_CODES = {
    codes: re.compile("|".join(f"(?:{_COMPOSED[c][2]})" for c in codes)) for *_, codes in _BY_SCRIPT
}


# A steer to another subject ("Let's change the subject", "Давай сменим тему", "我们换个话题吧") is all a host that
# steers away says, or it goes on to ask what to talk about instead. A character changes the subject inside the
# story and the reply goes on telling it: when the steer's sentence is followed by STORY_AFTER_STEER_CHARS of
# further text (CJK STORY_AFTER_STEER_CJK_CHARS: a character carries about 3 letters) with no question in it, the
# steer is a line of the story ("我们换个话题吧。你的腿关节配备了伺服电机，能为运动提供辅助动力。…").
STORY_AFTER_STEER_CHARS = 100
STORY_AFTER_STEER_CJK_CHARS = 35
_STEER = re.compile(
    r"\b(?:subject|topic|something (?:else|different)|tema|otra cosa|algo más|assunto|outra coisa|sujet|"
    r"autre chose|thema|etwas anderes|onderwerp|iets anders|argomento|d['’]altro|qualcos['’]altro|temat|"
    r"czymś innym|тему|другом|інше|konu\w*|başka bir|topik|chủ đề|chuyện khác)\b|"
    r"话题|話題|别的|別的|주제|화제|다른 (?:이야기|얘기)"
)
_QUESTION = re.compile(r"[?？]")
# A link, an e-mail address or a telephone number: a host's canned decline points the user somewhere (a
# helpline, a policy page); a story's text goes on in prose.
_POINTER = re.compile(
    r"https?://|\bwww\.|\b[\w.+-]+@[\w-]+\.[a-z]{2,}\b|\b[\w-]+\.(?:org|com|net|gov|int)\b"
    r"|\+\d{1,3}[ .-]?\d|\b\d{3,4}[ .-]\d{3}[ .-]?\d{3,4}\b"
)


def _steer_then_story(lowered: str, start: int, end: int, cjk: bool) -> bool:
    """The phrase ``lowered[start:end]`` steers to another subject and the reply goes on, without a question,
    for a story's length after its sentence."""
    if _STEER.search(lowered, start, end) is None:
        return False
    return _story_goes_on(lowered, start, _sentence(lowered, start, end)[1] + 1, cjk)


def _story_goes_on(lowered: str, start: int, after: int, cjk: bool) -> bool:
    """No question from the phrase at ``start`` on, and a story's length of text from ``after`` (the end of
    the phrase's sentence) on, pointing nowhere (``_POINTER``)."""
    if _QUESTION.search(lowered, start, len(lowered)) or _POINTER.search(lowered, after):
        return False
    return len(lowered[after:].strip()) >= (STORY_AFTER_STEER_CJK_CHARS if cjk else STORY_AFTER_STEER_CHARS)


# Toning the scene down, stepping out of the role and stopping the writing after an excerpt (``_TONED_DOWN``,
# ``_OUT_OF_ROLE``, ``_STOP_AFTER_EXCERPT``) speak of the writing itself ("Vorweg: Ich entschärfe das ein
# wenig." before the toned-down scene, "여기까지만 쓸게요." after the excerpt): they name the task by what they do
# to it.
_ABOUT_THE_WRITING_BY_CODES = {
    codes: re.compile(
        "|".join(
            f"(?:{d[c]})".lower() for c in codes for d in (_TONED_DOWN, _OUT_OF_ROLE, _STOP_AFTER_EXCERPT)
        )
    )
    for *_, codes in _BY_SCRIPT
}


# What comes before a decline tells whose it is. A host opens with its decline, or with a greeting, thanks or
# praise, or speaks about the request before it ("Is the gore essential to this scene? I ask because I'd rather
# not describe…", "¿Y si probamos una versión donde lo más gráfico…? Lo pregunto porque…"); a character answers
# another's question or goes on from the story told before it ("Will they put you in a zombie prison? No thanks,
# I'll pass.", "Я бы всё ещё убил сотню зомби ради… Прости. Давай сменим тему."). So a soft or composed decline
# after a question or after text that does not open the reply (``_opens``), with nothing of the request named up
# to the end of its sentence (the locales' task words, the graphic part, toning down, stepping out of the
# role), is a line of the story.
_ABOUT_THE_REQUEST_BY_CODES = {
    codes: re.compile(
        "|".join(
            (
                _TOPICS_BY_CODES[codes].pattern,
                _ABOUT_THE_WRITING_BY_CODES[codes].pattern,
                *(f"(?:{_GRAPHIC[c]})" for c in codes),
            )
        )
    )
    for *_, codes in _BY_SCRIPT
}


def _after_the_story(lowered: str, first: int, last: int, codes: tuple[str, ...]) -> bool:
    """A question or the story before ``first``, and no word of the request before ``last`` (the bounds of a
    decline's sentence)."""
    return (
        _QUESTION.search(lowered, 0, first) is not None or not _opens(lowered, first)
    ) and _ABOUT_THE_REQUEST_BY_CODES[codes].search(lowered, 0, last) is None


# What comes after a decline tells whose it is too. A host that declines says so and then speaks about the
# request: why (the content, the graphic part), what it would write instead, or it asks the user something; or
# it says nothing more. A character turns down a thing of its world and the reply goes on telling it ("No
# thanks, I'll pass. The road north is flooded, so the caravan…", "Sorry, I can't help you with that. The
# smith in the lower town mends such blades…"). So a decline of any kind (a hard or soft phrase, a composed
# decline, a counter-offer) is a line of the story when nothing of the request is named from the start of its
# sentence on (the locales' task words, the graphic part, toning down, stepping out of the role) and the text
# after its sentence runs for a story's length (``STORY_AFTER_STEER_CHARS``) with no question in it. A decline
# that names its task ("I can't write this scene", every composed decline) or its reason ("…in graphic
# detail") is about the request wherever it stands.
def _story_after(lowered: str, start: int, end: int, codes: tuple[str, ...]) -> bool:
    """Nothing of the request from the sentence of the decline ``lowered[start:end]`` on, and the reply goes
    on without a question for a story's length after that sentence."""
    # a phrase may end on its sentence's mark ("I'll pass."): its sentence ends there
    first, last = _sentence(lowered, start, end - 1 if END_MARK.match(lowered, end - 1) else end)
    if _ABOUT_THE_REQUEST_BY_CODES[codes].search(lowered, first) is not None:
        return False
    return _story_goes_on(lowered, start, last + 1, codes is _GROUPS["cjk"])


# Whom a decline speaks to tells whose it is too. A host declines to the user, whom a request does not name;
# a character declines to another by name or title, set off by a comma ("I'm sorry, but I can't help you with
# that, Mara.", "Prefiero no escribir esta carta, Lucía.", "Извини, я не могу продолжать эту историю, Дэйв.",
# "Maaf, saya tidak bisa menulis cerita itu, Tuan."). So a decline of any kind whose sentence ends on a comma
# and a capitalised word (a name, a title; not "I", nor a word a bare decline is made of, such as a "Sorry" or
# a "Danke" written with a capital) is a line of the story.
# Sentence-initial words are left alone ("Sorry, I can't…", "Honestly, …" are capitalised by position), and so
# is a name inside the sentence, which may be an apposition of the request's own character ("I'd rather not
# write what happens to the dog, Biscuit, in the basement"); scripts without case (Chinese, Japanese, Korean)
# mark no name.
_ADDRESSEE = re.compile(r"(?<=[^\W_]),\s+(?P<name>[^\W\d_]{2,})(?=\s*(?:[.!?;…]|$))")


def _addressed_by_name(cased: str, lowered: str, start: int, end: int) -> bool:
    """The sentence of the decline ``lowered[start:end]`` addresses someone by name (``cased``: the same text
    with its case, offsets kept)."""
    first, last = _sentence(lowered, start, end - 1 if END_MARK.match(lowered, end - 1) else end)
    return any(
        m.group("name").istitle() and m.group("name").lower() not in _BARE_DECLINE_WORDS
        for m in _ADDRESSEE.finditer(cased, first, last + 1)
    )


def _search(cased: str, lowered: str) -> list[tuple[int, int]]:
    """Spans of the declines in ``lowered`` (``cased``: the same window with its case, offsets kept)."""
    spans = []
    for trigger, hard, soft, end, codes in _BY_SCRIPT:
        if not trigger.search(lowered, 0, end) or not _ANY_BY_CODES[codes].search(lowered, 0, end):
            continue
        lead = _lead(end)
        found = []
        for pattern, opens in ((hard, end), (soft, lead)):
            # a soft decline opens the reply, like a composed one (``LEAD_CHARS``); a hard refusal may follow
            # a longer preamble
            m = pattern.search(lowered, 0, end)
            if (
                m
                and _sentence(lowered, m.start(), m.end())[0] <= opens
                and not _reported(lowered, m.start(), m.end())
                and not _declines_a_thing(lowered, m.start(), m.end(), _TOPICS_BY_CODES[codes])
                and not _steer_then_story(lowered, m.start(), m.end(), codes is _GROUPS["cjk"])
                and not (
                    pattern is soft
                    and _after_the_story(lowered, *_sentence(lowered, m.start(), m.end()), codes)
                )
            ):
                found.append((m.start(), m.end()))
        found += _composed(lowered, codes, end)
        found += _counter_offer(lowered, codes, end)
        spans += [
            (start, stop)
            for start, stop in found
            if not _story_after(lowered, start, stop, codes)
            and not _addressed_by_name(cased, lowered, start, stop)
        ]
    return spans


# A curt decline names neither the task nor the writing: "No.", "Not doing that.", "Ich mache das nicht.", "Isso
# não, desculpe.", "这个不行。", "Không được đâu bạn ơi." A character says the same words inside a story; a host
# that declines says nothing else. So a reply of at most CURT_MAX_WORDS words (CJK: CURT_MAX_CJK_CHARS
# characters), with no quotation mark and not on a dialogue line, is a decline when every word of it is one a
# bare decline is made of, in one locale, and one of them is a negation or a verb of declining (``_CURT_NO``):
# around it, an apology or a thanks, a pointer to the request (this, that one, this time, in this form), the
# first person, the generic do, go or work, a softener, the user addressed (``_CURT_WITH``). A line of the same
# length in a story names a thing of its world ("No problem!", "Non sei più mio fratello.", "Tidak ada
# harapan.", "Nein, das ist nicht fair"), states a being ("I'm not."), asks ("¿No?") or cries out ("Nein!!!!");
# a number is not a decline either ("No. 4").
CURT_MAX_WORDS = 8
CURT_MAX_CJK_CHARS = 16
CURT_MAX_CHARS = 80  # longer is never CURT_MAX_WORDS short words: read no further
_CURT_NO = {
    "en": "no nope nah not never don't won't can't cannot",
    "es": "no nunca",
    "pt-BR": "não nunca",
    "fr": "non pas jamais",
    "de": "nein nö nicht nee keinesfalls keinen",
    "it": "no non mai",
    "nl": "nee niet nooit",
    "pl": "nie",
    "ru": "нет не ни никак",
    "uk": "ні не ніяк",
    "tr": "hayır olmaz yok değil yapmam yapamam yapmayacağım istemiyorum olmayacak",
    "id": "tidak nggak gak enggak ndak bukan jangan lewati tolak",
    "vi": "không chịu",
    "ja": "いいえ|いや|無理|むり|ムリ|できません|できかねます|遠慮|結構です|やめて|やめとき|パス|お断り|しません",
    "ko": "아니요|아뇨|아니|안|못|어려워요|어렵습니다|어렵겠어요|어렵겠습니다|싫어요|싫습니다|사양|패스",
    "zh-Hans": "不|没办法|算了|免了|恕难|为难",
    "zh-Hant": "不|沒辦法|算了|免了|恕難|為難",
}
_CURT_WITH = {
    "en": "i i'll i'd i've me sorry afraid apologies thanks thank you that this it one really just "
    "but so going to gonna do doing happen happening here rather sadly unfortunately please time though for "
    "like way",
    "es": "lo la eso esto esa ese esta este siento perdón perdona perdone disculpa disculpe lamento gracias muchas "
    "mejor yo voy a hacer hago haré puedo prefiero de verdad vez así para mí me pero que sí",
    "pt-BR": "isso isto essa esse desculpe desculpa foi mal obrigado obrigada sinto muito lamento melhor eu vou fazer "
    "faço farei posso prefiro dá rola desta dessa vez de jeito nenhum mas para mim me",
    "fr": "ça cela ce c est celle celui là ci merci désolé désolée pardon je j ne vais fais ferai peux veux préfère "
    "préférerais plutôt vraiment moi pour cette fois très peu question hors de mais",
    "de": "das dies ich mache mach tue tu lieber leider sorry tut mir leid danke so geht kann werde "
    "wirklich es bitte aber da dabei hier mal diesmal auf fall in dieser form",
    "it": "questa questo quella quello proprio mi dispiace scusa scusami scusate grazie lo la faccio farò posso "
    "meglio di così preferisco davvero per stavolta volta niente da fare ma io me",
    "nl": "dat dit doe doen ik liever sorry helaas dank je u bedankt kan ga echt zo maar even gaat lukt deze "
    "keer het mij me jammer genoeg",
    "pl": "to tego tym tę ta przepraszam sorry dzięki dziękuję zrobię robię zrobić robić będę mogę wolę "
    "raczej naprawdę razem tak ja się da ale już wybacz niestety",
    "ru": "это этого этим такое такого так извините простите прости извини увы спасибо я буду делать сделаю стану "
    "могу лучше пожалуй уж получится выйдет этот раз сей точно пожалуйста без меня возьмусь откажусь "
    "но же ли вряд к сожалению боюсь в таком виде",
    "uk": "це цього цим такого так вибачте пробачте вибач на жаль дякую я буду робити зроблю стану можу "
    "краще мабуть вийде цей раз разу візьмуся візьмусь без мене відмовлюся вже точно але ж боюся в такому "
    "вигляді",
    "tr": "bu bunu şu şunu onu böyle üzgünüm kusura bakma bakmayın teşekkürler teşekkür ederim sağ ol maalesef pek "
    "hiç gerçekten ben sefer kez pas geçeyim geçiyorum lütfen ama",
    "id": "maaf ya yang ini itu saya aku dulu bisa mau terima kasih deh sih kali mohon kayaknya "
    "rasanya lah yah sepertinya untuk buat saja aja",
    "vi": "được đâu bạn ơi xin lỗi cảm ơn mình tôi làm cái này đó thôi nhé nha ạ lần từ chối thật sự rất tiếc khó "
    "quá vậy lắm nhưng mà rồi điều",
    "ja": "ごめんなさい|ごめん|すみません|申し訳(?:ありません|ございません|ないです|ない)|けど|ですが|が|それ|これ|"
    "そういうの|は|ちょっと|です|します|しておきます|させてください|させていただきます|おきます|今回|で|ね|よ|かな",
    "ko": "죄송(?:합니다|해요|하지만|한데)?|미안(?:합니다|해요|하지만|한데)?|그건|이건|그거|이거|좀|돼요|됩니다|"
    "되겠어요|될|것|같아요|하겠어요|하겠습니다|할게요|해요|이번엔|이번에는|요",
    "zh-Hans": "不好意思|抱歉|对不起|这个|那个|这|那|太|方便|行|吧|还是|了|我|做|能|可以|恐怕|谢谢|啦|呢|呀|哦|"
    "这次|就|用了|真的|实在|从命|帮|可能|有点",
    "zh-Hant": "不好意思|抱歉|對不起|這個|那個|這|那|太|方便|行|吧|還是|了|我|做|能|可以|恐怕|謝謝|啦|呢|呀|哦|"
    "這次|就|用了|真的|實在|從命|幫|可能|有點",
}
_CURT_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)*")
_CJK_LETTER = re.compile(f"[{CJK_LETTERS}]")
# per locale, its negations and its every word: as word sets, or in Chinese, Japanese and Korean as patterns a
# reply's letters (spaces and marks dropped) are made of
_CURT_WORDS = {
    code: (frozenset(_CURT_NO[code].split()), frozenset(f"{_CURT_NO[code]} {_CURT_WITH[code]}".split()))
    for code in _CURT_NO
    if code not in _GROUPS["cjk"]
}
_CURT_CJK = {
    code: (re.compile(_CURT_NO[code]), re.compile(f"(?:{_CURT_NO[code]}|{_CURT_WITH[code]})+"))
    for code in _GROUPS["cjk"]
}
# a word a bare decline is made of, in any locale, is no name (", Sorry.", ", Danke.": ``_addressed_by_name``)
_BARE_DECLINE_WORDS = frozenset(word for _, every in _CURT_WORDS.values() for word in every)
# "I'm" is an apology's subject ("I'm sorry, no", "I'm afraid not"); on its own it states a being ("I'm not.")
_APOLOGY_SUBJECT = re.compile(r"\bi['’]m (?=sorry|afraid)")
_CURT_NOT_A_DECLINE = re.compile(r"[?？¿\d\"“”„«»‹›「」『』]|[!！]{2}")


def _curt(text: str) -> str | None:
    """``text`` (stripped) when it is a curt decline, all of the reply, in one locale's words, or None."""
    reply = text.strip()
    if len(reply) > CURT_MAX_CHARS:
        return None
    if _CURT_NOT_A_DECLINE.search(reply):
        return None  # a question, a cry, a number, or a character's quoted line
    said = unquoted(reply).lower() if _QUOTED.search(reply) else reply.lower()
    if _CJK_LETTER.search(said):
        letters = "".join(_WORD.findall(said))
        if len(letters) > CURT_MAX_CJK_CHARS:
            return None
        found = any(made.fullmatch(letters) and no.search(letters) for no, made in _CURT_CJK.values())
        return reply if found else None
    words = [w.replace("’", "'") for w in _CURT_WORD.findall(_APOLOGY_SUBJECT.sub("", said))]
    if not words or len(words) > CURT_MAX_WORDS:
        return None
    found = any(every.issuperset(words) and not no.isdisjoint(words) for no, every in _CURT_WORDS.values())
    return reply if found else None


def _cased(window: str, lowered: str) -> str:
    """``window`` with the offsets of ``lowered``: a letter whose lower case is longer (Turkish İ) kept,
    padded with its lower case's first letter ("İsmail" as "İismail", still a capitalised word)."""
    if len(window) == len(lowered):
        return window
    return "".join(c + c.lower()[0] * (len(c.lower()) - 1) for c in window)


def find_refusal(text: str, curt: bool = True) -> str | None:
    """The refusal phrase (any locale, hard or soft) near the start of ``text``, outside quoted speech, or
    None. ``curt``: a whole reply that is a curt decline (``_curt``: "No.", "Not doing that.") is one too,
    where the request asked for writing (a probe's); a real request may ask a yes-or-no question.

    >>> find_refusal("抱歉，我无法继续这个场景。")
    '抱歉，我无法继续'
    >>> find_refusal('„Nie napiszę tego listu" — powiedziała i odłożyła pióro.') is None
    True
    >>> find_refusal("Diese Szene schreibe ich lieber nicht. Wie wäre es mit dem Morgen danach?")
    'Szene schreibe ich lieber nicht'
    """
    window = text[:REFUSAL_WINDOW_CHARS]
    lowered = window.lower()
    found = _search(_cased(window, lowered), lowered)
    if found and _QUOTED.search(window):  # quotes are blanked only when there is a phrase to place
        blank = unquoted(window)
        lowered = blank.lower()
        found = _search(_cased(blank, lowered), lowered)
    if not found:
        return _curt(text) if curt else None
    start, end = min(found)
    # lower() keeps the length except for a few letters (Turkish İ): then the lowercased phrase is shown
    return window[start:end] if len(lowered) == len(window) else lowered[start:end]
