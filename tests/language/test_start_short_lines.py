"""Corrupted starts of the shapes short game and story lines give a tokenizer's piece: a line that opens
with an ellipsis or with its own quote or dash, an interjection and its comma; each beside the legitimate
start of the same shape. The texts are written for these tests."""

from __future__ import annotations

import pytest

from exporter.language.start import find_corrupted_start


def _piece(text: str, locale: str) -> str | None:
    found = find_corrupted_start(text, locale)
    return found.prefix if found else None


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a piece before a line that opens with an ellipsis: spaced, glued, behind a dash, a quote or ¿
        ("aney ...climbed the ladder and looked at the sea.", "en", "aney"),
        ("denly — ...of niemand kwam terug voor de lamp.", "nl", "denly"),
        ("ulso ¿...y ahora qué hacemos con el mapa?", "es", "ulso"),
        ("ári...Ou será que a porta estava aberta?", "pt-BR", "ári"),
        ("Erro「…Et c'est alors que la porte s'ouvrit.", "fr", "Erro"),
        ("theless “..:: Ctrl-g : capturer la souris ::..” La sortie est proche.", "fr", "theless"),
        # a word or an interjection trails off into its ellipsis
        ("Hmm... I think the bridge will hold.", "en", None),
        ("Wait... where did the lantern go?", "en", None),
        ("Nein... das kann nicht sein.", "de", None),
        # so may a name, alone or addressed before a dash
        ("Marta... you came back after all.", "en", None),
        ("Marta — ...where were you last night?", "en", None),
        # an ellipsis in brackets or quotes, closed right after it, marks words left out or names the mark
        ("Wahadło (...) kołysze się z cichym dudnieniem.", "pl", None),
        ("点々「…」で省略されている部分は後で読めます。", "ja", None),
    ],
)
def test_a_line_that_opens_with_an_ellipsis(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a discourse word of another language, unpunctuated, before the reply's first word
        ("à Olha, o caminho está livre agora.", "pt-BR", "à"),
        ("right Das wäre einfach gewesen, aber niemand kam.", "de", "right"),
        ("so Em conformidade com as regras, o portão fica fechado.", "pt-BR", "so"),
        # ... the reply's own, or a sound every language writes, opens it in lowercase
        ("well Marta — the gate is open now.", "en", None),
        ("ok Das machen wir morgen früh.", "de", None),
        # a character who speaks another language punctuates the interjection he says in it
        ("Nein, ¡los vengaré a todos, madre!", "es", None),
        ("Oui... je sais, mais la porte est fermée.", "en", None),
    ],
)
def test_an_interjection_of_the_replys_language(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # a piece glued to the quote, dash or inverted mark the text opens with, before its own mark
        ("vent¿“The museum took the whole lower floor.”", "en", "vent"),
        ("girl„„In einer Stadt am Meer lebte ein Fischer.“", "de", "girl"),
        ("cut— - Der Wächter sieht im Dunkeln.", "de", "cut"),
        ("zeigt— ¡Esa cosa de allí debe de ser el cáliz!", "es", "zeigt"),
        # one mark behind a word glued to it is a plural in brackets or a word broken off, as before
        ("file(s) are copied to the folder you choose.", "en", None),
        ("But— aren't you coming with us?", "en", None),
    ],
)
def test_a_piece_glued_to_a_run_of_opening_marks(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece


@pytest.mark.parametrize(
    ("text", "locale", "piece"),
    [
        # one letter glued to an interjection and its comma is a piece
        ("АОй, как же холодно сегодня утром.", "ru", "А"),
        ("ứОй, здається, ми помилялися.", "uk", "ứ"),
        # a sound drawn out is one interjection; a word glued to one is a lost space, a label and its text
        ("OOh, what a lovely morning it is.", "en", None),
        ("MichAch, wir haben noch genug Zeit.", "de", None),
        ("PowerShell, the shell of the system, opens the file.", "en", None),
    ],
)
def test_a_piece_glued_to_an_interjection(text: str, locale: str, piece: str | None) -> None:
    assert _piece(text, locale) == piece
