"""The ``canary`` console script: the CLI, or a clear message when this install lacks a command's extra.

The base install is the router client alone (``pip install provider-canary``); the commands need the
``exporter`` or ``receiver`` extra. Without it, ``canary`` says which module is missing and what to
install instead of printing a traceback.

Example::

    $ pip install provider-canary && canary --help
    canary: this install lacks the 'yaml' module: the base package is the router client only; install the
    components with: pip install 'provider-canary[exporter,receiver]'
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

INSTALL_HINT = "pip install 'provider-canary[exporter,receiver]'"


def main(argv: Sequence[str] | None = None) -> int:
    try:
        from exporter.commands.canary import main as cli_main

        return cli_main(argv)
    except ModuleNotFoundError as exc:
        if exc.name is None or exc.name.split(".")[0] == "exporter":
            raise  # our own module missing is a bug, not an install choice
        print(
            f"canary: this install lacks the {exc.name!r} module: the base package is the router client "
            f"only; install the components with: {INSTALL_HINT}",
            file=sys.stderr,
        )
        return 2


if __name__ == "__main__":
    sys.exit(main())
