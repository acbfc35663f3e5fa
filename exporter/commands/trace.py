"""``canary trace``'s shell: read the sources (the router's journal, the evidence history, the gateway, the
receiver's public read API) and assemble the report with the pure ``exporter.investigate.trace``.

Read-only by construction: the receiver section's write tokens are never read (only its ``listen``, from
the file), the gateway key is optional (without it, the gateway is not asked and says nothing), and every
store is opened for reading. A source that is needed and cannot be read is *unknown*: the report says so at
its top and in its ``unknown`` mapping, the fields that depend on it are None (JSON ``null``), and the exit
status is ``EXIT_UNKNOWN``; it never reads as "no".

Where the receiver is: ``--receiver URL``, else the run record beside ``--config`` (``canary-run.json``,
which ``canary demo`` writes with the URLs it actually listens on), else the configuration's
``receiver.listen`` when its port is not 0.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import os
import time
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack, closing
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from pydantic import JsonValue

from exporter.commands.exporter_service import build_plans, open_evidence
from exporter.config import PROBING_SECTIONS, CanaryConfig, load_config
from exporter.configkit import Problems, load_file
from exporter.evidence.store import EvidenceRecord
from exporter.gateway.client import GatewayClient
from exporter.gateway.types import Endpoint, GatewayError, Generation
from exporter.investigate import trace
from exporter.investigate.history import records
from exporter.investigate.sampling import BadInput, require_known
from exporter.investigate.trace import Json
from exporter.receiver.config import ReceiverConfig
from exporter.router.journal import (
    Served,
    find_generation,
    hash_key,
    journal_models,
    load_secret,
    read_served,
)
from exporter.runrecord import live, read_run_record
from exporter.timestamps import format_optional, format_rfc3339
from exporter.web.hostport import http_url, parse_host_port

EXIT_UNKNOWN = 3
_RECEIVER = ReceiverConfig.model_fields  # the receiver section's defaults (its tokens are never read here)
# The default ladder's longest rung and a day: how far back a suspension that covers --at can have started.
RECEIVER_LOOKBACK_SECONDS = max(_RECEIVER["ladder"].default) + 86400.0
RECEIVER_MAX_BYTES = 4 * 1024 * 1024
GENERATION_RETRY_SECONDS = 1.0  # OpenRouter writes a generation's record a moment after it completes
MAX_SERVED_SHOWN = 20


def run(args: argparse.Namespace) -> Json:
    """``canary trace``'s report; its ``unknown`` names the sources that could not be read (exit status
    ``EXIT_UNKNOWN``). Bad input raises ``BadInput`` for the command's shell to print."""
    if args.model is not None and args.at is None:
        raise BadInput("--at", "--model needs --at TIME (or give --generation ID instead)")
    if args.generation is not None and args.at is not None:
        raise BadInput("--at", "comes from the generation record; give either --generation or --model --at")
    if args.user is not None and args.model is None:
        raise BadInput(
            "--user", "needs --model M --at TIME: the window the user's requests are looked for in"
        )
    config, missing_key = _read_only_config(Path(args.config))
    return asyncio.run(_trace(config, args, missing_key))


def _read_only_config(path: Path) -> tuple[CanaryConfig, str | None]:
    """The probing sections (never the receiver's tokens); an unset gateway key is no error: the name of its
    environment variable is returned and the gateway is not asked."""
    data = load_file(path, Problems(str(path)))
    gateway = data.get("gateway") if isinstance(data, Mapping) else None
    api_key = gateway.get("api_key") if isinstance(gateway, Mapping) else None
    name = api_key.get("env") if isinstance(api_key, Mapping) else None
    environ = dict(os.environ)
    missing = name if isinstance(name, str) and not environ.get(name, "").strip() else None
    if missing is not None:
        environ[missing] = "unset"  # a placeholder that is never sent (the gateway is not asked)
    return load_config(path, PROBING_SECTIONS, environ=environ), missing


def receiver_url(config_path: Path, given: str | None) -> tuple[str | None, str | None]:
    """(the receiver's URL, None) or (None, why it is unknown)."""
    if given is not None:
        return given.rstrip("/"), None
    record = read_run_record(config_path)
    dead = record is not None and "receiver" in record["urls"] and not live(record)
    if record is not None and "receiver" in record["urls"] and not dead:
        return record["urls"]["receiver"].rstrip("/"), None
    data = load_file(config_path, Problems(str(config_path)))
    section = data.get("receiver") if isinstance(data, Mapping) else None
    if not isinstance(section, Mapping):
        return None, "no receiver is configured (a receiver section, or --receiver URL)"
    listen = section.get("listen")
    try:
        host, port = _RECEIVER["listen"].default if listen is None else parse_host_port(listen)
    except ValueError as exc:
        return None, f"receiver.listen: {exc}"
    if port == 0:
        record_path = config_path.parent / "canary-run.json"
        return None, (
            f"the run recorded in {record_path} has stopped, and the configuration's receiver.listen is "
            f"{listen} (any free port): start it again, or pass --receiver URL"
            if dead
            else f"the configuration's receiver.listen is {listen} (any free port) and no run record "
            f"({record_path}) says where it listens: pass --receiver URL"
        )
    return http_url(host, port, local=True), None


def journal_path(config_path: Path, given: str | None) -> Path | None:
    if given is not None:
        return Path(given)
    record = read_run_record(config_path)
    found = record["paths"].get("journal") if record is not None else None
    return Path(found) if found else None


async def _generation(gateway: GatewayClient, generation_id: str) -> Generation | GatewayError:
    """The gateway's record of ``generation_id`` (asked once more after a moment when not written yet)."""
    found = await gateway.generation(generation_id)
    if isinstance(found, GatewayError) and found.status == 404:
        await asyncio.sleep(GENERATION_RETRY_SECONDS)
        found = await gateway.generation(generation_id)
    return found


class _Sources:
    """What could not be read, and why (the report's ``unknown``), plus notes."""

    def __init__(self) -> None:
        self.unknown: dict[str, str] = {}
        self.notes: list[str] = []


async def _trace(config: CanaryConfig, args: argparse.Namespace, missing_key: str | None) -> Json:
    src = _Sources()
    config_path = Path(args.config)
    journal = journal_path(config_path, args.journal)
    journal_ok = journal is not None and journal.is_file()
    if args.user is not None and not journal_ok:
        src.unknown["journal"] = (
            f"the router's journal {journal} cannot be read" if journal is not None
            else "no router journal: pass --journal FILE (the router's served-route journal)"
        )  # fmt: skip
    known = [m.slug for m in config.models]
    if journal_ok and journal is not None:
        known += journal_models(journal)
    generation: Generation | None = None
    served_record: Served | None = None
    async with AsyncExitStack() as stack:
        plans = build_plans(config, stack)
        gateway = next((p.gateway for p in plans if p.pinned), None)
        usable = gateway if isinstance(gateway, GatewayClient) and missing_key is None else None
        why_no_gateway = (
            f"the gateway key ({missing_key}) is not set: the gateway was not asked" if missing_key
            else "no openrouter gateway is configured"
        )  # fmt: skip
        if args.generation is not None:
            served_record = find_generation(journal, args.generation) if journal_ok and journal else None
            if served_record is not None:
                model, at = served_record.model, served_record.at
            elif usable is None:
                raise BadInput(
                    "--generation", f"{args.generation!r} is not in the journal and {why_no_gateway}"
                )
            else:
                found = await _generation(usable, args.generation)
                if isinstance(found, GatewayError):
                    if found.status == 404:
                        raise BadInput(
                            "--generation", f"the gateway has no generation {args.generation!r} (404)"
                        )
                    raise BadInput("--generation", f"could not look up {args.generation!r}: {found.detail}")
                generation = found
                model = trace.resolve_model(found.model, known) or found.model
                if model != found.model:
                    src.notes.append(f"the generation names {found.model}, a dated name of {model}")
                at = found.created_at if found.created_at is not None else time.time()
        else:
            at = args.at
            model = trace.resolve_model(args.model, known) or args.model
        endpoints: list[Endpoint] | None = None
        if usable is not None:
            listed = await usable.discover(model)
            if isinstance(listed, GatewayError):
                if model not in known and listed.status == 404:
                    raise BadInput("--model", _unknown_model(model, known))
                src.notes.append(f"could not list the hosts of {model}: {listed.detail}"[:300])
            else:
                endpoints = listed
        elif model not in known:
            raise BadInput("--model", _unknown_model(model, known))
        else:
            src.notes.append(f"the hosts of {model} were not listed: {why_no_gateway}")
    if args.provider is not None and endpoints:
        require_known("--provider", [args.provider], [e.tag for e in endpoints], f"is not a host of {model}")
    since, until = at - args.window, at + args.window
    window = _evidence(config, model, since, until, src)
    names = {e.tag: e.provider_name for e in endpoints or []}
    for r in window or []:  # the history knows who answered its own probes, when the gateway is not asked
        if served_by := r.result.reply.served_by:
            names.setdefault(r.provider, served_by)
    served: list[Served] | None = None
    if args.user is not None and journal_ok and journal is not None:
        secret = load_secret(journal, create=False)
        if secret is None:
            src.unknown["journal"] = (
                f"the journal's key file is missing beside {journal}: user keys cannot be matched"
            )
        else:
            served = read_served(
                journal, since=since, until=until, model=model, user_key=hash_key(secret, args.user)
            )
    routes = _routes(args, src, model, endpoints, names, window, generation, served_record, served)
    receiver = await _receiver_reads(config_path, args.receiver, model, at, src)
    return {
        "model": model,
        "at": format_optional(at),
        "window": {"since": format_optional(since), "until": format_optional(until)},
        "unknown": dict(src.unknown),
        "user": None if args.user is None else _user_json(served),
        "generation": _generation_json(generation, served_record),
        "routes": [trace.route_report(route, window, receiver, model, at, src.unknown) for route in routes],
        "notes": [*src.notes],
    }


def _unknown_model(model: str, known: Sequence[str]) -> str:
    hint = trace.suggest_models(model, known)
    did_you_mean = f"; did you mean {' or '.join(hint)}?" if hint else ""
    return f"unknown model {model!r} (a full slug such as moonshotai/kimi-k2-0905){did_you_mean}"


def _routes(
    args: argparse.Namespace,
    src: _Sources,
    model: str,
    endpoints: list[Endpoint] | None,
    names: Mapping[str, str],
    window: list[EvidenceRecord] | None,
    generation: Generation | None,
    served_record: Served | None,
    served: list[Served] | None,
) -> list[trace.Route]:
    # --user, or a --generation found in the journal: the journal says who served them
    journal = served if served is not None else None if served_record is None else [served_record]
    if journal is not None:
        routes = trace.served_routes([(s.endpoint, s.provider) for s in journal], names)
        if not journal:
            src.notes.append(f"the journal has no request of this user for {model} in the window")
        _say_ambiguous(src, routes)
        return routes
    gid = generation.id if generation else None
    own = next((r.provider for r in window or [] if gid and r.result.reply.generation_id == gid), None)
    served_by = generation.provider_name if generation else None
    listing = endpoints if endpoints is not None else [Endpoint(t, n) for t, n in names.items()]
    routes = trace.routes_for(listing, provider_name=served_by, provider=args.provider, own_probe=own)
    if generation is not None and len(routes) > 1:
        src.notes.append(
            f"{generation.provider_name} serves {len(routes)} routes of {model}; the record does not say "
            "which (pass --provider to pick one)"
        )
    if not routes and args.provider is None:
        if endpoints is None and not names:
            src.unknown["routes"] = (
                f"the hosts of {model} could not be listed (gateway) nor found in the evidence"
            )
        else:
            src.notes.append(f"no known host of {model} is called {served_by or '?'}")
    return routes


def _say_ambiguous(src: _Sources, routes: Sequence[trace.Route]) -> None:
    shared: dict[str, list[str]] = {}
    for r in routes:
        if r.matched_by == "journal_ambiguous":
            shared.setdefault(r.provider_name, []).append(r.provider)
    for name, tags in shared.items():
        src.notes.append(
            f"ambiguous: {name} is {' or '.join(tags)}; the gateway's reply named only the display name "
            "(the journal records the tag when the gateway's router metadata names it)"
        )


def _evidence(
    config: CanaryConfig, model: str, since: float, until: float, src: _Sources
) -> list[EvidenceRecord] | None:
    try:
        store = open_evidence(config)
    except Exception as exc:  # a damaged or unreadable history: unknown, said why
        src.unknown["evidence"] = f"the evidence history cannot be read: {exc}"[:300]
        return None
    if store is None:
        src.unknown["evidence"] = (
            "no evidence history is configured (exporter.evidence): verdicts are unknown"
        )
        return None
    with closing(store):
        return list(records(store, model=model, since=since, until=until, limit=20_000))


async def _receiver_reads(
    config_path: Path, given: str | None, model: str, at: float, src: _Sources
) -> dict[str, JsonValue] | None:
    """The receiver's decisions around ``at``, its current suspensions and the model's ignore list (public
    read endpoints, no token, bounded replies); what cannot be read is left out and said in ``unknown``."""
    url, why = receiver_url(config_path, given)
    if url is None:
        src.unknown["receiver"] = why or "unknown receiver"
        return None
    since = format_rfc3339(max(0.0, at - RECEIVER_LOOKBACK_SECONDS))
    reads = {
        "decisions": "/v1/decisions?" + urlencode({"since": since, "limit": "1000"}),
        "suspensions": "/v1/suspensions",
        "ignore": "/v1/ignore?" + urlencode({"model": model}),
    }
    out: dict[str, JsonValue] = {}
    problems: list[str] = []
    async with GatewayClient(url, None, kind="openai-compatible", timeout=10.0) as client:
        for name, path in reads.items():
            document = await client.get_json(path, limit=RECEIVER_MAX_BYTES)
            value = document.get(name) if isinstance(document, dict) else None
            if not isinstance(value, list):
                problem = document.detail if isinstance(document, GatewayError) else "not the expected JSON"
                problems.append(f"{url}{path.partition('?')[0]}: {problem}"[:300])
                if isinstance(document, GatewayError) and name == "decisions":
                    break  # unreachable: the other reads would say the same
                continue
            out[name] = value
    if problems:
        src.unknown["receiver"] = "could not read " + "; ".join(problems)
    return out


def _user_json(served: list[Served] | None) -> Json:
    if served is None:
        return {"requests": None, "served": None}
    return {"requests": len(served), "served": [_served_json(s) for s in served[:MAX_SERVED_SHOWN]]}


def _served_json(s: Served) -> JsonValue:
    return {
        "at": format_optional(s.at),
        "provider": s.provider,
        "endpoint": s.endpoint,
        "generation_id": s.generation_id,
        "ttft_seconds": s.ttft_seconds,
        "finish_reason": s.finish_reason,
        "status": s.status,
        "ignore": list(s.ignore),
    }


def _generation_json(generation: Generation | None, served: Served | None) -> Json | None:
    if served is not None:
        return {"source": "journal", "id": served.generation_id, "provider_name": served.provider,
                "endpoint": served.endpoint, "created_at": format_optional(served.at),
                "finish_reason": served.finish_reason}  # fmt: skip
    if generation is None:
        return None
    return {
        "source": "gateway",
        "id": generation.id,
        "provider_name": generation.provider_name,
        "model": generation.model,
        "created_at": format_optional(generation.created_at),
        "finish_reason": generation.finish_reason,
        "tokens": generation.tokens_prompt + generation.tokens_completion,
        "cost_usd": generation.total_cost_usd,
        "attempts": [dataclasses.asdict(attempt) for attempt in generation.attempts],
    }


def _unknown(route: Mapping[str, Any], name: str) -> str:
    return f"unknown ({route['unknown'][name]})" if name in route["unknown"] else "unknown"


def to_text(document: dict[str, Any]) -> str:
    """``canary trace`` for a terminal: what could not be read first, who served it, then per route its
    verdicts and exclusions ("unknown", never "no", where a source could not be read)."""
    lines: list[str] = []
    if document["unknown"]:
        lines.append(
            "INCOMPLETE: some sources could not be read; what depends on them is 'unknown', not 'no':"
        )
        lines += [f"  {source}: {why}" for source, why in document["unknown"].items()]
        lines.append("")
    lines.append(
        f"model {document['model']} at {document['at']} (window {document['window']['since']} to "
        f"{document['window']['until']})"
    )
    user = document["user"]
    if user is not None:
        count = "unknown" if user["requests"] is None else str(user["requests"])
        lines.append(f"user's requests in the window (router journal): {count}")
        for s in user["served"] or []:
            who = s["endpoint"] or s["provider"] or "no reply"
            lines.append(
                f"  {s['at']} served by {who} ({s['generation_id'] or 'no id'}; finish {s['finish_reason']}, "
                f"status {s['status']})"
            )
    generation = document["generation"]
    if generation is not None:
        tried = (
            ", ".join(f"{a['provider_name']} ({a['status']})" for a in generation.get("attempts", [])) or "-"
        )
        lines.append(
            f"generation {generation['id']} ({generation['source']}): served by "
            f"{generation['provider_name']} at {generation['created_at']}; tried {tried}"
        )
    for route in document["routes"]:
        served = f"; served {route['requests']} of the requests" if route["requests"] else ""
        lines += [
            "",
            f"route {route['provider']} ({route['provider_name']}; matched by {route['matched_by']}{served})",
        ]
        verdicts = route["verdicts"]
        if verdicts is None:
            lines.append(f"  verdicts: {_unknown(route, 'verdicts')}")
        else:
            counts = "; ".join(
                f"{c} " + ", ".join(f"{n} {o}" for o, n in outcomes.items())
                for c, outcomes in verdicts["by_contract"].items()
            )
            lines.append(f"  verdicts: {counts or 'none in the window'}")
            for f in verdicts["failures"]:
                lines.append(f"    {_when(f['at'])} {f['contract']} {f['reason']}: {f['excerpt'][:70]}")
        if route["excluded_then"] is None:
            lines.append(f"  excluded then: {_unknown(route, 'excluded_then')}")
        else:
            excluded = [
                f"{e['layer']} ({e['kind']}) since {e['since']} until {_when(e['until'])}: {e['reason']}"
                for e in route["excluded_then"]
            ]
            lines.append(f"  excluded then: {'; '.join(excluded) or 'no'}")
        if route["decisions"] is None:
            lines.append(f"  decisions about it: {_unknown(route, 'decisions')}")
        else:
            lines.append(f"  decisions about it: {len(route['decisions'])}")
            for d in route["decisions"][-5:]:
                lines.append(f"    {d.get('time')} {d.get('kind')}: {d.get('reason', '')}"[:100])
        now = route["in_ignore_list_now"]
        shown = _unknown(route, "in_ignore_list_now") if now is None else "yes" if now else "no"
        lines.append(f"  in the ignore list now: {shown}")
    if not document["routes"]:
        lines += ["", "no route found"]
    lines += [f"note: {n}" for n in document["notes"]]
    return "\n".join(lines)


def _when(unix: object) -> str:
    return str(format_optional(unix)) if isinstance(unix, int | float) else str(unix)
