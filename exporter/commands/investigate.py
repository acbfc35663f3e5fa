"""``canary investigate`` and ``canary trace``: argument checking, then the shell around the pure modules.

Every argument is checked before anything is sent: values by argparse types (exit 2 with the flag's name),
then against the configuration, then against the gateway's endpoint list (one discovery request, never a
chat); a ``BadInput`` exits 2 with ``canary COMMAND: FLAG: what was wrong``. Only the report goes to
stdout; progress and logs go to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from contextlib import (
    AbstractContextManager,
    AsyncExitStack,
    asynccontextmanager,
    closing,
    contextmanager,
    nullcontext,
)
from typing import TypeVar

from exporter.argkit import add_command
from exporter.commands import trace as tracer
from exporter.commands.exporter_service import build_plans, open_evidence
from exporter.config import CanaryConfig, load_probing_config
from exporter.configkit import format_duration, parse_duration
from exporter.contracts import REGISTRY
from exporter.contracts.base import Contract, ProbeTarget
from exporter.engine.rounds import ModelPlan
from exporter.equality import report as equality
from exporter.equality.compare import MIN_HOSTS as MIN_EQUALITY_HOSTS
from exporter.equality.logprob_sampling import (
    DEFAULT_PREFIXES,
    DEFAULT_REPEATS,
    lists_logprobs,
    sample_next_tokens,
)
from exporter.equality.sampling import across_hosts, sample_host
from exporter.evidence.store import EvidenceStore
from exporter.gateway.types import Endpoint
from exporter.investigate import report
from exporter.investigate.compare import DEFAULT_ALPHA, Comparison, compare
from exporter.investigate.history import MAX_RECORDS, parse_since, records
from exporter.investigate.sampling import BadInput, Work, collect, from_record, require_known, resolve
from exporter.language.locales import DEFAULT_LOCALES, canonical_locale
from exporter.timestamps import parse_instant

MAX_SAMPLES = 500
DEFAULT_SAMPLES = 20
DEFAULT_WINDOW_SECONDS = 1800.0
T = TypeVar("T")

INVESTIGATE_EPILOG = """examples:
  canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --samples 20
  canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --contracts language \\
      --locale pt-BR --json
  canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --from-history 6h --markdown
  canary investigate --config canary.yaml --model moonshotai/kimi-k2-0905 --test equality --samples 24
"""
TRACE_EPILOG = """examples:
  canary trace --config canary.yaml --generation gen-1768896871-9HgAQqS1Z72C6gApaidi
  canary trace --config canary.yaml --user user-42 --model moonshotai/kimi-k2-0905 \\
      --at 2026-11-30T21:10:00Z --journal /var/lib/router/journal.sqlite3
  canary trace --config canary.yaml --model moonshotai/kimi-k2-0905 --at 2026-11-30T21:10:00Z \\
      --provider deepinfra/fp8 --json

exit status: 0 every needed source was read; 2 bad input; 3 a source could not be read (the report says
which at its top, and what depends on it reads "unknown", never "no").
"""


def _samples(value: str) -> int:
    if not value.isdigit() or not 1 <= int(value) <= MAX_SAMPLES:
        raise argparse.ArgumentTypeError(f"expected a whole number from 1 to {MAX_SAMPLES}, got {value!r}")
    return int(value)


def _alpha(value: str) -> float:
    try:
        alpha = float(value)
    except ValueError:
        alpha = -1.0
    if not 0.0 < alpha < 1.0:
        raise argparse.ArgumentTypeError(
            f"expected a probability between 0 and 1 such as 0.01, got {value!r}"
        )
    return alpha


def _word(expected: str, ok: Callable[[str], bool], longest: int = 200) -> Callable[[str], str]:
    """An argparse type for one stripped word of 1 to ``longest`` characters that ``ok`` accepts."""

    def parse(value: str) -> str:
        text = value.strip()
        if not 1 <= len(text) <= longest or any(c.isspace() for c in text) or not ok(text):
            raise argparse.ArgumentTypeError(f"expected {expected}, got {value!r}")
        return text

    return parse


_model = _word("a model slug such as moonshotai/kimi-k2-0905", lambda t: len(t) >= 3 and "/" in t)
_model_name = _word("a model slug such as moonshotai/kimi-k2-0905", lambda t: len(t) >= 2)
_user = _word("the user key the product passes to the router", lambda t: t.isprintable(), 500)
_tag = _word("a provider tag such as deepinfra/fp8", lambda _: True)
_generation_id = _word(
    "a generation id such as gen-1768896871-9HgAQqS1Z72C6gApaidi",
    lambda t: all(c.isascii() and (c.isalnum() or c in "-_.:") for c in t),
)
_url = _word(
    "an http(s) URL such as http://127.0.0.1:9465", lambda t: t.startswith(("http://", "https://")), 2000
)


def _parsed(parse: Callable[[str], T]) -> Callable[[str], T]:
    """An argparse type from a parser whose ``ValueError`` says what was expected."""

    def checked(value: str) -> T:
        try:
            return parse(value)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None

    return checked


@_parsed
def _names(value: str) -> list[str]:
    names = [n.strip() for n in value.split(",") if n.strip()]
    if len(value) > 10_000:
        raise ValueError(f"expected at most 10000 characters, got {len(value)}")
    if not names:
        raise ValueError(f"expected a comma-separated list, got {value!r}")
    return names


@_parsed
def _contract_names(value: str) -> list[str]:
    names = _names(value)
    unknown = [n for n in names if n not in REGISTRY]
    if unknown:
        raise ValueError(
            f"unknown contract(s) {', '.join(map(repr, unknown))} (known: {', '.join(REGISTRY)})"
        )
    return list(dict.fromkeys(names))


@_parsed
def _locale(value: str) -> str:
    code = canonical_locale(value)
    if code is None:
        raise ValueError(f"unknown locale {value!r} (known: {', '.join(DEFAULT_LOCALES)})")
    return code


_since = _parsed(lambda value: parse_since(value, time.time()))
_instant = _parsed(parse_instant)


@_parsed
def _duration(value: str) -> float:
    seconds = parse_duration(value)
    if not 0 < seconds <= 7 * 86400:
        raise ValueError(f"expected a duration from 1s to 7d, got {value!r}")
    return seconds


# Each command's --help line and description (its examples are the epilog above).
COMMANDS = {
    "investigate": (
        "the pinned comparison: N samples per host, each host against the pooled others (Fisher, Holm)",
        "Send N pinned samples per host per contract now (same judges and pinning as the rounds), or read "
        "them from the evidence history (--from-history), and report for each host and contract its failures "
        "against the pooled other hosts: a one-sided Fisher exact p-value, the Holm-adjusted p-value across "
        "hosts, and outlier when it is below --alpha. Only pass and fail are evidence; other outcomes are "
        "counted as excluded. A cost line ends the report.",
        INVESTIGATE_EPILOG,
    ),
    "trace": (
        "from a user's report to the route that served it, its verdicts and exclusions then",
        "Find who served a request (the router's journal, or the gateway's generation record), or the routes "
        "that served a user's requests around a time (--user, the router's journal), or take a model and a "
        "time, and print each route's verdicts around the time (evidence history), its suspensions and "
        "incidents then, and whether it is in the ignore list now (the receiver's read API). Read-only: no "
        "receiver token is read and the gateway key is optional.",
        TRACE_EPILOG,
    ),
}


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``investigate`` and ``trace`` to the ``canary`` parser."""
    investigate, tracing = (
        add_command(subparsers, name, help=summary, description=description, epilog=examples)
        for name, (summary, description, examples) in COMMANDS.items()
    )
    for p, run in ((investigate, investigate_command), (tracing, trace_command)):
        p.add_argument("--config", required=True, metavar="FILE", help="the canary YAML configuration")
        p.set_defaults(func=run)
    p = investigate
    p.add_argument(
        "--model",
        required=True,
        type=_model,
        metavar="M",
        help="the model slug, e.g. moonshotai/kimi-k2-0905",
    )
    p.add_argument("--providers", type=_names, metavar="a,b", help="only these hosts (default: every host)")
    p.add_argument(
        "--contracts", type=_contract_names, metavar="c,d", help="only these contracts (default: all enabled)"
    )
    p.add_argument(
        "--samples",
        type=_samples,
        default=DEFAULT_SAMPLES,
        metavar="N",
        help=f"samples per host per contract, 1 to {MAX_SAMPLES} (default {DEFAULT_SAMPLES})",
    )
    p.add_argument(
        "--locale", type=_locale, metavar="L", help="ask locale-rotating contracts for this locale"
    )
    p.add_argument(
        "--alpha",
        type=_alpha,
        default=DEFAULT_ALPHA,
        help=f"outlier threshold on the Holm-adjusted p-value (default {DEFAULT_ALPHA})",
    )
    p.add_argument(
        "--test",
        choices=("contracts", "equality"),
        default="contracts",
        help="contracts (default): failures per contract, Fisher; equality: does each host's output "
        "distribution match its peers' (n-gram surprise ranks over open-ended prompts; where hosts list "
        "logprobs, also their next-token probabilities at fixed prefixes; docs/equality.md)",
    )
    out = p.add_mutually_exclusive_group()
    out.add_argument("--json", action="store_true", help="print the report as JSON")
    out.add_argument("--markdown", action="store_true", help="print the report as Markdown for a ticket")
    p.add_argument(
        "--from-history",
        type=_since,
        metavar="SINCE",
        dest="since",
        help="send nothing: read the evidence history since SINCE (RFC 3339, unix seconds, or 6h / 2d back)",
    )

    p = tracing
    which = p.add_mutually_exclusive_group(required=True)
    which.add_argument("--generation", type=_generation_id, metavar="ID", help="the gateway's generation id")
    which.add_argument(
        "--model", type=_model_name, metavar="M", help="the model slug (with --at; a dated name is accepted)"
    )
    p.add_argument(
        "--at", type=_instant, metavar="TIME", help="when (RFC 3339 or unix seconds; with --model)"
    )
    p.add_argument(
        "--provider", type=_tag, metavar="P", help="the route's tag, when known (e.g. deepinfra/fp8)"
    )
    p.add_argument(
        "--window",
        type=_duration,
        default=DEFAULT_WINDOW_SECONDS,
        help="verdicts this long before and after the time "
        f"(default {format_duration(DEFAULT_WINDOW_SECONDS)})",
    )
    p.add_argument(
        "--receiver",
        type=_url,
        metavar="URL",
        help="the receiver's URL (default: from the config's receiver)",
    )
    p.add_argument(
        "--user",
        type=_user,
        metavar="U",
        help="the product's user key: the routes that served this user's requests (the router's journal)",
    )
    p.add_argument(
        "--journal",
        metavar="FILE",
        help="the router's served-route journal (default: the run record beside --config)",
    )
    p.add_argument("--json", action="store_true", help="print JSON")


def _fail(command: str, error: BadInput) -> int:
    print(f"canary {command}: {error}", file=sys.stderr)
    return 2


def _print_report(
    args: argparse.Namespace,
    report: T,
    to_json: Callable[[T], Mapping[str, object]],
    to_text: Callable[[T], str],
    to_markdown: Callable[[T], str] | None = None,
) -> int:
    """Print ``report`` as ``--json``, as ``--markdown`` (commands that have it) or by default as text for a
    terminal; the exit status 0."""
    if args.json:
        print(json.dumps(to_json(report), indent=2, ensure_ascii=False))
    else:
        print((to_markdown if to_markdown is not None and args.markdown else to_text)(report))
    return 0


# -- investigate -------------------------------------------------------------------------------------------


def investigate_command(args: argparse.Namespace) -> int:
    """Entry point of ``canary investigate`` (configuration errors propagate as ``ConfigError``)."""
    config = load_probing_config(args.config)
    try:
        if args.test == "equality":
            built = asyncio.run(_live_equality(config, args))
            return _print_report(args, built, equality.to_json, equality.to_table, equality.to_markdown)
        contracts = _chosen_contracts(config.contracts, args.contracts)
        if args.since is not None:
            comparison = _from_history(config, args, contracts)
        else:
            comparison = asyncio.run(_live(config, args, contracts))
    except BadInput as error:
        return _fail("investigate", error)
    return _print_report(args, comparison, report.to_json, report.to_table, report.to_markdown)


async def _live_equality(config: CanaryConfig, args: argparse.Namespace) -> equality.EqualityReport:
    """``--test equality``: N open-ended completions per host, each host's distribution against its peers'."""
    for flag, given in (("--contracts", args.contracts), ("--locale", args.locale)):
        if given is not None:
            raise BadInput(flag, "does not apply to --test equality (it sends its own prompts)")
    if args.since is not None:
        raise BadInput("--from-history", "--test equality samples now; the history keeps no completions")
    settings = config.equality
    if args.samples < 2 * len(settings.prompts):
        raise BadInput(
            "--samples",
            f"--test equality needs at least {2 * len(settings.prompts)} (two completions of each of its "
            f"{len(settings.prompts)} prompts), got {args.samples}",
        )
    async with _work(config, args, (), locale=None) as work:
        if len(work.targets) < MIN_EQUALITY_HOSTS:
            raise BadInput(
                "--providers", f"--test equality compares each host with its peers: it needs at least "
                f"{MIN_EQUALITY_HOSTS} hosts, got {len(work.targets)}",
            )  # fmt: skip
        listing = sum(lists_logprobs(target.endpoint) for target, _ in work.targets)
        requests = len(work.targets) * args.samples + listing * DEFAULT_REPEATS * len(DEFAULT_PREFIXES)
        with _progress(requests) as advance:
            hosts = await across_hosts(
                work.targets,
                config.rounds.concurrency,
                lambda t, g: sample_host(t, g, settings, args.samples, on_sample=advance),
            )
            next_tokens = await across_hosts(
                work.targets, config.rounds.concurrency, lambda t, g: sample_next_tokens(t, g, advance)
            )
    return equality.build(
        work.model, hosts, samples=args.samples, alpha=args.alpha, settings=settings, next_tokens=next_tokens
    )


def _chosen_contracts(configured: Sequence[Contract], names: Sequence[str] | None) -> list[Contract]:
    by_name = {c.name: c for c in configured}
    if names is None:
        chosen = list(configured)
    else:
        require_known("--contracts", names, list(by_name), "disabled in the configuration")
        chosen = [by_name[n] for n in names]
    if not chosen:
        raise BadInput("--contracts", "no contract is enabled in the configuration")
    return chosen


def _plans_for(config: CanaryConfig, model: str, plans: Sequence[ModelPlan]) -> list[ModelPlan]:
    """The model's plans; a model the configuration does not name goes through its gateway, pinned."""
    mine = [p for p in plans if p.model == model]
    if mine:
        return mine
    gateway = next((p.gateway for p in plans if p.pinned), None)
    if gateway is None:
        raise BadInput(
            "--model",
            f"{model!r} is not in the configuration and there is no gateway to discover it through "
            f"(configured: {', '.join(m.slug for m in config.models)})",
        )
    return [ModelPlan(model, gateway)]


@asynccontextmanager
async def _work(
    config: CanaryConfig, args: argparse.Namespace, contracts: Sequence[Contract], locale: str | None
) -> AsyncIterator[Work]:
    """What to send for ``--model`` and ``--providers`` (one discovery request), its gateways open inside."""
    async with AsyncExitStack() as stack:
        plans = _plans_for(config, args.model, build_plans(config, stack))
        yield await resolve(plans, contracts, providers=args.providers, samples=args.samples, locale=locale)


async def _live(config: CanaryConfig, args: argparse.Namespace, contracts: list[Contract]) -> Comparison:
    async with _work(config, args, contracts, args.locale) as work:
        with _store(config) as store, _progress(work.requests) as advance:
            samples = await collect(
                work,
                concurrency=config.rounds.concurrency,
                on_sample=advance,
                record=store.record if store is not None else None,
            )
    notes = [f"left out as live positive controls: {', '.join(work.left_out)}"] if work.left_out else []
    if args.locale is not None and not any(s.locale == args.locale for s in samples):
        notes.append(f"--locale {args.locale} had no effect: none of the chosen contracts asked for a locale")
    return compare(
        work.model,
        samples,
        providers=work.providers,
        contracts=[c.name for c in work.contracts],
        samples_per_host=work.samples,
        alpha=args.alpha,
        locale=args.locale,
        notes=notes,
    )


def _from_history(config: CanaryConfig, args: argparse.Namespace, contracts: list[Contract]) -> Comparison:
    names = [c.name for c in contracts]
    with _store(config) as store:
        if store is None:
            raise BadInput(
                "--from-history", "the configuration keeps no evidence history (exporter.evidence)"
            )
        found = [  # first attempts only (why: the docstring of investigate/history.py)
            from_record(r)
            for r in records(store, model=args.model, since=args.since)
            if r.attempt == 1 and r.contract in names and args.locale in (None, r.result.locale)
        ]
    seen = list(dict.fromkeys(s.provider for s in found))
    if not seen:
        raise BadInput("--from-history", f"no evidence for {args.model!r} since then")
    if args.providers:
        require_known("--providers", args.providers, seen, "have no evidence since then")
        seen = list(dict.fromkeys(args.providers))
    controls = [] if args.providers else _live_controls(config, args.model, seen, contracts)
    seen = [p for p in seen if p not in controls]
    per_route = Counter((s.provider, s.contract) for s in found)
    notes = ["first attempts only: confirmations follow a fail, so they would overweight failures"]
    if controls:
        notes.append(f"left out as live positive controls: {', '.join(controls)}")
    if len(found) >= MAX_RECORDS:
        notes.append(f"the history held more: the newest {MAX_RECORDS} records were read")
    return compare(
        args.model,
        found,
        providers=seen,
        contracts=names,
        samples_per_host=max(per_route.values(), default=0),
        alpha=args.alpha,
        source="history",
        locale=args.locale,
        since=args.since,
        notes=notes,
    )


def _live_controls(
    config: CanaryConfig, model: str, tags: Sequence[str], contracts: Sequence[Contract]
) -> list[str]:
    """The hosts among ``tags`` that are live positive controls of a chosen contract (as ``resolve`` does
    for live samples; the history has no endpoint listing, so only the tag is known)."""
    known: frozenset[str] = next((m.known_filtering for m in config.models if m.slug == model), frozenset())
    return [
        tag
        for tag in tags
        if any(c.live_control(ProbeTarget(model, Endpoint(tag, ""), True, tag in known)) for c in contracts)
    ]


def _store(config: CanaryConfig) -> AbstractContextManager[EvidenceStore | None]:
    """The configuration's evidence history, open inside the block (None when it keeps none)."""
    store = open_evidence(config)
    return nullcontext() if store is None else closing(store)


@contextmanager
def _progress(total: int) -> Iterator[Callable[[], None]]:
    """A progress bar on stderr when it is a terminal; otherwise nothing (stdout is the report's alone)."""
    if not sys.stderr.isatty():
        yield lambda: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    columns = (TextColumn("samples"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("samples", total=total)
        yield lambda: progress.advance(task)


# -- trace -------------------------------------------------------------------------------------------------


def trace_command(args: argparse.Namespace) -> int:
    """Entry point of ``canary trace`` (the shell is ``exporter.commands.trace``)."""
    try:
        document = tracer.run(args)
    except BadInput as error:
        return _fail("trace", error)
    _print_report(args, document, lambda d: d, tracer.to_text)
    return tracer.EXIT_UNKNOWN if document["unknown"] else 0
