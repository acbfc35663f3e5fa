"""One way to add a ``canary`` subcommand, so every command's help keeps the line breaks of its examples.

Example::

    p = add_command(sub, "probe", help="run probe rounds", epilog="example:\\n  canary probe --once")
"""

from __future__ import annotations

import argparse
from typing import Any


def add_command(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **kwargs: Any
) -> argparse.ArgumentParser:
    """``subparsers.add_parser(name, **kwargs)`` with the description and epilog printed as written."""
    return subparsers.add_parser(name, formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)
