"""``canary simulator``: serve a fleet file as an OpenRouter-compatible gateway until SIGINT/SIGTERM."""

from __future__ import annotations

import argparse
import sys

from exporter.argkit import add_command
from exporter.devtools.simulator.app import Simulator
from exporter.devtools.simulator.fleet import DEFAULT_FLEET, load_fleet
from exporter.devtools.simulator.server import uvicorn_options
from exporter.serving import bind_tcp_socket, tune_gc_for_latency, uvicorn_server
from exporter.signals import stop_on_signals
from exporter.web.hostport import http_url, parse_host_port

DEFAULT_LISTEN = "127.0.0.1:8088"

DESCRIPTION = """\
Serve a fleet of virtual providers over OpenRouter's wire format (design.md §11): endpoint listing, pinned
chat completions (streamed with `: OPENROUTER PROCESSING` keep-alives, or not), usage, error bodies,
mid-stream errors and /generation records. Each provider has a fault profile (slow first token, refusals,
schema breakage, language drift and code-mixing, leading garbage, encoding corruption, 429/5xx storms,
hangs, disappearance). Control endpoints for tests and demos live under /_sim (bearer token from the
fleet's control_token, if set):
  GET  /_sim/requests[?model=M]     every chat request: arrival, model, pin, status, serving host,
                                    and (streams) when the first token was written (monotonic clock)
  POST /_sim/providers/{model}/{tag}[?replace=true]   JSON profile patch, e.g. {"errors": null}
  POST /_sim/outage {"on": true}    every gateway request answers 502/503
  GET  /_sim/fleet                  providers, listing state, request counts and current profiles"""

EPILOG = """\
examples:
  canary simulator                                   # built-in default fleet on 127.0.0.1:8088
  canary simulator --fleet my-fleet.yaml --listen 127.0.0.1:0
  curl -s http://127.0.0.1:8088/api/v1/models/moonshotai/kimi-k2-0905/endpoints
  curl -s -X POST -d '{"errors": null}' \\
       http://127.0.0.1:8088/_sim/providers/moonshotai/kimi-k2-0905/stormy/fp8   # heal a host
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``simulator`` command to the ``canary`` parser."""
    p = add_command(
        subparsers,
        "simulator",
        help="serve a fleet of virtual providers as an OpenRouter-compatible gateway",
        description=DESCRIPTION,
        epilog=EPILOG,
    )
    p.add_argument(
        "--fleet",
        metavar="FILE",
        default=str(DEFAULT_FLEET),
        help="fleet YAML file (default: the built-in default fleet)",
    )
    p.add_argument(
        "--listen",
        metavar="HOST:PORT",
        default=DEFAULT_LISTEN,
        help=f"address to listen on; port 0 picks a free port (default: {DEFAULT_LISTEN})",
    )
    p.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Entry point of ``canary simulator`` (a bad fleet file raises ``ConfigError`` with every problem)."""
    try:
        host, port = parse_host_port(args.listen)
    except ValueError as exc:
        print(f"canary simulator: --listen: {exc}", file=sys.stderr)
        return 2
    simulator = Simulator(load_fleet(args.fleet))
    try:
        sock = bind_tcp_socket(host, port)
    except OSError as exc:
        print(f"canary simulator: cannot listen on {args.listen}: {exc.strerror}", file=sys.stderr)
        return 1
    bound = sock.getsockname()[1]
    print(f"simulator serving {args.fleet} at {http_url(host, bound)}/api/v1", flush=True)
    server = uvicorn_server(simulator.app, **uvicorn_options())
    with stop_on_signals():  # uvicorn shuts down on SIGINT/SIGTERM, then re-raises it: a clean stop
        tune_gc_for_latency()
        server.run(sockets=[sock])
    sock.close()
    print("simulator stopped", flush=True)
    return 0
