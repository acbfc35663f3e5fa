"""The ``canary`` command: one entry point, one subcommand per component.

Run ``canary COMMAND --help`` for each command's options and an example.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import signal
import sys
from collections.abc import Callable, Sequence
from contextlib import AsyncExitStack

from exporter import __version__
from exporter.argkit import add_command
from exporter.commands.exporter_service import ExporterService
from exporter.config import load_config, load_probing_config
from exporter.configkit import ConfigError, Problems
from exporter.console import render_table
from exporter.engine.snapshot import Snapshot
from exporter.engine.state_body import StateBody, state_body
from exporter.logkit import configure_logging
from exporter.serving import ListenError, bind_configured, tune_gc_for_latency, uvicorn_server
from exporter.sharding import Replica, check_shard_set
from exporter.signals import stop_on_signals
from exporter.web.hostport import http_url, parse_host_port

log = logging.getLogger("exporter.cli")

EPILOG = """examples:
  canary demo                                   # simulator + exporter + receiver on loopback, live table
  canary check-config canary.yaml               # every problem in the file, with line numbers
  canary probe --config canary.yaml --once --json
  canary exporter --config canary.yaml          # probe rounds + /metrics
  canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --samples 20
"""


def _positive_int(value: str) -> int:
    if not value.isdigit() or int(value) < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, got {value!r}")
    return int(value)


def cmd_check_config(args: argparse.Namespace) -> int:
    checked = Problems(args.file, checking=True)
    try:
        config = load_config(args.file, problems=checked)
    except ConfigError as exc:
        print(*exc.problems, f"{len(exc.problems)} problem(s) in {args.file}", sep="\n", file=sys.stderr)
        return 1
    for note in checked.notes:
        print(f"note: {note}")
    if args.replicas:
        return _check_shard_set([args.file, *args.replicas])
    sections = [s for s in ("gateway", "receiver", "routability") if getattr(config, s) is not None]
    print(
        f"{args.file}: ok ({len(config.models)} model(s), contracts: "
        f"{', '.join(c.name for c in config.contracts)}; sections: {', '.join(sections) or 'none'})"
    )
    return 0


def _check_shard_set(files: Sequence[str]) -> int:
    """check-config with several files: each must load, and together they must split the models exactly."""
    replicas, problems = [], []
    for file in files:
        try:
            config = load_config(file)
        except ConfigError as exc:
            problems += exc.problems
            continue
        replicas.append(Replica(file, config.rounds.shard, tuple(m.slug for m in config.models)))
    if not problems:
        problems = check_shard_set(replicas)
    if problems:
        summary = f"{len(problems)} problem(s) in {len(files)} replica configs"
        print(*problems, summary, sep="\n", file=sys.stderr)
        return 1
    count = replicas[0].shard.count
    print(f"{len(files)} replica configs: ok (shards 0 to {count - 1} of {count}, each model probed once)")
    return 0


async def _probe(args: argparse.Namespace) -> int:
    config = load_probing_config(args.config)
    async with AsyncExitStack() as stack:
        service = ExporterService.from_config(config, stack)

        def show(snap: Snapshot) -> None:
            state = state_body(snap)
            document = json.dumps(state.model_dump(mode="json"), indent=2, ensure_ascii=False)
            print(document if args.json else render_table(state), flush=True)

        await service.run(rounds=1 if args.once else None, on_round=show)
    if args.once:
        return _undiscovered(state_body(service.snapshot))
    return 0


def _undiscovered(state: StateBody) -> int:
    """1 (saying why on stderr) when a model had no provider to probe in the round, else 0: a round that
    probed nothing is not a passing round."""
    empty = {model: m for model, m in state.models.items() if not m.providers}
    for model, m in empty.items():
        why = m.discovery_error or "the gateway listed no provider for it"
        print(f"canary probe: {model}: no provider was probed: {why}", file=sys.stderr)
    return 1 if empty or not state.models else 0


def _until_stopped(run: Callable[[], int], also: tuple[signal.Signals, ...] = ()) -> int:
    """``run()``'s exit status, or 0 when SIGTERM/SIGINT (or one of ``also``) stopped it cleanly."""
    with stop_on_signals(also=also):
        return run()
    return 0


def cmd_probe(args: argparse.Namespace) -> int:
    return _until_stopped(lambda: asyncio.run(_probe(args)))


async def _serve_exporter(config_path: str) -> int:
    config = load_probing_config(config_path)
    host, port = parse_host_port(config.exporter.listen)  # checked when the config was loaded
    try:
        sock = bind_configured("exporter.listen", host, port)
    except ListenError as exc:
        print(f"canary exporter: {exc}", file=sys.stderr)
        return 1
    async with AsyncExitStack() as stack:
        service = ExporterService.from_config(config, stack)
        server = uvicorn_server(service.app())
        service.prepare()
        tune_gc_for_latency()
        loop_task = asyncio.create_task(service.run())
        bound = sock.getsockname()[1]
        log.info("exporter listening on %s/metrics (%d model(s))", http_url(host, bound), len(config.models))
        try:
            await server.serve(sockets=[sock])
        finally:
            loop_task.cancel()
            await asyncio.gather(loop_task, return_exceptions=True)
            sock.close()
    return 0


def cmd_exporter(args: argparse.Namespace) -> int:
    return _until_stopped(lambda: asyncio.run(_serve_exporter(args.config)))


def cmd_demo(args: argparse.Namespace) -> int:
    from exporter.devtools.demo import DemoError, run_demo

    try:
        # a closed terminal (SIGHUP) stops the demo and what it started
        return _until_stopped(lambda: run_demo(args), also=(signal.SIGHUP,))
    except (DemoError, ListenError) as exc:  # a start that cannot be: the reason alone, no traceback
        print(f"canary demo: {exc}", file=sys.stderr)
        return 1


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="canary",
        description="Provider Canary: probe every provider of an LLM model on machine-judged contracts, "
        "export the outcomes to Prometheus, and quarantine broken providers.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"canary {__version__}")
    parser.add_argument(
        "--log-level",
        default="INFO",
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        help="log verbosity on stderr (default INFO)",
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = add_command(
        sub,
        "exporter",
        help="run probe rounds and serve /metrics",
        description="Run probe rounds on the configured schedule and serve the results on "
        "/metrics (Prometheus), /v1/state (JSON), /v1/evidence (the probe history, when "
        "exporter.evidence is configured) and /healthz.",
        epilog="example:\n  OPENROUTER_API_KEY=... canary exporter --config canary.yaml\n"
        "  curl 'http://127.0.0.1:9464/v1/evidence?provider=deepinfra/fp8&outcome=fail&limit=5'",
    )
    p.add_argument("--config", required=True, metavar="FILE", help="the canary YAML configuration")
    p.set_defaults(func=cmd_exporter)

    p = add_command(
        sub,
        "probe",
        help="run probe rounds and print the results (no HTTP)",
        description="Run one round (--once) or rounds on the schedule, printing each round's "
        "results as a table, or as JSON with --json.",
        epilog="example:\n  canary probe --config canary.yaml --once --json",
    )
    p.add_argument("--config", required=True, metavar="FILE", help="the canary YAML configuration")
    p.add_argument("--once", action="store_true", help="run a single round and exit")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(func=cmd_probe)

    p = add_command(
        sub,
        "check-config",
        help="validate a configuration file",
        description="Validate FILE and print every problem with its line and path; exits 1 "
        "if there is any. Secrets given as {env: NAME} must be set, except those marked "
        "{env: NAME, generate: true}, which a local run (canary demo --config, scripts/run) generates "
        "when unset: for those a note says so. Several files are sharded replicas, checked together.",
        epilog="examples:\n"
        "  OPENROUTER_API_KEY=sk-or-... canary check-config config/openrouter.example.yaml\n"
        "  canary check-config shard-0.yaml shard-1.yaml   # sharded replicas, checked together",
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "replicas",
        metavar="REPLICA_FILE",
        nargs="*",
        help="the other exporter replicas' configs (rounds.shard): also check that together they probe "
        "every model exactly once, e.g. canary check-config shard-0.yaml shard-1.yaml",
    )
    p.set_defaults(func=cmd_check_config)

    p = add_command(
        sub,
        "demo",
        help="the whole system on loopback against the embedded simulator",
        description="Start the simulator (default fleet), the exporter and the receiver on "
        "loopback with compressed rounds, plus Prometheus and Alertmanager when installed, "
        "and show a live table of providers x contracts. With --rounds N --json, run N rounds, "
        "print the final state as JSON and exit.",
        epilog="examples:\n  canary demo\n  canary demo --rounds 3 --json",
    )
    p.add_argument(
        "--rounds", type=_positive_int, default=None, metavar="N", help="stop after N rounds (N >= 1)"
    )
    p.add_argument("--json", action="store_true", help="print the final state as JSON (needs --rounds)")
    p.add_argument(
        "--interval",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="seconds between round starts (default 10)",
    )
    p.add_argument(
        "--mode",
        choices=["enforce", "observe"],
        default="enforce",
        help="receiver mode (default enforce, so suspensions show in the ignore list)",
    )
    p.add_argument("--fleet", metavar="FILE", default=None, help="simulator fleet file (default: built-in)")
    p.add_argument(
        "--config",
        metavar="FILE",
        default=None,
        help="use this canary config (its gateway, models and receiver) instead of the simulator",
    )
    p.add_argument(
        "--no-pipeline",
        action="store_true",
        help="do not start Prometheus and Alertmanager even if installed",
    )
    p.add_argument(
        "--workdir", metavar="DIR", default=None, help="where to keep state and logs (default: temp)"
    )
    p.add_argument(
        "--load",
        type=float,
        default=20.0,
        metavar="RPS",
        help="requests/s a product's router sends through the router client to the simulator (journal, "
        "live verdicts; default 20, 0: none)",
    )
    p.set_defaults(func=cmd_demo)

    for module in (
        "exporter.devtools.simulator.cli",
        "exporter.commands.receiver",
        "exporter.commands.language",
        "exporter.commands.routability",
        "exporter.commands.investigate",
        "exporter.commands.admin",
        "exporter.commands.rules",
    ):
        __import__(module, fromlist=["register"]).register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    configure_logging(args.log_level, sys.stderr)
    logging.getLogger("httpx").setLevel(logging.WARNING)
    if getattr(args, "json", False) and args.command == "demo" and args.rounds is None:
        print("canary demo: --json needs --rounds N", file=sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except ConfigError as exc:
        print(*exc.problems, sep="\n", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
