"""The decision function: (state, input, clock) -> (new state, decisions). Pure; the service is the shell.

Inputs are webhook notifications, admin actions (lift, incident add/remove) and the passage of time
(expiry). Every entry point first expires what is due, then judges its input; alerts of one notification
are judged one after the other on the state the previous ones left, so the capacity floor holds within a
batch (and, because the service serialises calls, across concurrent deliveries).

Mode switches: in enforce mode, a firing suspend alert for a route under an observe-mode suspension
promotes it (``promote``: enforced at the same rung and until, no new offense).

Idempotency: an alert's episode key (``payloads.Alert.episode``) is remembered. A suspend alert is a
no-op while its route is suspended; an episode closed by an admin lift or an early recovery never
suspends again (a new episode must start).

Renewal: when a suspension ends while one of the route's suspend episodes is still firing (open, and no
resolution of it delivered: Alertmanager sends one with ``send_resolved: true``), it is renewed at once
at the next rung, in the same transaction as its expiry, so the host is never routable in between and no
Alertmanager repeat is awaited. The floor and the mode apply as to any suspension. An episode whose
resolution arrived expires instead, and so does a suspension that ended more than
``RENEWAL_GRACE_SECONDS`` before the receiver noticed (it was down: what it knew may be stale); a later
repeat of a still-firing episode suspends again as before.

Example::

    policy = config.receiver.policy()   # ReceiverConfig builds the Policy
    state, decisions = decide_notification(State(), notification, now=time.time(), policy=policy)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypedDict

from pydantic import JsonValue

from exporter.configkit import format_duration
from exporter.receiver.exclusions import BuiltinExclusion
from exporter.receiver.floor import FloorVerdict, check_floor
from exporter.receiver.ladder import Ladder
from exporter.receiver.merge import excluded_hosts
from exporter.receiver.payloads import Action, Alert, Notification, is_suspend_episode
from exporter.receiver.state import Decision, Fold, Kind, Mode, State, Suspension
from exporter.receiver.tags import canonical_tag, uncovered
from exporter.timestamps import format_rfc3339


@dataclass(frozen=True, slots=True)
class Policy:
    """The configured rules of judgement, built by ``ReceiverConfig.policy()`` (where every default and
    meaning is defined: ``mode``, ``ladder`` with ``fade_after``, ``min_routable_hosts``, the builtin
    exclusions, ``discovered_horizon``)."""

    mode: Mode
    ladder: Ladder
    min_routable_hosts: int
    builtin: tuple[BuiltinExclusion, ...]
    discovered_horizon: float


@dataclass(frozen=True, slots=True)
class Refused:
    """An admin request that cannot be carried out (nothing was decided)."""

    status: int  # HTTP status the API answers with
    message: str


Result = tuple[State, tuple[Decision, ...]]


class _Alerted(TypedDict):
    """The fields of a decision an alert (or a renewal of what one caused) asks for."""

    model: str
    provider: str
    episode: str
    source: str
    inputs: dict[str, JsonValue]
    discovered: tuple[str, ...] | None
    starts_at: float | None  # the alert's startsAt (a recovery's repeat: None, never a failure's start)


#: A suspension found ended later than this (the receiver was down) is not renewed from what it knew
#: before: it expires, and the next Alertmanager repeat of a still-firing alert suspends it again.
RENEWAL_GRACE_SECONDS = 600.0
#: How far an alert's ``startsAt`` may be ahead of the receiver's clock (clock skew between Prometheus and
#: the receiver). A later one is judged as starting now, and the decision's ``inputs.starts_at_clamped``
#: says so: a time from the future would make every later recovery of the route "stale" (or every later
#: failure "recovered").
FUTURE_SKEW_SECONDS = 300.0


class _Run:
    """Accumulates decisions, applying each at once so the next judgement sees its effect."""

    def __init__(self, state: State, now: float, policy: Policy) -> None:
        """Every judgement starts by expiring what is due, so it sees the state of ``now``."""
        self.state, self.now, self.policy = state, now, policy
        self.decisions: list[Decision] = []
        self._fold: Fold | None = (
            None  # made at the first decision: a judgement that decides nothing copies nothing
        )
        self.expire()

    def add(self, kind: Kind, reason: str, **fields: object) -> Decision:
        if self._new_hosts(fields) is False:
            # Already the model's hosts in the log: the fold is the same without it, and a batch of many
            # alerts sharing one discovered_providers annotation does not store it once per alert.
            fields["discovered"] = None
        decision = Decision(seq=self.state.seq + 1, at=self.now, kind=kind, reason=reason, **fields)  # type: ignore[arg-type]
        if self._fold is None:
            self._fold = Fold(self.state, self.policy.ladder)
        self._fold.apply(decision)
        self.state = self._fold.result()
        self.decisions.append(decision)
        return decision

    def repeat(self, kind: Kind, reason: str, **fields: object) -> None:
        """A duplicate or ignored input: journaled the first time its episode is seen (or when it tells
        new discovered hosts), otherwise only counted (``seq`` 0), so repeats cost nothing durable."""
        episode, model = fields.get("episode"), fields.get("model")
        part = self.state.part(
            model if isinstance(model, str) else ""
        )  # where the episode is kept (``Fold.apply``)
        if (episode is not None and episode not in part.episodes) or self._new_hosts(fields):
            self.add(kind, reason, **fields)
        else:
            self.decisions.append(Decision(seq=0, at=self.now, kind=kind, reason=reason, **fields))  # type: ignore[arg-type]

    def _new_hosts(self, fields: Mapping[str, object]) -> bool | None:
        """Whether a decision's ``fields`` tell its model's hosts anew; None when they tell none."""
        discovered, model = fields.get("discovered"), fields.get("model")
        if not isinstance(discovered, tuple) or not isinstance(model, str):
            return None
        return frozenset(discovered) != self.state.part(model).discovered

    def expire(self) -> None:
        models = self.state.due_models(self.now)  # an index look-up: nothing is due in the common case
        if not models:
            return
        parts = [(m, self.state.part(m)) for m in models]
        due = sorted(
            ((m, p), s) for m, part in parts for p, s in part.suspensions.items() if s.until <= self.now
        )
        renewals = [
            (s, firing)
            for _, s in due
            if self.now - s.until <= RENEWAL_GRACE_SECONDS and (firing := _still_firing(self.state, s))
        ]
        for (model, provider), s in due:
            still = " while its suspend alert was still firing" if any(r is s for r, _ in renewals) else ""
            self.add(
                Kind.EXPIRE,
                f"{s.mode} suspension (rung {s.rung}) ended at {format_rfc3339(s.until)}{still}",
                model=model, provider=provider, mode=s.mode, rung=s.rung, until=s.until, source="clock",
            )  # fmt: skip
        for s, firing in renewals:  # after every expiry, so each renewal's floor sees the others ended
            _renew(self, s, firing)
        ended = sorted(
            (k, i)
            for _, part in parts
            for k, i in part.incidents.items()
            if i.until is not None and i.until <= self.now
        )
        for incident_id, i in ended:
            self.add(
                Kind.EXPIRE,
                f"incident {incident_id} ended at {format_rfc3339(i.until or self.now)}: {i.reason}",
                model=i.model, provider=i.provider, until=i.until, incident_id=incident_id, source="clock",
            )  # fmt: skip
        held = sorted(
            ((m, p), h)
            for m, part in parts
            for p, h in part.holds.items()
            if h.until is not None and h.until <= self.now
        )
        for (model, provider), h in held:
            self.add(
                Kind.EXPIRE,
                f"the hold of the lift at {format_rfc3339(h.since)} ended at "
                f"{format_rfc3339(h.until or self.now)}",
                model=model, provider=provider, until=h.until, source="clock", inputs={"ends": "lift_hold"},
            )  # fmt: skip

    def result(self) -> Result:
        return self.state, tuple(self.decisions)


def decide_expiry(state: State, now: float, policy: Policy) -> Result:
    """Expire suspensions and incidents whose time is up (an ``expire`` decision each)."""
    return _Run(state, now, policy).result()


def decide_notification(state: State, notification: Notification, now: float, policy: Policy) -> Result:
    """Judge every alert of one webhook delivery, in order, each on its own status."""
    run = _Run(state, now, policy)
    # Hosts a batch reports count for every alert of that batch, whatever their order, so a redelivery
    # of the same batch meets the same facts.
    batch_hosts: dict[str, frozenset[str]] = {}
    for alert in notification.alerts:
        if alert.action is not None and alert.status == "firing" and alert.model and alert.discovered:
            batch_hosts[alert.model] = alert.discovered
    # Recoveries first: capacity they free is then seen by every suspension of the batch, whatever the
    # order inside the payload, so a redelivered batch finds nothing left to do.
    for alert in sorted(notification.alerts, key=lambda a: a.action is not Action.RECOVER):
        _judge_alert(run, alert, str(notification.source), batch_hosts)
    return run.result()


def _judge_alert(run: _Run, alert: Alert, source: str, batch_hosts: dict[str, frozenset[str]]) -> None:
    inputs = alert.summary()
    action, model, provider = alert.action, alert.model, alert.provider
    if action is None or model is None or provider is None:
        why = (
            f"Grafana's own {alert.alertname} alert never acts"
            if alert.action is None and alert.labels.get("action") in ("suspend", "recover")
            else "no action label suspend/recover: recorded only"
        )
        run.repeat(
            Kind.IGNORED,
            why,
            model=model,
            provider=provider,
            source=source,
            inputs=inputs,
            episode=alert.episode,
        )
        return
    told = alert.discovered if alert.discovered is not None else batch_hosts.get(model)
    starts_at = alert.starts_at
    if starts_at > run.now + FUTURE_SKEW_SECONDS:  # a skewed clock: judged as starting now, audited
        inputs = {
            **inputs,
            "starts_at_clamped": f"startsAt {format_rfc3339(starts_at)} is later than the receiver's clock "
            f"plus the {FUTURE_SKEW_SECONDS:.0f} s skew allowance: judged as starting at "
            f"{format_rfc3339(run.now)}",
        }
        starts_at = run.now
    common: _Alerted = {
        "model": model,
        "provider": provider,
        "episode": alert.episode,
        "source": source,
        "inputs": inputs,
        "discovered": tuple(sorted(told)) if told is not None else None,
        "starts_at": starts_at,
    }
    if alert.status == "resolved":
        # Resolved also arrives when the exporter or Prometheus goes down: never a reason to lift.
        common["discovered"] = None  # may be stale: resolved also means "the exporter went away"
        if action is Action.SUSPEND:  # the episode no longer fails: its suspension will not be renewed
            common["inputs"] = {**inputs, "resolves": alert.firing_episode}
        run.repeat(
            Kind.IGNORED, f"resolved {action} alert: recorded only, never lifts a suspension", **common
        )
    elif action is Action.RECOVER:
        _judge_recovery(run, alert, common, starts_at)
    else:
        _judge_suspension(run, alert, common, starts_at)


def _judge_recovery(run: _Run, alert: Alert, common: _Alerted, starts_at: float) -> None:
    """A clean round: ends the suspension (and any lift hold) of the route, whatever the delivery order.

    The route's latest recovery ``startsAt`` is remembered, so a failing episode that started before it
    never suspends afterwards, and a recovery older than the latest failing episode seen ends nothing:
    the route is suspended exactly when a failure started after its last clean round, in any order.
    """
    state, route, episode = run.state, (common["model"], common["provider"]), alert.episode
    part = state.part(route[0])
    if episode in part.episodes:  # acts once, on its first delivery
        # (no starts_at: a recovery's start must never count as a failing episode's)
        run.repeat(
            Kind.DUPLICATE, "this recovery episode was already handled", **{**common, "starts_at": None}
        )
        return
    current, hold = part.suspensions.get(route[1]), part.holds.get(route[1])
    # the latest failing episode seen (current one included); never one from a clock ahead of ours
    started = _trusted(part.failing.get(route[1]), run.now)
    if current is not None and started is None:  # none, or only from a clock ahead of ours
        started = _trusted(current.starts_at, run.now) or current.since
    elif current is not None and current.starts_at is None:  # decided by a store from before starts_at
        started = max(started or current.since, current.since)
    if current is not None and started is not None and starts_at < started:
        run.repeat(
            Kind.IGNORED,
            f"stale recovery: it started at {format_rfc3339(starts_at)}, before the latest failing "
            f"episode of the route ({format_rfc3339(started)})",
            **common,
        )
        return
    fields: dict[str, object] = {"mode": current.mode, "rung": current.rung} if current is not None else {}
    if current is not None:
        reason = (
            f"early recovery of a {current.mode} suspension (rung {current.rung}, due to end "
            f"{format_rfc3339(current.until)}): the offense stays in the history"
        )
    elif hold is not None:
        reason = f"clean round after the lift at {format_rfc3339(hold.since)}: the hold is over"
    else:
        reason = (
            "recovery while not suspended (delivered before the failure it recovers, or after a lift): "
            "failing episodes that started before it will not suspend"
        )
    closes = _open_episodes(state, route) | {episode}
    run.add(Kind.RECOVER, reason, closes=tuple(sorted(closes)), **fields, **common)


def _judge_suspension(run: _Run, alert: Alert, common: _Alerted, starts_at: float) -> None:
    route = (common["model"], common["provider"])
    current = run.state.suspension(route)
    if current is not None and current.mode is Mode.OBSERVE and run.policy.mode is Mode.ENFORCE:
        # Switched from observe to enforce while this host still fails: enforce the would-be suspension
        # as it stands (same rung and end). Its offense was counted when it was decided, and the floor
        # already counted it as if enforced, so neither changes.
        run.add(
            Kind.PROMOTE,
            f"enforced the observe-mode suspension (rung {current.rung}, since "
            f"{format_rfc3339(current.since)}) until {format_rfc3339(current.until)}: the receiver now "
            "runs in enforce mode and the route still fails",
            mode=Mode.ENFORCE,
            rung=current.rung,
            until=current.until,
            **common,
        )
    elif why := _no_suspension(run.state, route, alert, starts_at, run.now):
        run.repeat(Kind.DUPLICATE, why, **common)
    else:
        _suspend(
            run, common, alert.explanation, lambda verdict: f" ({alert.alertname or 'alert'}; {verdict})"
        )


def _no_suspension(state: State, route: tuple[str, str], alert: Alert, starts_at: float, now: float) -> str:
    """Why a suspend alert of ``route`` (its start judged as ``starts_at``) changes nothing (a duplicate),
    or ``""`` when it suspends."""
    part = state.part(route[0])
    current, hold = part.suspensions.get(route[1]), part.holds.get(route[1])
    recovered, known = _trusted(part.recovered.get(route[1]), now), part.episodes.get(alert.episode)
    if current is not None:
        return (
            f"already suspended ({current.mode}, rung {current.rung}) until {format_rfc3339(current.until)}"
        )
    if recovered is not None and starts_at <= recovered:
        return f"stale: the route recovered at {format_rfc3339(recovered)}, after this episode started"
    if hold is not None:
        until = f"until {format_rfc3339(hold.until)} or" if hold.until is not None else "until"
        return f"held by the lift at {format_rfc3339(hold.since)} ({hold.reason}) {until} a clean round"
    if known is not None and known.closed_by is not None and known.closed_at is not None:
        return (
            f"this alert episode was closed by {known.closed_by} at {format_rfc3339(known.closed_at)}; "
            "only a new episode can suspend again"
        )
    return ""


def known_hosts(
    state: State, model: str, told: tuple[str, ...] | None, now: float, horizon: float
) -> frozenset[str] | None:
    """The hosts the capacity floor counts as routable for ``model`` (before exclusions): those of the
    list an input just ``told`` (else the newest the state holds) that every list of the last ``horizon``
    seconds held too. A model's first list counts at once; a host joining later counts once listed for
    ``horizon`` without a break. None when no list was ever received (the floor cannot be proven)."""
    part = state.part(model)
    newest = part.discovered
    if newest is None:
        return frozenset(told) if told is not None else None
    hosts = frozenset(told) if told is not None else newest
    joined = part.joined
    return frozenset(
        h for h in hosts if h in newest and ((at := joined.get(h)) is None or at <= now - horizon)
    )


def _trusted(at: float | None, now: float) -> float | None:
    """A remembered ``startsAt`` unless it is later than the clock allows (recorded by a store before
    ``FUTURE_SKEW_SECONDS`` clamped them): such a time says nothing, and would pin the route for ever."""
    return at if at is not None and at <= now + FUTURE_SKEW_SECONDS else None


def _suspend(
    run: _Run, common: _Alerted, explanation: Mapping[str, object], why: Callable[[str], str], *,
    renewal: Suspension | None = None,
) -> None:  # fmt: skip
    """Suspend the route of ``common`` at its next rung, unless the capacity floor forbids it.

    ``why`` turns the floor's verdict into the end of the reason; ``renewal`` is the suspension that just
    ended while its route still failed (None: a suspend alert asked)."""
    state, policy = run.state, run.policy
    model, provider = common["model"], common["provider"]
    hosts = known_hosts(state, model, common["discovered"], run.now, policy.discovered_horizon)
    excluded = excluded_hosts(model, policy.builtin, state.part(model), run.now)
    verdict = check_floor(provider, hosts, excluded, policy.min_routable_hosts)
    if not verdict.allowed:
        common["inputs"] = {**common["inputs"], **_floor_inputs(hosts, excluded, verdict, policy)}
        prefix = "" if renewal is None else f"not renewed at its end (rung {renewal.rung}): "
        run.add(Kind.FLOOR_BLOCK, prefix + verdict.reason, explanation=explanation, **common)
        return
    rung, duration = policy.ladder.next_rung(state.part(model).history.get(provider, ()), run.now)
    end = run.now + duration
    kind = Kind.OBSERVE if policy.mode is Mode.OBSERVE else (Kind.SUSPEND if rung == 1 else Kind.ESCALATE)
    verb, done = ("suspend", "suspended") if renewal is None else ("renew", "renewed")
    prefix = f"would {verb} (observe mode)" if policy.mode is Mode.OBSERVE else done
    run.add(
        kind,
        f"{prefix} at rung {rung} for {format_duration(duration)} until {format_rfc3339(end)}"
        + why(verdict.reason),
        mode=policy.mode,
        rung=rung,
        until=end,
        explanation=explanation,
        **common,
    )


def _still_firing(state: State, suspension: Suspension) -> tuple[str, ...]:
    """The route's suspend episodes that still fail: open (no lift or recovery closed them), and no
    resolution of them delivered. The suspension's own episode counts even in stores that did not mark
    episodes, so a suspension decided before an upgrade is renewed too."""
    route, part = (suspension.model, suspension.provider), state.part(suspension.model)
    if route[1] in part.holds:  # a lifted route is never renewed (and is not suspended: belt and braces)
        return ()
    own = {suspension.episode} if suspension.episode else set()
    firing = own | {key for key in state.episodes_of(route) if is_suspend_episode(key)}
    still_open = {key for key in firing if (e := part.episodes.get(key)) is None or e.closed_by is None}
    return tuple(sorted(still_open - part.resolved.keys()))


def _renew(run: _Run, ended: Suspension, firing: tuple[str, ...]) -> None:
    """Suspend again at the next rung a route whose suspension just ended while it still failed."""
    route = (ended.model, ended.provider)
    episode = ended.episode if ended.episode in firing else firing[-1]
    common: _Alerted = {
        "model": ended.model,
        "provider": ended.provider,
        "episode": episode,
        "source": "clock",
        "inputs": {
            "renewal_of": {"rung": ended.rung, "until": format_rfc3339(ended.until)},
            "firing": list(firing),
        },
        "discovered": None,
        # the failure's start (kept: a recovery is stale only if older than it)
        "starts_at": ended.starts_at
        if episode == ended.episode
        else run.state.part(route[0]).failing.get(route[1]),
    }
    _suspend(
        run,
        common,
        ended.explanation,
        lambda verdict: (
            f": the route still failed when its rung-{ended.rung} suspension ended (its suspend alert is "
            f"still firing and no resolution was delivered; {verdict})"
        ),
        renewal=ended,
    )


def _floor_inputs(
    hosts: frozenset[str] | None, excluded: frozenset[str], verdict: FloorVerdict, policy: Policy
) -> dict[str, JsonValue]:
    # Counts, not lists: the hosts are the model's discovered set in the log (up to 512 tags), so listing
    # them in every blocked alert's decision would store a delivery's annotation once per alert. What
    # remains routable is fewer than the floor, so that list stays short.
    return {
        "known_hosts_count": len(hosts) if hosts is not None else None,
        "excluded_count": len(hosts) - len(uncovered(hosts, excluded)) if hosts is not None else None,
        "routable_after": [*verdict.routable_after],
        "min_routable_hosts": policy.min_routable_hosts,
    }


def _open_episodes(state: State, route: tuple[str, str]) -> set[str]:
    return {key for key, e in state.episodes_of(route).items() if e.closed_by is None}


def decide_lift(
    state: State,
    model: str,
    provider: str,
    reason: str,
    now: float,
    policy: Policy,
    until: float | None = None,
) -> Result | Refused:
    """An administrator lifts a current suspension. The lift holds (no suspension of the route, whatever
    ``startsAt`` later deliveries carry) until the route recovers (a clean round) or ``until``."""
    if until is not None and until <= now:
        return Refused(400, f"until: {format_rfc3339(until)} is not in the future")
    model, provider = canonical_tag(model), canonical_tag(provider)
    run = _Run(state, now, policy)
    current = run.state.suspension((model, provider))
    if current is None:
        return Refused(404, f"no current suspension of {provider} for {model}")
    run.add(
        Kind.LIFT,
        f"lifted by an administrator: {reason}",
        model=model,
        provider=provider,
        mode=current.mode,
        rung=current.rung,
        source="admin",
        until=until,
        closes=tuple(sorted(_open_episodes(run.state, (model, provider)))),
        inputs={"reason": reason, "was_until": format_rfc3339(current.until)},
    )
    return run.result()


def decide_incident_add(
    state: State,
    model: str,
    provider: str,
    reason: str,
    until: float | None,
    now: float,
    policy: Policy,
    force: bool = False,
) -> Result | Refused:
    """An administrator excludes a route at run time, until ``until`` (None: until removed).

    The capacity floor holds here as for suspensions: an incident that would leave fewer than
    ``min_routable_hosts`` of the model's known hosts routable is refused (409) unless ``force``
    (recorded in the decision). With no known hosts the floor cannot be broken provably: it is allowed.
    """
    if until is not None and until <= now:
        return Refused(400, f"until: {format_rfc3339(until)} is not in the future")
    model, provider = canonical_tag(model), canonical_tag(provider)
    run = _Run(state, now, policy)
    hosts = known_hosts(run.state, model, None, now, policy.discovered_horizon)
    excluded = excluded_hosts(model, policy.builtin, run.state.part(model), now)
    verdict = check_floor(provider, hosts, excluded, policy.min_routable_hosts)
    # Unknown hosts (no alert told them yet) cannot prove a break: the administrator's word stands.
    breaks = hosts is not None and not verdict.allowed
    if breaks and not force:
        return Refused(
            409,
            f'refused: excluding {provider} for {model}: {verdict.reason}; send "force": true to exclude it '
            "anyway (recorded in the decision)",
        )
    incident_id = f"inc-{run.state.seq + 1}"
    run.add(
        Kind.INCIDENT_ADD,
        reason,
        model=model,
        provider=provider,
        until=until,
        incident_id=incident_id,
        source="admin",
        inputs={
            "reason": reason,
            **({"forced": True, "floor": verdict.reason, **_floor_inputs(hosts, excluded, verdict, policy)}
               if breaks else {}),
        },
    )  # fmt: skip
    return run.result()


def decide_incident_remove(
    state: State, incident_id: str, reason: str, now: float, policy: Policy
) -> Result | Refused:
    """An administrator removes an incident exclusion."""
    run = _Run(state, now, policy)
    incident = run.state.incident(incident_id)
    if incident is None:
        return Refused(404, f"no current incident with id {incident_id!r}")
    run.add(
        Kind.INCIDENT_REMOVE,
        f"removed by an administrator: {reason or 'no reason given'} (was: {incident.reason})",
        model=incident.model,
        provider=incident.provider,
        incident_id=incident_id,
        source="admin",
        inputs={"reason": reason},
    )
    return run.result()
