"""Language and encoding integrity contract (design.md §5.4): the reply is in the asked locale, clean, whole.

Each round a provider gets one locale, rotating through the configured list (offset per provider, so hosts
do not all get the same locale in one round). A provider whose last judged round failed a locale gets that
locale again, so rotation cannot let it escape the consecutive-round rule. The reply is judged locally by
``exporter.language.judge``; on a ``fail`` two confirmation requests go out at once and the majority of the
three decides. A confirmation that cannot be judged (transport error, pin violation) freezes the round: the
result is that non-evidence outcome, never a fail.

Configuration (``contracts.language``)::

    locales: [en, es, pt-BR]        # default: the 17 built-in locales
    max_tokens: 400                 # enough for ~600 characters in any script
    confirmations: 2                # extra attempts on a fail; majority of 1 + confirmations decides
    prompts:                        # optional: replace a locale's built-in prompts
      pt-BR:
        - system: "Você é ..."      # written in the locale: nothing else tells a host which one
          user: "..."
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cached_property

from pydantic import ValidationInfo, field_validator

from exporter.configkit import ConfigModel, Int, StrList, Text, invalid, invalid_all, key
from exporter.contracts.base import (
    Contract,
    ContractSettings,
    ProbeContext,
    ProbeResult,
    judged,
    locale_codes,
    spent_on_reasoning,
    unjudgeable,
)
from exporter.contracts.reply_checks import screen_reply
from exporter.gateway.types import ChatResult
from exporter.language.judge import default_judge
from exporter.language.locales import (
    DEFAULT_LOCALES,
    LOCALES,
    LocaleSpec,
    Prompt,
    canonical_locale,
)
from exporter.outcomes import Outcome, Reason

_FAILED_LOCALE = "failed_locale"  # memory key: the locale a provider failed in its last judged round

# Offline positive controls: one known-bad reply per failure kind. Any not judged ``fail`` makes the
# contract weak for the round.
CONTROLS: dict[str, tuple[str, str]] = {
    "switch": (
        "de",
        "La tormenta por fin ha pasado y el mar está en calma. Recuerdo aquella noche como si fuera ayer: "
        "el viento arrancó las velas y el agua entraba por todas partes. Nadie creía que saldríamos vivos.",
    ),
    "mixing": (
        "pt-BR",
        "A tempestade finalmente passou e o mar está calmo de novo. Eu me lembro daquela noite como se "
        "fosse ontem. El viento arrancó las velas y el agua entraba por todas partes del barco. Nadie "
        "creía que saldríamos vivos de aquella tormenta tan terrible. Mas nós sobrevivemos, e é isso que "
        "importa agora.",
    ),
    "encoding": (
        "fr",
        "La tempÃªte est enfin passÃ©e et la mer est calme. Je me souviens de cette nuit comme si "
        "c'Ã©tait hier.",
    ),
    "leading_garbage": (
        "es",
        "ción La tormenta por fin ha pasado y el mar está en calma. Recuerdo aquella noche como si "
        "fuera ayer.",
    ),
}


class PromptKeys(ConfigModel):
    system: Text = key(meaning="the system message, written in the locale")
    user: Text = key(meaning="the user message, written in the locale")


class LanguageSettings(ContractSettings):
    locales: StrList = key(DEFAULT_LOCALES, "the locales the rotation goes through", shown="the 17 locales")
    prompts: dict[str, tuple[PromptKeys, ...]] = key(
        default_factory=dict,
        meaning="per locale, a list of `{system, user}` prompts replacing its built-in ones",
        shown="built in",
    )
    confirmations: Int = key(
        2, "extra attempts on a fail; the majority of 1 + confirmations decides", ge=0, le=6
    )
    max_tokens: Int = key(400, "enough for ~600 characters in any script", ge=64, le=8192)

    @field_validator("locales")
    @classmethod
    def _known(cls, codes: tuple[str, ...]) -> tuple[str, ...]:
        return locale_codes(codes, once=True)

    @field_validator("prompts")
    @classmethod
    def _prompted_locales(
        cls, prompts: dict[str, tuple[PromptKeys, ...]], info: ValidationInfo
    ) -> dict[str, tuple[PromptKeys, ...]]:
        problems: list[tuple[tuple[str | int, ...], str]] = []
        locales = info.data.get("locales")
        for code, items in prompts.items():
            if (known := canonical_locale(code)) is None:
                problems.append(((code,), f"unknown locale (known: {', '.join(DEFAULT_LOCALES)})"))
            elif not items:
                problems.append(((code,), "expected a list of {system, user} prompts"))
            if known is not None and locales is not None and known not in locales:
                problems.append(((), f"prompts given for {known!r}, which is not in locales"))
        if problems:
            raise invalid_all(problems)
        return {str(canonical_locale(code)): items for code, items in prompts.items()}

    @field_validator("confirmations")
    @classmethod
    def _even(cls, confirmations: int) -> int:
        if confirmations % 2:
            raise invalid("expected an even number (the majority of 1 + confirmations decides)")
        return confirmations

    @cached_property
    def specs(self) -> tuple[LocaleSpec, ...]:
        """The rotation's locales, each with its configured prompts in place of the built-in ones."""
        return tuple(
            replace(LOCALES[code], prompts=tuple(Prompt(p.system, p.user) for p in self.prompts[code]))
            if code in self.prompts
            else LOCALES[code]
            for code in self.locales
        )

    def build(self) -> LanguageContract:
        return LanguageContract(self)


@dataclass(frozen=True, slots=True)
class LanguageContract(Contract):
    settings: LanguageSettings = field(default_factory=LanguageSettings)

    name = "language"
    Settings = LanguageSettings

    # -- rotation ------------------------------------------------------------------------------------------
    def choose(self, ctx: ProbeContext) -> tuple[LocaleSpec, Prompt]:
        """This round's locale and prompt for the provider: ``ctx.locale`` when set, else the failed locale
        again, else the rotation."""
        specs = self.settings.specs
        wanted = canonical_locale(ctx.locale) if ctx.locale is not None else ctx.memory.get(_FAILED_LOCALE)
        known = {**(LOCALES if ctx.locale is not None else {}), **{spec.code: spec for spec in specs}}
        spec = known.get(wanted) if isinstance(wanted, str) else None
        if spec is None:
            spec = specs[ctx.turn % len(specs)]
        return spec, spec.prompts[ctx.turn // len(specs) % len(spec.prompts)]

    # -- probing -------------------------------------------------------------------------------------------
    async def sample(self, ctx: ProbeContext) -> ProbeResult:
        spec, prompt = self.choose(ctx)
        request = ctx.request(prompt.messages(), self.settings.max_tokens)
        result = await ctx.gateway.chat(request)
        if (unjudged := unjudgeable(result, ctx.target) or spent_on_reasoning(result)) is not None:
            return replace(unjudged, locale=spec.code)
        if not result.content.strip():
            return judged(Outcome.INCONCLUSIVE, Reason.EMPTY_REPLY, "empty reply", result, locale=spec.code)
        if (verdict := screen_reply(result, request.max_tokens)) is not None:
            # Refused, cut short or looping: not the story asked for, whatever its language.
            verdict = replace(verdict, evidence={"locale": spec.code, **verdict.evidence})
        else:
            verdict = default_judge().judge(result.content, spec.code)
        evidence = dict(verdict.evidence)
        if result.finish_reason is not None:
            evidence["finish_reason"] = result.finish_reason
        return judged(
            verdict.outcome,
            verdict.reason,
            verdict.detail,
            result,
            span=_offending_span(evidence),
            locale=spec.code,
            evidence=evidence,
        )

    async def probe(self, ctx: ProbeContext) -> ProbeResult:
        """One sample; on a ``fail``, ``confirmations`` more samples of the same locale and prompt at once,
        and the majority decides (every sample is kept in ``attempts``)."""
        first = await self.sample(ctx)
        result = first
        if first.outcome is Outcome.FAIL and self.settings.confirmations:
            same = replace(ctx, locale=first.locale)
            more = await asyncio.gather(*(self.sample(same) for _ in range(self.settings.confirmations)))
            result = replace(self._decide(first, list(more)), attempts=(first, *more))
        if result.outcome is Outcome.FAIL:
            ctx.memory[_FAILED_LOCALE] = first.locale
        elif result.outcome is Outcome.PASS:
            ctx.memory.pop(_FAILED_LOCALE, None)
        return result

    def _decide(self, first: ProbeResult, confirmations: list[ProbeResult]) -> ProbeResult:
        """Majority of the first attempt and its confirmations; an unjudgeable confirmation freezes."""
        attempts = [first, *confirmations]
        summary = [{"outcome": str(a.outcome), "reason": str(a.reason)} for a in attempts]
        evidence = {**first.evidence, "attempts": summary}
        frozen = next(
            (a for a in confirmations if not a.outcome.is_evidence and a.outcome is not Outcome.INCONCLUSIVE),
            None,
        )
        if frozen is not None:
            detail = f"confirmation could not be judged ({frozen.outcome}): {frozen.detail}"[:300]
            return replace(frozen, detail=detail, evidence=evidence)
        majority = len(attempts) // 2 + 1
        fails = [a for a in attempts if a.outcome is Outcome.FAIL]
        passes = [a for a in attempts if a.outcome is Outcome.PASS]
        if len(fails) >= majority:
            reason = Counter(a.reason for a in fails).most_common(1)[0][0]
            chosen = next(a for a in fails if a.reason is reason)
            detail = f"{len(fails)} of {len(attempts)} attempts failed: {chosen.detail}"
            evidence = {**chosen.evidence, "attempts": summary}
            return replace(chosen, detail=detail, evidence=evidence)
        if len(passes) >= majority:
            detail = f"not confirmed: {len(passes)} of {len(attempts)} passed"
            return replace(passes[0], detail=detail, evidence=evidence)
        return ProbeResult(
            Outcome.INCONCLUSIVE,
            Reason.AMBIGUOUS,
            "no majority among the attempts",
            locale=first.locale,
            evidence=evidence,
            reply=ChatResult(served_by=first.reply.served_by),
        )

    def prepare(self) -> None:
        """The language models, and the lexicons and encoding tables of the rotation's locales (about 0.1 s
        a locale)."""
        default_judge().warm(self.settings.locales)

    # -- positive controls ---------------------------------------------------------------------------------
    def weak_controls(self) -> list[str]:
        judge = default_judge()
        return [
            name
            for name, (code, text) in CONTROLS.items()
            if judge.judge(text, code).outcome is not Outcome.FAIL
        ]


def _offending_span(evidence: dict[str, object]) -> tuple[int, int] | None:
    """The first span the judge pointed at: a foreign sentence's ``start``/``end``, or a corruption's
    ``offset`` (with a little context), if any."""
    for item in _walk(evidence):
        start, end, offset = item.get("start"), item.get("end"), item.get("offset")
        if isinstance(start, int) and isinstance(end, int):
            return start, end
        if isinstance(offset, int):
            return max(0, offset - 16), offset + 16
    return None


def _walk(value: object) -> list[dict[str, object]]:
    if isinstance(value, dict):
        return [value, *(d for v in value.values() for d in _walk(v))]
    if isinstance(value, list | tuple):
        return [d for v in value for d in _walk(v)]
    return []
