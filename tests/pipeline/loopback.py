"""Loopback stand-ins for the pipeline tests: a metrics server whose text we flip, and a webhook sink."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class MetricsServer:
    """Serves ``render()`` as Prometheus text on ``/metrics``; tests replace the renderer at will."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._render: Callable[[], str] = lambda: ""
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                body = outer.text().encode()
                self.send_response(200 if self.path == "/metrics" else 404)
                self.send_header("Content-Type", "text/plain; version=0.0.4")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self._server.server_address[1]}"

    def serve(self, render: Callable[[], str]) -> None:
        with self._lock:
            self._render = render

    def text(self) -> str:
        with self._lock:
            return self._render()

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@dataclass(frozen=True)
class Delivery:
    path: str
    authorization: str
    body: dict[str, Any]


class WebhookSink:
    """Records every POST (path, Authorization header, JSON body) and answers 200."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._deliveries: list[Delivery] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                with outer._lock:
                    outer._deliveries.append(Delivery(self.path, self.headers.get("Authorization", ""), body))
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}{path}"

    def deliveries(self) -> list[Delivery]:
        with self._lock:
            return list(self._deliveries)

    def clear(self) -> None:
        with self._lock:
            self._deliveries.clear()

    def firing(self, path: str, **labels: str) -> list[tuple[Delivery, dict[str, Any]]]:
        """(delivery, alert) pairs of firing alerts posted to ``path`` whose labels include ``labels``."""
        found = []
        for delivery in self.deliveries():
            if delivery.path != path:
                continue
            for alert in delivery.body.get("alerts", []):
                if alert["status"] == "firing" and labels.items() <= alert["labels"].items():
                    found.append((delivery, alert))
        return found

    def wait_firing(
        self, path: str, timeout: float = 20.0, **labels: str
    ) -> list[tuple[Delivery, dict[str, Any]]]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = self.firing(path, **labels)
            if found:
                return found
            time.sleep(0.1)
        raise AssertionError(f"no firing alert with {labels} posted to {path} within {timeout} s")

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
