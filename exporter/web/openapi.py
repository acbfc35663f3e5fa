"""OpenAPI 3.1 documents generated from the body models: a service lists its operations in a table
(path, method, summary, token scheme, request model, parameters, responses) and ``document`` builds the
rest, every schema from the models the code validates with and sends (``models.component_schemas``).

Example::

    ops = [("/v1/x", "get", "read x", None, None, [], {200: (XBody, "the x")})]
    spec = document("Provider Canary x", "The x API.", ops, tokens={"xToken": "x.token"})
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from pydantic import BaseModel

from exporter.web.models import REF_TEMPLATE, component_schemas

Responses = dict[int, tuple[type[BaseModel] | None, str]]  # status: (body model or none, description)
#: (path, method, summary, token scheme ("name?": optional), request model, parameters, responses)
Operation = tuple[
    str, str, str, str | None, type[BaseModel] | None, Sequence[Mapping[str, object]], Responses
]


#: The conditional-GET parameter: an operation taking it answers 200 with an ``ETag`` header (304 otherwise).
IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"}}


def query(
    name: str, schema: Mapping[str, object], required: bool = False, **more: object
) -> dict[str, object]:
    """A query parameter's description."""
    return {"name": name, "in": "query", "required": required, "schema": schema, **more}


def _ref(model: type[BaseModel]) -> dict[str, object]:
    return {"application/json": {"schema": {"$ref": REF_TEMPLATE.format(model=model.__name__)}}}


def _operation(
    summary: str,
    token: str | None,
    request: type[BaseModel] | None,
    params: Sequence[object],
    answers: Responses,
) -> dict[str, object]:
    out: dict[str, object] = {"summary": summary}
    if token is not None:  # "name?": the token is optional (only when configured)
        scheme: dict[str, list[str]] = {token.rstrip("?"): []}
        out["security"] = [{}, scheme] if token.endswith("?") else [scheme]
    if params:
        out["parameters"] = list(params)
    if request is not None:
        out["requestBody"] = {"required": True, "content": _ref(request)}
    responses: dict[str, dict[str, object]] = {
        str(status): {"description": text, **({"content": _ref(model)} if model else {})}
        for status, (model, text) in sorted(answers.items())
    }
    if IF_NONE_MATCH in params:
        responses["200"]["headers"] = {"ETag": {"schema": {"type": "string"}}}
    out["responses"] = responses
    return out


def document(
    title: str, description: str, operations: list[Operation], tokens: dict[str, str]
) -> dict[str, object]:
    """The document of ``operations`` plus ``/metrics`` and ``/openapi.json``; ``tokens`` maps each
    bearer security scheme to what configures it."""
    paths: dict[str, dict[str, object]] = {}
    inputs, outputs = [], []
    for path, method, summary, token, request, params, answers in operations:
        paths.setdefault(path, {})[method] = _operation(summary, token, request, params, answers)
        inputs += [request] if request is not None else []
        outputs += [model for model, _ in answers.values() if model is not None]
    text: dict[str, object] = {"text/plain": {}}
    spec = {"application/json": {"schema": {"type": "object"}}}
    paths["/metrics"] = {"get": {"responses": {"200": {"description": "Prometheus text", "content": text}}}}
    paths["/openapi.json"] = {
        "get": {"responses": {"200": {"description": "this document", "content": spec}}}
    }
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": "1", "description": description},
        "components": {
            "securitySchemes": {
                name: {"type": "http", "scheme": "bearer", "description": what}
                for name, what in tokens.items()
            },
            "schemas": component_schemas(dict.fromkeys(inputs), dict.fromkeys(outputs)),
        },
        "paths": paths,
    }
