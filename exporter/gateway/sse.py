"""A pure, incremental Server-Sent Events decoder: bytes in (split anywhere), events out.

It follows the WHATWG ``text/event-stream`` rules where they matter for a gateway client:

- lines end with ``\\n``, ``\\r\\n`` or a lone ``\\r``, and a chunk may end between ``\\r`` and ``\\n`` or
  inside a multi-byte UTF-8 character (invalid UTF-8 becomes U+FFFD, never an exception);
- ``data:`` lines of one event are joined with ``\\n``; an event is dispatched on a blank line, and a
  block without any ``data:`` line is not an event. The other fields (``event:``, ``id:``, ``retry:``) are
  ignored: no gateway sends them on a chat stream, and nothing here would read them;
- comment lines (``: OPENROUTER PROCESSING``, the gateway's keep-alives) are skipped, never content;
- memory is bounded: a line or an event larger than ``max_event_chars`` is dropped and reported once as an
  ``OVERSIZED`` item, and decoding resumes at the next event.

One deliberate leniency at the end of the stream: ``flush()`` dispatches an event whose last line was
complete but lacks the closing blank line (``data: [DONE]\\n``); if the stream stopped in the *middle* of a
line, that partial line is discarded (the reader sees the cut in what is missing: no finish reason, no
``[DONE]``).

Example::

    decoder = SSEDecoder()
    events = decoder.feed(b": OPENROUTER PROCESSING\\n\\ndata: {\\"a\\": 1}\\r")
    events += decoder.feed(b"\\n\\r\\n")
    [e.kind for e in events]      # [SSEKind.EVENT]
    events[0].data                 # '{"a": 1}'
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from enum import StrEnum

__all__ = ["DEFAULT_MAX_EVENT_CHARS", "SSEDecoder", "SSEEvent", "SSEKind"]

DEFAULT_MAX_EVENT_CHARS = 1024 * 1024

_LINE_END = re.compile(r"\r\n|\r|\n")


class SSEKind(StrEnum):
    EVENT = "event"  # a dispatched event: ``data`` is set
    OVERSIZED = "oversized"  # a line or event over the limit was dropped; ``text`` says how big


@dataclass(frozen=True, slots=True)
class SSEEvent:
    """One decoded item of an event stream (see ``SSEKind`` for which fields are meaningful)."""

    kind: SSEKind
    data: str = ""
    text: str = ""


class SSEDecoder:
    """Incremental decoder: ``feed(bytes)`` any number of times, then ``flush()`` once at end of stream.

    Not thread-safe; one decoder per stream. ``max_event_chars`` bounds both one line and the joined data
    of one event (in characters after UTF-8 decoding).
    """

    def __init__(self, *, max_event_chars: int = DEFAULT_MAX_EVENT_CHARS) -> None:
        if max_event_chars < 1:
            raise ValueError(f"max_event_chars must be >= 1, got {max_event_chars}")
        self._max = max_event_chars
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._started = False  # a leading BOM is stripped once
        self._partial = ""  # the unterminated tail of the current line
        self._skip_lf = False  # the previous chunk ended with "\r": a following "\n" belongs to it
        self._discarding_line = False  # the current line is over the limit; drop it up to its end
        # the event being assembled
        self._data: list[str] = []
        self._data_chars = 0
        self._has_data = False
        self._oversized_event = False

    def feed(self, data: bytes) -> list[SSEEvent]:
        """Decode one chunk of the byte stream; return the items it completed (possibly none)."""
        text = self._utf8.decode(data)
        return self._feed_text(text)

    def flush(self) -> list[SSEEvent]:
        """End of stream: decode what is left (see the module docstring for the end-of-stream rules)."""
        out = self._feed_text(self._utf8.decode(b"", final=True))
        if self._partial or self._discarding_line:  # the stream ended inside a line: it is discarded
            self._partial = ""
            self._discarding_line = False
            self._reset_event()
        else:
            self._process_line("", out)  # the blank line that would have ended the last event
        return out

    # -- internals -------------------------------------------------------------------------------------

    def _feed_text(self, text: str) -> list[SSEEvent]:
        if not text:
            return []
        if not self._started:
            self._started = True
            if text.startswith("\ufeff"):
                text = text[1:]
        if self._skip_lf:
            self._skip_lf = False
            if text.startswith("\n"):
                text = text[1:]
        out: list[SSEEvent] = []
        pos = 0
        for match in _LINE_END.finditer(text):
            start, end = match.span()
            if self._discarding_line:
                self._discarding_line = False
            else:
                line = self._partial + text[pos:start] if self._partial else text[pos:start]
                self._partial = ""
                if len(line) > self._max:
                    self._mark_oversized(out, len(line))
                else:
                    self._process_line(line, out)
            pos = end
        if text.endswith("\r"):
            self._skip_lf = True
        tail = text[pos:]
        if tail and not self._discarding_line:
            if len(self._partial) + len(tail) > self._max:
                self._mark_oversized(out, len(self._partial) + len(tail))
                self._partial = ""
                self._discarding_line = True
            else:
                self._partial += tail
        return out

    def _mark_oversized(self, out: list[SSEEvent], size: int) -> None:
        # One report per event: an event whose data is being dropped is already reported.
        if not self._oversized_event:
            out.append(
                SSEEvent(SSEKind.OVERSIZED, text=f"line or event over {self._max} characters ({size})")
            )
        self._oversized_event = True
        self._data.clear()
        self._data_chars = 0

    def _process_line(self, line: str, out: list[SSEEvent]) -> None:
        if not line:
            if self._has_data and not self._oversized_event:
                out.append(SSEEvent(SSEKind.EVENT, data="\n".join(self._data)))
            self._reset_event()
            return
        name, colon, value = line.partition(":")
        if name != "data":  # a comment (an empty name), or a field this client does not read
            return
        self._has_data = True
        if self._oversized_event:
            return
        if colon and value.startswith(" "):
            value = value[1:]
        self._data_chars += len(value) + (1 if self._data else 0)
        if self._data_chars > self._max:
            self._mark_oversized(out, self._data_chars)
            return
        self._data.append(value)

    def _reset_event(self) -> None:
        self._data = []
        self._data_chars = 0
        self._has_data = False
        self._oversized_event = False
