"""The one ``HOST:PORT`` parser (listen settings and ``--listen`` flags): names, IPv4, ``[IPv6]``."""

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
