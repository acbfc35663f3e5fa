# ruff: noqa: E501  (test data lines)
"""Refusal phrases per locale: hard and soft refusals are found, in-story lines in the same language are not."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exporter.contracts.refusal_patterns import HARD, LEAD_CHARS, SOFT, find_refusal
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


@pytest.mark.parametrize(("locale", "kind", "text"), FORMS)
def test_a_character_saying_a_decline_in_quotes_or_on_a_dialogue_line_is_the_story(
    locale: str, kind: str, text: str
) -> None:
    quoted = QUOTE.get(locale, "“{}” {}.").format(text, SAID[locale])
    assert find_refusal(quoted) is None, quoted
    if locale not in ("ja", "ko", "zh-Hans", "zh-Hant"):
        assert find_refusal(f"— {text} — {SAID[locale]}.\nThe door closed.") is None
        assert find_refusal(f"The captain turned away.\n— {text}") is None


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
