"""Time-to-first-token contract (DESIGN §5.1): a streamed reply must show visible content within a threshold.

TTFT runs from sending the request to the first non-empty visible content delta; SSE comments, empty deltas
and role-only chunks do not count, and reasoning deltas count only when configured. An open stream with
nothing visible by the threshold is ``fail``; no response at all is ``transport`` (the gateway client
classifies that). One slow round never suspends anyone: the rules need two consecutive failing rounds.
"""

from __future__ import annotations

from dataclasses import dataclass

from exporter.configkit import Section
from exporter.contracts.base import (
    Contract,
    ProbeContext,
    judged,
    not_rejected,
    spent_on_reasoning,
    unjudgeable,
)
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, ProbeResult, Reason

DEFAULT_THRESHOLD_SECONDS = 10.0
DEFAULT_MESSAGES = (
    {"role": "system", "content": "You are Ilsa, the innkeeper of the Silver Stag in a fantasy role-play."},
    {"role": "user", "content": "A weary traveller walks in from the rain. Greet them in one sentence."},
)


@dataclass(frozen=True, slots=True)
class TTFTContract(Contract):
    threshold_seconds: float = DEFAULT_THRESHOLD_SECONDS
    count_reasoning: bool = False
    max_tokens: int = 48

    name = "ttft"

    @classmethod
    def read_settings(cls, section: Section) -> TTFTContract:
        contract = cls(
            threshold_seconds=section.duration("threshold", DEFAULT_THRESHOLD_SECONDS, minimum=0.001),
            count_reasoning=section.boolean("count_reasoning", False),
            max_tokens=section.integer("max_tokens", 48, minimum=1, maximum=4096),
        )
        section.finish()
        return contract

    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        request = ctx.request(
            DEFAULT_MESSAGES,
            self.max_tokens,
            stream=True,
            first_token_deadline=self.threshold_seconds,
            count_reasoning_as_first_token=self.count_reasoning,
        )
        result = await ctx.gateway.chat(request)
        if (gated := unjudgeable(result, ctx.target)) is not None:
            return gated
        return self.judge(result)

    def judge(self, result: ChatResult) -> ProbeResult:
        """Judge one streamed reply's timing."""
        limit = f"{self.threshold_seconds:g}s"
        ttft = result.ttft_seconds
        if result.first_token_timed_out:
            return judged(Outcome.FAIL, Reason.SLOW_FIRST_TOKEN, f"no visible token within {limit}", result)
        if ttft is None:
            if (budget := spent_on_reasoning(result)) is not None:
                return budget
            return judged(Outcome.FAIL, Reason.NO_CONTENT, "the stream ended with no visible content", result)
        if ttft > self.threshold_seconds:
            detail = f"first token after {ttft:.3f}s > {limit}"
            return judged(Outcome.FAIL, Reason.SLOW_FIRST_TOKEN, detail, result, ttft_seconds=ttft)
        return judged(Outcome.PASS, Reason.NONE, f"first token after {ttft:.3f}s", result, ttft_seconds=ttft)

    def weak_controls(self) -> list[str]:
        controls = {
            "timed_out": ChatResult(first_token_timed_out=True),
            "over_threshold": ChatResult(ttft_seconds=self.threshold_seconds * 2, finish_reason="stop"),
            "empty_stream": ChatResult(finish_reason="stop"),
        }
        return not_rejected(controls, self.judge)
