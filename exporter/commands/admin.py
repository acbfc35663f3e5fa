"""``canary admin``: lift, incidents, suspensions and decisions against a running receiver.

The token comes from ``--token-file FILE`` or the ``CANARY_ADMIN_TOKEN`` environment variable, never from a
flag value (which would land in shell history). The receiver URL comes from ``--receiver URL``, else
``CANARY_RECEIVER_URL``, else the ``receiver.listen`` of ``--config FILE``, else ``http://127.0.0.1:9465``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.table import Table

from exporter.admin.client import AdminClient, AdminError
from exporter.admin.tables import decisions_table, incidents_table, render, suspensions_table
from exporter.argkit import add_command, add_group
from exporter.configkit import Problems, load_yaml, parse_duration
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.state import Kind
from exporter.timestamps import format_rfc3339
from exporter.web.hostport import http_url, parse_host_port

TOKEN_ENV = "CANARY_ADMIN_TOKEN"
URL_ENV = "CANARY_RECEIVER_URL"


# receiver.listen's default
DEFAULT_RECEIVER = http_url(*ReceiverConfig.model_fields["listen"].default, local=True)
TABLE_WIDTH = 80
HELP = "lift suspensions, manage incidents, list suspensions and decisions on a receiver"
DESCRIPTION = f"""\
Lift suspensions, add and remove incident exclusions, and list suspensions and decisions on a running
receiver. The admin token comes from --token-file FILE or ${TOKEN_ENV} (never a flag value, which would
land in shell history). The receiver URL: --receiver URL, else ${URL_ENV}, else --config FILE's
receiver.listen, else {DEFAULT_RECEIVER}. Tables fit an 80-column terminal; --json prints the receiver's
JSON."""

EPILOG = f"""\
examples:
  export {TOKEN_ENV}=$(cat /run/secrets/canary-admin)      # or: --token-file /run/secrets/canary-admin
  canary admin suspensions
  canary admin lift moonshotai/kimi-k2-0905 deepinfra/fp8 --reason "false positive, ticket 42"
  canary admin incident add moonshotai/kimi-k2-0905 novita/fp8 --reason "provider outage" \\
      --until 2026-12-02T06:00:00Z
  canary admin incident list --json
  canary admin incident remove inc-3 --reason "provider fixed it"
  canary admin decisions --model moonshotai/kimi-k2-0905 --kind suspend --since 24h
  canary admin --config canary.yaml suspensions          # the receiver URL from receiver.listen
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``admin`` command to the ``canary`` parser."""
    p, sub = add_group(subparsers, "admin", HELP, DESCRIPTION, EPILOG)
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--receiver",
        metavar="URL",
        help=f"receiver base URL (default: ${URL_ENV}, --config's receiver.listen, or {DEFAULT_RECEIVER})",
    )
    common.add_argument("--config", metavar="FILE", help="canary config to take the receiver URL from")
    common.add_argument(
        "--token-file", metavar="FILE", help=f"file holding the admin token (default: ${TOKEN_ENV})"
    )
    common.add_argument("--json", action="store_true", help="print the receiver's JSON instead of a table")

    def action(parent: Any, name: str, help_text: str, example: str, func: Callable[..., Shown]) -> Any:
        leaf = add_command(
            parent,
            name,
            parents=[common],
            help=help_text,
            epilog=f"example:\n  canary admin {example}",
        )
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

    _, isub = add_group(
        sub,
        "incident",
        help="add, remove or list runtime incident exclusions",
        epilog="example:\n  canary admin incident list",
    )
    add = action(
        isub,
        "add",
        "exclude a provider now (obeys the capacity floor unless --force)",
        "incident add MODEL PROVIDER --reason outage --until 2026-12-02T06:00:00Z",
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
    p.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    try:
        token = _token(args.token_file)
        with AdminClient(_receiver_url(args), token) as client:
            document, table = args.admin_func(client, args)
    except (AdminError, ValueError) as exc:  # the receiver refused (1), or a flag's value is wrong (2)
        print(f"canary admin: {exc}", file=sys.stderr)
        return 1 if isinstance(exc, AdminError) else 2
    if args.json:
        print(json.dumps(document, indent=2, ensure_ascii=False))
    else:
        print(render(table, width=TABLE_WIDTH, colour=sys.stdout.isatty()), end="")
    return 0


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


def _receiver_url(args: argparse.Namespace) -> str:
    if args.receiver:
        return str(args.receiver)
    if os.environ.get(URL_ENV, "").strip():
        return os.environ[URL_ENV].strip()
    if args.config:
        return _url_from_config(Path(args.config))
    return DEFAULT_RECEIVER


def _url_from_config(path: Path) -> str:
    try:
        data = load_yaml(path.read_text(encoding="utf-8"), Problems(str(path)))
    except OSError as exc:
        raise AdminError(f"--config {path}: {exc.strerror}") from None
    listen = data.get("receiver", {}).get("listen") if isinstance(data, dict) else None
    if listen is None:
        return DEFAULT_RECEIVER
    try:
        host, port = parse_host_port(listen)
    except ValueError as exc:
        raise AdminError(f"--config {path}: receiver.listen: {exc}") from None
    return http_url(host, port, local=True)


def _when(flag: str, value: str | None, sign: int, expected: str) -> str | None:
    """An RFC 3339 time (or, back in time, a decision seq) as given; a duration (``24h``) as the RFC 3339
    time that long from now (``sign`` 1) or ago (-1)."""
    if value is None or "T" in value or (sign < 0 and value.isdigit()):
        return value
    try:
        return format_rfc3339(time.time() + sign * parse_duration(value))
    except ValueError:
        raise ValueError(f"{flag} {value!r}: expected {expected}") from None


Shown = tuple[dict[str, Any], Table]  # the receiver's JSON (for --json) and its table


def _decided(document: dict[str, Any], title: str) -> Shown:
    return document, decisions_table(document.get("decisions", []), title)


def _lift(client: AdminClient, args: argparse.Namespace) -> Shown:
    return _decided(client.lift(args.model, args.provider, args.reason), "lifted")


def _incident_add(client: AdminClient, args: argparse.Namespace) -> Shown:
    until = _when("--until", args.until, 1, "an RFC 3339 time or a duration such as 6h")
    document = client.add_incident(args.model, args.provider, args.reason, until, force=args.force)
    return _decided(document, f"incident {document.get('id', '?')} added")


def _incident_remove(client: AdminClient, args: argparse.Namespace) -> Shown:
    return _decided(client.remove_incident(args.id, args.reason), f"incident {args.id} removed")


def _incident_list(client: AdminClient, args: argparse.Namespace) -> Shown:
    document = client.incidents()
    return document, incidents_table(document)


def _suspensions(client: AdminClient, args: argparse.Namespace) -> Shown:
    document = client.suspensions()
    return document, suspensions_table(document)


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
    document: dict[str, Any] = {"decisions": wanted}
    return document, decisions_table(wanted)
