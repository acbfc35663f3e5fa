"""Client library for a product's router: keep the receiver's ignore lists and merge them into requests,
journal who served each request, and hand real replies to the live judges (``exporter.router.live``)."""

from exporter.router.client import IgnoreListClient, merge_ignore_tags
from exporter.router.journal import Journal, Served
from exporter.router.observe import (
    AsyncCanaryTransport,
    CanaryTransport,
    Observer,
    canary_async_http_client,
    canary_http_client,
)

__all__ = [
    "AsyncCanaryTransport",
    "CanaryTransport",
    "IgnoreListClient",
    "Journal",
    "Observer",
    "Served",
    "canary_async_http_client",
    "canary_http_client",
    "merge_ignore_tags",
]
