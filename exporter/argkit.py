"""One way to add a ``canary`` subcommand, so every command's help keeps the line breaks of its examples.

Example::

    p = add_command(sub, "probe", "run probe rounds", DESCRIPTION, "example:\\n  canary probe --once")
    admin, actions = add_group(sub, "admin", "talk to a receiver")   # canary admin ACTION ...
"""

from __future__ import annotations

import argparse
from typing import Any


def add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
    name: str,
    help: str | None = None,
    description: str | None = None,
    epilog: str | None = None,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """``subparsers.add_parser(name, help=..., ...)`` with the description and epilog printed as written."""
    texts = {"help": help, "description": description, "epilog": epilog}
    kwargs.update({key: text for key, text in texts.items() if text is not None})  # None: not given
    return subparsers.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)


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
