"""Shared pieces of the receiver benchmarks: the server process (receiver + same-stack baselines) and a
small keep-alive HTTP/1.1 load generator. Run by receiver_ignore.py / receiver_webhook.py, not directly.

The server is one Starlette app on uvicorn holding the real receiver app plus baselines on the same stack:
``/baseline/static`` (a static JSON file via StaticFiles), ``/baseline/bytes`` (pre-encoded JSON from
memory), ``/baseline/echo`` (POST: parse JSON, answer 200) and ``/baseline/fsync`` (POST: parse JSON,
append one line and fsync it, answer 200).
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def serve(workdir: Path, port_file: Path) -> None:
    import uvicorn
    from starlette.applications import Starlette
    from starlette.requests import Request
    from starlette.responses import Response
    from starlette.routing import Mount, Route
    from starlette.staticfiles import StaticFiles

    from exporter.configkit import Secret
    from exporter.receiver.app import build_app
    from exporter.receiver.config import ReceiverConfig
    from exporter.receiver.exclusions import BuiltinExclusion
    from exporter.receiver.service import ReceiverService
    from exporter.receiver.state import Mode

    config = ReceiverConfig(
        store_dir=workdir / "store",
        webhook_token=Secret("env:W", "bench-webhook"),
        admin_token=Secret("env:A", "bench-admin"),
        mode=Mode.ENFORCE,
        builtin=(
            BuiltinExclusion(
                model="moonshotai/kimi-k2-0905",
                provider="strictguard/text",
                reason="known-filtering control host",
            ),
        ),
    )
    service = ReceiverService(config, init=True)
    for i in range(3):
        service.add_incident("moonshotai/kimi-k2-0905", f"incident{i}/fp8", "provider outage", None)
    static_dir = workdir / "static"
    static_dir.mkdir(exist_ok=True)
    body = service.ignore("moonshotai/kimi-k2-0905").body
    (static_dir / "ignore.json").write_bytes(body)
    log = os.open(workdir / "baseline.log", os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)

    async def from_bytes(request: Request) -> Response:
        return Response(body, media_type="application/json")

    async def echo(request: Request) -> Response:
        json.loads(await request.body())
        return Response(b'{"status":"ok"}', media_type="application/json")

    def append(line: bytes) -> None:
        os.write(log, line)
        os.fsync(log)

    async def durable(request: Request) -> Response:
        import anyio.to_thread

        data = json.loads(await request.body())
        await anyio.to_thread.run_sync(append, json.dumps(data).encode()[:200] + b"\n")
        return Response(b'{"status":"ok"}', media_type="application/json")

    app = Starlette(
        routes=[
            Route("/baseline/bytes", from_bytes),
            Mount("/baseline/static", StaticFiles(directory=static_dir)),
            Route("/baseline/echo", echo, methods=["POST"]),
            Route("/baseline/fsync", durable, methods=["POST"]),
            Mount("/", app=build_app(service)),
        ]
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)  # TCP_NODELAY, as the CLI
    sock.bind(("127.0.0.1", 0))
    port_file.write_text(str(sock.getsockname()[1]))
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])


def start_server(workdir: Path) -> tuple[subprocess.Popen[bytes], int]:
    port_file = workdir / "port"
    proc = subprocess.Popen([sys.executable, __file__, str(workdir), str(port_file)])
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if port_file.exists() and port_file.read_text():
            port = int(port_file.read_text())
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                return proc, port
            except OSError:
                pass
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError("bench server did not start")


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, raw: bytes) -> int:
    writer.write(raw)
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = 0
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":", 1)[1])
    if length:
        await reader.readexactly(length)
    return status


def get(path: str, headers: dict[str, str] | None = None) -> bytes:
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    return f"GET {path} HTTP/1.1\r\nHost: bench\r\n{extra}\r\n".encode()


def post(path: str, body: bytes, headers: dict[str, str] | None = None) -> bytes:
    extra = "".join(f"{k}: {v}\r\n" for k, v in (headers or {}).items())
    head = f"POST {path} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
    head += f"Content-Length: {len(body)}\r\n"
    return (head + extra + "\r\n").encode() + body


async def load(
    port: int,
    make_request: Any,
    *,
    connections: int,
    duration: float,
    expect: int,
    interval: float | None = None,
) -> tuple[float, list[float]]:
    """Run ``connections`` keep-alive clients for ``duration`` seconds; (requests/s, latencies in s).

    Closed loop (each client sends its next request as soon as the last one is answered: saturation) unless
    ``interval`` is given: then each client polls once per ``interval`` seconds (open loop, like routers).
    """
    latencies: list[float] = []
    stop_at = time.perf_counter() + duration
    counter = iter(range(10**9))

    async def client(n: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        next_at = time.perf_counter() + (interval or 0) * n / connections
        try:
            while time.perf_counter() < stop_at:
                if interval is not None:
                    await asyncio.sleep(max(0.0, next_at - time.perf_counter()))
                    next_at += interval
                raw = make_request(next(counter))
                started = time.perf_counter()
                status = await _request(reader, writer, raw)
                latencies.append(time.perf_counter() - started)
                if status != expect:
                    raise RuntimeError(f"unexpected status {status}")
        finally:
            writer.close()

    started = time.perf_counter()
    await asyncio.gather(*(client(n) for n in range(connections)))
    return len(latencies) / (time.perf_counter() - started), latencies


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[98] if len(values) >= 100 else max(values)


if __name__ == "__main__":
    serve(Path(sys.argv[1]), Path(sys.argv[2]))
