"""Pydantic v2 models of request and response bodies: the bases, the error translation, the schemas.

Every body a service reads or writes is one model: it validates, it is the type the code uses, and its
JSON schema goes into the OpenAPI document. Two bases: ``Body`` for bodies we define (unknown fields are
an error) and ``Wire`` for bodies others define (Alertmanager, Grafana: unknown fields are accepted and
ignored). Both are frozen and strict (no ``"1"`` taken for ``1``, no ``4`` taken for ``"4"``).

``problems`` turns a ``ValidationError`` into ``path: what is wrong`` lines (``alerts[2].labels.provider:
missing (...)``): the path is the error's ``loc`` as a JSON path, the text says what was expected and what
came; a missing field's hint is its ``description``. A validator reports several problems below its
field at once with ``several``.

Example::

    try:
        body = LiftBody.model_validate(data)
    except ValidationError as exc:
        return 400, problems(exc, LiftBody)      # ["reason: missing (a non-empty string)"]
"""

from __future__ import annotations

import types
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    JsonValue,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic.fields import FieldInfo
from pydantic.json_schema import JsonSchemaMode, models_json_schema
from pydantic_core import ErrorDetails, PydanticCustomError
from starlette.responses import JSONResponse

from exporter.web.body import Rejected

REF_TEMPLATE = "#/components/schemas/{model}"
M = TypeVar("M", bound=BaseModel)


class Body(BaseModel):
    """A body this project defines: unknown fields are refused."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)


class Wire(BaseModel):
    """A body another project defines (a webhook sender): unknown fields are accepted and ignored."""

    model_config = ConfigDict(frozen=True, extra="ignore", strict=True)


class ErrorBody(Body):
    """Every 4xx and 503: a code, a sentence, and ``path: what is wrong`` problems when there are any."""

    error: str
    message: str
    problems: list[str] = Field(default_factory=list)


def send(
    body: BaseModel,
    status_code: int = 200,
    *,
    exclude_none: bool = False,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """A response built from its model, as the OpenAPI document describes it (aliases as on the wire)."""
    content = body.model_dump(mode="json", by_alias=True, exclude_none=exclude_none)
    return JSONResponse(content, status_code=status_code, headers=headers)


def validated(model: type[M], data: object, message: str) -> M:
    """``data`` validated as ``model``, or ``Rejected`` 400 with ``message`` and every problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise Rejected(400, "bad_request", message, problems(exc, model)) from None


def explained(expected: str) -> WrapValidator:
    """A field annotation replacing the type's own error with ``<expected>, got <value>``."""

    def validate(value: object, handler: ValidatorFunctionWrapHandler) -> object:
        try:
            return handler(value)
        except ValidationError:
            raise PydanticCustomError(
                "explained", "{expected}, got {got}", {"expected": expected, "got": repr(value)}
            ) from None

    return WrapValidator(validate)


def several(found: Sequence[tuple[str, str]]) -> PydanticCustomError:
    """One error carrying several ``(subpath, what)`` problems below the validated field."""
    summary = "; ".join(f"{where}: {what}" for where, what in found)
    return PydanticCustomError("several", "{summary}", {"summary": summary, "problems": list(found)})


_EXPECTED = {
    "string_type": "a string",
    "list_type": "a list",
    "tuple_type": "a list",
    "dict_type": "an object",
    "model_type": "an object",
    "model_attributes_type": "an object",
    "dataclass_type": "an object",
    "bool_type": "true or false",
    "int_type": "an integer",
    "float_type": "a number",
}


def problems(exc: ValidationError, model: type[BaseModel]) -> list[str]:
    """Every error of ``exc`` (raised validating ``model``) as ``path: what is wrong``."""
    out: list[str] = []
    for error in exc.errors(include_url=False):
        path = json_path(error["loc"])
        ctx = error.get("ctx") or {}
        if error["type"] == "several":
            out += [f"{json_path((*error['loc'], where))}: {what}" for where, what in ctx["problems"]]
        else:
            out.append(f"{path}: {problem_of(error, model)}")
    return out


def problem_of(error: ErrorDetails, model: type[BaseModel] | None = None) -> str:
    """What one validation error says is wrong (a missing field's hint: its description in ``model``)."""
    kind_, ctx, given = error["type"], error.get("ctx") or {}, error.get("input")
    if kind_ == "missing":
        info = None if model is None else _field_at(model, error["loc"])
        hint = info.description if info is not None else None
        return f"missing ({hint})" if hint else "missing"
    if kind_ in _EXPECTED:
        return f"expected {_EXPECTED[kind_]}, got {kind(given)}"
    if kind_ == "literal_error":
        return f"expected {ctx['expected']}, got {given!r}"
    if kind_ == "string_too_long":
        return f"{len(str(given))} characters, longer than {ctx['max_length']} characters"
    if kind_ == "string_too_short":
        return "expected a non-empty string"
    if kind_ == "too_long":
        return f"{ctx.get('actual_length')} entries, more than the limit of {ctx['max_length']}"
    if kind_ == "extra_forbidden":
        return "unknown field"
    return str(error["msg"])


def json_path(loc: Iterable[int | str]) -> str:
    """``("alerts", 2, "labels", "x")`` as ``alerts[2].labels.x``; ``<body>`` for the body itself.

    >>> json_path(("alerts", 2, "labels", "x")), json_path(()), json_path(("labels", "k", "[key]"))
    ('alerts[2].labels.x', '<body>', 'labels.k (a key)')
    """
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif part == "[key]":
            text += " (a key)"
        else:
            text += f".{part}" if text else str(part)
    return text or "<body>"


def _field_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> FieldInfo | None:
    """The field a ``loc`` ends at (for its description), walking models, lists and maps."""
    annotation: object = model
    info: FieldInfo | None = None
    for part in loc:
        annotation = unwrap(annotation)
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            by_alias = {f.alias or name: f for name, f in annotation.model_fields.items()}
            info = by_alias.get(str(part))
            if info is None:
                return None
            annotation = info.annotation
        else:
            args = [a for a in typing.get_args(annotation) if a is not Ellipsis]
            annotation, info = (args[-1] if args else object), None
    return info


def unwrap(annotation: Any) -> Any:
    """``annotation`` without ``Annotated`` and ``| None``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (Union, types.UnionType):
            annotation = next(a for a in typing.get_args(annotation) if a is not type(None))
        else:
            return annotation


def component_schemas(
    inputs: Iterable[type[BaseModel]] = (), outputs: Iterable[type[BaseModel]] = ()
) -> dict[str, JsonValue]:
    """JSON schemas of the bodies a service reads (``inputs``) and sends (``outputs``) and of every model
    they use, keyed by model name and referring to each other as ``#/components/schemas/<Model>``
    (OpenAPI 3.1 takes JSON Schema as it is)."""
    pairs: list[tuple[type[BaseModel], JsonSchemaMode]] = [(m, "validation") for m in inputs]
    pairs += [(m, "serialization") for m in outputs]
    _, top = models_json_schema(pairs, ref_template=REF_TEMPLATE, by_alias=True)
    return dict(top.get("$defs", {}))


def kind(value: object) -> str:
    """What a decoded JSON value is, for messages: ``a number``, ``an object``, ``null``...

    >>> kind(None), kind(True), kind(1.5), kind([])
    ('null', 'a boolean', 'a number', 'a list')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    for types_, name in ((str, "a string"), (list, "a list"), (dict, "an object")):
        if isinstance(value, types_):
            return name
    return type(value).__name__
