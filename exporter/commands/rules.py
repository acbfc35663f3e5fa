"""``canary rules render``: the rules, their promtool tests and the Grafana alert file for a deployment."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from exporter.argkit import add_command, add_group
from exporter.configkit import ConfigError, Problems, load_file, validate
from exporter.generators import grafana_alerts, write_or_check
from exporter.generators.rulefile import RuleFileError
from exporter.generators.rulerender import (
    LIVE_ACTIONS,
    SEVERITIES,
    SHIPPED_DIR,
    RulesConfig,
    rendered_files,
)

EPILOG = """\
examples:
  canary rules render --runbook-base https://git.example/ops/canary/-/blob/main/docs/runbook.md \\
      --exporter-job llm-canary --severity critical=page --output-dir out/
  promtool test rules out/tests/*.yml        # the project's unit tests, in your deployment's terms
  canary rules render --config rules.yaml --output-dir out/ --grafana-output out/canary-alerts.yaml
  canary rules render --check                # the shipped rules/ are the rendering with the defaults

Writes DIR/canary.rules.yml and DIR/tests/*_test.yml. --config reads a YAML mapping with the keys
exporter_job, receiver_job, alertmanager_job, runbook_base, receiver_url, severity_critical,
severity_warning, severity_info and live_action; flags override it. See docs/alerting.md
("Rendering the rules").
"""


def _pair(value: str) -> tuple[str, str]:
    key, sep, val = value.partition("=")
    if not sep or key not in SEVERITIES or not val:
        raise argparse.ArgumentTypeError(
            f"expected SEVERITY=VALUE with SEVERITY one of {SEVERITIES}, got {value!r}"
        )
    return key, val


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add ``rules render`` to the ``canary`` command."""
    _, commands = add_group(
        subparsers,
        "rules",
        "render the Prometheus rules for your job names, runbook and routing",
        "Render the Prometheus rules (and their tests and Grafana copy) from a configuration.",
        EPILOG,
        metavar="SUBCOMMAND",
    )
    render = add_command(
        commands,
        "render",
        "write the rule file, its promtool tests and the Grafana alert file for a deployment",
        "Render the rules with your job names, runbook base URL and severities.",
        EPILOG,
    )
    default = RulesConfig()
    render.add_argument("--config", type=Path, metavar="FILE", help="a YAML mapping of the parameters")
    for role in ("exporter", "receiver", "alertmanager"):
        render.add_argument(
            f"--{role}-job",
            metavar="JOB",
            help=f"Prometheus job of the {role} (default {getattr(default, f'{role}_job')})",
        )
    render.add_argument(
        "--runbook-base",
        metavar="URL",
        help=f"runbook_url = URL#<alert name in lower case> (default {default.runbook_base})",
    )
    render.add_argument(
        "--receiver-url",
        metavar="URL",
        help="the receiver's URL as people reach it, for decision links (default: its scrape address)",
    )
    render.add_argument(
        "--severity",
        type=_pair,
        action="append",
        default=[],
        metavar="SEVERITY=VALUE",
        help="the severity label value for critical, warning or info alerts (e.g. critical=page); repeatable",
    )
    render.add_argument(
        "--live-action",
        choices=LIVE_ACTIONS,
        help="what a route standing out in the router's live verdicts asks: inform people (default) or "
        "suspend it (live verdicts as a trigger, behind the minimum volume and the capacity floor)",
    )
    render.add_argument("--output-dir", type=Path, metavar="DIR", help="where to write the rules and tests")
    render.add_argument(
        "--grafana-output", type=Path, metavar="FILE", help="also write the Grafana alert file"
    )
    render.add_argument(
        "--check",
        action="store_true",
        help="exit 1 unless the shipped rules/ and Grafana file are the rendering with the defaults",
    )
    render.set_defaults(func=run_render)


def config_of(args: argparse.Namespace) -> RulesConfig:
    """The configuration: the --config file's values, overridden by the flags given (``ConfigError`` names
    every problem, a file's at its line)."""
    values: dict[str, object] = {}
    if args.config is not None:
        problems = Problems(str(args.config))
        read = validate(RulesConfig, load_file(args.config, problems), problems)
        problems.raise_if_any()
        values = dict(read or {})
    flags = {
        name: value for name in RulesConfig.model_fields if (value := getattr(args, name, None)) is not None
    }
    flags.update({f"severity_{key}": value for key, value in args.severity})
    problems = Problems("flags")
    config = validate(RulesConfig, values | flags, problems)
    problems.raise_if_any()
    assert config is not None  # no problems: read
    return config


def run_render(args: argparse.Namespace) -> int:
    try:
        config = config_of(args)
        if args.check:
            return check_shipped(config)
        if args.output_dir is None:
            print("canary rules render: --output-dir DIR is required (or --check)", file=sys.stderr)
            return 2
        write_or_check(rendered_files(config, args.output_dir), check=False)
        if args.grafana_output is not None:  # the Grafana alerts of the rules just written
            grafana = grafana_alerts.render([args.output_dir / "canary.rules.yml"])
            write_or_check({args.grafana_output: grafana}, check=False)
    except (ConfigError, RuleFileError, OSError) as error:
        print(f"canary rules render: {error}", file=sys.stderr)
        return 2
    return 0


def check_shipped(config: RulesConfig, shipped: Path = SHIPPED_DIR, grafana: Path | None = None) -> int:
    """Exit status 1 (naming each stale file) unless ``shipped`` (rules/) and the Grafana alert file are the
    rendering with the defaults."""
    if not config.is_default:
        print("canary rules render --check: takes no other parameters", file=sys.stderr)
        return 2
    files = rendered_files(config, shipped)
    grafana = grafana_alerts.DEFAULT_OUTPUT if grafana is None else grafana
    files[grafana] = grafana_alerts.render([shipped / "canary.rules.yml"])
    if write_or_check(files, check=True, regenerate=grafana_alerts.REGENERATE):
        return 1
    print("the shipped rules are the rendering with the defaults")
    return 0
