"""``canary admin``: lift, incidents, suspensions, decisions and ``why`` against a running receiver.

The token comes from ``--token-file FILE`` or the ``CANARY_ADMIN_TOKEN`` environment variable, never from a
flag value (which would land in shell history). The receiver URL: ``exporter.admin.locate``. The global
options (``--receiver``, ``--config``, ``--token-file``, ``--json``) go before or after the action.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from pydantic import JsonValue

from exporter.admin.client import AdminClient, AdminError, fetch_evidence
from exporter.admin.locate import (
    DEFAULT_RECEIVER,
    URL_ENV,
    LocateError,
    locate_exporter,
    locate_receiver,
)
from exporter.admin.tables import Listing, decisions_table, incidents_table, render, suspensions_table
from exporter.admin.why import REPLIES_SHOWN, WhyView, exporter_evidence_link, render_why, with_limit
from exporter.argkit import add_command, add_group
from exporter.configkit import parse_duration
from exporter.receiver.bodies import Decisions
from exporter.receiver.codec import decision_from_json
from exporter.receiver.state import Kind
from exporter.runrecord import RUN_RECORD
from exporter.timestamps import format_rfc3339

TOKEN_ENV = "CANARY_ADMIN_TOKEN"
TABLE_WIDTH = 80
HELP = "lift suspensions, manage incidents, list suspensions and decisions, explain a host, on a receiver"
DESCRIPTION = f"""\
Lift suspensions, add and remove incident exclusions, list suspensions and decisions, and explain one
host (why) on a running receiver. The admin token comes from --token-file FILE or ${TOKEN_ENV} (never a
flag value, which would land in shell history). The receiver URL: --receiver URL, else ${URL_ENV}, else
the run record ({RUN_RECORD}) of a running `canary demo` that --config FILE or --token-file FILE leads
to, else --config FILE's receiver.listen, else (with neither) the newest local run still running, else
{DEFAULT_RECEIVER}. The options --receiver, --config,
--token-file and --json go before or after the action. Listings fit an 80-column terminal (one line a
host, its reason on the next); --json prints the receiver's JSON."""

EPILOG = f"""\
examples:
  export {TOKEN_ENV}=$(cat /run/secrets/canary-admin)      # or: --token-file /run/secrets/canary-admin
  canary admin suspensions
  canary admin why moonshotai/kimi-k2-0905 deepinfra/fp8
  canary admin lift moonshotai/kimi-k2-0905 deepinfra/fp8 --reason "false positive, ticket 42"
  canary admin incident add moonshotai/kimi-k2-0905 novita/fp8 --reason "provider outage" --until 6h
  canary admin incident list --json
  canary admin incident remove inc-3 --reason "provider fixed it"
  canary admin decisions --model moonshotai/kimi-k2-0905 --kind suspend --since 24h
  canary admin --config canary.yaml suspensions          # a demo's run record, else receiver.listen
  canary admin --token-file WORKDIR/admin.token suspensions   # the run whose work dir holds the token
"""


def _global_options(parser: argparse.ArgumentParser, *, suppress: bool) -> None:
    """The options every action takes. On the actions (``suppress``) an option not given leaves the value
    parsed before the action alone, so ``canary admin --json suspensions`` and ``canary admin suspensions
    --json`` are the same."""
    unset = argparse.SUPPRESS if suppress else None
    parser.add_argument(
        "--receiver",
        metavar="URL",
        default=unset,
        help=f"receiver base URL (default: ${URL_ENV}, the run record, --config's receiver.listen, "
        f"or {DEFAULT_RECEIVER})",
    )
    parser.add_argument(
        "--config",
        metavar="FILE",
        default=unset,
        help="canary config whose run (its run record) or receiver.listen gives the receiver URL",
    )
    parser.add_argument(
        "--token-file",
        metavar="FILE",
        default=unset,
        help=f"file holding the admin token (default: ${TOKEN_ENV}); a run's WORKDIR/admin.token also "
        "leads to that run's receiver",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=argparse.SUPPRESS if suppress else False,
        help="print JSON instead of a listing",
    )


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``admin`` command to the ``canary`` parser."""
    p, sub = add_group(subparsers, "admin", HELP, DESCRIPTION, EPILOG)
    _global_options(p, suppress=False)

    def action(
        parent: argparse._SubParsersAction[argparse.ArgumentParser],
        name: str,
        help_text: str,
        example: str,
        func: Callable[[AdminClient, argparse.Namespace], Shown],
    ) -> argparse.ArgumentParser:
        leaf = add_command(parent, name, help=help_text, epilog=f"example:\n  canary admin {example}")
        _global_options(leaf, suppress=True)
        leaf.set_defaults(admin_func=func)
        return leaf

    lift = action(
        sub,
        "lift",
        "lift a suspension (holds until the route has a clean round)",
        "lift MODEL PROVIDER --reason 'false positive'",
        _lift,
    )
    lift.add_argument("model")
    lift.add_argument("provider", help="the routing tag, e.g. deepinfra/fp8")
    lift.add_argument("--reason", required=True, help="why (kept in the audit log)")

    incident, isub = add_group(
        sub,
        "incident",
        help="add, remove or list runtime incident exclusions",
        epilog="example:\n  canary admin incident list",
    )
    _global_options(incident, suppress=True)
    add = action(
        isub,
        "add",
        "exclude a provider now (obeys the capacity floor unless --force)",
        "incident add MODEL PROVIDER --reason outage --until 6h",
        _incident_add,
    )
    add.add_argument("model")
    add.add_argument("provider")
    add.add_argument("--reason", required=True)
    add.add_argument("--until", metavar="TIME", help="RFC 3339 time, or a duration from now (6h)")
    add.add_argument(
        "--force", action="store_true", help="ignore the capacity floor (needs a receiver that accepts force)"
    )
    remove = action(
        isub, "remove", "end an incident by its id", "incident remove inc-3 --reason fixed", _incident_remove
    )
    remove.add_argument("id")
    remove.add_argument("--reason", required=True)
    action(isub, "list", "the current incidents", "incident list --json", _incident_list)
    action(
        sub, "suspensions", "current suspensions (observe-mode ones included)", "suspensions", _suspensions
    )
    dec = action(
        sub,
        "decisions",
        "the audit log, newest last, filtered",
        "decisions --provider deepinfra/fp8 --since 24h",
        _decisions,
    )
    dec.add_argument("--model")
    dec.add_argument("--provider")
    dec.add_argument("--kind", choices=[str(k) for k in Kind])
    dec.add_argument(
        "--since", metavar="WHEN", help="a decision seq, an RFC 3339 time, or a duration back from now (24h)"
    )
    dec.add_argument("--limit", type=int, default=100, help="at most this many decisions (default 100)")
    why = action(
        sub,
        "why",
        "one host on one screen: its state, the decisions, the failing replies and the evidence link",
        "why moonshotai/kimi-k2-0905 deepinfra/fp8",
        _why,
    )
    why.add_argument("model")
    why.add_argument("provider", help="the routing tag, e.g. deepinfra/fp8")
    why.add_argument(
        "--exporter",
        metavar="URL",
        help="the exporter whose evidence to show when no alert link names one (default: the run record)",
    )
    p.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    try:
        token = _token(args.token_file)
        found = locate_receiver(
            receiver=args.receiver, config=args.config, token_file=args.token_file, environ=os.environ
        )
        with AdminClient(found.url, token) as client:
            try:
                document, shown, code = args.admin_func(client, args)
            except AdminError as exc:
                if str(exc).startswith("cannot reach the receiver"):
                    raise AdminError(f"{exc} (the URL from {found.origin})") from None
                raise
    except (AdminError, LocateError, ValueError) as exc:  # refused or unreachable (1), a bad flag value (2)
        print(f"canary admin: {exc}", file=sys.stderr)
        return 2 if isinstance(exc, ValueError) else 1
    if args.json:
        print(json.dumps(document, indent=2, ensure_ascii=False))
    elif isinstance(shown, Listing):
        print(render(shown, width=TABLE_WIDTH, colour=sys.stdout.isatty()), end="")
    else:
        print(shown, end="")
    return int(code)


def _token(token_file: str | None) -> str | None:
    if token_file is not None:
        try:
            token = Path(token_file).read_text(encoding="utf-8").strip()
        except OSError as exc:
            raise AdminError(f"--token-file {token_file}: {exc.strerror}") from None
        if not token:
            raise AdminError(f"--token-file {token_file}: the file is empty")
        return token
    return os.environ.get(TOKEN_ENV, "").strip() or None


def _when(flag: str, value: str | None, sign: int, expected: str) -> str | None:
    """An RFC 3339 time (or, back in time, a decision seq) as given; a duration (``24h``) as the RFC 3339
    time that long from now (``sign`` 1) or ago (-1)."""
    if value is None or "T" in value or (sign < 0 and value.isdigit()):
        return value
    try:
        return format_rfc3339(time.time() + sign * parse_duration(value))
    except ValueError:
        raise ValueError(f"{flag} {value!r}: expected {expected}") from None


class Shown(NamedTuple):
    document: dict[str, JsonValue]  # the JSON (for --json)
    view: Listing | str  # the listing, or a screen of text
    code: int = 0  # 1 when a source could not be read (the view says "unknown")


def _decided(document: Decisions, title: str) -> Shown:
    decided = [decision_from_json(d) for d in document.decisions]
    return Shown(document.model_dump(mode="json"), decisions_table(decided, title))


def _lift(client: AdminClient, args: argparse.Namespace) -> Shown:
    return _decided(client.lift(args.model, args.provider, args.reason), "lifted")


def _incident_add(client: AdminClient, args: argparse.Namespace) -> Shown:
    until = _when("--until", args.until, 1, "an RFC 3339 time or a duration such as 6h")
    document = client.add_incident(args.model, args.provider, args.reason, until, force=args.force)
    return _decided(document, f"incident {document.id} added")


def _incident_remove(client: AdminClient, args: argparse.Namespace) -> Shown:
    return _decided(client.remove_incident(args.id, args.reason), f"incident {args.id} removed")


def _incident_list(client: AdminClient, args: argparse.Namespace) -> Shown:
    document = client.incidents()
    return Shown(document.model_dump(mode="json"), incidents_table(document))


def _suspensions(client: AdminClient, args: argparse.Namespace) -> Shown:
    document = client.suspensions()
    return Shown(document.model_dump(mode="json"), suspensions_table(document))


def _decisions(client: AdminClient, args: argparse.Namespace) -> Shown:
    if args.limit < 1:
        raise ValueError(f"--limit {args.limit}: expected at least 1")
    since = _when("--since", args.since, -1, "a decision seq, an RFC 3339 time or a duration such as 24h")
    wanted = [
        d
        for d in client.decisions(since=since, limit=args.limit if since is None else 100_000)
        if (args.model is None or d.get("model") == args.model)
        and (args.provider is None or d.get("provider") == args.provider)
        and (args.kind is None or d.get("kind") == args.kind)
    ]
    if since is not None:
        wanted = wanted[-args.limit :]
    listed = Decisions(decisions=wanted).model_dump(mode="json")
    return Shown(listed, decisions_table(decision_from_json(d) for d in wanted))


def _why(client: AdminClient, args: argparse.Namespace) -> Shown:
    decisions = client.decisions(since="0", limit=100_000)
    view = WhyView.build(args.model, args.provider, client.suspensions(), client.incidents(), decisions)
    link = view.recorded_link()
    if link is None:
        exporter = locate_exporter(exporter=args.exporter, config=args.config, token_file=args.token_file)
        link = None if exporter is None else exporter_evidence_link(exporter.url, args.model, args.provider)
    if link is None:
        view = view.with_evidence(None, None, "no evidence link: pass --exporter URL")
    else:
        try:
            view = view.with_evidence(link, fetch_evidence(with_limit(link, REPLIES_SHOWN)))
        except AdminError as exc:
            view = view.with_evidence(link, None, str(exc))
    # A source it could not read (the exporter's evidence) is "unknown", and the exit code says so.
    return Shown(view.document(), render_why(view, width=TABLE_WIDTH), 1 if view.replies is None else 0)
