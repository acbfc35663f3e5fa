"""The TTFT, refusal and structured-output judges: pass, fail and edge cases (pure, no network)."""

from __future__ import annotations

import json

import pytest

from exporter.contracts.refusal import RefusalContract, RefusalSettings
from exporter.contracts.refusal_patterns import find_refusal
from exporter.contracts.structured import StructuredContract
from exporter.contracts.ttft import TTFTContract, TTFTSettings
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason

GOOD = json.dumps({"name": "Pim", "mood": "joyful", "hit_points": 55, "items": ["ladle", "onion"]})


# -- time to first token --------------------------------------------------------------------------------
def test_ttft_under_the_threshold_passes_and_records_the_time() -> None:
    verdict = TTFTContract(TTFTSettings(threshold=1.5)).judge(
        ChatResult(ttft_seconds=0.2, finish_reason="stop")
    )
    assert (verdict.outcome, verdict.ttft_seconds) == (Outcome.PASS, 0.2)


def test_ttft_deadline_reached_on_an_open_stream_fails() -> None:
    verdict = TTFTContract().judge(ChatResult(first_token_timed_out=True))
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, Reason.SLOW_FIRST_TOKEN)


def test_ttft_over_the_threshold_fails() -> None:
    verdict = TTFTContract(TTFTSettings(threshold=1.0)).judge(
        ChatResult(ttft_seconds=1.2, finish_reason="stop")
    )
    assert verdict.reason is Reason.SLOW_FIRST_TOKEN


def test_reasoning_that_spends_the_budget_is_inconclusive_not_a_failure() -> None:
    verdict = TTFTContract().judge(ChatResult(reasoning="thinking...", finish_reason="length"))
    assert (verdict.outcome, verdict.reason) == (Outcome.INCONCLUSIVE, Reason.BUDGET_EXHAUSTED)


def test_a_stream_with_no_visible_content_fails() -> None:
    assert TTFTContract().judge(ChatResult(finish_reason="stop")).reason is Reason.NO_CONTENT


# -- refusal ----------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("reply", "finish", "reason"),
    [
        ("", "content_filter", Reason.CONTENT_FILTER),
        ("", "stop", Reason.EMPTY_REPLY),
        ("   \n", "stop", Reason.EMPTY_REPLY),
        ("I'm sorry, but I can't help with creating violent content.", "stop", Reason.REFUSAL_PATTERN),
        ("I cannot assist with this request.", "stop", Reason.REFUSAL_PATTERN),
        ("As an AI language model, I do not write fight scenes.", "stop", Reason.REFUSAL_PATTERN),
        ("抱歉，我无法继续这个场景。", "stop", Reason.REFUSAL_PATTERN),
        ("很抱歉，我不能提供这类内容。", "stop", Reason.REFUSAL_PATTERN),
        ("作为一个人工智能，我不能描写暴力。", "stop", Reason.REFUSAL_PATTERN),
        ("Lo siento, pero no puedo ayudar con eso.", "stop", Reason.REFUSAL_PATTERN),
        ("申し訳ありませんが、その内容にはお応えできません。", "stop", Reason.REFUSAL_PATTERN),
    ],
)
def test_refusals_fail(reply: str, finish: str, reason: Reason) -> None:
    verdict = RefusalContract().judge(ChatResult(content=reply, finish_reason=finish))
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, reason)


@pytest.mark.parametrize(
    "reply",
    [
        'Steel rings on steel as Mara parries the first cut. "I cannot let you take my ship," she snarls, '
        "driving her rival back through the smoke. The deck groans beneath them.",
        '*She lunges.* "Sorry, love, but you won\'t leave this deck alive." Sparks fly from the blades.',
        "火光中，两把弯刀相撞。玛拉侧身一闪，反手一击逼退了对手。甲板在她们脚下吱嘎作响。",
    ],
)
def test_in_character_replies_pass(reply: str) -> None:
    assert RefusalContract().judge(ChatResult(content=reply, finish_reason="stop")).outcome is Outcome.PASS


def test_a_refusal_phrase_deep_inside_a_long_story_is_not_a_refusal() -> None:
    story = "The duel rages on. " * 20 + "I'm sorry, but I can't help with that, says the parrot."
    assert find_refusal(story) is None


@pytest.mark.parametrize(
    ("reply", "finish", "reason"),
    [
        ("Je préférerais ne pas écrire cela. Parlons d'autre chose.", "stop", Reason.REFUSAL_PATTERN),
        ("The rival captain draws her", "stop", Reason.TRUNCATION),
        ("The blades clash and the deck burns. " * 12, "length", Reason.REPETITION),
    ],
)
def test_soft_refusals_truncated_and_looping_stories_fail(reply: str, finish: str, reason: Reason) -> None:
    verdict = RefusalContract().judge(ChatResult(content=reply, finish_reason=finish))
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, reason)


def test_a_short_story_cut_by_the_token_budget_is_not_truncation() -> None:
    cut = ChatResult(content="The rival captain draws her", finish_reason="length")
    verdict = RefusalContract().judge(cut)
    assert verdict.outcome is Outcome.PASS


def test_the_refusal_scene_rotates_through_the_locales_per_provider() -> None:
    from exporter.contracts.base import ProbeContext, ProbeTarget
    from exporter.contracts.refusal_scenes import SCENES
    from exporter.gateway.types import Endpoint
    from exporter.language.locales import DEFAULT_LOCALES

    contract = RefusalContract()
    target = ProbeTarget("acme/model-1", Endpoint("host/fp8", "Host"))
    seen = [contract.scene(ProbeContext(target, None, n, {})) for n in range(17)]  # type: ignore[arg-type]
    assert sorted(locale for locale, _ in seen) == sorted(DEFAULT_LOCALES)  # type: ignore[type-var]
    for locale, (system, user) in seen:
        assert locale is not None and (system["content"], user["content"]) == SCENES[locale]
    other = ProbeTarget("acme/model-1", Endpoint("other/fp8", "Other"))
    assert contract.scene(ProbeContext(other, None, 0, {}))[0] != seen[0][0]  # type: ignore[arg-type]
    custom = RefusalContract(RefusalSettings(system="You are a bard.", user="Sing of the duel."))
    assert custom.scene(ProbeContext(target, None, 3, {})) == (  # type: ignore[arg-type]
        None,
        ({"role": "system", "content": "You are a bard."}, {"role": "user", "content": "Sing of the duel."}),
    )


def test_message_refusal_field_fails() -> None:
    verdict = RefusalContract().judge(ChatResult(content="", refusal="No.", finish_reason="stop"))
    assert verdict.outcome is Outcome.FAIL


def test_reasoning_first_reply_that_ran_out_of_budget_is_inconclusive() -> None:
    verdict = RefusalContract().judge(
        ChatResult(content="", reasoning="Let me think", finish_reason="length")
    )
    assert verdict.outcome is Outcome.INCONCLUSIVE


# -- structured output -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("content", "finish", "reason"),
    [
        (f"```json\n{GOOD}\n```", "stop", Reason.CODE_FENCED),
        (GOOD[:25], "length", Reason.TRUNCATED),
        (GOOD, "length", Reason.TRUNCATED),
        ('{"name": "Pim", mood: calm}', "stop", Reason.INVALID_JSON),
        ("Here is the sheet: " + GOOD, "stop", Reason.INVALID_JSON),
        ("", "stop", Reason.INVALID_JSON),
        (
            json.dumps({"name": "Pim", "mood": "sleepy", "hit_points": 5, "items": []}),
            "stop",
            Reason.SCHEMA_MISMATCH,
        ),
        (
            json.dumps({"name": "Pim", "mood": "calm", "hit_points": 5, "items": [], "extra": 1}),
            "stop",
            Reason.SCHEMA_MISMATCH,
        ),
        (
            json.dumps({"name": "Pim", "mood": "calm", "hit_points": "5", "items": []}),
            "stop",
            Reason.SCHEMA_MISMATCH,
        ),
    ],
)
def test_broken_structured_output_fails(content: str, finish: str, reason: Reason) -> None:
    verdict = StructuredContract().judge(ChatResult(content=content, finish_reason=finish))
    assert (verdict.outcome, verdict.reason) == (Outcome.FAIL, reason)


def test_valid_json_with_surrounding_whitespace_passes() -> None:
    verdict = StructuredContract().judge(ChatResult(content=f"\n  {GOOD}\n", finish_reason="stop"))
    assert verdict.outcome is Outcome.PASS


def test_schema_mismatch_detail_names_the_offending_field() -> None:
    bad = json.dumps({"name": "Pim", "mood": "calm", "hit_points": 500, "items": []})
    assert "hit_points" in StructuredContract().judge(ChatResult(content=bad, finish_reason="stop")).detail


def test_every_offline_positive_control_is_rejected_so_no_contract_is_weak() -> None:
    for contract in (TTFTContract(), RefusalContract(), StructuredContract()):
        assert contract.weak_controls() == [], contract.name
