# ruff: noqa: E501  (test data lines)
"""The language contract: rotation, retry of a failed locale, confirmation majority, freezing, settings."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from exporter.configkit import ConfigError, Problems, load_yaml, validate
from exporter.contracts.base import ProbeContext, ProbeTarget
from exporter.contracts.language import CONTROLS, LanguageContract, LanguageSettings
from exporter.evidence.store import attempt_records
from exporter.gateway.types import ChatRequest, ChatResult, Endpoint, GatewayError
from exporter.language.locales import DEFAULT_LOCALES, LOCALES
from exporter.outcomes import Outcome, Reason, Usage

CLEAN: dict[str, str] = json.loads(
    (Path(__file__).resolve().parents[1] / "fixtures" / "language" / "clean_replies.json").read_text("utf-8")
)
TARGET = ProbeTarget("acme/model-1", Endpoint("host/fp8", "Host"))
TRANSPORT = ChatResult(error=GatewayError(Outcome.TRANSPORT, Reason.SERVER_ERROR, 502, "bad gateway"))


_BY_SYSTEM = {p.system: code for code, spec in LOCALES.items() for p in spec.prompts}


def requested_locale(request: ChatRequest) -> str:
    """The locale whose prompt was sent (the prompt's text is all that tells it)."""
    return _BY_SYSTEM[request.messages[0]["content"]]


class ScriptedGateway:
    """Answers each request with the next reply function (given the requested locale), recording requests."""

    def __init__(self, *replies: Callable[[str], ChatResult]) -> None:
        self.replies = list(replies)
        self.requests: list[ChatRequest] = []

    async def chat(self, request: ChatRequest) -> ChatResult:
        self.requests.append(request)
        reply = self.replies.pop(0) if len(self.replies) > 1 else self.replies[0]
        return reply(requested_locale(request))


def clean(locale: str) -> ChatResult:
    return ChatResult(
        content=CLEAN[locale], finish_reason="stop", served_by="Host", usage=Usage(10, 100, 0.001)
    )


def garbled(locale: str) -> ChatResult:
    return ChatResult(
        content=", " + CLEAN[locale], finish_reason="stop", served_by="Host", usage=Usage(10, 100)
    )


def transport(locale: str) -> ChatResult:
    return TRANSPORT


def probe(contract: LanguageContract, gateway: ScriptedGateway, round_number: int, memory: dict) -> object:
    ctx = ProbeContext(TARGET, gateway, round_number, memory)
    return asyncio.run(contract.probe(ctx))


def test_a_clean_reply_passes_and_carries_the_locale() -> None:
    gateway = ScriptedGateway(clean)
    result = probe(LanguageContract(), gateway, 1, {})
    assert result.outcome is Outcome.PASS
    assert result.locale == requested_locale(gateway.requests[0])
    assert (
        len(gateway.requests) == 1
        and gateway.requests[0].pin == "host/fp8"
        and not gateway.requests[0].stream
    )


def test_locales_rotate_round_by_round_through_every_configured_locale() -> None:
    contract, memory = LanguageContract(), {}
    seen = []
    for number in range(len(DEFAULT_LOCALES)):
        result = probe(contract, ScriptedGateway(clean), number, memory)
        seen.append(result.locale)
    assert sorted(seen) == sorted(DEFAULT_LOCALES)


def test_hosts_start_the_rotation_at_different_locales() -> None:
    contract = LanguageContract()
    firsts = set()
    for tag in ("a/fp8", "b/fp8", "c/bf16", "d/int4", "e/fp8"):
        ctx = ProbeContext(ProbeTarget("acme/model-1", Endpoint(tag, "X")), ScriptedGateway(clean), 7, {})
        firsts.add(contract.choose(ctx)[0].code)
    assert len(firsts) > 1


def test_the_prompt_is_the_locales_own_text_with_no_marker_naming_the_locale() -> None:
    gateway = ScriptedGateway(clean)
    result = probe(LanguageContract(), gateway, 3, {})
    sent = tuple(gateway.requests[0].messages)
    assert result.locale is not None
    assert sent in [p.messages() for p in LOCALES[result.locale].prompts]
    assert all("Language:" not in m["content"] for m in sent)


def test_a_confirmed_fail_is_fail_after_two_simultaneous_confirmations() -> None:
    gateway = ScriptedGateway(garbled)
    result = probe(LanguageContract(), gateway, 1, {})
    assert (result.outcome, result.reason) == (Outcome.FAIL, Reason.LEADING_GARBAGE)
    assert len(gateway.requests) == 3
    assert gateway.requests[1] == gateway.requests[0] == gateway.requests[2]
    assert [a["outcome"] for a in result.evidence["attempts"]] == ["fail", "fail", "fail"]
    assert result.usage == Usage(30, 300, 0.0)


def test_a_fail_not_confirmed_by_the_majority_passes() -> None:
    result = probe(LanguageContract(), ScriptedGateway(garbled, clean, clean), 1, {})
    assert result.outcome is Outcome.PASS


def test_each_confirmation_is_kept_as_its_own_attempt_with_its_own_verdict_and_usage() -> None:
    result = probe(LanguageContract(), ScriptedGateway(garbled, clean, garbled), 1, {})
    assert [(a.outcome, a.reason) for a in result.attempts] == [
        (Outcome.FAIL, Reason.LEADING_GARBAGE),
        (Outcome.PASS, Reason.NONE),
        (Outcome.FAIL, Reason.LEADING_GARBAGE),
    ]
    assert all(a.locale == result.locale and not a.attempts for a in result.attempts)
    assert result.attempts[0].excerpt.startswith(", ") and result.attempts[1].usage == Usage(10, 100, 0.001)
    records = attempt_records(result, at=1.0, round_number=1, model="m/x", provider="p", contract="language")
    assert [(r.attempt, r.result.outcome) for r in records] == [(1, "fail"), (2, "pass"), (3, "fail")]


def test_a_single_sample_sends_one_request_and_writes_no_memory() -> None:
    gateway, memory = ScriptedGateway(garbled), {}
    result = asyncio.run(LanguageContract().sample(ProbeContext(TARGET, gateway, 1, memory, "pt-BR")))
    assert (result.outcome, result.locale, len(gateway.requests), memory) == (Outcome.FAIL, "pt-BR", 1, {})


def test_two_fails_of_three_is_a_fail() -> None:
    result = probe(LanguageContract(), ScriptedGateway(garbled, clean, garbled), 1, {})
    assert result.outcome is Outcome.FAIL


def test_a_transport_error_during_confirmation_freezes_instead_of_failing() -> None:
    result = probe(LanguageContract(), ScriptedGateway(garbled, garbled, transport), 1, {})
    assert (result.outcome, result.reason) == (Outcome.TRANSPORT, Reason.SERVER_ERROR)
    assert result.locale is not None


def test_a_failed_locale_is_asked_again_next_round_until_it_passes() -> None:
    contract, memory = LanguageContract(), {}
    failed = probe(contract, ScriptedGateway(garbled), 4, memory)
    assert failed.outcome is Outcome.FAIL
    again = probe(contract, ScriptedGateway(transport), 5, memory)  # a frozen round keeps the locale
    assert again.locale == failed.locale
    passed = probe(contract, ScriptedGateway(clean), 6, memory)
    assert passed.locale == failed.locale and passed.outcome is Outcome.PASS
    moved_on = probe(contract, ScriptedGateway(clean), 7, memory)
    assert moved_on.locale != failed.locale


def test_an_error_reply_is_not_judged() -> None:
    gateway = ScriptedGateway(transport)
    result = probe(LanguageContract(), gateway, 1, {})
    assert result.outcome is Outcome.TRANSPORT and len(gateway.requests) == 1


def test_a_reply_served_by_another_provider_is_a_pin_violation() -> None:
    result = probe(
        LanguageContract(),
        ScriptedGateway(lambda loc: ChatResult(content=CLEAN[loc], served_by="Other")),
        1,
        {},
    )
    assert result.outcome is Outcome.PIN_VIOLATION


def test_an_empty_reply_is_inconclusive() -> None:
    result = probe(
        LanguageContract(), ScriptedGateway(lambda loc: ChatResult(content="  ", finish_reason="stop")), 1, {}
    )
    assert result.outcome is Outcome.INCONCLUSIVE


def test_every_offline_control_is_rejected_so_the_contract_is_not_weak() -> None:
    assert LanguageContract().weak_controls() == []
    assert set(CONTROLS) == {"switch", "mixing", "encoding", "leading_garbage"}


PREPARED = """
from exporter.contracts.language import LanguageSettings
from exporter.language.judge import default_judge
from exporter.language.lexicon import lexicon

LanguageSettings(locales=["fr", "ja"]).build().prepare()
before = lexicon.cache_info().misses
default_judge().judge("Bonjour ! Je suis ravie de te revoir, entre te réchauffer près du feu.", "fr")
default_judge().judge("こんにちは。今日はとても良い天気ですね。森の中を歩きましょう。", "ja")
rotation = lexicon.cache_info().misses - before
default_judge().judge("Guten Tag! Ich freue mich sehr, dich wiederzusehen. Komm herein.", "de")
print(rotation, lexicon.cache_info().misses - before - rotation)
"""


def test_prepare_loads_what_replies_in_the_rotation_read_and_no_other_locale() -> None:
    """In a fresh process (the lexicons are cached process-wide): after ``prepare``, replies in the rotation's
    locales load no lexicon; a locale outside it still loads its own on its first reply."""
    done = subprocess.run([sys.executable, "-c", PREPARED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["0", "1"]


def read(text: str) -> LanguageContract:
    problems = Problems("canary.yaml")
    settings = validate(LanguageContract.Settings, load_yaml(text, problems), problems)
    problems.raise_if_any()
    assert settings is not None
    return settings.build()


def test_defaults_are_the_17_locales_400_tokens_and_two_confirmations() -> None:
    contract = read("{}")
    assert [s.code for s in contract.settings.specs] == list(DEFAULT_LOCALES) and len(DEFAULT_LOCALES) == 17
    assert (contract.settings.max_tokens, contract.settings.confirmations) == (400, 2)


def test_locales_and_prompts_are_configurable() -> None:
    contract = read(
        "locales: [es, pt_br]\nmax_tokens: 300\nprompts:\n  pt-BR:\n    - system: Você é um pirata.\n"
        "      user: Conte uma história.\n"
    )
    assert [s.code for s in contract.settings.specs] == ["es", "pt-BR"]
    prompt = contract.settings.specs[1].prompts
    assert len(prompt) == 1 and prompt[0].system == "Você é um pirata."  # sent as written


def test_bad_settings_are_reported_together_with_their_place() -> None:
    with pytest.raises(ConfigError) as caught:
        read(
            "locales: [es, xx, es]\nconfirmations: 1\nprompts:\n  fr: []\n  zz:\n    - {system: a, user: b}\nbogus: 1\n"
        )
    text = "\n".join(caught.value.problems)
    assert "canary.yaml:1: locales: unknown locale 'xx'" in text
    assert "locale 'es' is listed twice" in text
    assert "canary.yaml:2: confirmations: expected an even number" in text
    assert "prompts.zz: unknown locale" in text
    assert "prompts.fr: expected a list" in text
    assert "bogus: unknown key" in text


@pytest.mark.parametrize(
    ("content", "finish", "reason"),
    [
        ("抱歉，我无法继续这个场景，我们换个话题吧。", "stop", Reason.REFUSAL),
        ("I'd rather not write that. Let's change the subject, shall we?", "stop", Reason.REFUSAL),
        ("The storm has passed and the", "stop", Reason.TRUNCATION),
        ("The storm has passed. " * 80, "length", Reason.REPETITION),  # the 400-token budget spent
    ],
)
def test_a_refused_truncated_or_looping_reply_fails_the_language_probe(
    content: str, finish: str, reason: Reason
) -> None:
    def reply(locale: str) -> ChatResult:
        return ChatResult(content=content, finish_reason=finish, served_by="Host")

    result = probe(LanguageContract(LanguageSettings(locales=("zh-Hans",))), ScriptedGateway(reply), 1, {})
    assert (result.outcome, result.reason) == (Outcome.FAIL, reason)  # type: ignore[attr-defined]
    assert result.locale == "zh-Hans" and len(result.evidence["attempts"]) == 3  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("locale", "decline"),
    [
        ("vi", "Tôi xin phép không viết cảnh này. Chúng ta hãy đổi chủ đề nhé, được không bạn?"),
        ("pl", "Przykro mi, wolałbym tego nie pisać. Może porozmawiamy o czymś innym?"),
        ("nl", "Dat schrijf ik liever niet. Zullen we het over iets anders hebben?"),
        ("ja", "この内容は書けません。別の話題にしませんか。"),
    ],
)
def test_a_polite_decline_in_the_asked_language_fails_as_a_refusal_not_passes_as_that_language(
    locale: str, decline: str
) -> None:
    def reply(asked: str) -> ChatResult:
        return ChatResult(content=decline, finish_reason="stop", served_by="Host", usage=Usage(10, 30))

    result = probe(LanguageContract(LanguageSettings(locales=(locale,))), ScriptedGateway(reply), 1, {})
    assert (result.outcome, result.reason) == (Outcome.FAIL, Reason.REFUSAL)  # type: ignore[attr-defined]


def test_a_length_finish_far_below_the_requested_budget_is_a_cut_and_a_spent_budget_is_not() -> None:
    story = CLEAN["en"][:115]

    def cut(spent: int) -> Callable[[str], ChatResult]:
        return lambda locale: ChatResult(
            content=story, finish_reason="length", served_by="Host", usage=Usage(10, spent)
        )

    contract = LanguageContract(LanguageSettings(locales=("en",)))
    result = probe(contract, ScriptedGateway(cut(30)), 1, {})
    assert (result.outcome, result.reason) == (Outcome.FAIL, Reason.TRUNCATION)  # type: ignore[attr-defined]
    evidence = result.evidence["truncation"]  # type: ignore[attr-defined]
    assert evidence["kind"] == "short_length" and evidence["max_tokens"] == contract.settings.max_tokens
    assert (
        probe(contract, ScriptedGateway(cut(contract.settings.max_tokens)), 1, {}).reason
        is not Reason.TRUNCATION
    )  # type: ignore[attr-defined]


# -- through the real gateway client against the simulator's default fleet ------------------------------
FLEET = (
    Path(__file__).resolve().parents[2] / "exporter" / "devtools" / "simulator" / "fleets" / "default.yaml"
)
HEALTHY = ("deepinfra/fp8", "deepinfra/turbo", "parasail/fp8", "novita/fp8", "reasoner/bf16")
BROKEN = {"mixer/fp8": Reason.MIXING, "garbler/bf16": Reason.LEADING_GARBAGE}


async def _rounds(base_url: str, rounds: int) -> dict[str, list[object]]:
    from exporter.gateway.client import GatewayClient

    client = GatewayClient(base_url, "key")
    contract = LanguageContract()
    try:
        model = "moonshotai/kimi-k2-0905"
        endpoints = await client.discover(model)
        assert isinstance(endpoints, list), endpoints
        wanted = {e.tag: e for e in endpoints if e.tag in (*HEALTHY, *BROKEN)}
        assert sorted(wanted) == sorted((*HEALTHY, *BROKEN))
        memories: dict[str, dict[str, object]] = {tag: {} for tag in wanted}
        results: dict[str, list[object]] = {tag: [] for tag in wanted}
        for number in range(rounds):
            contexts = {
                tag: ProbeContext(ProbeTarget(model, endpoint), client, number, memories[tag])
                for tag, endpoint in wanted.items()
            }
            found = await asyncio.gather(*(contract.probe(ctx) for ctx in contexts.values()))
            for tag, result in zip(contexts, found, strict=True):
                results[tag].append(result)
        return results
    finally:
        await client.aclose()


@pytest.mark.slow
def test_over_ten_simulated_rounds_mixer_and_garbler_fail_and_no_healthy_host_ever_does() -> None:
    from exporter.devtools.simulator.server import SimulatorServer

    with SimulatorServer.from_file(FLEET) as sim:
        results = asyncio.run(_rounds(sim.base_url, 10))
    for tag in HEALTHY:
        outcomes = [(r.outcome, r.reason, r.locale) for r in results[tag]]  # type: ignore[attr-defined]
        assert all(o is not Outcome.FAIL for o, _, _ in outcomes), (tag, outcomes)
        assert sum(o is Outcome.PASS for o, _, _ in outcomes) >= 9, (tag, outcomes)
        assert len({locale for *_, locale in outcomes}) == 10, (
            tag,
            outcomes,
        )  # rotation: a new locale each round
    for tag, reason in BROKEN.items():
        outcomes = [(r.outcome, r.reason, r.locale) for r in results[tag]]  # type: ignore[attr-defined]
        fails = [(o, why) for o, why, _ in outcomes if o is Outcome.FAIL]
        assert len(fails) >= 9 and {why for _, why in fails} == {reason}, (tag, outcomes)
        # a failed locale is asked again next round: the broken host stays on its first failed locale
        first_fail = next(i for i, (o, _, _) in enumerate(outcomes) if o is Outcome.FAIL)
        assert len({locale for *_, locale in outcomes[first_fail:]}) == 1, (tag, outcomes)
        attempts = [r.evidence.get("attempts") for r in results[tag] if r.outcome is Outcome.FAIL]  # type: ignore[attr-defined]
        assert all(a is not None and len(a) == 3 for a in attempts), attempts  # every fail was confirmed
