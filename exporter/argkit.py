"""One way to add a ``canary`` subcommand, so every command's help keeps the line breaks of its examples.

Example::

    p = add_command(sub, "probe", "run probe rounds", DESCRIPTION, "example:\\n  canary probe --once")
    admin, actions = add_group(sub, "admin", "talk to a receiver")   # canary admin ACTION ...
"""

from __future__ import annotations

import argparse


def add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help: str | None = None,
    description: str | None = None,
    epilog: str | None = None,
) -> argparse.ArgumentParser:
    """``subparsers.add_parser(name, help=..., ...)`` with the description and epilog printed as written."""
    raw = argparse.RawDescriptionHelpFormatter
    if help is None:  # argparse lists a subcommand given any help=, None included
        return subparsers.add_parser(name, formatter_class=raw, description=description, epilog=epilog)
    return subparsers.add_parser(name, formatter_class=raw, help=help, description=description, epilog=epilog)


def add_group(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help: str | None = None,
    description: str | None = None,
    epilog: str | None = None,
    *,
    metavar: str = "ACTION",
) -> tuple[argparse.ArgumentParser, argparse._SubParsersAction[argparse.ArgumentParser]]:
    """A command whose first argument is one of its own subcommands (required, in ``args.<name>_command``):
    the command's parser and the subparsers to add them to."""
    parser = add_command(subparsers, name, help, description, epilog)
    return parser, parser.add_subparsers(dest=f"{name}_command", required=True, metavar=metavar)
