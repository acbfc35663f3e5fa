"""The network seam of the routability job: one JSON request, one ``HttpReply`` value, never an exception.

``HttpxTransport`` is the real implementation (httpx; pass ``transport=httpx.MockTransport(...)`` in tests).
Bodies are read up to a bound; a reply that is not JSON is kept as text for the classifier.
"""

from __future__ import annotations

import email.utils
import json
import time
from dataclasses import dataclass
from typing import Any, Protocol

import httpx

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
        self, method: str, url: str, api_key: str | None, body: dict[str, Any] | None = None
    ) -> HttpReply: ...


class HttpxTransport:
    """JSON over httpx with a per-request timeout.

    Example::

        transport = HttpxTransport(timeout=60.0)
        reply = await transport.request("GET", "https://openrouter.ai/api/v1/models", None)
        await transport.aclose()
    """

    def __init__(
        self,
        *,
        timeout: float = 60.0,
        transport: httpx.AsyncBaseTransport | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self._client = httpx.AsyncClient(
            timeout=httpx.Timeout(timeout),
            transport=transport,
            headers={**DEFAULT_HEADERS, **(headers or {})},
            follow_redirects=False,
        )

    async def aclose(self) -> None:
        await self._client.aclose()

    async def request(
        self, method: str, url: str, api_key: str | None, body: dict[str, Any] | None = None
    ) -> HttpReply:
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        try:
            async with self._client.stream(method, url, json=body, headers=headers) as response:
                raw = bytearray()
                async for chunk in response.aiter_bytes():
                    raw.extend(chunk)
                    if len(raw) > MAX_BODY_BYTES:
                        return HttpReply(
                            response.status_code, "", "", f"body larger than {MAX_BODY_BYTES} bytes"
                        )
                retry_after = retry_after_seconds(response.headers.get("retry-after"))
                return HttpReply(response.status_code, _parse(bytes(raw)), retry_after=retry_after)
        except httpx.TimeoutException as exc:
            return HttpReply(None, None, "timeout", type(exc).__name__)
        except (httpx.HTTPError, httpx.InvalidURL) as exc:
            return HttpReply(None, None, "network", f"{type(exc).__name__}: {exc}")


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
