"""Where the repository's own files are: the one definition both dev tooling and build-time generators use."""

from __future__ import annotations

from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
