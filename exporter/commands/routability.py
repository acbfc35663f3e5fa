"""``canary routability``: one pass (``--once``) or the scheduled service with its HTTP API."""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import sys
import time
from typing import Any

import uvicorn

from exporter.argkit import add_command
from exporter.gateway.config import GatewayConfig
from exporter.routability.app import RoutabilityService, build_app
from exporter.routability.bodies import row_body
from exporter.routability.config import RoutabilityConfig
from exporter.routability.job import (
    Pacer,
    ProbeCallback,
    last_pass,
    last_pass_finished,
    run_pass,
)
from exporter.routability.model import PassSummary, count_by_status
from exporter.routability.schedule import next_due
from exporter.routability.store import RoutabilityStore
from exporter.routability.transport import HttpxTransport, JsonTransport
from exporter.serving import ListenError, bind_configured, uvicorn_server
from exporter.signals import stop_on_signals
from exporter.timestamps import format_rfc3339
from exporter.web.hostport import http_url

log = logging.getLogger("exporter.routability")

HELP = "catalogue-wide model routability (one pass or a scheduled service)"
DESCRIPTION = """\
Catalogue-wide model routability (design.md §10): for every active chat model of the gateway catalogue (plus
the configured extra models and direct routes), send one minimal real completion ("Reply with OK."), one
model at a time, paced, and record per model: unknown, healthy, degraded (429, 5xx, auth, network, other
request failures) or unavailable (the endpoint explicitly said the model is absent). Rows persist in the
configured store. Without --once, runs as a service: a pass on the schedule (default daily), and
  POST /v1/routability/run   (Authorization: Bearer <trigger_token>; aggregate counts only; GET too)
  GET  /v1/routability       GET /v1/routability/{slug}       GET /metrics"""

EPILOG = """\
examples:
  canary routability --config canary.yaml --once            # one pass, table on stdout
  canary routability --config canary.yaml --once --json     # one pass, rows + aggregate as JSON
  canary routability --config canary.yaml                   # service on routability.listen
  canary routability status --config canary.yaml            # counts, last pass and spend, next pass
  curl -X POST -H "Authorization: Bearer $TOKEN" 'http://127.0.0.1:9466/v1/routability/run?wait=true'
"""


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the ``routability`` command to the ``canary`` parser."""
    p = add_command(subparsers, "routability", HELP, DESCRIPTION, EPILOG)
    p.add_argument(
        "action",
        nargs="?",
        choices=["status"],
        help="status: models per status, the last pass (with its tokens and cost) and when the next is due, "
        "read from the store (works while the service runs)",
    )
    p.add_argument("--config", required=True, metavar="FILE", help="the canary YAML configuration")
    p.add_argument("--once", action="store_true", help="run one full pass, print the result and exit")
    p.add_argument("--json", action="store_true", help="with --once or status: print JSON")
    p.set_defaults(func=command)


def command(args: argparse.Namespace) -> int:
    """Entry point of ``canary routability`` (configuration errors propagate as ``ConfigError``)."""
    from exporter.config import load_config

    config = load_config(args.config)
    routability: RoutabilityConfig = config.routability or RoutabilityConfig(
        store=config.base_dir / RoutabilityConfig().store
    )
    if args.action == "status":
        with RoutabilityStore(routability.store) as store:
            report = status_json(store, routability, time.time())
        print(json.dumps(report, indent=2) if args.json else render_status(report))
        return 0
    gateway = config.gateway
    if args.once:
        output = asyncio.run(run_once(routability, gateway))
        print(json.dumps(output, indent=2) if args.json else render(output))
        return 0
    if args.json:
        print("canary routability: --json needs --once or status", file=sys.stderr)
        return 2
    try:
        with stop_on_signals():  # SIGTERM as SIGINT: the store is closed, the schedule cancelled, exit 0
            asyncio.run(serve(routability, gateway))
    except ListenError as exc:
        print(f"canary routability: {exc}", file=sys.stderr)
        return 1
    return 0


async def run_once(config: RoutabilityConfig, gateway: GatewayConfig | None) -> dict[str, object]:
    """One pass; returns ``{"pass": aggregate, "models": counts, "rows": [...]}`` (the ``--json`` output)."""
    transport = HttpxTransport(timeout=config.timeout)
    try:
        with RoutabilityStore(config.store) as store:
            summary = await run_pass(store, transport, gateway, config)
            rows = sorted(store.rows().values(), key=lambda r: r.slug)
            now = time.time()
            return {
                "pass": summary.to_json(),
                "models": count_by_status(rows),
                "rows": [row_body(r, now, config.recent_unavailable).model_dump(mode="json") for r in rows],
            }
    finally:
        await transport.aclose()


def build_service(
    config: RoutabilityConfig,
    gateway: GatewayConfig | None,
    store: RoutabilityStore,
    transport: JsonTransport,
) -> RoutabilityService:
    """The service wired to one store, one transport and one pacer shared by every pass."""
    pacer = Pacer(config.pace)

    async def one_pass(on_probe: ProbeCallback) -> PassSummary:
        return await run_pass(store, transport, gateway, config, pacer=pacer, on_probe=on_probe)

    token = config.trigger_token.value if config.trigger_token else None
    return RoutabilityService(
        store,
        one_pass,
        trigger_token=token,
        schedule=config.schedule,
        recent_window=config.recent_unavailable,
    )


async def serve(
    config: RoutabilityConfig, gateway: GatewayConfig | None, stop: asyncio.Event | None = None
) -> None:
    """Run the HTTP API and the schedule until interrupted (or until ``stop`` is set: a graceful exit)."""

    transport = HttpxTransport(timeout=config.timeout)
    with RoutabilityStore(config.store) as store:
        service = build_service(config, gateway, store, transport)
        # TCP_NODELAY on accepted connections (serving); a failure names routability.listen
        sock = bind_configured("routability.listen", config.host, config.port)
        server = uvicorn_server(build_app(service))
        schedule = asyncio.create_task(service.run_schedule())
        stopper = asyncio.create_task(_exit_on(stop, server)) if stop is not None else None
        log.info(
            "routability listening on %s (schedule %s, pace %.3gs, trigger %s)",
            http_url(config.host, sock.getsockname()[1]), config.schedule.describe(), config.pace,
            "enabled" if service.trigger_enabled else "disabled (no trigger_token)",
        )  # fmt: skip
        try:
            await server.serve(sockets=[sock])
        finally:
            sock.close()
            for task in (schedule, stopper):
                if task is not None:
                    task.cancel()
            await asyncio.gather(schedule, *([stopper] if stopper else []), return_exceptions=True)
            await service.join()
            await transport.aclose()


async def _exit_on(stop: asyncio.Event, server: uvicorn.Server) -> None:
    await stop.wait()
    server.should_exit = True


def status_json(store: RoutabilityStore, config: RoutabilityConfig, now: float) -> dict[str, object]:
    """What ``canary routability status`` shows: counts, the last pass and the next one, from the store."""
    due = next_due(config.schedule, last_pass_finished(store), now)
    return {
        "store": str(config.store),
        "schedule": config.schedule.describe(),
        "models": count_by_status(list(store.rows().values())),
        "last_pass": last_pass(store),
        "next_pass_at": format_rfc3339(max(due, now)),
    }


def render_status(report: dict[str, Any]) -> str:
    counts = ", ".join(f"{k} {v}" for k, v in report["models"].items())
    lines = [f"models: {counts}", f"schedule: {report['schedule']}; next pass {report['next_pass_at']}"]
    summary = report["last_pass"]
    if summary is None:
        lines.append("last pass: none yet")
    else:
        results = ", ".join(f"{k} {v}" for k, v in summary.get("results", {}).items())
        lines.append(
            f"last pass: finished {format_rfc3339(float(summary['finished_at']))}, "
            f"probed {summary['probed']} ({results}), skipped {summary['skipped']}; "
            f"spent {summary.get('prompt_tokens', 0)} prompt + {summary.get('completion_tokens', 0)} "
            f"completion tokens, ${summary.get('cost_usd', 0.0):.6f}"
        )
    lines.append(f"store: {report['store']}")
    return "\n".join(lines)


def render(output: dict[str, Any]) -> str:
    """A plain table of the rows and the aggregate (the ``--once`` output without ``--json``)."""
    lines = [f"{'MODEL':<48} {'STATUS':<12} {'SOURCE':<8} {'FAILS':>5}  NOTE"]
    for row in output["rows"]:
        lines.append(
            f"{row['slug']:<48} {row['status']:<12} {row['source'] or '-':<8} "
            f"{row['consecutive_failures']:>5}  {row['note']}"
        )
    summary = output["pass"]
    results = ", ".join(f"{k} {v}" for k, v in summary["results"].items())
    lines.append(
        f"pass: probed {summary['probed']} ({results}), skipped {summary['skipped']}"
        + ("" if summary["catalogue_listed"] else "; catalogue listing FAILED, last list reused")
    )
    return "\n".join(lines)
