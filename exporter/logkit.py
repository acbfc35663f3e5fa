"""The one log format of every command, with control characters escaped in every record.

A record's message can carry what a client sent (a model name, a provider tag, an admin's reason); a
newline in it would forge a whole log line, a bidi override would reorder one. ``EscapingFormatter``
writes each control character (``textkit.CONTROL_CHARACTERS``) as its escape in the formatted line, so one
record is always one line; a traceback that follows keeps its own lines.

Example::

    configure_logging(logging.INFO)
    logging.getLogger("canary").info("lift %s", "m\\nERROR forged")   # ... lift m\\nERROR forged
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

from exporter.textkit import escape_controls

LOG_FORMAT = "%(asctime)s %(levelname)s %(name)s %(message)s"


class EscapingFormatter(logging.Formatter):
    """A formatter whose formatted line (time, level, logger, message) never holds a control character."""

    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape_controls(super().formatMessage(record))


def configure_logging(level: int | str, stream: TextIO | None = None) -> None:
    """Log to ``stream`` (stderr) at ``level`` in ``LOG_FORMAT``, escaped; a handler already installed on
    the root logger gets the escaping formatter too."""
    logging.basicConfig(level=level, stream=stream or sys.stderr, format=LOG_FORMAT)
    for handler in logging.getLogger().handlers:
        handler.setFormatter(EscapingFormatter(LOG_FORMAT))
