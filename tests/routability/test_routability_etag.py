"""If-None-Match matching for the read API: weak tags, ``*``, lists, malformed headers."""

from __future__ import annotations

import doctest

import pytest

import exporter.web.etag
from exporter.web.etag import etag_matches, etag_of

TAG = '"0123abcd"'


@pytest.mark.parametrize(
    ("header", "matches"),
    [
        ('"0123abcd"', True),
        ('W/"0123abcd"', True),  # weak comparison (RFC 9110 §13.1.2): W/ is ignored
        ("*", True),
        ("  *  ", True),
        ('"other", W/"0123abcd"', True),
        ('"other",W/"0123abcd"', True),
        ('"other", , "0123abcd",', True),  # empty list elements are allowed
        ('"a,b", "0123abcd"', True),  # a comma inside a quoted tag does not split it
        ('"other"', False),
        ('"0123abc"', False),
        ('"0123abcd0"', False),
        ("0123abcd", False),  # unquoted: not an entity tag
        ('w/"0123abcd"', False),  # the weak prefix is case-sensitive
        ('"other", garbage "0123abcd"', False),  # malformed list: the full answer is the safe choice
        ("", False),
        (None, False),
    ],
)
def test_if_none_match(header: str | None, matches: bool) -> None:
    assert etag_matches(header, TAG) is matches


def test_a_weak_current_etag_is_matched_by_its_strong_form() -> None:
    assert etag_matches(TAG, f"W/{TAG}")


def test_the_one_etag_helper_is_strong_quoted_and_changes_with_the_bytes() -> None:
    assert doctest.testmod(exporter.web.etag).failed == 0
    tag = etag_of([b'{"a":1}'])
    assert tag.startswith('"') and tag.endswith('"') and not tag.startswith("W/")
    assert etag_of([b'{"a":2}']) != tag and etag_matches(tag, etag_of([b'{"a"', b":1}"]))
