"""Signals that need a whole reply (``Ensemble.whole_reply``): Malay in an Indonesian probe by the two
lexicons' log-likelihood ratio, Galician in a Spanish or Portuguese one by CLD3, fastText and the expected
language's lexicon. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.detect import REPLY_LLR, Call
from exporter.language.judge import Judge, default_judge
from exporter.language.lexicon import SHARED_TOP, lexicon, preference
from exporter.language.locales import LOCALES, LocaleSpec
from exporter.language.scripts import Script
from exporter.language.segment import split_sentences
from exporter.outcomes import Outcome, Reason

MALAY = (
    "Kami sampai di kampung itu selepas matahari terbenam, dan penghulu menjemput kami makan malam di "
    "rumahnya. Isterinya memasak gulai ikan yang sangat sedap, dan anak-anak mereka asyik bertanya tentang "
    "perjalanan kami. Selepas makan, penghulu bercerita tentang hantu yang kononnya tinggal di hutan "
    "berhampiran. Kami ketawa, tetapi malam itu tiada seorang pun antara kami yang berani keluar seorang "
    "diri."
)
# The same story in Indonesian; then Indonesian that writes words Malay favours (kepada, daripada, boleh,
# berhutang budi), and chatty Jakarta Indonesian.
INDONESIAN = [
    "Kami tiba di desa itu setelah matahari terbenam, dan kepala desa mengundang kami makan malam di "
    "rumahnya. Istrinya memasak gulai ikan yang sangat enak, dan anak-anak mereka terus bertanya tentang "
    "perjalanan kami. Sesudah makan, kepala desa bercerita tentang hantu yang katanya tinggal di hutan "
    "dekat situ. Kami tertawa, tetapi malam itu tidak ada seorang pun di antara kami yang berani keluar "
    "sendirian.",
    "Anda telah menyelamatkan desa kami, jadi kami berhutang budi kepada anda. Lebih baik kita berunding "
    "daripada berperang, kata raja kepada para penasihatnya. Anak-anak boleh pulang ke rumah masing-masing "
    "sebelum matahari terbenam. Kemudian dia menyerahkan pedang itu kepada kesatria muda yang berdiri di "
    "depannya.",
    "Wah, gue nggak nyangka lo bakal datang juga ke pesta ini! Sini duduk dulu, mau minum apa? Tadi si Budi "
    "bilang kalian kena macet parah di jalan tol, jadi gue kira kalian batal. Ya udah, santai aja, "
    "makanannya masih banyak kok.",
]
GALICIAN = (
    "Cando chegamos á aldea xa era noite pecha e ninguén saíu a recibirnos. O vello ferreiro díxonos que "
    "os lobos baixaran do monte tres veces nesta semana. Non temos armas abondo para defendernos, pero "
    "tampouco podemos marchar agora. Quedaremos ata mañá e logo decidiremos que facer coas ovellas."
)
SPANISH = (
    "Cuando llegamos a la aldea ya era noche cerrada y nadie salió a recibirnos. El viejo herrero nos dijo "
    "que los lobos habían bajado del monte tres veces esta semana. No tenemos armas suficientes para "
    "defendernos, pero tampoco podemos marcharnos ahora. Nos quedaremos hasta mañana y luego decidiremos "
    "qué hacer con las ovejas."
)


def _words(text: str) -> list[str]:
    return [word.strip(".,!?").casefold() for word in text.split()]


def _whole(text: str, locale: str) -> tuple[str, dict[str, object]] | None:
    ensemble, spec = default_judge().ensemble, LOCALES[locale]
    return ensemble.whole_reply(text, spec, [ensemble.call(s.text, spec) for s in split_sentences(text)])


def test_preference_is_a_log_likelihood_ratio_that_can_leave_the_commonest_shared_words_out() -> None:
    ms, id_ = lexicon("ms"), lexicon("id")
    malay = preference(_words(MALAY), ms, id_, SHARED_TOP)
    indonesian = preference(_words(INDONESIAN[0]), ms, id_, SHARED_TOP)
    assert malay.llr >= REPLY_LLR > 0 > indonesian.llr
    assert malay.llr == pytest.approx(malay.per_word * malay.words)
    # "yang", "dan", "di" are among both languages' commonest words: counted only without shared_top
    assert preference(["yang", "dan", "di"], ms, id_, SHARED_TOP).words == 0
    assert preference(["yang", "dan", "di"], ms, id_).words == 3
    assert preference(["Konrad", "xyzzy"], ms, id_).words == 0  # names and typos are no evidence


def test_a_malay_reply_is_malay_as_a_whole_in_an_indonesian_probe() -> None:
    found = _whole(MALAY, "id")
    assert found is not None and found[0] == "ms" and found[1]["basis"] == "lexicon_lean", found
    assert default_judge().judge(MALAY, "id").outcome is Outcome.FAIL


@pytest.mark.parametrize("text", INDONESIAN)
def test_indonesian_passes_even_with_words_malay_favours(text: str) -> None:
    assert _whole(text, "id") is None
    verdict = default_judge().judge(text, "id")
    assert verdict.outcome is Outcome.PASS, verdict


@pytest.mark.parametrize("locale", ["es", "pt-BR"])
def test_galician_is_galician_as_a_whole_in_a_spanish_or_portuguese_probe(locale: str) -> None:
    found = _whole(GALICIAN, locale)
    assert found is not None and found[0] == "gl" and found[1]["basis"] == "cld3+lexicon", found
    # asked only when a sentence is in doubt: not when letters or a firm fastText settled every one
    settled = [Call("native", LOCALES[locale].language, 50.0, "words")]
    assert default_judge().ensemble.whole_reply(GALICIAN, LOCALES[locale], settled) is None


def test_spanish_and_quoted_galician_are_not_galician_as_a_whole() -> None:
    assert _whole(SPANISH, "es") is None
    quoted = f"«{GALICIAN}», nos dijo el herrero en su lengua, y se fue a dormir sin cenar."
    assert _whole(quoted, "es") is None


class _WholeReplyStub:
    """Every sentence native; the whole reply in ``whole``: the judge's use of the whole-reply signal."""

    def __init__(self, whole: tuple[str, dict[str, object]] | None) -> None:
        self.whole = whole

    def call(
        self, text: str, spec: LocaleSpec, counts: dict[Script, int] | None = None, w: float | None = None
    ) -> Call:
        return Call("native", spec.language, 50.0, "models")

    def whole_reply(self, text: str, spec: LocaleSpec, calls: object) -> tuple[str, dict[str, object]] | None:
        return self.whole


def test_a_reply_whose_sentences_pass_fails_as_a_switch_when_it_is_another_language_as_a_whole() -> None:
    found = ("ms", {"basis": "lexicon_lean", "llr": 6.1, "per_word": 0.3, "words": 20})
    verdict = Judge(ensemble=_WholeReplyStub(found)).judge(INDONESIAN[0], "id")  # type: ignore[arg-type]
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SWITCH)
    assert verdict.evidence["whole_reply"] == {"language": "ms", **found[1]}
    verdict = Judge(ensemble=_WholeReplyStub(None)).judge(INDONESIAN[0], "id")  # type: ignore[arg-type]
    assert (verdict.outcome, verdict.reason) == (Outcome.PASS, Reason.NONE)


def test_a_word_only_malay_writes_needs_a_sentence_of_four_words() -> None:
    ensemble = default_judge().ensemble
    assert ensemble.call("Mereka mengetuai rombongannya.", LOCALES["id"]).status == "native"
    call = ensemble.call("Kamu mengetuai pasukannya sendiri.", LOCALES["id"])
    assert (call.status, call.language, call.basis) == ("foreign", "ms", "distinctive"), call
