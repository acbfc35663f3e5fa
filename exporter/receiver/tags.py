"""Provider routing tags as the gateway matches them: canonical form and base-slug coverage (pure).

OpenRouter matches ``provider.ignore``/``order``/``only`` entries as lowercase slugs (docs/receiver.md,
"Tags"; /work/shared/reference/openrouter.md §2.1): ``"deepinfra"`` (a base slug) matches ``deepinfra``
and every ``deepinfra/<variant>`` endpoint, while a full tag matches only itself. So ``BETA/fp8``,
``beta/fp8 `` and ``beta/FP8`` are one host, and an exclusion of ``beta`` excludes ``beta/fp8``.

>>> canonical_tag("  BETA/fp8 ")
'beta/fp8'
"""

from __future__ import annotations

from collections.abc import Iterable


def canonical_tag(text: str) -> str:
    """The tag as the gateway compares it: surrounding whitespace removed, lowercase."""
    return text.strip().lower()


def uncovered(hosts: Iterable[str], entries: Iterable[str]) -> tuple[str, ...]:
    """The ``hosts`` no entry excludes, sorted. Linear: a host is covered by itself or by its base slug, so
    two set lookups decide it, however many entries and hosts there are.

    >>> uncovered(["deepinfra/turbo", "beta/fp8", "gamma"], ["deepinfra", "gamma"])
    ('beta/fp8',)
    """
    excluded = frozenset(entries)
    return tuple(
        sorted(
            h for h in hosts if h not in excluded and ("/" not in h or h.partition("/")[0] not in excluded)
        )
    )
