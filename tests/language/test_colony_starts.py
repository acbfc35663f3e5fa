"""Legitimate text of reports and histories that the judge could misread: a long adverb and its comma
before a quoted name, a list item that opens in lowercase after its dash, a Ukrainian sentence without any
letter Russian lacks. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.detect import NEIGHBOUR_LEAN, _lexicon_leans
from exporter.language.judge import judge
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # an adverb too long to be a tokenizer's piece, its comma, then a quoted capitalised name
        ("Стратегически, «Буревестник» оказался самым удачным кораблём флотилии.", "ru", None),
        ("Historycznie, „Jaskółka” była pierwszym statkiem, który dotarł do wyspy.", "pl", None),
        # ... a short piece with a comma before the quote is still a fragment: cut from a word's middle, in
        # lowercase or in capitals (a capitalised word and its comma is a word: ``test_start_words``)
        ("ation, «Буревестник» оказался самым удачным кораблём флотилии.", "ru", "ation"),
        ("ATION, «Буревестник» оказался самым удачным кораблём флотилии.", "ru", "ATION"),
        # a list item opening in lowercase after its dash, a name after its first word
        ("— корабли Северного флота вернулись в порт до начала шторма.", "ru", None),
        ("— ворота Києва відчинялися лише на світанку.", "uk", None),
        # ... a piece no lexicon lists, after the dash, is still a fragment
        ("— ции Северного флота вернулись в порт до начала шторма.", "ru", "ции"),
        # ... and so is a word before the opening word of a new sentence (a function word)
        ("— корабли Мы вернулись в порт до начала шторма.", "ru", "корабли"),
    ],
)
def test_a_start_of_a_report_or_history(text: str, locale: str, piece: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found


def test_ukrainian_without_letters_russian_lacks_is_kept_by_the_lexicons() -> None:
    # no і, ї, є or ґ: only the words say Ukrainian (ми, зайшли, глухий, кут)
    ukrainian = "Ой, чесно кажучи, ми зайшли в глухий кут."
    russian = "Честно говоря, мы зашли в тупик."
    assert _lexicon_leans(ukrainian, "uk", "ru")
    assert not _lexicon_leans(russian, "uk", "ru")
    assert _lexicon_leans(russian, "ru", "uk")
    # Galician leans to Portuguese against Spanish, but has words of its own the Portuguese lexicon lacks
    assert not _lexicon_leans("Os mariñeiros xa foron ao porto cos barcos novos.", "pt", "es")
    assert NEIGHBOUR_LEAN > 0
    reply = f"{ukrainian} Ми досі не маємо надійної теорії про цей прилад."
    assert judge(reply, "uk").outcome == Outcome.PASS
    mixed = (
        "Честно говоря, мы зашли в тупик и не знаем, что делать дальше. "
        "Ми досі не маємо жодної теорії про те, що робить цей прилад у підвалі."
    )
    assert judge(mixed, "uk").outcome == Outcome.FAIL
