"""Structured-output contract (design.md §5.3): a strict json_schema reply must be bare, complete, valid JSON.

Validated client-side with jsonschema: invalid JSON, schema mismatch, code-fenced JSON and truncation
(``length``) are ``fail``. Endpoints that do not advertise ``structured_outputs`` are ``skipped`` unless the
model's configuration requires the capability.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from jsonschema import Draft202012Validator
from pydantic import JsonValue

from exporter.configkit import Int, key
from exporter.contracts.base import (
    Contract,
    ContractSettings,
    ProbeContext,
    ProbeResult,
    ProbeTarget,
    judged,
    not_rejected,
    spent_on_reasoning,
    unjudgeable,
)
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason

CAPABILITY = "structured_outputs"
SCHEMA: dict[str, JsonValue] = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "minLength": 1},
        "mood": {"type": "string", "enum": ["calm", "angry", "afraid", "joyful"]},
        "hit_points": {"type": "integer", "minimum": 0, "maximum": 100},
        "items": {"type": "array", "items": {"type": "string"}, "maxItems": 3},
    },
    "required": ["name", "mood", "hit_points", "items"],
    "additionalProperties": False,
}
MESSAGES = (
    {"role": "system", "content": "You write game data for a pirate role-play. Answer with JSON only."},
    {"role": "user", "content": "Create the character sheet of the ship's cook."},
)
RESPONSE_FORMAT: dict[str, JsonValue] = {
    "type": "json_schema",
    "json_schema": {"name": "character_sheet", "strict": True, "schema": SCHEMA},
}
_VALIDATOR = Draft202012Validator(SCHEMA)


class StructuredSettings(ContractSettings):
    max_tokens: Int = key(200, "", ge=32, le=8192)

    def build(self) -> StructuredContract:
        return StructuredContract(self)


@dataclass(frozen=True, slots=True)
class StructuredContract(Contract):
    settings: StructuredSettings = field(default_factory=StructuredSettings)

    name = "structured"
    Settings = StructuredSettings

    def skip_reason(self, target: ProbeTarget) -> Reason | None:
        if target.endpoint.supports(CAPABILITY) or CAPABILITY in target.required_capabilities:
            return None
        return Reason.NOT_ADVERTISED

    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        advertised = ctx.target.endpoint.supports(CAPABILITY)
        request = ctx.request(
            MESSAGES,
            self.settings.max_tokens,
            response_format=RESPONSE_FORMAT,
            require_parameters=advertised,  # required but not advertised: send it anyway and judge the reply
        )
        result = await ctx.gateway.chat(request)
        return unjudgeable(result, ctx.target) or self.judge(result)

    def judge(self, result: ChatResult) -> ProbeResult:
        """Judge one reply (pure)."""
        return judge_json(result, _VALIDATOR)

    def weak_controls(self) -> list[str]:
        good = json.dumps({"name": "Pim", "mood": "calm", "hit_points": 40, "items": ["ladle"]})
        controls = {
            "invalid_json": ChatResult(content='{"name": "Pim", "mood": ', finish_reason="stop"),
            "fenced": ChatResult(content=f"```json\n{good}\n```", finish_reason="stop"),
            "mismatch": ChatResult(content='{"name": "Pim", "mood": "sleepy"}', finish_reason="stop"),
            "truncated": ChatResult(content=good[:20], finish_reason="length"),
        }
        return not_rejected(controls, self.judge)


def judge_json(result: ChatResult, validator: Draft202012Validator) -> ProbeResult:
    """A reply that must be bare, complete JSON valid against ``validator``'s schema (pure; the probe's
    judge, and the router's live judge for requests that asked for a ``json_schema``)."""
    text = result.content.strip()
    if (budget := spent_on_reasoning(result)) is not None:
        return budget
    if text.startswith("```"):
        return judged(Outcome.FAIL, Reason.CODE_FENCED, "JSON wrapped in a code fence", result)
    try:
        value = json.loads(text)
    except ValueError as exc:
        if result.finish_reason == "length":
            return judged(Outcome.FAIL, Reason.TRUNCATED, "reply cut by the token limit", result)
        return judged(Outcome.FAIL, Reason.INVALID_JSON, f"invalid JSON: {exc}", result)
    if result.finish_reason == "length":
        return judged(Outcome.FAIL, Reason.TRUNCATED, "finish_reason length", result)
    error = next(iter(validator.iter_errors(value)), None)
    if error is not None:
        where = "/".join(str(p) for p in error.absolute_path) or "<root>"
        return judged(Outcome.FAIL, Reason.SCHEMA_MISMATCH, f"{where}: {error.message}", result)
    return judged(Outcome.PASS, Reason.NONE, "valid against the schema", result)
