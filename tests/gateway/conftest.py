"""Shared helpers for the gateway tests: fixture paths and stream splitting."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gateway"


def read_stream(name: str) -> bytes:
    return (FIXTURES / "streams" / name).read_bytes()


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES
