"""The rules that turn per-sentence calls into mixing, and the lexicon signals behind the calls: one sure
foreign sentence said outright, an undecided sentence seconding a foreign one, CLD3 + fastText + lexicon
for close languages, words only Malay writes, own function words yielding to a near-certain fastText."""

from __future__ import annotations

import pytest

from exporter.language.detect import (
    LEXICON_CLD3,
    LEXICON_UNKNOWN,
    LEXICON_UNKNOWN_NOT_OURS,
    OWN_WORDS_CLOSE_UNKNOWN,
    WHOLE_MIN_SENTENCES,
    WHOLE_UNKNOWN,
    Call,
    Ensemble,
    Guess,
    _lexicon_leans,
    _lexicon_undecided,
    _other_by_lexicon,
    _own_marks,
    _said_our_way,
    in_doubt,
    unknown_share,
    unknown_words,
)
from exporter.language.judge import MIXING_MIN_SURE, SECOND_LEANING, SURE_MIN_WORDS, Judge, judge
from exporter.language.lexicon import distinctive, lexicon
from exporter.language.locales import LOCALES, LocaleSpec
from exporter.language.scripts import Script
from exporter.language.segment import split_sentences, unquote, word_count
from exporter.outcomes import Outcome, Reason

NATIVE = [
    "The keeper climbed the stairs of the old tower before dawn.",
    "He lit the lamp and looked out over the grey harbour.",
    "Ships were coming home slowly through the heavy rain.",
    "Nobody in the village had slept well that night.",
    "The storm had torn the nets and broken two masts.",
    "Still, the bells rang for the morning market as always.",
]
FOREIGN_FIVE = "Nosotros vamos a la ciudad mañana temprano."  # six words
FOREIGN_FOUR = "Vamos pronto al mercado."
UNDECIDED = "Quizá luego vengan otros barcos."


class StubEnsemble:
    """Per-sentence calls fixed by the test (default native, weight 50): the aggregation alone is tested."""

    def __init__(self, calls: dict[str, Call]) -> None:
        self.calls = calls

    def call(
        self, text: str, spec: LocaleSpec, counts: dict[Script, int] | None = None, w: float | None = None
    ) -> Call:
        return self.calls.get(text, Call("native", spec.language, 50.0, "models"))

    def whole_reply(self, text: str, spec: LocaleSpec, calls: object) -> None:
        return None

    def pooled(self, text: str, spec: LocaleSpec) -> None:
        return None


def _judge(calls: dict[str, Call], sentences: list[str]) -> tuple[Outcome, Reason]:
    verdict = Judge(ensemble=StubEnsemble(calls)).judge(" ".join(sentences), "en")  # type: ignore[arg-type]
    return verdict.outcome, verdict.reason


def _foreign(basis: str = "models", sure: bool = True, language: str = "es") -> Call:
    return Call("foreign", language, 50.0, basis, Guess((("es", 0.8),), ("es", 0.9)), sure=sure)


def test_one_sure_foreign_sentence_said_outright_is_mixing_in_a_long_reply() -> None:
    assert word_count(FOREIGN_FIVE) >= SURE_MIN_WORDS
    reply = [*NATIVE[:3], FOREIGN_FIVE, *NATIVE[3:]]
    assert _judge({FOREIGN_FIVE: _foreign()}, reply) == (Outcome.FAIL, Reason.MIXING)
    # fewer words: a stray phrase in a reply of seven judged sentences, not mixing on its own
    reply = [*NATIVE[:3], FOREIGN_FOUR, *NATIVE[3:]]
    assert _judge({FOREIGN_FOUR: _foreign()}, reply) == (Outcome.PASS, Reason.NONE)
    # not sure (one model's doubt): never mixing on its own
    reply = [*NATIVE[:3], FOREIGN_FIVE, *NATIVE[3:]]
    assert _judge({FOREIGN_FIVE: _foreign(sure=False)}, reply) == (Outcome.PASS, Reason.NONE)


def test_the_evidence_names_the_requirement_a_mixing_or_switch_call_met() -> None:
    def rule(calls: dict[str, Call], sentences: list[str]) -> object:
        verdict = Judge(ensemble=StubEnsemble(calls)).judge(" ".join(sentences), "en")  # type: ignore[arg-type]
        return verdict.evidence.get("rule")

    reply = [*NATIVE[:3], FOREIGN_FIVE, *NATIVE[3:]]
    assert rule({FOREIGN_FIVE: _foreign()}, reply) == "sure"
    strong = _foreign()._replace(strong=True, weight=200.0)
    assert rule({FOREIGN_FIVE: strong}, reply) == "strong"
    two = {FOREIGN_FIVE: _foreign(sure=False), FOREIGN_FOUR: _foreign()}
    assert rule(two, [*NATIVE[:3], FOREIGN_FIVE, FOREIGN_FOUR, *NATIVE[3:]]) == "sentences"
    undecided = Call("unknown", None, 50.0, "models", Guess((("es", SECOND_LEANING),), ("es", 0.4)))
    seconded = [*NATIVE[:3], FOREIGN_FOUR, UNDECIDED, *NATIVE[3:]]
    assert rule({FOREIGN_FOUR: _foreign(), UNDECIDED: undecided}, seconded) == "seconded"
    everything = {s: _foreign(sure=False) for s in NATIVE}
    assert rule(everything, NATIVE) == "share"
    assert rule({}, NATIVE) is None  # a pass names none


def test_two_foreign_sentences_are_mixing_only_when_one_of_them_is_sure() -> None:
    assert MIXING_MIN_SURE == 1
    reply = [*NATIVE[:3], FOREIGN_FIVE, FOREIGN_FOUR, *NATIVE[3:]]
    # each call resting on one model's doubt: two doubts, not a second language
    weak = {FOREIGN_FIVE: _foreign(sure=False), FOREIGN_FOUR: _foreign(sure=False)}
    assert _judge(weak, reply) == (Outcome.PASS, Reason.NONE)
    three = [*NATIVE[:2], FOREIGN_FIVE, NATIVE[2], FOREIGN_FOUR, UNDECIDED, *NATIVE[3:]]
    weaker = {**weak, UNDECIDED: _foreign(sure=False)}
    assert _judge(weaker, three) == (Outcome.PASS, Reason.NONE)
    # one of them sure, the other weak: neither alone is mixing in a long reply (four words; not sure),
    # together they are
    for sure in (FOREIGN_FIVE, FOREIGN_FOUR):
        assert _judge({**weak, sure: _foreign()}, reply) == (Outcome.FAIL, Reason.MIXING)
    assert _judge({FOREIGN_FOUR: _foreign()}, [*NATIVE[:3], FOREIGN_FOUR, *NATIVE[3:]]) == (
        Outcome.PASS,
        Reason.NONE,
    )
    # weak calls making most of the reply are still a switch
    assert _judge({s: _foreign(sure=False) for s in NATIVE}, NATIVE) == (Outcome.FAIL, Reason.SWITCH)


def test_quoted_words_do_not_count_towards_a_said_sentence() -> None:
    quoted = 'See "Nosotros vamos a la ciudad" in the guide.'  # four words outside the quotes
    reply = [*NATIVE[:3], quoted, *NATIVE[3:]]
    assert _judge({quoted: _foreign()}, reply) == (Outcome.PASS, Reason.NONE)


def test_malay_by_lexicon_lean_needs_a_short_reply_but_words_only_malay_writes_do_not() -> None:
    sentence = "Kami telah membawa pedang berapi itu pulang ke istana."
    reply = [*NATIVE[:3], sentence, *NATIVE[3:]]
    lean = _foreign("lexicon", language="ms")
    assert _judge({sentence: lean}, reply) == (Outcome.PASS, Reason.NONE)
    assert _judge({sentence: lean}, [NATIVE[0], sentence, NATIVE[1]]) == (Outcome.FAIL, Reason.MIXING)
    words = _foreign("distinctive", language="ms")
    assert _judge({sentence: words}, reply) == (Outcome.FAIL, Reason.MIXING)


@pytest.mark.parametrize(("leaning", "outcome"), [(SECOND_LEANING, Outcome.FAIL), (0.4, Outcome.PASS)])
def test_an_undecided_sentence_seconds_a_sure_foreign_one_only_when_fasttext_leans_the_same_way(
    leaning: float, outcome: Outcome
) -> None:
    undecided = Call("unknown", None, 50.0, "models", Guess((("es", leaning), ("en", 0.1)), ("es", 0.4)))
    reply = [*NATIVE[:3], FOREIGN_FOUR, UNDECIDED, *NATIVE[3:]]
    got, _ = _judge({FOREIGN_FOUR: _foreign(), UNDECIDED: undecided}, reply)
    assert got is outcome


def test_undecided_sentences_alone_never_fail_a_reply() -> None:
    leaning = Call("unknown", None, 50.0, "models", Guess((("es", 0.9),), ("es", 0.9)))
    reply = [*NATIVE[:3], FOREIGN_FOUR, UNDECIDED, FOREIGN_FIVE, *NATIVE[3:]]
    calls = {FOREIGN_FOUR: leaning, UNDECIDED: leaning, FOREIGN_FIVE: leaning}
    assert _judge(calls, reply) == (Outcome.PASS, Reason.NONE)


GALICIAN = "Onte fomos á praia cos nosos veciños e xantamos peixe na taberna do porto."
SPANISH = "Ayer fuimos a la playa con nuestros vecinos y comimos pescado en la taberna del puerto."
SPREAD = (("pt", 0.33), ("gl", 0.25), ("es", 0.04))  # fastText spreading Galician over its neighbours


def test_cld3_fasttext_and_the_lexicon_together_call_a_close_language_foreign() -> None:
    assert _other_by_lexicon(GALICIAN, "es", SPREAD, ("gl", 0.98))
    assert not _other_by_lexicon(SPANISH, "es", SPREAD, ("gl", 0.98))  # the lexicon knows the words
    assert not _other_by_lexicon(GALICIAN, "es", SPREAD, ("gl", LEXICON_CLD3 - 0.1))  # CLD3 unsure
    assert not _other_by_lexicon(GALICIAN, "es", (("es", 0.9),), ("gl", 0.98))  # fastText says ours
    assert not _other_by_lexicon(GALICIAN, "es", SPREAD, ("und", 0.99))
    call = Ensemble().call(GALICIAN, LOCALES["es"])
    assert call.status == "foreign" and call.language == "gl", call


# Galician whose words Spanish mostly writes too: the lexicon does not know a fifth to a third of them.
GALICIAN_CLOSE = "O mar non está tan lonxe da nosa casa."


def test_a_lower_lexicon_bar_when_both_models_rule_the_expected_language_out() -> None:
    assert LEXICON_UNKNOWN_NOT_OURS <= unknown_share(GALICIAN_CLOSE, "es") < LEXICON_UNKNOWN
    not_ours = (("pt", 0.8), ("gl", 0.12), ("es", 0.05))  # fastText: Portuguese or Galician, not Spanish
    assert _other_by_lexicon(GALICIAN_CLOSE, "es", not_ours, ("gl", 0.99))
    # fastText leaving Spanish more than FOREIGN_MAX_NATIVE, or CLD3 short of near certain: the usual bar
    assert not _other_by_lexicon(GALICIAN_CLOSE, "es", (("pt", 0.6), ("es", 0.2), ("gl", 0.12)), ("gl", 0.99))
    assert not _other_by_lexicon(GALICIAN_CLOSE, "es", not_ours, ("gl", 0.9))
    assert not _other_by_lexicon(SPANISH, "es", not_ours, ("gl", 0.99))  # the lexicon knows every word
    # a quarter of four words is one word: a name or a typo, not a language
    assert unknown_words("La casa llegó hoxe.", "es") == (1, 4)
    assert not _other_by_lexicon("La casa llegó hoxe.", "es", not_ours, ("gl", 0.99))
    # English is no close neighbour of Spanish: the usual bar
    assert not _other_by_lexicon(GALICIAN_CLOSE, "es", (("en", 0.8), ("es", 0.05)), ("en", 0.99))


PORTUGUESE = (
    "A ponte tinha sumido, queimada pelos bandidos antes do amanhecer. Ficamos na margem olhando a fumaça "
    "sobre o rio. {line} Ninguém tinha uma resposta, e o capitão só balançou a cabeça. Voltamos para a "
    "aldeia em silêncio, cada um pensando no que viria depois."
)
# Galician both models place outside Portuguese (fastText: Galician 0.63, Portuguese under 0.15; CLD3:
# Galician 0.99), with too few words unknown to the Portuguese lexicon for the lexicon's bar
GALICIAN_SAID = "Ensínalles o que pasa cando un se mete cos lobos."


def test_one_galician_sentence_both_models_place_outside_portuguese_is_sure_and_mixing() -> None:
    call = Ensemble().call(GALICIAN_SAID, LOCALES["pt-BR"])
    assert (call.status, call.language, call.sure) == ("foreign", "gl", True), call
    assert call.guess is not None and call.guess.fasttext[0][1] < 0.7  # not sure by fastText alone
    assert unknown_share(GALICIAN_SAID, "pt") < LEXICON_UNKNOWN  # nor by the lexicon
    verdict = judge(PORTUGUESE.format(line=GALICIAN_SAID), "pt-BR")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()
    # the same reply with the line in Portuguese passes
    assert (
        judge(
            PORTUGUESE.format(line="Mostre a eles o que acontece com quem se mete com lobos."), "pt-BR"
        ).outcome
        is Outcome.PASS
    )


class _Models(Ensemble):
    """The ensemble with fixed answers from both models: what the lexicon adds, apart from them."""

    def __init__(self, ft: tuple[tuple[str, float], ...], cld3: tuple[str, float]) -> None:
        super().__init__()
        self.ft, self.fixed_cld3 = ft, cld3

    def fasttext(self, text: str, k: int = 3) -> tuple[tuple[str, float], ...]:
        return self.ft

    def cld3(self, text: str) -> tuple[str, float]:
        return self.fixed_cld3


def test_a_close_neighbour_both_models_name_is_sure_only_with_two_words_our_lexicon_lacks() -> None:
    # A Spanish surname opening Portuguese text turns both models to Spanish; every word is Portuguese,
    # and the lexicons lean to Portuguese (``_lexicon_leans``): not even unsure foreign.
    models = _Models((("es", 0.61), ("gl", 0.08), ("en", 0.07)), ("es", 0.99))
    surname = models.call("García pedaços de fruta seca e salgada.", LOCALES["pt-BR"])
    assert (surname.status, surname.basis) == ("native", "lexicon"), surname
    said = models.call("Dille ao rei que os barcos xa están no porto.", LOCALES["pt-BR"])
    assert (said.status, said.sure) == ("foreign", True), said


# Galician holding two Portuguese function words (`agora`, `para`), a sixth of its words unknown to the
# Portuguese lexicon: function words settle a sentence of a language with close neighbours only when the
# lexicon knows more than that (fastText: Galician 0.73)
GALICIAN_WITH_OUR_WORDS = "Agora debemos enviar ás nosas tropas para defender a fronteira do reino."


def test_function_words_yield_to_fasttext_sooner_in_a_language_with_close_neighbours() -> None:
    assert _own_marks(GALICIAN_WITH_OUR_WORDS, "pt") == "words"
    assert OWN_WORDS_CLOSE_UNKNOWN <= unknown_share(GALICIAN_WITH_OUR_WORDS, "pt") < LEXICON_UNKNOWN
    call = Ensemble().call(GALICIAN_WITH_OUR_WORDS, LOCALES["pt-BR"])
    assert call.status != "native" and call.guess is not None, call  # fastText was asked, and doubts it
    # Portuguese with the same function words stays native on them, without the models
    call = Ensemble().call(
        "Agora devemos enviar as nossas tropas para defender a fronteira do reino.", LOCALES["pt-BR"]
    )
    assert (call.status, call.basis) == ("native", "words"), call


def test_unknown_share_counts_lowercase_words_the_lexicon_lacks_not_names_or_quotes() -> None:
    assert unknown_share("Konrad and Delfador walked home through Wesmere.", "en") == 0.0
    assert unknown_share('Zie "Implementation provided keywords" in de gids van vandaag.', "nl") == 0.0
    assert unknown_share(GALICIAN, "es") >= 0.3 > unknown_share(SPANISH, "es")
    assert unknown_share("Too few words.", "en") == 0.0


def test_words_only_one_of_malay_and_indonesian_writes() -> None:
    ms, id_ = lexicon("ms"), lexicon("id")
    assert distinctive(["tekan", "butang", "pada", "skrin"], ms, id_) == 2
    assert distinctive(["tekan", "tombol", "pada", "layar"], ms, id_) == 0
    call = Ensemble().call(
        "Tekan butang ini untuk memadam imej daripada skrin sebelum keluar.", LOCALES["id"]
    )
    assert (call.status, call.language, call.basis, call.sure) == ("foreign", "ms", "distinctive", True)
    native = Ensemble().call(
        "Tekan tombol ini untuk menghapus gambar dari layar sebelum keluar.", LOCALES["id"]
    )
    assert native.status == "native", native


def test_words_the_other_list_holds_only_as_rare_borrowings_are_distinctive() -> None:
    ms, id_ = lexicon("ms"), lexicon("id")
    # Indonesian's list holds sahaja and bahawa, a hundred times rarer than Malay's: Malay words
    assert distinctive(["dia", "sahaja", "tahu", "bahawa"], ms, id_) == 2
    # awak ("you" in Malay) is an Indonesian word too (awak kapal, a ship's crew), frequent in its list
    assert distinctive(["awak", "kapal"], ms, id_) == 0
    call = Ensemble().call("Dia sahaja yang tahu bahawa pintu itu sudah lama terkunci.", LOCALES["id"])
    assert (call.status, call.language, call.basis) == ("foreign", "ms", "distinctive"), call
    crew = Ensemble().call("Awak kapal itu bekerja keras sepanjang malam di tengah badai.", LOCALES["id"])
    assert crew.status == "native", crew


def test_own_function_words_yield_to_a_near_certain_fasttext() -> None:
    # "de", "la" and "au" are French function words too; fastText is near certain of Catalan.
    sentence = "Au, obriu la porta de la cel·la i marxem d'aquest indret tan fosc, germà meu!"
    call = Ensemble().call(sentence, LOCALES["fr"])
    assert call.status == "foreign" and call.language == "ca", call


def test_own_function_words_yield_to_fasttext_and_the_lexicons_doubt_then_cld3_decides() -> None:
    # "el" and "del" are Spanish function words and Catalan ones: with fastText at 0.87 for Catalan and
    # a third of the words unknown to the Spanish lexicon, the models decide (CLD3: Catalan too).
    sentence = "El mercat del Port augmenta l'efecte d'una Biblioteca, reduint el nombre de ciutadans."
    assert unknown_share(sentence, "es") >= LEXICON_UNKNOWN
    call = Ensemble().call(sentence, LOCALES["es"])
    assert (call.status, call.language, call.basis) == ("foreign", "ca", "models"), call
    # Spanish has close neighbours (detect.CLOSE): less of the lexicon's doubt, a sixth of the words, lets
    # the models decide too (most words Spanish writes too; fastText: Catalan 0.77, CLD3: Catalan).
    shared = "El temple del Sol redueix el cost d'una Muralla a la meitat."
    assert OWN_WORDS_CLOSE_UNKNOWN <= unknown_share(shared, "es") < LEXICON_UNKNOWN
    call = Ensemble().call(shared, LOCALES["es"])
    assert (call.status, call.language) == ("foreign", "ca"), call
    # Without that doubt the function words settle a sentence, without the models.
    spanish = Ensemble().call("El templo del Sol reduce el coste de una muralla a la mitad.", LOCALES["es"])
    assert (spanish.status, spanish.basis) == ("native", "words"), spanish


def test_unquote_and_word_count() -> None:
    assert unquote("Elle dit *谢谢* et « merci » puis partit.").split() == [
        "Elle",
        "dit",
        "et",
        "puis",
        "partit.",
    ]
    assert word_count("© Free Software Foundation, Inc. 2024 --") == 4


def test_function_words_the_expected_language_also_writes_do_not_make_a_sentence_foreign() -> None:
    # Spanish "un par de" ("a pair of") is three French function words too; fastText leans French on
    # the short item text, but no word is one only French writes.
    spanish = (
        "Es un cachorrito de Chihuahua, adorable e indefenso. Mucho más fácil de domesticar que uno adulto. "
        "Es un par de mangas hechas de metal. Perfectas para proteger los brazos en combate."
    )
    assert judge(spanish, "es").outcome is Outcome.PASS
    portuguese = (
        "Um par de braçadeiras marteladas de metal. Perfeita para o visual de guerreiro. "
        "Maior do que a média, e bem mais pesada do que parece."
    )
    assert judge(portuguese, "pt-BR").outcome is Outcome.PASS
    french = (
        "Caminamos toda la noche hasta llegar al puerto. Il est parti avec son frère avant la tempête. "
        "Nadie supo adónde fueron."
    )
    assert judge(french, "es").reason is Reason.MIXING


# Serbian written in Latin letters, as much Serbian fiction is: the models spread it over Croatian, Serbian
# and Bosnian, and only as one language (Serbo-Croatian, ``hbs``) is it a foreign language at all.
SERBIAN_LATIN = [
    "Stari čuvar je polako zatvorio vrata kule i sišao niz kamene stepenice do luke.",
    "Niko u selu nije znao gde su ribari otišli te noći, ali su svi čekali na obali.",
]


def test_the_labels_of_one_macrolanguage_add_up() -> None:
    ensemble = Ensemble()
    for sentence in SERBIAN_LATIN:
        top, p_top = ensemble.fasttext(sentence)[0]
        assert top == "hbs" and p_top >= 0.5, ensemble.fasttext(sentence)
        assert ensemble.cld3(sentence)[0] == "hbs"


@pytest.mark.parametrize("locale", ["es", "pl", "ru"])
def test_a_reply_in_serbian_latin_is_a_switch(locale: str) -> None:
    verdict = judge(" ".join(SERBIAN_LATIN), locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SWITCH), verdict.as_dict()


def test_serbian_latin_sentences_in_a_spanish_reply_are_mixing() -> None:
    spanish = [
        "El viejo guardián subió la escalera de la torre antes del amanecer y encendió la lámpara.",
        "Los barcos volvían despacio al puerto bajo una lluvia pesada y fría.",
        "Nadie en el pueblo había dormido bien aquella noche de tormenta.",
    ]
    verdict = judge(" ".join([spanish[0], SERBIAN_LATIN[0], spanish[1], SERBIAN_LATIN[1], spanish[2]]), "es")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.as_dict()


def test_a_sentence_of_words_a_close_neighbour_writes_alike_is_no_sure_foreign_call() -> None:
    # Both models read the opening line as Russian; every word of it is Ukrainian too, and the two lexicons
    # do not lean Russian's way, so alone it is not mixing. A line of Russian's own words still is.
    assert _lexicon_undecided("Пароль номер 3: Не геройствуйте!", "uk", "ru")
    assert not _lexicon_undecided("План простой: идите направо!", "uk", "ru")
    assert not _lexicon_undecided("Пароль номер 3: Не геройствуйте!", "uk", "xx")  # no lexicon, no verdict
    story = (
        " Вона відчинила важкі двері й тихо вийшла на подвір'я, де на неї вже чекали коні."
        " Ніхто з охоронців не помітив, як вона зникла за пагорбом."
    )
    assert judge("Пароль номер 3: Не геройствуйте!" + story, "uk").outcome == Outcome.PASS
    verdict = judge("План простой: идите направо!" + story, "uk")
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # both models say Spanish (fastText 0.76, CLD3 Galician 0.98); *unidade* only Portuguese writes
        ("Esta unidade curará 12 de HP a cada turno.", "pt-BR"),
        # both models say Italian; every word Spanish's, none only Italian writes (lean +0.4 per word)
        ("Super-Taco frito, abriremos pronto.", "es"),
    ],
)
def test_a_sentence_whose_words_lean_to_the_expected_language_is_kept_whoever_the_models_name(
    text: str, locale: str
) -> None:
    spec = LOCALES[locale]
    call = Ensemble().call(text, spec)
    assert (call.status, call.basis) == ("native", "lexicon"), call
    assert call.guess is not None and call.guess.fasttext[0][0] != spec.language  # the models said otherwise
    assert _lexicon_leans(text, spec.language, call.guess.fasttext[0][0])
    assert judge(" ".join([text, *SHORT_NATIVE[locale]]), locale).outcome is Outcome.PASS


SHORT_NATIVE = {
    "pt-BR": ["A tropa avançou devagar pela estrada molhada.", "Ninguém falou nada até o anoitecer."],
    "es": ["La tienda nueva está en la esquina de la plaza.", "Mañana habrá ofertas para todos los vecinos."],
}


@pytest.mark.parametrize(
    ("text", "locale", "other"),
    [
        ("¿Dónde está la biblioteca de la ciudad?", "pt", "es"),  # words only Spanish writes: dónde
        ("El niño se comió la manzana entera.", "pt", "es"),
        ("Il ragazzo ha mangiato la mela.", "es", "it"),
        ("Er hat das Buch gestern gelesen.", "nl", "de"),
        ("O menino comeu a maçã toda.", "es", "pt"),
    ],
)
def test_a_sentence_in_the_other_language_does_not_lean_to_the_expected_one(
    text: str, locale: str, other: str
) -> None:
    assert not _lexicon_leans(text, locale, other)


def test_the_whole_reply_neighbour_rule_needs_two_judged_sentences() -> None:
    # CLD3 certain of Afrikaans, fastText leaning Dutch (as on Dutch with `die`, `me`, `maar`): one
    # sentence is settled by its own call; a reply of two is read as a whole
    models = _Models((("nl", 0.39), ("af", 0.24), ("de", 0.1)), ("af", 0.999))
    spec = LOCALES["nl"]
    one = "Ik hoop maar dat die verdraaide ouwe tovenaar me die toverformule leert."
    two = f"{one} Die ouwe smid verkoopt me straks die verdraaide bijl."
    assert unknown_share(one, "nl") >= WHOLE_UNKNOWN  # the lexicon's doubt is there either way
    calls = [models.call(s.text, spec) for s in split_sentences(one)]
    assert [c.status for c in calls] == ["native"] and in_doubt(calls[0], "nl")
    assert models.whole_reply(one, spec, calls) is None
    calls = [models.call(s.text, spec) for s in split_sentences(two)]
    assert len(calls) == WHOLE_MIN_SENTENCES
    found = models.whole_reply(two, spec, calls)
    assert found is not None and found[0] == "af"


@pytest.mark.parametrize(
    ("text", "locale"),
    [
        # fastText names English on the expansion of an acronym; the one word said in lowercase is ours
        ("RSS significa Really Simple Syndication.", "pt-BR"),
        ("CSS significa Cascading Style Sheets.", "es"),
    ],
)
def test_a_sentence_whose_lowercase_words_are_ours_is_ours_whatever_its_names_are(
    text: str, locale: str
) -> None:
    spec = LOCALES[locale]
    call = Ensemble().call(text, spec)
    assert (call.status, call.basis) == ("native", "lexicon"), call
    assert call.guess is not None and call.guess.fasttext[0][0] == "en"  # the models said English
    assert _said_our_way(text, spec.language, "en")
    reply = " ".join([*SHORT_NATIVE[locale], text])
    assert judge(reply, locale).outcome is Outcome.PASS
    # The same names in a sentence said in English are English: its lowercase words are.
    said = "The Really Simple Syndication format was written at Netscape in 1999."
    assert not _said_our_way(said, spec.language, "en")
    assert Ensemble().call(said, spec).status == "foreign"
    verdict = judge(" ".join([*SHORT_NATIVE[locale], said]), locale)
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.MIXING), verdict.detail


@pytest.mark.parametrize(
    ("text", "locale", "other"),
    [
        ("Il file system funziona su molte macchine della rete.", "es", "it"),
        ("Lisez The Catcher in the Rye.", "fr", "en"),  # a title's own lowercase words are the other's
        ("Nobody in the village had slept well that night.", "de", "en"),
    ],
)
def test_a_sentence_said_in_another_language_is_not_ours_by_its_lowercase_words(
    text: str, locale: str, other: str
) -> None:
    assert not _said_our_way(text, LOCALES[locale].language, other)


def test_the_lowercase_words_do_not_decide_between_close_neighbours_or_without_a_lexicon() -> None:
    # Close neighbours share their words and names: the neighbour rule (_lexicon_leans) decides there.
    assert _said_our_way("Você não sabe nada disso, meu amigo.", "pt", "en")
    assert not _said_our_way("Você não sabe nada disso, meu amigo.", "pt", "es")
    assert not _said_our_way("Você não sabe nada disso, meu amigo.", "pt", "gl")  # and without a lexicon
    assert not _said_our_way("Hij weet er niets van.", "nl", "af")
    assert not _said_our_way("Você não sabe nada disso.", "pt", "xx")  # no lexicon, no verdict
    assert not _said_our_way("IRC, HTTP, DNS.", "pt", "en")  # no lowercase word, no verdict
