"""Webhook payload parsing: real Alertmanager and Grafana shapes, and precise errors for bad ones."""

from __future__ import annotations

import json

import pytest

from exporter.receiver.payloads import Action, Notification, PayloadError, Source, parse_notification
from exporter.timestamps import parse_rfc3339

from .helpers import FIXTURES, alert, payload


def load(name: str) -> Notification:
    result = parse_notification(json.loads((FIXTURES / name).read_text()))
    assert isinstance(result, Notification), result
    return result


def test_alertmanager_payload_is_read_alert_by_alert() -> None:
    n = load("alertmanager_v4.json")
    assert n.source is Source.ALERTMANAGER
    first, second = n.alerts
    assert (first.status, first.action, first.model, first.provider) == (
        "firing",
        Action.SUSPEND,
        "moonshotai/kimi-k2-0905",
        "garbler/bf16",
    )
    assert first.discovered == {
        "deepinfra/fp8",
        "garbler/bf16",
        "mixer/fp8",
        "parasail/fp8",
        "strictguard/text",
    }
    assert first.starts_at == pytest.approx(parse_rfc3339("2026-11-29T15:41:37.580Z"))
    assert second.status == "resolved"  # judged on its own status, not the top-level "firing"
    assert second.starts_at == pytest.approx(parse_rfc3339("2026-11-29T14:00:00.123456Z"))


def test_grafana_payload_and_its_datasource_alerts_never_act() -> None:
    n = load("grafana_v1.json")
    assert n.source is Source.GRAFANA
    real, nodata, error = n.alerts
    assert real.action is Action.SUSPEND and real.provider == "jsonbreaker/fp8"
    assert real.discovered == {"deepinfra/fp8", "jsonbreaker/fp8", "parasail/fp8", "novita/fp8"}
    assert real.starts_at == parse_rfc3339("2026-11-29T15:00:00Z")  # +01:00 offset honoured
    assert nodata.labels["action"] == "suspend" and nodata.action is None  # carries the rule's labels
    assert error.action is None


def test_episode_key_is_stable_across_repeats_and_changes_with_startsat() -> None:
    a = parse_notification(payload(alert("a/1")))
    b = parse_notification(payload(alert("a/1")))
    c = parse_notification(payload(alert("a/1", starts_at=0.0)))
    assert isinstance(a, Notification) and isinstance(b, Notification) and isinstance(c, Notification)
    assert a.alerts[0].episode == b.alerts[0].episode != c.alerts[0].episode


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ([], "<body>: expected a JSON object, got a list"),
        ({"alerts": []}, "version: missing (Alertmanager sends '4', Grafana sends '1')"),
        ({"version": "3", "alerts": []}, "version: expected '4' (Alertmanager) or '1' (Grafana), got '3'"),
        ({"version": 4, "alerts": []}, "version: expected '4' (Alertmanager) or '1' (Grafana), got 4"),
        ({"version": "4"}, "alerts: missing (expected a list of alerts)"),
        ({"version": "4", "alerts": {}}, "alerts: expected a list, got an object"),
        ({"version": "4", "alerts": [1]}, "alerts[0]: expected an object, got a number"),
        (
            payload(
                alert("a/1"), alert("b/1"), {**alert("c/1"), "labels": {"action": "suspend", "model": "m"}}
            ),
            "alerts[2].labels.provider: missing "
            "(an alert with action='suspend' must name the provider's routing tag)",
        ),
        (
            payload({**alert("a/1"), "status": "pending"}),
            "alerts[0].status: expected 'firing' or 'resolved', got 'pending'",
        ),
        (
            payload({**alert("a/1"), "startsAt": "yesterday"}),
            "alerts[0].startsAt: expected an RFC 3339 timestamp such as 2026-11-29T15:41:37Z, "
            "got 'yesterday'",
        ),
        (
            payload({**alert("a/1"), "labels": {"x": 1}}),
            "alerts[0].labels.x: expected a string, got a number",
        ),
        (
            payload({k: v for k, v in alert("a/1").items() if k != "labels"}),
            "alerts[0].labels: missing (expected an object of string values)",
        ),
    ],
)
def test_bad_payloads_name_what_is_wrong_and_where(body: object, problem: str) -> None:
    result = parse_notification(body)
    assert isinstance(result, PayloadError)
    assert problem in result.problems


def test_every_problem_is_reported_at_once() -> None:
    bad = {**alert("a/1"), "status": "x", "startsAt": 5}
    result = parse_notification({"version": "4", "alerts": [bad, bad]})
    assert isinstance(result, PayloadError)
    assert len(result.problems) == 4
