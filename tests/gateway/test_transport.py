"""StampingTransport: httpx requests over our own httpcore pools, httpcore's errors as httpx's."""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import httpcore
import httpx
import pytest

from exporter.gateway.arrival import since_arrival
from exporter.gateway.classify import classify_exception
from exporter.gateway.transport import StampingTransport, as_httpx_error
from exporter.outcomes import Reason


class _RawServer:
    """Accepts one connection at a time on 127.0.0.1 and answers every request with ``reply`` (raw bytes;
    None: read the request and say nothing). Keeps the raw requests."""

    def __init__(self, reply: bytes | None) -> None:
        self.reply = reply
        self.requests: list[bytes] = []
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port = self._listener.getsockname()[1]
        self._thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                connection, _ = self._listener.accept()
            except OSError:
                return
            with connection:
                data = b""
                while b"\r\n\r\n" not in data:
                    data += connection.recv(65536)
                head, _, rest = data.partition(b"\r\n\r\n")
                length = next(
                    (
                        int(line.split(b":")[1])
                        for line in head.lower().split(b"\r\n")
                        if b"content-length" in line
                    ),
                    0,
                )
                while len(rest) < length:
                    rest += connection.recv(65536)
                self.requests.append(head + b"\r\n\r\n" + rest)
                if self.reply is None:
                    connection.recv(1)  # silent until the client gives up
                else:
                    connection.sendall(self.reply)

    def __enter__(self) -> _RawServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._listener.close()


@pytest.fixture
def ok_server() -> Iterator[_RawServer]:
    reply = b"HTTP/1.1 201 Created\r\ncontent-length: 5\r\nx-generation-id: gen-1\r\n\r\nhello"
    with _RawServer(reply) as server:
        yield server


def _send(port: int, **kwargs: object) -> httpx.Response:
    async def go() -> httpx.Response:
        timeout = httpx.Timeout(kwargs.pop("timeout", 5.0))  # type: ignore[arg-type]
        async with httpx.AsyncClient(transport=StampingTransport(shards=2), timeout=timeout) as http:
            response = await http.post(f"http://127.0.0.1:{port}/api/v1/x?q=1", json={"a": "ü"})
            return response

    return asyncio.run(go())


def test_a_request_and_its_response_cross_intact(ok_server: _RawServer) -> None:
    response = _send(ok_server.port)
    assert (response.status_code, response.text, response.headers["x-generation-id"]) == (
        201,
        "hello",
        "gen-1",
    )
    assert response.extensions["http_version"] == b"HTTP/1.1"
    assert since_arrival(response) >= 0.0
    (raw,) = ok_server.requests
    assert raw.startswith(b"POST /api/v1/x?q=1 HTTP/1.1\r\n")
    assert raw.endswith('{"a":"ü"}'.encode())


def test_a_silent_server_is_httpx_read_timeout_and_classified_as_a_timeout() -> None:
    with _RawServer(None) as server, pytest.raises(httpx.ReadTimeout) as caught:
        _send(server.port, timeout=0.2)
    assert classify_exception(caught.value).reason is Reason.TIMEOUT


def test_a_body_cut_short_is_an_httpx_protocol_error() -> None:
    cut = b"HTTP/1.1 200 OK\r\ncontent-length: 100\r\n\r\nonly this"
    with _RawServer(cut) as server, pytest.raises(httpx.RemoteProtocolError):
        _send(server.port)


def test_garbage_instead_of_http_is_an_httpx_protocol_error() -> None:
    with _RawServer(b"SSH-2.0-OpenSSH\r\n\r\n") as server, pytest.raises(httpx.RemoteProtocolError):
        _send(server.port)


@pytest.mark.parametrize(
    ("core", "mapped"),
    [
        (httpcore.ConnectTimeout, httpx.ConnectTimeout),
        (httpcore.ReadTimeout, httpx.ReadTimeout),
        (httpcore.WriteTimeout, httpx.WriteTimeout),
        (httpcore.PoolTimeout, httpx.PoolTimeout),
        (httpcore.ConnectError, httpx.ConnectError),
        (httpcore.ReadError, httpx.ReadError),
        (httpcore.WriteError, httpx.WriteError),
        (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
        (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
        (httpcore.LocalProtocolError, httpx.LocalProtocolError),
        (httpcore.ProxyError, httpx.ProxyError),
    ],
)
def test_every_httpcore_error_becomes_the_httpx_error_of_the_same_name(
    core: type[Exception], mapped: type[httpx.RequestError]
) -> None:
    request = httpx.Request("GET", "http://127.0.0.1/")
    error = as_httpx_error(core("what happened"), request)
    assert type(error) is mapped and str(error) == "what happened"
    assert isinstance(error, httpx.RequestError) and error.request is request
    other = ValueError("not httpcore's")
    assert as_httpx_error(other, request) is other


def test_at_least_one_pool() -> None:
    with pytest.raises(ValueError, match="shards"):
        StampingTransport(shards=0)
