"""Strict YAML reading shared by every configuration file (canary config, simulator fleet, exclusions).

Files are loaded safely with line numbers kept, then read into frozen pydantic models (``ConfigModel``) by
``validate``, which *collects* every problem instead of stopping at the first one. A caller finishes with
``Problems.raise_if_any()``, which raises ``ConfigError`` listing every problem as
``FILE:LINE: PATH: what is wrong (what would be right)``.

Example::

    problems = Problems("canary.yaml")
    rounds = validate(RoundsConfig, load_yaml(text, problems), problems, at=("rounds",))
    problems.raise_if_any()
"""

from __future__ import annotations

import enum
import math
import os
import re
import types
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import (
    Annotated,
    Any,
    ClassVar,
    Self,
    TypeGuard,
    TypeVar,
    Union,
    get_args,
    get_origin,
)

import yaml
from pydantic import (
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    GetCoreSchemaHandler,
    ModelWrapValidatorHandler,
    PlainValidator,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic.config import JsonDict
from pydantic.fields import FieldInfo
from pydantic_core import (
    CoreSchema,
    ErrorDetails,
    InitErrorDetails,
    PydanticCustomError,
    PydanticUndefined,
    core_schema,
)

from exporter.textkit import control_problem
from exporter.web.hostport import parse_host_port
from exporter.web.models import json_path, unwrap


class _Missing(enum.Enum):
    MISSING = enum.auto()  # no node at a location of the file


_MISSING = _Missing.MISSING
M = TypeVar("M", bound=BaseModel)
T = TypeVar("T")


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


class _Map(dict[str, object]):
    """A mapping that remembers the line of itself and of each key."""

    line: int = 0
    key_lines: dict[str, int]


class _Seq(list[object]):
    line: int = 0
    item_lines: list[int]


class _LineLoader(yaml.SafeLoader):
    """SafeLoader that keeps line numbers and rejects duplicate keys."""


def _construct_map(loader: _LineLoader, node: yaml.MappingNode) -> _Map:
    result = _Map()
    result.line = node.start_mark.line + 1
    result.key_lines = {}
    for key_node, value_node in node.value:
        key = str(loader.construct_object(key_node, deep=True))
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


def keep_keys(data: object, dropped: frozenset[str]) -> object:
    """A parsed mapping without the top-level keys ``dropped`` (lines kept); anything else as it is."""
    if not isinstance(data, _Map) or not dropped & set(data):
        return data
    kept = _Map((k, v) for k, v in data.items() if k not in dropped)
    kept.line, kept.key_lines = data.line, data.key_lines
    return kept


def load_yaml(text: str, problems: Problems) -> object:
    """Parse YAML safely; a syntax error becomes a located problem and ``None`` is returned."""
    try:
        return yaml.load(text, Loader=_LineLoader)  # noqa: S506 - _LineLoader is a SafeLoader
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        line = mark.line + 1 if mark is not None else None
        problems.add(line, "", f"invalid YAML: {exc.problem or exc}")
    except yaml.YAMLError as exc:
        problems.add(None, "", f"invalid YAML: {exc}")
    return None


def load_file(path: str | Path, problems: Problems) -> object:
    """The parsed YAML of ``path``; an unreadable file is a problem (and None)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.add(None, "", f"cannot read file: {exc}")
        return None
    return load_yaml(text, problems)


_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$")
_UNIT_SECONDS = {"ms": 0.001, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0, None: 1.0}


def parse_duration(value: object) -> float:
    """Seconds from a number or a string like ``250ms``, ``10s``, ``30m``, ``1d``. Raises ValueError."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        seconds = float(value)
    elif isinstance(value, str) and (m := _DURATION.match(value)):
        seconds = float(m.group(1)) * _UNIT_SECONDS[m.group(2)]
    else:
        raise ValueError("expected a duration such as 10s, 30m or 1d")
    if not math.isfinite(seconds) or seconds < 0:
        raise ValueError("expected a non-negative duration")
    return seconds


def format_duration(seconds: float) -> str:
    """``seconds`` as ``parse_duration`` reads it, in the largest unit that holds it whole.

    >>> format_duration(3 * 86400.0), format_duration(90.0), format_duration(0.25), format_duration(0.0001)
    ('3d', '90s', '250ms', '0.0001s')
    """
    for unit in ("d", "h", "m", "s", "ms"):
        if seconds >= _UNIT_SECONDS[unit] and (seconds / _UNIT_SECONDS[unit]).is_integer():
            return f"{seconds / _UNIT_SECONDS[unit]:g}{unit}"
    return f"{seconds:g}s"


class Secret:
    """A secret read from an environment variable or a file. Its value is reachable only as ``.value``: repr,
    str and every pydantic dump (``model_dump``, ``model_dump_json``) show ``***``, and it holds no
    ``__dict__`` or dataclass fields for a generic walk (``vars``, ``dataclasses.asdict``) to copy it out."""

    __slots__ = ("_value", "source")

    def __init__(self, source: str, value: str) -> None:
        self.source = source  # "env:NAME" or "file:PATH"
        self._value = value

    @property
    def value(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return f"Secret({self.source}, ***)"

    __str__ = __repr__

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Secret) and (self.source, self._value) == (other.source, other._value)

    def __hash__(self) -> int:
        return hash((self.source, self._value))

    @classmethod
    def __get_pydantic_core_schema__(cls, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        return core_schema.is_instance_schema(
            cls, serialization=core_schema.plain_serializer_function_ser_schema(lambda _: "***")
        )


def generatable_secrets(data: object) -> list[tuple[tuple[str | int, ...], str]]:
    """Where ``data`` (a parsed file) has a ``{env: NAME, generate: true}`` secret, and its ``NAME``, in
    file order.

    >>> generatable_secrets({"receiver": {"webhook_token": {"env": "HOOK", "generate": True}}})
    [(('receiver', 'webhook_token'), 'HOOK')]
    """
    found: list[tuple[tuple[str | int, ...], str]] = []
    stack: list[tuple[tuple[str | int, ...], object]] = [((), data)]
    while stack:  # a stack, not recursion: a parsed file may nest deeply
        loc, item = stack.pop()
        if isinstance(item, dict):
            if item.get("generate") is True and isinstance(name := item.get("env"), str):
                found.append((loc, name))
            stack.extend(reversed([((*loc, k), v) for k, v in item.items()]))
        elif isinstance(item, list):
            stack.extend(reversed([((*loc, i), v) for i, v in enumerate(item)]))
    return found


# -- typed models ------------------------------------------------------------------------------------------
# Every configuration key and default is a field of a ``ConfigModel``; ``validate`` reads a parsed file into
# one and reports pydantic's errors in this module's words, each at the line of its YAML node.


@dataclass(frozen=True, slots=True)
class What:
    """What a valid value looks like (``Annotated`` metadata): named when a required key is missing, in the
    configuration reference's type column and, with ``test``, in the problem of a value that fails it."""

    text: str
    test: Callable[[object], bool] | None = None

    def check(self, value: object) -> object:
        if self.test is not None and not self.test(value):
            raise invalid(f"expected {self.text} (got {value!r})")
        return value

    def __get_pydantic_core_schema__(self, source: object, handler: GetCoreSchemaHandler) -> CoreSchema:
        schema = handler(source)
        return core_schema.no_info_before_validator_function(self.check, schema) if self.test else schema


@dataclass(frozen=True, slots=True)
class ReadContext:
    """What validators may use beyond the value: where relative paths start, the environment for secrets,
    whether this is check-config (an unset generated secret is a placeholder there, and a note) and the
    parsed file (for locations)."""

    source: str
    base_dir: Path | None = None
    environ: Mapping[str, str] = field(default_factory=lambda: os.environ)
    checking: bool = False
    data: object = None
    others: list[str] = field(default_factory=list)  # problems found in files this one names

    def present(self, loc: tuple[str | int, ...]) -> bool:
        """Whether the file has a node at ``loc``."""
        return _locate(self.data, loc)[1] is not _MISSING

    def where(self, loc: tuple[str | int, ...]) -> str:
        """``FILE:LINE`` of the node at ``loc`` (``FILE`` for a mapping not read from a file)."""
        line = _locate(self.data, loc)[0]
        return f"{self.source}:{line}" if line else self.source


def context_of(info: ValidationInfo) -> ReadContext:
    context = info.context
    return context if isinstance(context, ReadContext) else ReadContext("<config>")


def invalid(message: str, *at: str | int) -> PydanticCustomError:
    """A problem for a validator to raise, worded as the user reads it; ``at`` locates it below the value."""
    return PydanticCustomError("config", "{message}", {"message": message, "problems": [(at, message)]})


def invalid_all(problems: Iterable[tuple[tuple[str | int, ...], str]]) -> PydanticCustomError:
    """Several problems at once (each ``(at, message)``, ``at`` relative to the value validated)."""
    listed = list(problems)
    return PydanticCustomError(
        "config", "{message}", {"message": "; ".join(m for _, m in listed), "problems": listed}
    )


def unique(*names: str, message: str) -> WrapValidator:
    """A list whose items differ in their ``names`` keys: each repeat is a problem at it (at its key when
    there is one name), ``message`` formatted with the values and ``first``, the index of the first such
    item. It is reported beside the items' own problems.

    >>> Ids = Annotated[tuple[dict[str, str], ...], unique("id", message="{0} is declared twice")]
    """

    def check(items: object, handler: ValidatorFunctionWrapHandler) -> object:
        keys = [
            tuple(item.get(n) for n in names) if isinstance(item, dict) else ()
            for item in (items if isinstance(items, list) else ())
        ]
        repeats = [
            ((i, *names[:1]) if len(names) == 1 else (i,), message.format(*k, first=keys.index(k)))
            for i, k in enumerate(keys)
            if k and all(isinstance(v, str) for v in k) and keys.index(k) < i
        ]
        try:
            result = handler(items)
        except ValidationError as exc:
            if not repeats:
                raise
            again = [_again(error) for error in exc.errors(include_url=False)]
            found: InitErrorDetails = {"type": invalid_all(repeats), "loc": (), "input": items}
            raise ValidationError.from_exception_data(exc.title, [*again, found]) from None
        if repeats:
            raise invalid_all(repeats)
        return result

    return WrapValidator(check)


def _again(error: ErrorDetails) -> InitErrorDetails:
    """``error`` as pydantic takes it to raise it again (a problem of this module's kind included)."""
    ctx = error.get("ctx", {})
    kind = error["type"]
    again = PydanticCustomError(kind, "{message}", ctx) if kind.startswith("config") else kind
    return {"type": again, "loc": error["loc"], "input": error["input"], "ctx": ctx}


class ConfigModel(BaseModel):
    """A section of a configuration file: frozen, unknown keys rejected, a ``null`` value means the default.
    Files are read by alias only (the key users write); code may construct by field name."""

    model_config = ConfigDict(
        frozen=True,
        extra="forbid",
        validate_by_name=True,
        validate_by_alias=True,
        arbitrary_types_allowed=True,
    )

    #: Fields code sets but a file may not (e.g. what another file holds); not keys of the section.
    internal: ClassVar[frozenset[str]] = frozenset()

    def __deepcopy__(self, memo: dict[int, object] | None = None) -> Self:
        """Itself: a frozen value needs no copy (pydantic deep-copies a model default per instance)."""
        return self

    @model_validator(mode="wrap")
    @classmethod
    def _read(cls, data: object, handler: ModelWrapValidatorHandler[Self], info: ValidationInfo) -> Self:
        """A ``null`` value is the default and a file may not set an internal field; a key missing from or
        unknown to this section is worded here, where its keys are known (deeper problems already are)."""
        if isinstance(data, dict):
            if isinstance(info.context, ReadContext) and (internal := cls.internal & set(data)):
                raise invalid_all(((k,), _unknown_key(cls)) for k in sorted(internal))
            data = {k: v for k, v in data.items() if v is not None}
        try:
            return handler(data)
        except ValidationError as exc:
            errors = [_worded(cls, error) for error in exc.errors(include_url=False)]
            raise ValidationError.from_exception_data(exc.title, errors) from None


def _unknown_key(model: type[BaseModel]) -> str:
    return f"unknown key (known keys here: {', '.join(sorted(keys_of(model)))})"


def _worded(model: type[BaseModel], error: ErrorDetails) -> InitErrorDetails:
    """``error`` (of validating ``model``) to raise again, at the key as files spell it (pydantic names a
    default's field); a key ``model`` lacks or does not know, worded."""
    loc = tuple(error["loc"])
    if len(loc) == 1 and error["type"] == "extra_forbidden":
        return {"type": invalid(_unknown_key(model)), "loc": loc, "input": error["input"]}
    if loc and (info := model.model_fields.get(str(loc[0]))) is not None:
        loc = (_key(str(loc[0]), info), *loc[1:])
    if len(loc) == 1 and error["type"] == "missing":
        info = keys_of(model).get(str(loc[0]))
        what = what_of(info) if info is not None else ""
        message = f"required key is missing ({what})" if what else "required key is missing"
        return {"type": invalid(message), "loc": loc, "input": error["input"]}
    return {**_again(error), "loc": loc}


def host_port(example: str, *, allow_any_port: bool = True, text: bool = False) -> BeforeValidator:
    """``HOST:PORT`` (``example`` shows one) read into ``(host, port)``, or kept as it is with ``text``."""

    def check(value: object) -> object:
        if isinstance(value, tuple):
            return value
        try:
            parsed = parse_host_port(value, allow_any_port=allow_any_port)
            return value if text else parsed
        except ValueError:
            raise invalid(f"expected HOST:PORT such as {example} (got {value!r})") from None

    return BeforeValidator(check)


class Listening(ConfigModel):
    """A section with a ``listen: HOST:PORT`` key (subclasses give its default)."""

    listen: tuple[str, int]

    @property
    def host(self) -> str:
        return self.listen[0]

    @property
    def port(self) -> int:
        return self.listen[1]


def key(
    default: object = PydanticUndefined, meaning: str = "", *, shown: str | None = None, **field: Any
) -> Any:
    """A configuration key: its default, what it means and how the reference shows the default; ``field``
    are pydantic ``Field``'s other arguments (``alias``, ``ge``, ``default_factory``...). Typed ``Any`` as
    ``Field`` is: what it returns stands for any field's value."""
    extra: JsonDict | None = {"shown": shown} if shown is not None else None
    return Field(default, description=meaning, json_schema_extra=extra, **field)


def matching(pattern: re.Pattern[str], what: str) -> What:
    """A string matching ``pattern`` in full; ``what`` says what that looks like."""
    return What(what, lambda v: is_text(v) and pattern.fullmatch(str(v)) is not None)


def choice(choices: type[enum.Enum] | tuple[str, ...]) -> BeforeValidator:
    """One of ``choices`` (strings, or an enum's values)."""
    names = tuple(str(c.value) for c in choices) if isinstance(choices, type) else choices

    def check(value: object) -> object:
        if isinstance(choices, type) and isinstance(value, choices):
            return value
        if not isinstance(value, str) or value not in names:
            raise invalid(f"expected one of {', '.join(names)} (got {value!r})")
        return choices(value) if isinstance(choices, type) else value

    return BeforeValidator(check)


def relative_path(what: str, *, resolve: bool = False) -> BeforeValidator:
    """A file path; a relative one is relative to the configuration file's directory."""

    def check(value: object, info: ValidationInfo) -> Path:
        if not isinstance(value, Path | str) or not str(value).strip():
            raise invalid(f"expected {what} (got {value!r})")
        base_dir = context_of(info).base_dir
        if base_dir is None or Path(value).is_absolute():
            return Path(value)
        return (base_dir / value).resolve() if resolve else base_dir / value

    return BeforeValidator(check)


def is_text(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and bool(value.strip())


def is_number(value: object) -> TypeGuard[float]:
    """An int or float (never a bool), finite."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


_TEXT = What("a non-empty string", is_text)
# A list in a file; a tuple or a frozenset as code passes a StrList or a StrSet.
STRINGS = What(
    "a list of non-empty strings", lambda v: isinstance(v, list | tuple | frozenset) and all(map(is_text, v))
)


def seconds(value: object) -> float:
    """``parse_duration`` for a validator: a bad value is a problem saying what a duration looks like."""
    try:
        return parse_duration(value)
    except ValueError as exc:
        raise invalid(f"{exc} (got {value!r})") from None


class SecretKeys(ConfigModel):
    """How a file names a secret: ``{env: NAME}`` or ``{file: PATH}``; ``generate: true`` lets a local run
    generate an unset environment variable."""

    env: Text | None = None
    file: Text | None = None
    generate: Bool = False


def _inline(value: object) -> Secret:
    if not isinstance(value, Secret):
        raise invalid("a secret must be {env: NAME} or {file: PATH}; it is never written inline")
    return value


def resolve_secret(value: object, info: ValidationInfo) -> object:
    """The secret a ``{env: NAME}`` or ``{file: PATH}`` mapping names (``PydanticCustomError`` saying what is
    wrong); a value that is not a mapping is left to ``_inline``."""
    if not isinstance(value, dict):
        return value
    keys = SecretKeys.model_validate(value, context=info.context, by_alias=True, by_name=False)
    context = context_of(info)
    env_name, file_path, generate = keys.env, keys.file, keys.generate
    if (env_name is None) == (file_path is None):
        raise invalid("give exactly one of env: NAME or file: PATH (secrets are never written inline)")
    if generate and env_name is None:
        raise invalid("generate: true applies to {env: NAME} secrets only")
    if isinstance(env_name, str):
        found = context.environ.get(env_name, "").strip()
        if found:
            return Secret(f"env:{env_name}", found)
        if generate and context.checking:  # noted by ``validate``
            return Secret(f"env:{env_name}", "")
        if generate:
            raise invalid(
                f"environment variable {env_name} is not set or empty (generate: true makes only a local "
                "run, canary demo --config or scripts/run, generate it)"
            )
        raise invalid(f"environment variable {env_name} is not set or empty")
    secret_path = Path(str(file_path))
    if not secret_path.is_absolute() and context.base_dir is not None:
        secret_path = context.base_dir / secret_path
    try:
        text = secret_path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise invalid(f"cannot read secret file {secret_path}: {exc.strerror}") from None
    if not text:
        raise invalid(f"secret file {secret_path} is empty")
    return Secret(f"file:{file_path}", text)


Text = Annotated[str, _TEXT]
#: A name or reason that is logged and served (a model, a provider tag, a reason): no control characters.
Label = Annotated[
    str,
    What(
        "a non-empty string without control characters (newlines, tabs, bidi overrides)",
        lambda v: is_text(v) and control_problem(v) is None,
    ),
]
Int = Annotated[int, What("a whole number", lambda v: isinstance(v, int) and not isinstance(v, bool))]
Number = Annotated[float, What("a number", is_number)]
Bool = Annotated[bool, What("true or false", lambda v: isinstance(v, bool))]
Duration = Annotated[float, BeforeValidator(seconds), What("a duration such as 10s, 30m or 1d")]
StrList = Annotated[tuple[str, ...], STRINGS, What("a list of strings")]
StrSet = Annotated[frozenset[str], STRINGS, What("a list of strings")]
_URL = re.compile(r"https?://[^\s/?#\[\]]+(?::\d+)?(?:/\S*)?|https?://\[[0-9a-fA-F:]+\](?::\d+)?(?:/\S*)?")
_URL_WHAT = "an http(s) URL such as https://openrouter.ai/api/v1"


def _no_trailing_slash(value: object) -> object:
    return value.rstrip("/") if isinstance(value, str) and _URL.fullmatch(value) else value


Url = Annotated[str, BeforeValidator(_no_trailing_slash), matching(_URL, _URL_WHAT)]
# A ``Url`` whose problem shows the exporter's own kind of example (the outermost check runs first).
ExternalUrl = Annotated[Url, matching(_URL, "an http(s) URL such as http://canary:9464"), What(_URL_WHAT)]
SecretValue = Annotated[
    Secret,
    PlainValidator(_inline),
    BeforeValidator(resolve_secret),
    What("a secret given as {env: NAME} or {file: PATH}"),
]


def validate(
    model: type[M],
    data: object,
    problems: Problems,
    *,
    base_dir: Path | None = None,
    environ: Mapping[str, str] | None = None,
    at: tuple[str, ...] = (),
) -> M | None:
    """Read parsed YAML ``data`` (the section at ``at`` of it, which must be there) into ``model``; every
    problem is added to ``problems`` (located, worded for people) and None returned. Under check-config an
    unset generated secret is a note (and a placeholder), so the rest is still checked and summarised."""
    line, node = _locate(data, at)
    if node is _MISSING or (at and node is None):
        problems.add(line, _path(at), "required section is missing")
        return None
    environ = os.environ if environ is None else environ
    context = ReadContext(problems.source, base_dir, environ, problems.checking, data=data)
    value: M | None = None
    try:
        value = model.model_validate(node, context=context, by_alias=True, by_name=False)
    except ValidationError as exc:
        for error in exc.errors(include_url=False):
            loc = tuple(error["loc"])
            for where, message in _messages(_locate(data, at + loc)[1], loc, error):
                problems.add(_locate(data, at + where)[0], _path(at + where), message)
    problems.items.extend(context.others)
    for loc, name in generatable_secrets(node) if problems.checking else ():
        if not environ.get(name, "").strip():
            problems.note(
                _locate(data, at + loc)[0],
                _path(at + loc),
                f"environment variable {name} is not set: a local run (canary demo --config, scripts/run) "
                "generates one; a standalone component needs it set",
            )
    return value


_WORDING = {  # pydantic's error types, in this module's words (``got``: the file's value, if any)
    "greater_than_equal": "must be at least {ge:g}{got}",
    "greater_than": "must be more than {gt:g}{got}",
    "less_than_equal": "must be at most {le:g}{got}",
    "literal_error": "expected one of {choices}{got}",
    "model_type": "expected a mapping, got {kind}",
    "dict_type": "expected a mapping, got {kind}",
    "model_attributes_type": "expected a mapping, got {kind}",
    "tuple_type": "expected a list, got {kind}",
    "list_type": "expected a list, got {kind}",
}


def _messages(
    raw: object, loc: tuple[str | int, ...], error: ErrorDetails
) -> list[tuple[tuple[str | int, ...], str]]:
    """What ``error`` (at ``loc``, of the file's value ``raw``) says to people, and where."""
    ctx = error.get("ctx", {})
    if error["type"] == "config":
        return [(loc + tuple(at), message) for at, message in ctx["problems"]]
    fills = {
        **ctx,
        "got": f" (got {raw!r})" if raw is not _MISSING else "",
        "kind": _kind(raw),
        "choices": ", ".join(re.findall(r"'([^']*)'", str(ctx.get("expected", "")))),
        "msg": error["msg"],
    }
    return [(loc, _WORDING.get(error["type"], "{msg}{got}").format_map(fills))]


def _locate(data: object, loc: tuple[str | int, ...]) -> tuple[int | None, object]:
    """The line of the node at ``loc`` (or of its nearest ancestor in the file) and its raw value."""
    line, node = getattr(data, "line", None), data  # a mapping not read from a file has no lines
    for part in loc:
        if isinstance(node, dict) and part in node:
            line, node = getattr(node, "key_lines", {}).get(part, line), node[part]
        elif isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
            lines = getattr(node, "item_lines", [])
            line, node = lines[part] if part < len(lines) else line, node[part]
        else:
            return line, _MISSING
    return line, node


def _path(loc: tuple[str | int, ...]) -> str:
    return json_path(loc) if loc else ""  # the top of a file is "<top>" (``Problems``), not "<body>"


def _key(name: str, info: FieldInfo) -> str:
    alias = info.validation_alias
    return alias if isinstance(alias, str) else info.alias or name


def keys_of(model: type[BaseModel]) -> dict[str, FieldInfo]:
    """A section's keys as files spell them, in order, with their fields (``internal`` ones are not keys)."""
    internal: frozenset[str] = getattr(model, "internal", frozenset())
    return {_key(name, info): info for name, info in model.model_fields.items() if name not in internal}


def field_model(info: FieldInfo) -> tuple[type[BaseModel] | None, bool]:
    """The section a key holds, if any, and whether it holds a list of them (a key with its own wording,
    such as a secret, holds a value)."""
    if what_of(info):
        return None, False
    annotation = unwrap(info.annotation)
    many = get_origin(annotation) is tuple
    inner = unwrap(get_args(annotation)[0]) if many else annotation
    return (inner if isinstance(inner, type) and issubclass(inner, BaseModel) else None), many


def what_of(info: FieldInfo) -> str:
    """What a valid value of the field looks like (its innermost ``What``), or ``""``."""
    found = [item.text for item in (*_metadata(info.annotation), *info.metadata) if isinstance(item, What)]
    return found[-1] if found else ""


def _metadata(annotation: object) -> list[object]:
    """The ``Annotated`` metadata of ``annotation``, also inside ``X | None``."""
    if get_origin(annotation) is Annotated:
        return [*_metadata(get_args(annotation)[0]), *get_args(annotation)[1:]]
    if get_origin(annotation) in (Union, types.UnionType):
        return [m for a in get_args(annotation) for m in _metadata(a)]
    return []


def _kind(value: object) -> str:
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a mapping"
    if value is None:
        return "nothing"
    return f"{type(value).__name__} {value!r}"
