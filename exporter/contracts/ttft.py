"""Time-to-first-token contract (design.md §5.1): a streamed reply shows visible content within a threshold.

TTFT runs from sending the request to the first content delta with a visible character; SSE comments, empty
deltas, role-only chunks and whitespace-only deltas (``" "``, ``"\n"``, zero-width characters) do not count.
Reasoning deltas count only when configured (``count_reasoning``), whitespace only when ``count_whitespace``.
An open stream with nothing visible by the threshold is ``fail``; no response at all is ``transport`` (the
gateway client classifies that). One slow round never suspends anyone: the rules need two consecutive
failing rounds. The greeting is a free-text reply like any other, so it gets the reply screen
(``reply_checks``, design.md §5.2): a refusal or a loop is ``fail`` however fast it came (truncation is not
judged: a one-sentence greeting in 48 tokens is too short to tell).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from exporter.configkit import Bool, Duration, Int, key
from exporter.contracts.base import (
    Contract,
    ContractSettings,
    ProbeContext,
    ProbeResult,
    judged,
    not_rejected,
    spent_on_reasoning,
    unjudgeable,
)
from exporter.contracts.reply_checks import screen_reply
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, Reason

DEFAULT_MESSAGES = (
    {"role": "system", "content": "You are Ilsa, the innkeeper of the Silver Stag in a fantasy role-play."},
    {"role": "user", "content": "A weary traveller walks in from the rain. Greet them in one sentence."},
)


class TTFTSettings(ContractSettings):
    threshold: Duration = key(10.0, "time to the first visible token", ge=0.001)
    count_reasoning: Bool = key(False, "whether a reasoning delta counts as the first token")
    count_whitespace: Bool = key(
        False, "whether a delta of only whitespace / zero-width characters counts as the first token"
    )
    max_tokens: Int = key(48, "", ge=1, le=4096)

    def build(self) -> TTFTContract:
        return TTFTContract(self)


@dataclass(frozen=True, slots=True)
class TTFTContract(Contract):
    settings: TTFTSettings = field(default_factory=TTFTSettings)

    name = "ttft"
    Settings = TTFTSettings

    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        request = ctx.request(
            DEFAULT_MESSAGES,
            self.settings.max_tokens,
            stream=True,
            first_token_deadline=self.settings.threshold,
            count_reasoning_as_first_token=self.settings.count_reasoning,
            count_whitespace_as_first_token=self.settings.count_whitespace,
        )
        result = await ctx.gateway.chat(request)
        return unjudgeable(result, ctx.target) or self.judge(result)

    def judge(self, result: ChatResult) -> ProbeResult:
        """Judge one streamed reply's timing."""
        limit = f"{self.settings.threshold:g}s"
        ttft = result.ttft_seconds
        if result.first_token_timed_out:
            return judged(Outcome.FAIL, Reason.SLOW_FIRST_TOKEN, f"no visible token within {limit}", result)
        if ttft is None:
            empty = "the stream ended with no visible content"
            return spent_on_reasoning(result) or judged(Outcome.FAIL, Reason.NO_CONTENT, empty, result)
        if ttft > self.settings.threshold:
            detail = f"first token after {ttft:.3f}s > {limit}"
            return judged(Outcome.FAIL, Reason.SLOW_FIRST_TOKEN, detail, result, ttft_seconds=ttft)
        if (finding := screen_reply(result, None, truncation=False)) is not None:
            return judged(Outcome.FAIL, finding.reason, finding.detail, result, ttft_seconds=ttft,
                          evidence=finding.evidence)  # fmt: skip
        return judged(Outcome.PASS, Reason.NONE, f"first token after {ttft:.3f}s", result, ttft_seconds=ttft)

    def weak_controls(self) -> list[str]:
        controls = {
            "timed_out": ChatResult(first_token_timed_out=True),
            "over_threshold": ChatResult(ttft_seconds=self.settings.threshold * 2, finish_reason="stop"),
            "empty_stream": ChatResult(finish_reason="stop"),
        }
        return not_rejected(controls, self.judge)
