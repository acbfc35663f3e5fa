# ruff: noqa: E501  (test data lines)
"""``canary judge-language``: one JSON object for a text, JSON lines in order, bad lines reported and skipped."""

from __future__ import annotations

import argparse
import io
import json
from pathlib import Path

from exporter.commands.language import register, run


class Stdin(io.StringIO):
    """A text stdin whose ``buffer`` holds the given bytes (the command reads bytes and decodes them)."""

    def __init__(self, data: bytes) -> None:
        super().__init__()
        self.buffer = io.BytesIO(data)  # type: ignore[misc]


def call(
    *, data: bytes = b"", path: str = "-", locale: str | None = None, jsonl: bool = False
) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(path, locale, jsonl, Stdin(data), out, err)
    return code, out.getvalue(), err.getvalue()


def test_a_text_from_stdin_gives_one_json_object() -> None:
    code, out, _ = call(
        data="ción Hola, ¿qué tal? Hoy hace un día precioso en el puerto.".encode(), locale="es"
    )
    verdict = json.loads(out)
    assert code == 0 and out.count("\n") == 1
    assert (verdict["outcome"], verdict["reason"], verdict["locale"]) == ("fail", "leading_garbage", "es")
    assert verdict["evidence"]["start"]["prefix"] == "ción"


def test_a_text_from_a_file_with_invalid_utf8_is_an_encoding_failure(tmp_path: Path) -> None:
    reply = tmp_path / "reply.txt"
    reply.write_bytes(
        "Bonjour, je suis très heureuse de te voir ce soir".encode() + b"\xff\xfe" + b" au port."
    )
    code, out, _ = call(path=str(reply), locale="fr")
    assert code == 0 and json.loads(out)["reason"] == "encoding"


def test_jsonl_keeps_input_order_and_reports_bad_lines_without_losing_the_rest() -> None:
    lines = [
        json.dumps(
            {
                "id": "a",
                "text": "Hello there, traveller! Come in out of the rain and sit by the fire.",
                "locale": "en",
            }
        ),
        "not json",
        json.dumps({"id": "c", "text": "Olá", "locale": "xx"}),
        "",
        json.dumps({"id": 4, "locale": "fr"}),
        json.dumps(
            {
                "id": "e",
                "text": "Der Sturm ist vorüber, und das Meer ist endlich wieder ruhig geworden.",
                "locale": "fr",
            }
        ),
    ]
    code, out, err = call(data="\n".join(lines).encode(), jsonl=True)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 1
    assert [r.get("id") for r in rows] == ["a", None, "c", 4, "e"]
    assert rows[0]["outcome"] == "pass" and rows[4]["outcome"] == "fail" and rows[4]["reason"] == "switch"
    assert rows[1]["line"] == 2 and "not valid JSON" in rows[1]["error"]
    assert rows[2]["line"] == 3 and "unknown locale 'xx'" in rows[2]["error"]
    assert rows[3]["line"] == 5 and "text is missing" in rows[3]["error"]
    assert "line 2:" in err and "line 5:" in err


def test_jsonl_uses_the_locale_option_as_the_default() -> None:
    data = json.dumps(
        {"text": "Hola, ¿qué tal? Hoy hace un día precioso para pasear por el puerto."}
    ).encode()
    code, out, _ = call(data=data, jsonl=True, locale="es")
    assert code == 0 and json.loads(out)["outcome"] == "pass"


def test_usage_errors_exit_2_with_a_message() -> None:
    assert call(data=b"hi")[0] == 2
    code, _, err = call(data=b"hi", locale="klingon")
    assert code == 2 and "unknown locale 'klingon'" in err
    code, _, err = call(path="/nonexistent/reply.txt", locale="en")
    assert code == 2 and "cannot read /nonexistent/reply.txt" in err


def test_the_command_registers_with_help_and_examples() -> None:
    parser = argparse.ArgumentParser(prog="canary")
    register(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["judge-language", "--locale", "pt-BR", "reply.txt"])
    assert (args.file, args.locale, args.jsonl, args.func.__name__) == (
        "reply.txt",
        "pt-BR",
        False,
        "cmd_judge_language",
    )
    help_text = parser._subparsers._group_actions[0].choices["judge-language"].format_help()  # type: ignore[union-attr]
    assert "canary judge-language --jsonl replies.jsonl" in help_text and "--locale L" in help_text


def test_jsonl_survives_an_escaped_lone_surrogate_and_judges_later_lines() -> None:
    good = "Hello there, traveller! Come in out of the rain and sit by the fire."
    lines = [
        '{"id": "bad\\udc80", "text": "' + good + '", "locale": "en"}',
        '{"id": "x", "text": "' + good + '", "locale": "x\\ud800"}',
        json.dumps({"id": "later", "text": good, "locale": "en"}),
    ]
    code, out, _ = call(data="\n".join(lines).encode(), jsonl=True)
    rows = [json.loads(line) for line in out.encode("utf-8").decode("utf-8").splitlines()]
    assert code == 1
    assert rows[0] == {"id": "bad\udc80", "outcome": "pass", "reason": "none", "locale": "en"}
    assert rows[1]["line"] == 2 and "unknown locale" in rows[1]["error"]
    assert rows[2]["id"] == "later" and rows[2]["outcome"] == "pass"


def test_a_utf8_bom_is_not_part_of_the_first_line_or_text() -> None:
    good = "Hello there, traveller! Come in out of the rain and sit by the fire."
    line = json.dumps({"id": 1, "text": good, "locale": "en"})
    code, out, _ = call(data=b"\xef\xbb\xbf" + line.encode(), jsonl=True)
    assert code == 0 and json.loads(out)["outcome"] == "pass"
    code, out, _ = call(data=b"\xef\xbb\xbf" + good.encode(), locale="en")
    assert code == 0 and json.loads(out)["outcome"] == "pass"


def test_bcp47_tags_map_to_the_known_locales_and_unknown_ones_list_them() -> None:
    text = "Hello there, traveller! Come in out of the rain and sit by the fire."
    mapped = {"zh-TW": "zh-Hant", "zh-HK": "zh-Hant", "zh": "zh-Hans", "zh-CN": "zh-Hans",
              "zh-SG": "zh-Hans", "en-US": "en", "en_GB": "en", "pt": "pt-BR", "pt-BR": "pt-BR",
              "zh-Hant-TW": "zh-Hant", "es-419": "es"}  # fmt: skip
    lines = [json.dumps({"id": tag, "text": text, "locale": tag}) for tag in mapped]
    code, out, _ = call(data="\n".join(lines).encode(), jsonl=True)
    assert code == 0
    assert {r["id"]: r["locale"] for r in map(json.loads, out.splitlines())} == mapped
    for tag in ("pt-PT", "zh-US", "xx", "en--US", "e n"):
        code, _, err = call(data=text.encode(), locale=tag)
        assert code == 2 and f"unknown locale {tag!r}" in err and "zh-Hant" in err
