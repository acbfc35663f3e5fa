"""Reply generation: the request kind is recognised, replies look real, faults break them as configured."""

from __future__ import annotations

import json
import random
from typing import Any

import jsonschema
import pytest

from exporter.devtools.simulator.locales import LOCALES, Texts
from exporter.devtools.simulator.profiles import Kind, Plan
from exporter.devtools.simulator.replies import (
    REFUSAL_TEXT_ZH,
    compose,
    corrupt_encoding,
    estimate_tokens,
    schema_instance,
    schema_mismatch,
    thinking,
    understand,
)
from exporter.language.locales import LOCALES as CANARY_LOCALES

from .conftest import sentences_of

TEXTS = Texts.load()
CLEAN = Plan(ttft=0.0, inter_token=0.0)
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "character": {"type": "string", "minLength": 3},
        "mood": {"type": "string", "enum": ["calm", "angry", "amused"]},
        "health": {"type": "integer", "minimum": 1, "maximum": 10},
        "gold": {"type": "number"},
        "armed": {"type": "boolean"},
        "items": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 4},
        "stats": {
            "type": "object",
            "properties": {"speed": {"type": "integer"}},
            "required": ["speed"],
            "additionalProperties": False,
        },
        "note": {"type": ["string", "null"]},
    },
    "required": ["character", "mood", "health", "gold", "armed", "items", "stats", "note"],
    "additionalProperties": False,
}


def structured_body(schema: dict[str, Any] = SCHEMA) -> dict[str, Any]:
    return {
        "messages": [{"role": "user", "content": "Describe the captain."}],
        "response_format": {
            "type": "json_schema",
            "json_schema": {"name": "c", "strict": True, "schema": schema},
        },
    }


def language_body(locale: str) -> dict[str, Any]:
    """A role-play request written in ``locale`` (the canary's own prompt): nothing else names the locale."""
    return {"messages": list(CANARY_LOCALES[locale].prompts[0].messages())}


def test_the_kind_is_read_from_the_request() -> None:
    assert understand(structured_body(), structured_outputs=True).kind is Kind.STRUCTURED
    dropped = understand(structured_body(), structured_outputs=False)  # param dropped: English prose
    assert (dropped.kind, dropped.locale) == (Kind.LANGUAGE, "en")
    assert understand(language_body("zh-Hant"), True).locale == "zh-Hant"
    assert understand({"messages": [{"role": "user", "content": "1 2 3 ?"}]}, True).kind is Kind.ROLEPLAY
    parts = {
        "role": "system",
        "content": [{"type": "text", "text": "당신은 선장입니다. 이야기를 계속하세요."}],
    }
    assert understand({"messages": [parts]}, True).locale == "ko"
    marker = {"role": "system", "content": "You are Ana, an innkeeper. Stay in character.\nLanguage: fr"}
    assert understand({"messages": [marker]}, True).locale == "en"  # a marker is not the prompt's language


@pytest.mark.parametrize("code", sorted(CANARY_LOCALES))
def test_every_locale_of_the_canary_is_recognised_from_its_prompts_alone(code: str) -> None:
    for prompt in CANARY_LOCALES[code].prompts:
        understood = understand({"messages": list(prompt.messages())}, True)
        assert (understood.kind, understood.locale) == (Kind.LANGUAGE, code)


@pytest.mark.parametrize("seed", range(20))
def test_structured_replies_are_valid_for_the_schema(seed: int) -> None:
    reply = compose(understand(structured_body(), True), CLEAN, TEXTS, random.Random(seed), 2000)
    jsonschema.validate(json.loads(reply.content), SCHEMA)
    assert reply.finish_reason == "stop"


@pytest.mark.parametrize("seed", range(20))
def test_schema_faults_are_each_judged_broken(seed: int) -> None:
    request = understand(structured_body(), True)
    rng = random.Random(seed)
    mismatch = compose(request, Plan(0, 0, schema_fault="mismatch"), TEXTS, rng, 2000)
    assert not jsonschema.Draft7Validator(SCHEMA).is_valid(json.loads(mismatch.content))
    invalid = compose(request, Plan(0, 0, schema_fault="invalid_json"), TEXTS, rng, 2000)
    with pytest.raises(ValueError):
        json.loads(invalid.content)
    fenced = compose(request, Plan(0, 0, schema_fault="code_fenced"), TEXTS, rng, 2000)
    assert fenced.content.startswith("```json\n") and fenced.content.endswith("\n```")
    jsonschema.validate(json.loads(fenced.content[8:-4]), SCHEMA)
    truncated = compose(request, Plan(0, 0, schema_fault="truncated"), TEXTS, rng, 2000)
    assert truncated.finish_reason == "length"
    with pytest.raises(ValueError):
        json.loads(truncated.content)


def test_mismatch_of_small_schemas_still_mismatches() -> None:
    for schema in (
        {"type": "object", "properties": {}, "additionalProperties": False},
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "string"},
    ):
        rng = random.Random(1)
        assert not jsonschema.Draft7Validator(schema).is_valid(
            schema_mismatch(schema, schema_instance(schema, rng), rng)
        )


def test_a_schema_bound_that_is_not_a_number_is_ignored() -> None:
    """A product may send any JSON as a schema: a bound of the wrong type falls back to the default."""
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "maxLength": "5"}, "minItems": "2"},
            "n": {"type": "integer", "minimum": "1", "maximum": [3]},
        },
        "required": "tags",
    }
    instance = schema_instance(schema, random.Random(1))
    assert isinstance(instance, dict)
    assert isinstance(instance["tags"], list) and isinstance(instance["n"], int)
    assert schema_mismatch(schema, instance, random.Random(1)) != instance


@pytest.mark.parametrize("locale", LOCALES)
def test_language_replies_are_three_to_six_sentences_of_that_locale(locale: str) -> None:
    for seed in range(5):
        reply = compose(understand(language_body(locale), True), CLEAN, TEXTS, random.Random(seed), 1000)
        sentences = sentences_of(reply.content)
        assert 3 <= len(sentences) <= 6
        assert set(sentences) <= set(TEXTS.for_locale(locale))
        dense = locale in ("ja", "ko", "zh-Hans", "zh-Hant")
        assert (120 if dense else 300) <= len(reply.content) <= 800


def test_mixing_swaps_about_forty_percent_of_whole_sentences_for_the_partner_language() -> None:
    plan = Plan(0, 0, mix_with="es", mix_fraction=0.4)
    for seed in range(10):
        reply = compose(understand(language_body("pt-BR"), True), plan, TEXTS, random.Random(seed), 1000)
        sentences = sentences_of(reply.content)
        spanish = [s for s in sentences if s in TEXTS.for_locale("es")]
        portuguese = [s for s in sentences if s in TEXTS.for_locale("pt-BR")]
        assert len(spanish) + len(portuguese) == len(sentences)
        assert len(spanish) == min(len(sentences) - 1, max(1, round(len(sentences) * 0.4)))


def test_drift_answers_wholly_in_the_other_language() -> None:
    reply = compose(
        understand(language_body("fr"), True), Plan(0, 0, drift_to="en"), TEXTS, random.Random(2), 1000
    )
    assert set(sentences_of(reply.content)) <= set(TEXTS.for_locale("en"))


def test_leading_garbage_precedes_the_first_word() -> None:
    for locale in ("en", "ru", "ja", "ko"):
        clean = compose(understand(language_body(locale), True), CLEAN, TEXTS, random.Random(4), 1000).content
        dirty = compose(
            understand(language_body(locale), True),
            Plan(0, 0, leading_garbage=True),
            TEXTS,
            random.Random(4),
            1000,
        )
        assert dirty.content.endswith(clean) and len(dirty.content) > len(clean)
        assert not dirty.content[0].isspace()


def test_encoding_corruption_kinds() -> None:
    assert corrupt_encoding("ação", "mojibake", random.Random(0)) == "aÃ§Ã£o"
    assert corrupt_encoding("привет", "mojibake", random.Random(0), codec="cp1251") == "РїСЂРёРІРµС‚"
    ascii_only = corrupt_encoding("Hello, captain.", "mojibake", random.Random(0))
    assert ascii_only != "Hello, captain." and "â€" in ascii_only
    assert "\ufffd" in corrupt_encoding("The storm rose.", "replacement", random.Random(0))
    controlled = corrupt_encoding("The storm rose.", "control", random.Random(0))
    assert any(ord(ch) < 32 or ord(ch) == 127 for ch in controlled)


def test_refusal_styles() -> None:
    request = understand({"messages": [{"role": "user", "content": "The duel begins."}]}, True)
    filtered = compose(request, Plan(0, 0, refusal="content_filter"), TEXTS, random.Random(0), 100)
    assert (filtered.content, filtered.finish_reason) == ("", "content_filter")
    empty = compose(request, Plan(0, 0, refusal="empty"), TEXTS, random.Random(0), 100)
    assert (empty.content, empty.finish_reason) == ("", "stop")
    assert (
        compose(request, Plan(0, 0, refusal="text_zh"), TEXTS, random.Random(0), 100).content
        == REFUSAL_TEXT_ZH
    )


def test_max_tokens_truncates_with_length_and_counts_reasoning() -> None:
    request = understand(language_body("en"), True)
    reply = compose(request, CLEAN, TEXTS, random.Random(0), 10)
    assert reply.finish_reason == "length" and estimate_tokens(reply.content) <= 10
    thought = thinking(True, {}, "en")
    reasoned = compose(request, CLEAN, TEXTS, random.Random(0), 1000, thought)
    assert reasoned.reasoning and reasoned.reasoning_tokens == estimate_tokens(reasoned.reasoning)
    assert reasoned.completion_tokens == estimate_tokens(reasoned.content) + reasoned.reasoning_tokens
    starved = compose(request, CLEAN, TEXTS, random.Random(0), 5, thought)
    assert starved.content == "" and starved.finish_reason == "length"


def test_a_sampled_open_prompt_is_answered_from_the_hosts_reply_distribution() -> None:
    """One user message at a temperature above 0 (the equality test's shape) gets the host's style; the same
    text at temperature 0 or with a persona is ordinary prose."""
    body = {"messages": [{"role": "user", "content": "Describe un bosque después de la lluvia."}]}
    sampled = understand({**body, "temperature": 1.0}, True)
    assert (sampled.kind, sampled.locale) == (Kind.OPEN, "es")
    assert understand({**body, "temperature": 0}, True).kind is Kind.LANGUAGE
    persona = {"messages": [{"role": "system", "content": "Eres Ana."}, *body["messages"]], "temperature": 1}
    assert understand(persona, True).kind is Kind.LANGUAGE
    healthy = compose(sampled, CLEAN, TEXTS, random.Random(2), 200).content
    leaked = {
        compose(sampled, CLEAN, TEXTS, random.Random(s), 200, style="template").content for s in range(20)
    }
    assert not healthy.startswith("assistant") and healthy.split(". ")[0] + "." in TEXTS.for_locale("es")
    assert any(text.startswith("assistant\n\n") for text in leaked)


@pytest.mark.parametrize("locale", ["en", "fr", "ru", "ja", "zh-Hans", "ko"])
def test_issue_11_faults_are_what_the_judges_catch_and_clean_replies_are_not(locale: str) -> None:
    from exporter.contracts.reply_checks import screen
    from exporter.language.judge import judge
    from exporter.outcomes import Outcome, Reason

    request = understand(language_body(locale), True)

    def reply(plan: Plan, seed: int = 3) -> tuple[str, str]:
        r = compose(request, plan, TEXTS, random.Random(seed), 1000)
        return r.content, r.finish_reason

    for seed in range(3):
        text, finish = reply(CLEAN, seed)
        assert screen(text, finish) is None and judge(text, locale).outcome is Outcome.PASS
    looping = screen(*reply(Plan(0, 0, degenerate="repetition")))
    assert looping is not None and looping.reason is Reason.REPETITION
    cut = screen(*reply(Plan(0, 0, degenerate="truncated")))
    assert cut is not None and cut.reason is Reason.TRUNCATION
    garbled = judge(reply(Plan(0, 0, leading_garbage=True, garbage_style="before_opener"))[0], locale)
    assert garbled.reason is Reason.LEADING_GARBAGE, garbled.detail
    legacy = judge(reply(Plan(0, 0, encoding="mojibake", encoding_codec="gb18030"))[0], locale)
    assert legacy.reason is Reason.ENCODING


@pytest.mark.parametrize("locale", ["en", "es", "de", "ja", "zh-Hant"])
def test_soft_refusals_are_written_in_the_scene_language(locale: str) -> None:
    from exporter.contracts.refusal_patterns import find_refusal

    text = compose(understand(language_body(locale), True), Plan(0, 0, refusal="soft"), TEXTS,
                   random.Random(0), 1000).content  # fmt: skip
    assert find_refusal(text) is not None


def test_the_spacer_and_the_cutter_are_caught_on_every_reply_and_clean_replies_pass() -> None:
    """The default fleet's `spacer` (a subword piece spaced from the first word: "ation The…") and `cutter`
    (a piece before an opener: "ly — Quédate…") fail the language judge on every reply, in every locale."""
    from exporter.language.judge import judge
    from exporter.language.locales import LOCALES

    for locale in LOCALES:
        for seed in range(12):
            asked = understand(language_body(locale), True)
            clean = compose(asked, CLEAN, TEXTS, random.Random(seed), 1000).content
            assert judge(clean, locale).outcome.value == "pass", (locale, clean)
            for style in ("spaced", "before_opener"):
                plan = Plan(0, 0, leading_garbage=True, garbage_style=style)
                dirty = compose(asked, plan, TEXTS, random.Random(seed), 1000).content
                assert judge(dirty, locale).reason.value == "leading_garbage", (locale, style, dirty[:60])


def test_the_garbler_is_caught_on_nearly_every_reply_in_every_locale() -> None:
    """The default fleet's `garbler` (a stray mark or a subword piece glued before the first word) is a fault
    the judge sees: 39 of 40 of its corrupted replies or more fail on leading garbage in each locale, so its
    rounds fail and it is suspended by round 2 (a hyphen glued to the first word is not drawn: many
    languages open dialogue so, and the judge passes it)."""
    from exporter.language.judge import judge
    from exporter.language.locales import LOCALES

    plan = Plan(0, 0, leading_garbage=True)
    for locale in LOCALES:
        asked = understand(language_body(locale), True)
        caught = 0
        for seed in range(40):
            dirty = compose(asked, plan, TEXTS, random.Random(seed), 1000).content
            caught += judge(dirty, locale).reason.value == "leading_garbage"
        assert caught >= 39, (locale, caught)
