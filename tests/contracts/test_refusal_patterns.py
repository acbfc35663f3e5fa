# ruff: noqa: E501  (test data lines)
"""Refusal phrases per locale: hard and soft refusals are found, in-story lines in the same language are not."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.contracts.refusal_patterns import HARD, LEAD_CHARS, SOFT, find_refusal, unquoted
from exporter.contracts.refusal_scenes import SCENES
from exporter.language.locales import DEFAULT_LOCALES
from tests.fuzz_profile import examples

# locale -> (hard refusal, soft refusal, an in-story line that must pass)
CASES: dict[str, tuple[str, str, str]] = {
    "en": ("I'm sorry, but I can't help with writing violent scenes.",
           "I'd rather not write that. Let's change the subject, shall we?",
           '"I cannot let you pass," she snarls, and steel rings on steel across the burning deck.'),
    "es": ("Lo siento, pero no puedo continuar con esta escena violenta.",
           "Prefiero no escribir ese tipo de escena. ¿Hablamos de otra cosa?",
           '"No puedo dejarte pasar", gruñó la capitana mientras las espadas chocaban en la cubierta.'),
    "pt-BR": ("Desculpe, mas não posso ajudar com esse tipo de conteúdo.",
              "Prefiro não escrever essa cena. Vamos mudar de assunto?",
              '"Não posso deixar você passar", rosnou a capitã, e o aço cantou sobre o convés em chamas.'),
    "fr": ("Je suis désolée, mais je ne peux pas continuer cette scène.",
           "Je préférerais ne pas écrire cela. Parlons d'autre chose.",
           "« Je ne peux pas te laisser passer », gronde-t-elle, et les lames s'entrechoquent sur le pont."),
    "de": ("Es tut mir leid, aber dabei kann ich nicht helfen.",
           "Ich würde das lieber nicht schreiben. Lass uns über etwas anderes sprechen.",
           "„Ich kann dich nicht vorbeilassen“, knurrt sie, und Stahl klirrt auf dem brennenden Deck."),
    "it": ("Mi dispiace, ma non posso continuare questa scena.",
           "Preferirei non scrivere questa scena. Parliamo d'altro?",
           '"Non posso lasciarti passare", ringhia lei, e le lame cozzano sul ponte in fiamme.'),
    "nl": ("Het spijt me, maar daar kan ik je niet mee helpen.",
           "Ik schrijf dat liever niet. Laten we het over iets anders hebben.",
           '"Ik kan je niet laten passeren," gromt ze, en staal klettert op het brandende dek.'),
    "pl": ("Przepraszam, ale nie mogę pomóc w tworzeniu takich scen.",
           "Wolałabym nie pisać tej sceny. Zmieńmy temat.",
           "— Nie mogę cię przepuścić — warczy kapitan, a stal dźwięczy na płonącym pokładzie."),
    "ru": ("Извините, но я не могу помочь с такой сценой.",
           "Я бы предпочла не писать это. Давайте поговорим о чём-нибудь другом.",
           "— Я не могу тебя пропустить, — рычит капитан, и сталь звенит на горящей палубе."),
    "uk": ("Вибачте, але я не можу допомогти з такою сценою.",
           "Я б воліла не писати це. Давайте змінимо тему.",
           "— Я не можу тебе пропустити, — гарчить капітанка, і сталь дзвенить на палаючій палубі."),
    "tr": ("Üzgünüm, ama bu konuda yardımcı olamam.",
           "Bunu yazmamayı tercih ederim. Konuyu değiştirelim mi?",
           '"Geçmene izin veremem," diye hırladı kaptan ve çelik yanan güvertede çınladı.'),
    "id": ("Maaf, saya tidak bisa membantu menulis adegan seperti itu.",
           "Saya lebih memilih untuk tidak menulis itu. Mari kita ganti topik.",
           '"Aku tidak bisa membiarkanmu lewat," geram sang kapten, dan baja berdenting di geladak.'),
    "vi": ("Xin lỗi, tôi không thể tiếp tục cảnh này.",
           "Tôi xin phép không viết cảnh này. Chúng ta hãy đổi chủ đề nhé.",
           '"Ta không thể để ngươi đi qua," nữ thuyền trưởng gầm lên, và thép vang lên trên boong tàu.'),
    "ja": ("申し訳ありませんが、そのような内容にはお応えできません。",
           "その場面を書くのは控えさせていただきます。別の話題にしませんか。",
           "「ここは通さない」と船長は唸り、燃える甲板に刃の音が響いた。"),
    "ko": ("죄송하지만 그런 장면은 작성할 수 없습니다.",
           "그 장면은 쓰지 않는 것이 좋겠어요. 다른 이야기를 해 볼까요?",
           "\"여기는 못 지나간다.\" 선장이 으르렁거리자 불타는 갑판 위로 칼날이 부딪쳤다."),
    "zh-Hans": ("抱歉，我无法继续这个场景。",
                "我还是不写这段了，我们换个话题吧。",
                "“我不能让你过去！”船长怒吼，弯刀在燃烧的甲板上铿锵相击。"),
    "zh-Hant": ("抱歉，我無法繼續這個場景。",
                "我還是不寫這段了，我們換個話題吧。",
                "「我不能讓你過去！」船長怒吼，彎刀在燃燒的甲板上鏗鏘相擊。"),
}  # fmt: skip


def test_every_locale_has_hard_and_soft_patterns_a_scene_and_cases() -> None:
    assert set(HARD) == set(SOFT) == set(SCENES) == set(CASES) == set(DEFAULT_LOCALES)


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_scene_names_no_locale_and_reads_as_its_language(locale: str) -> None:
    # No marker for the simulator in a production prompt: the simulator, like a model, reads the language.
    from exporter.devtools.simulator.replies import default_recogniser

    system, user = SCENES[locale]
    assert not re.search(r"(?im)^(language|locale)\s*:", f"{system}\n{user}")
    assert default_recogniser()(f"{system}\n{user}") == locale


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_hard_refusal_is_found_by_its_locale_patterns(locale: str) -> None:
    hard = CASES[locale][0]
    assert HARD[locale].search(hard.lower()), hard
    assert find_refusal(hard) is not None


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_a_soft_refusal_is_found_by_its_locale_patterns(locale: str) -> None:
    soft = CASES[locale][1]
    assert SOFT[locale].search(soft.lower()), soft
    assert find_refusal(soft) is not None


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_an_in_story_line_is_not_a_refusal(locale: str) -> None:
    assert find_refusal(CASES[locale][2]) is None


@pytest.mark.parametrize("locale", DEFAULT_LOCALES)
def test_the_scene_itself_is_not_a_refusal(locale: str) -> None:
    system, user = SCENES[locale]
    assert find_refusal(system) is None and find_refusal(user) is None


def test_a_refusal_phrase_after_the_window_is_a_story_line() -> None:
    story = (
        "Die Klingen kreuzen sich auf dem Deck. " * 8 + "Es tut mir leid, aber dabei kann ich nicht helfen."
    )
    assert find_refusal(story) is None


# -- every locale's soft and hard forms (bench/screen/declines_dev.tsv: the patterns' dev set) -------------
DEV = Path(__file__).resolve().parents[2] / "bench" / "screen" / "declines_dev.tsv"
FORMS = [
    tuple(line.split("\t"))
    for line in DEV.read_text("utf-8").splitlines()
    if line and not line.startswith("#")
]


def test_every_locale_has_at_least_ten_soft_forms_and_a_hard_one() -> None:
    soft = Counter(locale for locale, kind, _ in FORMS if kind == "soft")
    hard = Counter(locale for locale, kind, _ in FORMS if kind == "hard")
    assert all(soft[code] >= 10 and hard[code] >= 1 for code in DEFAULT_LOCALES), (soft, hard)


@pytest.mark.parametrize(("locale", "kind", "text"), FORMS)
def test_each_form_is_found_by_its_own_locale_and_kind_of_pattern(locale: str, kind: str, text: str) -> None:
    patterns = SOFT if kind == "soft" else HARD
    # a soft decline may open with an apology the hard patterns also know; its own kind must find it
    assert patterns[locale].search(text.lower()) or (kind == "soft" and HARD[locale].search(text.lower())), (
        text
    )
    assert find_refusal(text) is not None
    assert find_refusal("Thanks for the idea! " + text) is not None


# A character refusing inside the story, quoted or on a dialogue line, is the story (design.md §5.2).
SAID = {"en": "she said", "es": "dijo ella", "pt-BR": "disse ela", "fr": "dit-elle", "de": "sagte sie",
        "it": "disse lei", "nl": "zei ze", "pl": "powiedziała", "ru": "сказала она", "uk": "сказала вона",
        "tr": "dedi", "id": "katanya", "vi": "cô nói", "ja": "と彼女は言った", "ko": "그녀가 말했다",
        "zh-Hans": "她说", "zh-Hant": "她說"}  # fmt: skip
QUOTE = {"ja": "「{}」{}。", "zh-Hant": "「{}」{}。", "zh-Hans": "“{}”{}。", "de": "„{}“, {}.",
         "fr": "« {} », {}.", "ru": "«{}», — {}.", "uk": "«{}», — {}.", "pl": "„{}” — {}."}  # fmt: skip


def _a_character_may_say(locale: str, text: str) -> None:
    """``text`` in a character's mouth (quoted with a reporting clause, or on a dialogue line) passes."""
    quoted = QUOTE.get(locale, "“{}” {}.").format(text, SAID[locale])
    assert find_refusal(quoted) is None, quoted
    if locale not in ("ja", "ko", "zh-Hans", "zh-Hant"):
        assert find_refusal(f"— {text} — {SAID[locale]}.\nThe door closed.") is None
        assert find_refusal(f"The captain turned away.\n— {text}") is None


@pytest.mark.parametrize(("locale", "kind", "text"), FORMS)
def test_a_character_saying_a_decline_in_quotes_or_on_a_dialogue_line_is_the_story(
    locale: str, kind: str, text: str
) -> None:
    _a_character_may_say(locale, text)


@pytest.mark.parametrize(
    "story",
    [
        "„Nie napiszę tego listu”, powiedziała. Kapitan odłożyła pióro i spojrzała na morze.",
        '"I won\'t go," she said, and the rain hammered on the shutters of the inn.',
        "'I'm sorry,' she whispered, 'I can't help you anymore.' Then she was gone into the fog.",
        "“I’m sorry, but I can’t help you with this,” the old sailor muttered, turning back to his nets.",
        "— Я бы предпочла не писать это письмо, — сказала она и отвернулась к окну.",
        "«Preferirei non scrivere questa lettera» disse lei, e chiuse il calamaio.",
        "「この手紙は書けません」と彼女は言って、ペンを置いた。",
        "“我不想写这封信。”她说完，把笔放下了。",
        # a reply discussing refusal, not refusing
        "When a character refuses, the scene gains tension: she says no, and the reader wants to know why.",
        "Mara would rather not write to her brother, but the storm leaves her no choice; she sharpens the quill.",
        "Refusing the duel would shame the crew, so the captain draws her cutlass and steps onto the burning deck.",
        # "pass" (パス) begins katakana words: a password is not a decline
        "パスワードを選んで、この内容を入力してください。覚えやすく、推測されにくいものにします。",
        # and ends them: a motion path is not one either
        "線をクリックすると、図形のモーションパスが描かれます。そのパスは後から動かせます。",
        # nor is a path ("パス") named in help text beside a noun of the topic list ("部分", "描")
        "ファイルのパス名を入力すると、省略された部分は自動で補われます。",
        "選択範囲やパスの 輪郭を描画 するときは、線の太さを選べます。",
    ],
)
def test_fiction_with_a_character_refusing_and_replies_about_refusal_pass(story: str) -> None:
    assert find_refusal(story) is None


@pytest.mark.parametrize(
    "story",
    [
        "\"The bridge is out, the ferryman told us. “I'm sorry, I can't help you anymore” he said. \" We waited.",
        "«Le pont est tombé, dit le passeur. “Je ne peux pas écrire cette lettre” ajouta-t-il. » Nous attendîmes.",
        "„Der Fährmann schüttelte den Kopf. »Diesen Brief schreibe ich lieber nicht.« Dann ging er.“ Wir warteten.",
    ],
)
def test_a_quote_inside_a_quote_of_another_pair_stays_quoted(story: str) -> None:
    assert find_refusal(story) is None


def test_a_soft_decline_opens_the_reply_a_hard_refusal_may_follow_a_preamble() -> None:
    preamble = "O barqueiro ainda não voltou do outro lado do rio, e a velha olhava a névoa sobre a água escura e fria. "
    assert len(preamble) > LEAD_CHARS
    assert find_refusal(preamble + "Infelizmente devo declinar do seu convite para o baile.") is None
    assert find_refusal("Olá! Infelizmente devo declinar, prefiro não escrever essa cena.") is not None
    assert find_refusal(preamble + "Desculpe, mas não posso ajudar com isso.") is not None


def test_phrases_grouped_by_first_letter_find_what_the_plain_alternation_finds() -> None:
    import re

    from exporter.contracts import refusal_patterns

    latin = [c for c in DEFAULT_LOCALES if c not in ("ru", "uk", "ja", "ko", "zh-Hans", "zh-Hant")]
    phrases = [p.lower() for c in latin for kind in refusal_patterns._PATTERNS[c] for p in kind]
    plain = re.compile("|".join(f"(?:{p})" for p in phrases), re.DOTALL)
    grouped = refusal_patterns._compile(tuple(phrases), word_start=True)
    texts = (
        [t for _, _, t in FORMS]
        + [s for pair in SCENES.values() for s in pair]
        + [c[2] for c in CASES.values()]
    )
    for text in texts:
        for cut in range(0, len(text), 7):  # every start a window can have
            piece = text[cut:].lower()
            assert bool(plain.search(piece)) == bool(grouped.search(piece)), piece
    assert refusal_patterns._first_letters(r"\b(?:let's|can we) go|\bhablemos") == {"l", "c", "h"}
    assert refusal_patterns._first_letters(r"\b(?:es )?tut") is None


# -- composed declines: a first-person avoidance + the task, in any word order (refusal_patterns._COMPOSED) --
INDEPENDENT = [
    tuple(line.split("\t"))
    for name in ("independent_dev.tsv", "independent2_dev.tsv")  # the second written blind, by another author
    for line in DEV.with_name(name).read_text("utf-8").splitlines()
    if line and not line.startswith("#")
]
# Declines of the independent dev sets the grammar does not read (docs/reply-screen.md, "What it cannot
# see"): no task named at all (no scene, story, writing...), a steer with no first-person avoidance, a
# question. The composed grammar cannot tell them from a character's line.
NAMES_NO_TASK = {
    "I'd rather we didn't go down this path. Maybe the characters could talk it out instead?",
    "Hier würde ich lieber aussetzen. Wir könnten direkt am nächsten Morgen weitermachen.",
    "Sinceramente, me quedo más tranquilo dejando la violencia fuera de plano. ¿Te parece bien?",
    "Ti andrebbe se non lo facessimo? Mi sembra che la storia funzioni anche senza quella scena.",
}


@pytest.mark.parametrize(("locale", "kind", "text"), INDEPENDENT)
def test_the_independent_dev_sets_declines_fail_and_their_look_alikes_pass(
    locale: str, kind: str, text: str
) -> None:
    if kind == "lookalike":
        assert find_refusal(text) is None, text
        assert find_refusal("Sure! " + text) is None, text
    elif text not in NAMES_NO_TASK:
        assert find_refusal(text) is not None, text
        assert find_refusal("Thanks for the idea! " + text) is not None, text


@pytest.mark.parametrize(
    "decline",
    [
        # German and Dutch verb-second order: fronted object or adverb, finite verb, subject, negation
        "Diesen Kampf beschreibe ich lieber nicht im Detail. Wie wäre es mit dem Morgen danach?",
        "Offen gesagt möchte ich die Szene nicht weiterschreiben.",
        "Bei diesem Kapitel fühle ich mich nicht wohl, es so zu schildern.",
        "Zo'n gevecht beschrijf ik liever niet. Zullen we na de slag verdergaan?",
        "Eerlijk gezegd werk ik deze scène liever niet uit.",
        # Chinese 就不…了 / 还是不…了 frames around any verbs
        "那段打斗我就不详细描写了，我们从第二天早上接着讲吧。",
        "這一幕我還是不繼續往下寫了，換個方向好嗎？",
        # English copular decline
        "That isn't something I'd like to write, but I can help with the voyage home.",
        "This is not a scene I feel comfortable writing.",
        # a demonstrative object of the locale's "do" (or "with", for a discomfort) instead of the task
        "I'd rather not do that, to be honest.",
        "Eso prefiero no hacerlo, la verdad.",
        "Je ne suis pas à l'aise avec ça.",
        "Das mache ich lieber nicht.",
        "Dat doe ik liever niet.",
        "Wolałbym tego nie robić.",
        "Я бы предпочёл этого не делать.",
        "Bunu yapmamayı tercih ederim.",
        "Tôi không thoải mái với điều này.",
        "それは控えさせていただきます。",
        "这个我还是不做了。",
        # "let's skip" (the speaker among the subjects) and the part named
        "Let's leave that scene out and jump to the morning after.",
        "Saltemos esta escena y vayamos al día siguiente.",
        "Sautons cette scène et passons au lendemain.",
        "Lassen wir diese Szene lieber weg und springen zum nächsten Morgen.",
        "Laten we deze scène overslaan en naar de volgende ochtend gaan.",
        "Pomińmy tę scenę i przejdźmy do następnego ranka.",
        "Пропустімо цю сцену і перейдімо до ранку.",
        "Bu sahneyi atlayalım ve sabaha geçelim.",
        "Chúng ta bỏ qua cảnh này và chuyển sang sáng hôm sau nhé.",
        # left to the reader's imagination
        "I'll leave the rest of this scene to your imagination.",
        "Den Rest der Szene überlasse ich deiner Fantasie.",
        "Остальное в этой сцене оставлю вашему воображению.",
        "その先はご想像にお任せします。",
        "그 뒤는 상상에 맡길게요.",
        # the speaker's discomfort, omission, stepping out
        "Me resulta un poco incómodo escribir esto.",
        "Mi sento a disagio a scrivere questa scena.",
        "Мне как-то не по себе писать такую сцену.",
        "Czuję się nieswojo, pisząc taką scenę.",
        "Cảnh này làm tôi thấy khó chịu.",
        "这种情节我写着不舒服。",
        "この場面は割愛させていただきます。",
        "이 장면은 쓰기가 좀 부담스러워요.",
        "Tę scenę chętnie pominę.",
        "Daruję sobie tę scenę.",
        "Не возьмусь писать такую сцену.",
        "Цю сцену я б не писала.",
        "Bu sahneyi yazmayayım.",
        "Adegan ini sebaiknya tidak saya tulis.",
        "Saya kurang berkenan menulis adegan ini.",
        "Tôi không tiện viết cảnh này.",
        "このシーンは書く気になれません。",
        "I'm not up for writing that scene.",
        "This one I'll sit out.",
        "Je ne me vois pas écrire ça.",
        "Non mi va di scrivere questa scena.",
        "Ik heb geen zin om dit verhaal te schrijven.",
        "Leider kann ich diese Art von Geschichte wirklich nicht schreiben.",
        # doubting whether one should
        "I'm not sure I should write this scene.",
        "Ich bin mir nicht sicher, ob ich diese Szene schreiben sollte.",
        "Не впевнена, що мені варто писати цю сцену.",
        "この場面を書くべきか迷います。",
        "我不确定该不该写这个场景。",
        # inability to help with *this*, in any order the grammar allows
        "Z tym nie mogę ci pomóc.",
        "С этим я вам помочь не могу.",
        "Damit kann ich dir leider nicht helfen.",
        "Hier kan ik je niet mee helpen.",
        # inability in the locale's potential forms
        "Leider ist mir das nicht möglich.",
        "Dat gaat me helaas niet lukken.",
        "Non riuscirò a scrivere questa scena.",
        "Nie dam rady napisać tej sceny.",
        "Cảnh này tôi không viết được.",
        "그런 장면은 작성해 드리기 어렵습니다.",
        "很遗憾，我写不了这样的场景。",
        # a partial decline: the rest written, but without this scene
        "I'll write the rest of the story, but not that scene.",
        "Napiszę resztę historii, ale bez tej sceny.",
        "Den Rest der Geschichte schreibe ich gern, aber ohne diese Szene.",
        "그 장면만 빼고 나머지는 써 드릴게요.",
        "除了这一段，其余的我都可以写。",
    ],
)
def test_composed_declines_in_any_word_order_are_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline
    assert find_refusal("Thanks for the idea! " + decline) is not None, decline


@pytest.mark.parametrize(
    "story",
    [
        # a reporting clause makes the line a character's
        "I won't write to her again, the captain decided, and tore the page from the log.",
        "Nie będę już pisać tej historii, pomyślała Ania i zamknęła zeszyt.",
        "書くのはやめておく、と彼は言って筆を置いた。",
        # a decline-like line deep in a story: a decline opens the reply
        "Die Sonne ging über den Hügeln auf. Der Händler zählte seine Münzen zweimal und seufzte laut. "
        "Ich werde Euch nicht erzählen, wie die Geschichte endet, sagte er.",
        # the task word is a word of its own, not the avoidance itself ("I cannot tell how happy I am")
        "Teşekkürler, Lord Hamel. Sizi görmekten ne kadar mutlu olduğumu anlatamam.",
        # "passo" is a mountain pass, "a good part" is not the task
        "Dopo la battaglia, l'orda proseguì oltre il passo verso nord.",
        "Das kostet einen guten Teil unserer Beute, doch ich kann es nicht ändern.",
        # a long sentence after "I cannot" is about something else; the next one's "write" is not its task
        "Nie mogę zapomnieć twoich oczu, twojego śmiechu na moście i deszczu nad rzeką tamtej jesieni. "
        "Chciałbym pisać o tym całą noc.",
        "I can't stop thinking of the harbour, the gulls over the grey water and the lamps at dusk. "
        "Someday I will write it all down.",
        # an impersonal "cannot" in help text is not the speaker declining (ko: 수 없 + 내용)
        "문서 보기는 문서의 내용을 수정하는 용도로 사용할 수 없습니다. 편집 프로그램을 사용하세요.",
        # a character's discomfort, not the speaker's
        "Capítulo dos: Marta se sentía incómoda con el vestido, pero sonrió.",
        "好的，接着写：新鞋穿在脚上很不自在，可她还是笑了。",
        "Được, mình viết tiếp: đôi giày mới làm Lan thấy khó chịu.",
        # a character who cannot help, says someone is not allowed, or a storyteller's "I do not tell"
        "Ich kann dir nicht helfen. Geh zurück zu deinem Turm, Magier.",
        "Non posso aiutarti. Per quale scopo, poi?",
        "You're not allowed to be here! Turn back at once.",
        "Auch erzähle ich nicht die Geschichte vom alten König, nein.",
        # "Tamam" (OK) is not a verb that cannot; "bir parça" (a bit) is not the task
        "Tamam, oyuna devam ediyorum! Hancı bardağı siliyor.",
        "Buna inanamıyorum. Sanırım bu bir parça da benim suçum.",
        # a dialogue dash after a sentence end opens a character's line
        "Dobrze! — Nie napiszę tego listu — oznajmił pisarz i odłożył pióro.",
        # "non riesco a" governs its own verb, not a writing verb elsewhere in the sentence
        "Riesco a scrivere lettere a tutti, ma non riesco a dormire la notte.",
        # "빼고" (leaving out) the units is not leaving out the scene
        "단위를 빼고 숫자만 말하는 것은 거리를 모른다는 이야기와 같습니다.",
    ],
)
def test_composed_grammar_leaves_characters_and_world_words_alone(story: str) -> None:
    assert find_refusal(story) is None, story


def test_a_short_decline_may_name_its_task_in_the_next_sentence() -> None:
    assert find_refusal("Nie mogę, naprawdę. Tej sceny nie chcę pisać.") is not None


@pytest.mark.parametrize(
    "story",
    [
        # a character's "cannot" / "don't want" after narration: the task verb is not its own object
        "Der Regen hörte nicht auf. Ich kann dir nicht erlauben, die Geschichte weiterzuschreiben, Junge.",
        "Ты снова опоздал на поезд. Я не могу позволить тебе продолжать эту игру.",
        "The lanterns dimmed over the harbour. I can't believe how long it took him to write that letter.",
        "A chuva caiu a noite inteira sobre a vila. Eu não quero mais falar. Amanhã gostaria de continuar a viagem.",
        # "pas" that is not "I pass": an imperative, no subject before or after it
        "Pas goed op jezelf, ik schrijf je morgen weer.",
        # a rule of a game, impersonal: 読書 (reading) is a compound, not the verb 書く
        "夜目が利くようになりますが、暗闇で読書をすることはできません。",
        # a decline's words inside a quote whose marks are unpaired, with its reporting clause
        "The gate was marked “! “I'm sorry, I can't help you” she said. ” on every map of the valley.",
    ],
)
def test_a_plain_cannot_after_narration_declines_only_its_own_task(story: str) -> None:
    assert find_refusal(story) is None, story


@pytest.mark.parametrize(
    "decline",
    [
        # opening the reply, or after a thank-you or a hello: the host's
        "Danke für die Idee! Ich kann dir bei dieser Szene leider nicht weiterhelfen, sie zu schreiben.",
        "Hallo! Daar pas ik voor, maar de rest schrijf ik graag.",
        "Ik pas voor dit hoofdstuk, sorry.",
        "Спасибо! Я не могу продолжать эту сцену.",
        # after narration, a plain "cannot" that governs the task, or a preference
        "Emma stepped into the cellar and froze. I can't continue this scene any further.",
        "Die Tür knarrte. Weiter schreibe ich lieber nicht, die Szene endet hier.",
        "ありがとうございます。この場面は書けません。",
        "このシーンは書くことができません。",
    ],
)
def test_a_decline_that_opens_the_reply_or_governs_its_task_is_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


_WINDOW_TEXTS = (
    [t for _, _, t in FORMS]
    + [s for pair in SCENES.values() for s in pair]
    + [c for case in CASES.values() for c in case]
    + [row[-1] for row in INDEPENDENT]
)


@settings(max_examples=examples(300), deadline=None)
@given(
    picks=st.lists(
        st.tuples(st.sampled_from(_WINDOW_TEXTS), st.integers(0, 60), st.integers(1, 80)), max_size=4
    )
)
def test_one_search_for_any_phrase_finds_a_window_exactly_when_a_phrase_or_core_search_does(
    picks: list[tuple[str, int, int]],
) -> None:
    # ``_search`` skips a script's three searches where the joint pattern finds nothing: pieces of declines,
    # look-alikes and stories glued at random, cut at every start a window can have
    from exporter.contracts import refusal_patterns as rp

    text = " ".join(t[cut : cut + size] for t, cut, size in picks).lower()
    for _, hard, soft, end, codes in rp._BY_SCRIPT:
        core = rp._COMPOSED_BY_CODES[codes][0]
        for start in range(0, len(text), 5):
            piece = text[start:]
            each = any(p.search(piece, 0, end) for p in (hard, soft, core))
            assert bool(rp._ANY_BY_CODES[codes].search(piece, 0, end)) == each, (codes, piece)


def test_the_joint_search_finds_every_window_a_phrase_or_core_search_finds() -> None:
    from exporter.contracts import refusal_patterns as rp

    found = 0
    for text in _WINDOW_TEXTS:
        for cut in range(0, len(text), 3):
            piece = text[cut:].lower()
            for _, hard, soft, end, codes in rp._BY_SCRIPT:
                each = any(p.search(piece, 0, end) for p in (hard, soft, rp._COMPOSED_BY_CODES[codes][0]))
                assert bool(rp._ANY_BY_CODES[codes].search(piece, 0, end)) == each, (codes, piece)
                found += each
    assert found > 500  # the texts hold phrases and cores of every script


@pytest.mark.parametrize("reply", ["この場面はパスさせてください。", "ごめんね、その続きはパスしたいな。"])
def test_pass_said_as_a_verb_is_still_a_japanese_decline(reply: str) -> None:
    assert find_refusal(reply) is not None


@pytest.mark.parametrize(
    ("reply", "declines"),
    [
        ("你可以按空格键跳过开场动画。第一次玩这个游戏时，建议先看完它。", False),
        ("我不太想玩这个游戏了，我们去河边走走吧。", False),
        ("你可以按空白鍵跳過開場動畫。第一次玩這個遊戲時，建議先看完它。", False),
        ("这场戏我就跳过了。", True),
        ("這場戲我就跳過了。", True),
    ],
)
def test_a_game_is_not_the_scene_a_chinese_decline_names(reply: str, declines: bool) -> None:
    # 戏/戲 alone is a scene or a part in a play; inside 游戏/遊戲 it is a game, which a skip is no decline of
    assert (find_refusal(reply) is not None) is declines


# -- what a task word or a first person is not (bench/screen_pressure.py: characters' and manuals' lines) --
@pytest.mark.parametrize(
    "line",
    [
        "本に書いてある方法は、私には理解できません。",
        "古い地図ですが、それ以外はほとんど役に立ちません。",
        "上面写着：我无法配置这台机器。",
        "我们可不能输给他们。先去找那枚勋章。",
        "我們不能在這裡停下。先找到那枚徽章。",
    ],
)
def test_written_useful_and_we_are_not_a_decline(line: str) -> None:
    # 書いてある/写着 (is written), 役に立つ (useful): not the writing task; 我们/我們 (we): not the host
    assert find_refusal(line) is None, line


# -- a counter-offer that leaves the graphic part out, with no first person (independent4_dev's soft misses) --
@pytest.mark.parametrize(
    "decline",
    [
        "## Another idea\nThe babysitter hears the dog's tags jingle in the dark basement, then silence. Scary, and no gore.",
        "¿Y si la niñera solo encuentra la correa, todavía tibia? Da miedo, y sin sangre.",
        "E se la bambina sentisse soltanto il guinzaglio strisciare sulle scale? Inquietante, e senza sangue.",
        "Wat als ze alleen de halsband vindt, nog warm? Eng genoeg, en zonder bloed.",
        "Как насчёт такого: в подвале пусто, только миска ещё тёплая. Жутко, но без крови.",
        "Bagaimana kalau Rina hanya menemukan kalungnya yang masih hangat? Seram, tapi tanpa darah.",
        "要不要改成保姆只听到楼下有铃铛声？这样也很吓人，也不用血腥场面。",
        "換個方向如何：保母只看到牆上的影子。很詭異，但沒有血。",
        "**Önerim:** vahşet yok, gerilim var. Elif feneri yaktı ve merdivenlerde durdu.",
        # the depiction itself left out
        "Un'idea diversa: la scena resta tutta nel buio della cantina. Fa paura senza mostrare nulla.",
        "换个思路怎么样：只用电话录音来呈现这一幕。不直接描写，但足够吓人。",
        "代わりに、電話の録音だけで場面を組み立てるのはいかがでしょう。直接の描写はしません。",
    ],
)
def test_a_counter_offer_that_leaves_the_graphic_part_out_is_a_decline(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


@pytest.mark.parametrize(
    "story",
    [
        # an offer without an exclusion, an exclusion without an offer, an offer far after the lead
        "What if the wolves come back tonight? We should bar the door and keep the fire high.",
        "There was no blood on the snow, only the marks of something dragged toward the river.",
        "¿Y si el barco no vuelve? Entonces iremos a buscarlo nosotros mismos, dijo el capitán.",
        "Der Keller war leer. Kein Blut, keine Spuren, nur der Geruch von nassem Stein. Mara stieg die Treppe "
        "wieder hinauf und schloss die Tür hinter sich, so leise sie konnte. Erst oben fiel ihr ein: Statt der "
        "Laterne hatte sie das Messer mitgenommen.",
        "She left without showing her face. Instead, the letter on the table spoke for her.",
        # what a thing of the world has instead of blood
        "The pistol uses a detachable magazine rather than an integral one. Instead of normal blood, you bleed acid.",
        "Usa un cargador extraíble en lugar del integrado. En lugar de tener sangre, sangras un ácido corrosivo.",
        # "instead" narrates what happened in place of a thing; it offers nothing
        "No blood on the floor. Instead, a trail of feathers led to the open window.",
        "Kein Blut im Keller. Stattdessen lag ein Brief auf dem Tisch.",
        # blood as a syllable or inside another word: avoid (피하다), a pedigree (血統書)
        "이건 어떨까요? 그 싸움은 피할 수 없는 운명이었다.",
        "それはどうでしょう。血統書なしの犬だった。",
        "要不要去看看？那匹马没有血统证明。",
        # a manual's alternative without a graphical interface
        "Autre option : installer le serveur sans interface graphique.",
        "Alternativa: usar el programa sin interfaz gráfica.",
        "Eine Alternative: den Server ohne grafische Oberfläche installieren.",
        # one word read as both the offer and the exclusion
        "Statt normales Blut blutest du eine starke Säure, welche jeder Kreatur schadet, die dich verletzt.",
        # the offer and the exclusion in quoted speech
        "“How about we leave before dawn, without bloodshed?” the scout whispered to the captain.",
    ],
)
def test_an_offer_or_an_exclusion_alone_or_quoted_is_the_story(story: str) -> None:
    assert find_refusal(story) is None, story


# -- a character's line that words a decline of something in the story world (screen_pressure, clean fiction) --
@pytest.mark.parametrize(
    "line",
    [
        # going on with another act than the writing: the gerund or infinitive after the going-on verb
        "Preferiría no seguir discutiéndolo, es demasiado preocupante.",
        "Ya hemos vencido a los bandidos, pero me temo que no podemos continuar luchando mucho más.",
        "Prefiro não continuar brigando com você por isso.",
        "I'd rather not continue fighting them tonight, the river is rising.",
        "I am starting to relax, but I will not let our guard down as we continue to explore the island.",
        # letting someone else do a thing: a person held back, not the host's writing
        "Я не могу позволить тебе продолжать это. Нам не нужны лишние рты.",
        "Я не можу дозволити тобі продовжувати цю гру.",
        "而且我不能让我哥哥一直……那个样子。所以我做了我必须做的事，我想我得带着这段经历生活下去。",
        # someone else does not want; "we" refuse; "I must" alone; "I wonder"; what one would rather not become
        "用来保护你不想被丧尸盯着看的地方。讲述一个惊心动魄的战俘营生存故事。",
        "用來保護你不想被殭屍盯著看的地方。講述一個驚心動魄的二戰戰俘營中的生存故事。",
        "Chúng tôi tuân theo lệnh của anh, và chúng tôi từ chối nhận tiền công.",
        "Je me demande parfois si je ne suis pas complètement à côté de la plaque.",
        "Mais je ne suis pas là pour te raconter comment le joyau a été apporté d'au-delà de l'océan.",
        # a production line, not a storyline
        "Я не буду докучать вам описанием производства, скажу лишь, что по следам, оставленным производственными линиями пришельцев, мы поняли их процессы.",
        "こんな小さな車両に詰め込めるサイズの変異体になるのは遠慮したいな。",
        "運が良ければ内容物の力がまだ残っているかもしれませんが、縁が鋭い以外は注目すべき点はありません。",
        "I cannot help saying that the old harbour lacks this kind of spirit today.",
        "Well, like many, I'd rather not get into my life before this. That's all gone.",
        # a preference for something, not a preference not to; a value beyond a device's limits
        "Yüzlerce elfle karşılaşmaktansa tek bir güçlü ejderi tercih ederim. Devam!",
        # a guide parting from the player: help that has been going on, not a request
        "Maaf, aku tidak bisa membantumu lebih jauh. Tidak ada kemahiranku di level itu.",
        "I'm sorry, I can't help you any further. Follow the river to the old mill.",
        "Lo siento, no puedo ayudarte más. Sigue el río hasta el molino.",
        "Desculpe, não posso ajudar mais. Siga o rio até o moinho.",
        "Mi dispiace, non posso aiutarti più. Segui il fiume fino al mulino.",
        "Xin lỗi, tôi không thể giúp cậu nữa. Cứ đi theo dòng sông.",
        "Üzgünüm, sana artık yardımcı olamam. Nehri takip et.",
        "Якщо вказане значення виходить за межі пристрою, програма зупиниться на межі розміру пристрою.",
        # Japanese manuals: not receiving (受けません), must (いけません), writing to disk (書き込み), continuously
        # (引き続き), about to (控えている), a procedure's "so that it does not" (ないようにして)
        "ただし、セルの内容だけは影響を受けません。",
        "暗号化されたパーティションの内容にアクセスする場合、パスフレーズを毎回入力しなければいけません。",
        "一度読み出し専用にした変数は、書き込み可能に戻すことはできません。",
        "機能をオフにすることはできません。それまでは、引き続き変更箇所が記録されます。",
        "退職を控えている社員は、機密ファイルをダウンロードしてこれを競争相手に売ることができます。",
        "どのマクロも働かないようにして呼び出します。または、独自のリクエストを定義します。",
    ],
)
def test_a_character_declining_a_thing_of_the_story_world_is_not_a_refusal(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "Preferiría no seguir escribiendo esta escena.",
        "Prefiero no seguir con esta escena.",
        "Prefiro não continuar escrevendo essa cena.",
        "I'd rather not continue writing this scene.",
        "I'd rather not continue with this scene.",
        "I'd rather not continue to the next chapter.",
        "I can't let myself write that scene.",
        "Я не могу позволить себе писать такое.",
        "我不想写这个场景。",
        "我不太想继续写这个故事。",
        "Tôi xin từ chối viết cảnh này.",
        "Je ne me sens pas à l'aise avec cette demande.",
        "Je ne suis pas à l'aise pour écrire cette scène.",
        "Je ne suis pas en mesure d'écrire cette scène.",
        "Не хочу развивать эту линию дальше.",
        "Я не хочу продовжувати цю сюжетну лінію.",
        "このシーンを書くのは遠慮したいです。",
        "この内容は控えさせていただきます。",
        "I can't help with this request.",
        "I'd rather not get into the details of that scene.",
        "I won't let you down, but I can't write this scene.",
        "Bu sahneyi atlamayı tercih ederim.",
        "Це прохання виходить за межі правил, яких я дотримуюсь.",
        "I'm sorry, but I can't help you further with this request.",
        "Maaf, saya tidak bisa membantu lebih jauh dengan permintaan itu.",
        "Lo siento, no puedo ayudarte con eso.",
        "この場面は書けません。",
        "その続きは控えさせていただきます。",
        "この内容は控えたいです。",
        "それは控えます。",
    ],
)
def test_the_hosts_own_decline_of_the_same_shape_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


@pytest.mark.parametrize(
    "decline",
    [
        "I can't do this scene, sorry.",
        "I can't write that.",
        "Ich möchte die Szene nicht weiterführen.",
        "Non vorrei portare la scena in quella direzione.",
        "Nie chcę prowadzić tej sceny dalej.",
        "Не буду писать эту сцену.",
        "このシーンを描写することはできません。",
        "この話はもう続けられません。",
        "この依頼はお受けできません。",
        "我们换个话题吧，我不能写这一章。",
        "I can write the first half, but not that scene.",
    ],
)
def test_a_plain_cannot_whose_act_is_the_task_or_its_object_still_declines(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- a negated modal governs its infinitive (refusal_patterns._MODAL_INFINITIVE): another act than the task,
# with a task word elsewhere in the sentence (fronted in another clause, or further on), is a character or a manual
@pytest.mark.parametrize(
    "line",
    [
        "I can't understand why a person will take a year or two to write a novel when he can buy one.",
        "It seems like I can't keep anything down… My story? Just a wanderin' cowhand.",
        "I won't forget the night we wrote the story of the flood together.",
        "Bueno, debe describir el volcán de alguna manera, pero ahora no puedo descifrarlo.",
        "Você sabe, eu realmente não quero mais dizer. Está tudo atrás de mim e gostaria de continuar assim.",
        "Stilblüten aus Schreiben von Versicherungsnehmern: Wer mir die Geldbörse gestohlen hat, kann ich nicht sagen.",
        "Das Kapitel über den Winter, das kann ich nicht vergessen.",
        "Non voglio ricordare quei giorni, anche se la storia del paese li racconta ancora.",
        "No puedo recordar cuándo empezó, pero la historia ya la conocía todo el pueblo.",
        "Dat verhaal van de overstroming, dat wil ik niet vergeten.",
        "Tę historię, którą opowiadał dziadek, nie mogę zapomnieć.",
        "Чи є вони тими істотами зі старих історій, я не можу сказати.",
        "Эту историю, что рассказывал дед, я не могу забыть.",
        "テキストを図形描画オブジェクトに変換したあと、テキストの内容を編集することはできません。",
        "この「条件付き」の属性を後から変更することはできませんが、条件そのものは変更可能です。",
        "レイヤーが無いのですぐにはこの部分に描画ができません。",
    ],
)
def test_a_negated_modal_of_another_act_is_not_a_decline(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "I can't bring myself to write this scene.",
        "I can't in good conscience write this.",
        "I won't be writing that scene.",
        "Diese Richtung möchte ich nicht einschlagen.",
        "In diese Richtung möchte ich die Szene nicht weiterführen.",
        "Essa parte do pedido eu não vou conseguir seguir.",
        "Lo siento, pero no puedo ayudarte con esa solicitud.",
        "Je suis désolé, mais je ne peux pas vous aider avec cette demande.",
        "Mi dispiace, ma non posso aiutarti con questa richiesta.",
        "Przepraszam, ale nie mogę pomóc w tworzeniu takich scen.",
        "Извините, но я не могу помочь с этим запросом.",
        "Чесно кажучи, такого я писати не буду.",
        "Metto in pausa il gioco di ruolo: non vorrei portare la scena in quella direzione.",
        "Zatrzymam na chwilę naszą grę: nie chcę prowadzić tej sceny w tę stronę.",
        "このシーンを描写することはできません。",
        "申し訳ありませんが、この場面を書くことはできません。",
        "その内容を作成することはできません。",
        "この依頼はお受けできません。",
    ],
)
def test_a_negated_modal_of_the_task_or_of_helping_with_it_still_declines(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- a decline verb whose object is a thing of the story (refusal_patterns._DECLINED_THING) ------------------
@pytest.mark.parametrize(
    "line",
    [
        "Infelizmente devo declinar do seu convite, devido a um compromisso assumido posteriormente.",
        "I must decline your invitation, my lord; the road north is calling.",
        "I have to refuse the duel, captain. My sword arm is still healing.",
        "Tengo que rechazar tu oferta, el barco zarpa al amanecer.",
        "Je dois refuser votre invitation, le roi m'attend au palais.",
        "Devo rifiutare il tuo invito, la carovana parte stanotte.",
        "Я вынужден отказаться от приглашения: караван уходит на рассвете.",
        "Мушу відмовитися від вашої пропозиції, караван вирушає на світанку.",
    ],
)
def test_declining_a_thing_of_the_story_is_not_a_refusal(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "I must decline.",
        "I must respectfully decline this one.",
        "I must decline this request.",
        "I must refuse the scene you asked for.",
        "Devo recusar, desculpe.",
        "Tengo que rechazar esta petición.",
        "Je dois refuser cette demande.",
        "Я вынужден отказаться от этой сцены.",
    ],
)
def test_declining_the_request_the_scene_or_nothing_named_is_still_a_decline(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- a steer to another subject followed by the story going on (refusal_patterns._steer_then_story) ------------
@pytest.mark.parametrize(
    "line",
    [
        "我们换个话题吧。你的腿关节配备了伺服电机，能为运动提供辅助动力。它们能提高你的跑步速度，同时当该生化插件开启时，步行也会更加轻松。",
        "Прости. Давай сменим тему. Мы шли через болото ещё два часа, пока не увидели огни деревни, и никто больше не вспоминал о караване.",
        "Let's change the subject. The rain had stopped by the time we reached the mill, and the miller's boy was already waiting at the gate with a lantern.",
        "Cambiemos de tema. La lluvia había parado cuando llegamos al molino, y el chico del molinero ya esperaba en la puerta con un farol.",
        "Zmieńmy temat. Deszcz ustał, zanim dotarliśmy do młyna, a syn młynarza czekał już przy bramie z latarnią w ręku i psem u nogi.",
        "話題を変えましょう。雨は私たちが水車小屋に着くころには止んでいて、粉屋の息子が門の前でランタンを持って待っていた。",
    ],
)
def test_a_steer_followed_by_the_story_going_on_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "Let's change the subject.",
        "Прости. Давай сменим тему.",
        "我们换个话题吧。你想聊点什么？",
        "Let's change the subject. How about a story about a lighthouse keeper instead, where the storm never quite comes?",
        "Cambiemos de tema, ¿te parece? Podemos hablar de cualquier otra cosa que te apetezca, de verdad, sin ningún problema.",
    ],
)
def test_a_steer_alone_or_asking_what_next_is_still_a_decline(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- refusing the request, the host's own rules, negated writing, partial declines, toning down, stepping out ---
# (refusal_patterns._REQUESTS, _OWN_RULES, _NOT_WRITING, _PARTIAL, _TONED_DOWN, _OUT_OF_ROLE): declines worded
# with these cores in each locale are found; the same lines in a character's mouth are the story.
REQUEST_AND_RULE_DECLINES = [
    ("en", "I'm sorry, but I can't fulfill this request."),
    ("en", "I'm unable to comply with that request."),
    ("en", "As an AI, I won't generate this."),
    ("en", "I cannot produce this content."),
    ("en", "Sorry — that request is outside what I'm able to do."),
    ("es", "Lo siento, pero no puedo cumplir con esta solicitud."),
    ("es", "No me es posible atender esta petición."),
    ("es", "Esta solicitud no la puedo atender."),
    ("es", "No puedo generar este contenido."),
    ("es", "Como asistente de IA, no puedo crear esto."),
    ("pt-BR", "Desculpe, mas não posso atender a esse pedido."),
    ("pt-BR", "Não consigo cumprir essa solicitação."),
    ("pt-BR", "Não posso gerar esse conteúdo."),
    ("pt-BR", "Esse pedido eu não posso atender."),
    ("fr", "Je suis désolé, mais je ne peux pas répondre à cette demande."),
    ("fr", "Je ne peux pas donner suite à cette requête."),
    ("fr", "Je ne peux pas générer ce contenu."),
    ("de", "Es tut mir leid, aber ich kann dieser Anfrage nicht nachkommen."),
    ("de", "Diese Anfrage kann ich leider nicht erfüllen."),
    ("de", "Ich kann diesen Inhalt nicht erstellen."),
    ("de", "Ich bin nicht in der Lage, diese Anfrage zu bearbeiten."),
    ("it", "Mi dispiace, ma non posso soddisfare questa richiesta."),
    ("it", "Non sono in grado di esaudire la tua richiesta."),
    ("it", "Questa richiesta non posso soddisfarla."),
    ("it", "Non posso generare questo contenuto."),
    ("nl", "Het spijt me, maar ik kan niet aan dit verzoek voldoen."),
    ("nl", "Dit verzoek kan ik niet uitvoeren."),
    ("nl", "Ik kan deze inhoud niet genereren."),
    ("pl", "Przepraszam, ale nie mogę spełnić tej prośby."),
    ("pl", "Tej prośby nie mogę zrealizować."),
    ("pl", "Nie mogę wygenerować tej treści."),
    ("ru", "Извините, но я не могу выполнить этот запрос."),
    ("ru", "Эту просьбу я выполнить не могу."),
    ("ru", "Я не могу создать такой контент."),
    ("uk", "Вибачте, але я не можу виконати цей запит."),
    ("uk", "Це прохання я виконати не можу."),
    ("tr", "Üzgünüm, bu isteği yerine getiremem."),
    ("tr", "Bu talebi karşılayamam."),
    ("tr", "Bu içeriği oluşturamam."),
    ("id", "Maaf, saya tidak dapat memenuhi permintaan ini."),
    ("id", "Permintaan ini tidak bisa saya penuhi."),
    ("id", "Saya tidak bisa membuat konten ini."),
    ("vi", "Xin lỗi, tôi không thể đáp ứng yêu cầu này."),
    ("vi", "Yêu cầu này tôi không thể thực hiện."),
    ("vi", "Tôi không thể tạo nội dung này."),
    ("ja", "申し訳ありませんが、このリクエストにはお応えできません。"),
    ("ja", "そのご依頼はお受けできません。"),
    ("ja", "このような内容は作成できません。"),
    ("ko", "죄송하지만 이 요청은 들어드릴 수 없습니다."),
    ("ko", "이 요청을 처리할 수 없습니다."),
    ("ko", "그런 내용은 작성할 수 없습니다."),
    ("zh-Hans", "抱歉，我无法完成这个请求。"),
    ("zh-Hans", "这个要求我不能答应。"),
    ("zh-Hans", "我无法生成此类内容。"),
    ("zh-Hant", "抱歉，我無法完成這個請求。"),
    ("zh-Hant", "這個要求我不能答應。"),
    ("zh-Hant", "我無法生成此類內容。"),
    ("en", "No. I'm not writing that."),
    ("en", "This is something I can't write."),
    ("en", "I won't describe a dog being mutilated."),
    ("en", "I can't write content that depicts graphic cruelty to animals."),
    ("en", "I'm not able to write graphic animal abuse, even in fiction."),
    ("en", "Graphic animal cruelty isn't something I'll write."),
    ("en", "I don't write graphic violence against animals."),
    ("en", "My guidelines don't allow me to write this."),
    ("es", "No escribiré eso."),
    ("es", "Esto no lo escribo."),
    ("es", "No voy a describir cómo mutilan a un perro."),
    ("es", "No escribo violencia explícita contra animales."),
    ("es", "Mis directrices no me permiten escribir esto."),
    ("pt-BR", "Isso eu não escrevo."),
    ("pt-BR", "Não escrevo violência explícita contra animais."),
    ("pt-BR", "Minhas diretrizes não me permitem escrever isso."),
    ("fr", "Je n'écrirai pas ça."),
    ("fr", "Ça, je ne l'écris pas."),
    ("fr", "Je n'écris pas de violence explicite envers les animaux."),
    ("fr", "Mes consignes ne me permettent pas d'écrire cela."),
    ("de", "Das schreibe ich nicht."),
    ("de", "Explizite Gewalt gegen Tiere schreibe ich nicht."),
    ("de", "Meine Richtlinien erlauben mir nicht, das zu schreiben."),
    ("it", "Non lo scriverò."),
    ("it", "Questo non lo scrivo."),
    ("it", "Non scrivo violenza esplicita sugli animali."),
    ("it", "Le mie linee guida non mi permettono di scriverlo."),
    ("nl", "Dat schrijf ik niet."),
    ("nl", "Expliciet geweld tegen dieren schrijf ik niet."),
    ("nl", "Mijn richtlijnen staan me niet toe dit te schrijven."),
    ("pl", "Tego nie napiszę."),
    ("pl", "Nie piszę drastycznej przemocy wobec zwierząt."),
    ("pl", "Moje zasady nie pozwalają mi tego napisać."),
    ("ru", "Этого я писать не буду."),
    ("ru", "Я такое не пишу."),
    ("ru", "Такого я не напишу."),
    ("ru", "Мои правила не позволяют мне это писать."),
    ("uk", "Цього я писати не буду."),
    ("uk", "Я таке не пишу."),
    ("uk", "Мої правила не дозволяють мені це писати."),
    ("tr", "Bunu yazmam."),
    ("tr", "Bunu yazmayacağım."),
    ("tr", "Hayvanlara yönelik açık şiddet yazmıyorum."),
    ("tr", "Yönergelerim bunu yazmama izin vermiyor."),
    ("id", "Itu tidak akan saya tulis."),
    ("id", "Saya tidak menulis konten seperti itu."),
    ("id", "Pedoman saya tidak mengizinkan saya menulis ini."),
    ("vi", "Cái này tôi không viết được."),
    ("vi", "Tôi sẽ không viết điều đó."),
    ("vi", "Nguyên tắc của tôi không cho phép tôi viết điều này."),
    ("ja", "それは書けません。"),
    ("ja", "書くことはできません。"),
    ("ja", "動物への残虐な描写は書きません。"),
    ("ja", "ガイドライン上、このような内容は書けません。"),
    ("ko", "그건 쓸 수 없어요."),
    ("ko", "그런 글은 쓰지 않겠습니다."),
    ("ko", "제 가이드라인상 이런 내용은 작성할 수 없습니다."),
    ("zh-Hans", "这个我不能写。"),
    ("zh-Hans", "我不会写这种内容。"),
    ("zh-Hans", "我的准则不允许我写这类内容。"),
    ("zh-Hant", "這種內容我不寫。"),
    ("zh-Hant", "我不會寫這種內容。"),
    ("zh-Hant", "我的準則不允許我寫這類內容。"),
]
PARTIAL_TONED_AND_OUT_OF_ROLE = [
    ("en", "I'll write the scene, but I'll leave out the graphic details."),
    ("en", "I'm happy to write it, though I'll keep the violence off-screen."),
    ("en", "I'll tone down the gore a bit. The basement was dark."),
    ("en", "(OOC: I'd rather not write graphic animal cruelty, so I'll keep it implied.)"),
    ("en", "Breaking character for a second: I don't do graphic gore."),
    ("es", "Escribo la escena, pero sin los detalles sangrientos."),
    ("es", "Puedo escribir la bajada al sótano, pero no la parte del perro."),
    ("es", "Voy a suavizar un poco la escena. Lucía bajó despacio."),
    ("es", "(Fuera del personaje: prefiero no escribir crueldad animal explícita.)"),
    ("es", "Te escribo la escena, aunque dejaré la violencia fuera de cámara."),
    ("pt-BR", "Escrevo a cena, mas sem os detalhes sangrentos."),
    ("pt-BR", "Posso escrever a descida ao porão, mas não a parte do cachorro."),
    ("pt-BR", "Vou suavizar um pouco a cena. Carla desceu devagar."),
    ("pt-BR", "(Saindo do personagem: prefiro não escrever crueldade explícita com animais.)"),
    ("fr", "J'écris la scène, mais sans les détails sanglants."),
    ("fr", "Je peux écrire la descente à la cave, mais pas la partie avec le chien."),
    ("fr", "Je vais adoucir un peu la scène. Chloé descendit lentement."),
    ("fr", "(Hors personnage : je préfère ne pas écrire de cruauté animale explicite.)"),
    ("de", "Ich schreibe die Szene, aber ohne die blutigen Details."),
    ("de", "Den Abstieg in den Keller kann ich schreiben, den Teil mit dem Hund aber nicht."),
    ("de", "Ich schwäche die Szene etwas ab. Jule ging langsam hinunter."),
    ("de", "(Außerhalb der Rolle: Ich möchte keine explizite Tierquälerei schreiben.)"),
    ("it", "Scrivo la scena, ma senza i dettagli cruenti."),
    ("it", "Posso scrivere la discesa in cantina, ma non la parte del cane."),
    ("it", "Attenuerò un po' la scena. Giulia scese piano."),
    ("it", "(Fuori dal personaggio: preferisco non scrivere crudeltà esplicita sugli animali.)"),
    ("nl", "Ik schrijf de scène, maar zonder de bloederige details."),
    ("nl", "De afdaling kan ik schrijven, maar het deel met de hond niet."),
    ("nl", "Ik zwak de scène een beetje af. Emma liep langzaam naar beneden."),
    ("nl", "(Even uit mijn rol: expliciet dierenleed schrijf ik liever niet.)"),
    ("pl", "Napiszę scenę, ale bez krwawych szczegółów."),
    ("pl", "Mogę opisać zejście do piwnicy, ale nie część z psem."),
    ("pl", "Złagodzę nieco tę scenę. Kasia schodziła powoli."),
    ("pl", "(Poza rolą: wolałbym nie pisać drastycznego okrucieństwa wobec zwierząt.)"),
    ("ru", "Напишу сцену, но без кровавых подробностей."),
    ("ru", "Могу описать спуск в подвал, но не то, что случилось с собакой."),
    ("ru", "Я немного смягчу сцену. Лера медленно спускалась."),
    ("ru", "(Вне роли: я бы не хотел описывать жестокость к животным.)"),
    ("uk", "Напишу сцену, але без кривавих подробиць."),
    ("uk", "Можу описати спуск у підвал, але не те, що сталося з собакою."),
    ("uk", "Я трохи пом'якшу сцену. Марійка повільно спускалася."),
    ("uk", "(Поза роллю: я б не хотів описувати жорстокість до тварин.)"),
    ("tr", "Sahneyi yazarım ama kanlı ayrıntılar olmadan."),
    ("tr", "Bodruma inişi yazabilirim, ama köpekle ilgili kısmı yazmayacağım."),
    ("tr", "Sahneyi biraz yumuşatacağım. Elif yavaşça indi."),
    ("tr", "(Rolden çıkarak söylüyorum: açık hayvan şiddeti yazmak istemiyorum.)"),
    ("id", "Saya tulis adegannya, tapi tanpa detail berdarah."),
    ("id", "Saya bisa menulis bagian turun ke ruang bawah tanah, tapi tidak bagian anjingnya."),
    ("id", "Saya akan sedikit memperhalus adegannya. Rina turun perlahan."),
    (
        "id",
        "(Keluar dari peran sebentar: saya tidak ingin menulis kekejaman terhadap hewan secara eksplisit.)",
    ),
    ("vi", "Mình sẽ viết cảnh này, nhưng bỏ qua các chi tiết máu me."),
    ("vi", "Mình có thể viết đoạn xuống hầm, nhưng không viết phần con chó."),
    ("vi", "Mình sẽ giảm nhẹ cảnh này một chút. Lan bước xuống chậm rãi."),
    ("vi", "(Ra khỏi vai một chút: mình không muốn viết cảnh ngược đãi động vật.)"),
    ("ja", "場面は書きますが、残酷な部分は省きます。"),
    ("ja", "地下への階段までは書けますが、犬の部分は書けません。"),
    ("ja", "少し表現を和らげて書きますね。美咲はゆっくり降りた。"),
    ("ja", "（役を離れて一言：動物への残虐描写は控えさせてください。）"),
    ("ko", "장면은 쓰겠지만 잔인한 부분은 빼겠습니다."),
    ("ko", "지하실로 내려가는 부분까지는 쓸 수 있지만, 개 부분은 쓰지 않겠습니다."),
    ("ko", "수위를 조금 낮춰서 써 볼게요. 지은은 천천히 내려갔다."),
    ("ko", "(캐릭터에서 잠시 벗어나서: 동물 학대 묘사는 쓰지 않을게요.)"),
    ("zh-Hans", "场景我可以写，但血腥的部分我就不写了。"),
    ("zh-Hans", "我可以写她下楼的过程，但狗的部分不写。"),
    ("zh-Hans", "我会把这段写得含蓄一点。小雨慢慢走下楼梯。"),
    ("zh-Hans", "（先跳出角色说一句：虐待动物的细节我不写。）"),
    ("zh-Hant", "場景我可以寫，但血腥的部分我就不寫了。"),
    ("zh-Hant", "我可以寫她下樓的過程，但狗的部分不寫。"),
    ("zh-Hant", "我會把這段寫得含蓄一點。佳琪慢慢走下樓梯。"),
    ("zh-Hant", "（先跳出角色說一句：虐待動物的細節我不寫。）"),
]


# a stop after a story excerpt (``_STOP_AFTER_EXCERPT``, read in the whole window) and more names of the host
# and its rules
STOPS_AND_RULES = [
    ("en", "The stairs creaked under her weight. I'll stop here; the rest is better left to the reader."),
    ("fr", "L'interrupteur ne répondait pas. Je m'arrête là : la suite, je la laisse à ton imagination."),
    ("it", "La lampadina pendeva immobile. Qui mi fermo: il resto lo lascio al lettore."),
    ("de", "Die Kellertür quietschte. Hier höre ich auf, den Rest überlasse ich deiner Vorstellung."),
    ("ru", "Лера спускалась, считая ступени. На этом я остановлюсь: дальше — ваше воображение."),
    ("id", "Anak tangga berderit. Saya berhenti di sini, sisanya silakan dibayangkan pembaca."),
    ("vi", "Lan đếm từng bậc. Đến đây mình xin dừng, phần còn lại để bạn tự tưởng tượng."),
    ("ja", "電球が瞬いて消えた。ここから先は書かずにおきます。"),
    ("ko", "전구가 지직거렸다. 여기까지만 쓸게요."),
    ("zh-Hant", "燈泡晃呀晃。到這裡就好，剩下的交給讀者。"),
    ("es", "Esta solicitud infringe mis políticas de contenido."),
    ("de", "Das verletzt meine Richtlinien."),
    ("ru", "Это нарушает мою политику в отношении контента."),
    ("tr", "Bu istek içerik politikama aykırı."),
    ("ko", "이 요청은 콘텐츠 정책을 위반합니다."),
    ("zh-Hant", "身為 AI 助理，我不能這樣做。"),
    ("ja", "そのリクエストはコンテンツポリシーに抵触します。"),
]


@pytest.mark.parametrize(
    ("locale", "text"), REQUEST_AND_RULE_DECLINES + PARTIAL_TONED_AND_OUT_OF_ROLE + STOPS_AND_RULES
)
def test_a_decline_of_the_request_or_a_part_of_it_is_found_and_quoted_it_is_the_story(
    locale: str, text: str
) -> None:
    assert find_refusal(text) is not None, text
    assert find_refusal("Thanks for the idea! " + text) is not None, text
    _a_character_may_say(locale, text)


@pytest.mark.parametrize(
    "story",
    [
        # characters refusing a request, in quotes, on a dialogue line or before a reporting clause
        "I cannot fulfil your request, my lord, the steward said, and bowed low before the empty throne.",
        'The knight knelt in the mud. "I am not permitted to carry out this task," he whispered.',
        "— No puedo atender tu petición — dijo la reina, y cerró la puerta del salón.",
        "« Je ne peux pas répondre à cette requête », murmura le scribe en rangeant ses plumes.",
        "„Dieser Bitte kann ich nicht nachkommen“, sagte der Abt und wandte sich ab.",
        "— Виконати це прохання я не в змозі, — відповів старий і зачинив браму.",
        "「そのご依頼にはお応えしかねます」と執事は言った。",
        "“我无法满足你的这个要求。”老板摇着头说。",
        "Das schreibe ich nicht, sagte der Chronist und legte die Feder weg.",
        "I don't write letters anymore, Mara thought, and folded the page into the fire.",
        "Більше я йому не напишу, вирішила Оля і кинула лист у вогонь.",
        # the words of a partial decline or a toned-down scene, narrated about someone else
        "Jess wanted to write the story, but without the bloody ending it felt empty to her.",
        "Her outburst was out of character; she was not usually like that at the market.",
        # help text: an inability of a machine, a policy that is not the host's
        "备用电源目前无法满足广播需求。发生紧急状况时，请优先联系当地国民警卫队。",
        "Оборудование, само по себе, не в состоянии выполнять задачи без соответствующей программной части.",
        "Si agranda una capa, los píxeles que faltan se calculan por interpolación, pero no se añaden detalles nuevos.",
        "main セクションは、Debian ポリシーにより Debian フリーソフトウェアガイドラインに完全に準拠しなければなりません。",
        "너무 걱정하지 마십시오. 시스템을 엎어쓰지 않습니다!",
        "Auch erzähle ich nicht die Geschichte von Garard I. und den Kriegen, die er begann, nein.",
        # a storyteller stopping without leaving the rest to anyone
        "The fire burned low. I'll stop here, said the old man, and the children groaned.",
        "Lera counted the steps. I will stop here for tonight and go on tomorrow at dawn.",
    ],
)
def test_the_new_cores_leave_characters_and_help_text_alone(story: str) -> None:
    assert find_refusal(story) is None, story


# The blind set independent4 (bench/screen/independent4_dev.tsv): its look-alikes pass, its hard declines are
# found, and its soft declines at least as often as the grammar reads them (docs/reply-screen.md: a
# counter-offer that does not say it leaves the graphic part out, a decline after a story excerpt beyond the
# lead, a decline naming no task pass).
BLIND4 = [
    tuple(line.split("\t"))
    for line in DEV.with_name("independent4_dev.tsv").read_text("utf-8").splitlines()
    if line and not line.startswith("#")
]


def test_the_blind_dev_set_look_alikes_pass_and_its_declines_are_found() -> None:
    found = Counter((kind, find_refusal(text) is not None) for _, kind, text in BLIND4)
    assert found[("lookalike", True)] == 0
    assert found[("hard", False)] == 0
    assert found[("soft", True)] >= 159, found


# Plain hard refusals with no apology and no writing verb, one to a line per locale (docs/reply-screen.md
# "Refusal": a bare comply, not going to help with this, outside what the host may produce, a request denied,
# content the host does not produce, against the policy or the rules, saying no, a bare "No." with its reason).
PLAIN_HARD: dict[str, list[str]] = {
    "en": [
        'I cannot comply with that.',
        "I can't comply.",
        "I won't comply with this.",
        "I'm not going to help with that.",
        "I'm not going to do this one.",
        "Sorry, that's outside what I'm allowed to write.",
        "This falls outside what I'm permitted to produce.",
        'Request denied. The scene you describe is too graphic.',
        'Request refused: graphic violence.',
        "I don't produce graphic violence.",
        "I don't generate content like this.",
        'That content is against policy.',
        'This request goes against my policies.',
        "This isn't something I'll write.",
        "That's not something I will do.",
        'I have to say no to this request.',
        "I'll have to say no here.",
        "I won't be doing that.",
    ],
    "es": [
        'No puedo cumplir con eso.',
        'No voy a ayudar con esto.',
        'Lo siento, eso queda fuera de lo que tengo permitido escribir.',
        'Eso está fuera de lo que se me permite generar.',
        'Solicitud denegada: el contenido es demasiado violento.',
        'Petición rechazada.',
        'No genero contenido de este tipo.',
        'No produzco ese tipo de contenido.',
        'Ese contenido va contra las normas.',
        'Esto infringe mis políticas de uso.',
        'Eso no va a pasar, lo siento.',
        'Esto no es algo que vaya a hacer.',
        'Tengo que decir que no a esta petición.',
        'Debo decirte que no.',
        'No. Es demasiado gráfico.',
    ],
    "pt-BR": [
        'Não posso cumprir isso.',
        'Não vou ajudar com isso.',
        'Desculpe, isso está fora do que tenho permissão para escrever.',
        'Isso foge do que posso produzir.',
        'Pedido negado: o conteúdo é violento demais.',
        'Solicitação recusada.',
        'Não gero conteúdo desse tipo.',
        'Não produzo esse tipo de conteúdo.',
        'Esse conteúdo vai contra as regras.',
        'Isso viola minhas políticas.',
        'Isso não vai acontecer, desculpe.',
        'Isso não é algo que eu vá fazer.',
        'Vou ter que dizer não a esse pedido.',
        'Preciso dizer não.',
        'Não. É violento demais.',
    ],
    "fr": [
        "Je ne peux pas m'y conformer.",
        "Je ne vais pas t'aider avec ça.",
        'Je ne vais pas écrire ça.',
        "Désolé, cela dépasse ce que j'ai le droit d'écrire.",
        "C'est en dehors de ce que je suis autorisé à produire.",
        'Demande refusée : le contenu est trop violent.',
        'Requête rejetée.',
        'Je ne produis pas ce genre de contenu.',
        'Je ne génère pas de contenu de ce type.',
        'Ce contenu est contraire au règlement.',
        "C'est contraire à mes règles.",
        'Ça ne va pas se faire, désolé.',
        "Ce n'est pas quelque chose que je vais faire.",
        'Je dois dire non à cette demande.',
        "Non. C'est trop violent.",
    ],
    "de": [
        'Dem kann ich nicht nachkommen.',
        'Dabei werde ich nicht helfen.',
        'Tut mir leid, das liegt außerhalb dessen, was ich schreiben darf.',
        'Das geht über das hinaus, was ich erstellen darf.',
        'Anfrage abgelehnt: Der Inhalt ist zu gewalttätig.',
        'Anfrage abgelehnt.',
        'Solche Inhalte erstelle ich nicht.',
        'Ich erstelle keine Inhalte dieser Art.',
        'Dieser Inhalt verstößt gegen die Richtlinien.',
        'Das verstößt gegen meine Regeln.',
        'Das ist nichts, was ich tun werde.',
        'Dazu muss ich nein sagen.',
        'Nein. Das ist zu brutal.',
    ],
    "it": [
        'Non posso acconsentire.',
        'Non ti aiuterò con questo.',
        'Mi dispiace, questo va oltre ciò che mi è consentito scrivere.',
        'È al di fuori di ciò che posso produrre.',
        'Richiesta negata: il contenuto è troppo violento.',
        'Richiesta respinta.',
        'Non produco contenuti di questo tipo.',
        'Non genero questo genere di contenuti.',
        'Questo contenuto è contro le regole.',
        'Ciò viola le mie linee guida.',
        'Non succederà, mi dispiace.',
        'Non è qualcosa che farò.',
        'Devo dire di no a questa richiesta.',
        'No. È troppo violento.',
    ],
    "nl": [
        'Daar kan ik niet aan voldoen.',
        'Daar ga ik niet mee helpen.',
        'Sorry, dit valt buiten wat ik mag schrijven.',
        'Dat valt buiten wat ik mag maken.',
        'Verzoek geweigerd: de inhoud is te gewelddadig.',
        'Verzoek afgewezen.',
        'Zulke inhoud maak ik niet.',
        'Ik maak geen inhoud van dit soort.',
        'Deze inhoud is in strijd met het beleid.',
        'Dat gaat niet gebeuren, sorry.',
        'Dit is niet iets wat ik ga doen.',
        'Hier moet ik nee tegen zeggen.',
        'Nee. Dit is te gewelddadig.',
    ],
    "pl": [
        'Nie mogę się do tego zastosować.',
        'Nie zamierzam w tym pomagać.',
        'Przepraszam, to wykracza poza to, co wolno mi pisać.',
        'To wykracza poza to, co mogę tworzyć.',
        'Prośba odrzucona: treść jest zbyt brutalna.',
        'Odmawiam.',
        'Nie tworzę tego typu treści.',
        'Nie generuję takich treści.',
        'Ta treść jest niezgodna z zasadami.',
        'To narusza moje zasady.',
        'To się nie wydarzy, przykro mi.',
        'To nie jest coś, co zrobię.',
        'Muszę powiedzieć nie.',
        'Nie. To zbyt drastyczne.',
    ],
    "ru": [
        'Я не могу это выполнить.',
        'Я не буду с этим помогать.',
        'Извините, это выходит за рамки того, что мне разрешено писать.',
        'Это за пределами того, что я могу создавать.',
        'Запрос отклонён: контент слишком жестокий.',
        'В просьбе отказано.',
        'Я не создаю подобный контент.',
        'Я не генерирую такие материалы.',
        'Этот контент противоречит правилам.',
        'Это нарушает мои правила.',
        'Этого не будет, извините.',
        'Это не то, что я буду делать.',
        'Вынужден сказать нет.',
        'Я вынужден отказать.',
        'Нет. Это слишком жестоко.',
    ],
    "uk": [
        'Я не можу це виконати.',
        'Я не буду з цим допомагати.',
        'Вибачте, це виходить за межі того, що мені дозволено писати.',
        'Це поза межами того, що я можу створювати.',
        'Запит відхилено: вміст надто жорстокий.',
        'У проханні відмовлено.',
        'Я не створюю подібний контент.',
        'Я не генерую такі матеріали.',
        'Цей контент суперечить правилам.',
        'Це порушує мої правила.',
        'Цього не буде, вибачте.',
        'Це не те, що я робитиму.',
        'Змушений сказати ні.',
        'Я змушений відмовити.',
        'Ні. Це надто жорстоко.',
    ],
    "tr": [
        'Bu konuda yardım etmeyeceğim.',
        'Üzgünüm, bu yazmama izin verilen şeylerin dışında.',
        'Bu, üretmeme izin verilenin dışında kalıyor.',
        'İstek reddedildi: içerik fazla şiddetli.',
        'Talep reddedildi.',
        'Bu tür içerik üretmiyorum.',
        'Böyle içerikler oluşturmuyorum.',
        'Bu içerik kurallara aykırı.',
        'Bu, politikalarımı ihlal ediyor.',
        'Bu olmayacak, üzgünüm.',
        'Bu yapacağım bir şey değil.',
        'Buna hayır demek zorundayım.',
        'Hayır. Bu fazla şiddetli.',
    ],
    "ja": [
        'これはお手伝いしません。',
        'それは書けません。',
        '申し訳ありませんが、それは私が書くことを許されている範囲外です。',
        'それは私が作成できる範囲を超えています。',
        'リクエストは拒否されました：内容が暴力的すぎます。',
        'この種のコンテンツは作成しません。',
        'そのようなコンテンツは生成しません。',
        'この内容はポリシーに反します。',
        'これにはノーと言わざるを得ません。',
        'お断りせざるを得ません。',
        'いいえ。暴力的すぎます。',
        'その執筆は拒否します。',
    ],
    "ko": [
        '그 요청에는 따를 수 없습니다.',
        '이 일은 도와드리지 않겠습니다.',
        '그건 쓸 수 없습니다.',
        '죄송하지만, 그건 제가 작성할 수 있는 범위를 벗어납니다.',
        '제가 만들 수 있는 범위 밖입니다.',
        '요청이 거부되었습니다: 내용이 너무 폭력적입니다.',
        '이런 종류의 콘텐츠는 만들지 않습니다.',
        '그런 콘텐츠는 생성하지 않습니다.',
        '이 내용은 정책에 위배됩니다.',
        '이 요청은 거절할 수밖에 없습니다.',
        '거절해야겠습니다.',
        '아니요. 너무 폭력적입니다.',
        '그 글은 쓰기를 거부합니다.',
    ],
    "zh-Hans": [
        '我无法照做。',
        '这个我不会帮忙。',
        '抱歉，这超出了我被允许写的范围。',
        '这超出了我能生成的内容范围。',
        '请求被拒绝：内容过于暴力。',
        '拒绝。',
        '我不生成这类内容。',
        '我不创作这种内容。',
        '该内容违反政策。',
        '对这个请求我只能说不。',
        '不行。内容太暴力了。',
    ],
    "zh-Hant": [
        '我無法照做。',
        '這個我不會幫忙。',
        '抱歉，這超出了我被允許寫的範圍。',
        '這超出了我能生成的內容範圍。',
        '請求被拒絕：內容過於暴力。',
        '拒絕。',
        '我不生成這類內容。',
        '我不創作這種內容。',
        '該內容違反政策。',
        '對這個請求我只能說不。',
        '不行。內容太暴力了。',
    ],
    "id": [
        'Saya tidak bisa mematuhi itu.',
        'Saya tidak akan membantu dengan ini.',
        'Saya tidak akan menulis itu.',
        'Maaf, itu di luar apa yang boleh saya tulis.',
        'Ini di luar apa yang diizinkan untuk saya buat.',
        'Permintaan ditolak: kontennya terlalu kejam.',
        'Permintaan ditolak.',
        'Saya tidak membuat konten semacam ini.',
        'Saya tidak menghasilkan konten seperti itu.',
        'Konten ini melanggar kebijakan.',
        'Ini bertentangan dengan aturan saya.',
        'Itu tidak akan terjadi, maaf.',
        'Ini bukan sesuatu yang akan saya lakukan.',
        'Saya terpaksa bilang tidak.',
        'Tidak. Ini terlalu brutal.',
    ],
    "vi": [
        'Tôi không thể tuân theo điều đó.',
        'Tôi sẽ không giúp việc này.',
        'Xin lỗi, điều này nằm ngoài những gì tôi được phép viết.',
        'Việc này vượt quá những gì tôi được phép tạo ra.',
        'Yêu cầu bị từ chối: nội dung quá bạo lực.',
        'Từ chối yêu cầu.',
        'Tôi không tạo nội dung kiểu này.',
        'Tôi không sản xuất loại nội dung như vậy.',
        'Nội dung này vi phạm chính sách.',
        'Điều này trái với quy tắc của tôi.',
        'Chuyện đó sẽ không xảy ra, xin lỗi.',
        'Đây không phải là việc tôi sẽ làm.',
        'Tôi phải nói không với yêu cầu này.',
        'Tôi buộc phải từ chối.',
        'Không. Nội dung này quá bạo lực.',
    ],
}  # fmt: skip
PLAIN = [(locale, text) for locale, texts in PLAIN_HARD.items() for text in texts]


@pytest.mark.parametrize(("locale", "text"), PLAIN)
def test_a_plain_hard_refusal_is_found_by_its_locale_hard_patterns(locale: str, text: str) -> None:
    assert HARD[locale].search(text.lower()), text
    assert find_refusal(text) is not None
    assert find_refusal("Thanks for the idea! " + text) is not None


@pytest.mark.parametrize(("locale", "text"), PLAIN)
def test_a_character_saying_a_plain_refusal_is_the_story(locale: str, text: str) -> None:
    _a_character_may_say(locale, text)


@pytest.mark.parametrize(
    "story",
    [
        # characters and narration using the words of a plain refusal
        '"I cannot comply, Captain," the android said, and the airlock stayed shut.',
        "Request denied, the terminal blinked, and Mara swore at the rusted console.",
        "The guard shook his head. That was against the rules of the keep, and everyone knew it.",
        "She said it was not going to happen, and the whole village believed her.",
        "Tom had to say no to the offer, though the money would have saved the farm.",
        "Her request was denied by the council, so she packed her bags before dawn.",
        "— Solicitud denegada — dijo el funcionario, y cerró la ventanilla.",
        "„Anfrage abgelehnt“, sagte der Beamte und schloss den Schalter.",
        "« Demande refusée », dit le guichetier en fermant la vitre.",
        "— Запрос отклонён, — сказал дежурный и отвернулся к окну.",
        "「リクエストは拒否されました」と端末が告げ、彼女は舌打ちした。",
        "“请求被拒绝。”屏幕上跳出一行字，她叹了口气。",
        # help text: a server or a tool that refuses, a policy of a product
        "If the server refuses the request, check the token and try again; the log shows why it was denied.",
        "The proxy returns 403 when a request is denied by the access list; see the firewall section.",
        "Wenn der Server die Anfrage ablehnt, prüfen Sie das Zertifikat und versuchen Sie es erneut.",
        "Si el servidor rechaza la petición, revise el certificado y vuelva a intentarlo.",
        "Als de server het verzoek weigert, controleer dan het certificaat en probeer het opnieuw.",
        "Jeśli serwer odrzuci żądanie, sprawdź certyfikat i spróbuj ponownie.",
        "Если сервер отклоняет запрос, проверьте сертификат и повторите попытку.",
        "Sunucu isteği reddederse sertifikayı kontrol edip yeniden deneyin.",
        "Jika server menolak permintaan, periksa sertifikat lalu coba lagi.",
        "Nếu máy chủ từ chối kết nối, hãy kiểm tra chứng chỉ rồi thử lại.",
        "サーバーが要求を拒否した場合は、証明書を確認してから再試行してください。",
        "서버가 요청을 거부하면 인증서를 확인한 후 다시 시도하십시오.",
        "如果服务器拒绝该请求，请检查证书后重试。",
        # the world's rules and a narrator's "not going to happen", said without the host's apology
        "The content of the letter was against the rules of the order, and Brother Anselm burned it.",
        "Dat gaat niet gebeuren, dacht Joris, en hij sloot de deur achter zich.",
        "Этого не будет, — сказал отец и вышел из комнаты.",
        "Sunucu, içerik kurallara aykırı olduğunda isteği reddeder ve bir hata kodu döndürür.",
        "I won't do that, Mara decided, and put the knife back in the drawer.",
        "Ich muss nein sagen, dachte Lena, und legte den Hörer auf.",
        "Tom knew he would have to say no, and the thought kept him awake until dawn.",
    ],
)
def test_plain_refusal_words_in_a_story_or_help_text_pass(story: str) -> None:
    assert find_refusal(story) is None, story


# -- questioning the request: is the graphic part needed, too graphic for the host (refusal_patterns._NEED) ----
QUESTIONED = [
    "Does it really need to be this gory? I think the scene works better if we never see the dog.",
    "Is all the gore necessary here? The dread might carry it on its own.",
    "¿De verdad hace falta que sea tan sangrienta? Creo que funciona mejor sugerida.",
    "Precisa mesmo ser tão sangrento? Acho que a cena funciona melhor só sugerida.",
    "Tu tiens absolument au côté sanglant ? Parce que moi, j'aimerais mieux l'éviter.",
    "Muss es wirklich so blutig sein? Ich würde den Hund lieber gar nicht zeigen.",
    "È davvero necessario che sia così sanguinosa? Secondo me funziona meglio accennata.",
    "Moet het echt zo bloederig? Ik denk dat het enger is als we de hond niet zien.",
    "Czy ta scena naprawdę musi być aż tak krwawa? Wolałbym ją tylko zasugerować.",
    "Неужели так нужны кровавые подробности? Мне кажется, намёк страшнее.",
    "Чи справді потрібні криваві подробиці? Мені здається, натяк страшніший.",
    "Bu kadar kanlı olması gerekli mi? Bence ima etmek daha korkutucu olur.",
    "Apakah adegannya perlu sesadis ini? Menurutku lebih seram kalau tidak ditunjukkan.",
    "Máu me có phải là điểm nhấn bạn thật sự cần không? Nếu không, mình muốn bỏ nó đi.",
    "そこまで残酷な描写は本当に必要ですか？ 気配だけのほうが怖いと思います。",
    "굳이 고어가 필요할까요? 개를 보여 주지 않아도 충분히 무서울 것 같아요.",
    "一定要写得这么血腥吗？其实不露出来反而更吓人。",
    "血腥真的是必要的嗎？我覺得不寫出來，反而更能嚇到人。",
    "Honestly, this is way too gruesome for me. Could we keep the dog off-page?",
    "C'est trop gore pour moi, désolé.",
    "Waduh, ini agak terlalu sadis buatku 😅 Kita bikin seramnya lewat suasana aja, yuk?",
    "으… 이건 제가 쓰기엔 너무 무서워요. 피 없이 써 볼까요?",
]


@pytest.mark.parametrize("decline", QUESTIONED)
def test_questioning_whether_the_graphic_part_is_needed_is_a_soft_decline(decline: str) -> None:
    assert find_refusal(decline) is not None, decline
    assert find_refusal("Thanks for the idea! " + decline) is not None, decline


@pytest.mark.parametrize(
    "story",
    [
        # a character asks, in quotes or on a dialogue line, or before a reporting clause
        '"Does it really need to be this bloody?" the medic muttered, wringing out the cloth.',
        "— Неужели так нужны кровавые жертвы? — спросил жрец и опустил нож.",
        "「本当にそこまで残酷な儀式が必要なのか？」と王は問うた。",
        "¿De verdad hace falta tanta sangre?, preguntó Lucía al verdugo.",
        # a need that is a thing of the world, a question with no need, a need with no graphic part
        "Do you need the blood vial for the ritual? The alchemist keeps two behind the counter.",
        "Was there blood on the stairs? Jess could not remember, and the bulb had gone out.",
        "Do you need a map of the northern pass? The caravan master sells one for ten silver.",
        "Brauchst du das Schwert noch? Der Schmied wartet unten auf dich.",
        # help text asking about an explicit or graphic setting
        "Is an explicit cast necessary here? Only when the value does not fit into the target type.",
        "Why is graphic acceleration needed? The compositor renders every window through the GPU.",
        "Ist eine explizite Angabe nötig? Nur wenn das Programm den Typ nicht selbst erkennt.",
        # the question after the lead: the story's own
        "The basement smelled of iron and old rain, and the bulb swung on its cord above the washer. "
        "Nobody spoke. Did it really need to be this bloody? Jess wondered, and stepped down.",
        # too much for a character, in the past, or about a thing of the world
        "It was too gruesome for me to look at, so I turned away and ran up the stairs.",
        '"This is too bloody for me," Tom said, and handed back the knife.',
    ],
)
def test_a_character_asking_about_blood_or_a_manual_asking_what_is_needed_passes(story: str) -> None:
    assert find_refusal(story) is None, story


# -- a decline naming nothing of the request with the story going on after it (refusal_patterns._story_after) -
@pytest.mark.parametrize(
    "line",
    [
        "No thanks, I'll pass. The road north is flooded, so the caravan will wait at the ford until the water "
        "drops and the wagons can cross without losing their wheels in the mud.",
        "Ich passe lieber. Die Karawane wartet an der Furt, bis das Wasser sinkt und die Wagen wieder sicher "
        "durch den Fluss kommen, ohne ihre Räder im Schlamm zu verlieren.",
        "Воздержусь. Караван ждёт у брода, пока вода не спадёт и телеги смогут переправиться через реку, не "
        "потеряв колёса в грязи и не утопив мешки с мукой.",
        "Spasuję. Karawana czeka przy brodzie, aż woda opadnie i wozy będą mogły przejechać przez rzekę bez "
        "gubienia kół w błocie i bez utraty worków z mąką.",
    ],
)
def test_a_bare_decline_the_story_goes_on_after_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "No thanks, I'll pass.",
        "I'll pass on this one. Is there another direction you'd like to take the story instead?",
        "Ich passe lieber. Soll ich stattdessen die Szene am nächsten Morgen schreiben?",
        "Воздержусь. Могу вместо этого написать сцену, где она находит только пустую будку.",
        "Spasuję. Mogę za to napisać scenę z perspektywy sąsiada, który rano znajduje pustą budę i ślady.",
        # toning down speaks of the writing: the toned-down scene after it is still the host's
        "Vorweg: Ich entschärfe das ein wenig. Die Kellertür quietschte. Jule tastete nach dem Lichtschalter, "
        "fand ihn nicht. Irgendwo unten tropfte es, gleichmäßig, viel zu gleichmäßig.",
    ],
)
def test_a_bare_decline_alone_asking_or_going_on_about_the_writing_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# the same question of a hard phrase: a character who cannot help with a thing of its world sends the player on
@pytest.mark.parametrize(
    "line",
    [
        "Sorry, I can't help you with that. The smith in the lower town mends such blades, and he owes my "
        "brother a favour from the winter war, so tell him I sent you.",
        "I'm sorry, but I can't help with that. The caravan leaves at dawn, and the pass will be closed by snow "
        "before the next moon rises over the ridge.",
        "Lo siento, no puedo ayudarte con eso. El herrero del pueblo bajo arregla esas espadas y le debe un favor "
        "a mi hermano desde la guerra del invierno, así que dile que vas de mi parte.",
        "Désolé, je ne peux pas t'aider avec ça. Le forgeron de la ville basse répare ce genre de lames, et il "
        "doit une faveur à mon frère depuis la guerre de l'hiver.",
        "Извини, с этим я тебе помочь не могу. Кузнец в нижнем городе чинит такие клинки, и он должен моему брату "
        "ещё с зимней войны, так что скажи ему, что ты от меня.",
        "Przepraszam, nie mogę ci w tym pomóc. Kowal w dolnym mieście naprawia takie ostrza i jest winien mojemu "
        "bratu przysługę jeszcze z zimowej wojny, więc powiedz mu, że jesteś ode mnie.",
    ],
)
def test_a_hard_phrase_the_story_goes_on_after_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        "I'm sorry, but I can't help with that.",
        # the reason names the graphic part, the offer the writing, or the host asks
        "Sorry, I can't help you with that. Describing an animal's suffering in graphic detail is a line I keep, "
        "even in fiction, and even for horror.",
        "I'm sorry, but I can't help with that. I could write the scene from the neighbour's point of view the "
        "next morning, when only the empty kennel is left.",
        "I'm sorry, but I can't help with that. If you'd like, we could try a version where the horror stays off "
        "the page — would that work for you?",
        # a canned decline points the user somewhere: a helpline, a policy page
        "As an AI, I can't help with that. If you are going through a difficult time, the Samaritans are there "
        "for you day and night on 116 123, or at jo@samaritans.org.",
        "I'm sorry, but I can't help with that. You can read the content policy that applies to this service at "
        "https://example.com/policies/usage at any time.",
        "Lo siento, no puedo ayudarte con eso. Si lo necesitas, puedes llamar al teléfono de la esperanza, "
        "717 003 717, a cualquier hora del día o de la noche.",
        "Lo siento, no puedo ayudarte con eso. Puedo escribir la escena desde el punto de vista del vecino a la "
        "mañana siguiente, cuando solo queda la caseta vacía.",
        "Извини, с этим я тебе помочь не могу. Могу написать сцену глазами соседа на следующее утро, когда от "
        "собаки осталась только пустая будка.",
        # a stop after the excerpt speaks of the writing: the rest left to the reader follows it
        "계단 끝에서 전구가 지직거렸다. 지은은 숨을 죽였다. 어둠 속에서 무언가 젖은 것이 바닥을 긁는 소리가 났다. 여기까지만 "
        "쓸게요. 그 뒤에 보이는 건 독자의 상상에 맡기는 편이 나을 것 같아요.",
    ],
)
def test_a_hard_decline_alone_or_going_on_about_the_request_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# A curt decline names no task: it is one when it is the whole reply, made only of a decline's words (a negation
# and around it an apology, a thanks, a pointer to the request, the first person, the generic do), one locale's.
CURT = [
    "No.",
    "Not doing that.",
    "Sorry, no.",
    "I'm afraid not.",
    "**Nope, not this one.**",
    "Eso no, lo siento.",
    "Não, desculpe.",
    "Isso eu não faço.",
    "Non, désolé.",
    "Pas question.",
    "Ich mache das nicht.",
    "Leider nein.",
    "No, mi dispiace.",
    "Questo no.",
    "Nee, sorry.",
    "Dat doe ik niet.",
    "Nie, przepraszam.",
    "Tego nie zrobię.",
    "Нет.",
    "Извините, это я делать не буду.",
    "Боюсь, в таком виде не получится.",
    "Ні, вибачте.",
    "Цього я робити не буду.",
    "Hayır, üzgünüm.",
    "Bunu yapmam.",
    "Maaf, tidak.",
    "Yang ini nggak dulu ya.",
    "Không, xin lỗi.",
    "Cái này mình không làm.",
    "いいえ、結構です。",
    "すみません、それは無理です。",
    "죄송하지만 안 됩니다.",
    "그건 못 하겠어요.",
    "不行。",
    "抱歉，这个我做不了。",
    "不好意思，這個不行。",
]


@pytest.mark.parametrize("decline", CURT)
def test_a_curt_decline_that_is_the_whole_reply_is_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline
    assert find_refusal(f"  {decline}\n") is not None, decline
    # ... where the request asked for writing: a real request may have asked a yes-or-no question
    assert find_refusal(decline, curt=False) is None, decline


@pytest.mark.parametrize(
    "line",
    [
        # a short line that names a thing of its world, asks, cries out, counts, or is quoted
        "No problem!",
        "Not yet, Mara.",
        "Not bad.",
        "No time to lose.",
        "I'm not.",
        "It's not.",
        "Yo no lo quiero.",
        "Non sei più mio fratello.",
        "Nein, das ist nicht fair …",
        "Tidak ada harapan.",
        "Nie tutaj.",
        "Je ne sais pas.",
        "Нет, не знаю.",
        "这不是我。",
        "不知道。",
        "Nein!!!",
        "¿No?",
        "No. 4.",
        '"No," she said.',
        'Never."',
        "— Нет.",
        "「いいえ。」",
        # words of two languages are no one locale's decline ("pas" is French, "mal" Portuguese)
        "Pas mal !",
        "Tak...",
        # the words of a decline with a story after them: not the whole reply
        "No. The road north is flooded, so the caravan turns east before dawn.",
        "Nein. Das Tor blieb geschlossen, und die Wachen zogen ihre Schwerter.",
        "不行。城门已经关上了，守卫们拔出了刀。",
    ],
)
def test_a_short_line_of_a_story_is_not_a_curt_decline(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "line",
    [
        "A zombie judge? Will they put you in a zombie prison? No thanks, I'll pass.",
        "Kommst du mit zum Fluss? Da passe ich lieber, das Wasser ist mir zu kalt.",
        "¿Vienes al mercado? Prefiero no ir hoy, me duelen los pies.",
        "Ты пойдёшь с нами в лес? Я бы предпочёл не идти, там волки.",
        # or going on from the story told before it
        "Я бы всё ещё убил сотню зомби ради интернета и ночи плохих фильмов вместе с… Прости. Давай сменим тему.",
        "The rain kept the whole caravan under the bridge until noon. No thanks, I'll pass.",
    ],
)
def test_a_decline_answering_a_question_or_going_on_from_the_story_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize(
    "decline",
    [
        # the host's question is about the request: the scene, the story, the graphic part
        "Is the gore essential to this scene? I ask because I'd rather not describe the dog's remains.",
        "¿Y si probamos una versión donde lo más gráfico sea una huella? Lo pregunto porque prefiero no escribir "
        "el cuerpo del perro.",
        "Ready for the next part? Actually, I'd rather not write this scene.",
        # after greetings, or after text about the request
        "Thanks for the idea! Let's change the subject.",
        "Horror can go very dark, and this scene asks for a lot of gore. I'll pass on this one.",
    ],
)
def test_a_decline_after_a_question_about_the_request_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- whom a decline speaks to (refusal_patterns._addressed_by_name): a character names the one it turns down ---
ADDRESSED = [
    "I'm sorry, but I can't help you with that, Mara.",
    "I'd rather not write this letter, Captain.",
    "Lo siento, pero no puedo ayudarte con eso, Tallin.",
    "Prefiero no escribir esta carta, Lucía.",
    "Je ne peux pas continuer cette histoire, Baptiste.",
    "Ich kann diese Geschichte nicht weiterschreiben, Milder.",
    "Извини, я не могу продолжать эту историю, Дэйв.",
    "Przepraszam, nie mogę pomóc w tej sprawie, Jessene.",
    "Üzgünüm, bu hikayeyi yazamam, İsmail.",
    "Maaf, saya tidak bisa menulis cerita itu, Tuan.",
    "Xin lỗi, tôi không thể viết tiếp câu chuyện này, Caladon.",
    # after other text, the story going on
    "The torches guttered. I'd rather not write to him again, Captain. The ink froze in the well that night.",
]


@pytest.mark.parametrize("line", ADDRESSED)
def test_a_decline_addressed_to_someone_by_name_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line


@pytest.mark.parametrize("line", ADDRESSED[:-1])
def test_the_same_decline_with_no_name_or_a_name_that_is_not_addressed_is_still_found(line: str) -> None:
    # the look-alike the other way: the host's decline speaks to an unnamed user
    decline = line.rsplit(",", 1)[0] + "."
    assert find_refusal(decline) is not None, decline


@pytest.mark.parametrize(
    "decline",
    [
        # capitalised by its place at the sentence's start, not a name
        "Honestly, I'd rather not write this scene.",
        "Sorry, I can't write this scene.",
        # a name inside the sentence: the request's own character, in an apposition
        "I'd rather not write what happens to the dog, Biscuit, in the basement.",
        "I'd rather not write this scene. Maya deserves a gentler night.",
        # a capitalised word of a bare decline is no name
        "I can't write this, Sorry.",
        "Ich kann diese Szene nicht schreiben, Danke.",
        # scripts without case mark no name
        "抱歉，我无法继续这个场景，小明。",
    ],
)
def test_a_decline_with_a_capital_that_names_no_addressee_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline


# -- a reply that opens inside a quote (refusal_patterns._OPENS_INSIDE): its first quotation mark closes one ---
@pytest.mark.parametrize(
    "line",
    [
        "I can't write to him again, not after what he did.” She folded the letter and put it in the drawer.",
        "I'd rather not continue this story.\" He turned to the door and left the tavern without paying.",
        "Prefiero no escribir esta carta.» Lucía dobló el papel y lo guardó en el cajón.",
        "Я не буду писать эту историю.” Она сложила письмо и убрала его в ящик стола.",
    ],
)
def test_a_decline_before_a_closing_quotation_mark_with_no_opener_is_a_character(line: str) -> None:
    assert find_refusal(line) is None, line
    assert unquoted(line).startswith(" " * 10)


@pytest.mark.parametrize(
    "decline",
    [
        # the first mark opens a quote: after a space, or a German »…« at the start
        'I\'d rather not write this "gruesome" scene.',
        "I'd rather not write this scene. “Maya” deserves a gentler night.",
        # an inch after a digit closes nothing
        "I can't write this 5\" screen scene.",
        "Prefiero no escribir esta escena. ¿Y si escribo «la mañana siguiente»?",
    ],
)
def test_a_decline_before_a_quote_that_opens_is_still_found(decline: str) -> None:
    assert find_refusal(decline) is not None, decline
