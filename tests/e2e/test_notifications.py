"""End to end: the shipped Alertmanager config and templates tell people what was suspended and why.

The real Alertmanager renders ``config/templates/canary.tmpl`` through the shipped chat receiver (a
Slack-compatible incoming webhook) to a local endpoint; the test reads the text a person would read.
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from .stack import FLEETS, Stack

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

MODEL = "e2e/notify"
BROKEN = "breaker/fp8"


class ChatSink:
    """A loopback endpoint that records every Slack-format message Alertmanager posts."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._messages: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                with outer._lock:
                    outer._messages.append(json.loads(raw))
                self.send_response(200)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}/chat"

    def messages(self) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._messages)

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def rendered(message: dict[str, Any]) -> str:
    """Title and text of every attachment: what the chat shows."""
    return "\n".join(f"{a.get('title', '')}\n{a.get('text', '')}" for a in message.get("attachments") or [])


@pytest.fixture(scope="module")
def chat() -> Iterator[ChatSink]:
    sink = ChatSink()
    yield sink
    sink.close()


@pytest.fixture(scope="module")
def stack(make_stack: Callable[..., Stack], chat: ChatSink) -> Stack:
    return make_stack(FLEETS / "notify.yaml", mode="enforce", chat_url=chat.url)


def test_a_suspension_notification_says_model_provider_contract_reason_rung_until_and_evidence(
    stack: Stack, chat: ChatSink
) -> None:
    stack.wait_suspended(MODEL, {BROKEN}, what="the schema breaker suspended")

    def suspension_message() -> dict[str, Any] | None:
        for message in chat.messages():
            text = rendered(message)
            if "CanaryProviderSuspended" in text and f"provider: {BROKEN}" in text and "rung: " in text:
                return message
        return None

    message = stack.wait_for(
        suspension_message,
        what="the CanaryProviderSuspended notification in the chat",
        context=lambda: [rendered(m) for m in chat.messages()],
    )
    assert message is not None
    text = rendered(message)
    print(text)  # shown with -s: what the person reads
    assert message["channel"] == "#llm-canary-notices", "info alerts go to the non-paging channel"
    assert f"[FIRING:1] CanaryProviderSuspended {MODEL} / {BROKEN}" in text
    assert f"model: {MODEL}\n" in text
    assert "contract: structured\n" in text
    assert re.search(r"^reason: structured: [a-z_]+$", text, flags=re.MULTILINE), text
    assert "rung: 1\n" in text
    assert re.search(r"^until: 20\d\d-\d\d-\d\d \d\d:\d\d:\d\d", text, flags=re.MULTILINE), text
    evidence = f"evidence: {stack.exporter_url}/v1/evidence?model=e2e%2Fnotify&provider=breaker%2Ffp8"
    assert evidence in text
    assert "runbook: docs/runbook.md#canaryprovidersuspended" in text
    # Nothing about the healthy hosts, and the machine-only suspension request never reaches people.
    everything = "\n".join(rendered(m) for m in chat.messages())
    assert "good-a/fp8" not in everything and "CanaryProviderFailing" not in everything
