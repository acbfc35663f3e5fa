"""Prometheus metric families in one call: the collectors of the exporter, receiver, routability service
and evidence store build fresh families per scrape from an immutable snapshot, each family a table row.

``samples`` is a number (one series without labels), a mapping of label values to a value (emitted
sorted, so the text is stable), or an iterable of ``(label values, value)`` pairs (emitted in order). A
single label value may be given as a plain string.

Example::

    >>> g = gauge("canary_x", "An example.", {("m/a",): 1.0}, labels=("model",))
    >>> [(s.labels, s.value) for s in g.samples]
    [({'model': 'm/a'}, 1.0)]
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

K = TypeVar("K", bound=str | tuple[str, ...])  # one label value, or one per label
Samples = float | Mapping[K, float] | Iterable[tuple[K, float]]
F = TypeVar("F", GaugeMetricFamily, CounterMetricFamily)
T = TypeVar("T")


def gauge(
    name: str, documentation: str, samples: Samples[K] = (), labels: Sequence[str] = ()
) -> GaugeMetricFamily:
    """A gauge family filled with ``samples``."""
    return _filled(GaugeMetricFamily(name, documentation, labels=list(labels)), samples)


def counter(
    name: str, documentation: str, samples: Samples[K] = (), labels: Sequence[str] = ()
) -> CounterMetricFamily:
    """A counter family (``name`` without ``_total``) filled with ``samples``."""
    return _filled(CounterMetricFamily(name, documentation, labels=list(labels)), samples)


def gauges(
    items: Sequence[tuple[K, T]],
    labels: Sequence[str],
    table: Iterable[tuple[str, str, Callable[[T], float | None]]],
) -> Iterator[GaugeMetricFamily]:
    """One gauge per ``(name, documentation, value)`` row of ``table`` over the same ``(label values,
    item)`` pairs; an item whose ``value`` is None has no sample in that family."""
    for name, documentation, value in table:
        samples = [(key, v) for key, item in items if (v := value(item)) is not None]
        yield gauge(name, documentation, samples, labels)


def _filled(family: F, samples: Samples[K]) -> F:
    if isinstance(samples, int | float):
        family.add_metric([], float(samples))
        return family
    pairs = sorted(samples.items()) if isinstance(samples, Mapping) else samples
    for key, value in pairs:
        family.add_metric([key] if isinstance(key, str) else list(key), value)
    return family
