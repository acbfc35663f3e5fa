"""README's configuration reference, generated from the configuration models (``exporter.config``).

Each section's table sits between ``<!-- config-reference: SECTION -->`` and ``<!-- /config-reference -->``
in README.md; a test fails when they disagree with the models. Regenerate after changing a model::

    python -m exporter.config_reference --write README.md
"""

from __future__ import annotations

import argparse
import enum
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import get_origin

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from exporter.config import file_model
from exporter.configkit import field_model, format_duration, keys_of, what_of
from exporter.web.models import unwrap

_BLOCK = re.compile(r"(<!-- config-reference: (\S+) -->\n)(.*?)(<!-- /config-reference -->)", re.DOTALL)


def _shown(info: FieldInfo) -> str:
    extra = info.json_schema_extra
    if isinstance(extra, dict) and "shown" in extra:
        return str(extra["shown"])
    if info.is_required():
        return "required"
    value = info.get_default(call_default_factory=True)
    text = _value(value, what_of(info))
    return f"`{text}`" if text != "none" else text


def _value(value: object, what: str) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, enum.Enum):
        return str(value.value)
    if isinstance(value, int | float) and what.startswith("a duration"):
        return format_duration(float(value))
    if isinstance(value, tuple | frozenset | list):
        return f"[{', '.join(sorted(map(str, value)) if isinstance(value, frozenset) else map(str, value))}]"
    return str(value)


def rows(model: type[BaseModel], prefix: str = "") -> Iterator[str]:
    """The table rows of ``model``'s keys; a key holding a section (or a list of them) is its keys."""
    for name, info in keys_of(model).items():
        inner, many = field_model(info)
        if inner is not None:
            yield from rows(inner, f"{prefix}{name}{'[]' if many else ''}.")
            continue
        what = what_of(info) or _kind(info.annotation)
        yield f"| `{prefix}{name}` | {what} | {_shown(info)} | {info.description or ''} |"


def _kind(annotation: object) -> str:
    bare = unwrap(annotation)
    return {dict: "a mapping", tuple: "a list"}.get(get_origin(bare) or bare, "")


def table(section: str) -> str:
    info = keys_of(file_model())[section]
    inner, _ = field_model(info)
    assert inner is not None, section
    return "| key | type | default | meaning |\n|---|---|---|---|\n" + "\n".join(rows(inner)) + "\n"


def render(text: str) -> str:
    """``text`` (README.md) with every reference block regenerated."""
    return _BLOCK.sub(lambda m: f"{m[1]}{table(m[2])}{m[4]}", text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Regenerate README's configuration reference from the models.",
        epilog="example: python -m exporter.config_reference --write README.md",
    )
    parser.add_argument("--write", metavar="README", type=Path, help="rewrite the file's reference blocks")
    args = parser.parse_args(argv)
    if args.write is None:
        for section in keys_of(file_model()):
            print(f"### {section}\n{table(section)}")
        return 0
    args.write.write_text(render(args.write.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
