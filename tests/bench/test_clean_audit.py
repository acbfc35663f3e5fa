"""The clean-set audit (``bench/corpus/audit.py``) takes out a source unit in another language or decoded
with the wrong codec, and leaves a unit of the locale alone even where it names English products, quotes
English terms or lists commands; ``bench/clean_audit.py`` draws the evaluations' clean cases."""

from __future__ import annotations

import base64
import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench" / "corpus"))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))

pytest.importorskip("pycld2", reason="the audit's language identifier (the dev extra installs it)")
pytest.importorskip("lingua", reason="the audit's language identifier (the dev extra installs it)")

import audit
import clean_audit
from fiction_cases import split_of

FOREIGN = [
    ("pl", "You should have known that the shop would be closed on a Sunday afternoon.", "en"),
    ("es", "I do not believe that ghosts or spirits exist in this old house.", "en"),
    ("fr", "Wir wollen heute Abend noch in die Stadt gehen und etwas essen.", "de"),
    ("ru", "I have two pets: a large main cat, and a small emergency backup one.", "en"),
    ("ja", "The keeper of the lighthouse has not been seen in the village since the storm.", "en"),
]
IN_LOCALE = [
    (
        "it",
        "Okular supporta molti formati diversi come PDF, PostScript, Tiff, CHM, DjVU, XPS, EPub e Markdown.",
    ),
    (
        "pt-BR",
        'Os operadores são lt (menor que "lower than"), le (menor ou igual "less than or equal to") e eq.',
    ),
    ("es", "Los dispositivos crudos (raw devices) todavía no han sido implementados en este núcleo."),
    ("de", "Details finden Sie in der GNU General Public License unter /usr/share/common-licenses/GPL."),
    (
        "ru",
        "Для full-upgrade, safe-upgrade и hold: добавить тег пользователя ко всем пакетам под шаблоном.",
    ),
    ("ja", "Shift+Page Up キー、Shift+Page Down キー、または Shift+End キーを押します。"),
    (
        "zh-Hans",
        "如果还没有， 写信给： The Free Software Foundation, Inc., 675 Mass Ave, Cambridge, MA02139, USA",
    ),
    ("nl", "De zoekterm kan een getal of een reeks tekens zijn, zoals in de vorige paragraaf."),
    ("pl", "Dzień dobry, jak się masz? Wczoraj wieczorem padał deszcz i nie wyszliśmy z domu."),
    ("id", "Objek dengan takarir dan markah dapat digunakan sebagai sasaran rujukan silang."),
]


@pytest.mark.parametrize(("locale", "sentence", "language"), FOREIGN)
def test_a_sentence_in_another_language_is_foreign(locale: str, sentence: str, language: str) -> None:
    found = audit.foreign_language(sentence, locale)
    assert found is not None and found.split()[0] == language


@pytest.mark.parametrize(("locale", "sentence"), IN_LOCALE)
def test_a_sentence_of_the_locale_with_names_terms_and_commands_is_not_foreign(
    locale: str, sentence: str
) -> None:
    assert audit.foreign_language(sentence, locale) is None


def test_a_sentence_of_fewer_than_four_translatable_words_is_not_audited() -> None:
    assert audit.foreign_language("You bet, Tom.", "fr") is None
    assert (audit.foreign_language("All viruses are working properly.", "ru") or "").startswith("en ")


def test_the_translatable_words_leave_out_names_identifiers_quotes_and_glosses() -> None:
    sentence = (
        'Le résultat (raw output) de --cached est "always on" pour la Free Software Foundation, dit-il.'
    )
    assert audit.words(sentence, "fr") == ["le", "résultat", "de", "est", "pour", "la"]


def test_in_a_locale_of_its_own_script_the_latin_terms_beside_native_words_are_left_out() -> None:
    assert audit.words("Нажмите install и затем remove.", "ru") == ["нажмите", "и", "затем"]
    assert audit.words("I have two рets.", "ru") == ["have", "two", "рets"]  # a Cyrillic р in a Latin word


@pytest.mark.parametrize(
    ("unit", "defect"),
    [
        ("Schafft er\x92s wohl auch noch bis neunzig?", "C1 control U+0092"),
        ("You don\u00e2\x80\x99t, forget I even mentioned it.", "C1 control U+0080"),
        ("You donâ€™t, forget I even mentioned it.", "mojibake"),
        ("Ð\u009fÑ\u0080Ð¸Ð²ÐµÑ\u0082", "C1 control U+009F"),
        ("Ã‰tÃ© Ã  la plage.", "mojibake"),
        ("Le caf\ufffd est froid.", "U+FFFD"),
    ],
)
def test_text_decoded_with_the_wrong_codec_is_an_encoding_defect(unit: str, defect: str) -> None:
    assert audit.encoding_defect(unit) == defect


@pytest.mark.parametrize(
    "unit",
    [
        "Été à la plage, ça coûte 5 € — «très» cher.",
        "Zażółć gęślą jaźń.",
        "Ärger über Öl: ß.",
        "日本語の文章です。",
    ],
)
def test_clean_text_in_any_script_has_no_encoding_defect(unit: str) -> None:
    assert audit.encoding_defect(unit) is None


def test_audit_units_reports_each_units_findings_and_nothing_for_a_clean_case() -> None:
    units = ["Dzień dobry, jak się masz?", "You donâ\x80\x99t need it.",
             "Tak. You should have known that the shop would be closed on a Sunday afternoon."]  # fmt: skip
    found = audit.audit_units(units, "pl")
    assert [(f.kind, f.detail.split()[0]) for f in found] == [("encoding", "C1"), ("language", "en")]
    assert found[1].text.startswith("You should have known")
    assert audit.audit_units(["Dzień dobry, jak się masz?", "Wczoraj padał deszcz."], "pl") == []


def test_paragraph_cases_are_the_sampled_paragraphs_of_the_split(tmp_path: Path) -> None:
    rows = [{"locale": "de", "source": f"doc:{n}", "text": f"Absatz {n}."} for n in range(40)]
    rows.append({"locale": "de", "source": "doc:x", "text": '"" debris'})
    path = tmp_path / "x_paragraphs.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    dev = list(clean_audit.paragraph_cases(path, "dev"))
    test = list(clean_audit.paragraph_cases(path, "test"))
    assert len(dev) + len(test) == 40 and dev and test
    assert all(split_of(f"doc:{c.text.split()[1][:-1]}") == "dev" and c.units == (c.text,) for c in dev)


def test_a_tally_counts_failures_on_audited_clean_cases_apart() -> None:
    tally = clean_audit.Tally(cases=10)
    tally.audited_out["language"] += 2
    tally.failed.update({"mixing": 3})
    tally.failed_clean.update({"mixing": 1})
    line = tally.line("games", "fiction")
    assert "audited out    2" in line and "raw    3 /     10 (30.00%)" in line
    assert "audited-clean    1 /      8 (12.50%)" in line


def test_the_tool_refuses_to_print_test_texts(tmp_path: Path) -> None:
    vocab = tmp_path / "vocab.tiktoken"
    pieces = [b"ation", b"ly", b" the", "ного".encode(), "ます".encode()]
    vocab.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(pieces)))
    for show in ("--show-audited", "--show-failures"):
        run = subprocess.run(
            [sys.executable, str(Path(clean_audit.__file__)), "test", "--vocab", str(vocab), show,
             "--results", str(tmp_path)],
            capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert run.returncode == 2 and "the test split is scored, never read" in run.stderr


def test_the_tool_takes_set_names_after_its_options(tmp_path: Path) -> None:
    vocab = tmp_path / "vocab.tiktoken"
    pieces = [b"ation", b"ly", b" the", "ного".encode(), "ます".encode()]
    vocab.write_text("".join(f"{base64.b64encode(t).decode()} {i}\n" for i, t in enumerate(pieces)))
    row = {"locale": "en", "source": "a", "text": "The keeper of the lighthouse has not been seen since."}
    (tmp_path / "tiny_paragraphs.jsonl").write_text(json.dumps(row) + "\n")
    run = subprocess.run(
        [sys.executable, str(Path(clean_audit.__file__)), "dev", "--vocab", str(vocab), "--audit-only",
         "--results", str(tmp_path), "tiny", "other"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "tiny " in run.stdout and "other" not in run.stdout
