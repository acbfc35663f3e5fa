"""The one ``HOST:PORT`` parser (listen settings and ``--listen`` flags): names, IPv4, ``[IPv6]``; and the one
way back from a host and a port to a URL."""

from __future__ import annotations

import re

_HOST_PORT = re.compile(r"(?P<host>\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.\-]+):(?P<port>[0-9]{1,5})", re.ASCII)


def parse_host_port(text: object, *, allow_any_port: bool = True) -> tuple[str, int]:
    """``(host, port)`` from ``HOST:PORT``; port 0 ("any free port") only with ``allow_any_port``.

    >>> parse_host_port("127.0.0.1:9465"), parse_host_port("[::1]:0")
    (('127.0.0.1', 9465), ('::1', 0))
    >>> parse_host_port("nowhere")
    Traceback (most recent call last):
    ValueError: expected HOST:PORT such as 127.0.0.1:9465, got 'nowhere'
    """
    match = _HOST_PORT.fullmatch(text) if isinstance(text, str) else None
    lowest = 0 if allow_any_port else 1
    if match is None or not lowest <= int(match["port"]) <= 65535:
        raise ValueError(f"expected HOST:PORT such as 127.0.0.1:9465, got {text!r}")
    return match["host"].strip("[]"), int(match["port"])


_LOOPBACK = {"0.0.0.0": "127.0.0.1", "::": "::1"}  # noqa: S104 - listen addresses, read to connect locally


def http_url(host: str, port: int, *, local: bool = False) -> str:
    """The URL of ``host:port`` (an IPv6 host in brackets); with ``local``, the one that reaches a listen
    address from this machine, a wildcard address via the loopback of its family (asyncio, so uvicorn,
    binds ``::`` IPv6-only: 127.0.0.1 does not reach it).

    >>> http_url("::1", 9465), http_url("0.0.0.0", 9465, local=True), http_url("::", 9465, local=True)
    ('http://[::1]:9465', 'http://127.0.0.1:9465', 'http://[::1]:9465')
    """
    if local:
        host = _LOOPBACK.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}"
