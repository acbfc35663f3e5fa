"""Words a legitimate opener starts with that the corrupted-start check could read as a tokenizer's piece:
a capitalised word closed by its own comma or full stop before a sentence a mark opens (a name addressed,
a sentence of one word), a sound drawn out as a capitalised run of one letter, a German verb before the
capitalised pronoun it addresses, a Russian or Ukrainian word before a quoted slogan; and a symbol or a
headword in capitals opening an entry of a glossary, a name of code in camelCase. Each comes with the
pieces and stray marks that look like it and must still fail. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.judge import judge
from exporter.language.start import find_corrupted_start
from exporter.outcomes import Outcome


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a name or a one-word sentence, closed by its own mark, before a sentence a mark opens
        ("Dink. ¿Qué haces en el granero a estas horas de la noche?", "es", None),
        ("Esperá, ¿Cooper? Me dijeron que vos sabías arreglar el motor del barco.", "es", None),
        ("Ilse, «Komm sofort nach Hause», rief die Mutter über den ganzen Hof.", "de", None),
        ("Tarvo, — Не уходи так рано, — попросила она и закрыла дверь.", "ru", None),
        # ... a piece cut from a word's middle is lowercase or in capitals: still a fragment
        ("ation, ¿Cooper? Me dijeron que vos sabías arreglar el motor del barco.", "es", "ation"),
        ("ATION. ¿Qué haces en el granero a estas horas de la noche?", "es", "ATION"),
        # ... and so is a capitalised piece spaced before the mark, with no mark of its own
        ("Ation ¿Cooper? Me dijeron que vos sabías arreglar el motor del barco.", "es", "Ation"),
        # a sound drawn out, written as a word: its capital, then the same letter in lowercase
        ("Mmmmm— mi pueblo vivía aquí mucho antes de que llegaran los barcos.", "es", None),
        ("Zzzz… The guard slept at his post while the thief crept past the gate.", "en", None),
        # ... a run in one case, a short one, or the placeholder's x is still a piece
        ("mmmmm— mi pueblo vivía aquí mucho antes de que llegaran los barcos.", "es", "mmmmm"),
        ("MMMMM— mi pueblo vivía aquí mucho antes de que llegaran los barcos.", "es", "M"),
        ("Mmm— mi pueblo vivía aquí mucho antes de que llegaran los barcos.", "es", "M"),
        ("Xxxxx— mi pueblo vivía aquí mucho antes de que llegaran los barcos.", "es", "X"),
        # a German verb (a regular form of an infinitive the lexicon lists) before the pronoun it addresses
        ("Beeil Dich! Die Brücke stürzt gleich ein, und wir müssen noch den Fluss überqueren.", "de", None),
        ("Klickt Ihr auf die Schaltfläche, schließt sich das Fenster mit allen Änderungen.", "de", None),
        # ... a piece before the same pronoun, or a stem too short to tell from one, is still a fragment
        ("Ation Sie haben die Brücke erreicht und müssen nun den Fluss überqueren.", "de", "Ation"),
        ("Gra Sie haben die Brücke erreicht und müssen nun den Fluss überqueren.", "de", "Gra"),
        # ... and so is the verb-shaped token before a sentence's article, which no verb addresses
        ("Beeil Die Brücke stürzt gleich ein, und wir müssen noch den Fluss überqueren.", "de", "Beeil"),
        # a Russian or Ukrainian word before a quoted slogan ending with "!", the sentence going on in
        # lowercase with no dash: Russian writes a dash between quoted speech and the author's words
        ("Лозунг «Вперёд к победе!» висел над входом в старую казарму у реки.", "ru", None),
        ("Гасло «Ні кроку назад!» висіло над входом до старої казарми біля річки.", "uk", None),
        # ... dialogue (a dash after the quote), a piece before the slogan, or English: still a fragment
        ("Лозунг «Вперёд к победе!» — крикнул командир, и солдаты побежали к реке.", "ru", "Лозунг"),
        ("ция «Вперёд к победе!» висел над входом в старую казарму у реки.", "ru", "ция"),
        ("Slogan “Never give up!” hung above the door of the old barracks by the river.", "en", "Slogan"),
    ],
)
def test_a_word_opening_a_reply(text: str, locale: str, piece: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found
    verdict = judge(text, locale)
    assert (verdict.outcome == Outcome.FAIL and verdict.reason == "leading_garbage") == (piece is not None)


@pytest.mark.parametrize(
    ("text", "locale", "stray"),
    [
        # a glossary of symbols written as sentences: a symbol, a space, its capitalised description, and
        # after an end mark the next entry of the same shape
        ("^ Le premier argument, soit le mot 1. $ Le dernier mot de la ligne de commande.", "fr", None),
        ("$ L'ultima parola della riga. Di solito è l'ultimo argomento. % La prima parola.", "it", None),
        # ... one symbol before a sentence, no entry after it: still stray
        ("^ Le premier argument, soit le mot 1. Le dernier mot de la ligne de commande suit.", "fr", "^"),
        ("^ The keeper walked to the door. He opened it slowly and looked at the rain.", "en", "^"),
        # ... and a closer or an end mark before entries is a leftover, not a symbol the text names
        (", Le premier argument, soit le mot 1. $ Le dernier mot de la ligne de commande.", "fr", ","),
        # ... as is a symbol whose next "entry" opens in lowercase (prose, not a list of designators)
        ("^ Le premier argument, soit le mot 1. $ le dernier mot de la ligne de commande.", "fr", "^"),
    ],
)
def test_a_glossary_of_symbols(text: str, locale: str, stray: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == stray, found


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a headword in capitals before its definition, in a list of such entries: whatever its length
        ("CHI - Il centro di Pechino. COLONNA VERTEBRALE - Coda d'auto fin sulla schiena.", "it", None),
        ("ZED — A letter nobody uses. QUIZ — A question with a prize behind it.", "en", None),
        # ... a piece in capitals before one sentence, or a headword with no entry after it: still a piece
        ("ING - Il centro di Pechino è molto affollato durante le feste di primavera.", "it", "ING"),
        ("CHI - Il centro di Pechino. Coda d'auto fin sulla schiena per tutto il giorno.", "it", "CHI"),
    ],
)
def test_a_list_of_headwords(text: str, locale: str, piece: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found


@pytest.mark.parametrize(
    ("text", "piece"),
    [
        # a name of code in camelCase (two humps or more after an English word), possibly private
        ("getCellRangeByName returns the range of cells that the given name refers to.", None),
        ("_documentEventOccured routine - set by ConsoleLogger - traps every document event.", None),
        ("_private_name holds the value until the object is disposed of at the end of the run.", None),
        # ... a piece glued to a reply's first word, even a name with a capital inside: still a piece
        ("ationThe keeper walked to the door and looked outside at the rain on the town.", "ation"),
        ("ationMcGregor walked to the door and looked outside at the rain on the town.", "ation"),
        # ... and emphasis opened with "_" before a word of prose and never closed: still unclosed
        ("_The keeper walked to the door and looked outside at the rain on the town.", "_"),
    ],
)
def test_a_name_of_code(text: str, piece: str | None) -> None:
    found = find_corrupted_start(text, "en")
    assert (found.prefix if found else None) == piece, found


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a name the text declines later, capitalised as it is, before a sentence opening with a function
        # word: the name of a heading or a speaker, not a piece
        ("Ратибор Он пришёл в деревню на рассвете, и все вышли встречать Ратибора у ворот.", "ru", None),
        ("Radomir Na zamku nikt już nie czekał na Radomira, choć obiecał wrócić przed zimą.", "pl", None),
        ("Sidolus I agree with the council. We must send word to Sidolusa before the winter.", "en", None),
        # ... a piece shorter than a stem, a piece a longer word of the text merely starts with, or a
        # later word in lowercase (no name): still a fragment
        ("Рати Он пришёл в деревню на рассвете, и все вышли встречать Ратибора у ворот.", "ru", "Рати"),
        ("Ation La gardienne ouvrit la porte et regarda Ationelle dans les yeux.", "fr", "Ation"),
        ("Radomir Na zamku nikt nie czekał na radomira, choć obiecał wrócić przed zimą.", "pl", "Radomir"),
    ],
)
def test_a_name_declined_later(text: str, locale: str, piece: str | None) -> None:
    found = find_corrupted_start(text, locale)
    assert (found.prefix if found else None) == piece, found
    verdict = judge(text, locale)
    assert (verdict.outcome == Outcome.FAIL and verdict.reason == "leading_garbage") == (piece is not None)
