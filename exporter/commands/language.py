"""``canary judge-language``: run the language judge on a text, or on JSON lines, from a file or stdin.

Thin shell over ``exporter.language.judge``: reading, JSON in and out, exit codes. Exit status: 0 when
every input was judged, 1 when some JSON line was bad (each bad line gets an error line in its place,
and the others are still judged), 2 for a usage error (no locale, unknown locale, unreadable file).
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from typing import TextIO

from exporter.argkit import add_command
from exporter.language.judge import Judge, default_judge
from exporter.language.locales import DEFAULT_LOCALES, canonical_locale

_EPILOG = f"""\
examples:
  canary judge-language --locale pt-BR reply.txt
  echo 'ción Hola, ¿qué tal?' | canary judge-language --locale es
  canary judge-language --jsonl replies.jsonl > verdicts.jsonl

single text: prints one JSON object
  {{"outcome": "fail", "reason": "mixing", "locale": "pt-BR", "detail": "...", "evidence": {{...}}}}
--jsonl: each input line is {{"text": "...", "locale": "es", "id": "optional"}}; each output line is
  {{"id": ..., "outcome": ..., "reason": ...}} in input order, or {{"id": ..., "line": N, "error": "..."}}
  for a bad line (processing continues; the exit status is then 1). --locale, if given, is the default
  for lines without one.

outcomes: pass | fail (switch, mixing, encoding, leading_garbage) | inconclusive (too_short, ambiguous)
locales: {", ".join(DEFAULT_LOCALES)}
  BCP 47 tags are mapped: zh-TW/zh-HK -> zh-Hant, zh/zh-CN/zh-SG -> zh-Hans, pt/pt-BR -> pt-BR,
  en-US/es-419/de-CH... -> en/es/de; other tags are rejected. A leading UTF-8 BOM is ignored.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``judge-language`` command to the ``canary`` CLI."""
    p = add_command(
        subparsers,
        "judge-language",
        help="judge a reply's language and encoding integrity (local, offline)",
        description="Judge whether a reply is in the expected locale, free of encoding corruption and of "
        "garbage before its first word: pass, fail (with a reason) or inconclusive, with evidence. "
        "Reads FILE, or stdin when FILE is absent or '-'. Text is read as UTF-8; invalid bytes count "
        "as encoding corruption.",
        epilog=_EPILOG,
    )
    p.add_argument("file", nargs="?", default="-", metavar="FILE", help="input file (default: stdin)")
    p.add_argument("--locale", metavar="L", help="expected locale, e.g. pt-BR (required without --jsonl)")
    p.add_argument("--jsonl", action="store_true", help="read JSON lines and write one verdict line each")
    p.set_defaults(func=cmd_judge_language)


def cmd_judge_language(args: argparse.Namespace) -> int:
    return run(args.file, args.locale, args.jsonl, sys.stdin, sys.stdout, sys.stderr)


def run(
    path: str,
    locale: str | None,
    jsonl: bool,
    stdin: TextIO,
    stdout: TextIO,
    stderr: TextIO,
    judge: Judge | None = None,
) -> int:
    """The command, with its streams passed in (the tests call this directly)."""
    default = None
    if locale is not None:
        default = canonical_locale(locale)
        if default is None:
            print(
                f"canary judge-language: unknown locale {locale!r} (known: {', '.join(DEFAULT_LOCALES)})",
                file=stderr,
            )
            return 2
    elif not jsonl:
        print(
            "canary judge-language: --locale is required to judge a single text (or use --jsonl)", file=stderr
        )
        return 2
    try:
        text = _read(path, stdin)
    except OSError as exc:
        print(f"canary judge-language: cannot read {path}: {exc.strerror or exc}", file=stderr)
        return 2
    judge = judge or default_judge()
    if not jsonl:
        assert default is not None
        verdict = judge.judge(text, default)
        print(_dumps({**verdict.as_dict(), "locale": default}), file=stdout)
        return 0
    bad = 0
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        item = _parse_line(line, default)
        if item.error is not None:
            bad += 1
            print(_dumps({"id": item.ident, "line": number, "error": item.error}), file=stdout)
            print(f"canary judge-language: line {number}: {item.error}", file=stderr)
            continue
        verdict = judge.judge(item.text, item.locale)
        row: dict[str, object] = {"id": item.ident, "outcome": str(verdict.outcome),
                                  "reason": str(verdict.reason), "locale": item.locale}  # fmt: skip
        print(_dumps(row), file=stdout)
    return 1 if bad else 0


def _read(path: str, stdin: TextIO) -> str:
    """The input as text: UTF-8 with replacement, a leading byte-order mark dropped (it marks the file's
    encoding, it is not part of the reply)."""
    if path == "-":
        buffer = getattr(stdin, "buffer", None)
        text = buffer.read().decode("utf-8", errors="replace") if buffer is not None else stdin.read()
    else:
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8", errors="replace")
    return text.removeprefix("\ufeff")


def _dumps(obj: dict[str, object]) -> str:
    """One JSON line; non-ASCII kept readable unless a lone surrogate (from an escaped ``\\udxxx`` in
    the input) would make the line unwritable as UTF-8, then everything is escaped."""
    line = json.dumps(obj, ensure_ascii=False)
    try:
        line.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(obj)
    return line


@dataclass(frozen=True, slots=True)
class _Line:
    """One JSON input line, checked: either ``error`` is set or ``text`` and ``locale`` are."""

    ident: object = None
    text: str = ""
    locale: str = ""
    error: str | None = None


def _parse_line(line: str, default: str | None) -> _Line:
    """The checked item of one JSON line, or an error saying what is wrong with it."""
    try:
        item = json.loads(line)
    except json.JSONDecodeError as exc:
        return _Line(error=f"not valid JSON ({exc.msg} at column {exc.colno})")
    if not isinstance(item, dict):
        return _Line(error="expected a JSON object with text and locale")
    ident = item.get("id")
    if ident is not None and (isinstance(ident, bool) or not isinstance(ident, str | int | float)):
        return _Line(error="id must be a string or a number")
    text = item.get("text")
    if not isinstance(text, str):
        return _Line(ident, error="text is missing or not a string")
    raw_locale = item.get("locale", default)
    if not isinstance(raw_locale, str):
        return _Line(ident, error="locale is missing or not a string (or pass --locale as the default)")
    locale = canonical_locale(raw_locale)
    if locale is None:
        return _Line(ident, error=f"unknown locale {raw_locale!r} (known: {', '.join(DEFAULT_LOCALES)})")
    return _Line(ident, text, locale)
