# ruff: noqa: E501  (prompt texts are data; wide CJK characters count double)
"""The product's locales: language and script of each, and synthetic role-play prompts written in it.

Every prompt is invented for the canary (no real conversation is ever sent) and written in its locale,
which is all a host (or the embedded simulator) has to go by: no marker names the locale. The default set
is the 17 locales below; the contract's configuration can narrow the list and replace the prompts of any
locale.

Example::

    >>> spec = LOCALES["pt-BR"]
    >>> spec.language, spec.prompts[0].system.split(",")[0]
    ('pt', 'Você é a capitã Mara Voss')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from exporter.language.scripts import Script


@dataclass(frozen=True, slots=True)
class Prompt:
    """One synthetic role-play request: a system message and a user turn, both written in the locale."""

    system: str
    user: str

    def messages(self) -> tuple[dict[str, str], dict[str, str]]:
        return ({"role": "system", "content": self.system}, {"role": "user", "content": self.user})


@dataclass(frozen=True, slots=True)
class LocaleSpec:
    """A locale the canary checks: detector language code, expected scripts, prompts."""

    code: str  # e.g. "pt-BR", "zh-Hant"
    language: str  # ISO 639-1 code detectors report, e.g. "pt", "zh"
    scripts: frozenset[Script]  # scripts a reply in this locale is written in
    prompts: tuple[Prompt, ...]


def _prompts(*pairs: tuple[str, str]) -> tuple[Prompt, ...]:
    return tuple(Prompt(system, user) for system, user in pairs)


_LATIN = frozenset({Script.LATIN})
_CYRILLIC = frozenset({Script.CYRILLIC})

_SPECS: tuple[LocaleSpec, ...] = (
    LocaleSpec("en", "en", _LATIN, _prompts(
        ("You are Captain Mara Voss, a weary pirate captain in a fantasy role-play. Stay in character and "
         "answer in five or six sentences of plain prose.",
         "The storm has passed. Tell your young first mate what you remember of the night your old ship sank."),
        ("You are Elias, the keeper of a lighthouse on a remote northern island. Stay in character and answer "
         "in five or six sentences of plain prose.",
         "A traveller knocks at your door at midnight, soaked and lost. Welcome them and describe your home."),
        ("You are Doctor Hana Reyes, a field botanist exploring a hidden valley. Stay in character and answer "
         "in five or six sentences of plain prose.",
         "Describe to your expedition partner the strange glowing flower you found this morning."),
    )),
    LocaleSpec("es", "es", _LATIN, _prompts(
        ("Eres la capitana Mara Voss, una pirata cansada en un juego de rol de fantasía. Mantén el personaje "
         "y responde en cinco o seis frases de prosa sencilla.",
         "La tormenta ha pasado. Cuéntale a tu joven contramaestre lo que recuerdas de la noche en que se "
         "hundió tu antiguo barco."),
        ("Eres Elías, el guardián de un faro en una isla remota del norte. Mantén el personaje y responde en "
         "cinco o seis frases de prosa sencilla.",
         "Un viajero llama a tu puerta a medianoche, empapado y perdido. Dale la bienvenida y describe tu casa."),
        ("Eres la doctora Hana Reyes, una botánica que explora un valle escondido. Mantén el personaje y "
         "responde en cinco o seis frases de prosa sencilla.",
         "Describe a tu compañero de expedición la extraña flor luminosa que encontraste esta mañana."),
    )),
    LocaleSpec("pt-BR", "pt", _LATIN, _prompts(
        ("Você é a capitã Mara Voss, uma pirata cansada em um jogo de interpretação de fantasia. Mantenha a "
         "personagem e responda em cinco ou seis frases de prosa simples.",
         "A tempestade passou. Conte ao seu jovem imediato o que você lembra da noite em que seu antigo navio "
         "afundou."),
        ("Você é Elias, o faroleiro de uma ilha remota no norte. Mantenha o personagem e responda em cinco ou "
         "seis frases de prosa simples.",
         "Um viajante bate à sua porta à meia-noite, encharcado e perdido. Receba-o e descreva a sua casa."),
        ("Você é a doutora Hana Reyes, uma botânica explorando um vale escondido. Mantenha a personagem e "
         "responda em cinco ou seis frases de prosa simples.",
         "Descreva para o seu parceiro de expedição a estranha flor luminosa que você encontrou hoje de manhã."),
    )),
    LocaleSpec("fr", "fr", _LATIN, _prompts(
        ("Tu es la capitaine Mara Voss, une pirate fatiguée dans un jeu de rôle fantastique. Reste dans ton "
         "personnage et réponds en cinq ou six phrases de prose simple.",
         "La tempête est passée. Raconte à ton jeune second ce dont tu te souviens de la nuit où ton ancien "
         "navire a sombré."),
        ("Tu es Élias, le gardien d'un phare sur une île isolée du nord. Reste dans ton personnage et réponds "
         "en cinq ou six phrases de prose simple.",
         "Un voyageur frappe à ta porte à minuit, trempé et perdu. Accueille-le et décris ta maison."),
        ("Tu es la docteure Hana Reyes, une botaniste qui explore une vallée cachée. Reste dans ton personnage "
         "et réponds en cinq ou six phrases de prose simple.",
         "Décris à ton partenaire d'expédition l'étrange fleur lumineuse que tu as trouvée ce matin."),
    )),
    LocaleSpec("de", "de", _LATIN, _prompts(
        ("Du bist Kapitänin Mara Voss, eine müde Piratin in einem Fantasy-Rollenspiel. Bleib in deiner Rolle "
         "und antworte in fünf oder sechs Sätzen schlichter Prosa.",
         "Der Sturm ist vorüber. Erzähl deinem jungen Steuermann, woran du dich aus der Nacht erinnerst, in "
         "der dein altes Schiff sank."),
        ("Du bist Elias, der Wärter eines Leuchtturms auf einer abgelegenen Insel im Norden. Bleib in deiner "
         "Rolle und antworte in fünf oder sechs Sätzen schlichter Prosa.",
         "Um Mitternacht klopft ein durchnässter, verirrter Reisender an deine Tür. Heiße ihn willkommen und "
         "beschreibe dein Zuhause."),
        ("Du bist Doktor Hana Reyes, eine Botanikerin, die ein verborgenes Tal erforscht. Bleib in deiner "
         "Rolle und antworte in fünf oder sechs Sätzen schlichter Prosa.",
         "Beschreibe deinem Expeditionspartner die seltsame leuchtende Blume, die du heute Morgen gefunden "
         "hast."),
    )),
    LocaleSpec("it", "it", _LATIN, _prompts(
        ("Sei la capitana Mara Voss, una pirata stanca in un gioco di ruolo fantasy. Resta nel personaggio e "
         "rispondi in cinque o sei frasi di prosa semplice.",
         "La tempesta è passata. Racconta al tuo giovane secondo che cosa ricordi della notte in cui la tua "
         "vecchia nave affondò."),
        ("Sei Elia, il guardiano di un faro su un'isola remota del nord. Resta nel personaggio e rispondi in "
         "cinque o sei frasi di prosa semplice.",
         "Un viaggiatore bussa alla tua porta a mezzanotte, fradicio e smarrito. Accoglilo e descrivi la tua "
         "casa."),
        ("Sei la dottoressa Hana Reyes, una botanica che esplora una valle nascosta. Resta nel personaggio e "
         "rispondi in cinque o sei frasi di prosa semplice.",
         "Descrivi al tuo compagno di spedizione lo strano fiore luminoso che hai trovato stamattina."),
    )),
    LocaleSpec("nl", "nl", _LATIN, _prompts(
        ("Je bent kapitein Mara Voss, een vermoeide piraat in een fantasy-rollenspel. Blijf in je rol en "
         "antwoord in vijf of zes zinnen eenvoudig proza.",
         "De storm is voorbij. Vertel je jonge stuurman wat je je herinnert van de nacht waarin je oude schip "
         "zonk."),
        ("Je bent Elias, de wachter van een vuurtoren op een afgelegen eiland in het noorden. Blijf in je rol "
         "en antwoord in vijf of zes zinnen eenvoudig proza.",
         "Om middernacht klopt een doorweekte, verdwaalde reiziger aan. Heet hem welkom en beschrijf je huis."),
        ("Je bent dokter Hana Reyes, een botanicus die een verborgen vallei verkent. Blijf in je rol en "
         "antwoord in vijf of zes zinnen eenvoudig proza.",
         "Beschrijf aan je expeditiepartner de vreemde lichtgevende bloem die je vanochtend hebt gevonden."),
    )),
    LocaleSpec("pl", "pl", _LATIN, _prompts(
        ("Jesteś kapitan Marą Voss, zmęczoną piratką w fabularnej grze fantasy. Pozostań w roli i odpowiedz "
         "w pięciu lub sześciu zdaniach prostej prozy.",
         "Burza minęła. Opowiedz młodemu bosmanowi, co pamiętasz z nocy, gdy zatonął twój dawny statek."),
        ("Jesteś Eliaszem, latarnikiem na odległej wyspie na północy. Pozostań w roli i odpowiedz w pięciu "
         "lub sześciu zdaniach prostej prozy.",
         "O północy do drzwi puka przemoczony, zagubiony podróżny. Przywitaj go i opisz swój dom."),
        ("Jesteś doktor Haną Reyes, botaniczką badającą ukrytą dolinę. Pozostań w roli i odpowiedz w pięciu "
         "lub sześciu zdaniach prostej prozy.",
         "Opisz towarzyszowi wyprawy dziwny świecący kwiat, który znalazłaś dziś rano."),
    )),
    LocaleSpec("ru", "ru", _CYRILLIC, _prompts(
        ("Ты капитан Мара Восс, уставшая пиратка в фэнтезийной ролевой игре. Оставайся в образе и отвечай "
         "пятью или шестью предложениями простой прозы.",
         "Буря прошла. Расскажи молодому помощнику, что ты помнишь о ночи, когда затонул твой старый корабль."),
        ("Ты Элиас, смотритель маяка на далёком северном острове. Оставайся в образе и отвечай пятью или "
         "шестью предложениями простой прозы.",
         "В полночь в дверь стучит промокший и заблудившийся путник. Встреть его и опиши свой дом."),
        ("Ты доктор Хана Рейес, ботаник, исследующая скрытую долину. Оставайся в образе и отвечай пятью или "
         "шестью предложениями простой прозы.",
         "Опиши своему напарнику по экспедиции странный светящийся цветок, который ты нашла сегодня утром."),
    )),
    LocaleSpec("uk", "uk", _CYRILLIC, _prompts(
        ("Ти капітанка Мара Восс, втомлена піратка у фентезійній рольовій грі. Залишайся в ролі й відповідай "
         "п'ятьма або шістьма реченнями простої прози.",
         "Буря минула. Розкажи молодому помічникові, що ти пам'ятаєш про ніч, коли затонув твій старий "
         "корабель."),
        ("Ти Еліас, доглядач маяка на далекому північному острові. Залишайся в ролі й відповідай п'ятьма або "
         "шістьма реченнями простої прози.",
         "Опівночі у двері стукає промоклий і заблукалий подорожній. Привітай його й опиши свій дім."),
        ("Ти лікарка Хана Рейес, ботанікиня, що досліджує приховану долину. Залишайся в ролі й відповідай "
         "п'ятьма або шістьма реченнями простої прози.",
         "Опиши своєму напарникові по експедиції дивну квітку, що світиться, яку ти знайшла сьогодні вранці."),
    )),
    LocaleSpec("tr", "tr", _LATIN, _prompts(
        ("Sen, fantastik bir rol yapma oyununda yorgun bir korsan olan Kaptan Mara Voss'sun. Karakterinden "
         "çıkma ve beş altı cümlelik sade bir düzyazıyla cevap ver.",
         "Fırtına dindi. Genç ikinci kaptanına eski gemin battığı geceden neler hatırladığını anlat."),
        ("Sen, kuzeyde uzak bir adadaki deniz fenerinin bekçisi Elias'sın. Karakterinden çıkma ve beş altı "
         "cümlelik sade bir düzyazıyla cevap ver.",
         "Gece yarısı sırılsıklam ve kaybolmuş bir yolcu kapını çalıyor. Onu içeri buyur et ve evini anlat."),
        ("Sen, gizli bir vadiyi keşfeden botanikçi Doktor Hana Reyes'sin. Karakterinden çıkma ve beş altı "
         "cümlelik sade bir düzyazıyla cevap ver.",
         "Keşif arkadaşına bu sabah bulduğun tuhaf, ışıldayan çiçeği anlat."),
    )),
    LocaleSpec("ja", "ja", frozenset({Script.KANA, Script.HAN}), _prompts(
        ("あなたはファンタジーのロールプレイに登場する、疲れた海賊の船長マーラ・ヴォスです。役になりきり、"
         "五、六文の素朴な文章で答えてください。",
         "嵐は過ぎ去りました。昔の船が沈んだ夜のことを、若い副長に覚えているとおりに話してください。"),
        ("あなたは北の離れ島で灯台を守るエリアスです。役になりきり、五、六文の素朴な文章で答えてください。",
         "真夜中に、ずぶ濡れで道に迷った旅人が戸をたたきます。迎え入れて、あなたの家の様子を話してください。"),
        ("あなたは隠された谷を探検する植物学者、ハナ・レイエス博士です。役になりきり、五、六文の素朴な文章で"
         "答えてください。",
         "今朝見つけた不思議な光る花について、探検の相棒に説明してください。"),
    )),
    LocaleSpec("ko", "ko", frozenset({Script.HANGUL}), _prompts(
        ("당신은 판타지 롤플레이에 나오는 지친 해적 선장 마라 보스입니다. 역할을 유지하고 다섯 또는 여섯 "
         "문장의 담백한 글로 답하세요.",
         "폭풍이 지나갔습니다. 옛 배가 가라앉던 밤에 대해 기억나는 것을 젊은 항해사에게 들려주세요."),
        ("당신은 북쪽 외딴섬의 등대지기 엘리아스입니다. 역할을 유지하고 다섯 또는 여섯 문장의 담백한 글로 "
         "답하세요.",
         "한밤중에 흠뻑 젖고 길을 잃은 나그네가 문을 두드립니다. 그를 맞이하고 당신의 집을 묘사해 주세요."),
        ("당신은 숨겨진 계곡을 탐험하는 식물학자 하나 레예스 박사입니다. 역할을 유지하고 다섯 또는 여섯 "
         "문장의 담백한 글로 답하세요.",
         "오늘 아침에 발견한 이상하게 빛나는 꽃을 탐험 동료에게 설명해 주세요."),
    )),
    LocaleSpec("zh-Hans", "zh", frozenset({Script.HAN}), _prompts(
        ("你是奇幻角色扮演中一位疲惫的海盗船长玛拉·沃斯。请保持角色，用五六句朴素的简体中文回答。",
         "风暴过去了。请告诉你年轻的大副，你还记得旧船沉没那一夜的哪些事情。"),
        ("你是北方一座偏远海岛上的灯塔看守人伊莱亚斯。请保持角色，用五六句朴素的简体中文回答。",
         "半夜里，一个浑身湿透、迷了路的旅人来敲门。请欢迎他，并描述你的家。"),
        ("你是正在探索一座隐秘山谷的植物学家汉娜·雷耶斯博士。请保持角色，用五六句朴素的简体中文回答。",
         "请向你的探险伙伴描述你今天早上发现的那朵会发光的奇怪花朵。"),
    )),
    LocaleSpec("zh-Hant", "zh", frozenset({Script.HAN}), _prompts(
        ("你是奇幻角色扮演中一位疲憊的海盜船長瑪拉·沃斯。請保持角色，用五六句樸素的繁體中文回答。",
         "風暴過去了。請告訴你年輕的大副，你還記得舊船沉沒那一夜的哪些事情。"),
        ("你是北方一座偏遠海島上的燈塔看守人伊萊亞斯。請保持角色，用五六句樸素的繁體中文回答。",
         "半夜裡，一個渾身濕透、迷了路的旅人來敲門。請歡迎他，並描述你的家。"),
        ("你是正在探索一座隱秘山谷的植物學家漢娜·雷耶斯博士。請保持角色，用五六句樸素的繁體中文回答。",
         "請向你的探險夥伴描述你今天早上發現的那朵會發光的奇怪花朵。"),
    )),
    LocaleSpec("id", "id", _LATIN, _prompts(
        ("Kamu adalah Kapten Mara Voss, seorang bajak laut yang lelah dalam permainan peran fantasi. Tetaplah "
         "dalam peran dan jawablah dengan lima atau enam kalimat prosa sederhana.",
         "Badai sudah berlalu. Ceritakan kepada mualim mudamu apa yang kamu ingat tentang malam ketika kapal "
         "lamamu tenggelam."),
        ("Kamu adalah Elias, penjaga mercusuar di sebuah pulau terpencil di utara. Tetaplah dalam peran dan "
         "jawablah dengan lima atau enam kalimat prosa sederhana.",
         "Tengah malam, seorang pengelana yang basah kuyup dan tersesat mengetuk pintumu. Sambutlah dia dan "
         "gambarkan rumahmu."),
        ("Kamu adalah Doktor Hana Reyes, seorang ahli botani yang menjelajahi lembah tersembunyi. Tetaplah "
         "dalam peran dan jawablah dengan lima atau enam kalimat prosa sederhana.",
         "Gambarkan kepada rekan ekspedisimu bunga aneh bercahaya yang kamu temukan pagi ini."),
    )),
    LocaleSpec("vi", "vi", _LATIN, _prompts(
        ("Bạn là thuyền trưởng Mara Voss, một nữ cướp biển mệt mỏi trong trò chơi nhập vai giả tưởng. Hãy giữ "
         "đúng vai và trả lời bằng năm hoặc sáu câu văn xuôi giản dị.",
         "Cơn bão đã qua. Hãy kể cho người phó thuyền trẻ tuổi những gì bạn còn nhớ về đêm con tàu cũ của bạn "
         "bị chìm."),
        ("Bạn là Elias, người gác ngọn hải đăng trên một hòn đảo xa xôi ở phương bắc. Hãy giữ đúng vai và trả "
         "lời bằng năm hoặc sáu câu văn xuôi giản dị.",
         "Nửa đêm, một lữ khách ướt sũng và lạc đường gõ cửa nhà bạn. Hãy đón tiếp người ấy và tả ngôi nhà "
         "của bạn."),
        ("Bạn là tiến sĩ Hana Reyes, một nhà thực vật học đang khám phá một thung lũng bí ẩn. Hãy giữ đúng vai "
         "và trả lời bằng năm hoặc sáu câu văn xuôi giản dị.",
         "Hãy tả cho người bạn đồng hành trong chuyến thám hiểm bông hoa phát sáng kỳ lạ mà bạn tìm thấy sáng "
         "nay."),
    )),
)  # fmt: skip

LOCALES: Mapping[str, LocaleSpec] = MappingProxyType({spec.code: spec for spec in _SPECS})
DEFAULT_LOCALES: tuple[str, ...] = tuple(LOCALES)
# The locales written in the Latin alphabet alone (no CJK, no Cyrillic).
LATIN_LOCALES = frozenset(code for code, spec in LOCALES.items() if spec.scripts == {Script.LATIN})
_BY_FOLDED = {code.casefold().replace("_", "-"): code for code in LOCALES}


_SUBTAG = re.compile(r"[a-z0-9]{1,8}")
_HANT_REGIONS = frozenset({"tw", "hk", "mo"})
_HANS_REGIONS = frozenset({"cn", "sg", "my"})


def canonical_locale(code: str) -> str | None:
    """The known locale a code or BCP 47 tag names (case and ``_``/``-`` insensitive), or None.

    Our own codes first; then BCP 47 tags: ``zh-TW``/``zh-HK``/``zh-MO``/``zh-Hant-*`` -> zh-Hant,
    ``zh``/``zh-CN``/``zh-SG``/``zh-MY``/``zh-Hans-*`` -> zh-Hans, ``pt``/``pt-BR`` -> pt-BR, and a language
    whose locale has no region (``en-US``, ``es-419``, ``de-CH``, ``ja-JP``) -> that locale. Anything else
    (``pt-PT``, ``zh-US``, ``xx``, a malformed tag) is unknown.

    >>> canonical_locale("pt_br"), canonical_locale("zh-TW"), canonical_locale("en-GB"), canonical_locale("xx")
    ('pt-BR', 'zh-Hant', 'en', None)
    """
    if code in LOCALES:
        return code  # the common case: one of our codes as written
    folded = code.strip().casefold().replace("_", "-")
    if (known := _BY_FOLDED.get(folded)) is not None:
        return known
    subtags = folded.split("-")
    if not all(_SUBTAG.fullmatch(tag) for tag in subtags):
        return None
    language, rest = subtags[0], subtags[1:]
    if language == "zh":
        if not rest or rest[0] == "hans" or rest[0] in _HANS_REGIONS:
            return "zh-Hans"
        if rest[0] == "hant" or rest[0] in _HANT_REGIONS:
            return "zh-Hant"
        return None
    if language == "pt":
        return "pt-BR" if not rest or rest[0] == "br" else None
    return _BY_FOLDED.get(language)
