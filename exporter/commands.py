"""One way to add a ``canary`` subcommand, so every command's help keeps the line breaks of its examples.

Example::

    p = add_command(sub, "probe", "run probe rounds", DESCRIPTION, "example:\\n  canary probe --once")
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
