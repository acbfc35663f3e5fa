"""``canary receiver``: run the quarantine receiver (webhook, ignore list, admin API) from a config file."""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from exporter.argkit import add_command
from exporter.configkit import ConfigError, Problems, load_file, validate
from exporter.logkit import configure_logging
from exporter.receiver.config import ReceiverConfig
from exporter.receiver.store import StoreError
from exporter.serving import ListenError, bind_configured, tune_gc_for_latency, uvicorn_server
from exporter.signals import stop_on_signals
from exporter.web.hostport import http_url, parse_host_port

HELP = "run the quarantine receiver (Alertmanager/Grafana webhook -> ignore list for routers)"
DESCRIPTION = (
    "Run the quarantine receiver: it turns suspension alerts into durable, audited exclusions and serves "
    "each model's ignore list to routers."
)
EPILOG = """\
example:
  export CANARY_WEBHOOK_TOKEN=... CANARY_ADMIN_TOKEN=...
  canary receiver init --config canary.yaml       # once: creates the store in an empty directory
  canary receiver --config canary.yaml            # every start
  canary receiver backup --config canary.yaml --to /backups/receiver.sqlite3     # while it runs
  canary receiver restore --config canary.yaml --from /backups/receiver.sqlite3  # while it is stopped

The receiver reads the `receiver:` section of the config file (keys: listen, mode, store_dir,
webhook_token, admin_token, builtin_exclusions, min_routable_hosts, ladder, fade_after,
max_body_bytes; see docs/receiver.md). It refuses to start if another receiver holds the store's lock
or if the store is damaged, missing, emptied or smaller than its witness (only --init creates a new one,
and only in an empty directory; see docs/receiver.md, "Recovering a store").
Endpoints: POST /v1/alerts (webhook token), GET /v1/ignore?model=M (no token),
GET /v1/suspensions, /v1/incidents, /v1/decisions,
POST /v1/admin/lift, POST|DELETE /v1/admin/incidents (admin token), /healthz, /metrics, /openapi.json.
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``receiver`` to the ``canary`` command."""
    parser = add_command(subparsers, "receiver", HELP, DESCRIPTION, EPILOG)
    parser.add_argument("--config", type=Path, metavar="FILE", help="the canary YAML config file (required)")
    parser.add_argument("--listen", metavar="HOST:PORT", help="override receiver.listen")
    parser.add_argument("--mode", choices=("observe", "enforce"), help="override receiver.mode")
    parser.add_argument("--check", action="store_true", help="validate the configuration and exit")
    parser.add_argument(
        "--init",
        action="store_true",
        help="create a new, empty store (first start); refused unless store_dir is empty or missing",
    )
    parser.add_argument(
        "--adopt-store",
        action="store_true",
        help="accept the store as it is when its witness is missing, damaged or ahead of it (decisions "
        "after the store's last one are lost); audited in the store and logged at ERROR",
    )
    parser.set_defaults(func=run)
    actions = parser.add_subparsers(title="store commands", metavar="{init,backup,restore}")
    for name, text in STORE_COMMANDS.items():
        sub = add_command(actions, name, text, text)
        sub.add_argument("--config", type=Path, metavar="FILE", default=argparse.SUPPRESS, help="config file")
        if name == "backup":
            sub.add_argument(
                "--to", required=True, type=Path, metavar="FILE", help="the backup file to write"
            )
        elif name == "init":
            sub.add_argument(
                "--adopt-store", action="store_true", help="as for the receiver: accept an unwitnessed store"
            )
        elif name == "restore":
            sub.add_argument("--from", required=True, type=Path, metavar="FILE", dest="source")
        sub.set_defaults(func=run_store_command, store_command=name)


STORE_COMMANDS = {
    "init": "create a new, empty store in the configured store_dir if it is empty (a one-shot first-run "
    "step: says so and succeeds when a sound store is already there; refuses anything else)",
    "backup": "copy the store to a file with SQLite's online backup (the receiver may run) and prove it",
    "restore": "replace the store by a backup (the receiver must be stopped); re-issues the witness, audited",
}


def run_store_command(args: argparse.Namespace) -> int:
    """``canary receiver init|backup|restore`` (exporter.receiver.backup, exporter.receiver.store)."""
    from exporter.receiver.backup import backup, restore
    from exporter.receiver.store import init_store

    if getattr(args, "config", None) is None:
        print(f"canary receiver {args.store_command}: --config FILE is required", file=sys.stderr)
        return 2
    try:
        config = load(args.config)
    except ConfigError as exc:
        print(f"canary receiver: invalid configuration:\n{exc}", file=sys.stderr)
        return 2
    try:
        if args.store_command == "backup":
            print(backup(config.store_dir, args.to))
        elif args.store_command == "restore":
            print(restore(config.store_dir, args.source, ladder=config.policy().ladder))
        else:
            print(init_store(config.store_dir, adopt=args.adopt_store))
    except StoreError as exc:
        print(f"canary receiver {args.store_command}: {exc}", file=sys.stderr)
        return 2
    return 0


def load(path: Path) -> ReceiverConfig:
    """Read the ``receiver`` section of a config file (``ConfigError`` lists every problem)."""
    problems = Problems(str(path))
    data = load_file(path, problems)
    problems.raise_if_any()
    config = validate(ReceiverConfig, data, problems, base_dir=path.resolve().parent, at=("receiver",))
    problems.raise_if_any()
    assert config is not None  # no problems: read
    return config


def run(args: argparse.Namespace) -> int:
    from exporter.receiver.app import build_app
    from exporter.receiver.service import ReceiverService
    from exporter.receiver.state import Mode

    configure_logging(logging.INFO)
    if args.config is None:
        print("canary receiver: --config FILE is required", file=sys.stderr)
        return 2
    try:
        config = load(args.config)
        if args.listen:
            try:
                host, port = parse_host_port(args.listen)
            except ValueError as exc:
                raise ConfigError([f"--listen: {exc}"]) from None
            config = config.model_copy(update={"listen": (host, port)})
        if args.mode:
            config = config.model_copy(update={"mode": Mode(args.mode)})
    except ConfigError as exc:
        print(f"canary receiver: invalid configuration:\n{exc}", file=sys.stderr)
        return 2
    if args.check:
        print(
            f"configuration OK: mode {config.mode}, store {config.store_dir}, "
            f"{len(config.builtin)} built-in exclusions"
        )
        return 0
    try:
        service = ReceiverService(config, init=args.init, adopt=args.adopt_store)
    except StoreError as exc:
        print(f"canary receiver: {exc}", file=sys.stderr)
        return 2
    try:
        sock = bind_configured("receiver.listen", config.host, config.port)
    except ListenError as exc:
        service.close()
        print(f"canary receiver: {exc}", file=sys.stderr)
        return 2
    try:
        app = build_app(service)
        port = sock.getsockname()[1]  # the real port when 0 was asked for
        print(f"canary receiver: listening on {http_url(config.host, port)} (mode {config.mode})", flush=True)
        server = uvicorn_server(app)
        tune_gc_for_latency()
        with stop_on_signals():  # SIGTERM as SIGINT: the finally below writes the shutdown snapshot
            server.run(sockets=[sock])
    finally:
        sock.close()
        service.close()
    return 0
