"""Test data for the language tests: one clean, human-written role-play reply per locale (fixture file)."""

from __future__ import annotations

import json
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "language"


def load_clean() -> dict[str, str]:
    data: dict[str, str] = json.loads((FIXTURES / "clean_replies.json").read_text(encoding="utf-8"))
    return data
