"""The network seam of the routability job: one JSON request, one ``HttpReply`` value, never an exception.

``HttpxTransport`` is the real implementation, the gateway package's client (pass
``transport=httpx.MockTransport(...)`` in tests).
Bodies are read up to a bound; a reply that is not JSON is kept as text for the classifier.
"""

from __future__ import annotations

import email.utils
import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

from exporter.configkit import Secret
from exporter.gateway.client import DEFAULT_TIMEOUT_SECONDS, GatewayClient
from exporter.gateway.types import GatewayError
from exporter.outcomes import Reason

MAX_BODY_BYTES = 32 * 1024 * 1024  # a full /models catalogue with descriptions is a few MB
# Never replay a cached answer (it would prove nothing); name ourselves. Harmless on plain OpenAI hosts.
DEFAULT_HEADERS = {"X-OpenRouter-Cache": "false", "X-OpenRouter-Title": "provider-canary routability"}


@dataclass(frozen=True, slots=True)
class HttpReply:
    """An HTTP status and parsed body, or (``status`` None) a failure of kind ``timeout`` / ``network``."""

    status: int | None
    body: Any = None
    failure: str = ""  # "timeout" | "network" when status is None
    detail: str = ""  # human text for the note; never a label, never contains the API key
    retry_after: float | None = None  # seconds, from a Retry-After header (429/503)


class JsonTransport(Protocol):
    """What the job needs from the network."""

    async def request(
        self, method: str, url: str, api_key: Secret | None, body: dict[str, Any] | None = None
    ) -> HttpReply: ...


class HttpxTransport:
    """JSON over the gateway package's client (``GatewayClient.fetch``: its connection pools, bounded reads
    and exception classification), with a per-request timeout.

    Example::

        transport = HttpxTransport(timeout=60.0)
        reply = await transport.request("GET", "https://openrouter.ai/api/v1/models", None)
        await transport.aclose()
    """

    def __init__(
        self, *, timeout: float = DEFAULT_TIMEOUT_SECONDS, transport: httpx.AsyncBaseTransport | None = None
    ) -> None:
        self._client = GatewayClient(
            "",  # every request names its absolute URL: the gateway's or a direct route's
            None,  # every request brings its route's key
            kind="openai-compatible",  # no headers of its own: ours are DEFAULT_HEADERS
            transport=transport,
            timeout=timeout,
            connect_timeout=timeout,
            max_body_bytes=MAX_BODY_BYTES,
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def request(
        self, method: str, url: str, api_key: Secret | None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        key = api_key.value if api_key is not None else None  # the one place a route's key is revealed
        reply = await self._client.fetch(method, url, key, json_body=body, headers=DEFAULT_HEADERS)
        if isinstance(reply, GatewayError):
            failure = "timeout" if reply.reason is Reason.TIMEOUT else "network"
            return HttpReply(None, None, failure, reply.detail)
        if reply.oversized:
            return HttpReply(reply.status, "", "", f"body larger than {MAX_BODY_BYTES} bytes")
        retry_after = retry_after_seconds(reply.headers.get("retry-after"))
        return HttpReply(reply.status, _parse(reply.body), retry_after=retry_after)


def retry_after_seconds(value: str | None) -> float | None:
    """``Retry-After`` as seconds: delta-seconds or an HTTP date (None when absent or unreadable).

    >>> retry_after_seconds("7"), retry_after_seconds("soon")
    (7.0, None)
    """
    if value is None or not value.strip():
        return None
    text = value.strip()
    if text.isascii() and text.isdigit():
        return float(text)
    try:
        when = email.utils.parsedate_to_datetime(text)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _parse(raw: bytes) -> Any:
    text = raw.decode("utf-8", errors="replace")
    try:
        return json.loads(text)  # tolerates OpenRouter's leading newline heartbeats
    except ValueError:
        return text.strip()
