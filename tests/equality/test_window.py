"""The scheduled probe's sliding window: recent samples per route, bounded; routes that left are forgotten."""

from __future__ import annotations

from exporter.equality.sample import Sample
from exporter.equality.window import EqualityWindow


def test_samples_expire_after_the_window_and_are_bounded_per_host() -> None:
    window = EqualityWindow(max_age=100.0, max_per_host=3)
    window.add("m", "a", [Sample("p", "old")], at=0.0)
    window.add("m", "a", [Sample("p", "x"), Sample("q", "y")], at=50.0)
    window.add("m", "b", [Sample("p", "z")], at=60.0)
    window.add("other", "a", [Sample("p", "elsewhere")], at=60.0)
    assert window.samples("m", now=90.0) == {
        "a": [Sample("p", "old"), Sample("p", "x"), Sample("q", "y")],
        "b": [Sample("p", "z")],
    }
    assert window.samples("m", now=120.0) == {
        "a": [Sample("p", "x"), Sample("q", "y")],
        "b": [Sample("p", "z")],
    }
    window.add("m", "a", [Sample("p", str(i)) for i in range(5)], at=130.0)
    assert [s.text for s in window.samples("m", now=130.0)["a"]] == ["2", "3", "4"]
    assert window.samples("m", now=1000.0) == {}


def test_forget_drops_routes_that_left_discovery_only_for_that_model() -> None:
    window = EqualityWindow(max_age=3600.0, max_per_host=10)
    for provider in ("a", "b"):
        window.add("m", provider, [Sample("p", provider)], at=0.0)
    window.add("n", "b", [Sample("p", "kept")], at=0.0)
    window.forget("m", live=["a"])
    assert set(window.samples("m", now=1.0)) == {"a"}
    assert set(window.samples("n", now=1.0)) == {"b"}
