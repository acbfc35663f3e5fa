"""Builders shared by the receiver tests: configs, alerts, notifications and a settable clock."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

from exporter.configkit import Secret
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.ladder import Ladder, Offense
from exporter.receiver.state import (
    Decision,
    Episode,
    Fold,
    Hold,
    Incident,
    Mode,
    Part,
    Route,
    State,
    Suspension,
)
from exporter.receiver.tables import Figures
from exporter.timestamps import format_rfc3339

WEBHOOK_TOKEN = "webhook-token-for-tests"
ADMIN_TOKEN = "admin-token-for-tests"
DAY = 86400.0
T0 = 1_800_000_000.0
FIXTURES = Path(__file__).parent / "fixtures"


@dataclass
class Clock:
    now: float = T0

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


def make_config(store_dir: Path, **overrides: Any) -> ReceiverConfig:
    values: dict[str, Any] = {
        "store_dir": store_dir,
        "webhook_token": Secret("env:TEST_WEBHOOK", WEBHOOK_TOKEN),
        "admin_token": Secret("env:TEST_ADMIN", ADMIN_TOKEN),
        "mode": Mode.ENFORCE,
    }
    values.update(overrides)
    return ReceiverConfig(**values)


def alert(
    provider: str,
    *,
    model: str = "m/x",
    action: str | None = "suspend",
    status: str = "firing",
    starts_at: float = T0 - 3600,
    discovered: str | None = "a/1,b/1,c/1,d/1",
    alertname: str | None = None,
) -> dict[str, Any]:
    labels = {
        "alertname": alertname
        or ("CanaryProviderRecovered" if action == "recover" else "CanaryProviderFailing"),
        "model": model,
        "provider": provider,
        "severity": "warning",
    }
    if action is not None:
        labels["action"] = action
    annotations = {"summary": "s"}
    if discovered is not None:
        annotations["discovered_providers"] = discovered
    return {
        "status": status,
        "labels": labels,
        "annotations": annotations,
        "startsAt": format_rfc3339(starts_at),
        "endsAt": "0001-01-01T00:00:00Z",
        "fingerprint": "0123456789abcdef",
    }


def payload(*alerts: dict[str, Any], version: str = "4") -> dict[str, Any]:
    return {
        "version": version,
        "status": "firing",
        "receiver": "canary",
        "groupKey": "{}:{}",
        "alerts": list(alerts),
    }


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def schemathesis(document_url: str, config: Path, workdir: Path, examples: int, *options: str) -> str:
    """Run ``schemathesis run --checks all`` against a served document; its summary, asserting success.

    Every check, seeded, one worker; ``config`` gives each security scheme its token. A failure asserts
    with the CLI's report."""
    cli = Path(sys.executable).with_name("schemathesis")
    command = [str(cli), "--config-file", str(config), "--no-color", "run", document_url, "--checks", "all"]
    command += ["--max-examples", str(examples), "--seed", "20261201", "--workers", "1", *options]
    command += ["--report-dir", str(workdir / "report")]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900, cwd=workdir)
    summary = done.stdout[done.stdout.find("SUMMARY") :] if "SUMMARY" in done.stdout else done.stdout
    assert done.returncode == 0, summary[-6000:] + done.stderr[-2000:]
    return summary


def apply_decisions(state: State, decisions: Iterable[Decision], ladder: Ladder | None = None) -> State:
    """Fold decisions into the state as the store's replay does (``state.Fold``; the input state is not
    modified). Counted-only repeats (``seq`` 0) are skipped: they change nothing."""
    fold = Fold(state, ladder)
    for d in decisions:
        if d.journaled:
            fold.apply(d)
    return fold.result()


def state_of(
    *,
    suspensions: Mapping[Route, Suspension] = MappingProxyType({}),
    history: Mapping[Route, tuple[Offense, ...]] = MappingProxyType({}),
    holds: Mapping[Route, Hold] = MappingProxyType({}),
    incidents: Mapping[str, Incident] = MappingProxyType({}),
) -> State:
    """A state holding the given records (by route, incidents by id)."""
    drafts: dict[str, dict[str, dict[str, Any]]] = {}

    def draft(model: str, name: str) -> dict[str, Any]:
        return drafts.setdefault(model, {}).setdefault(name, {})

    for (m, p), s in suspensions.items():
        draft(m, "suspensions")[p] = s
    for (m, p), h in history.items():
        draft(m, "history")[p] = h
    for (m, p), hold in holds.items():
        draft(m, "holds")[p] = hold
    for key, i in incidents.items():
        draft(i.model, "incidents")[key] = i
    parts = {m: Part(**{k: MappingProxyType(v) for k, v in d.items()}) for m, d in drafts.items()}
    return State(parts=MappingProxyType(parts))


def materialized(state: State) -> State:
    """``state`` holding every part, read from its source now (a state read from a store can be read only
    while the store is open, and reads the newest committed parts)."""
    return State(state.seq, state.pruned_at, MappingProxyType(dict(state.all_parts())))


@dataclass(frozen=True)
class Records:
    """Every record of a state across its models: by route, incidents and episodes by key, hosts by model
    (the receiver itself reads one model's part at a time)."""

    suspensions: dict[Route, Suspension]
    history: dict[Route, tuple[Offense, ...]]
    holds: dict[Route, Hold]
    recovered: dict[Route, float]
    failing: dict[Route, float]
    incidents: dict[str, Incident]
    episodes: dict[str, Episode]
    discovered: dict[str, frozenset[str]]
    joined_hosts: dict[str, Mapping[str, float]]


def records(state: State) -> Records:
    """Every record of ``state`` (reads every part)."""
    parts = list(state.all_parts())

    def by_route(name: str) -> dict[Route, Any]:
        return {(m, k): v for m, part in parts for k, v in getattr(part, name).items()}

    return Records(
        suspensions=by_route("suspensions"),
        history=by_route("history"),
        holds=by_route("holds"),
        recovered=by_route("recovered"),
        failing=by_route("failing"),
        incidents={k: i for _, part in parts for k, i in part.incidents.items()},
        episodes={k: e for _, part in parts for k, e in part.episodes.items()},
        discovered={m: part.discovered for m, part in parts if part.discovered is not None},
        joined_hosts={m: part.joined for m, part in parts if part.joined},
    )


def figures_of(state: State, now: float, ladder: Ladder) -> Figures:
    """``Tables.figures`` as the definitions say, from a state's records in memory."""
    every = records(state)
    in_force = sorted(
        (i for i in every.incidents.values() if i.until is None or i.until > now),
        key=lambda i: (i.model, i.provider, i.id),
    )
    suspended = [s for s in every.suspensions.values() if s.until > now]
    return Figures(
        suspended=sorted((s.model, s.provider, str(s.mode), s.rung, s.until) for s in suspended),
        offense_levels=sorted((*r, n) for r, h in every.history.items() if (n := ladder.level(h, now))),
        incidents=[(i.model, i.provider) for i in in_force],
        enforced=dict(Counter(s.model for s in suspended if s.mode is Mode.ENFORCE)),
        holds=sorted(every.holds),
        models=sorted(state.models()),
    )
