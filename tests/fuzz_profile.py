"""How many examples the property and fuzz tests try: the full count by default, a tenth in the fast loop.

``HYPOTHESIS_PROFILE=fast`` (``scripts/test --fast`` sets it) loads Hypothesis' ``fast`` profile, 10 examples
where a test names no count, and ``examples(n)`` gives a tenth of the counts the tests name (at least 5).
Unset, or ``full`` (CI, ``scripts/test``), every test keeps its full count. ``tests/conftest.py`` imports this
module first, so the profile is loaded before any test module builds its ``@settings``.

Example::

    @settings(max_examples=examples(200), deadline=None)
    @given(st.binary())
    def test_garbage_never_raises(data: bytes) -> None: ...
"""

from __future__ import annotations

import os

from hypothesis import settings

# max_examples where a test names no count (Hypothesis' own default is 100)
PROFILES = {"full": 100, "fast": 10}
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or "full"
if PROFILE not in PROFILES:
    raise SystemExit(f"HYPOTHESIS_PROFILE: expected one of {', '.join(PROFILES)}, got {PROFILE!r}")
for _name, _count in PROFILES.items():
    settings.register_profile(_name, max_examples=_count)
settings.load_profile(PROFILE)


def examples(full: int) -> int:
    """``max_examples`` for a test whose full count is ``full``: as is, or a tenth (at least 5) when fast."""
    return full if PROFILE == "full" else max(5, full * PROFILES[PROFILE] // PROFILES["full"])
