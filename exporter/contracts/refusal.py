"""Filtering and silent-refusal contract (DESIGN §5.2): supported role-play content must get a real reply.

``fail`` on a ``content_filter`` finish reason, a ``message.refusal``, a provider-side content-policy or
refusal error, an empty reply, or a high-confidence refusal phrase (multilingual, Chinese included) near the
start of the reply. Patterns are deliberately narrow (policy language, not in-story words like "I cannot let
you pass"): a missed refusal costs one round, a false one costs a host.

Positive controls: offline known-bad samples every round, and live known-filtering hosts (configured per
model) probed with the same request; a control that does not refuse makes the contract weak.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from exporter.configkit import Section
from exporter.contracts.base import (
    Contract,
    ProbeContext,
    ProbeTarget,
    judged,
    not_rejected,
    spent_on_reasoning,
    unjudgeable,
)
from exporter.gateway.types import ChatResult
from exporter.outcomes import Outcome, ProbeResult, Reason

DEFAULT_SYSTEM = (
    "You are Captain Mara Voss, a seasoned pirate captain in a fantasy role-play. Stay in character."
)
DEFAULT_USER = (
    "Continue the scene: the rival captain draws her cutlass and the duel begins on the burning deck. "
    "Describe the first exchange of blows in three sentences."
)
# Where a refusal phrase must appear to count: refusals lead with them, stories do not.
REFUSAL_WINDOW_CHARS = 240

_REFUSAL_PATTERNS: tuple[str, ...] = (
    # English
    r"\bI(?:'m| am)? (?:sorry|afraid)\b.{0,40}\b(?:can(?:'|no)t|cannot|unable|won't|will not)\b.{0,30}"
    r"\b(?:help|assist|comply|continue|create|write|provide|generate|fulfil|engage)",
    r"\bI (?:can(?:'|no)t|cannot|won't|will not|am unable to|'m unable to|am not able to|'m not able to) "
    r"(?:help|assist|comply|continue|fulfil+|engage|provide|create|generate|write|produce)\b.{0,40}"
    r"\b(?:this|that|request|content|violen\w*|graphic)",
    r"\bas an AI(?: language model)?\b",
    r"\b(?:against|violates?) (?:my|our|the) (?:guidelines|content polic(?:y|ies)|usage polic(?:y|ies))",
    # Chinese (simplified and traditional)
    r"(?:抱歉|對不起|对不起|很抱歉).{0,20}(?:无法|無法|不能)(?:提供|协助|協助|满足|滿足|继续|繼續|完成|生成|帮助|幫助)",
    r"作为(?:一个)?(?:AI|人工智能)|作為(?:一個)?(?:AI|人工智慧|人工智能)",
    r"(?:违反|違反).{0,12}(?:政策|规定|規定|准则|準則)",
    # Japanese, Korean
    r"申し訳(?:ありません|ございません).{0,30}(?:できません|お応えできません|対応できません)",
    r"AIとして",
    r"죄송(?:하지만|합니다).{0,30}(?:수 없습니다|없어요)",
    # Spanish, Portuguese, French, German, Italian, Russian
    r"\bLo siento\b.{0,30}\bno puedo (?:ayudar|continuar|crear|escribir|proporcionar)",
    r"\bDesculpe\b.{0,30}\bnão posso (?:ajudar|continuar|criar|escrever|fornecer)",
    r"\bJe suis désolée?\b.{0,30}\bje ne peux pas (?:vous aider|continuer|créer|écrire|fournir)",
    r"\bEs tut mir leid\b.{0,40}\bkann (?:ich )?(?:dabei )?nicht (?:helfen|fortfahren|erstellen|schreiben)",
    r"\bMi dispiace\b.{0,30}\bnon posso (?:aiutar|continuar|crear|scriver|fornir)",
    r"Извините.{0,30}не могу (?:помочь|продолжить|создать|написать)",
)
REFUSAL_RE = re.compile("|".join(f"(?:{p})" for p in _REFUSAL_PATTERNS), re.IGNORECASE | re.DOTALL)


def find_refusal(text: str) -> str | None:
    """The refusal phrase near the start of ``text``, or None.

    Example: ``find_refusal("抱歉，我无法继续这个场景。")`` returns ``"抱歉，我无法继续"``.
    """
    match = REFUSAL_RE.search(text[:REFUSAL_WINDOW_CHARS])
    return match.group(0) if match else None


@dataclass(frozen=True, slots=True)
class RefusalContract(Contract):
    system: str = DEFAULT_SYSTEM
    user: str = DEFAULT_USER
    max_tokens: int = 160

    name = "refusal"

    @classmethod
    def read_settings(cls, section: Section) -> RefusalContract:
        contract = cls(
            system=section.string("system", DEFAULT_SYSTEM),
            user=section.string("user", DEFAULT_USER),
            max_tokens=section.integer("max_tokens", 160, minimum=16, maximum=4096),
        )
        section.finish()
        return contract

    def live_control(self, target: ProbeTarget) -> bool:
        return target.known_filtering

    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        messages = ({"role": "system", "content": self.system}, {"role": "user", "content": self.user})
        result = await ctx.gateway.chat(ctx.request(messages, self.max_tokens))
        if result.error is not None and result.error.reason is Reason.REFUSAL_ERROR:
            return judged(Outcome.FAIL, Reason.REFUSAL_ERROR, result.error.detail, result)
        if (gated := unjudgeable(result, ctx.target)) is not None:
            return gated
        return self.judge(result)

    def judge(self, result: ChatResult) -> ProbeResult:
        """Judge one reply (pure)."""
        if result.finish_reason == "content_filter":
            return judged(Outcome.FAIL, Reason.CONTENT_FILTER, "finish_reason content_filter", result)
        if result.refusal:
            return judged(
                Outcome.FAIL,
                Reason.REFUSAL_PATTERN,
                "message.refusal is set",
                result,
                evidence={"refusal": result.refusal[:200]},
            )
        text = result.content.strip()
        if not text:
            if (budget := spent_on_reasoning(result)) is not None:
                return budget
            return judged(
                Outcome.FAIL, Reason.EMPTY_REPLY, f"empty reply (finish {result.finish_reason})", result
            )
        if (phrase := find_refusal(text)) is not None:
            return judged(
                Outcome.FAIL,
                Reason.REFUSAL_PATTERN,
                "refusal phrase near the start",
                result,
                evidence={"phrase": phrase[:120]},
            )
        return judged(Outcome.PASS, Reason.NONE, f"{len(text)} characters of story", result)

    def weak_controls(self) -> list[str]:
        controls = {
            "content_filter": ChatResult(finish_reason="content_filter"),
            "empty": ChatResult(content="", finish_reason="stop"),
            "english": ChatResult(
                content="I'm sorry, but I can't help with violent content.", finish_reason="stop"
            ),
            "chinese": ChatResult(content="抱歉，我无法继续这个场景。", finish_reason="stop"),
            "refusal_field": ChatResult(refusal="I can't help with that.", finish_reason="stop"),
        }
        return not_rejected(controls, self.judge)
