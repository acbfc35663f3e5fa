"""The one HOST:PORT parser and the one way back to a URL (exporter/web/hostport.py)."""

from __future__ import annotations

import asyncio

import pytest

from exporter.web.hostport import http_url, parse_host_port


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("127.0.0.1:9465", ("127.0.0.1", 9465)),
        ("[::1]:0", ("::1", 0)),
        ("canary.internal:80", ("canary.internal", 80)),
    ],
)
def test_parse_host_port_reads_names_ipv4_and_bracketed_ipv6(text: str, expected: tuple[str, int]) -> None:
    assert parse_host_port(text) == expected


@pytest.mark.parametrize("text", ["nowhere", "::1:80", "host:65536", "host:", 9465])
def test_parse_host_port_says_what_it_expected(text: object) -> None:
    with pytest.raises(ValueError, match=r"expected HOST:PORT such as 127\.0\.0\.1:9465, got"):
        parse_host_port(text)


def test_any_port_can_be_refused() -> None:
    with pytest.raises(ValueError):
        parse_host_port("127.0.0.1:0", allow_any_port=False)


@pytest.mark.parametrize(
    ("host", "local", "url"),
    [
        ("127.0.0.1", False, "http://127.0.0.1:9465"),
        ("::1", False, "http://[::1]:9465"),
        ("0.0.0.0", False, "http://0.0.0.0:9465"),  # what a listener says it listens on
        ("0.0.0.0", True, "http://127.0.0.1:9465"),  # what reaches it from this machine
        ("::", True, "http://[::1]:9465"),
        ("canary.internal", True, "http://canary.internal:9465"),
    ],
)
def test_http_url_brackets_ipv6_and_reaches_a_wildcard_via_loopback(host: str, local: bool, url: str) -> None:
    assert http_url(host, 9465, local=local) == url
    loopback = {"0.0.0.0": "127.0.0.1", "::": "::1"}
    assert parse_host_port(url.removeprefix("http://")) == (loopback.get(host, host) if local else host, 9465)


@pytest.mark.parametrize("wildcard", ["0.0.0.0", "::"])
def test_the_local_url_of_a_wildcard_listener_reaches_it(wildcard: str) -> None:
    # asyncio (and so uvicorn) binds "::" IPv6-only: the URL must reach the listener's own family.
    async def main() -> bytes:
        async def greet(_reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            writer.write(b"hello")
            await writer.drain()
            writer.close()

        server = await asyncio.start_server(greet, host=wildcard, port=0)
        async with server:
            port = server.sockets[0].getsockname()[1]
            host, _ = parse_host_port(http_url(wildcard, port, local=True).removeprefix("http://"))
            reader, writer = await asyncio.open_connection(host, port)
            data = await reader.read()
            writer.close()
            return data

    assert asyncio.run(main()) == b"hello"
