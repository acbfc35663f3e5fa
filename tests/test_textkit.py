"""The one way text is cut for people: never longer than asked, marked where it was cut."""

from __future__ import annotations

import doctest

from hypothesis import given, settings
from hypothesis import strategies as st

from exporter import textkit
from exporter.textkit import clip
from tests.fuzz_profile import examples


def test_docstring_examples() -> None:
    failures, tried = doctest.testmod(textkit)
    assert tried and failures == 0


@settings(max_examples=examples(200))
@given(st.text(), st.integers(min_value=1, max_value=80), st.booleans())
def test_a_clipped_text_fits_and_says_where_it_was_cut(text: str, width: int, flat: bool) -> None:
    out = clip(text, width, flat=flat)
    whole = " ".join(text.split()) if flat else text
    assert len(out) <= width
    assert out == whole if len(whole) <= width else (out.endswith("…") and whole.startswith(out[:-1]))
