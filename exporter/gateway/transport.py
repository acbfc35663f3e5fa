"""The gateway client's httpx transport: httpcore connection pools built with the arrival-stamping backend.

httpx's own ``AsyncHTTPTransport`` builds its httpcore pool with no way to choose the network backend, so
this transport owns its pools (httpcore's public ``AsyncConnectionPool(network_backend=...)``) and maps
between the two libraries' public request, response and exception types: httpx hands it an
``httpx.Request`` (its body stream, its extensions: ``timeout``, ``trace``), and gets back an
``httpx.Response`` whose body streams from httpcore, and httpx's exception classes (``httpx.ReadTimeout``,
``httpx.ConnectError``, ...), so ``classify.classify_exception`` reads them as it reads httpx's own.

Requests are spread over ``shards`` independent pools by a pool key (request extension ``POOL_KEY``, else the
URL path): httpcore's pool does bookkeeping in O(connections x requests) on every request start and end, and
with a hundred concurrent streams in one pool that CPU time stalls the event loop and delays other streams'
reads, which is TTFT measurement error. One host's probes are sequential, so keying by host lets them reuse
its warm connection.

Example::

    transport = StampingTransport()
    async with httpx.AsyncClient(transport=transport) as http:
        response = await http.get("https://openrouter.ai/api/v1/models")
        since_arrival(response)  # how long ago the latest read's bytes reached this host
"""

from __future__ import annotations

import ssl
from collections.abc import AsyncIterator

import httpcore
import httpx

from exporter.gateway.arrival import ArrivalStampingBackend

__all__ = ["POOL_KEY", "StampingTransport"]

POOL_KEY = "canary_pool_key"  # request extension: which pool (the pinned endpoint, else the model)
_SHARDS = 16
_MAX_CONNECTIONS = 64  # per pool

# httpcore's exceptions and the httpx classes that say the same, most specific first (isinstance order).
_EXCEPTIONS: tuple[tuple[type[Exception], type[httpx.RequestError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)
_CORE_ERRORS = tuple(core for core, _ in _EXCEPTIONS)


def as_httpx_error(exc: Exception, request: httpx.Request) -> Exception:
    """The httpx exception for an httpcore one (same message, ``request`` attached); other errors as they are.

    Example: ``as_httpx_error(httpcore.ReadTimeout("timed out"), request)`` → ``httpx.ReadTimeout``.
    """
    for core, mapped in _EXCEPTIONS:
        if isinstance(exc, core):
            return mapped(str(exc), request=request)
    return exc


class _ResponseStream(httpx.AsyncByteStream):
    """An httpcore response body as httpx's byte stream, its errors as httpx's."""

    def __init__(self, core: httpcore.Response, request: httpx.Request) -> None:
        self._core = core
        self._request = request

    async def __aiter__(self) -> AsyncIterator[bytes]:
        try:
            async for part in self._core.aiter_stream():
                yield part
        except _CORE_ERRORS as exc:
            raise as_httpx_error(exc, self._request) from exc

    async def aclose(self) -> None:
        try:
            await self._core.aclose()
        except _CORE_ERRORS as exc:
            raise as_httpx_error(exc, self._request) from exc


class StampingTransport(httpx.AsyncBaseTransport):
    """``shards`` httpcore pools whose connections know when their bytes arrived (see the module).

    ``kernel_stamps=False`` keeps the same sockets without asking the kernel for receive stamps (a read is
    stamped when it runs): the baseline of ``bench/gateway_ttft.py``.
    """

    def __init__(
        self,
        shards: int = _SHARDS,
        *,
        ssl_context: ssl.SSLContext | None = None,
        kernel_stamps: bool = True,
    ) -> None:
        if shards < 1:
            raise ValueError(f"shards must be at least 1, got {shards}")
        context = ssl_context or httpx.create_ssl_context()  # built once, shared: one costs milliseconds
        backend = ArrivalStampingBackend(kernel_stamps=kernel_stamps)
        self.kernel_stamps = backend.kernel_stamps
        self._pools = [
            httpcore.AsyncConnectionPool(
                ssl_context=context,
                max_connections=_MAX_CONNECTIONS,
                max_keepalive_connections=_MAX_CONNECTIONS,
                keepalive_expiry=5.0,
                network_backend=backend,
            )
            for _ in range(shards)
        ]

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        key = request.extensions.get(POOL_KEY) or request.url.path
        pool = self._pools[hash(key) % len(self._pools)]
        url = request.url
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(scheme=url.raw_scheme, host=url.raw_host, port=url.port, target=url.raw_path),
            headers=request.headers.raw,
            content=_body(request),
            extensions=request.extensions,
        )
        try:
            core = await pool.handle_async_request(core_request)
        except _CORE_ERRORS as exc:
            raise as_httpx_error(exc, request) from exc
        return httpx.Response(
            status_code=core.status,
            headers=core.headers,
            stream=_ResponseStream(core, request),
            extensions=core.extensions,
        )

    async def aclose(self) -> None:
        for pool in self._pools:
            await pool.aclose()


async def _body(request: httpx.Request) -> AsyncIterator[bytes]:
    """The request body as httpcore reads it (httpx builds every async request with an async stream)."""
    stream = request.stream
    if not isinstance(stream, httpx.AsyncByteStream):
        raise httpx.StreamError(
            f"a synchronous request body cannot be sent by an async transport: {request!r}"
        )
    async for part in stream:
        yield part
