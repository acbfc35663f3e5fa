"""Strict YAML reading shared by every configuration file (canary config, simulator fleet, exclusions).

Files are loaded safely with line numbers kept, then read through ``Section`` objects that convert values
to typed Python and *collect* problems instead of stopping at the first one. A caller finishes with
``Problems.raise_if_any()``, which raises ``ConfigError`` listing every problem as
``FILE:LINE: PATH: what is wrong (what would be right)``.

Example::

    problems = Problems("canary.yaml")
    root = Section.load(text, problems)
    interval = root.duration("interval", default=1800.0)
    root.finish()               # unknown keys become problems
    problems.raise_if_any()
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

_MISSING: Any = object()


class ConfigError(Exception):
    """A configuration file (or value) is invalid; ``problems`` lists every problem found."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(self.problems))


class Problems:
    """Collects located problems for one file (and, when ``checking``, notes that are not problems).

    ``checking`` is ``canary check-config``'s view: a secret marked ``generate: true`` that is not set is a
    note there (a local run generates it), while every command that starts a component needs it set.
    """

    def __init__(self, source: str, *, checking: bool = False) -> None:
        self.source = source
        self.checking = checking
        self.items: list[str] = []
        self.notes: list[str] = []

    def _where(self, line: int | None, path: str) -> str:
        return f"{self.source}:{line}: {path or '<top>'}" if line else f"{self.source}: {path or '<top>'}"

    def add(self, line: int | None, path: str, message: str) -> None:
        self.items.append(f"{self._where(line, path)}: {message}")

    def note(self, line: int | None, path: str, message: str) -> None:
        self.notes.append(f"{self._where(line, path)}: {message}")

    def raise_if_any(self) -> None:
        if self.items:
            raise ConfigError(self.items)


class _Map(dict[str, Any]):
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]


class _Seq(list[Any]):
    line: int = 0
    item_lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that keeps line numbers and rejects duplicate keys."""


def _construct_map(loader: _LineLoader, node: yaml.MappingNode) -> _Map:
    result = _Map()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if not isinstance(key, str):
            key = str(key)
        if key in result:
            raise yaml.constructor.ConstructorError(None, None, f"duplicate key {key!r}", key_node.start_mark)
        result[key] = loader.construct_object(value_node, deep=True)
        result.key_lines[key] = key_node.start_mark.line + 1
    return result


def _construct_seq(loader: _LineLoader, node: yaml.SequenceNode) -> _Seq:
    result = _Seq(loader.construct_object(child, deep=True) for child in node.value)
    result.line = node.start_mark.line + 1
    result.item_lines = [child.start_mark.line + 1 for child in node.value]
    return result


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_map)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_seq)


def load_yaml(text: str, problems: Problems) -> Any:
    """Parse YAML safely; a syntax error becomes a located problem and ``None`` is returned."""
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader derives from SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        problems.add(line, "", f"invalid YAML: {exc.problem or exc}")
    except yaml.YAMLError as exc:
        problems.add(None, "", f"invalid YAML: {exc}")
    return None


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, None: 1.0}


def parse_duration(value: object) -> float:
    """Seconds from a number or a string like ``250ms``, ``10s``, ``30m``, ``1d``. Raises ValueError."""
    if isinstance(value, bool):
        raise ValueError("expected a duration such as 10s, 30m or 1d")
    if isinstance(value, int | float):
        seconds = float(value)
    elif isinstance(value, str) and (m := _DURATION.match(value)):
        seconds = float(m.group(1)) * _UNIT_SECONDS[m.group(2)]
    else:
        raise ValueError("expected a duration such as 10s, 30m or 1d")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError("expected a non-negative duration")
    return seconds


@dataclass(frozen=True, slots=True)
class Secret:
    """A secret read from an environment variable or a file; its value never appears in repr or logs."""

    source: str  # "env:NAME" or "file:PATH"
    value: str

    def __repr__(self) -> str:
        return f"Secret({self.source}, ***)"

    __str__ = __repr__


def generatable_secrets(data: object) -> list[str]:
    """The environment variables named by ``{env: NAME, generate: true}`` secrets anywhere in ``data``
    (a parsed file), in file order, each once.

    >>> generatable_secrets({"receiver": {"webhook_token": {"env": "HOOK", "generate": True}}})
    ['HOOK']
    """
    names: list[str] = []
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            name = item.get("env")
            if item.get("generate") is True and isinstance(name, str) and name not in names:
                names.append(name)
            stack.extend(reversed(list(item.values())))
        elif isinstance(item, list):
            stack.extend(reversed(item))
    return names


class Section:
    """A mapping at a path in a file, read key by key with problems collected, not raised."""

    def __init__(
        self, data: Any, path: str, line: int, problems: Problems, base_dir: Path | None = None
    ) -> None:
        self.problems = problems
        self.base_dir = base_dir  # relative file paths in this file resolve against it
        self.path = path
        self.line = line
        self._used: set[str] = set()
        if data is None:
            data = _Map()
        if not isinstance(data, dict):
            problems.add(line, path, f"expected a mapping, got {_kind(data)}")
            data = _Map()
        self._data: dict[str, Any] = data
        self._key_lines: dict[str, int] = getattr(data, "key_lines", {})

    @classmethod
    def load(cls, text: str, problems: Problems) -> Section:
        data = load_yaml(text, problems)
        return cls(data, "", 1, problems)

    @classmethod
    def load_file(cls, path: str | Path, problems: Problems) -> Section:
        """Load ``path``; relative file paths inside it (e.g. secret files) resolve against its directory."""
        try:
            text = Path(path).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            problems.add(None, "", f"cannot read file: {exc}")
            return cls(None, "", 1, problems)
        section = cls.load(text, problems)
        section.base_dir = Path(path).resolve().parent
        return section

    # -- helpers ---------------------------------------------------------------------------------------
    def child_path(self, key: str | int) -> str:
        if isinstance(key, int):
            return f"{self.path}[{key}]"
        return f"{self.path}.{key}" if self.path else key

    def line_of(self, key: str) -> int:
        return self._key_lines.get(key, self.line)

    def problem(self, key: str, message: str) -> None:
        self.problems.add(self.line_of(key), self.child_path(key), message)

    def has(self, key: str) -> bool:
        return key in self._data

    def keys(self) -> list[str]:
        return list(self._data)

    def raw(self, key: str, default: Any = None) -> Any:
        self._used.add(key)
        return self._data.get(key, default)

    def _get(self, key: str, default: Any, convert: Callable[[Any], Any], expected: str) -> Any:
        self._used.add(key)
        if key not in self._data or self._data[key] is None:
            if default is _MISSING:
                self.problem(key, f"required key is missing ({expected})")
                return None
            return default
        try:
            return convert(self._data[key])
        except (TypeError, ValueError) as exc:
            self.problem(key, f"{exc} (got {self._data[key]!r})")
            return None if default is _MISSING else default

    # -- typed readers ---------------------------------------------------------------------------------
    def string(
        self, key: str, default: Any = _MISSING, pattern: re.Pattern[str] | None = None, what: str = ""
    ) -> Any:
        """A non-empty string; with ``pattern``, it must match in full (``what`` describes it in errors)."""
        expected = what or (f"a string matching {pattern.pattern}" if pattern else "a non-empty string")

        def convert(v: Any) -> str:
            if not isinstance(v, str) or not v.strip() or (pattern is not None and not pattern.fullmatch(v)):
                raise ValueError(f"expected {expected}")
            return v

        return self._get(key, default, convert, expected)

    def integer(
        self, key: str, default: Any = _MISSING, minimum: int | None = None, maximum: int | None = None
    ) -> Any:
        def convert(v: Any) -> int:
            if isinstance(v, bool) or not isinstance(v, int):
                raise ValueError("expected a whole number")
            _check_range(v, minimum, maximum)
            return v

        return self._get(key, default, convert, "a whole number")

    def number(
        self, key: str, default: Any = _MISSING, minimum: float | None = None, maximum: float | None = None
    ) -> Any:
        def convert(v: Any) -> float:
            if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
                raise ValueError("expected a number")
            _check_range(float(v), minimum, maximum)
            return float(v)

        return self._get(key, default, convert, "a number")

    def boolean(self, key: str, default: Any = _MISSING) -> Any:
        def convert(v: Any) -> bool:
            if not isinstance(v, bool):
                raise ValueError("expected true or false")
            return v

        return self._get(key, default, convert, "true or false")

    def duration(self, key: str, default: Any = _MISSING, minimum: float | None = None) -> Any:
        def convert(v: Any) -> float:
            seconds = parse_duration(v)
            _check_range(seconds, minimum, None)
            return seconds

        return self._get(key, default, convert, "a duration such as 10s, 30m or 1d")

    def choice(self, key: str, choices: tuple[str, ...] | list[str], default: Any = _MISSING) -> Any:
        def convert(v: Any) -> str:
            if v not in choices:
                raise ValueError(f"expected one of {', '.join(choices)}")
            return str(v)

        return self._get(key, default, convert, f"one of {', '.join(choices)}")

    def str_list(self, key: str, default: Any = _MISSING) -> Any:
        def convert(v: Any) -> list[str]:
            if not isinstance(v, list) or not all(isinstance(i, str) and i.strip() for i in v):
                raise ValueError("expected a list of non-empty strings")
            return list(v)

        return self._get(key, default, convert, "a list of strings")

    def secret(
        self, key: str, required: bool = False, environ: dict[str, str] | None = None
    ) -> Secret | None:
        """Read ``{env: NAME}`` or ``{file: PATH}``; literal strings are rejected: no secrets in files."""
        self._used.add(key)
        if key not in self._data or self._data[key] is None:
            if required:
                self.problem(key, "required key is missing (a secret given as {env: NAME} or {file: PATH})")
            return None
        if not isinstance(self._data[key], dict):
            self.problem(key, "a secret must be {env: NAME} or {file: PATH}; it is never written inline")
            return None
        sub = self.section(key)
        env_name = sub.string("env", default=None)
        file_path = sub.string("file", default=None)
        generate = sub.boolean("generate", default=False)
        sub.finish()
        if (env_name is None) == (file_path is None):
            self.problem(
                key, "give exactly one of env: NAME or file: PATH (secrets are never written inline)"
            )
            return None
        if generate and env_name is None:
            self.problem(key, "generate: true applies to {env: NAME} secrets only")
            return None
        if env_name is not None:
            value = (environ if environ is not None else os.environ).get(env_name, "")
            if not value.strip():
                if generate and self.problems.checking:
                    self.problems.note(
                        self.line_of(key),
                        self.child_path(key),
                        f"environment variable {env_name} is not set: a local run (canary demo --config, "
                        "scripts/run) generates one; a standalone component needs it set",
                    )
                elif generate:
                    self.problem(
                        key,
                        f"environment variable {env_name} is not set or empty (generate: true makes only a "
                        "local run, canary demo --config or scripts/run, generate it)",
                    )
                else:
                    self.problem(key, f"environment variable {env_name} is not set or empty")
                return None
            return Secret(f"env:{env_name}", value.strip())
        secret_path = Path(file_path)
        if not secret_path.is_absolute() and self.base_dir is not None:
            secret_path = self.base_dir / secret_path
        try:
            value = secret_path.read_text(encoding="utf-8").strip()
        except OSError as exc:
            self.problem(key, f"cannot read secret file {secret_path}: {exc.strerror}")
            return None
        if not value:
            self.problem(key, f"secret file {secret_path} is empty")
            return None
        return Secret(f"file:{file_path}", value)

    def section(self, key: str, required: bool = False) -> Section:
        self._used.add(key)
        if required and key not in self._data:
            self.problem(key, "required section is missing")
        return Section(
            self._data.get(key), self.child_path(key), self.line_of(key), self.problems, self.base_dir
        )

    def section_list(self, key: str, required: bool = False) -> list[Section]:
        self._used.add(key)
        value = self._data.get(key)
        if value is None:
            if required:
                self.problem(key, "required list is missing")
            return []
        if not isinstance(value, list):
            self.problem(key, f"expected a list, got {_kind(value)}")
            return []
        lines = getattr(value, "item_lines", [self.line_of(key)] * len(value))
        return [
            Section(item, f"{self.child_path(key)}[{i}]", lines[i], self.problems, self.base_dir)
            for i, item in enumerate(value)
        ]

    def items(self) -> Iterator[tuple[str, Any]]:
        """Iterate a free-form mapping (keys are data, not schema); marks every key used."""
        for key, value in self._data.items():
            self._used.add(key)
            yield key, value

    def finish(self) -> None:
        """Report keys that no reader asked for: a typo must not be silently ignored."""
        for key in self._data:
            if key not in self._used:
                known = sorted(self._used)
                hint = f" (known keys here: {', '.join(known)})" if known else ""
                self.problem(key, f"unknown key{hint}")


def _check_range(v: float, minimum: float | None, maximum: float | None) -> None:
    if minimum is not None and v < minimum:
        raise ValueError(f"must be at least {minimum:g}")
    if maximum is not None and v > maximum:
        raise ValueError(f"must be at most {maximum:g}")


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"
