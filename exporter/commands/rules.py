"""``canary rules render``: the shipped rules (and their promtool tests and Grafana copy) for a deployment."""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from exporter.argkit import add_command, add_group
from exporter.generators import grafana_alerts, write_or_check
from exporter.generators.rulefile import RuleFileError
from exporter.generators.rulerender import (
    DEFAULT_JOBS,
    DEFAULT_RULE_TESTS_DIR,
    DEFAULT_RULES,
    DEFAULT_RUNBOOK_BASE,
    RenderParams,
    render_directory,
)

EPILOG = f"""\
examples:
  canary rules render --exporter-job llm-canary --receiver-job quarantine \\
      --runbook-base https://git.example/ops/canary/-/blob/main/docs/runbook.md \\
      --severity critical=page --label team=llm --output-dir out/ --grafana-output out/canary-alerts.yaml
  promtool test rules out/tests/*.yml        # the project's unit tests, in your deployment's terms
  canary rules render --check                # the shipped files are the rendering with the defaults

Writes DIR/{DEFAULT_RULES.name} and DIR/tests/*_test.yml (the promtool tests rendered with the same
parameters). Defaults: jobs {", ".join(f"{role}={job}" for role, job in DEFAULT_JOBS.items())},
runbook base {DEFAULT_RUNBOOK_BASE}. See docs/alerting.md ("Portable rules").
"""


def _pair(value: str) -> tuple[str, str]:
    key, sep, val = value.partition("=")
    if not sep or not key or not val:
        raise argparse.ArgumentTypeError(f"expected KEY=VALUE, got {value!r}")
    return key, val


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rules render`` to the ``canary`` command."""
    _, commands = add_group(
        subparsers,
        "rules",
        "render the Prometheus rules for your job names, runbook and routing",
        "Render the shipped Prometheus rules (and their tests and Grafana copy).",
        EPILOG,
        metavar="SUBCOMMAND",
    )
    render = add_command(
        commands,
        "render",
        "write the rule file, its promtool tests and the Grafana alert file for a deployment",
        "Rewrite the job matchers, runbook URLs and severity routing of the shipped rules.",
        EPILOG,
    )
    for role, job in DEFAULT_JOBS.items():
        render.add_argument(
            f"--{role}-job", metavar="JOB", default=job, help=f"Prometheus job of the {role} (default {job})"
        )
    render.add_argument(
        "--runbook-base",
        metavar="URL",
        default=DEFAULT_RUNBOOK_BASE,
        help="runbook_url = URL#<alert name in lower case> (default %(default)s)",
    )
    for flag, metavar, what in (
        ("--severity", "SEVERITY=VALUE", "rename a severity (critical, warning, info) for your routing"),
        ("--label", "NAME=VALUE", "add a static label to every alert (e.g. team=llm)"),
    ):
        render.add_argument(
            flag, type=_pair, action="append", default=[], metavar=metavar, help=f"{what}; repeatable"
        )
    render.add_argument("--rules", type=Path, default=DEFAULT_RULES, help="source rule file")
    render.add_argument("--output-dir", type=Path, metavar="DIR", help="where to write the rules and tests")
    render.add_argument(
        "--grafana-output", type=Path, metavar="FILE", help="also write the Grafana alert file"
    )
    render.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless the shipped rules and Grafana file are the rendering with the defaults",
    )
    render.set_defaults(func=run_render)


def run_render(args: argparse.Namespace) -> int:
    try:
        params = RenderParams(
            jobs={
                role: getattr(args, f"{role}_job")
                for role in DEFAULT_JOBS
                if getattr(args, f"{role}_job") != DEFAULT_JOBS[role]
            },
            runbook_base=args.runbook_base,
            severities=dict(args.severity),
            labels=dict(args.label),
        )
        if args.check:
            return _check(params, args.rules)
        if args.output_dir is None:
            print("canary rules render: --output-dir DIR is required (or --check)", file=sys.stderr)
            return 2
        written = render_directory(
            params, args.output_dir, rules=args.rules, tests_dir=_tests_dir(args.rules)
        )
        if args.grafana_output is not None:
            args.grafana_output.parent.mkdir(parents=True, exist_ok=True)
            args.grafana_output.write_text(grafana_alerts.render([written[0]]), encoding="utf-8")
            written.append(args.grafana_output)
    except (RuleFileError, OSError) as error:
        print(f"canary rules render: {error}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def _tests_dir(rules: Path) -> Path | None:
    tests = rules.parent / "tests"
    return tests if tests.is_dir() else None


def _check(params: RenderParams, rules: Path) -> int:
    if not params.is_default:
        print("canary rules render --check: takes no other parameters", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        written = render_directory(params, Path(tmp), rules=rules, tests_dir=DEFAULT_RULE_TESTS_DIR)
        files = {rules.parent / path.relative_to(tmp): path.read_text("utf-8") for path in written}
    files[grafana_alerts.DEFAULT_OUTPUT] = grafana_alerts.render([rules])
    if write_or_check(files, check=True, regenerate="canary rules render"):
        return 1
    print("the shipped rules are the rendering with the defaults")
    return 0
